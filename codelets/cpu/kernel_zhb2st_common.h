/**
 * @file kernel_zhb2st_common.h
 * @brief Pieces shared by the three bulge-chasing CPU kernels.
 *
 * The kernels reason on the lower triangle of the Hermitian matrix: the
 * vector a reflector annihilates is a piece of a column, A(i:i+len-1, j) with
 * i > j.  With uplo = 'U' the same entries are held conjugated along row j,
 * so that the lower-triangle view costs a conjugation and a stride, nothing
 * else; startrd_zreflect_hermitian handles both triangles by itself.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#ifndef STARTRD_KERNEL_ZHB2ST_COMMON_H
#define STARTRD_KERNEL_ZHB2ST_COMMON_H

#include <assert.h>
#include <complex.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <lapack.h>

#include "kernels_stage2.h"

/* Conjugation, which the real precisions do without. */
#ifdef COMPLEX
#define ZHB2ST_CONJ(x) conj(x)
#else
#define ZHB2ST_CONJ(x) (x)
#endif

/* LAPACK integer argument from a 64-bit size. */
static inline lapack_int zhb2st_int(int64_t x)
{
    assert(x >= 0 && x <= INT_MAX);
    return (lapack_int)x;
}

/*
 * Pointer to A(i, j) of the stored triangle, (i >= j for 'L', i <= j for
 * 'U', |i-j| <= 2*kd).  Stepping by ldab-1 instead of ldab turns the band
 * storage into a dense column-major matrix with leading dimension ldab-1
 * whose band and bulge entries are exactly where LAPACK expects them.
 */
static inline double complex *
zhb2st_elem(char uplo, int64_t kd, double complex *AB, int64_t ldab, int64_t i, int64_t j)
{
    int64_t diag = uplo == 'U' ? 2 * kd : 0;

    return AB + diag + i + j * (ldab - 1);
}

/*
 * Generates the reflector that annihilates A(i+1:i+len-1, j), i > j, and
 * stores beta, real, as the new A(i, j).  H^H x = beta e_1, so the update of
 * the matrix is H^H A H.  v[0] = 1 is stored; the annihilated entries are set
 * to zero in AB.
 */
static inline void
zhb2st_annihilate(char uplo, int64_t kd, double complex *AB, int64_t ldab,
                  int64_t i, int64_t j, int64_t len, double complex *v, double complex *tau)
{
    int upper = uplo == 'U';
    double complex *x = upper ? zhb2st_elem(uplo, kd, AB, ldab, j, i)
                              : zhb2st_elem(uplo, kd, AB, ldab, i, j);
    int64_t incx = upper ? ldab - 1 : 1;
    double complex alpha = upper ? ZHB2ST_CONJ(x[0]) : x[0];
    lapack_int n = zhb2st_int(len), one = 1;

    v[0] = 1.0;
    for (int64_t k = 1; k < len; k++) {
        v[k] = upper ? ZHB2ST_CONJ(x[k * incx]) : x[k * incx];
        x[k * incx] = 0.0;
    }
    LAPACK_zlarfg(&n, &alpha, v + 1, &one, tau);
    x[0] = alpha;
}

/* A(st:st+len-1, st:st+len-1) := H^H A H, on the stored triangle. */
static inline void
zhb2st_apply_diag(char uplo, int64_t kd, double complex *AB, int64_t ldab,
                  int64_t st, int64_t len, const double complex *v, const double complex *tau,
                  double complex *work)
{
    /* This applies G A G^H with G = I - tau' v v^H: tau' = conj(tau) gives G = H^H. */
    startrd_zreflect_hermitian(uplo, zhb2st_int(len), v, ZHB2ST_CONJ(*tau),
                               zhb2st_elem(uplo, kd, AB, ldab, st, st), zhb2st_int(ldab - 1), work);
}

/* Argument checks common to the three kernels. */
static inline void
zhb2st_check(char uplo, int64_t kd, int64_t st, int64_t ed, int64_t ldab)
{
    assert(uplo == 'L' || uplo == 'U');
    assert(kd >= 1 && ldab >= 2 * kd + 1);
    assert(st >= 1 && st <= ed && ed - st < kd);
    (void)uplo; (void)kd; (void)st; (void)ed; (void)ldab;
}

#endif
