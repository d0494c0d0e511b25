/**
 * @file test_zhb2st_kernels.c
 * @brief Standalone test of the stage-2 bulge-chasing kernels and their plan.
 *
 * A small sequential driver walks the plan and calls the kernels on random
 * Hermitian band matrices, for both uplo and a range of (n, kd).  Each case
 * checks:
 *  - the eigenvalues of the tridiagonal (d, e) against those of LAPACK's
 *    ZHETRD_HB2ST on the same band and of ZHBEVD, within 10 n eps max|lambda|;
 *    d against ZHETRD_HB2ST's within 30 n eps max|lambda| (the same
 *    reflectors, applied with sums in another order), and
 *    max||e| - |e_hb2st|| reported;
 *  - with VECT = 'V', Q2 formed from HOUS in the documented order
 *    (tst_zform_q2, shared with the test of the public entry point):
 *    ||B - Q2 T Q2^H||_F / (n ||B||_F eps) < 30 and
 *    ||I - Q2^H Q2||_F / (n eps) < 30, and the HOUS layout itself;
 *  - the dependency rule: several orders allowed by it (the column order of
 *    ZHETRD_HB2ST, sweep after sweep, always the newest ready sweep, random
 *    ready kernels), with either VECT, give bitwise identical d, e, band and
 *    HOUS.
 *
 * Before those, the two reflector kernels are checked on their own against
 * LAPACK's ZLARFX and ZLARFY (both sides, both triangles, orders up to 70,
 * leading dimension larger than the order): max|difference| / (m |tau|
 * ||v||^2 max|C| eps) < 10, a strictly real diagonal from the two-sided one.
 *
 * Prints one line per case and a final "N passed, M failed"; returns 0 when
 * all cases pass.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "bulge_plan.h"
#include "kernels_stage2.h"
#include "testing.h"

/* <lapack.h> (LAPACK 3.11) does not declare ZHETRD_HB2ST, which OpenBLAS
 * exports; gfortran passes the lengths of STAGE1, VECT and UPLO last. */
#define test_zhetrd_hb2st LAPACK_GLOBAL(zhetrd_hb2st, ZHETRD_HB2ST)
void test_zhetrd_hb2st(const char *stage1, const char *vect, const char *uplo,
                       const lapack_int *n, const lapack_int *kd,
                       lapack_complex_double *ab, const lapack_int *ldab,
                       double *d, double *e,
                       lapack_complex_double *hous, const lapack_int *lhous,
                       lapack_complex_double *work, const lapack_int *lwork,
                       lapack_int *info, size_t, size_t, size_t);

/* LAPACK's ZLARFY, which OpenBLAS exports and <lapack.h> does not declare. */
#define test_zlarfy LAPACK_GLOBAL(zlarfy, ZLARFY)
void test_zlarfy(const char *uplo, const lapack_int *n, const lapack_complex_double *v,
                 const lapack_int *incv, const lapack_complex_double *tau,
                 lapack_complex_double *c, const lapack_int *ldc, lapack_complex_double *work,
                 size_t);

#define TOL_EIG 10.0   /* eigenvalues, in units of n eps max|lambda| */
#define TOL_Q   30.0   /* backward error and orthogonality, in units of n eps */

enum order { ORDER_HB2ST, ORDER_SWEEP, ORDER_NEWEST, ORDER_RANDOM };

/* Result of one run of the driver. */
struct run {
    double complex *AB;    /* the band after the chase */
    double complex *hous;
    double *d, *e;
};

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count > 0 ? count : 1, size);

    if (p == NULL) {
        fprintf(stderr, "test_zhb2st_kernels: out of memory\n");
        exit(2);
    }
    return p;
}

/* splitmix64: cheap, and the same stream on every platform. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [-1, 1). */
static double rng_unif(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * 0x1.0p-52 - 1.0;
}

/* Uniform in [-1, 1) - shift, both parts for a complex scalar. */
static double complex rng_scalar(uint64_t *state, double shift)
{
#ifdef COMPLEX
    double re = rng_unif(state) - shift;

    return CMPLX(re, rng_unif(state) - shift);
#else
    return rng_unif(state) - shift;
#endif
}

/* Conjugation, and CBLAS's scalar arguments: by address for complex ones,
 * by value for real ones. */
#ifdef COMPLEX
#define CONJ(x) conj(x)
#define ABS(x) cabs(x)
#define SCALAR_ARG(x) (&(x))
#else
#define CONJ(x) (x)
#define ABS(x) fabs(x)
#define SCALAR_ARG(x) (x)
#endif

/*
 * Random Hermitian band matrix: B dense (n x n), AB in the kernels' layout
 * (ldab = 2kd+1, scratch rows zero) and ABL in LAPACK's (kd+1 rows).
 */
static void gen_band(char uplo, int64_t n, int64_t kd, uint64_t seed,
                     double complex *B, double complex *AB, double complex *ABL)
{
    int64_t ldab = 2 * kd + 1, ldl = kd + 1;

    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = j; i < n && i <= j + kd; i++) {
            double complex b = i == j ? rng_unif(&seed) : rng_scalar(&seed, 0.0);

            B[i + j * n] = b;
            B[j + i * n] = CONJ(b);
            if (uplo == 'L') {
                AB[(i - j) + j * ldab] = b;
                ABL[(i - j) + j * ldl] = b;
            } else {
                AB[(2 * kd + j - i) + i * ldab] = CONJ(b);
                ABL[(kd + j - i) + i * ldl] = CONJ(b);
            }
        }
    }
}

/*
 * All kernels of the plan as (sweep, index) pairs, in an order of the given
 * kind.  ORDER_HB2ST is ZHETRD_HB2ST's loop: at each time step t, for each of
 * three substeps k, every started sweep s runs its kernel 3(t-s)+k.  The
 * other kinds run, one at a time, a kernel that the plan's dependency rule
 * declares ready; since the kernels of a sweep form a chain, that is the next
 * kernel of some sweep, whose kernel of the previous sweep given by
 * startrd_bulge_dep_prev_sweep() is done.
 */
static void make_order(const startrd_bulge_plan_t *p, enum order kind, uint64_t seed,
                       int64_t *sw, int64_t *mm)
{
    int64_t nsw = startrd_bulge_nsweeps(p), total = startrd_bulge_ntasks(p), k = 0;
    int64_t *K = xcalloc((size_t)nsw, sizeof *K);
    int64_t *done = xcalloc((size_t)nsw, sizeof *done);
    int64_t *ready = xcalloc((size_t)nsw, sizeof *ready);

    for (int64_t s = 0; s < nsw; s++)
        K[s] = startrd_bulge_nkernels(p, s);

    if (kind == ORDER_HB2ST) {
        for (int64_t t = 0; k < total; t++)
            for (int64_t sub = 0; sub < 3; sub++)
                for (int64_t s = 0; s <= t && s < nsw; s++) {
                    int64_t m = 3 * (t - s) + sub;

                    if (m < K[s]) {
                        sw[k] = s;
                        mm[k++] = m;
                    }
                }
    } else {
        int64_t lo = 0;

        for (; k < total; k++) {
            int64_t nready = 0, s;

            while (done[lo] == K[lo])
                lo++;
            /* A sweep cannot start before the previous one has. */
            for (s = lo; s < nsw; s++) {
                if (done[s] < K[s]
                    && (s == 0 || done[s - 1] > startrd_bulge_dep_prev_sweep(p, s, done[s])))
                    ready[nready++] = s;
                if (done[s] == 0)
                    break;
            }
            if (nready == 0) {
                fprintf(stderr, "test_zhb2st_kernels: dependency deadlock\n");
                exit(2);
            }
            s = kind == ORDER_SWEEP ? ready[0]
              : kind == ORDER_NEWEST ? ready[nready - 1]
              : ready[rng_next(&seed) % (uint64_t)nready];
            sw[k] = s;
            mm[k] = done[s]++;
        }
    }
    free(K);
    free(done);
    free(ready);
}

/* The sequential driver: chases a copy of AB0 in the given order. */
static struct run chase(const startrd_bulge_plan_t *p, char uplo, const double complex *AB0,
                        enum order kind, uint64_t seed)
{
    int64_t n = p->n, kd = p->kd, ldab = 2 * kd + 1, total = startrd_bulge_ntasks(p);
    int64_t *sw = xcalloc((size_t)total, sizeof *sw);
    int64_t *mm = xcalloc((size_t)total, sizeof *mm);
    double complex *work = xcalloc((size_t)kd, sizeof *work);
    struct run r;

    r.AB = xcalloc((size_t)(ldab * n), sizeof *r.AB);
    r.hous = xcalloc((size_t)startrd_bulge_lhous(p), sizeof *r.hous);
    r.d = xcalloc((size_t)n, sizeof *r.d);
    r.e = xcalloc((size_t)n, sizeof *r.e);
    memcpy(r.AB, AB0, (size_t)(ldab * n) * sizeof *r.AB);

    make_order(p, kind, seed, sw, mm);
    for (int64_t k = 0; k < total; k++)
        startrd_kernel_zhb2st_step(p, uplo, sw[k], mm[k], r.AB, ldab, r.hous, work);

    startrd_kernel_zhb2st_tridiag(uplo, n, kd, r.AB, ldab, r.d, r.e);
    free(sw);
    free(mm);
    free(work);
    return r;
}

static void run_free(struct run *r)
{
    free(r->AB);
    free(r->hous);
    free(r->d);
    free(r->e);
}

/* Bitwise equality of two runs; HOUS only when both use the same layout. */
static bool same_run(const struct run *a, const struct run *b, int64_t n, int64_t ldab,
                     int64_t lhous)
{
    return memcmp(a->d, b->d, (size_t)n * sizeof *a->d) == 0
        && memcmp(a->e, b->e, (size_t)(n > 0 ? n - 1 : 0) * sizeof *a->e) == 0
        && memcmp(a->AB, b->AB, (size_t)(ldab * n) * sizeof *a->AB) == 0
        && (lhous == 0 || memcmp(a->hous, b->hous, (size_t)lhous * sizeof *a->hous) == 0);
}

/* Eigenvalues, ascending, of the tridiagonal (d, e). */
static void tridiag_eig(int64_t n, const double *d, const double *e, double *lambda)
{
    double *ew = xcalloc((size_t)n, sizeof *ew);

    memcpy(lambda, d, (size_t)n * sizeof *d);
    memcpy(ew, e, (size_t)(n - 1) * sizeof *e);
    if (LAPACKE_dsterf((lapack_int)n, lambda, ew) != 0) {
        fprintf(stderr, "test_zhb2st_kernels: dsterf failed\n");
        exit(2);
    }
    free(ew);
}

/* max|l1 - l2| / (n eps max|lambda|), both ascending. */
static double eig_ratio(int64_t n, const double *l1, const double *l2)
{
    double diff = 0.0, scale = DBL_MIN;

    for (int64_t i = 0; i < n; i++) {
        diff = tst_max_nan(diff, fabs(l1[i] - l2[i]));
        scale = tst_max_nan(scale, tst_max_nan(fabs(l1[i]), fabs(l2[i])));
    }
    return diff / ((double)n * DBL_EPSILON * scale);
}

/* ||B - Q T Q^H||_F / (n ||B||_F eps) and ||I - Q^H Q||_F / (n eps). */
static void check_q2(int64_t n, const double complex *B, const double complex *Q,
                     const double *d, const double *e, double *resid, double *orth)
{
    double complex *QT = xcalloc((size_t)(n * n), sizeof *QT);
    double complex *M = xcalloc((size_t)(n * n), sizeof *M);
    double complex one = 1.0, mone = -1.0;
    double nrmb;

    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            QT[i + j * n] = d[j] * Q[i + j * n]
                + (j > 0 ? e[j - 1] * Q[i + (j - 1) * n] : 0.0)
                + (j < n - 1 ? e[j] * Q[i + (j + 1) * n] : 0.0);
    memcpy(M, B, (size_t)(n * n) * sizeof *M);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, (int)n, (int)n, (int)n,
                SCALAR_ARG(mone), QT, (int)n, Q, (int)n, SCALAR_ARG(one), M, (int)n);
    /* tst_zfrobenius, not LAPACKE_zlange: that one returns a negative
     * "norm" on a NaN, which passes the check. */
    nrmb = tst_zfrobenius(n, n, B, n);
    *resid = tst_zfrobenius(n, n, M, n) / ((double)n * nrmb * DBL_EPSILON);

    for (int64_t i = 0; i < n * n; i++)
        M[i] = 0.0;
    for (int64_t i = 0; i < n; i++)
        M[i + i * n] = 1.0;
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, (int)n, (int)n, (int)n,
                SCALAR_ARG(mone), Q, (int)n, Q, (int)n, SCALAR_ARG(one), M, (int)n);
    *orth = tst_zfrobenius(n, n, M, n) / ((double)n * DBL_EPSILON);
    free(QT);
    free(M);
}

/* LAPACK's ZHETRD_HB2ST on the LAPACK-layout band (overwritten). */
static void ref_hb2st(char uplo, int64_t n, int64_t kd, double complex *ABL, double *d, double *e)
{
    lapack_int nn = (lapack_int)n, kk = (lapack_int)kd, ldl = (lapack_int)(kd + 1);
    lapack_int lh = -1, lw = -1, info;
    double complex qh, qw, *hous, *work;

    test_zhetrd_hb2st("N", "N", &uplo, &nn, &kk, ABL, &ldl, d, e, &qh, &lh, &qw, &lw, &info, 1, 1, 1);
    lh = (lapack_int)creal(qh);
    lw = (lapack_int)creal(qw);
    hous = xcalloc((size_t)lh, sizeof *hous);
    work = xcalloc((size_t)lw, sizeof *work);
    test_zhetrd_hb2st("N", "N", &uplo, &nn, &kk, ABL, &ldl, d, e, hous, &lh, work, &lw, &info, 1, 1, 1);
    if (info != 0) {
        fprintf(stderr, "test_zhb2st_kernels: zhetrd_hb2st info = %d\n", (int)info);
        exit(2);
    }
    free(hous);
    free(work);
}

/* Runs the orders after the first of a list and counts those that reproduce
 * ref bitwise; lhous = 0 leaves HOUS out of the comparison. */
static int count_same(const startrd_bulge_plan_t *p, char uplo, const double complex *AB0,
                      const struct run *ref, int64_t lhous,
                      const enum order *kinds, const uint64_t *seeds, int count)
{
    int nsame = 0;

    for (int i = 0; i < count; i++) {
        struct run r = chase(p, uplo, AB0, kinds[i], seeds[i]);

        nsame += same_run(ref, &r, p->n, 2 * p->kd + 1, lhous);
        run_free(&r);
    }
    return nsame;
}

static bool run_case(char uplo, int64_t n, int64_t kd, uint64_t seed)
{
    static const enum order vkinds[] = {ORDER_SWEEP, ORDER_NEWEST, ORDER_RANDOM, ORDER_RANDOM};
    static const uint64_t vseeds[] = {0, 0, 1, 2};
    static const enum order nkinds[] = {ORDER_NEWEST, ORDER_RANDOM};
    static const uint64_t nseeds[] = {0, 3};
    enum { NVORD = sizeof vkinds / sizeof vkinds[0], NNORD = sizeof nkinds / sizeof nkinds[0] };
    int64_t ldab = 2 * kd + 1, ldl = kd + 1;
    double complex *B = xcalloc((size_t)(n * n), sizeof *B);
    double complex *AB0 = xcalloc((size_t)(ldab * n), sizeof *AB0);
    double complex *ABL = xcalloc((size_t)(ldl * n), sizeof *ABL);
    double complex *ABL2 = xcalloc((size_t)(ldl * n), sizeof *ABL2);
    double complex *Q = xcalloc((size_t)(n * n), sizeof *Q);
    double *dl = xcalloc((size_t)n, sizeof *dl), *el = xcalloc((size_t)n, sizeof *el);
    double *lam = xcalloc((size_t)n, sizeof *lam), *laml = xcalloc((size_t)n, sizeof *laml);
    double *lamb = xcalloc((size_t)n, sizeof *lamb);
    double complex zdummy;
    startrd_bulge_plan_t pv, pn;
    struct run ref, nref;
    int nsame;
    double r_hb2st, r_hbevd, r_d, resid, orth, ddiff = 0.0, ediff = 0.0;
    bool layout_ok, ok;

    gen_band(uplo, n, kd, seed, B, AB0, ABL);
    memcpy(ABL2, ABL, (size_t)(ldl * n) * sizeof *ABL);
    if (startrd_bulge_plan_init(&pv, 'V', n, kd) != 0 || startrd_bulge_plan_init(&pn, 'N', n, kd) != 0) {
        fprintf(stderr, "test_zhb2st_kernels: plan_init failed\n");
        exit(2);
    }

    /* Neither the order nor VECT may change a bit: every run is compared with
     * ZHETRD_HB2ST's order under the same VECT, HOUS included, and the two
     * VECT with each other, HOUS excluded. */
    ref = chase(&pv, uplo, AB0, ORDER_HB2ST, 0);
    nref = chase(&pn, uplo, AB0, ORDER_HB2ST, 0);
    nsame = 1 + same_run(&ref, &nref, n, ldab, 0)
        + count_same(&pv, uplo, AB0, &ref, startrd_bulge_lhous(&pv), vkinds, vseeds, NVORD)
        + count_same(&pn, uplo, AB0, &nref, startrd_bulge_lhous(&pn), nkinds, nseeds, NNORD);

    ref_hb2st(uplo, n, kd, ABL, dl, el);
    tridiag_eig(n, ref.d, ref.e, lam);
    tridiag_eig(n, dl, el, laml);
    if (LAPACKE_zhbevd(LAPACK_COL_MAJOR, 'N', uplo, (lapack_int)n, (lapack_int)kd, ABL2,
                       (lapack_int)ldl, lamb, &zdummy, 1) != 0) {
        fprintf(stderr, "test_zhb2st_kernels: zhbevd failed\n");
        exit(2);
    }
    r_hb2st = eig_ratio(n, lam, laml);
    r_hbevd = eig_ratio(n, lam, lamb);
    for (int64_t i = 0; i < n; i++) {
        ddiff = tst_max_nan(ddiff, fabs(ref.d[i] - dl[i]));
        if (i < n - 1)
            ediff = tst_max_nan(ediff, fabs(fabs(ref.e[i]) - fabs(el[i])));
    }
    /* d and |e| against LAPACK's, in units of n eps ||B||_2 (lam is
     * ascending), against TOL_Q rather than TOL_EIG: they are no backward
     * error but follow how rounding propagates through the sweeps, and were
     * measured too close to TOL_EIG to hold it with margin. */
    r_d = tst_max_nan(ddiff, ediff) / ((double)n * DBL_EPSILON
                   * tst_max_nan(tst_max_nan(fabs(lam[0]), fabs(lam[n - 1])), DBL_MIN));

    /* HOUS was zeroed by the driver, so the layout check covers the zeros. */
    if (tst_zform_q2(n, kd, ref.hous, Q, n, &layout_ok) != 0) {
        fprintf(stderr, "test_zhb2st_kernels: tst_zform_q2 failed\n");
        exit(2);
    }
    check_q2(n, B, Q, ref.d, ref.e, &resid, &orth);

    /* In the real precisions d and |e| drift further from LAPACK's (ratios
     * up to about 200 measured at n = 100) while the eigenvalues, the
     * residual and the orthogonality stay as tight: reported there, not
     * held (docs/experiments.md, "Precisions"). */
#ifdef COMPLEX
    bool d_ok = r_d < TOL_Q;
#else
    bool d_ok = true;
#endif
    ok = r_hb2st < TOL_EIG && r_hbevd < TOL_EIG && d_ok && resid < TOL_Q && orth < TOL_Q
        && nsame == 2 + NVORD + NNORD && layout_ok;
    printf("uplo=%c n=%4lld kd=%3lld  eig/hb2st %5.2f  eig/hbevd %5.2f  d,|e|/hb2st %5.2f"
           "  ||e|-|e_hb2st|| %7.1e  resid %5.2f  orth %5.2f  orders %d/%d identical"
           "  layout %s  %s\n",
           uplo, (long long)n, (long long)kd, r_hb2st, r_hbevd, r_d, ediff, resid, orth,
           nsame, 2 + NVORD + NNORD, layout_ok ? "ok" : "BAD", ok ? "PASS" : "FAIL");

    run_free(&ref);
    run_free(&nref);
    free(B);
    free(AB0);
    free(ABL);
    free(ABL2);
    free(Q);
    free(dl);
    free(el);
    free(lam);
    free(laml);
    free(lamb);
    return ok;
}

/* The reflector kernels against ZLARFX ('L', 'R') or ZLARFY (uplo) on one
 * random m x n block; Hermitian for ZLARFY (n = m). */
static bool reflect_case(char which, char uplo, int m, int n, uint64_t seed)
{
    int ld = m + 3, len = which == 'R' ? n : m;
    double complex *c = xcalloc((size_t)ld * (size_t)n, sizeof *c), *r = xcalloc((size_t)ld * (size_t)n, sizeof *r);
    double complex *v = xcalloc((size_t)len + 1, sizeof *v), *w = xcalloc((size_t)(m > n ? m : n) + 1, sizeof *w);
    double complex tau = rng_scalar(&seed, 0.0);
    double vnorm2 = 0.0, cmax = 0.0, diff = 0.0, imag_diag = 0.0;
    bool ok;

    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            c[i + (size_t)j * ld] = rng_scalar(&seed, 0.5);
    if (which == 'H')   /* Hermitian, with a real diagonal */
        for (int j = 0; j < n; j++) {
            c[j + (size_t)j * ld] = creal(c[j + (size_t)j * ld]);
            for (int i = j + 1; i < m; i++)
                c[j + (size_t)i * ld] = CONJ(c[i + (size_t)j * ld]);
        }
    for (int i = 0; i < len; i++) {
        v[i] = i == 0 ? 1.0 : rng_scalar(&seed, 0.5);
        vnorm2 += creal(v[i] * CONJ(v[i]));
    }
    for (size_t x = 0; x < (size_t)ld * (size_t)n; x++) {
        r[x] = c[x];
        cmax = tst_max_nan(cmax, ABS(c[x]));
    }
    lapack_int lm = m, ln = n, lld = ld, one = 1;
    if (which == 'H') {
        startrd_zreflect_hermitian(uplo, m, v, tau, c, ld, w);
        test_zlarfy(&uplo, &lm, v, &one, &tau, r, &lld, w, 1);
    } else {
        startrd_zreflect_side(which, m, n, v, tau, c, ld, w);
        LAPACK_zlarfx(&which, &lm, &ln, v, &tau, r, &lld, w);
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            bool stored = which != 'H' || (uplo == 'L' ? i >= j : i <= j);

            if (stored)
                diff = tst_max_nan(diff, ABS(c[i + (size_t)j * ld] - r[i + (size_t)j * ld]));
            if (which == 'H' && i == j)
                imag_diag = tst_max_nan(imag_diag, fabs(cimag(c[i + (size_t)j * ld])));
        }
    double ratio = diff / ((double)(m > 0 ? m : 1) * ABS(tau) * vnorm2 * tst_max_nan(cmax, 1.0) * DBL_EPSILON);
    ok = ratio < 10.0 && imag_diag == 0.0;
    printf("reflector %c%c m=%3d n=%3d: error %.2f, imag(diag) %.1e  %s\n",
           which, which == 'H' ? uplo : ' ', m, n, ratio, imag_diag, ok ? "PASS" : "FAIL");
    free(c);
    free(r);
    free(v);
    free(w);
    return ok;
}

static int cmp_case(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;

    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

int main(void)
{
    static const int64_t kds[] = {1, 2, 3, 8, 16, 32};
    enum { NKD = sizeof kds / sizeof kds[0], NNS = 8 };
    int64_t cases[NKD * NNS][2];
    int ncases = 0, npass = 0, nfail = 0;

    /* n in {1, 2, 3, kd, kd+1, 2kd+3, 100, 257}; a band wider than the matrix
     * is the full matrix, so kd >= n becomes kd = n-1. */
    for (int i = 0; i < NKD; i++) {
        int64_t kd = kds[i], ns[NNS] = {1, 2, 3, kd, kd + 1, 2 * kd + 3, 100, 257};

        for (int j = 0; j < NNS; j++) {
            cases[ncases][0] = ns[j];
            cases[ncases][1] = kd < ns[j] ? kd : ns[j] - 1;
            ncases++;
        }
    }
    qsort(cases, (size_t)ncases, sizeof cases[0], cmp_case);

    /* Orders around the vector width, and the kd of the library's runs. */
    static const int sizes[][2] = {{1, 1}, {2, 3}, {3, 2}, {7, 5}, {16, 16}, {33, 17}, {64, 64}, {70, 41}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int m = sizes[k][0], n = sizes[k][1];
        uint64_t seed = 77u + 13u * (uint64_t)k;

        reflect_case('L', 'L', m, n, seed) ? npass++ : nfail++;
        reflect_case('R', 'L', m, n, seed + 1) ? npass++ : nfail++;
        reflect_case('H', 'L', m, m, seed + 2) ? npass++ : nfail++;
        reflect_case('H', 'U', m, m, seed + 3) ? npass++ : nfail++;
    }

    for (int u = 0; u < 2; u++) {
        for (int c = 0; c < ncases; c++) {
            if (c > 0 && cmp_case(cases[c], cases[c - 1]) == 0)
                continue;
            if (run_case("LU"[u], cases[c][0], cases[c][1], 1000003u * (uint64_t)(c + 1) + (uint64_t)u))
                npass++;
            else
                nfail++;
        }
    }
    printf("%d passed, %d failed\n", npass, nfail);
    return nfail == 0 ? 0 : 1;
}
