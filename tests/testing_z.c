/**
 * @file testing_z.c
 * @brief The test helpers that depend on the precision; see testing_z.h.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "testing.h"

#include <math.h>
#include <stdlib.h>

#include <cblas.h>
#include <lapacke.h>

#include "bulge_plan.h"

/* Column-major addressing with 64-bit offsets. */
#define AT(A, lda, i, j) ((A)[(i) + (int64_t)(j) * (lda)])

/* CBLAS takes complex scalars by address and real ones by value. */
#ifdef COMPLEX
#define SCALAR_ARG(x) (&(x))
#else
#define SCALAR_ARG(x) (x)
#endif

double tst_zmax_component(int64_t m, int64_t n, const double complex *A, int64_t lda)
{
    double big = 0.0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
#ifdef COMPLEX
            double re = fabs(creal(AT(A, lda, i, j)));
            double im = fabs(cimag(AT(A, lda, i, j)));
            big = tst_max_nan(big, tst_max_nan(re, im));
#else
            big = tst_max_nan(big, fabs(AT(A, lda, i, j)));
#endif
        }
    return big;
}

/*
 * Scaled by the largest component so that matrices near overflow or
 * underflow do not lose it.  Written here rather than taken from
 * LAPACKE_zlange, which returns -5 (a "norm" that passes any `< tol` check)
 * on a NaN input; here NaN propagates.
 */
double tst_zfrobenius(int64_t m, int64_t n, const double complex *A, int64_t lda)
{
    double big = tst_zmax_component(m, n, A, lda);
    if (big == 0.0 || !isfinite(big))
        return big;
    double sum = 0.0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
#ifdef COMPLEX
            double re = creal(AT(A, lda, i, j)) / big;
            double im = cimag(AT(A, lda, i, j)) / big;
            sum += re * re + im * im;
#else
            double x = AT(A, lda, i, j) / big;
            sum += x * x;
#endif
        }
    return big * sqrt(sum);
}

int tst_zform_q2(int64_t n, int64_t kd, const double complex *hous2,
                 double complex *Q, int64_t ldq, bool *layout_ok)
{
    startrd_bulge_plan_t p;
    if (layout_ok != NULL)
        *layout_ok = false;
    if (n < 0 || ldq < (n > 1 ? n : 1) || (int64_t)(int)ldq != ldq || kd < 0 || (int64_t)(int)n != n ||
        startrd_bulge_plan_init(&p, 'V', n, kd) != 0)
        return TST_ERR_ARG;
    lapack_int info = LAPACKE_zlaset(LAPACK_COL_MAJOR, 'A', (lapack_int)n,
                                     (lapack_int)n, 0.0, 1.0, Q,
                                     (lapack_int)ldq);
    double complex *w = malloc((size_t)(n > 0 ? n : 1) * sizeof *w);
    if (info != 0 || w == NULL) {
        free(w);
        return info != 0 ? info : TST_ERR_NOMEM;
    }
    /* The layout is checked against the formulas of bulge_plan.h, not just
       read through the plan, so that a plan and kernels that agree with each
       other but not with the documentation still fail. */
    bool ok = true;
    int64_t r = 0;
    for (int64_t s = 0; s < startrd_bulge_nsweeps(&p); s++) {
        for (int64_t j = 0; j < startrd_bulge_nrefl_sweep(&p, s); j++, r++) {
            const double complex *v = hous2 + startrd_bulge_v_offset(&p, s, j);
            double complex mtau = -hous2[startrd_bulge_tau_offset(&p, s, j)];
            const double complex one = 1.0, zero = 0.0;
            int64_t row = startrd_bulge_refl_row(&p, s, j);
            int64_t len = startrd_bulge_refl_len(&p, s, j);
            ok = ok && startrd_bulge_refl_index(&p, s, j) == r &&
                 startrd_bulge_v_offset(&p, s, j) == p.nrefl + r * kd &&
                 startrd_bulge_tau_offset(&p, s, j) == r && v[0] == 1.0;
            for (int64_t i = len; i < kd; i++)
                ok = ok && v[i] == 0.0;
            /* Q(:, row:row+len-1) := Q(:, row:row+len-1) (I - tau v v^H):
               right-multiplying in generation order forms the product. */
            cblas_zgemv(CblasColMajor, CblasNoTrans, (int)n, (int)len, SCALAR_ARG(one),
                        &AT(Q, ldq, 0, row), (int)ldq, v, 1, SCALAR_ARG(zero), w, 1);
#ifdef COMPLEX
            cblas_zgerc(CblasColMajor, (int)n, (int)len, &mtau, w, 1, v, 1,
                        &AT(Q, ldq, 0, row), (int)ldq);
#else
            cblas_zger(CblasColMajor, (int)n, (int)len, mtau, w, 1, v, 1,
                       &AT(Q, ldq, 0, row), (int)ldq);
#endif
        }
    }
    ok = ok && r == startrd_bulge_nrefl(&p) &&
         startrd_bulge_lhous(&p) == (r > 0 ? r * (kd + 1) : 1);
    if (layout_ok != NULL)
        *layout_ok = ok;
    free(w);
    return 0;
}
