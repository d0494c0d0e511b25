/* What every driver's argument check shares, whatever its precision. */
#ifndef STARTRD_ARGUMENTS_H
#define STARTRD_ARGUMENTS_H

#include <stdint.h>

/** Report argument -@p info of @p routine, named names[-info - 1], as invalid. */
void startrd_report_argument(const char *routine, int info, const char *const *names);

/** Whether ngpu names GPUs a call can have, without opening a context. */
int startrd_ngpu_valid(int64_t ngpu);

#endif
