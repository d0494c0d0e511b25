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
 * 0 if every entry of x[0 .. count-1] is finite, NaN otherwise; sums of
 * such results tell the same for many vectors at once.
 */
double startrd_znan_sum(const double complex *x, int64_t count);

#endif
