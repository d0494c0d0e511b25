/**
 * @file kernels_stage2.h
 * @brief CPU kernels of the stage-2 bulge chasing (Hermitian band -> real
 *        symmetric tridiagonal), after Haidar, Ltaief and Dongarra (SC'11)
 *        and LAPACK's ZHB2ST_KERNELS.
 *
 * Which kernel runs on which rows, in which order, and where its reflector is
 * stored, is the business of the plan (src/plans/bulge_plan.h); a kernel
 * only sees its block (st, ed) and the pointers to its reflectors.
 *
 * @par Band storage
 * The band lives in AB, n columns with leading dimension ldab >= 2*kd+1, all
 * indices 0-based:
 *  - uplo = 'L': A(i, j), j <= i <= j+kd, is AB[(i-j) + j*ldab]: row 0 is the
 *    diagonal, rows 1..kd the subdiagonals, rows kd+1..2*kd must be zero on
 *    entry and receive the bulges;
 *  - uplo = 'U': A(i, j), j-kd <= i <= j, is AB[(2*kd+i-j) + j*ldab]: row
 *    2*kd is the diagonal, rows kd..2*kd-1 the superdiagonals, rows 0..kd-1
 *    must be zero on entry and receive the bulges.
 * This is ZHETRD_HB2ST's internal layout.  After all kernels of the plan have
 * run, the tridiagonal is real: d[i] = creal(A(i, i)), and e[i] =
 * creal(A(i+1, i)) for 'L' or creal(A(i, i+1)) for 'U', exactly as
 * ZHETRD_HB2ST returns them.
 *
 * @par Reflectors
 * H = I - tau v v^H with v[0] = 1 stored explicitly; a kernel of block
 * (st, ed) reads or writes v[0..ed-st] only.  Each step replaces the matrix by
 * H^H A H, so that the product of the reflectors in the plan's order is the
 * Q2 of B = Q2 T Q2^H, for both uplo.
 *
 * In the real precisions the matrix is symmetric, H = I - tau v v^T, and the
 * kernels are named for symmetric bands (startrd_kernel_dsbtype1, ...).
 *
 * @par Threads
 * The kernels hold no state: they may run concurrently on disjoint data (the
 * plan's dependencies guarantee that), each with its own work array of at
 * least max(1, kd) entries.
 */
#ifndef STARTRD_KERNELS_STAGE2_H
#define STARTRD_KERNELS_STAGE2_H

#include <stdint.h>

#include "bulge_plan.h"

/* The kernels in each precision, generated from kernels_zhb2st.h. */
#include "kernels_ssb2st.h"
#include "kernels_dsb2st.h"
#include "kernels_chb2st.h"
#include "kernels_zhb2st.h"

#endif
