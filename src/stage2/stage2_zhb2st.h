/**
 * @file stage2_zhb2st.h
 * @brief Stage 2 of the two-stage reduction: Hermitian band -> real tridiagonal.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_STAGE2_ZHB2ST_H
#define STARTRD_STAGE2_ZHB2ST_H

#include <complex.h>
#include <stdint.h>

#include "starpu_include.h"

/**
 * Copy the band of bandwidth kd of the n x n matrix A (LAPACK storage,
 * triangle @p uplo) into AB, leading dimension ldab = 2*kd+1, in the layout
 * the bulge-chasing kernels work in (kernels_stage2.h), scratch rows zeroed,
 * on the calling thread.  After stage 1 the copies back to A have written
 * the band already (startrd_stage1_zhe2hb()); this serves a matrix stage 1
 * did not reduce.
 */
void startrd_stage2_zband_from_dense(char uplo, int64_t n, int64_t kd, const double complex *A, int64_t lda,
                                    double complex *AB, int64_t ldab);

/**
 * Chase the band AB (as left by startrd_stage2_zband_from_dense, ldab =
 * 2kd+1) down to the real tridiagonal (d, e), keeping the reflectors in
 * HOUS in the layout of bulge_plan.h (startrd_bulge_lhous() entries; for
 * vect = 'V' those no reflector occupies are set to zero).  With @p ngpu >
 * 0 CUDA workers of distinct GPUs in @p cuda_workers, kd <=
 * STARTRD_CHASE_GPU_MAX_KD (codelets.h) and the band and HOUS within half of a GPU's
 * memory, the chase runs on the GPUs and AB is left as it was: split over
 * all of them (at most STARTRD_CHASE_MAX_GPUS) when ngpu > 1, vect = 'N', kd >= 2 and each can
 * reach the others' memory, else one task on the first.  Otherwise it runs as ranks
 * on every CPU worker, in place in AB.  Blocks until done.  @p chased_on, if
 * not NULL, receives how many GPUs the chase ran on (0: the CPU workers).
 * @return 0 or a positive startrd_status.
 */
int startrd_stage2_zhb2st(char vect, char uplo, int64_t n, int64_t kd, double complex *AB,
                          int64_t ldab, double *d, double *e, double complex *hous, const int *cuda_workers,
                          int ngpu, int *chased_on);

/** A chase made ready ahead of its band. */
typedef struct startrd_zhb2st_chase startrd_zhb2st_chase_t;

/**
 * startrd_stage2_zhb2st() in three steps, so that the chase's buffers are
 * made ready while stage 1 still writes the band, and the chase starts as
 * soon as stage 1 has ended, before stage 1 gives its own buffers back:
 * prepare chooses where the chase runs (as startrd_stage2_zhb2st() does)
 * and, for one GPU, pins and registers AB, d, e and HOUS (AB's content is
 * not read yet); start submits the one-GPU chase; finish (with @p run) runs
 * the chase where start did not, waits for it, and frees @p s, or (without)
 * only gives back what prepare took.  With @p keep_hous_on_gpu, a chase on
 * one GPU writes HOUS into a handle with no home, neither pinned nor
 * copied to the host array, and finish gives that handle to
 * *hous_on_gpu (NULL where the chase ran elsewhere, or failed, and HOUS
 * is in the host array): the back-transformation reads it there, and the
 * caller unregisters it.  prepare: 0 or a
 * positive startrd_status, with *s NULL on failure; start and finish: 0 or
 * a positive startrd_status.
 */
int startrd_stage2_zhb2st_prepare(char vect, char uplo, int64_t n, int64_t kd, double complex *AB, int64_t ldab,
                                  double *d, double *e, double complex *hous, const int *cuda_workers, int ngpu,
                                  int keep_hous_on_gpu, startrd_zhb2st_chase_t **s);
int startrd_stage2_zhb2st_start(startrd_zhb2st_chase_t *s);
int startrd_stage2_zhb2st_finish(startrd_zhb2st_chase_t *s, int run, int *chased_on,
                                 starpu_data_handle_t *hous_on_gpu);

#endif
