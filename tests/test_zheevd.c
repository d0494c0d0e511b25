/* Eigenvectors: zunmtr_2stage_mgpu against Q = Q1 Q2 formed explicitly,
 * zheevd_2stage_mgpu, zheevdx_2stage_mgpu and zheevr_2stage_mgpu (by
 * index, by value, all) against LAPACK's ZHEEVD
 * (eigenvalues), the residual ||A - Z L Z^H|| and the orthogonality of Z,
 * and every invalid argument.  The bounds are in units of the precision's
 * eps.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "scalars.h"
#include "testing.h"
#include "testing_context.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AT(A, lda, i, j) ((A)[(i) + (int64_t)(j) * (lda)])

/* Q^H C as LAPACK names it: ZUNMTR's 'C', DORMTR's 'T'. */
#ifdef COMPLEX
#define TRANS_ADJOINT 'C'
#else
#define TRANS_ADJOINT 'T'
#endif

static int ngpu;

static double complex *copy_of(const double complex *A, int64_t lda, int64_t n)
{
    double complex *B = malloc((size_t)(lda * (n > 0 ? n : 1)) * sizeof *B);

    if (B != NULL)
        memcpy(B, A, (size_t)(lda * n) * sizeof *B);
    return B;
}

/* C := op(Q1 Q2) C0 through explicit Q1 and Q2, against the library. */
static void apply_case(char uplo, char trans, int n, int m, uint64_t seed)
{
    int lda = n + 1, lhous2 = 0, info;
    double complex *A = malloc((size_t)(lda * n) * sizeof *A), *tau = calloc((size_t)n, sizeof *tau);
    double *d = malloc((size_t)n * sizeof *d), *e = malloc((size_t)n * sizeof *e);
    /* C is the first m columns of a random n x n matrix (m <= n). */
    double complex *C = malloc((size_t)(n * n) * sizeof *C), *C0 = NULL, *Q = NULL;
    double complex *hous2 = NULL, query;
    double err = NAN;
    bool layout = false;

    if (A == NULL || tau == NULL || d == NULL || e == NULL || C == NULL || tst_zgen(TST_KIND_RANDOM, n, A, lda, seed) ||
        tst_zgen(TST_KIND_RANDOM, n, C, n, seed + 1) != 0)
        goto out;
    info = zhetrd_2stage_mgpu('V', uplo, n, A, lda, d, e, tau, &query, -1, NULL, 0, ngpu);
    lhous2 = (int)creal(query);
    hous2 = malloc((size_t)lhous2 * sizeof *hous2);
    if (info != 0 || hous2 == NULL)
        goto out;
    memset(hous2, 0, (size_t)lhous2 * sizeof *hous2);
    if (zhetrd_2stage_mgpu('V', uplo, n, A, lda, d, e, tau, hous2, lhous2, NULL, 0, ngpu) != 0)
        goto out;
    startrd_stats_t st;
    startrd_last_stats(&st);
    Q = malloc((size_t)(n * n) * sizeof *Q);
    C0 = copy_of(C, n, m);
    if (Q == NULL || C0 == NULL || tst_zform_q(uplo, n, st.nb, A, lda, tau, hous2, Q, n, &layout) != 0)
        goto out;
    const double complex one = 1.0, mone = -1.0;

    info = zunmtr_2stage_mgpu(trans, uplo, n, m, A, lda, tau, hous2, lhous2, C, n, ngpu);
    if (info == 0) {
        cblas_zgemm(CblasColMajor, trans == 'N' ? CblasNoTrans : CblasConjTrans, CblasNoTrans, n, m, n,
                    STARTRD_Z_CBLAS(mone), Q, n, C0, n, STARTRD_Z_CBLAS(one), C, n);
        err = tst_zfrobenius(n, m, C, n) / (tst_max_nan(tst_zfrobenius(n, m, C0, n), DBL_MIN) * n * tst_zeps());
    }
out:
    /* Q is built from HOUS2 as documented, so a wrong layout would make the
     * comparison itself meaningless. */
    tst_check(err < 30.0 && layout,
              "zunmtr trans=%c uplo=%c n=%d m=%d: ||C - op(Q) C0|| / (n eps ||C0||) %.3g, HOUS2 layout %s", trans,
              uplo, n, m, err, layout ? "ok" : "wrong");
    free(A);
    free(tau);
    free(d);
    free(e);
    free(C);
    free(C0);
    free(Q);
    free(hous2);
}

static void driver_case(char uplo, int n, tst_kind kind, uint64_t seed)
{
    int lda = n + (int)(seed % 2), info = -1, infon = -1;
    double complex *A0 = malloc((size_t)(lda * (n > 0 ? n : 1)) * sizeof *A0), *A = NULL;
    double *w = malloc((size_t)(n > 0 ? n : 1) * sizeof *w), *wn = malloc((size_t)(n > 0 ? n : 1) * sizeof *wn);
    double *wref = malloc((size_t)(n > 0 ? n : 1) * sizeof *wref);
    double eig = NAN, eign = NAN, eigvn = NAN, resid = NAN, orth = NAN;

    if (A0 != NULL && w != NULL && wn != NULL && wref != NULL && tst_zgen(kind, n, A0, lda, seed) == 0 &&
        tst_zeig_hermitian(uplo, n, A0, lda, wref) == 0 && (A = copy_of(A0, lda, n)) != NULL) {
        infon = zheevd_2stage_mgpu('N', uplo, n, A, lda, wn, ngpu);
        memcpy(A, A0, (size_t)(lda * n) * sizeof *A);
        info = zheevd_2stage_mgpu('V', uplo, n, A, lda, w, ngpu);
        if (info == 0 && infon == 0) {
            eig = tst_zeig_ratio(n, w, wref);
            eign = tst_zeig_ratio(n, wn, wref);
            /* With vectors, the same eigenvalues as the reduction's alone. */
            eigvn = tst_zeig_ratio(n, w, wn);
            tst_zeigvec_ratios(uplo, n, n, A0, lda, A, lda, w, &resid, &orth);
        }
    }
    tst_check(info == 0 && infon == 0 && eig <= 10.0 && eign <= 10.0 && eigvn <= 10.0 && resid < 30.0 &&
                  orth < 30.0,
              "zheevd uplo=%c n=%d kind=%s: info %d/%d  eig/heevd %.3g (vectors) %.3g (values)  "
              "vectors/values %.3g  ||AZ-ZL|| %.3g  ||I-Z^HZ|| %.3g",
              uplo, n, tst_kind_name(kind), info, infon, eig, eign, eigvn, resid, orth);
    free(A0);
    free(A);
    free(w);
    free(wn);
    free(wref);
}

/* Eigenpairs il..iu (1-based) against the same slice of ZHEEVD's
 * eigenvalues: through zheevdx_2stage_mgpu (range 'X' here), or through
 * zheevr_2stage_mgpu by index ('I'), by the values between the slice's
 * neighbours ('V'), or all of them ('A', il = 1, iu = n).  With @p jobz
 * 'N' only the eigenvalues are checked. */
static void subset_case(char range, char jobz, char uplo, int n, int il, int iu, uint64_t seed)
{
    int lda = n, m = -1, info = -1, want = iu - il + 1;
    double complex *A0 = malloc((size_t)(n * n) * sizeof *A0), *A = NULL;
    double complex *Z = malloc((size_t)(n * n) * sizeof *Z);
    double *w = malloc((size_t)n * sizeof *w), *wref = malloc((size_t)n * sizeof *wref);
    double diff = NAN, scale = DBL_MIN, resid = 0.0, orth = 0.0, vl = 0.0, vu = 0.0;

    if (A0 != NULL && Z != NULL && w != NULL && wref != NULL && tst_zgen(TST_KIND_RANDOM, n, A0, lda, seed) == 0 &&
        tst_zeig_hermitian(uplo, n, A0, lda, wref) == 0 && (A = copy_of(A0, lda, n)) != NULL) {
        /* Bounds halfway to the neighbours outside the slice. */
        vl = il > 1 ? 0.5 * (wref[il - 2] + wref[il - 1]) : wref[0] - 1.0;
        vu = iu < n ? 0.5 * (wref[iu - 1] + wref[iu]) : wref[n - 1] + 1.0;
        info = range == 'X' ? zheevdx_2stage_mgpu(jobz, uplo, n, A, lda, il, iu, &m, w, Z, n, ngpu)
                            : zheevr_2stage_mgpu(jobz, range, uplo, n, A, lda, vl, vu, il, iu, &m, w, Z, n, ngpu);
        if (info == 0 && m == want) {
            diff = 0.0;
            for (int k = 0; k < n; k++)
                scale = tst_max_nan(scale, fabs(wref[k]));
            for (int k = 0; k < m; k++)
                diff = tst_max_nan(diff, fabs(w[k] - wref[il - 1 + k]));
            diff /= n * tst_zeps() * scale;
            if (jobz == 'V')
                tst_zeigvec_ratios(uplo, n, m, A0, lda, Z, n, w, &resid, &orth);
        }
    }
    tst_check(info == 0 && m == want && diff <= 10.0 && resid < 30.0 && orth < 30.0,
              "%s jobz=%c range=%c uplo=%c n=%d il=%d iu=%d (vl %.4g vu %.4g): info %d m %d (want %d)  "
              "eig/heevd %.3g  ||AZ-ZL|| %.3g  ||I-Z^HZ|| %.3g",
              range == 'X' ? "zheevdx" : "zheevr", jobz, range == 'X' ? 'I' : range, uplo, n, il, iu, vl, vu, info,
              m, want, diff, resid, orth);
    free(A0);
    free(A);
    free(Z);
    free(w);
    free(wref);
}

/* startrd_last_stats() after a reduction the library ran reports it; after
 * an eigensolver call that LAPACK handled whole (ngpu = 0, n below 2048),
 * all zero. */
static void stats_case(void)
{
    enum { N = 300 };
    double complex *A = malloc((size_t)N * N * sizeof *A), *Z = malloc((size_t)N * N * sizeof *Z), tau[N];
    double d[N], e[N], w[N];
    startrd_stats_t before = {0}, after_heevd = {0}, after_heevr = {0};
    int m = 0, info = -1, info2 = -1, info3 = -1;

    if (A != NULL && Z != NULL && tst_zgen(TST_KIND_RANDOM, N, A, N, 91) == 0) {
        info = zhetrd_2stage_mgpu('N', 'L', N, A, N, d, e, tau, NULL, 0, NULL, 0, ngpu);
        startrd_last_stats(&before);
        tst_zgen(TST_KIND_RANDOM, N, A, N, 92);
        info2 = zheevd_2stage_mgpu('V', 'L', N, A, N, w, 0);
        startrd_last_stats(&after_heevd);
        zhetrd_2stage_mgpu('N', 'L', N, A, N, d, e, tau, NULL, 0, NULL, 0, ngpu);
        tst_zgen(TST_KIND_RANDOM, N, A, N, 93);
        info3 = zheevr_2stage_mgpu('V', 'I', 'L', N, A, N, 0.0, 0.0, 1, 30, &m, w, Z, N, 0);
        startrd_last_stats(&after_heevr);
    }
    tst_check(info == 0 && info2 == 0 && info3 == 0 && before.nb > 0 && before.stage1_seconds > 0.0 &&
                  after_heevd.nb == 0 && after_heevd.stage1_seconds == 0.0 && after_heevd.tridiag_seconds == 0.0 &&
                  after_heevr.nb == 0 && after_heevr.stage1_seconds == 0.0,
              "stats: after a reduction nb %d stage 1 %.3g s; after LAPACK's ZHEEVD nb %d stage 1 %g s; after ZHEEVR "
              "nb %d stage 1 %g s (info %d/%d/%d)",
              before.nb, before.stage1_seconds, after_heevd.nb, after_heevd.stage1_seconds, after_heevr.nb,
              after_heevr.stage1_seconds, info, info2, info3);
    free(A);
    free(Z);
}

/* A value range that holds no eigenvalue: m = 0 and success. */
static void empty_range_case(void)
{
    enum { N = 50 };
    double complex *A = malloc((size_t)N * N * sizeof *A), Z[N];
    double w[N];
    int m = -1, info = -1;

    if (A != NULL && tst_zgen(TST_KIND_RANDOM, N, A, N, 77) == 0)
        info = zheevr_2stage_mgpu('V', 'V', 'L', N, A, N, 1e6, 2e6, 0, 0, &m, w, Z, N, ngpu);
    tst_check(info == 0 && m == 0, "zheevr range (1e6, 2e6], no eigenvalue there: info %d m %d", info, m);
    free(A);
}

/* Each invalid argument gives exactly its -i and leaves C, A, w untouched. */
static void argument_cases(void)
{
    enum { N = 40 };
    static double complex A[N * N], C[N * N], Z[N * N], H[N * N], tau[N];
    static double w[N];
    double complex Asave = 7.0, Csave = 5.0;
    int m;

    for (int i = 0; i < N * N; i++) {
        A[i] = Asave;
        C[i] = Csave;
    }
    struct {
        int got, want;
        const char *what;
    } cases[] = {
        {zunmtr_2stage_mgpu('X', 'L', N, 2, A, N, tau, H, N * N, C, N, ngpu), -1, "zunmtr trans"},
        {zunmtr_2stage_mgpu('N', 'X', N, 2, A, N, tau, H, N * N, C, N, ngpu), -2, "zunmtr uplo"},
        {zunmtr_2stage_mgpu('N', 'L', -1, 2, A, N, tau, H, N * N, C, N, ngpu), -3, "zunmtr n"},
        {zunmtr_2stage_mgpu('N', 'L', N, -1, A, N, tau, H, N * N, C, N, ngpu), -4, "zunmtr m"},
        {zunmtr_2stage_mgpu('N', 'L', N, 2, NULL, N, tau, H, N * N, C, N, ngpu), -5, "zunmtr A"},
        {zunmtr_2stage_mgpu('N', 'L', N, 2, A, N - 1, tau, H, N * N, C, N, ngpu), -6, "zunmtr lda"},
        {zunmtr_2stage_mgpu('N', 'L', N, 2, A, N, NULL, H, N * N, C, N, ngpu), -7, "zunmtr tau"},
        {zunmtr_2stage_mgpu('N', 'L', N, 2, A, N, tau, NULL, N * N, C, N, ngpu), -8, "zunmtr hous2"},
        {zunmtr_2stage_mgpu('N', 'L', N, 2, A, N, tau, H, 1, C, N, ngpu), -9, "zunmtr lhous2"},
        {zunmtr_2stage_mgpu('N', 'L', N, 2, A, N, tau, H, N * N, NULL, N, ngpu), -10, "zunmtr C"},
        {zunmtr_2stage_mgpu('N', 'L', N, 2, A, N, tau, H, N * N, C, N - 1, ngpu), -11, "zunmtr ldc"},
        {zunmtr_2stage_mgpu('N', 'L', N, 2, A, N, tau, H, N * N, C, N, STARPU_NMAXWORKERS), -12, "zunmtr ngpu"},
        {zheevd_2stage_mgpu('X', 'L', N, A, N, w, ngpu), -1, "zheevd jobz"},
        {zheevd_2stage_mgpu('V', 'X', N, A, N, w, ngpu), -2, "zheevd uplo"},
        {zheevd_2stage_mgpu('V', 'L', -1, A, N, w, ngpu), -3, "zheevd n"},
        {zheevd_2stage_mgpu('V', 'L', N, NULL, N, w, ngpu), -4, "zheevd A"},
        {zheevd_2stage_mgpu('V', 'L', N, A, N - 1, w, ngpu), -5, "zheevd lda"},
        {zheevd_2stage_mgpu('V', 'L', N, A, N, NULL, ngpu), -6, "zheevd w"},
        {zheevd_2stage_mgpu('V', 'L', N, A, N, w, STARPU_NMAXWORKERS), -7, "zheevd ngpu"},
        {zheevdx_2stage_mgpu('X', 'L', N, A, N, 1, 2, &m, w, Z, N, ngpu), -1, "zheevdx jobz"},
        {zheevdx_2stage_mgpu('V', 'X', N, A, N, 1, 2, &m, w, Z, N, ngpu), -2, "zheevdx uplo"},
        {zheevdx_2stage_mgpu('V', 'L', -1, A, N, 1, 2, &m, w, Z, N, ngpu), -3, "zheevdx n"},
        {zheevdx_2stage_mgpu('V', 'L', N, NULL, N, 1, 2, &m, w, Z, N, ngpu), -4, "zheevdx A"},
        {zheevdx_2stage_mgpu('V', 'L', N, A, N - 1, 1, 2, &m, w, Z, N, ngpu), -5, "zheevdx lda"},
        {zheevdx_2stage_mgpu('V', 'L', N, A, N, 0, 2, &m, w, Z, N, ngpu), -6, "zheevdx il"},
        {zheevdx_2stage_mgpu('V', 'L', N, A, N, 3, 2, &m, w, Z, N, ngpu), -7, "zheevdx iu"},
        {zheevdx_2stage_mgpu('V', 'L', N, A, N, 1, 2, NULL, w, Z, N, ngpu), -8, "zheevdx m"},
        {zheevdx_2stage_mgpu('V', 'L', N, A, N, 1, 2, &m, NULL, Z, N, ngpu), -9, "zheevdx w"},
        {zheevdx_2stage_mgpu('V', 'L', N, A, N, 1, 2, &m, w, NULL, N, ngpu), -10, "zheevdx Z"},
        {zheevdx_2stage_mgpu('V', 'L', N, A, N, 1, 2, &m, w, Z, N - 1, ngpu), -11, "zheevdx ldz"},
        {zheevdx_2stage_mgpu('V', 'L', N, A, N, 1, 2, &m, w, Z, N, STARPU_NMAXWORKERS), -12, "zheevdx ngpu"},
        {zheevr_2stage_mgpu('X', 'V', 'L', N, A, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -1, "zheevr jobz"},
        {zheevr_2stage_mgpu('V', 'X', 'L', N, A, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -2, "zheevr range"},
        {zheevr_2stage_mgpu('V', 'V', 'X', N, A, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -3, "zheevr uplo"},
        {zheevr_2stage_mgpu('V', 'V', 'L', -1, A, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -4, "zheevr n"},
        {zheevr_2stage_mgpu('V', 'V', 'L', N, NULL, N, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -5, "zheevr A"},
        {zheevr_2stage_mgpu('V', 'V', 'L', N, A, N - 1, 0.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -6, "zheevr lda"},
        {zheevr_2stage_mgpu('V', 'V', 'L', N, A, N, 1.0, 1.0, 1, 2, &m, w, Z, N, ngpu), -8, "zheevr vu = vl"},
        {zheevr_2stage_mgpu('V', 'I', 'L', N, A, N, 0.0, 1.0, 0, 2, &m, w, Z, N, ngpu), -9, "zheevr il"},
        {zheevr_2stage_mgpu('V', 'I', 'L', N, A, N, 0.0, 1.0, 3, 2, &m, w, Z, N, ngpu), -10, "zheevr iu"},
        {zheevr_2stage_mgpu('V', 'V', 'L', N, A, N, 0.0, 1.0, 1, 2, NULL, w, Z, N, ngpu), -11, "zheevr m"},
        {zheevr_2stage_mgpu('V', 'V', 'L', N, A, N, 0.0, 1.0, 1, 2, &m, NULL, Z, N, ngpu), -12, "zheevr w"},
        {zheevr_2stage_mgpu('V', 'V', 'L', N, A, N, 0.0, 1.0, 1, 2, &m, w, NULL, N, ngpu), -13, "zheevr Z"},
        {zheevr_2stage_mgpu('V', 'V', 'L', N, A, N, 0.0, 1.0, 1, 2, &m, w, Z, N - 1, ngpu), -14, "zheevr ldz"},
        {zheevr_2stage_mgpu('V', 'V', 'L', N, A, N, 0.0, 1.0, 1, 2, &m, w, Z, N, STARPU_NMAXWORKERS), -15,
         "zheevr ngpu"},
    };
    bool untouched = true;

    for (int i = 0; i < N * N; i++)
        untouched = untouched && A[i] == Asave && C[i] == Csave;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        tst_check(cases[k].got == cases[k].want, "argument %s: info %d (want %d)", cases[k].what, cases[k].got,
                  cases[k].want);
    tst_check(untouched, "invalid arguments leave A and C as they were");
}

/* NaN in the referenced triangle: the reduction's distinct status comes
 * through the drivers, and w is left as it was. */
static void nonfinite_case(char uplo)
{
    enum { N = 50 };
    static double complex A[N * N], Z[N * N];
    double w[N];
    int m = -1, info, infox;

    for (int k = 0; k < N; k++)
        w[k] = -7.0;
    tst_zgen(TST_KIND_RANDOM, N, A, N, 99);
    A[uplo == 'L' ? 30 + 10 * N : 10 + 30 * N] = NAN;
    info = zheevd_2stage_mgpu('V', uplo, N, A, N, w, ngpu);
    infox = zheevdx_2stage_mgpu('V', uplo, N, A, N, 1, 5, &m, w, Z, N, ngpu);
    bool untouched = true;

    for (int k = 0; k < N; k++)
        untouched = untouched && w[k] == -7.0;
    tst_check(info == STARTRD_ERR_NONFINITE && infox == STARTRD_ERR_NONFINITE && untouched,
              "NaN in A, uplo=%c: zheevd %d, zheevdx %d (want %d), w untouched %d", uplo, info, infox,
              STARTRD_ERR_NONFINITE, untouched);
}

int main(void)
{
    startrd_context_t *ctx = tst_open_context();
    uint64_t seed = 1;

    if (ctx == NULL)
        return tst_summary();
    ngpu = ctx->ncuda;
    for (int u = 0; u < 2; u++) {
        char uplo = u ? 'U' : 'L';
        static const int sizes[] = {1, 2, 3, 33, 65, 131, 257};

        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            driver_case(uplo, sizes[s], TST_KIND_RANDOM, seed++);
        driver_case(uplo, 131, TST_KIND_CLUSTERED, seed++);
        driver_case(uplo, 131, TST_KIND_GEOMETRIC, seed++);
        for (int t = 0; t < 2; t++) {
            apply_case(uplo, t ? TRANS_ADJOINT : 'N', 100, 7, seed++);
            apply_case(uplo, t ? TRANS_ADJOINT : 'N', 300, 150, seed++);
        }
        subset_case('X', 'V', uplo, 200, 1, 1, seed++);
        subset_case('X', 'V', uplo, 200, 37, 90, seed++);
        subset_case('X', 'V', uplo, 200, 150, 200, seed++);
        subset_case('I', 'V', uplo, 200, 37, 90, seed++);
        subset_case('V', 'V', uplo, 200, 1, 20, seed++);
        subset_case('V', 'V', uplo, 200, 91, 130, seed++);
        subset_case('V', 'N', uplo, 200, 150, 200, seed++);
        subset_case('A', 'V', uplo, 120, 1, 120, seed++);
    }
    /* Above LAPACK's ZHEEVD, which takes smaller orders without GPUs, and
     * above the leaves of the GPU divide and conquer: two levels of merges.
     * Every kind of matrix, and a graded spectrum at 4096, three levels.
     * The other precisions, which share all but the arithmetic, keep the
     * suite's time down with the kinds that try the precision's range and
     * resolution at 2100. */
    if (sizeof(double complex) == 16) {   /* complex double */
        for (int kind = 0; kind < TST_KIND_COUNT; kind++)
            driver_case(kind % 2 ? 'U' : 'L', 2100, (tst_kind)kind, seed++);
        driver_case('U', 4096, TST_KIND_GEOMETRIC, seed++);
    } else {
        static const tst_kind large_kinds[] = {TST_KIND_RANDOM, TST_KIND_CLUSTERED, TST_KIND_GEOMETRIC,
                                               TST_KIND_UNDERFLOW, TST_KIND_OVERFLOW};

        for (size_t k = 0; k < sizeof large_kinds / sizeof large_kinds[0]; k++)
            driver_case(k % 2 ? 'U' : 'L', 2100, large_kinds[k], seed++);
    }
    /* The same for selected pairs, which LAPACK's ZHEEVR takes below. */
    subset_case('I', 'V', 'L', 2100, 1, 210, seed++);
    subset_case('V', 'V', 'U', 2100, 1001, 1100, seed++);
    empty_range_case();
    stats_case();
    nonfinite_case('L');
    nonfinite_case('U');
    argument_cases();
    startrd_context_release();
    return tst_summary();
}
