/**
 * @file stage1_zhetd2_fused.h
 * @brief Small orders: the one-stage reduction to tridiagonal form in one
 *        GPU kernel, stage 1 with bandwidth 1.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_STAGE1_ZHETD2_FUSED_H
#define STARTRD_STAGE1_ZHETD2_FUSED_H

#include <complex.h>
#include <stdint.h>

/** Whether startrd_stage1_zhetd2_fused() takes order @p n on the GPU of
 *  CUDA worker @p cuda_worker. */
int startrd_stage1_zhetd2_fused_fits(int64_t n, int cuda_worker);

/**
 * Reduces the n x n Hermitian matrix A (triangle @p uplo, leading dimension
 * lda; in GPU @p a_devid's memory when a_devid >= 0, else host memory),
 * n >= 2, to tridiagonal form on the GPU of @p cuda_worker, with LAPACK
 * ZHETRD's results: A's triangle holds the tridiagonal matrix and the
 * reflectors, d (n), e and tau (n-1 each) the diagonal, the off-diagonal
 * and the reflectors' factors.  That is stage 1 with bandwidth 1 as
 * ZHETRD_HE2HB leaves it, and its d and e are already the tridiagonal
 * matrix's.  With @p check_finite, a NaN or Inf in the triangle gives
 * STARTRD_ERR_NONFINITE and leaves A unchanged.  Returns when done: 0 or
 * a positive startrd_status.
 */
int startrd_stage1_zhetd2_fused(char uplo, int64_t n, double complex *A, int64_t lda, int a_devid, double *d,
                                double *e, double complex *tau, int cuda_worker, int check_finite);

#endif
