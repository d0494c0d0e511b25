/**
 * @file kernel_zreflect_side.c
 * @brief One reflector applied to a small block from one side, as LAPACK's
 *        ZLARFX: C := H C or C := C H with H = I - tau v v^H.
 *
 * The bulge-chasing kernels call it tens of thousands of times a second per
 * core on blocks of order kd.  Through OpenBLAS's ZGEMV and ZGERC a kernel
 * took far longer with many CPU workers than with a few
 * (docs/experiments.md, "Figures moved from the code"), most likely
 * because those routines take their scratch buffer from a pool under a
 * process-wide lock; these loops need no scratch beyond the caller's work
 * array.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "reflect_simd.h"

#include "kernels_stage2.h"

#include <complex.h>
#include <stddef.h>

STARTRD_VECTOR_CLONES
void startrd_zreflect_side(char side, int m, int n, const double _Complex *vz, double _Complex tau,
                           double _Complex *cz, int ldc, double _Complex *workz)
{
#ifdef COMPLEX
    /* Complex numbers as (re, im) pairs of doubles. */
    const double *v = (const double *)vz, tr = creal(tau), ti = cimag(tau);
    double *c = (double *)cz, *w = (double *)workz;

    if (tau == 0.0)
        return;
    if (side == 'L') {
        /* Column by column: s = v^H c_j, c_j -= (tau s) v. */
        for (int j = 0; j < n; j++) {
            double *cj = c + 2 * (size_t)j * (size_t)ldc, sr = 0.0, si = 0.0;

            for (int i = 0; i < m; i++) {
                sr += v[2 * i] * cj[2 * i] + v[2 * i + 1] * cj[2 * i + 1];
                si += v[2 * i] * cj[2 * i + 1] - v[2 * i + 1] * cj[2 * i];
            }
            double ar = tr * sr - ti * si, ai = tr * si + ti * sr;

            for (int i = 0; i < m; i++) {
                cj[2 * i] -= v[2 * i] * ar - v[2 * i + 1] * ai;
                cj[2 * i + 1] -= v[2 * i] * ai + v[2 * i + 1] * ar;
            }
        }
        return;
    }
    /* w = C v, then c_j -= w (tau conj(v_j)), column by column. */
    for (int i = 0; i < 2 * m; i++)
        w[i] = 0.0;
    for (int j = 0; j < n; j++) {
        const double *cj = c + 2 * (size_t)j * (size_t)ldc, vr = v[2 * j], vi = v[2 * j + 1];

        for (int i = 0; i < m; i++) {
            w[2 * i] += cj[2 * i] * vr - cj[2 * i + 1] * vi;
            w[2 * i + 1] += cj[2 * i] * vi + cj[2 * i + 1] * vr;
        }
    }
    for (int j = 0; j < n; j++) {
        double *cj = c + 2 * (size_t)j * (size_t)ldc;
        double ar = tr * v[2 * j] + ti * v[2 * j + 1], ai = ti * v[2 * j] - tr * v[2 * j + 1];

        for (int i = 0; i < m; i++) {
            cj[2 * i] -= w[2 * i] * ar - w[2 * i + 1] * ai;
            cj[2 * i + 1] -= w[2 * i] * ai + w[2 * i + 1] * ar;
        }
    }
#else
    const double *v = vz;
    double *c = cz, *w = workz;

    if (tau == 0.0)
        return;
    if (side == 'L') {
        /* Column by column: c_j -= (tau v^T c_j) v. */
        for (int j = 0; j < n; j++) {
            double *cj = c + (size_t)j * (size_t)ldc, s = 0.0;

            for (int i = 0; i < m; i++)
                s += v[i] * cj[i];
            s *= tau;
            for (int i = 0; i < m; i++)
                cj[i] -= s * v[i];
        }
        return;
    }
    /* w = C v, then c_j -= w (tau v_j), column by column. */
    for (int i = 0; i < m; i++)
        w[i] = 0.0;
    for (int j = 0; j < n; j++) {
        const double *cj = c + (size_t)j * (size_t)ldc;

        for (int i = 0; i < m; i++)
            w[i] += cj[i] * v[j];
    }
    for (int j = 0; j < n; j++) {
        double *cj = c + (size_t)j * (size_t)ldc, a = tau * v[j];

        for (int i = 0; i < m; i++)
            cj[i] -= w[i] * a;
    }
#endif
}
