/* Error reporting.  API and runtime code report with startrd_error() and
 * return a status; codelets cannot return one, so they record a failure that
 * the algorithm collects once its tasks have completed. */
#ifndef STARTRD_ERROR_H
#define STARTRD_ERROR_H

/** Print "startrd: <message>" as one line on stderr. */
void startrd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Record (and print) that @p call returned @p status inside codelet @p kernel. */
void startrd_kernel_failure(const char *kernel, const char *call, long status);

/** Number of kernel failures recorded since the last call; resets the count. */
int startrd_kernel_failures_take(void);

#endif
