/**
 * @file kernels_stage1.h
 * @brief CPU kernels of stage 1 that are the library's own (the products
 *        and the panel factorisation call BLAS and LAPACK directly).
 */
#ifndef STARTRD_KERNELS_STAGE1_H
#define STARTRD_KERNELS_STAGE1_H

#include <complex.h>
#include <stdint.h>

/**
 * Whether every entry of block column col0 .. col0+cols-1 of the referenced
 * triangle of the n x n Hermitian matrix A (leading dimension lda) is
 * finite: for uplo = 'L' the columns from the diagonal down, for 'U' the
 * rows col0 .. col0+cols-1 from the diagonal right, the same entries of the
 * Hermitian matrix.  @return 1 if all are finite, 0 otherwise.
 */
int startrd_zscan_finite(char uplo, int64_t n, const double complex *a, int64_t lda, int64_t col0,
                         int64_t cols);

#endif
