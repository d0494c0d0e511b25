/**
 * @file stage1_zhe2hb.h
 * @brief Stage 1 of the two-stage reduction: dense Hermitian -> Hermitian band.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_STAGE1_ZHE2HB_H
#define STARTRD_STAGE1_ZHE2HB_H

#include <complex.h>
#include <stdint.h>

#include "startrd.h"

/** A stage-1 reduction in flight. */
typedef struct startrd_zhe2hb startrd_zhe2hb_t;

/**
 * Start reducing the n x n Hermitian matrix A (triangle @p uplo, leading
 * dimension lda) to a band of bandwidth nb by unitary similarity, with
 * LAPACK ZHETRD_HE2HB's output: the band in the diagonal and first nb
 * off-diagonals of A, the reflectors beyond it and their scalar factors in
 * tau[0 .. n-nb-1].
 * Block columns are distributed in blocks of dist_nb columns over the
 * @p nowners CUDA workers of @p owner_worker; nowners = 0 runs on CPU workers.
 * side_worker[p] (NULL: owner_worker[p]) is a second worker of the same GPU
 * for the panels and the copies out, which then overlap the updates.
 * The partial products of A*V (one per GPU, or one per CPU worker) are
 * summed as @p allreduce says, in the groups part_group[p] gives, numbered
 * below STARPU_NMAXWORKERS (NULL: a group each); STARTRD_ALLREDUCE_FULL
 * keeps both triangles and gathers block rows instead, and
 * STARTRD_ALLREDUCE_AUTO, which the caller resolves first
 * (startrd_context_allreduce()), counts as hierarchical.
 * With @p AB not NULL, the band also goes to AB (leading dimension
 * ldab >= 2nb+1) in stage 2's storage (startrd_kernel_zband_from_dense()),
 * written by the copies back to A while the reduction of the last columns
 * runs; if n <= nb nothing is written.
 * With @p check_finite, a NaN or Inf in the referenced triangle gives
 * STARTRD_ERR_NONFINITE and leaves A unchanged.
 * With @p a_devid >= 0, A is in that GPU's memory (the others' reach it
 * by peer copies): the block columns must then live on the GPUs; where
 * they cannot (too little room, nowners = 0), nothing is submitted and the return is
 * STARTRD_HOST_ONLY (error.h), for the caller to bring A to host memory.
 * Returns once the tasks are submitted, with the reduction in @p *s (NULL
 * when there is nothing to do), to be waited for with
 * startrd_stage1_zhe2hb_wait() and then released with
 * startrd_stage1_zhe2hb_release(): the GPUs' memory of the matrix and the
 * runtime's handles can be given back while the next work runs.
 * @return 0, or a positive startrd_status when nothing was submitted.
 */
int startrd_stage1_zhe2hb_submit(char uplo, int64_t n, int64_t nb, int64_t dist_nb,
                                 int nowners, const int *owner_worker, const int *side_worker,
                                 const int *part_group, startrd_allreduce_t allreduce,
                                 double complex *A, int64_t lda, int a_devid, double complex *tau,
                                 double complex *AB, int64_t ldab, int check_finite, startrd_zhe2hb_t **s);

/** Wait for the reduction @p s (NULL: none) to end; on success A and AB
 *  hold its results.  0 or a positive startrd_status. */
int startrd_stage1_zhe2hb_wait(startrd_zhe2hb_t *s);

/** Whether the reduction @p s (NULL: none) keeps its block columns on host
 *  memory that StarPU moves to and from the GPUs, the GPUs lacking the room
 *  for them: 1 or 0. */
int startrd_stage1_zhe2hb_out_of_core(const startrd_zhe2hb_t *s);

/** After startrd_stage1_zhe2hb_wait(): on success give tau its values, and
 *  free @p s (NULL: nothing) without waiting for the GPUs. */
void startrd_stage1_zhe2hb_release(startrd_zhe2hb_t *s);

/** The three calls above in a row: blocks until done.  0 or a positive
 *  startrd_status. */
int startrd_stage1_zhe2hb(char uplo, int64_t n, int64_t nb, int64_t dist_nb,
                          int nowners, const int *owner_worker, const int *side_worker, const int *part_group,
                          startrd_allreduce_t allreduce,
                          double complex *A, int64_t lda, double complex *tau, double complex *AB, int64_t ldab,
                          int check_finite);

#endif
