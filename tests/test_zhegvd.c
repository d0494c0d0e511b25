/* The generalized Hermitian-definite eigenproblem: zhegvd_2stage_mgpu and
 * zhegvx_2stage_mgpu (itypes 1 to 3, both triangles, with and without
 * vectors, by index, by value, B factored here or given) against LAPACK's
 * ZHEGVD (eigenvalues) and its Cholesky factor of B; the residuals of
 * LAPACK's own test of these drivers (zsgt01) and the normalisation of the
 * eigenvectors; what the calls must leave alone; B not positive definite;
 * every invalid argument.  The bounds are in units of the precision's eps.
 *
 * The test runs on a context opened with startrd_init(), which pauses
 * StarPU between calls, so that the references computed on this thread
 * between them get the cores.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "scalars.h"
#include "startrd.h"
#include "testing.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AT(A, lda, i, j) ((A)[(i) + (int64_t)(j) * (lda)])

#ifdef COMPLEX
#define ABS(x) cabs(x)
#define CONJ(x) conj(x)
#define CBLAS_ADJOINT CblasConjTrans
/* Finite, so that a read of the triangle that is not referenced shows as a
 * wrong result rather than as STARTRD_ERR_NONFINITE. */
#define GARBAGE (1234.5 - 678.25 * I)
#else
#define ABS(x) fabs(x)
#define CONJ(x) (x)
#define CBLAS_ADJOINT CblasTrans
#define GARBAGE 1234.5
#endif

static int ngpu;

static void *alloc_array(int64_t ld, int64_t cols, size_t size)
{
    return malloc((size_t)(ld > 0 ? ld : 1) * (size_t)(cols > 0 ? cols : 1) * size);
}

/* n x n matrix from @p src (ld n) into @p dst (ld ldd). */
static void copy_into(int n, const double complex *src, double complex *dst, int ldd)
{
    for (int j = 0; j < n; j++)
        memcpy(&AT(dst, ldd, 0, j), &AT(src, n, 0, j), (size_t)n * sizeof *dst);
}

/* ZLANGE's 1-norm, NaN when an entry is. */
static double norm1(int m, int n, const double complex *X, int ldx)
{
    double big = 0.0;

    for (int j = 0; j < n; j++) {
        double sum = 0.0;

        for (int i = 0; i < m; i++)
            sum += ABS(AT(X, ldx, i, j));
        big = tst_max_nan(big, sum);
    }
    return big;
}

/* The test problem: A random Hermitian (tst_zgen's random kind), B
 * Hermitian positive definite with eigenvalues geometric from 1 down to
 * 1 / condb and random eigenvectors, so that ||B||_2 = 1 and
 * ||B^-1||_2 = condb.  Both are stored whole (both triangles, ld n). */
typedef struct problem {
    int n;
    double condb;
    double anorm;       /* ||A||_2 */
    double complex *A0, *B0;
} problem_t;

static void problem_free(problem_t *p)
{
    free(p->A0);
    free(p->B0);
}

static int problem_init(problem_t *p, int n, double condb, uint64_t seed)
{
    double *wb = alloc_array(n, 1, sizeof *wb), *wa = alloc_array(n, 1, sizeof *wa);
    int info = TST_ERR_NOMEM;

    p->n = n;
    p->condb = condb;
    p->anorm = 0.0;
    p->A0 = alloc_array(n, n, sizeof *p->A0);
    p->B0 = alloc_array(n, n, sizeof *p->B0);
    if (wb != NULL && wa != NULL && p->A0 != NULL && p->B0 != NULL) {
        for (int k = 0; k < n; k++)
            wb[k] = n > 1 ? pow(condb, -(double)k / (n - 1)) : 1.0;
        info = tst_zgen(TST_KIND_RANDOM, n, p->A0, n, seed);
        if (info == 0)
            info = tst_zgen_spectrum(n, wb, p->B0, n, seed + 1000003);
        if (info == 0)
            info = tst_zeig_hermitian('L', n, p->A0, n, wa);
        if (info == 0 && n > 0)
            p->anorm = tst_max_nan(fabs(wa[0]), fabs(wa[n - 1]));
    }
    free(wb);
    free(wa);
    if (info != 0)
        problem_free(p);
    return info;
}

/* LAPACK's eigenvalues of the pencil (ZHEGVD without vectors) and, in the
 * @p uplo triangle of F (ld n), the Cholesky factor ZHEGVD leaves in B,
 * which is ZPOTRF's. */
static int reference(int itype, char uplo, const problem_t *p, double *wref, double complex *F)
{
    int n = p->n;
    double complex *A = alloc_array(n, n, sizeof *A);
    int info = TST_ERR_NOMEM;

    if (A != NULL) {
        memcpy(A, p->A0, (size_t)n * n * sizeof *A);
        memcpy(F, p->B0, (size_t)n * n * sizeof *F);
        info = LAPACKE_zhegvd(LAPACK_COL_MAJOR, itype, 'N', uplo, n, A, n, F, n, wref);
    }
    free(A);
    return info;
}

/* max_k |w[k] - wref[first + k]| over the bound of the reduction through
 * B's Cholesky factor, n eps ||A|| ||B^-1|| for itype 1 and n eps ||A||
 * ||B|| for itypes 2 and 3, where the standard problem's matrix C is that
 * large (LAPACK's error bounds for ZHEGV). */
static double eig_ratio(int itype, const problem_t *p, int m, const double *w, const double *wref, int first)
{
    double diff = 0.0, scale = p->anorm * (itype == 1 ? p->condb : 1.0);

    for (int k = 0; k < m; k++)
        diff = tst_max_nan(diff, fabs(w[k] - wref[first + k]));
    return diff / (tst_max_nan(scale, DBL_MIN) * (p->n * tst_zeps()));
}

/* zsgt01's residual of the m pairs (w, Z): ||A Z - B Z D||_1 (itype 1),
 * ||A B Z - Z D||_1 (2) or ||B A Z - Z D||_1 (3) over ||A||_1 n eps.
 * zsgt01 takes B of norm 1 and Z of columns of norm about 1, as its
 * generator makes them; the ratio here is divided by the largest column
 * 2-norm of Z and, for itypes 2 and 3, by ||B||_1, which makes it the same
 * whatever the scalings of A and B. */
static double pencil_residual(int itype, const problem_t *p, int m, const double complex *Z, int ldz,
                              const double *w)
{
    int n = p->n;
    double complex *R = alloc_array(n, m, sizeof *R), *T = alloc_array(n, m, sizeof *T);
    double complex *D = alloc_array(n, m, sizeof *D);
    const double complex one = 1.0, zero = 0.0, mone = -1.0;
    double ratio = NAN, colmax = 0.0;

    if (R == NULL || T == NULL || D == NULL || m == 0)
        goto out;
    for (int j = 0; j < m; j++) {
        double sum = 0.0;

        for (int i = 0; i < n; i++) {
            AT(D, n, i, j) = w[j] * AT(Z, ldz, i, j);
            sum += creal(AT(Z, ldz, i, j) * CONJ(AT(Z, ldz, i, j)));
        }
        colmax = tst_max_nan(colmax, sqrt(sum));
    }
    if (itype == 1) {
        cblas_zhemm(CblasColMajor, CblasLeft, CblasLower, n, m, STARTRD_Z_CBLAS(one), p->A0, n, Z, ldz,
                    STARTRD_Z_CBLAS(zero), R, n);
        cblas_zhemm(CblasColMajor, CblasLeft, CblasLower, n, m, STARTRD_Z_CBLAS(mone), p->B0, n, D, n,
                    STARTRD_Z_CBLAS(one), R, n);
    } else {
        cblas_zhemm(CblasColMajor, CblasLeft, CblasLower, n, m, STARTRD_Z_CBLAS(one), itype == 2 ? p->B0 : p->A0,
                    n, Z, ldz, STARTRD_Z_CBLAS(zero), T, n);
        memcpy(R, D, (size_t)n * m * sizeof *R);
        cblas_zhemm(CblasColMajor, CblasLeft, CblasLower, n, m, STARTRD_Z_CBLAS(one), itype == 2 ? p->A0 : p->B0,
                    n, T, n, STARTRD_Z_CBLAS(mone), R, n);
    }
    ratio = norm1(n, m, R, n) / (tst_max_nan(norm1(n, n, p->A0, n), DBL_MIN) *
                                 (itype == 1 ? 1.0 : norm1(n, n, p->B0, n)) * tst_max_nan(colmax, DBL_MIN) *
                                 (n * tst_zeps()));
out:
    free(R);
    free(T);
    free(D);
    return ratio;
}

/* ||Z^H B Z - I||_1 / (n eps) for itypes 1 and 2, ||Z^H B^-1 Z - I||_1 /
 * (n eps) for itype 3 (the 1-norm, as LAPACK's ZHET21 measures
 * orthogonality), B^-1 applied through LAPACK's factor F of B (its @p uplo
 * triangle, ld n). */
static double normalisation(int itype, char uplo, const problem_t *p, const double complex *F, int m,
                            const double complex *Z, int ldz)
{
    int n = p->n;
    double complex *T = alloc_array(n, m, sizeof *T), *G = alloc_array(m, m, sizeof *G);
    const double complex one = 1.0, zero = 0.0, mone = -1.0;
    double ratio = NAN;

    if (T == NULL || G == NULL || m == 0)
        goto out;
    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++)
            AT(G, m, i, j) = i == j ? 1.0 : 0.0;
    if (itype != 3) {
        cblas_zhemm(CblasColMajor, CblasLeft, CblasLower, n, m, STARTRD_Z_CBLAS(one), p->B0, n, Z, ldz,
                    STARTRD_Z_CBLAS(zero), T, n);
        cblas_zgemm(CblasColMajor, CBLAS_ADJOINT, CblasNoTrans, m, m, n, STARTRD_Z_CBLAS(one), Z, ldz, T, n,
                    STARTRD_Z_CBLAS(mone), G, m);
    } else {
        /* B^-1 = L^-H L^-1 (U^-1 U^-H): Z^H B^-1 Z = W^H W, W = L^-1 Z (U^-H Z). */
        for (int j = 0; j < m; j++)
            memcpy(&AT(T, n, 0, j), &AT(Z, ldz, 0, j), (size_t)n * sizeof *T);
        cblas_ztrsm(CblasColMajor, CblasLeft, uplo == 'L' ? CblasLower : CblasUpper,
                    uplo == 'L' ? CblasNoTrans : CBLAS_ADJOINT, CblasNonUnit, n, m, STARTRD_Z_CBLAS(one), F, n, T,
                    n);
        cblas_zgemm(CblasColMajor, CBLAS_ADJOINT, CblasNoTrans, m, m, n, STARTRD_Z_CBLAS(one), T, n, T, n,
                    STARTRD_Z_CBLAS(mone), G, m);
    }
    ratio = norm1(m, m, G, m) / (n * tst_zeps());
out:
    free(T);
    free(G);
    return ratio;
}

/* ||X - F||_F / (||F||_F n eps) over the @p uplo triangle of order n, F
 * LAPACK's factor. */
static double factor_ratio(char uplo, int n, const double complex *X, int ldx, const double complex *F, int ldf)
{
    double diff = 0.0, norm = 0.0;

    for (int j = 0; j < n; j++)
        for (int i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? n : j + 1); i++) {
            double complex d = AT(X, ldx, i, j) - AT(F, ldf, i, j);

            diff += creal(d * CONJ(d));
            norm += creal(AT(F, ldf, i, j) * CONJ(AT(F, ldf, i, j)));
        }
    return sqrt(diff) / (tst_max_nan(sqrt(norm), DBL_MIN) * (n * tst_zeps()));
}

/* Entries of rows n..ld-1 of the first @p cols columns of X that no
 * longer hold GARBAGE: the padding a call must not write. */
static int64_t padding_changed(int n, int ld, int cols, const double complex *X)
{
    const double complex garbage = GARBAGE;
    int64_t changed = 0;

    for (int j = 0; j < cols; j++)
        for (int i = n; i < ld; i++)
            changed += memcmp(&AT(X, ld, i, j), &garbage, sizeof garbage) != 0;
    return changed;
}

/* The factor by which the bounds on the vectors and on B's factor grow with
 * B's condition: the back-substitution solves with (or multiplies by) B's
 * Cholesky factor, whose condition is the square root of B's, and LAPACK's
 * own ZHEGVD loses as much on these problems.  It also covers the standard
 * problem's vectors by index or value, which come from DSTEMR, whose
 * orthogonality LAPACK guarantees only to O(n eps) per pair. */
static double cond_allowance(const problem_t *p)
{
    return sqrt(p->condb);
}

/* zhegvd_2stage_mgpu (or its _64 twin) on one problem. */
static void gvd_case(int itype, char jobz, char uplo, int n, double condb, bool use64, uint64_t seed)
{
    problem_t p;
    int lda = n + 3, ldb = n + 2, info = -1;
    double complex *A = alloc_array(lda, n, sizeof *A), *B = alloc_array(ldb, n, sizeof *B);
    double complex *F = alloc_array(n, n, sizeof *F);
    double *w = alloc_array(n, 1, sizeof *w), *wref = alloc_array(n, 1, sizeof *wref);
    double eig = NAN, resid = 0.0, norm = 0.0, fact = NAN, allow = 1.0;
    int64_t b_changed = -1, a_changed = -1;
    bool have = false;

    if (A != NULL && B != NULL && F != NULL && w != NULL && wref != NULL &&
        problem_init(&p, n, condb, seed) == 0) {
        have = true;
        allow = cond_allowance(&p);
        if (reference(itype, uplo, &p, wref, F) == 0) {
            copy_into(n, p.A0, A, lda);
            copy_into(n, p.B0, B, ldb);
            tst_zfill_sentinel(uplo, n, A, lda, GARBAGE);
            tst_zfill_sentinel(uplo, n, B, ldb, GARBAGE);
            info = use64 ? zhegvd_2stage_mgpu_64(itype, jobz, uplo, n, A, lda, B, ldb, w, ngpu)
                         : zhegvd_2stage_mgpu(itype, jobz, uplo, n, A, lda, B, ldb, w, ngpu);
        }
    }
    if (info == 0) {
        eig = eig_ratio(itype, &p, n, w, wref, 0);
        fact = factor_ratio(uplo, n, B, ldb, F, n);
        b_changed = tst_zcount_sentinel_changes(uplo, n, B, ldb, GARBAGE);
        if (jobz == 'V') {
            resid = pencil_residual(itype, &p, n, A, lda, w);
            norm = normalisation(itype, uplo, &p, F, n, A, lda);
        }
        /* With 'N', A's other triangle stays too. */
        a_changed = jobz == 'V' ? padding_changed(n, lda, n, A)
                                : tst_zcount_sentinel_changes(uplo, n, A, lda, GARBAGE);
    }
    tst_check(info == 0 && eig <= 10.0 && resid <= 30.0 * allow && norm <= 30.0 * allow && fact <= 30.0 * allow &&
                  b_changed == 0 && a_changed == 0,
              "%s itype=%d jobz=%c uplo=%c n=%d cond(B)=%.0e: info %d  eig/hegvd %.3g  residual %.3g  "
              "normalisation %.3g  factor/potrf %.3g (allowed 30 x %.3g)  changed: B's other triangle and padding "
              "%lld, A's %s %lld",
              use64 ? "zhegvd_64" : "zhegvd", itype, jobz, uplo, n, condb, info, eig, resid, norm, fact, allow,
              (long long)b_changed, jobz == 'V' ? "padding" : "other triangle and padding", (long long)a_changed);
    if (have)
        problem_free(&p);
    free(A);
    free(B);
    free(F);
    free(w);
    free(wref);
}

/* zhegvx_2stage_mgpu on one problem: pairs il..iu (1-based) by index
 * ('I'), by the values halfway to the slice's neighbours ('V'), or all
 * ('A', il = 1, iu = n), first with fact 'N', then with fact 'F' on the
 * factor that call left in B (@p lapack_factor: on LAPACK's factor
 * instead).  Both against the slice of ZHEGVD's eigenvalues; the second
 * must also leave B as it was, bit for bit. */
static void gvx_case(int itype, char jobz, char range, char uplo, int n, int il, int iu, double condb,
                     bool lapack_factor, bool use64, uint64_t seed)
{
    problem_t p;
    int lda = n + 1, ldb = n + 2, ldz = n + 3, want = iu - il + 1;
    int info = -1, info2 = -1, m = -1, m2 = -1;
    double complex *A = alloc_array(lda, n, sizeof *A), *B = alloc_array(ldb, n, sizeof *B);
    double complex *Bf = alloc_array(ldb, n, sizeof *Bf), *F = alloc_array(n, n, sizeof *F);
    double complex *Z = alloc_array(ldz, n, sizeof *Z), *Z2 = alloc_array(ldz, n, sizeof *Z2);
    double *w = alloc_array(n, 1, sizeof *w), *w2 = alloc_array(n, 1, sizeof *w2);
    double *wref = alloc_array(n, 1, sizeof *wref);
    double vl = 0.0, vu = 0.0, eig = NAN, eig2 = NAN, same = NAN, allow = 1.0;
    double resid = 0.0, resid2 = 0.0, norm = 0.0, norm2 = 0.0, fact = NAN;
    int64_t b_changed = -1, a_changed = -1, a_changed2 = -1, z_changed = -1, z_changed2 = -1;
    bool have = false, b_kept = false;
    /* Arguments that the range does not reference get values that would be
     * wrong if it did. */
    int il_arg = range == 'I' ? il : -5, iu_arg = range == 'I' ? iu : -9;

    if (A != NULL && B != NULL && Bf != NULL && F != NULL && Z != NULL && Z2 != NULL && w != NULL && w2 != NULL &&
        wref != NULL && problem_init(&p, n, condb, seed) == 0) {
        have = true;
        allow = cond_allowance(&p);
        if (reference(itype, uplo, &p, wref, F) == 0) {
            if (range == 'V') {
                vl = il > 1 ? 0.5 * (wref[il - 2] + wref[il - 1]) : wref[0] - 1.0;
                vu = iu < n ? 0.5 * (wref[iu - 1] + wref[iu]) : wref[n - 1] + 1.0;
            } else if (range == 'I') {
                vl = 1.0;
                vu = -1.0;
            }
            copy_into(n, p.A0, A, lda);
            copy_into(n, p.B0, B, ldb);
            tst_zfill_sentinel(uplo, n, A, lda, GARBAGE);
            tst_zfill_sentinel(uplo, n, B, ldb, GARBAGE);
            for (int64_t i = 0; i < (int64_t)ldz * n; i++)
                Z[i] = Z2[i] = GARBAGE;
            if (use64) {
                int64_t m64 = -1;

                info = zhegvx_2stage_mgpu_64(itype, jobz, range, uplo, 'N', n, A, lda, B, ldb, vl, vu, il_arg,
                                             iu_arg, &m64, w, jobz == 'V' ? Z : NULL, jobz == 'V' ? ldz : 1, ngpu);
                m = (int)m64;
            } else {
                info = zhegvx_2stage_mgpu(itype, jobz, range, uplo, 'N', n, A, lda, B, ldb, vl, vu, il_arg, iu_arg,
                                          &m, w, jobz == 'V' ? Z : NULL, jobz == 'V' ? ldz : 1, ngpu);
            }
        }
    }
    if (info == 0 && m == want) {
        eig = eig_ratio(itype, &p, m, w, wref, il - 1);
        fact = factor_ratio(uplo, n, B, ldb, F, n);
        b_changed = tst_zcount_sentinel_changes(uplo, n, B, ldb, GARBAGE);
        /* Range 'A' may destroy all of A (its vectors pass through it),
         * the others only its referenced triangle. */
        a_changed = range == 'A' ? padding_changed(n, lda, n, A)
                                 : tst_zcount_sentinel_changes(uplo, n, A, lda, GARBAGE);
        z_changed = padding_changed(n, ldz, m, Z);
        if (jobz == 'V') {
            resid = pencil_residual(itype, &p, m, Z, ldz, w);
            norm = normalisation(itype, uplo, &p, F, m, Z, ldz);
        }
        /* The factor, from this call or from LAPACK, over the same garbage. */
        if (lapack_factor) {
            copy_into(n, F, B, ldb);
            tst_zfill_sentinel(uplo, n, B, ldb, GARBAGE);
        }
        memcpy(Bf, B, (size_t)ldb * n * sizeof *B);
        copy_into(n, p.A0, A, lda);
        tst_zfill_sentinel(uplo, n, A, lda, GARBAGE);
        info2 = zhegvx_2stage_mgpu(itype, jobz, range, uplo, 'F', n, A, lda, B, ldb, vl, vu, il_arg, iu_arg, &m2,
                                   w2, jobz == 'V' ? Z2 : NULL, jobz == 'V' ? ldz : 1, ngpu);
        b_kept = memcmp(Bf, B, (size_t)ldb * n * sizeof *B) == 0;
        if (info2 == 0 && m2 == want) {
            eig2 = eig_ratio(itype, &p, m2, w2, wref, il - 1);
            same = eig_ratio(itype, &p, m2, w2, w, 0);
            a_changed2 = range == 'A' ? padding_changed(n, lda, n, A)
                                      : tst_zcount_sentinel_changes(uplo, n, A, lda, GARBAGE);
            z_changed2 = padding_changed(n, ldz, m2, Z2);
            if (jobz == 'V') {
                resid2 = pencil_residual(itype, &p, m2, Z2, ldz, w2);
                norm2 = normalisation(itype, uplo, &p, F, m2, Z2, ldz);
            }
        }
    }
    tst_check(info == 0 && m == want && eig <= 10.0 && resid <= 30.0 * allow && norm <= 30.0 * allow &&
                  fact <= 30.0 * allow && b_changed == 0 && a_changed == 0 && z_changed == 0,
              "%s itype=%d jobz=%c range=%c uplo=%c fact=N n=%d il=%d iu=%d (vl %.4g vu %.4g) cond(B)=%.0e: info %d "
              "m %d (want %d)  eig/hegvd %.3g  residual %.3g  normalisation %.3g  factor/potrf %.3g (allowed 30 x "
              "%.3g)  changed: A's %s %lld, B's other triangle and padding %lld, Z's padding %lld",
              use64 ? "zhegvx_64" : "zhegvx", itype, jobz, range, uplo, n, il, iu, vl, vu, condb, info, m, want, eig,
              resid, norm, fact, allow, range == 'A' ? "padding" : "other triangle and padding", (long long)a_changed,
              (long long)b_changed, (long long)z_changed);
    /* The same factor and the same A make the same C; with LAPACK's factor
     * only as close as two factors are. */
    tst_check(info2 == 0 && m2 == want && b_kept && eig2 <= 10.0 && (lapack_factor || same <= 1.0) &&
                  resid2 <= 30.0 * allow && norm2 <= 30.0 * allow && a_changed2 == 0 && z_changed2 == 0,
              "zhegvx itype=%d jobz=%c range=%c uplo=%c fact=F (%s factor) n=%d il=%d iu=%d: info %d m %d (want "
              "%d)  B kept %d  eig/hegvd %.3g  eig/fact=N %.3g  residual %.3g  normalisation %.3g  changed: A's %s "
              "%lld, Z's padding %lld",
              itype, jobz, range, uplo, lapack_factor ? "ZPOTRF's" : "its own", n, il, iu, info2, m2, want, b_kept,
              eig2, same, resid2, norm2, range == 'A' ? "padding" : "other triangle and padding",
              (long long)a_changed2, (long long)z_changed2);
    if (have)
        problem_free(&p);
    free(A);
    free(B);
    free(Bf);
    free(F);
    free(Z);
    free(Z2);
    free(w);
    free(w2);
    free(wref);
}

/* n = 0: success, m = 0, nothing touched; n = 1: the pair by hand. */
static void tiny_cases(void)
{
    double complex a = 7.0, b = 9.0, z = 5.0;
    double w = -7.0;
    int m = -1, info, infox;

    info = zhegvd_2stage_mgpu(1, 'V', 'L', 0, &a, 1, &b, 1, &w, ngpu);
    infox = zhegvx_2stage_mgpu(2, 'V', 'I', 'U', 'N', 0, &a, 1, &b, 1, 0.0, 0.0, 1, 0, &m, &w, &z, 1, ngpu);
    tst_check(info == 0 && infox == 0 && m == 0 && a == 7.0 && b == 9.0 && z == 5.0 && w == -7.0,
              "n = 0: zhegvd %d, zhegvx %d m %d, nothing written", info, infox, m);
    m = -1;
    infox = zhegvx_2stage_mgpu(1, 'N', 'V', 'L', 'F', 0, &a, 1, &b, 1, 1.0, 1.0, 0, 0, &m, &w, NULL, 1, ngpu);
    tst_check(infox == 0 && m == 0, "n = 0, range V with vl = vu: zhegvx %d m %d", infox, m);

    for (int itype = 1; itype <= 3; itype++)
        for (int u = 0; u < 2; u++) {
            const double av = -3.0, bv = 4.0;
            /* a x = lambda b x; a b x = lambda x; b a x = lambda x; x^H b x = 1, or x^H x / b = 1. */
            const double want_w = itype == 1 ? av / bv : av * bv, want_x = itype == 3 ? sqrt(bv) : 1.0 / sqrt(bv);
            char uplo = u ? 'U' : 'L';
            double tol = 4.0 * tst_zeps();

            a = av;
            b = bv;
            w = 0.0;
            info = zhegvd_2stage_mgpu(itype, 'V', uplo, 1, &a, 1, &b, 1, &w, ngpu);
            tst_check(info == 0 && fabs(w - want_w) <= tol * fabs(want_w) &&
                          fabs(ABS(a) - want_x) <= tol * want_x && fabs(creal(b) - sqrt(bv)) <= tol * sqrt(bv),
                      "zhegvd itype=%d uplo=%c n=1: info %d  w %.17g (want %.17g)  |x| %.17g (want %.17g)  B %.17g",
                      itype, uplo, info, w, want_w, (double)ABS(a), want_x, (double)creal(b));
            a = av;
            b = bv;
            m = -1;
            infox = zhegvx_2stage_mgpu(itype, 'V', 'I', uplo, 'N', 1, &a, 1, &b, 1, 0.0, 0.0, 1, 1, &m, &w, &z, 1,
                                       ngpu);
            bool found = infox == 0 && m == 1 && fabs(w - want_w) <= tol * fabs(want_w) &&
                         fabs(ABS(z) - want_x) <= tol * want_x;

            a = av;
            m = -1;
            /* b holds its factor: fact 'F', and an interval that misses the eigenvalue. */
            infox = zhegvx_2stage_mgpu(itype, 'V', 'V', uplo, 'F', 1, &a, 1, &b, 1, want_w + 1.0, want_w + 2.0, 0,
                                       0, &m, &w, &z, 1, ngpu);
            tst_check(found && infox == 0 && m == 0 && creal(b) == sqrt(bv),
                      "zhegvx itype=%d uplo=%c n=1: range I finds the pair; fact=F, an interval without it: info %d "
                      "m %d",
                      itype, uplo, infox, m);
        }
}

/* Which file descriptor 2 receives while the calls run, to read the
 * library's message back. */
static FILE *capture_file;
static int saved_stderr = -1;

static bool capture_begin(void)
{
    fflush(stderr);
    capture_file = tmpfile();
    saved_stderr = capture_file != NULL ? dup(STDERR_FILENO) : -1;
    if (saved_stderr < 0 || dup2(fileno(capture_file), STDERR_FILENO) < 0) {
        if (capture_file != NULL)
            fclose(capture_file);
        capture_file = NULL;
        return false;
    }
    return true;
}

static void capture_end(char *text, size_t size)
{
    size_t len = 0;

    text[0] = '\0';
    if (capture_file == NULL)
        return;
    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    rewind(capture_file);
    len = fread(text, 1, size - 1, capture_file);
    text[len] = '\0';
    fclose(capture_file);
    capture_file = NULL;
    /* Given back to stderr, where the other messages are; the check's line
     * shows it too, without its newline. */
    fputs(text, stderr);
    if (len > 0 && text[len - 1] == '\n')
        text[len - 1] = '\0';
}

static bool messages_wanted(void)
{
    const char *quiet = getenv("STARTRD_QUIET");

    return quiet == NULL || strcmp(quiet, "0") == 0;
}

/* B whose leading minor of order k is exactly singular: a random
 * Hermitian positive definite block of order k - 1, then a zero diagonal
 * entry, then the identity, so that the Cholesky factorisation breaks down
 * at the k-th pivot, exactly 0, in whatever order it sums. */
static int singular_minor(int n, int k, double complex *B, uint64_t seed)
{
    double *wb = alloc_array(k, 1, sizeof *wb);
    double complex *P = alloc_array(k, k, sizeof *P);
    int info = TST_ERR_NOMEM;

    if (wb != NULL && P != NULL) {
        for (int i = 0; i < k - 1; i++)
            wb[i] = 1.0 + (double)i / k;
        info = tst_zgen_spectrum(k - 1, wb, P, k - 1 > 0 ? k - 1 : 1, seed);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                AT(B, n, i, j) = i < k - 1 && j < k - 1 ? AT(P, k - 1, i, j) : i == j && i != k - 1 ? 1.0 : 0.0;
    }
    free(wb);
    free(P);
    return info;
}

/* B not positive definite, through both drivers: STARTRD_ERR_NOT_DEFINITE,
 * A, w and Z as they were, B's other triangle too, and in B's referenced
 * triangle the partial factor: its leading block of order k - 1 as
 * ZPOTRF's, k the order of the leading minor where ZPOTRF stops, which the
 * message names.  With @p k > 0, B's leading minor of order k is singular;
 * otherwise B has one negative eigenvalue. */
static void not_definite_case(int itype, char uplo, int n, int k, uint64_t seed)
{
    int lda = n + 1, m = -1, info = -1, infox = -1, lapack_k = -1;
    double complex *A0 = alloc_array(n, n, sizeof *A0), *B0 = alloc_array(n, n, sizeof *B0);
    double complex *A = alloc_array(lda, n, sizeof *A), *Asave = alloc_array(lda, n, sizeof *Asave);
    double complex *B = alloc_array(n, n, sizeof *B), *F = alloc_array(n, n, sizeof *F);
    double complex *Z = alloc_array(n, n, sizeof *Z);
    double *w = alloc_array(n, 1, sizeof *w), *wb = alloc_array(n, 1, sizeof *wb);
    bool a_kept = false, ax_kept = false, w_kept = true, z_kept = true, named = !messages_wanted();
    int64_t b_changed = -1, bx_changed = -1;
    double partial = NAN;
    char text[1024] = "", order[32];

    if (A0 == NULL || B0 == NULL || A == NULL || Asave == NULL || B == NULL || F == NULL || Z == NULL || w == NULL ||
        wb == NULL || tst_zgen(TST_KIND_RANDOM, n, A0, n, seed) != 0)
        goto out;
    if (k > 0) {
        if (singular_minor(n, k, B0, seed + 1) != 0)
            goto out;
    } else {
        for (int i = 0; i < n; i++)
            wb[i] = i == n / 3 ? -0.25 : 1.0 + (double)i / n;
        if (tst_zgen_spectrum(n, wb, B0, n, seed + 1) != 0)
            goto out;
    }
    memcpy(F, B0, (size_t)n * n * sizeof *F);
    lapack_k = LAPACKE_zpotrf(LAPACK_COL_MAJOR, uplo, n, F, n);
    for (int i = 0; i < n; i++)
        w[i] = -7.0;
    for (int i = 0; i < n * n; i++)
        Z[i] = 5.0;
    copy_into(n, A0, A, lda);
    tst_zfill_sentinel(uplo, n, A, lda, GARBAGE);
    memcpy(Asave, A, (size_t)lda * n * sizeof *A);
    memcpy(B, B0, (size_t)n * n * sizeof *B);
    tst_zfill_sentinel(uplo, n, B, n, GARBAGE);
    bool capturing = messages_wanted() && capture_begin();

    info = zhegvd_2stage_mgpu(itype, 'V', uplo, n, A, lda, B, n, w, ngpu);
    if (capturing) {
        capture_end(text, sizeof text);
        snprintf(order, sizeof order, "order %d ", lapack_k);
        named = strstr(text, order) != NULL;
    }
    a_kept = memcmp(A, Asave, (size_t)lda * n * sizeof *A) == 0;
    b_changed = tst_zcount_sentinel_changes(uplo, n, B, n, GARBAGE);
    if (lapack_k > 0)
        partial = lapack_k > 1 ? factor_ratio(uplo, lapack_k - 1, B, n, F, n) : 0.0;
    memcpy(B, B0, (size_t)n * n * sizeof *B);
    tst_zfill_sentinel(uplo, n, B, n, GARBAGE);
    infox = zhegvx_2stage_mgpu(itype, 'V', 'I', uplo, 'N', n, A, lda, B, n, 0.0, 0.0, 1, n / 2, &m, w, Z, n, ngpu);
    ax_kept = memcmp(A, Asave, (size_t)lda * n * sizeof *A) == 0;
    bx_changed = tst_zcount_sentinel_changes(uplo, n, B, n, GARBAGE);
    for (int i = 0; i < n; i++)
        w_kept = w_kept && w[i] == -7.0;
    for (int i = 0; i < n * n; i++)
        z_kept = z_kept && Z[i] == 5.0;
out:
    tst_check(info == STARTRD_ERR_NOT_DEFINITE && infox == STARTRD_ERR_NOT_DEFINITE && (k == 0 || lapack_k == k) &&
                  lapack_k > 0 && partial <= 30.0 && a_kept && ax_kept && w_kept && z_kept && b_changed == 0 &&
                  bx_changed == 0 && named,
              "B not positive definite (%s%.0d) itype=%d uplo=%c n=%d: zhegvd %d, zhegvx %d (want %d)  ZPOTRF stops "
              "at %d, the partial factor against its %.3g  A kept %d/%d  w kept %d  Z kept %d  B's other triangle "
              "changed %lld/%lld%s%s",
              k > 0 ? "singular leading minor of order " : "a negative eigenvalue", k, itype, uplo, n, info, infox,
              STARTRD_ERR_NOT_DEFINITE, lapack_k, partial, a_kept, ax_kept, w_kept, z_kept, (long long)b_changed,
              (long long)bx_changed, !messages_wanted() ? "" : named ? "  the message names that order: "
                                                                     : "  the message misses that order: ",
              text);
    free(A0);
    free(B0);
    free(A);
    free(Asave);
    free(B);
    free(F);
    free(Z);
    free(w);
    free(wb);
}

/* An interval above the whole spectrum: success and m = 0, with B factored
 * here and given. */
static void empty_interval_case(int itype, char uplo, uint64_t seed)
{
    enum { N = 120 };
    problem_t p;
    static double complex A[N * N], B[N * N], Z[N * N];
    double w[N], wref[N];
    int m = -1, m2 = -1, info = -1, info2 = -1;

    if (problem_init(&p, N, 10.0, seed) != 0)
        goto out;
    if (reference(itype, uplo, &p, wref, B) == 0) {
        double vl = wref[N - 1] + 1.0, vu = wref[N - 1] + 2.0;

        memcpy(A, p.A0, sizeof A);
        memcpy(B, p.B0, sizeof B);
        info = zhegvx_2stage_mgpu(itype, 'V', 'V', uplo, 'N', N, A, N, B, N, vl, vu, 0, 0, &m, w, Z, N, ngpu);
        memcpy(A, p.A0, sizeof A);
        info2 = zhegvx_2stage_mgpu(itype, 'V', 'V', uplo, 'F', N, A, N, B, N, vl, vu, 0, 0, &m2, w, Z, N, ngpu);
    }
    problem_free(&p);
out:
    tst_check(info == 0 && info2 == 0 && m == 0 && m2 == 0,
              "zhegvx itype=%d uplo=%c, an interval above the spectrum, fact N then F: info %d/%d m %d/%d", itype,
              uplo, info, info2, m, m2);
}

/* NaN in the referenced triangle of B with fact 'N', or of A: the status
 * STARTRD_ERR_NONFINITE, and A, B and w as they were, B's factor given
 * ('F') included; NaN in the triangle not referenced changes nothing. */
static void nonfinite_case(char uplo)
{
    enum { N = 60 };
    static double complex A[N * N], Asave[N * N], B[N * N], Bsave[N * N], Z[N * N];
    const int64_t inside = uplo == 'L' ? 40 + 20 * N : 20 + 40 * N, outside = uplo == 'L' ? 20 + 40 * N : 40 + 20 * N;
    double w[N];
    int m = 0, info_b, info_a, info_af, info_out;
    bool kept = true;

    tst_zgen(TST_KIND_RANDOM, N, A, N, 4242);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            B[i + j * N] = i == j ? 2.0 : 0.5 / (1.0 + i + j);
    for (int k = 0; k < N; k++)
        w[k] = -7.0;
    B[inside] = NAN;
    memcpy(Asave, A, sizeof A);
    memcpy(Bsave, B, sizeof B);
    info_b = zhegvd_2stage_mgpu(1, 'V', uplo, N, A, N, B, N, w, ngpu);
    kept = kept && memcmp(A, Asave, sizeof A) == 0 && memcmp(B, Bsave, sizeof B) == 0;
    B[inside] = B[outside];
    A[inside] = NAN;
    memcpy(Asave, A, sizeof A);
    memcpy(Bsave, B, sizeof B);
    info_a = zhegvd_2stage_mgpu(2, 'V', uplo, N, A, N, B, N, w, ngpu);
    kept = kept && memcmp(A, Asave, sizeof A) == 0 && memcmp(B, Bsave, sizeof B) == 0;
    /* B's factor, whatever it holds, is not what failed. */
    info_af = zhegvx_2stage_mgpu(3, 'V', 'I', uplo, 'F', N, A, N, B, N, 0.0, 0.0, 1, 3, &m, w, Z, N, ngpu);
    kept = kept && memcmp(A, Asave, sizeof A) == 0 && memcmp(B, Bsave, sizeof B) == 0;
    for (int k = 0; k < N; k++)
        kept = kept && w[k] == -7.0;
    A[inside] = A[outside];
    A[outside] = NAN;
    B[outside] = NAN;
    info_out = zhegvd_2stage_mgpu(1, 'N', uplo, N, A, N, B, N, w, ngpu);
    tst_check(info_b == STARTRD_ERR_NONFINITE && info_a == STARTRD_ERR_NONFINITE && info_af == STARTRD_ERR_NONFINITE &&
                  kept && info_out == 0,
              "NaN, uplo=%c: in B %d, in A %d, in A with B's factor given %d (want %d), A, B and w kept %d; in the "
              "other triangles %d",
              uplo, info_b, info_a, info_af, STARTRD_ERR_NONFINITE, kept, info_out);
}

/* Each invalid argument gives exactly its -i and leaves A, B, w alone. */
static void argument_cases(void)
{
    enum { N = 40 };
    static double complex A[N * N], B[N * N], Z[N * N];
    static double w[N];
    const double complex Aval = 7.0, Bval = 5.0;
    const int bad_ngpu = 1 << 20;
    const int64_t n64 = N, big = (int64_t)1 << 32;
    int m;
    int64_t m64;

    for (int i = 0; i < N * N; i++) {
        A[i] = Aval;
        B[i] = Bval;
    }
    for (int i = 0; i < N; i++)
        w[i] = -7.0;
    struct {
        int got, want;
        const char *what;
    } cases[] = {
        {zhegvd_2stage_mgpu(0, 'V', 'L', N, A, N, B, N, w, ngpu), -1, "zhegvd itype = 0"},
        {zhegvd_2stage_mgpu(4, 'V', 'L', N, A, N, B, N, w, ngpu), -1, "zhegvd itype = 4"},
        {zhegvd_2stage_mgpu(1, 'X', 'L', N, A, N, B, N, w, ngpu), -2, "zhegvd jobz"},
        {zhegvd_2stage_mgpu(1, 'V', 'X', N, A, N, B, N, w, ngpu), -3, "zhegvd uplo"},
        {zhegvd_2stage_mgpu(1, 'V', 'L', -1, A, N, B, N, w, ngpu), -4, "zhegvd n"},
        {zhegvd_2stage_mgpu(1, 'V', 'L', N, NULL, N, B, N, w, ngpu), -5, "zhegvd A"},
        {zhegvd_2stage_mgpu(1, 'V', 'L', N, A, N - 1, B, N, w, ngpu), -6, "zhegvd lda"},
        {zhegvd_2stage_mgpu(1, 'V', 'L', N, A, N, NULL, N, w, ngpu), -7, "zhegvd B"},
        {zhegvd_2stage_mgpu(1, 'V', 'L', N, A, N, B, N - 1, w, ngpu), -8, "zhegvd ldb"},
        {zhegvd_2stage_mgpu(1, 'V', 'L', N, A, N, B, N, NULL, ngpu), -9, "zhegvd w"},
        {zhegvd_2stage_mgpu(1, 'V', 'L', N, A, N, B, N, w, bad_ngpu), -10, "zhegvd ngpu"},
        {zhegvd_2stage_mgpu_64(1, 'V', 'L', -1, A, n64, B, n64, w, ngpu), -4, "zhegvd_64 n"},
        {zhegvd_2stage_mgpu_64(1, 'V', 'L', n64, A, n64, B, n64 - big, w, ngpu), -8, "zhegvd_64 ldb = N - 2^32"},
        {zhegvd_2stage_mgpu_64(1, 'V', 'L', n64, A, n64, B, n64, w, big), -10, "zhegvd_64 ngpu = 2^32"},
        {zhegvx_2stage_mgpu(0, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -1,
         "zhegvx itype"},
        {zhegvx_2stage_mgpu(1, 'X', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -2,
         "zhegvx jobz"},
        {zhegvx_2stage_mgpu(1, 'V', 'X', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -3,
         "zhegvx range"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'X', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -4,
         "zhegvx uplo"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'X', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -5,
         "zhegvx fact"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', -1, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -6,
         "zhegvx n"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, NULL, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -7,
         "zhegvx A"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N - 1, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -8,
         "zhegvx lda"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'F', N, A, N, NULL, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -9,
         "zhegvx B"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N - 1, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -10,
         "zhegvx ldb"},
        /* No vl is wrong by itself: as in LAPACK's ZHEGVX, an empty
         * interval is vu's fault. */
        {zhegvx_2stage_mgpu(1, 'V', 'V', 'L', 'N', N, A, N, B, N, 1.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -12,
         "zhegvx vu = vl"},
        {zhegvx_2stage_mgpu(1, 'V', 'V', 'L', 'N', N, A, N, B, N, 2.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -12,
         "zhegvx vu < vl"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 0, 2, &m, w, Z, N, ngpu), -13,
         "zhegvx il = 0"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, N + 1, N + 1, &m, w, Z, N, ngpu), -13,
         "zhegvx il > n"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 3, 2, &m, w, Z, N, ngpu), -14,
         "zhegvx iu < il"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, N + 1, &m, w, Z, N, ngpu), -14,
         "zhegvx iu > n"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, NULL, w, Z, N, ngpu), -15,
         "zhegvx m"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, NULL, Z, N, ngpu), -16,
         "zhegvx w"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, NULL, N, ngpu), -17,
         "zhegvx Z"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N - 1, ngpu), -18,
         "zhegvx ldz"},
        {zhegvx_2stage_mgpu(1, 'N', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, 0, ngpu), -18,
         "zhegvx ldz = 0 with jobz N"},
        {zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'N', N, A, N, B, N, 0.0, 1.0, 1, 2, &m, w, Z, N, bad_ngpu), -19,
         "zhegvx ngpu"},
        {zhegvx_2stage_mgpu_64(1, 'V', 'I', 'L', 'N', n64, A, n64, B, n64, 0.0, 1.0, 1, n64 + big, &m64, w, Z, n64,
                               ngpu),
         -14, "zhegvx_64 iu = N + 2^32"},
        {zhegvx_2stage_mgpu_64(1, 'V', 'I', 'L', 'N', n64, A, n64, B, n64, 0.0, 1.0, 1, 2, NULL, w, Z, n64, ngpu),
         -15, "zhegvx_64 m"},
        {zhegvx_2stage_mgpu_64(1, 'V', 'I', 'L', 'N', n64, A, n64, B, n64, 0.0, 1.0, 1, 2, &m64, w, Z, n64, big),
         -19, "zhegvx_64 ngpu = 2^32"},
    };
    bool untouched = true;

    for (int i = 0; i < N * N; i++)
        untouched = untouched && A[i] == Aval && B[i] == Bval;
    for (int i = 0; i < N; i++)
        untouched = untouched && w[i] == -7.0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        tst_check(cases[k].got == cases[k].want, "argument %s: info %d (want %d)", cases[k].what, cases[k].got,
                  cases[k].want);
    tst_check(untouched, "invalid arguments leave A, B and w as they were");
}

int main(void)
{
    startrd_options_t opt;
    uint64_t seed = 1;
    double t0 = tst_timer();
    /* Single precision resolves a less ill-conditioned B. */
    const double ill = tst_zeps() < 1e-10 ? 1e4 : 1e2, well = 10.0;
    /* The complex double test, whose arithmetic costs most, goes further. */
    bool full = sizeof(double complex) == 16;

    /* One BLAS thread for the references, and for the standard problem's
     * LAPACK path, which runs on this thread: OpenMP threads that wait for
     * each other by spinning slow down many times over when other
     * programs, other tests among them, hold the cores. */
    omp_set_num_threads(1);
    startrd_options_init(&opt);
    opt.ngpu = tst_env_ngpu();
    if (!tst_check(startrd_init(&opt) == 0, "startrd_init"))
        return tst_summary();
    ngpu = startrd_gpu_count();
    printf("# %d GPU(s)\n", ngpu);
    fflush(stdout);

    tiny_cases();
    /* Every itype, triangle and job within one tile, B ill-conditioned
     * every other time. */
    for (int itype = 1; itype <= 3; itype++)
        for (int u = 0; u < 2; u++)
            for (int j = 0; j < 2; j++)
                gvd_case(itype, j ? 'N' : 'V', u ? 'U' : 'L', 90 + 7 * itype, (u + j) % 2 ? ill : well, false,
                         seed++);
    /* Several host tiles: the last one partial, one row, or whole. */
    gvd_case(1, 'V', 'L', 650, ill, false, seed++);
    gvd_case(2, 'V', 'U', 650, ill, false, seed++);
    gvd_case(3, 'V', 'L', 650, well, false, seed++);
    gvd_case(3, 'N', 'U', 650, ill, false, seed++);
    gvd_case(1, 'N', 'U', 513, well, false, seed++);
    gvd_case(2, 'V', 'L', 512, well, false, seed++);
    if (full)
        gvd_case(1, 'V', 'U', 1100, ill, false, seed++);
    gvd_case(2, 'V', 'U', 150, ill, true, seed++);

    for (int u = 0; u < 2; u++) {
        char uplo = u ? 'U' : 'L';

        for (int itype = 1; itype <= 3; itype++) {
            gvx_case(itype, 'V', 'I', uplo, 200, 1, 1, well, false, false, seed++);
            gvx_case(itype, 'V', 'I', uplo, 200, 37, 90, u ? ill : well, itype == 2, false, seed++);
            gvx_case(itype, 'N', 'V', uplo, 200, 150, 200, well, false, false, seed++);
        }
        gvx_case(u + 1, 'V', 'V', uplo, 200, 11, 40, ill, false, false, seed++);
        gvx_case(3 - u, 'V', 'I', uplo, 160, 1, 160, well, false, false, seed++);
        gvx_case(2, 'N', 'I', uplo, 160, 160, 160, well, false, false, seed++);
        gvx_case(u ? 3 : 1, 'V', 'A', uplo, 160, 1, 160, well, u == 1, false, seed++);
        gvx_case(u ? 1 : 2, 'N', 'A', uplo, 160, 1, 160, ill, false, false, seed++);
    }
    gvx_case(1, 'V', 'I', 'U', 650, 300, 420, well, false, false, seed++);
    gvx_case(2, 'V', 'V', 'L', 650, 1, 100, ill, true, false, seed++);
    gvx_case(3, 'N', 'I', 'L', 650, 1, 650, well, false, false, seed++);
    gvx_case(3, 'V', 'V', 'L', 180, 20, 60, well, false, true, seed++);

    /* GPU tiles: several, the last partial; the standard problem on the
     * library's own path rather than LAPACK's. */
    if (ngpu > 0) {
        gvd_case(1, 'V', 'L', 2500, ill, false, seed++);
        gvd_case(3, 'N', 'U', 2500, well, false, seed++);
        gvx_case(2, 'V', 'I', 'U', 2500, 100, 400, ill, true, false, seed++);
    }

    empty_interval_case(1, 'L', seed++);
    empty_interval_case(3, 'U', seed++);
    not_definite_case(1, 'L', 200, 0, seed++);
    not_definite_case(3, 'U', 650, 0, seed++);
    not_definite_case(2, 'L', 650, 300, seed++);
    not_definite_case(1, 'U', 650, 1, seed++);
    nonfinite_case('L');
    nonfinite_case('U');
    argument_cases();
    tst_check(startrd_finalize() == 0, "startrd_finalize");
    printf("# %.1f s\n", tst_timer() - t0);
    return tst_summary();
}
