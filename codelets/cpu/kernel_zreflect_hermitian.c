/**
 * @file kernel_zreflect_hermitian.c
 * @brief One reflector applied to a small Hermitian block from both sides,
 *        as LAPACK's ZLARFY: C := H C H^H with H = I - tau v v^H, on the
 *        stored triangle of C.
 *
 * With w = C v and w' = w - 1/2 tau (w^H v) v, H C H^H = C - tau v w'^H -
 * conj(tau) w' v^H.  Written out rather than through ZHEMV and ZHER2 for the
 * reason given in kernel_zreflect_side.c.  As in ZHEMV and ZHER2, only the
 * real part of the diagonal is read, and the diagonal stays real.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "reflect_simd.h"

#include "kernels_stage2.h"

#include <complex.h>
#include <stddef.h>

STARTRD_VECTOR_CLONES
void startrd_zreflect_hermitian(char uplo, int n, const double _Complex *vz, double _Complex tau,
                                double _Complex *cz, int ldc, double _Complex *wz)
{
#ifdef COMPLEX
    /* Complex numbers as (re, im) pairs of doubles. */
    const double *v = (const double *)vz, tr = creal(tau), ti = cimag(tau);
    double *c = (double *)cz, *w = (double *)wz, dr = 0.0, di = 0.0;
    int lower = uplo == 'L';

    if (tau == 0.0)
        return;
    /* w = C v in one pass over the stored triangle: entry (i, j) adds
     * C_ij v_j to w_i and conj(C_ij) v_i to w_j. */
    for (int i = 0; i < 2 * n; i++)
        w[i] = 0.0;
    for (int j = 0; j < n; j++) {
        const double *cj = c + 2 * (size_t)j * (size_t)ldc, vr = v[2 * j], vi = v[2 * j + 1];
        int i0 = lower ? j + 1 : 0, i1 = lower ? n : j;
        double sr = cj[2 * j] * vr, si = cj[2 * j] * vi;

        for (int i = i0; i < i1; i++) {
            w[2 * i] += cj[2 * i] * vr - cj[2 * i + 1] * vi;
            w[2 * i + 1] += cj[2 * i] * vi + cj[2 * i + 1] * vr;
            sr += cj[2 * i] * v[2 * i] + cj[2 * i + 1] * v[2 * i + 1];
            si += cj[2 * i] * v[2 * i + 1] - cj[2 * i + 1] * v[2 * i];
        }
        w[2 * j] += sr;
        w[2 * j + 1] += si;
    }
    /* w += alpha v, alpha = -1/2 tau (w^H v). */
    for (int i = 0; i < n; i++) {
        dr += w[2 * i] * v[2 * i] + w[2 * i + 1] * v[2 * i + 1];
        di += w[2 * i] * v[2 * i + 1] - w[2 * i + 1] * v[2 * i];
    }
    double alr = -0.5 * (tr * dr - ti * di), ali = -0.5 * (tr * di + ti * dr);

    for (int i = 0; i < n; i++) {
        w[2 * i] += alr * v[2 * i] - ali * v[2 * i + 1];
        w[2 * i + 1] += alr * v[2 * i + 1] + ali * v[2 * i];
    }
    /* C_ij -= v_i a_j + w_i b_j with a_j = tau conj(w_j), b_j = conj(tau) conj(v_j). */
    for (int j = 0; j < n; j++) {
        double *cj = c + 2 * (size_t)j * (size_t)ldc;
        double ar = tr * w[2 * j] + ti * w[2 * j + 1], ai = ti * w[2 * j] - tr * w[2 * j + 1];
        double br = tr * v[2 * j] - ti * v[2 * j + 1], bi = -tr * v[2 * j + 1] - ti * v[2 * j];
        int i0 = lower ? j + 1 : 0, i1 = lower ? n : j;

        for (int i = i0; i < i1; i++) {
            cj[2 * i] -= v[2 * i] * ar - v[2 * i + 1] * ai + w[2 * i] * br - w[2 * i + 1] * bi;
            cj[2 * i + 1] -= v[2 * i] * ai + v[2 * i + 1] * ar + w[2 * i] * bi + w[2 * i + 1] * br;
        }
        /* Diagonal: C_jj - 2 Re(v_j a_j), imaginary part zero. */
        cj[2 * j] -= 2.0 * (v[2 * j] * ar - v[2 * j + 1] * ai);
        cj[2 * j + 1] = 0.0;
    }
#else
    const double *v = vz;
    double *c = cz, *w = wz, dot = 0.0;
    int lower = uplo == 'L';

    if (tau == 0.0)
        return;
    /* w = C v in one pass over the stored triangle. */
    for (int i = 0; i < n; i++)
        w[i] = 0.0;
    for (int j = 0; j < n; j++) {
        const double *cj = c + (size_t)j * (size_t)ldc;
        int i0 = lower ? j + 1 : 0, i1 = lower ? n : j;
        double s = cj[j] * v[j];

        for (int i = i0; i < i1; i++) {
            w[i] += cj[i] * v[j];
            s += cj[i] * v[i];
        }
        w[j] += s;
    }
    /* w += alpha v, alpha = -1/2 tau (w^T v); then C -= tau (v w^T + w v^T). */
    for (int i = 0; i < n; i++)
        dot += w[i] * v[i];
    double alpha = -0.5 * tau * dot;

    for (int i = 0; i < n; i++)
        w[i] += alpha * v[i];
    for (int j = 0; j < n; j++) {
        double *cj = c + (size_t)j * (size_t)ldc, a = tau * w[j], b = tau * v[j];
        int i0 = lower ? j : 0, i1 = lower ? n : j + 1;

        for (int i = i0; i < i1; i++)
            cj[i] -= v[i] * a + w[i] * b;
    }
#endif
}
