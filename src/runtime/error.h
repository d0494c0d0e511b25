/* Error reporting.  API and runtime code report with startrd_error() and
 * return a status; codelets cannot return one, so they record a failure that
 * the algorithm collects once its tasks have completed.  A failed call says
 * why in one line: whoever returns a positive status first prints it, and
 * the callers that pass it on print nothing more. */
#ifndef STARTRD_ERROR_H
#define STARTRD_ERROR_H

/** Not a public status: a call on a matrix in GPU memory that has to run
 *  where the host reads it (stage 1's columns kept in host memory, the
 *  host cores' work) says so with this before writing anything, and its
 *  driver brings the matrix to host memory and runs there instead. */
enum { STARTRD_HOST_ONLY = 1000 };

/** Print "startrd: <message>" as one line on stderr, unless the library is
 *  quiet: the open context's quiet option, or $STARTRD_QUIET while no
 *  context is open. */
void startrd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Whether $STARTRD_QUIET asks for silence (set, and neither empty nor "0"). */
int startrd_quiet_from_env(void);

/** The quiet option of the context being opened or open (0 or 1), or -1
 *  once it is closed: $STARTRD_QUIET decides then. */
void startrd_error_set_quiet(int quiet);

/** Between these two, only the first message is printed: the workers that
 *  run one set-up side by side fail for one cause, and each would say it
 *  again.  Not nested; meant for the context's opening, under its lock. */
void startrd_error_burst_begin(void);
void startrd_error_burst_end(void);

/** Record that @p call returned @p status inside codelet @p kernel; the
 *  first failure since startrd_kernel_failures_take() is printed. */
void startrd_kernel_failure(const char *kernel, const char *call, long status);

/** Number of kernel failures recorded since the last call; resets the count. */
int startrd_kernel_failures_take(void);

#endif
