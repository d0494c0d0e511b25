/**
 * @file testing_z.h
 * @brief The test helpers that depend on the precision (see testing.h for
 *        the conventions).
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_TESTS_TESTING_Z_H
#define STARTRD_TESTS_TESTING_Z_H

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

/** Largest |real| or |imaginary| part of an m-by-n block; NaN if any is. */
double tst_zmax_component(int64_t m, int64_t n, const double complex *A, int64_t lda);

/**
 * Frobenius norm of the m-by-n block A, scaled by its largest component so
 * that matrices near overflow or underflow keep it; NaN if A holds one.
 */
double tst_zfrobenius(int64_t m, int64_t n, const double complex *A,
                     int64_t lda);

/**
 * Builds the n-by-n unitary Q2 of stage 2 from the reflectors that the bulge
 * chasing of a band of bandwidth kd keeps in HOUS2 with VECT = 'V' (layout in
 * src/plans/bulge_plan.h: [TAU2 (R entries) | V2 (kd x R, ld = kd)]), as
 *
 *     Q2 = H(0,0) H(0,1) ... H(1,0) ... H(nsweeps-1, last),
 *
 * the product in generation order of H(s,j) = I - tau v v^H, so that the
 * band B = Q2 * T * Q2^H with T the tridiagonal (d, e).  kd is the bandwidth
 * the reduction used (for the library's entry point: startrd_last_stats()).
 *
 * @param[out] layout_ok  if not NULL, whether HOUS2 is laid out as
 *     documented: the plan numbers reflectors in generation order with TAU2
 *     and V2 at the documented offsets, and every v has v[0] = 1 and zeros
 *     past its length.  The zeros hold only when HOUS2 was zeroed before the
 *     chase, as zhetrd_2stage_mgpu() does (the kernels write only each
 *     reflector's own entries).
 */
int tst_zform_q2(int64_t n, int64_t kd, const double complex *hous2,
                double complex *Q, int64_t ldq, bool *layout_ok);

#endif
