/**
 * @file testing_z.c
 * @brief The test helpers that depend on the precision; see testing_z.h.
 *
 * The real precisions work on symmetric matrices: what only complex
 * arithmetic needs (conjugations, real parts, CBLAS's complex scalars passed
 * by address, the sym argument of the complex ?latms) sits under COMPLEX.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "testing.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* complex.h first (through testing.h), so that LAPACKE's complex types are
   C99's. */
#include <cblas.h>
#include <lapack.h>
#include <lapacke.h>

#include "bulge_plan.h"

/* Column-major addressing with 64-bit offsets. */
#define AT(A, lda, i, j) ((A)[(i) + (int64_t)(j) * (lda)])

/* CBLAS takes complex scalars by address and real ones by value; the
   complex ?latms make a Hermitian matrix with sym 'H', the real ones a
   symmetric one with 'S'. */
#ifdef COMPLEX
#define CONJ(x) conj(x)
#define RE(x) creal(x)
#define SCALAR_ARG(x) (&(x))
#define LATMS_SYM 'H'
#else
#define CONJ(x) (x)
#define RE(x) (x)
#define SCALAR_ARG(x) (x)
#define LATMS_SYM 'S'
#endif

/* LAPACKE's uniform draw on an array of the real type: dlarnv for double,
   slarnv for float (codegen.py leaves dlarnv to the complex precisions). */
#define LARNV_REAL(idist, iseed, n, x) \
    _Generic((x), float *: LAPACKE_slarnv, default: LAPACKE_dlarnv)((idist), (iseed), (n), (x))

double tst_zeps(void)
{
    return DBL_EPSILON / 2.0;
}

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

/* ------------------------------------------------------------------ */
/* Argument checks and small utilities                                 */
/* ------------------------------------------------------------------ */

/* True when v survives the narrowing to lapack_int (32-bit by default). */
static bool fits_lapack(int64_t v)
{
    return v == (int64_t)(lapack_int)v;
}

/* Shape of an n-by-n matrix in an array with leading dimension ld. */
static bool valid_shape(int64_t n, int64_t ld)
{
    return n >= 0 && ld >= (n > 1 ? n : 1) && fits_lapack(ld);
}

static bool valid_uplo(char uplo)
{
    return uplo == 'L' || uplo == 'U';
}

/*
 * n*n zeroed entries with ld = n; NULL on overflow or exhaustion.
 * Zeroed because LAPACKE NaN-checks some output arrays on entry.
 */
static double complex *alloc_square(int64_t n)
{
    size_t count = (size_t)(n > 0 ? n : 1);
    if (count > SIZE_MAX / sizeof(double complex) / count)
        return NULL;
    return calloc(count * count, sizeof(double complex));
}

static void copy_square(int64_t n, const double complex *src, int64_t lds,
                        double complex *dst, int64_t ldd)
{
    for (int64_t j = 0; j < n; j++)
        memcpy(&AT(dst, ldd, 0, j), &AT(src, lds, 0, j),
               (size_t)n * sizeof *dst);
}

/*
 * Multiplies the n-by-n matrix by 2^e, exactly unless subnormal.  ldexp on
 * each real part of an entry (C11 lays a complex out as two reals) rather
 * than a product, because 2^e itself need not be representable when e
 * brings a subnormal matrix up to 1.
 */
static void scale_pow2(int64_t n, double complex *A, int64_t lda, int e)
{
    const size_t nparts = sizeof *A / sizeof(double);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double *parts = (double *)&AT(A, lda, i, j);
            for (size_t k = 0; k < nparts; k++)
                parts[k] = ldexp(parts[k], e);
        }
}

/*
 * num / (n * eps * max(den, DBL_MIN)).  Dividing by the raised denominator
 * first keeps the intermediate in range near underflow, and a zero scale
 * with a zero numerator gives 0 instead of 0/0.
 */
static double ratio_of(double num, double den, int64_t n)
{
    if (n == 0)
        return 0.0;
    /* An infinite scale would turn any residual into a passing 0. */
    if (!isfinite(den))
        return NAN;
    return num / tst_max_nan(den, DBL_MIN) / ((double)n * tst_zeps());
}

/*
 * Writes into F (ld = n) the full Hermitian matrix whose uplo triangle is in
 * A, with the diagonal's real part.  Copying by hand rather than through
 * LAPACKE_zlacpy matters: that one NaN-checks the whole square, including a
 * NaN sentinel in the triangle the caller did not fill.
 */
static void hermitian_full(char uplo, int64_t n, const double complex *A,
                           int64_t lda, double complex *F)
{
    for (int64_t j = 0; j < n; j++) {
        AT(F, n, j, j) = RE(AT(A, lda, j, j));
        for (int64_t i = j + 1; i < n; i++) {
            double complex low = uplo == 'L' ? AT(A, lda, i, j)
                                             : CONJ(AT(A, lda, j, i));
            AT(F, n, i, j) = low;
            AT(F, n, j, i) = CONJ(low);
        }
    }
}

/* Rows [*lo, *hi] of column j that lie in the band of width kd of uplo. */
static void band_rows(char uplo, int64_t n, int64_t kd, int64_t j,
                      int64_t *lo, int64_t *hi)
{
    if (uplo == 'L') {
        *lo = j;
        *hi = j + kd < n - 1 ? j + kd : n - 1;
    } else {
        *lo = j - kd > 0 ? j - kd : 0;
        *hi = j;
    }
}

/* ------------------------------------------------------------------ */
/* Generators                                                          */
/* ------------------------------------------------------------------ */

/*
 * LAPACK's generator wants four 12-bit integers, the last one odd.  Mixing
 * the seed first (splitmix64's finaliser) keeps neighbouring seeds, which
 * tests use in loops, from starting in neighbouring states.
 */
static void make_iseed(uint64_t seed, lapack_int iseed[4])
{
    uint64_t z = seed + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    for (int k = 0; k < 4; k++)
        iseed[k] = (lapack_int)((z >> (12 * k)) & 4095u);
    iseed[3] |= 1;
}

/* Copies the strict lower triangle onto the upper one, conjugated. */
static void mirror_lower(int64_t n, double complex *A, int64_t lda)
{
    for (int64_t j = 0; j < n; j++) {
        AT(A, lda, j, j) = RE(AT(A, lda, j, j));
        for (int64_t i = j + 1; i < n; i++)
            AT(A, lda, j, i) = CONJ(AT(A, lda, i, j));
    }
}

/*
 * Random Hermitian matrix of bandwidth `width` (0 diagonal, 1 tridiagonal,
 * n-1 dense): one zlarnv draw per column, diagonal first, so the stream
 * consumed depends on n and width only, never on lda.
 */
static int gen_random_band(int64_t n, int64_t width, double complex *A,
                           int64_t lda, lapack_int iseed[4])
{
    lapack_int info = LAPACKE_zlaset(LAPACK_COL_MAJOR, 'A', (lapack_int)n,
                                     (lapack_int)n, 0.0, 0.0, A,
                                     (lapack_int)lda);
    for (int64_t j = 0; j < n && info == 0; j++) {
        int64_t below = n - 1 - j < width ? n - 1 - j : width;
        info = LAPACKE_zlarnv(2, iseed, (lapack_int)(below + 1),
                              &AT(A, lda, j, j));
    }
    if (info == 0)
        mirror_lower(n, A, lda);
    return info;
}

/*
 * zlatms with sym LATMS_SYM and full bandwidth; d holds the spectrum for
 * mode 0 and is zeroed workspace otherwise (zlatms overwrites it, and
 * LAPACKE NaN-checks it first).  zlatms clears all lda rows of its array, so it
 * works in a scratch square and only the n-by-n part of A is copied.
 */
static int gen_latms_d(int64_t n, int mode, double cond, double *d,
                       double complex *A, int64_t lda, lapack_int iseed[4])
{
    double complex *S = alloc_square(n);
    if (S == NULL)
        return TST_ERR_NOMEM;
    lapack_int ni = (lapack_int)n;
    lapack_int info = LAPACKE_zlatms(LAPACK_COL_MAJOR, ni, ni, 'S', iseed,
                                     LATMS_SYM, d, mode, cond, 1.0, ni - 1,
                                     ni - 1, 'N', S, ni);
    if (info == 0) {
        copy_square(n, S, n, A, lda);
        /* zlatms already mirrors; this makes the diagonal exactly real. */
        mirror_lower(n, A, lda);
    }
    free(S);
    return info;
}

/* Spectrum of TST_KIND_CLUSTERED, then a random unitary similarity. */
static int gen_clustered(int64_t n, double complex *A, int64_t lda,
                         lapack_int iseed[4])
{
    double *w = malloc((size_t)n * sizeof *w);
    if (w == NULL)
        return TST_ERR_NOMEM;
    lapack_int info = LARNV_REAL(2, iseed, (lapack_int)n, w);
    /* The last tenth stay as drawn, in [-1,1], so the cluster is not alone.
       In single precision 1 + 1e-10 w rounds to 1: a multiple eigenvalue. */
    for (int64_t i = 0; i < n - n / 10; i++)
        w[i] = 1.0 + 1e-10 * w[i];
    if (info == 0)
        info = gen_latms_d(n, 0, 1.0, w, A, lda, iseed);
    free(w);
    return info;
}

static int gen_latms_mode(int64_t n, int mode, double cond, double complex *A,
                          int64_t lda, lapack_int iseed[4])
{
    double *d = calloc((size_t)n, sizeof *d);
    if (d == NULL)
        return TST_ERR_NOMEM;
    int info = gen_latms_d(n, mode, cond, d, A, lda, iseed);
    free(d);
    return info;
}

int tst_zgen(tst_kind kind, int64_t n, double complex *A, int64_t lda,
             uint64_t seed)
{
    if (!valid_shape(n, lda) || (int)kind < 0 || kind >= TST_KIND_COUNT)
        return TST_ERR_ARG;
    if (n == 0)
        return 0;
    lapack_int iseed[4];
    make_iseed(seed, iseed);
    lapack_int ni = (lapack_int)n, ldai = (lapack_int)lda;
    /* The smallest eigenvalue modulus DBL_EPSILON is as ill-conditioned as
       a spectrum gets while still differing from 0 relative to the largest,
       so the reduction must resolve eigenvalues across the whole range. */
    const double cond = 1.0 / DBL_EPSILON;
    int info;
    switch (kind) {
    case TST_KIND_ZERO:
        return LAPACKE_zlaset(LAPACK_COL_MAJOR, 'A', ni, ni, 0.0, 0.0, A, ldai);
    case TST_KIND_IDENTITY:
        return LAPACKE_zlaset(LAPACK_COL_MAJOR, 'A', ni, ni, 0.0, 1.0, A, ldai);
    case TST_KIND_DIAGONAL:
        return gen_random_band(n, 0, A, lda, iseed);
    case TST_KIND_TRIDIAGONAL:
        return gen_random_band(n, 1, A, lda, iseed);
    case TST_KIND_CLUSTERED:
        return gen_clustered(n, A, lda, iseed);
    case TST_KIND_GEOMETRIC:
        return gen_latms_mode(n, 3, cond, A, lda, iseed);
    case TST_KIND_ARITHMETIC:
        return gen_latms_mode(n, 4, cond, A, lda, iseed);
    case TST_KIND_UNDERFLOW:
        info = gen_random_band(n, n - 1, A, lda, iseed);
        if (info == 0)
            scale_pow2(n, A, lda, TST_UNDERFLOW_EXP(DBL_MIN, DBL_EPSILON));
        return info;
    case TST_KIND_OVERFLOW: {
        info = gen_random_band(n, n - 1, A, lda, iseed);
        double norm = info == 0 ? tst_zfrobenius(n, n, A, lda) : 0.0;
        if (norm > 0.0)
            scale_pow2(n, A, lda, TST_OVERFLOW_EXP(DBL_MAX) - 1 - ilogb(norm));
        return info;
    }
    case TST_KIND_RANDOM:
    default:
        return gen_random_band(n, n - 1, A, lda, iseed);
    }
}

int tst_zgen_spectrum(int64_t n, const double *w, double complex *A,
                      int64_t lda, uint64_t seed)
{
    if (!valid_shape(n, lda))
        return TST_ERR_ARG;
    if (n == 0)
        return 0;
    double *d = malloc((size_t)n * sizeof *d);
    if (d == NULL)
        return TST_ERR_NOMEM;
    memcpy(d, w, (size_t)n * sizeof *d);
    lapack_int iseed[4];
    make_iseed(seed, iseed);
    int info = gen_latms_d(n, 0, 1.0, d, A, lda, iseed);
    free(d);
    return info;
}

int tst_zgen_latms(int64_t n, int mode, double cond, double complex *A,
                   int64_t lda, uint64_t seed)
{
    if (!valid_shape(n, lda) || mode == 0 || mode < -5 || mode > 5)
        return TST_ERR_ARG;
    if (n == 0)
        return 0;
    lapack_int iseed[4];
    make_iseed(seed, iseed);
    return gen_latms_mode(n, mode, cond, A, lda, iseed);
}

/* ------------------------------------------------------------------ */
/* Sentinels                                                           */
/* ------------------------------------------------------------------ */

/*
 * The two row ranges [span[k][0], span[k][1]) of column j that lie outside
 * the contract of a routine working on the uplo triangle: the opposite
 * strict triangle, then the padding rows.
 */
static void outside_spans(char uplo, int64_t n, int64_t lda, int64_t j,
                          int64_t span[2][2])
{
    span[0][0] = uplo == 'L' ? 0 : j + 1;
    span[0][1] = uplo == 'L' ? j : n;
    span[1][0] = n;
    span[1][1] = lda;
}

void tst_zfill_sentinel(char uplo, int64_t n, double complex *A, int64_t lda,
                        double complex sentinel)
{
    int64_t span[2][2];
    for (int64_t j = 0; j < n; j++) {
        outside_spans(uplo, n, lda, j, span);
        for (int k = 0; k < 2; k++)
            for (int64_t i = span[k][0]; i < span[k][1]; i++)
                memcpy(&AT(A, lda, i, j), &sentinel, sizeof sentinel);
    }
}

int64_t tst_zcount_sentinel_changes(char uplo, int64_t n,
                                    const double complex *A, int64_t lda,
                                    double complex sentinel)
{
    int64_t span[2][2], changed = 0;
    for (int64_t j = 0; j < n; j++) {
        outside_spans(uplo, n, lda, j, span);
        for (int k = 0; k < 2; k++)
            for (int64_t i = span[k][0]; i < span[k][1]; i++)
                changed += memcmp(&AT(A, lda, i, j), &sentinel,
                                  sizeof sentinel) != 0;
    }
    return changed;
}

/* ------------------------------------------------------------------ */
/* Reference eigenvalues                                               */
/* ------------------------------------------------------------------ */

int tst_zeig_hermitian(char uplo, int64_t n, const double complex *A,
                       int64_t lda, double *w)
{
    if (!valid_uplo(uplo) || !valid_shape(n, lda))
        return TST_ERR_ARG;
    if (n == 0)
        return 0;
    double complex *F = alloc_square(n);
    if (F == NULL)
        return TST_ERR_NOMEM;
    hermitian_full(uplo, n, A, lda, F);
    int info = LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, F,
                              (lapack_int)n, w);
    free(F);
    return info;
}

int tst_zeig_tridiagonal(int64_t n, const double *d, const double *e,
                         double *w)
{
    if (n < 0 || !fits_lapack(n))
        return TST_ERR_ARG;
    if (n == 0)
        return 0;
    /* dsterf destroys e; one spare slot keeps malloc(0) out of the n=1 case. */
    double *ework = malloc((size_t)n * sizeof *ework);
    if (ework == NULL)
        return TST_ERR_NOMEM;
    memcpy(w, d, (size_t)n * sizeof *w);
    if (n > 1)
        memcpy(ework, e, (size_t)(n - 1) * sizeof *ework);
    int info = LAPACKE_dsterf((lapack_int)n, w, ework);
    free(ework);
    return info;
}

int tst_zeig_band(char uplo, int64_t n, int64_t kd, const double complex *A,
                  int64_t lda, double *w)
{
    if (!valid_uplo(uplo) || !valid_shape(n, lda) || kd < 0)
        return TST_ERR_ARG;
    if (n == 0)
        return 0;
    /* A band wider than the matrix carries nothing more. */
    int64_t kdx = kd < n - 1 ? kd : n - 1, ldab = kdx + 1;
    /* Zeroed: the unused corner of band storage must not hold a NaN that
       LAPACKE's check could see. */
    double complex *AB = calloc((size_t)ldab * (size_t)n, sizeof *AB);
    if (AB == NULL)
        return TST_ERR_NOMEM;
    /* LAPACK band storage: row i of column j goes to AB row i-j (lower)
       or kd+i-j (upper). */
    int64_t shift = uplo == 'L' ? 0 : kdx;
    for (int64_t j = 0; j < n; j++) {
        int64_t lo, hi;
        band_rows(uplo, n, kdx, j, &lo, &hi);
        for (int64_t i = lo; i <= hi; i++)
            AT(AB, ldab, shift + i - j, j) = AT(A, lda, i, j);
    }
    int info = LAPACKE_zhbevd(LAPACK_COL_MAJOR, 'N', uplo, (lapack_int)n,
                              (lapack_int)kdx, AB, (lapack_int)ldab, w, NULL,
                              1);
    free(AB);
    return info;
}

int tst_zeig_hetrd_2stage(char uplo, int64_t n, const double complex *A,
                          int64_t lda, double *w)
{
    if (!valid_uplo(uplo) || !valid_shape(n, lda))
        return TST_ERR_ARG;
    if (n == 0)
        return 0;
    /* On a full Hermitian copy, so that whatever the caller keeps in the
       other triangle (a NaN sentinel) cannot matter. */
    double complex *F = alloc_square(n);
    double *e = malloc((size_t)n * sizeof *e);
    double complex *tau = malloc((size_t)n * sizeof *tau);
    double complex *hous2 = NULL, *work = NULL, hq, wq;
    lapack_int ni = (lapack_int)n, lh = -1, lw = -1, info = TST_ERR_NOMEM;
    if (F == NULL || e == NULL || tau == NULL)
        goto out;
    hermitian_full(uplo, n, A, lda, F);
    /* LAPACKE has no ZHETRD_2STAGE: the Fortran routine, through <lapack.h>. */
    LAPACK_zhetrd_2stage("N", &uplo, &ni, F, &ni, w, e, tau, &hq, &lh, &wq,
                         &lw, &info);
    if (info != 0)
        goto out;
    lh = (lapack_int)RE(hq);
    lw = (lapack_int)RE(wq);
    hous2 = malloc((size_t)(lh > 0 ? lh : 1) * sizeof *hous2);
    work = malloc((size_t)(lw > 0 ? lw : 1) * sizeof *work);
    info = TST_ERR_NOMEM;
    if (hous2 == NULL || work == NULL)
        goto out;
    LAPACK_zhetrd_2stage("N", &uplo, &ni, F, &ni, w, e, tau, hous2, &lh, work,
                         &lw, &info);
    if (info == 0)
        info = LAPACKE_dsterf(ni, w, e);
out:
    free(F);
    free(e);
    free(tau);
    free(hous2);
    free(work);
    return info;
}

double tst_zeig_maxdiff(int64_t n, const double *w1, const double *w2)
{
    double worst = 0.0;
    for (int64_t i = 0; i < n; i++)
        worst = tst_max_nan(worst, fabs(w1[i] - w2[i]));
    return worst;
}

double tst_zeig_ratio(int64_t n, const double *w1, const double *w2)
{
    double radius = 0.0;
    for (int64_t i = 0; i < n; i++)
        radius = tst_max_nan(radius, tst_max_nan(fabs(w1[i]), fabs(w2[i])));
    return ratio_of(tst_zeig_maxdiff(n, w1, w2), radius, n);
}

/* ------------------------------------------------------------------ */
/* Stage-1 checks                                                      */
/* ------------------------------------------------------------------ */

int tst_zform_q1(char uplo, int64_t n, int64_t kd, const double complex *A,
                 int64_t lda, const double complex *tau, double complex *Q,
                 int64_t ldq)
{
    /* kd = 0 only fits a matrix of order <= 1, which has no reflector. */
    if (!valid_uplo(uplo) || !valid_shape(n, lda) || !valid_shape(n, ldq) ||
        kd < (n > 1 ? 1 : 0))
        return TST_ERR_ARG;
    lapack_int ni = (lapack_int)n, ldqi = (lapack_int)ldq;
    lapack_int info = LAPACKE_zlaset(LAPACK_COL_MAJOR, 'A', ni, ni, 0.0, 1.0,
                                     Q, ldqi);
    int64_t m = n - kd;
    if (info != 0 || m <= 0 || n <= 1)
        return info;
    /*
     * Q1 is the identity on its first kd rows and columns; its trailing
     * m-by-m block is H(1)...H(m), whose reflector j starts at local row j:
     * exactly zgeqrf's layout.  Gathering the vectors there (conjugating the
     * row-stored ones of 'U') lets zungqr form the block for both uplo.
     */
    double complex *Q22 = &AT(Q, ldq, kd, kd);
    for (int64_t j = 0; j < m; j++)
        for (int64_t r = j + 1; r < m; r++)
            AT(Q22, ldq, r, j) = uplo == 'L' ? AT(A, lda, kd + r, j)
                                             : CONJ(AT(A, lda, j, kd + r));
    lapack_int mi = (lapack_int)m;
    return LAPACKE_zungqr(LAPACK_COL_MAJOR, mi, mi, mi, Q22, ldqi, tau);
}

void tst_zextract_band(char uplo, int64_t n, int64_t kd,
                       const double complex *A, int64_t lda, double complex *B,
                       int64_t ldb)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            AT(B, ldb, i, j) = 0.0;
    for (int64_t j = 0; j < n; j++) {
        int64_t lo, hi;
        band_rows(uplo, n, kd, j, &lo, &hi);
        for (int64_t i = lo; i <= hi; i++) {
            double complex a = i == j ? RE(AT(A, lda, i, j))
                                      : AT(A, lda, i, j);
            AT(B, ldb, i, j) = a;
            AT(B, ldb, j, i) = CONJ(a);
        }
    }
}

int tst_zresid_similarity(char uplo, int64_t n, const double complex *A0,
                          int64_t lda0, const double complex *Q, int64_t ldq,
                          const double complex *B, int64_t ldb, double *ratio)
{
    *ratio = NAN;
    if (!valid_uplo(uplo) || !valid_shape(n, lda0) || !valid_shape(n, ldq) ||
        !valid_shape(n, ldb))
        return TST_ERR_ARG;
    if (n == 0) {
        *ratio = 0.0;
        return 0;
    }
    double complex *R = alloc_square(n), *S = alloc_square(n),
                   *QS = alloc_square(n);
    if (R == NULL || S == NULL || QS == NULL) {
        free(R);
        free(S);
        free(QS);
        return TST_ERR_NOMEM;
    }
    hermitian_full(uplo, n, A0, lda0, R);
    copy_square(n, B, ldb, S, n);
    /* Bring A0's largest component into [1,2), exactly (a power of two), so
       that neither the products nor the norms overflow or underflow for the
       matrices at the ends of the range; B goes with it. */
    double big = tst_zmax_component(n, n, R, n);
    if (big > 0.0 && isfinite(big)) {
        scale_pow2(n, R, n, -ilogb(big));
        scale_pow2(n, S, n, -ilogb(big));
    }
    const double complex one = 1.0, zero = 0.0, mone = -1.0;
    int ni = (int)n;
    double norm_a = tst_zfrobenius(n, n, R, n);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni,
                SCALAR_ARG(one), Q, (int)ldq, S, ni, SCALAR_ARG(zero), QS, ni);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, ni, ni, ni,
                SCALAR_ARG(mone), QS, ni, Q, (int)ldq, SCALAR_ARG(one), R, ni);
    *ratio = ratio_of(tst_zfrobenius(n, n, R, n), norm_a, n);
    free(R);
    free(S);
    free(QS);
    return 0;
}

int tst_zresid_unitary(int64_t n, const double complex *Q, int64_t ldq,
                       double *ratio)
{
    *ratio = NAN;
    if (!valid_shape(n, ldq))
        return TST_ERR_ARG;
    if (n == 0) {
        *ratio = 0.0;
        return 0;
    }
    double complex *R = alloc_square(n);
    if (R == NULL)
        return TST_ERR_NOMEM;
    const double complex one = 1.0, mone = -1.0;
    int ni = (int)n;
    lapack_int info = LAPACKE_zlaset(LAPACK_COL_MAJOR, 'A', ni, ni, 0.0, 1.0,
                                     R, ni);
    if (info == 0) {
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, ni, ni, ni,
                    SCALAR_ARG(mone), Q, (int)ldq, Q, (int)ldq,
                    SCALAR_ARG(one), R, ni);
        /* The "matrix norm" here is 1: the residual is already relative. */
        *ratio = ratio_of(tst_zfrobenius(n, n, R, n), 1.0, n);
    }
    free(R);
    return info;
}

int tst_zstage1_ratios(char uplo, int64_t n, int64_t kd,
                       const double complex *A0, int64_t lda0,
                       const double complex *A, int64_t lda,
                       const double complex *tau, double *sim, double *unit)
{
    *sim = *unit = NAN;
    if (n < 0)
        return TST_ERR_ARG;
    int64_t ld = n > 1 ? n : 1;
    double complex *Q = alloc_square(n), *B = alloc_square(n);
    int info = TST_ERR_NOMEM;
    if (Q != NULL && B != NULL)
        info = tst_zform_q1(uplo, n, kd, A, lda, tau, Q, ld);
    if (info == 0) {
        tst_zextract_band(uplo, n, kd, A, lda, B, ld);
        info = tst_zresid_similarity(uplo, n, A0, lda0, Q, ld, B, ld, sim);
    }
    if (info == 0)
        info = tst_zresid_unitary(n, Q, ld, unit);
    free(Q);
    free(B);
    return info;
}

/* ------------------------------------------------------------------ */
/* Stage-2 and whole-reduction checks                                  */
/* ------------------------------------------------------------------ */

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
            cblas_zgerc(CblasColMajor, (int)n, (int)len, SCALAR_ARG(mtau), w, 1, v, 1,
                        &AT(Q, ldq, 0, row), (int)ldq);
        }
    }
    ok = ok && r == startrd_bulge_nrefl(&p) &&
         startrd_bulge_lhous(&p) == (r > 0 ? r * (kd + 1) : 1);
    if (layout_ok != NULL)
        *layout_ok = ok;
    free(w);
    return 0;
}

/* T as a full complex matrix (ld = n), for the similarity residual. */
static void tridiag_full(int64_t n, const double *d, const double *e,
                         double complex *T)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            AT(T, n, i, j) = i == j       ? d[j]
                             : i == j + 1 ? e[j]
                             : j == i + 1 ? e[i]
                                          : 0.0;
}

int tst_zform_q(char uplo, int64_t n, int64_t kd, const double complex *A,
                int64_t lda, const double complex *tau,
                const double complex *hous2, double complex *Q, int64_t ldq,
                bool *layout_ok)
{
    int64_t ld = n > 1 ? n : 1;
    double complex *Q1 = alloc_square(n), *Q2 = alloc_square(n);
    int info = TST_ERR_NOMEM;

    *layout_ok = false;
    if (Q1 != NULL && Q2 != NULL)
        info = tst_zform_q1(uplo, n, kd, A, lda, tau, Q1, ld);
    if (info == 0)
        info = tst_zform_q2(n, kd, hous2, Q2, ld, layout_ok);
    if (info == 0 && n > 0) {
        const double complex one = 1.0, zero = 0.0;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n,
                    (int)n, SCALAR_ARG(one), Q1, (int)ld, Q2, (int)ld,
                    SCALAR_ARG(zero), Q, (int)ldq);
    }
    free(Q1);
    free(Q2);
    return info;
}

int tst_z2stage_ratios(char uplo, int64_t n, int64_t kd,
                       const double complex *A0, int64_t lda0,
                       const double complex *A, int64_t lda,
                       const double complex *tau, const double complex *hous2,
                       const double *d, const double *e, double *sim,
                       double *unit, bool *layout_ok)
{
    *sim = *unit = NAN;
    *layout_ok = false;
    if (n < 0)
        return TST_ERR_ARG;
    int64_t ld = n > 1 ? n : 1;
    double complex *Q = alloc_square(n), *T = alloc_square(n);
    int info = TST_ERR_NOMEM;
    if (Q != NULL && T != NULL)
        info = tst_zform_q(uplo, n, kd, A, lda, tau, hous2, Q, ld, layout_ok);
    if (info == 0 && n > 0)
        tridiag_full(n, d, e, T);
    if (info == 0)
        info = tst_zresid_similarity(uplo, n, A0, lda0, Q, ld, T, ld, sim);
    if (info == 0)
        info = tst_zresid_unitary(n, Q, ld, unit);
    free(Q);
    free(T);
    return info;
}

void tst_zeigvec_ratios(char uplo, int64_t n, int64_t m, const double complex *A0, int64_t lda,
                        const double complex *Z, int64_t ldz, const double *w, double *resid, double *orth)
{
    double complex *R = malloc((size_t)(n * (m > 0 ? m : 1)) * sizeof *R);
    double complex *G = malloc((size_t)(m > 0 ? m * m : 1) * sizeof *G);
    const double complex one = 1.0, zero = 0.0, mone = -1.0;
    double norm_a = 0.0, big = 0.0;

    *resid = *orth = NAN;
    if (R == NULL || G == NULL)
        goto out;
    /* ||A||_F of the referenced triangle's Hermitian matrix, scaled by its
     * largest part: the matrices scaled towards underflow and overflow
     * would square to 0 or Inf. */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? n : j + 1); i++)
            big = tst_max_nan(big, tst_max_nan(fabs(creal(AT(A0, lda, i, j))), fabs(cimag(AT(A0, lda, i, j)))));
    for (int64_t j = 0; j < n && big > 0.0; j++)
        for (int64_t i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? n : j + 1); i++) {
            double complex a = AT(A0, lda, i, j) / big;

            norm_a += (i == j ? 1.0 : 2.0) * RE(a * CONJ(a));
        }
    norm_a = tst_max_nan(big * sqrt(norm_a), DBL_MIN);
    for (int64_t j = 0; j < m; j++)
        for (int64_t i = 0; i < n; i++)
            AT(R, n, i, j) = -w[j] * AT(Z, ldz, i, j);
    cblas_zhemm(CblasColMajor, CblasLeft, uplo == 'L' ? CblasLower : CblasUpper, (int)n, (int)m, SCALAR_ARG(one),
                A0, (int)lda, Z, (int)ldz, SCALAR_ARG(one), R, (int)n);
    /* n eps first: n ||A|| alone overflows for the matrices scaled up. */
    *resid = tst_zfrobenius(n, m, R, n) / (norm_a * (n * tst_zeps()));
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, (int)m, (int)m, (int)n, SCALAR_ARG(mone), Z, (int)ldz, Z,
                (int)ldz, SCALAR_ARG(zero), G, (int)m);
    for (int64_t i = 0; i < m; i++)
        G[i + i * m] += 1.0;
    *orth = tst_zfrobenius(m, m, G, m) / (n * tst_zeps());
out:
    free(R);
    free(G);
}
