/* What every driver's argument check shares, whatever its precision. */
#ifndef STARTRD_ARGUMENTS_H
#define STARTRD_ARGUMENTS_H

#include <stdint.h>

/** Report argument -@p info of @p routine, named names[-info - 1], as invalid. */
void startrd_report_argument(const char *routine, int info, const char *const *names);

/** Whether ngpu names GPUs a call can have, without opening a context. */
int startrd_ngpu_valid(int64_t ngpu);

/** Whether a call with this ngpu runs on GPUs (the context has some and
 *  ngpu is not 0), without opening a context: where not, the drivers bring
 *  arrays in GPU memory to the host (drivers_z.h). */
int startrd_gpus_take_part(int64_t ngpu);

/** An n x n matrix's order, array and leading dimension, in that order:
 *  0, or the position (1 for n .. 3 for ld) of the first wrong one. */
int startrd_check_square(int64_t n, const void *M, int64_t ld);

/** The arguments that the selected-pairs drivers end with, in LAPACK's
 *  order from vu on: vu (an empty interval (vl, vu] with range 'V' is
 *  vu's fault, as in LAPACK), il, iu, m, w, Z, ldz, then ngpu; jobz and
 *  range valid and upper-case.  0, or the position (1 for vu .. 8 for
 *  ngpu) of the first wrong one. */
int startrd_check_selection(char jobz, char range, int64_t n, double vl, double vu, int64_t il, int64_t iu,
                            const void *m, const void *w, const void *Z, int64_t ldz, int64_t ngpu);

#endif
