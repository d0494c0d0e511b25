/* The entry points on matrices in GPU memory (the _gpu functions): with
 * a GPU, the matrices in its memory (on the first GPU, and with two or
 * more on the last one too, whose block columns and tiles cross between
 * GPUs), against LAPACK: eigenvalues, residuals and orthogonality, B's
 * factor, the padding rows and the triangle that must stay untouched,
 * NaN found before anything is written, the reflectors left in dA applied
 * by zunmtr_2stage_mgpu_gpu, the factor left in dB used again.  Without a
 * GPU (or in a build without CUDA) the same checks run on host arrays,
 * which the _gpu functions take as the host functions do.  Every call
 * also checks its arguments as its host twin does.
 *
 * @precisions normal z -> d
 */
#define COMPLEX
#include "scalars.h"
#include "startrd.h"
#include "testing.h"

#include "config.h"
#ifdef STARTRD_USE_CUDA
#include <cuda_runtime.h>
#endif

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(A, lda, i, j) ((A)[(i) + (int64_t)(j) * (lda)])

#ifdef COMPLEX
#define ABS(x) cabs(x)
#define CBLAS_ADJOINT CblasConjTrans
#define PAD (-77.0 + 5.5 * I)
#else
#define ABS(x) fabs(x)
#define CBLAS_ADJOINT CblasTrans
#define PAD (-77.0)
#endif

/* Extra rows of every array's leading dimension, whose entries must come
 * back as they went. */
enum { PAD_ROWS = 3 };

/* An array as the _gpu functions get it: in the memory of GPU @p devid,
 * or in host memory for devid < 0. */
typedef struct array {
    double complex *p;
    int64_t rows, cols, ld;
    int devid;
} array_t;

/* The rows x cols matrix @p M (leading dimension rows; NULL: zeros) with
 * PAD_ROWS padding rows of PAD, where @p devid says. */
static bool array_put(array_t *a, int devid, int64_t rows, int64_t cols, const double complex *M)
{
    const int64_t ld = rows + PAD_ROWS;
    const size_t bytes = (size_t)ld * (size_t)(cols > 0 ? cols : 1) * sizeof *M;
    double complex *h = malloc(bytes);
    bool ok = h != NULL;

    *a = (array_t){NULL, rows, cols, ld, devid};
    for (int64_t j = 0; ok && j < cols; j++)
        for (int64_t i = 0; i < ld; i++)
            AT(h, ld, i, j) = i >= rows ? PAD : M != NULL ? AT(M, rows, i, j) : 0.0;
    if (ok && devid < 0) {
        a->p = h;
        return true;
    }
#ifdef STARTRD_USE_CUDA
    ok = ok && cudaSetDevice(devid) == cudaSuccess && cudaMalloc((void **)&a->p, bytes) == cudaSuccess &&
         cudaMemcpy(a->p, h, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
#endif
    free(h);
    return ok;
}

/* The array back into @p M (leading dimension rows); whether its padding
 * rows came back as they went. */
static bool array_get(const array_t *a, double complex *M)
{
    const size_t bytes = (size_t)a->ld * (size_t)(a->cols > 0 ? a->cols : 1) * sizeof *M;
    const double complex *h = a->p;
    bool ok = true;

#ifdef STARTRD_USE_CUDA
    double complex *copy = a->devid >= 0 ? malloc(bytes) : NULL;

    if (a->devid >= 0)
        ok = copy != NULL && cudaMemcpy(copy, a->p, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
    if (a->devid >= 0)
        h = copy;
#else
    (void)bytes;
#endif
    for (int64_t j = 0; ok && j < a->cols; j++)
        for (int64_t i = 0; i < a->ld; i++) {
            if (i < a->rows)
                AT(M, a->rows, i, j) = AT(h, a->ld, i, j);
            else
                ok = ok && memcmp(&AT(h, a->ld, i, j), &(double complex){PAD}, sizeof *M) == 0;
        }
#ifdef STARTRD_USE_CUDA
    free(copy);
#endif
    return ok;
}

static void array_free(array_t *a)
{
#ifdef STARTRD_USE_CUDA
    if (a->devid >= 0) {
        cudaFree(a->p);
        a->p = NULL;
    }
#endif
    free(a->p);
    a->p = NULL;
}

static const char *where(int devid)
{
    static char text[32];

    if (devid < 0)
        return "host memory";
    snprintf(text, sizeof text, "GPU %d", devid);
    return text;
}

/* ||A Z - Z diag(w)||_F / (n eps ||A||_F) for the n x m vectors Z of the
 * full Hermitian A (itype 0), or the generalized problem's residual
 * ||A Z - B Z diag(w)|| (itype 1), ||A B Z - Z diag(w)|| (2) or
 * ||B A Z - Z diag(w)|| (3), scaled by n eps ||A|| ||B||. */
static double residual(int itype, int n, int m, const double complex *A, const double complex *B,
                       const double complex *Z, const double *w)
{
    const double complex one = 1.0, zero = 0.0, mone = -1.0;
    double complex *R = malloc((size_t)n * (size_t)(m > 0 ? m : 1) * sizeof *R),
                   *T = malloc((size_t)n * (size_t)(m > 0 ? m : 1) * sizeof *T);
    double scale = tst_zfrobenius(n, n, A, n) * (itype > 0 ? tst_zfrobenius(n, n, B, n) : 1.0), ratio;

    if (R == NULL || T == NULL || m == 0) {
        free(R);
        free(T);
        return R == NULL || T == NULL ? NAN : 0.0;
    }
    /* T = the vectors as the eigenvalues scale them: Z, or B Z for itype 1. */
    if (itype == 1)
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, n, STARTRD_Z_CBLAS(one), B, n, Z, n,
                    STARTRD_Z_CBLAS(zero), T, n);
    else
        memcpy(T, Z, (size_t)n * (size_t)m * sizeof *T);
    for (int j = 0; j < m; j++)
        for (int i = 0; i < n; i++)
            AT(T, n, i, j) *= w[j];
    if (itype >= 2) {
        /* R = (A B or B A) Z, as two products. */
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, n, STARTRD_Z_CBLAS(one), itype == 2 ? B : A, n,
                    Z, n, STARTRD_Z_CBLAS(zero), R, n);
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, n, STARTRD_Z_CBLAS(one), itype == 2 ? A : B, n,
                    R, n, STARTRD_Z_CBLAS(mone), T, n);
    } else {
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, n, STARTRD_Z_CBLAS(one), A, n, Z, n,
                    STARTRD_Z_CBLAS(mone), T, n);
    }
    ratio = tst_zfrobenius(n, m, T, n) / ((double)n * tst_zeps() * fmax(scale, DBL_MIN) *
                                          fmax(tst_zfrobenius(n, m, Z, n) / sqrt((double)m), 1.0));
    free(R);
    free(T);
    return ratio;
}

/* ||I - Z^H M Z||_F / (n eps) for the n x m vectors Z, M = I (M NULL) or
 * the full matrix M. */
static double orthogonality(int n, int m, const double complex *Z, const double complex *M)
{
    const double complex one = 1.0, zero = 0.0;
    double complex *G = malloc((size_t)(m > 0 ? m : 1) * (size_t)(m > 0 ? m : 1) * sizeof *G),
                   *MZ = malloc((size_t)n * (size_t)(m > 0 ? m : 1) * sizeof *MZ);
    double ratio = NAN;

    if (G != NULL && MZ != NULL) {
        if (M != NULL)
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, n, STARTRD_Z_CBLAS(one), M, n, Z, n,
                        STARTRD_Z_CBLAS(zero), MZ, n);
        else
            memcpy(MZ, Z, (size_t)n * (size_t)m * sizeof *MZ);
        cblas_zgemm(CblasColMajor, CBLAS_ADJOINT, CblasNoTrans, m, m, n, STARTRD_Z_CBLAS(one), Z, n, MZ, n,
                    STARTRD_Z_CBLAS(zero), G, m);
        for (int j = 0; j < m; j++)
            AT(G, m, j, j) -= 1.0;
        ratio = tst_zfrobenius(m, m, G, m) / ((double)n * tst_zeps());
    }
    free(G);
    free(MZ);
    return ratio;
}

/* A random Hermitian matrix, both triangles. */
static double complex *random_hermitian(int n, uint64_t seed)
{
    double complex *A = malloc((size_t)n * (size_t)n * sizeof *A);

    if (A != NULL && tst_zgen(TST_KIND_RANDOM, n, A, n, seed) != 0) {
        free(A);
        return NULL;
    }
    return A;
}

/* Hermitian positive definite, its spectrum spread over [1, 10]. */
static double complex *definite(int n, uint64_t seed)
{
    double complex *B = malloc((size_t)n * (size_t)n * sizeof *B);
    double *w = malloc((size_t)n * sizeof *w);

    for (int i = 0; w != NULL && i < n; i++)
        w[i] = 1.0 + 9.0 * (double)i / (double)(n > 1 ? n - 1 : 1);
    if (B == NULL || w == NULL || tst_zgen_spectrum(n, w, B, n, seed) != 0) {
        free(B);
        B = NULL;
    }
    free(w);
    return B;
}

/* Whether the triangle other than @p uplo of M equals A's. */
static bool other_triangle_kept(char uplo, int n, const double complex *M, const double complex *A)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if ((uplo == 'L' ? i < j : i > j) && memcmp(&AT(M, n, i, j), &AT(A, n, i, j), sizeof *M) != 0)
                return false;
    return true;
}

static void heevd_case(char jobz, char uplo, int n, int devid, uint64_t seed)
{
    double complex *A = random_hermitian(n, seed), *M = malloc((size_t)n * (size_t)n * sizeof *M);
    double *w = malloc((size_t)n * sizeof *w), *ref = malloc((size_t)n * sizeof *ref);
    array_t dA;
    int info = -100;
    bool padding = false, ok = A != NULL && M != NULL && w != NULL && ref != NULL &&
                               tst_zeig_hermitian(uplo, n, A, n, ref) == 0 && array_put(&dA, devid, n, n, A);
    double eig = NAN, res = 0.0, orth = 0.0;

    if (ok) {
        info = zheevd_2stage_mgpu_gpu(jobz, uplo, n, dA.p, (int)dA.ld, w, -1);
        padding = array_get(&dA, M);
        array_free(&dA);
    }
    if (info == 0) {
        eig = tst_zeig_ratio(n, w, ref);
        if (jobz == 'V') {
            res = residual(0, n, n, A, NULL, M, w);
            orth = orthogonality(n, n, M, NULL);
        } else {
            padding = padding && other_triangle_kept(uplo, n, M, A);
        }
    }
    tst_check(info == 0 && padding && eig <= 30.0 && res <= 30.0 && orth <= 30.0,
              "zheevd_2stage_mgpu_gpu jobz=%c uplo=%c n=%d in %s: info %d, eigenvalues %.2g, residual %.2g, "
              "orthogonality %.2g, untouched entries kept %d",
              jobz, uplo, n, where(devid), info, eig, res, orth, padding);
    free(A);
    free(M);
    free(w);
    free(ref);
}

/* Range 'I' (the pairs from n/10 to n/5) or 'V' (those in the interval
 * around the same ones). */
static void heevr_case(char range, char uplo, int n, int devid, uint64_t seed)
{
    double complex *A = random_hermitian(n, seed), *Z = malloc((size_t)n * (size_t)n * sizeof *Z);
    double *w = malloc((size_t)n * sizeof *w), *ref = malloc((size_t)n * sizeof *ref);
    const int il = n / 10 + 1, iu = n / 5 + 1;
    array_t dA, dZ;
    int info = -100, m = -1;
    bool padding = false, ok = A != NULL && Z != NULL && w != NULL && ref != NULL &&
                               tst_zeig_hermitian(uplo, n, A, n, ref) == 0 && array_put(&dA, devid, n, n, A);
    double eig = NAN, res = NAN, orth = NAN, vl = 0.0, vu = 0.0;

    if (ok && !array_put(&dZ, devid, n, range == 'I' ? iu - il + 1 : n, NULL)) {
        array_free(&dA);
        ok = false;
    }
    if (ok) {
        vl = 0.5 * (ref[il - 2] + ref[il - 1]);
        vu = 0.5 * (ref[iu - 1] + ref[iu]);
        info = zheevr_2stage_mgpu_gpu('V', range, uplo, n, dA.p, (int)dA.ld, vl, vu, il, iu, &m, w, dZ.p,
                                      (int)dZ.ld, -1);
        padding = array_get(&dZ, Z);
        array_free(&dA);
        array_free(&dZ);
    }
    if (info == 0 && m == iu - il + 1) {
        eig = tst_zeig_ratio(m, w, ref + il - 1);
        res = residual(0, n, m, A, NULL, Z, w);
        orth = orthogonality(n, m, Z, NULL);
    }
    tst_check(info == 0 && m == iu - il + 1 && padding && eig <= 30.0 && res <= 30.0 && orth <= 30.0,
              "zheevr_2stage_mgpu_gpu range=%c uplo=%c n=%d in %s: info %d, m %d of %d, eigenvalues %.2g, "
              "residual %.2g, orthogonality %.2g, padding kept %d",
              range, uplo, n, where(devid), info, m, iu - il + 1, eig, res, orth, padding);
    free(A);
    free(Z);
    free(w);
    free(ref);
}

/* zhegvd, then zhegvx by index with fact 'F' on the factor it left in dB. */
static void hegv_case(int itype, char uplo, int n, int devid, uint64_t seed)
{
    double complex *A = random_hermitian(n, seed), *B = definite(n, seed + 1),
                   *M = malloc((size_t)n * (size_t)n * sizeof *M), *F = malloc((size_t)n * (size_t)n * sizeof *F),
                   *L = malloc((size_t)n * (size_t)n * sizeof *L);
    double *w = malloc((size_t)n * sizeof *w), *ref = malloc((size_t)n * sizeof *ref);
    const int il = n / 10 + 1, iu = n / 5 + 1;
    array_t dA, dB, dZ;
    int info = -100, infox = -100, m = -1;
    bool kept = false, ok = A != NULL && B != NULL && M != NULL && F != NULL && L != NULL && w != NULL &&
                            ref != NULL;
    double eig = NAN, res = NAN, norm = NAN, factor = NAN, eigx = NAN, resx = NAN;

    if (ok) {
        memcpy(M, A, (size_t)n * (size_t)n * sizeof *M);
        memcpy(L, B, (size_t)n * (size_t)n * sizeof *L);
        ok = LAPACKE_zhegvd(LAPACK_COL_MAJOR, itype, 'N', uplo, n, M, n, L, n, ref) == 0;
        /* L: LAPACK's factor of B, in triangle uplo. */
        memcpy(L, B, (size_t)n * (size_t)n * sizeof *L);
        ok = ok && LAPACKE_zpotrf(LAPACK_COL_MAJOR, uplo, n, L, n) == 0;
    }
    ok = ok && array_put(&dA, devid, n, n, A);
    if (ok && !array_put(&dB, devid, n, n, B)) {
        array_free(&dA);
        ok = false;
    }
    if (ok) {
        info = zhegvd_2stage_mgpu_gpu(itype, 'V', uplo, n, dA.p, (int)dA.ld, dB.p, (int)dB.ld, w, -1);
        const bool a_padding = array_get(&dA, M), b_padding = array_get(&dB, F);

        kept = a_padding && b_padding && other_triangle_kept(uplo, n, F, B);
        array_free(&dA);
    }
    if (info == 0) {
        double diff = 0.0;

        eig = tst_zeig_ratio(n, w, ref);
        res = residual(itype, n, n, A, B, M, w);
        /* Z^H B Z = I for itypes 1 and 2; for 3, Z^H B^-1 Z = I, which is
         * (B^-1 Z)^H B (B^-1 Z) = I: checked on B^-1 Z. */
        if (itype == 3)
            LAPACKE_zpotrs(LAPACK_COL_MAJOR, uplo, n, n, L, n, M, n);
        norm = orthogonality(n, n, M, B);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (uplo == 'L' ? i >= j : i <= j)
                    diff = fmax(diff, ABS(AT(F, n, i, j) - AT(L, n, i, j)));
        factor = diff / ((double)n * tst_zeps() * 10.0);
    }
    /* The factor left in dB, used as it is. */
    if (info == 0 && array_put(&dA, devid, n, n, A) && array_put(&dZ, devid, n, iu - il + 1, NULL)) {
        infox = zhegvx_2stage_mgpu_gpu(itype, 'V', 'I', uplo, 'F', n, dA.p, (int)dA.ld, dB.p, (int)dB.ld, 0.0, 0.0, il,
                                       iu, &m, w, dZ.p, (int)dZ.ld, -1);
        kept = array_get(&dZ, M) && kept;
        array_free(&dA);
        array_free(&dZ);
        if (infox == 0 && m == iu - il + 1) {
            eigx = tst_zeig_ratio(m, w, ref + il - 1);
            resx = residual(itype, n, m, A, B, M, w);
        }
    }
    if (ok)
        array_free(&dB);
    tst_check(info == 0 && infox == 0 && m == iu - il + 1 && kept && eig <= 30.0 && res <= 30.0 && norm <= 30.0 &&
                  factor <= 30.0 && eigx <= 30.0 && resx <= 30.0,
              "zhegvd/zhegvx_2stage_mgpu_gpu itype=%d uplo=%c n=%d in %s: info %d / %d, eigenvalues %.2g, residual "
              "%.2g, normalisation %.2g, factor %.2g; by index with B's factor: m %d, eigenvalues %.2g, residual "
              "%.2g; untouched entries kept %d",
              itype, uplo, n, where(devid), info, infox, eig, res, norm, factor, m, eigx, resx, kept);
    free(A);
    free(B);
    free(M);
    free(F);
    free(L);
    free(w);
    free(ref);
}

/* The reduction with VECT = 'V' into dA, then Q applied to T's vectors in
 * dC from the reflectors dA keeps. */
static void hetrd_case(char uplo, int n, int devid, uint64_t seed)
{
    double complex *A = random_hermitian(n, seed), *C = malloc((size_t)n * (size_t)n * sizeof *C), query = 0.0;
    double *d = malloc((size_t)n * sizeof *d), *e = malloc((size_t)n * sizeof *e), *ref = malloc((size_t)n * sizeof *ref),
           *zt = malloc((size_t)n * (size_t)n * sizeof *zt);
    double complex *tau = malloc((size_t)n * sizeof *tau), *hous2 = NULL;
    array_t dA, dC;
    int info = -100, infoq = -100, lhous2 = 0;
    bool kept = false, ok = A != NULL && C != NULL && d != NULL && e != NULL && ref != NULL && zt != NULL &&
                            tau != NULL && tst_zeig_hermitian(uplo, n, A, n, ref) == 0;
    double eig = NAN, res = NAN, orth = NAN;

    ok = ok && zhetrd_2stage_mgpu_gpu('V', uplo, n, NULL, n + PAD_ROWS, d, e, tau, &query, -1, NULL, 0, -1) == 0;
    lhous2 = (int)creal(query);
    ok = ok && (hous2 = malloc((size_t)lhous2 * sizeof *hous2)) != NULL && array_put(&dA, devid, n, n, A);
    if (ok) {
        info = zhetrd_2stage_mgpu_gpu('V', uplo, n, dA.p, (int)dA.ld, d, e, tau, hous2, lhous2, NULL, 0, -1);
        kept = info == 0 && array_get(&dA, C) && other_triangle_kept(uplo, n, C, A);
        if (info == 0 && LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', n, d, e, zt, n) == 0) {
            for (int64_t i = 0; i < (int64_t)n * n; i++)
                C[i] = zt[i];
            if (array_put(&dC, devid, n, n, C)) {
                infoq = zunmtr_2stage_mgpu_gpu('N', uplo, n, n, dA.p, (int)dA.ld, tau, hous2, lhous2, dC.p,
                                               (int)dC.ld, -1);
                kept = array_get(&dC, C) && kept;
                array_free(&dC);
            }
        }
        array_free(&dA);
    }
    if (infoq == 0) {
        eig = tst_zeig_ratio(n, d, ref);
        res = residual(0, n, n, A, NULL, C, d);
        orth = orthogonality(n, n, C, NULL);
    }
    tst_check(info == 0 && infoq == 0 && kept && eig <= 30.0 && res <= 30.0 && orth <= 30.0,
              "zhetrd/zunmtr_2stage_mgpu_gpu uplo=%c n=%d in %s: info %d / %d, eigenvalues of T %.2g, residual of "
              "Q Z %.2g, orthogonality %.2g, untouched entries kept %d",
              uplo, n, where(devid), info, infoq, eig, res, orth, kept);
    free(A);
    free(C);
    free(d);
    free(e);
    free(ref);
    free(zt);
    free(tau);
    free(hous2);
}

/* A NaN in A (or in B) is found before anything is written. */
static void nonfinite_case(int generalized, int n, int devid)
{
    double complex *A = random_hermitian(n, 5), *B = definite(n, 6), *M = malloc((size_t)n * (size_t)n * sizeof *M),
                   *N = malloc((size_t)n * (size_t)n * sizeof *N);
    double *w = malloc((size_t)n * sizeof *w);
    array_t dA, dB;
    int info = -100;
    bool kept = false;

    if (A == NULL || B == NULL || M == NULL || N == NULL || w == NULL)
        goto out;
    AT(generalized ? B : A, n, n - 1, n / 2) = NAN;
    if (!array_put(&dA, devid, n, n, A))
        goto out;
    if (!array_put(&dB, devid, n, n, B)) {
        array_free(&dA);
        goto out;
    }
    info = generalized ? zhegvd_2stage_mgpu_gpu(1, 'V', 'L', n, dA.p, (int)dA.ld, dB.p, (int)dB.ld, w, -1)
                       : zheevd_2stage_mgpu_gpu('V', 'L', n, dA.p, (int)dA.ld, w, -1);
    kept = array_get(&dA, M);
    kept = array_get(&dB, N) && kept && memcmp(M, A, (size_t)n * (size_t)n * sizeof *M) == 0 &&
           memcmp(N, B, (size_t)n * (size_t)n * sizeof *N) == 0;
    array_free(&dA);
    array_free(&dB);
out:
    tst_check(info == STARTRD_ERR_NONFINITE && kept,
              "%s_2stage_mgpu_gpu n=%d in %s, NaN in %s: info %d (expected %d), arrays unchanged %d",
              generalized ? "zhegvd" : "zheevd", n, where(devid), generalized ? "B" : "A", info,
              STARTRD_ERR_NONFINITE, kept);
    free(A);
    free(B);
    free(M);
    free(N);
    free(w);
}

/* Each function numbers its arguments as its host twin; nothing is read. */
static void argument_cases(void)
{
    double complex a[4] = {1.0, 0.0, 0.0, 1.0}, b[4] = {1.0, 0.0, 0.0, 1.0}, z[4], t[2], h[64];
    double w[2], d[2], e[2];
    int m = 0;
    int64_t m64 = 0;

    tst_check(zheevd_2stage_mgpu_gpu('X', 'L', 2, a, 2, w, -1) == -1, "zheevd_2stage_mgpu_gpu: jobz is argument 1");
    tst_check(zheevd_2stage_mgpu_gpu('V', 'L', 2, a, 1, w, -1) == -5, "zheevd_2stage_mgpu_gpu: ldda is argument 5");
    tst_check(zheevd_2stage_mgpu_gpu_64('V', 'X', 2, a, 2, w, -1) == -2, "zheevd_2stage_mgpu_gpu_64: uplo is 2");
    tst_check(zheevr_2stage_mgpu_gpu('V', 'X', 'L', 2, a, 2, 0.0, 1.0, 1, 1, &m, w, z, 2, -1) == -2,
              "zheevr_2stage_mgpu_gpu: range is argument 2");
    tst_check(zheevr_2stage_mgpu_gpu_64('V', 'I', 'L', 2, a, 2, 0.0, 0.0, 1, 3, &m64, w, z, 2, -1) == -10,
              "zheevr_2stage_mgpu_gpu_64: iu is argument 10");
    tst_check(zhegvd_2stage_mgpu_gpu(4, 'V', 'L', 2, a, 2, b, 2, w, -1) == -1,
              "zhegvd_2stage_mgpu_gpu: itype is argument 1");
    tst_check(zhegvd_2stage_mgpu_gpu_64(1, 'V', 'L', 2, a, 2, b, 1, w, -1) == -8,
              "zhegvd_2stage_mgpu_gpu_64: lddb is argument 8");
    tst_check(zhegvx_2stage_mgpu_gpu(1, 'V', 'I', 'L', 'X', 2, a, 2, b, 2, 0.0, 0.0, 1, 1, &m, w, z, 2, -1) == -5,
              "zhegvx_2stage_mgpu_gpu: fact is argument 5");
    tst_check(zhetrd_2stage_mgpu_gpu('V', 'L', 2, a, 1, d, e, t, h, 64, NULL, 0, -1) == -5,
              "zhetrd_2stage_mgpu_gpu: ldda is argument 5");
    tst_check(zunmtr_2stage_mgpu_gpu('X', 'L', 2, 2, a, 2, t, h, 64, z, 2, -1) == -1,
              "zunmtr_2stage_mgpu_gpu: trans is argument 1");
    tst_check(zunmtr_2stage_mgpu_gpu_64('N', 'L', 2, 2, a, 2, t, h, 64, z, 1, -1) == -11,
              "zunmtr_2stage_mgpu_gpu_64: lddc is argument 11");
}

/* Every case with the matrices where @p devid says, at order @p n. */
static void all_cases(int n, int devid, uint64_t seed)
{
    for (int u = 0; u < 2; u++) {
        const char uplo = u ? 'U' : 'L';

        heevd_case('V', uplo, n, devid, seed++);
        heevd_case('N', uplo, n, devid, seed++);
        heevr_case(u ? 'V' : 'I', uplo, n, devid, seed++);
        hegv_case(1 + u, uplo, n, devid, seed++);
        hetrd_case(uplo, n, devid, seed++);
    }
    hegv_case(3, 'L', n, devid, seed++);
    nonfinite_case(0, n, devid);
    nonfinite_case(1, n, devid);
}

int main(void)
{
    startrd_options_t opt;
    int devices = 0;

    startrd_options_init(&opt);
    opt.ngpu = tst_env_ngpu();
    if (!tst_check(startrd_init(&opt) == 0, "startrd_init"))
        return tst_summary();
#ifdef STARTRD_USE_CUDA
    if (startrd_gpu_count() > 0 && cudaGetDeviceCount(&devices) != cudaSuccess)
        devices = 0;
#endif
    printf("# %d GPU(s) in the context, %d visible\n", startrd_gpu_count(), devices);
    fflush(stdout);
    argument_cases();
    all_cases(300, devices > 0 ? 0 : -1, 11);
    if (devices > 0)
        all_cases(2500, 0, 31);
    if (devices > 1)
        all_cases(1200, devices - 1, 51);
    startrd_finalize();
    return tst_summary();
}
