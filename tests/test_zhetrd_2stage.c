/**
 * @file test_zhetrd_2stage.c
 * @brief Test of the public entry point zhetrd_2stage_mgpu().
 *
 * For each bandwidth nb in {8, 24, 64}, set through startrd_options_t.nb
 * between a startrd_init() and a startrd_finalize() (so the program also
 * cycles the runtime context), it checks:
 *  - eigenvalues of the tridiagonal (d, e) (DSTERF) against LAPACK's ZHEEVD
 *    of the input and against LAPACK's own ZHETRD_2STAGE + DSTERF, within
 *    10 n eps max|lambda|, for n in {0, 1, 2, 3, nb-1, nb, nb+1, 2nb+3, 257}
 *    (and 1000 for one nb), both uplo, random matrices; every other matrix
 *    kind of testing.h at n = 2nb+3 and 257;
 *  - VECT = 'V': with Q = Q1 Q2 formed from A/TAU and HOUS2,
 *    ||A - Q T Q^H||_F / (n ||A||_F eps) < 30 and ||I - Q^H Q||_F / (n eps)
 *    < 30, and HOUS2's documented layout;
 *  - in every successful call: the bandwidth and both stages' GPUs reported
 *    by startrd_last_stats() (stage1_ngpu spreads stage 1 over every GPU for
 *    nb 8 and 64, and keeps its default, one GPU at these orders, for 24;
 *    the chase runs on the first GPU at these orders, on the host without),
 *    no write to the other triangle or the padding rows of A (which hold NaN
 *    sentinels, so reads show too) nor past the end of d, e, tau, work or
 *    HOUS2, whose workspaces have exactly the sizes the queries return;
 *  - the workspace queries write their size and nothing else, and internal
 *    allocation (NULL, 0) gives d, e, A and TAU bit for bit as user arrays;
 *    at n = 6000..6007, where HOUS2's size for 'V' passes 2^24, the size
 *    the query writes in the real type, read back, is still enough;
 *  - with the nb option 0, the library's bandwidth for each order and VECT
 *    (the one-stage kernel, bandwidth 1 with no chase, for 'N' on GPUs
 *    below n = 1536; any call with 'N' and bandwidth 1 on GPUs takes it),
 *    under the same checks, orders 2 to 1536;
 *  - every invalid argument returns exactly its -i and writes nothing;
 *  - the context's GPUs (STARTRD_NGPU, tst_env_ngpu) with ngpu = -1 in the
 *    calls, and ngpu = 0 (CPU workers only) within the same bounds.
 *
 * eps is the precision's (tst_zeps()), and the sentinels are NaNs of its
 * real type, so that every bound above holds as written in each precision.
 *
 * Prints one PASS/FAIL line per case, the worst ratios, then
 * "N passed, M failed"; returns 0 when everything passed.
 *
 * @precisions normal z -> s d c
 */
#include "bulge_plan.h"
#include "startrd.h"
#include "testing.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL_EIG 10.0 /* eigenvalues, in units of n eps max|lambda| */
#define TOL_Q   30.0 /* backward error and orthogonality, in units of n eps */

/* The bandwidth of the run with n = 1000: the library's default with GPUs. */
#define NB_LARGE 64

/* Sentinel entries after every array, to catch writes past its end. */
enum { GUARD = 8 };

/* Bit patterns of the sentinel in the real type's width: quiet NaNs with a
 * payload no computation produces (the default NaN of x86 and ARM has none),
 * compared bitwise, so that they also expose reads (a NaN in the results)
 * of what the library must leave alone. */
static const uint64_t SENTINEL_BITS64 = 0x7ff8dead5eed0badULL;
static const uint32_t SENTINEL_BITS32 = 0x7fdead5eU;

/* Real parts per scalar: 2 in the complex precisions, 1 in the real ones. */
enum { PARTS = sizeof(double complex) / sizeof(double) };

/* The sentinel in the precision's real type: the pattern of its width,
 * chosen at compile time. */
static double sentinel(void)
{
    double x;
    _Static_assert(sizeof x == sizeof SENTINEL_BITS64 ||
                       sizeof x == sizeof SENTINEL_BITS32,
                   "the real type is a binary32 or binary64");
    memcpy(&x,
           sizeof x == sizeof SENTINEL_BITS64 ? (const void *)&SENTINEL_BITS64
                                              : (const void *)&SENTINEL_BITS32,
           sizeof x);
    return x;
}

/* The sentinel in every real part of a scalar, built bit by bit (CMPLX
 * would name the precision; a real scalar simply takes the first part). */
static double complex sentinel_z(void)
{
    double parts[PARTS];
    double complex z;
    for (int k = 0; k < PARTS; k++)
        parts[k] = sentinel();
    memcpy(&z, parts, sizeof z);
    return z;
}

/* Fills count reals (a complex array counts PARTS per entry) with the
 * sentinel. */
static void fill_sentinel(void *p, int64_t count)
{
    const double s = sentinel();
    for (int64_t i = 0; i < count; i++)
        memcpy((char *)p + i * (int64_t)sizeof s, &s, sizeof s);
}

/* Number of the count reals at p that no longer hold the sentinel. */
static int64_t sentinel_changes(const void *p, int64_t count)
{
    const double s = sentinel();
    int64_t changed = 0;
    for (int64_t i = 0; i < count; i++)
        changed += memcmp((const char *)p + i * (int64_t)sizeof s, &s,
                          sizeof s) != 0;
    return changed;
}

/* ------------------------------------------------------------------ */
/* The arrays of one call                                              */
/* ------------------------------------------------------------------ */

/* The arrays of one call, each followed by GUARD sentinel entries; lengths
 * exclude the guards.  A zero workspace length means "pass NULL, 0". */
typedef struct bufs {
    int64_t n, lda, ltau, lwork, lhous2;
    double complex *A, *tau, *work, *hous2;
    double *d, *e;
} bufs_t;

enum { NREGIONS = 6 };

/* The arrays as (address, length in reals) pairs, guards included, for
 * the bitwise snapshots and comparisons. */
static void regions(const bufs_t *b, void *addr[NREGIONS],
                    int64_t len[NREGIONS])
{
    int64_t ncol = b->n > 0 ? b->n : 1;
    addr[0] = b->A;
    len[0] = PARTS * (b->lda * ncol + GUARD);
    addr[1] = b->d;
    len[1] = b->n + GUARD;
    addr[2] = b->e;
    len[2] = (b->n > 1 ? b->n - 1 : 0) + GUARD;
    addr[3] = b->tau;
    len[3] = PARTS * (b->ltau + GUARD);
    addr[4] = b->work;
    len[4] = PARTS * (b->lwork + GUARD);
    addr[5] = b->hous2;
    len[5] = PARTS * (b->lhous2 + GUARD);
}

static void bufs_free(bufs_t *b)
{
    free(b->A);
    free(b->d);
    free(b->e);
    free(b->tau);
    free(b->work);
    free(b->hous2);
    memset(b, 0, sizeof *b);
}

/* Allocates every array of b with its guard and fills all of it with the
 * sentinel; false when out of memory. */
static bool bufs_alloc(bufs_t *b, int64_t n, int64_t lda, int64_t ltau,
                       int64_t lwork, int64_t lhous2)
{
    void *addr[NREGIONS];
    int64_t len[NREGIONS];
    *b = (bufs_t){.n = n, .lda = lda, .ltau = ltau, .lwork = lwork,
                  .lhous2 = lhous2};
    regions(b, addr, len);
    b->A = malloc((size_t)len[0] * sizeof(double));
    b->d = malloc((size_t)len[1] * sizeof(double));
    b->e = malloc((size_t)len[2] * sizeof(double));
    b->tau = malloc((size_t)len[3] * sizeof(double));
    b->work = malloc((size_t)len[4] * sizeof(double));
    b->hous2 = malloc((size_t)len[5] * sizeof(double));
    if (!b->A || !b->d || !b->e || !b->tau || !b->work || !b->hous2) {
        bufs_free(b);
        return false;
    }
    regions(b, addr, len);
    for (int k = 0; k < NREGIONS; k++)
        fill_sentinel(addr[k], len[k]);
    return true;
}

/* A deep copy of src into dst (allocated here), guards included. */
static bool bufs_copy(bufs_t *dst, const bufs_t *src)
{
    void *to[NREGIONS], *from[NREGIONS];
    int64_t len[NREGIONS];
    if (!bufs_alloc(dst, src->n, src->lda, src->ltau, src->lwork,
                    src->lhous2))
        return false;
    regions(dst, to, len);
    regions(src, from, len);
    for (int k = 0; k < NREGIONS; k++)
        memcpy(to[k], from[k], (size_t)len[k] * sizeof(double));
    return true;
}

/* Whether a and b, of the same shape, are bitwise identical. */
static bool bufs_same(const bufs_t *a, const bufs_t *b)
{
    void *pa[NREGIONS], *pb[NREGIONS];
    int64_t len[NREGIONS];
    regions(a, pa, len);
    regions(b, pb, len);
    for (int k = 0; k < NREGIONS; k++)
        if (memcmp(pa[k], pb[k], (size_t)len[k] * sizeof(double)) != 0)
            return false;
    return true;
}

/* Entries a successful call must not write: A outside the uplo triangle
 * and the guards after every array. */
static int64_t writes_outside(char uplo, const bufs_t *b)
{
    int64_t ne = b->n > 1 ? b->n - 1 : 0;
    return tst_zcount_sentinel_changes(uplo, b->n, b->A, b->lda, sentinel_z()) +
           sentinel_changes(b->A + b->lda * (b->n > 0 ? b->n : 1), PARTS * GUARD) +
           sentinel_changes(b->d + b->n, GUARD) +
           sentinel_changes(b->e + ne, GUARD) +
           sentinel_changes(b->tau + b->ltau, PARTS * GUARD) +
           sentinel_changes(b->work + b->lwork, PARTS * GUARD) +
           sentinel_changes(b->hous2 + b->lhous2, PARTS * GUARD);
}

/* Bitwise equality of the outputs d, e, A and TAU of two calls. */
static bool same_outputs(const bufs_t *a, const bufs_t *b)
{
    int64_t ne = a->n > 1 ? a->n - 1 : 0;
    return memcmp(a->d, b->d, (size_t)a->n * sizeof *a->d) == 0 &&
           memcmp(a->e, b->e, (size_t)ne * sizeof *a->e) == 0 &&
           memcmp(a->A, b->A, (size_t)(a->lda * a->n) * sizeof *a->A) == 0 &&
           memcmp(a->tau, b->tau, (size_t)a->ltau * sizeof *a->tau) == 0;
}

/* ------------------------------------------------------------------ */
/* Calls                                                               */
/* ------------------------------------------------------------------ */

/* The arguments of one call, in the API's order, so that the invalid
 * argument tests can spoil exactly one of them. */
typedef struct args {
    char vect, uplo;
    int n;
    double complex *A;
    int lda;
    double *d, *e;
    double complex *tau, *hous2;
    int lhous2;
    double complex *work;
    int lwork, ngpu;
} args_t;

/* The sizes here are a few thousand at most, so the API's int holds them. */
static args_t args_of(char vect, char uplo, const bufs_t *b, int ngpu)
{
    return (args_t){vect, uplo, (int)b->n, b->A, (int)b->lda, b->d, b->e,
                    b->tau, b->lhous2 > 0 ? b->hous2 : NULL, (int)b->lhous2,
                    b->lwork > 0 ? b->work : NULL, (int)b->lwork, ngpu};
}

static int invoke(const args_t *a)
{
    return zhetrd_2stage_mgpu(a->vect, a->uplo, a->n, a->A, a->lda, a->d,
                              a->e, a->tau, a->hous2, a->lhous2, a->work,
                              a->lwork, a->ngpu);
}

/* The documented bandwidth: the context's nb, at most n-1.  For n <= 1
 * there is no off-diagonal and the value is not checked. */
static int64_t doc_kd(int64_t n, int64_t nb)
{
    return n > 1 ? (nb < n - 1 ? nb : n - 1) : 0;
}

/* The context's stage1_ngpu option, set per bandwidth in main(). */
static int stage1_option;

/* The library's documented bandwidth where the nb option is 0: with GPUs
 * 1 (the one-stage kernel) for VECT = 'N' below n = 1536, else 64; 32
 * without GPUs.  The default pass of main() hands it to run_case() as nb. */
static int64_t doc_default_nb(int64_t n, char vect, int ngpu)
{
    int g = ngpu < 0 ? startrd_gpu_count() : ngpu;

    return g > 0 ? (vect == 'N' && n < 1536 ? 1 : 64) : 32;
}

/* Whether a call takes the one-stage kernel: VECT = 'N', bandwidth 1, GPUs. */
static bool doc_one_stage(char vect, int64_t n, int64_t kd, int ngpu)
{
    int g = ngpu < 0 ? startrd_gpu_count() : ngpu;

    return vect == 'N' && kd == 1 && n >= 2 && g > 0;
}

/* Stage 1's documented GPUs in a call with @p ngpu: the option's count
 * (at most the call's), or by default the first alone below n = 6144, the
 * smallest order from which it spreads (on two GPUs that read each other's
 * memory; 10240 otherwise).  The test's orders all lie below it; -1, which
 * no call reports, flags one that does not. */
static int doc_stage1_gpus(int64_t n, int ngpu)
{
    int g = ngpu < 0 ? startrd_gpu_count() : ngpu;

    if (g <= 1)
        return g;
    if (stage1_option > 0)
        return stage1_option < g ? stage1_option : g;
    return n < 6144 ? 1 : -1;
}

/* The chase's documented GPUs in a call with @p ngpu: the first alone at
 * these orders (a split starts at n = 49152), none without GPUs or with no
 * band to chase (n = 1). */
static int doc_stage2_gpus(int64_t n, int ngpu)
{
    int g = ngpu < 0 ? startrd_gpu_count() : ngpu;

    return g > 0 && n >= 2 ? 1 : 0;
}

/* TAU holds n-kd factors. */
static int64_t doc_ltau(int64_t n, int64_t nb)
{
    return n - doc_kd(n, nb);
}

/* lda with 0..2 padding rows, varied by seed, so that both lda = n and
 * lda > n are covered. */
static int64_t lda_of(int64_t n, uint64_t seed)
{
    return (n > 1 ? n : 1) + (int64_t)(seed % 3);
}

/*
 * Sets up b for a call on an n-by-n matrix of the given kind: the uplo
 * triangle of A from tst_zgen, sentinels everywhere else (other triangle,
 * padding rows, d, e, tau, workspaces and all guards); if A0 is not NULL, a
 * copy of A (lda the same) for the references, in a new array.
 */
static bool setup(bufs_t *b, double complex **A0, char uplo, tst_kind kind,
                  int64_t n, int64_t nb, int64_t lwork, int64_t lhous2,
                  uint64_t seed)
{
    int64_t lda = lda_of(n, seed);
    size_t size = (size_t)(lda * (n > 0 ? n : 1));
    if (!bufs_alloc(b, n, lda, doc_ltau(n, nb), lwork, lhous2))
        return false;
    if (tst_zgen(kind, n, b->A, lda, seed) != 0) {
        bufs_free(b);
        return false;
    }
    tst_zfill_sentinel(uplo, n, b->A, lda, sentinel_z());
    if (A0 == NULL)
        return true;
    *A0 = malloc(size * sizeof **A0);
    if (*A0 == NULL) {
        bufs_free(b);
        return false;
    }
    memcpy(*A0, b->A, size * sizeof **A0);
    return true;
}

/*
 * Workspace sizes from the queries, each asked on its own (lwork = -1 with
 * HOUS2 = NULL, 0, then lhous2 = -1 with WORK = NULL, 0) on b's other
 * arrays; section "workspace" checks what else they write.  Returns the
 * first nonzero info, or 0.
 */
static int query_sizes(char vect, char uplo, const bufs_t *b, int ngpu,
                       int64_t *lwork, int64_t *lhous2)
{
    double complex wq = 0.0, hq = 0.0;
    args_t a = args_of(vect, uplo, b, ngpu);
    a.work = &wq;
    a.lwork = -1;
    a.hous2 = NULL;
    a.lhous2 = 0;
    int info = invoke(&a);
    a.work = NULL;
    a.lwork = 0;
    a.hous2 = &hq;
    a.lhous2 = -1;
    if (info == 0)
        info = invoke(&a);
    *lwork = (int64_t)creal(wq);
    *lhous2 = (int64_t)creal(hq);
    return info;
}

/* ------------------------------------------------------------------ */
/* Reductions against LAPACK                                           */
/* ------------------------------------------------------------------ */

/* Worst ratios over all passing and failing cases, for the final report. */
static struct {
    double heevd, lapack2stage, resid, orth;
} worst;

static double track(double *slot, double ratio)
{
    /* NaN wins, so the report does not hide it. */
    if (isnan(ratio) || ratio > *slot)
        *slot = ratio;
    return ratio;
}

/*
 * One reduction of an n-by-n matrix of the given kind with workspaces of
 * exactly the queried sizes, checked as the file's header says; one line.
 */
static void run_case(char vect, char uplo, tst_kind kind, int64_t n,
                     int64_t nb, int ngpu, uint64_t seed)
{
    size_t nw = (size_t)(n > 0 ? n : 1);
    double *w = malloc(nw * sizeof *w), *w_heevd = malloc(nw * sizeof *w),
           *w_lapack = malloc(nw * sizeof *w);
    double complex *A0 = NULL;
    bufs_t probe = {0}, b = {0};
    int64_t lwork = 0, lhous2 = 0, outside = -1, kd = -1;
    double r_heevd = NAN, r_lapack = NAN, sim = 0.0, unit = 0.0;
    bool layout = true, stats_ok = false;
    int gpus1 = -1, gpus2 = -1;
    int info = TST_ERR_NOMEM;

    /* The queries, on arrays of the right shape, give the sizes of the
     * real call's workspaces. */
    if (w == NULL || w_heevd == NULL || w_lapack == NULL ||
        !setup(&probe, NULL, uplo, kind, n, nb, 0, 0, seed))
        goto out;
    info = query_sizes(vect, uplo, &probe, ngpu, &lwork, &lhous2);
    if (info != 0)
        goto out;
    info = TST_ERR_NOMEM;
    if (!setup(&b, &A0, uplo, kind, n, nb, lwork, lhous2, seed))
        goto out;
    info = tst_zeig_hermitian(uplo, n, A0, b.lda, w_heevd);
    if (info == 0)
        info = tst_zeig_hetrd_2stage(uplo, n, A0, b.lda, w_lapack);
    if (info == 0) {
        args_t a = args_of(vect, uplo, &b, ngpu);
        info = invoke(&a);
    }
    if (info != 0)
        goto out;
    /* n = 0 runs no reduction, hence leaves the statistics alone. */
    if (n > 0) {
        startrd_stats_t stats;
        startrd_last_stats(&stats);
        kd = stats.nb;
        gpus1 = stats.stage1_ngpu;
        gpus2 = stats.stage2_ngpu;
        stats_ok = kd == doc_kd(n, nb) &&
                   (doc_one_stage(vect, n, kd, ngpu)
                        ? gpus1 == 1 && gpus2 == 0
                        : gpus1 == doc_stage1_gpus(n, ngpu) && gpus2 == doc_stage2_gpus(n, ngpu));
    } else {
        stats_ok = true;
    }
    outside = writes_outside(uplo, &b);
    info = tst_zeig_tridiagonal(n, b.d, b.e, w);
    r_heevd = track(&worst.heevd, tst_zeig_ratio(n, w, w_heevd));
    r_lapack = track(&worst.lapack2stage, tst_zeig_ratio(n, w, w_lapack));
    if (info == 0 && vect == 'V' && n > 0) {
        info = tst_z2stage_ratios(uplo, n, kd, A0, b.lda, b.A, b.lda, b.tau,
                                 b.hous2, b.d, b.e, &sim, &unit, &layout);
        track(&worst.resid, sim);
        track(&worst.orth, unit);
    }
out:;
    char q_text[96] = "";
    if (vect == 'V')
        snprintf(q_text, sizeof q_text,
                 "  ||A-QTQ^H|| %.3g  ||I-Q^HQ|| %.3g  HOUS2 layout %s", sim,
                 unit, layout ? "ok" : "BAD");
    tst_check(info == 0 && stats_ok && outside == 0 && r_heevd <= TOL_EIG &&
                  r_lapack <= TOL_EIG && sim < TOL_Q && unit < TOL_Q && layout,
              "reduce vect=%c uplo=%c nb=%lld n=%lld lda=%lld kind=%s "
              "ngpu=%d: info %d kd %lld stage-1 GPUs %d stage-2 GPUs %d  eig/zheevd %.3g  eig/zhetrd_2stage "
              "%.3g%s  writes outside %lld",
              vect, uplo, (long long)nb, (long long)n, (long long)b.lda,
              tst_kind_name(kind), ngpu, info, (long long)kd, gpus1, gpus2, r_heevd,
              r_lapack, q_text, (long long)outside);
    free(w);
    free(w_heevd);
    free(w_lapack);
    free(A0);
    bufs_free(&probe);
    bufs_free(&b);
}

/* ------------------------------------------------------------------ */
/* Workspace queries and internal allocation                           */
/* ------------------------------------------------------------------ */

/* Reads a size that a query left in *q (positive integer in the real
 * part; -1 if not one) and puts the sentinel back, so that a comparison
 * with a snapshot covers everything else. */
static int64_t take_size(double complex *q)
{
    double v = creal(*q);
    *q = sentinel_z();
    return v >= 1.0 && v == floor(v) && v < 0x1p31 ? (int64_t)v : -1;
}

/*
 * Runs the query a (lwork and/or lhous2 = -1 on b's arrays) and checks that
 * it returns 0 and writes nothing but the size in work[0] (into *lwork) or
 * hous2[0] (into *lhous2) for each length that is -1.
 */
static bool query_writes_only(const args_t *a, bufs_t *b, int64_t *lwork,
                              int64_t *lhous2)
{
    bufs_t snap;
    if (!bufs_copy(&snap, b))
        return false;
    bool ok = invoke(a) == 0;
    if (a->lwork == -1)
        *lwork = take_size(b->work);
    if (a->lhous2 == -1)
        *lhous2 = take_size(b->hous2);
    ok = ok && bufs_same(b, &snap);
    bufs_free(&snap);
    return ok;
}

static void workspace_case(char vect, char uplo, int64_t n, int64_t nb,
                           int ngpu, uint64_t seed)
{
    /* Room for a query's answer; the sizes themselves come from it. */
    enum { SMALL = 4 };
    bufs_t b = {0}, exact = {0}, internal = {0};
    int64_t lw = -1, lh = -1, lw2 = -2, lh2 = -2;
    bool q_ok = false, exact_ok = false, internal_ok = false;
    int64_t kd = doc_kd(n, nb);
    int64_t lw_doc = (2 * kd + 1) * (n > 1 ? n : 1);
    int64_t lh_doc = vect == 'N' ? (4 * n > 1 ? 4 * n : 1) : 1;

    if (!setup(&b, NULL, uplo, TST_KIND_RANDOM, n, nb, SMALL, SMALL, seed))
        goto out;

    /* lwork = -1 alone, lhous2 = -1 alone, then both at once. */
    args_t a = args_of(vect, uplo, &b, ngpu);
    a.lwork = -1;
    a.hous2 = NULL;
    a.lhous2 = 0;
    q_ok = query_writes_only(&a, &b, &lw, &lh);
    a = args_of(vect, uplo, &b, ngpu);
    a.work = NULL;
    a.lwork = 0;
    a.lhous2 = -1;
    q_ok = query_writes_only(&a, &b, &lw, &lh) && q_ok;
    a = args_of(vect, uplo, &b, ngpu);
    a.lwork = -1;
    a.lhous2 = -1;
    q_ok = query_writes_only(&a, &b, &lw2, &lh2) && q_ok;
    /* What the header documents: the minimum for lwork, and for 'N' the
     * minimum for lhous2; for 'V' only a query knows. */
    q_ok = q_ok && lw == lw2 && lh == lh2 && lw == lw_doc &&
           (vect == 'V' ? lh >= 1 : lh == lh_doc);
    tst_check(q_ok,
              "workspace query vect=%c uplo=%c nb=%lld n=%lld: lwork %lld "
              "(expected %lld), lhous2 %lld (%s %lld), same alone and "
              "together, nothing else written",
              vect, uplo, (long long)nb, (long long)n, (long long)lw,
              (long long)lw_doc, (long long)lh,
              vect == 'V' ? "at least" : "expected", (long long)lh_doc);
    if (!q_ok)
        goto out;

    /* Exactly the queried sizes; the guards catch a write past them. */
    if (!setup(&exact, NULL, uplo, TST_KIND_RANDOM, n, nb, lw, lh, seed))
        goto out;
    a = args_of(vect, uplo, &exact, ngpu);
    exact_ok = invoke(&a) == 0 && writes_outside(uplo, &exact) == 0;
    tst_check(exact_ok,
              "workspace exact vect=%c uplo=%c nb=%lld n=%lld: lwork %lld "
              "lhous2 %lld succeed, nothing written past them",
              vect, uplo, (long long)nb, (long long)n, (long long)lw,
              (long long)lh);

    /* Internal allocation must not change a bit of the result. */
    if (!setup(&internal, NULL, uplo, TST_KIND_RANDOM, n, nb, 0, 0, seed))
        goto out;
    a = args_of(vect, uplo, &internal, ngpu);
    internal_ok = invoke(&a) == 0 && writes_outside(uplo, &internal) == 0 &&
                  exact_ok && same_outputs(&exact, &internal);
    tst_check(internal_ok,
              "workspace internal vect=%c uplo=%c nb=%lld n=%lld: work = NULL, "
              "lwork = 0, hous2 = NULL, lhous2 = 0 give d, e, A, tau bit for "
              "bit as user workspaces",
              vect, uplo, (long long)nb, (long long)n);
out:
    bufs_free(&b);
    bufs_free(&exact);
    bufs_free(&internal);
}

/*
 * The size a query answers must be enough once read back, as LAPACK's
 * ?ROUNDUP_LWORK makes it: HOUS2 for VECT = 'V' holds about n^2/2 entries,
 * more than 2^24 from n = 5800 or so, and past 2^24 a float no longer holds
 * every integer.  Each order is queried (both sizes at once), then called
 * with the answered lhous2 and WORK = NULL, lwork = 1, which must stop at
 * argument 11, past lhous2's check (-10) and before any array is read, so
 * that the arrays need not have their sizes: A, d, e and TAU are dummies.
 */
static void large_query_case(int64_t n, int64_t nb)
{
    double complex dummy[1] = {0.0}, wq = 0.0, hq = 0.0;
    double dummy_r[1] = {0.0};
    startrd_bulge_plan_t plan;
    int64_t lh_min = -1, lh = -1, lh_rounded = -1;
    int info_query, info = 0;
    args_t a = {'V', 'L', (int)n, dummy, (int)n, dummy_r, dummy_r, dummy,
                &hq, -1, &wq, -1, -1};

    info_query = invoke(&a);
    lh = (int64_t)creal(hq);
    if (startrd_bulge_plan_init(&plan, 'V', n, doc_kd(n, nb)) == 0)
        lh_min = startrd_bulge_lhous(&plan);
    /* What a plain conversion would answer, for the report. */
    const double nearest = (double)lh_min;
    lh_rounded = (int64_t)nearest;
    if (info_query == 0 && lh > 0 && lh <= INT32_MAX) {
        a.hous2 = dummy;
        a.lhous2 = (int)lh;
        a.work = NULL;
        a.lwork = 1;
        info = invoke(&a);
    }
    tst_check(info_query == 0 && lh_min > 0 && lh >= lh_min && info == -11,
              "workspace query vect=V nb=%lld n=%lld: lhous2 %lld read back "
              "(%lld needed, %s in the real type), accepted by the call "
              "(info %d, -11 expected)",
              (long long)nb, (long long)n, (long long)lh, (long long)lh_min,
              lh_rounded == lh_min  ? "exact"
              : lh_rounded < lh_min ? "rounded down"
                                    : "rounded up",
              info);
}

/* ------------------------------------------------------------------ */
/* Invalid arguments                                                   */
/* ------------------------------------------------------------------ */

/*
 * Each argument spoiled on its own, on arrays of valid sizes full of
 * sentinels (A's uplo triangle holds a matrix): the call must return exactly
 * -i and leave every array, guards included, bit for bit as it was.
 */
static void argument_cases(char vect, int64_t n, int64_t nb, int ngpu,
                           uint64_t seed)
{
    const char uplo = 'L';
    bufs_t probe = {0}, b = {0}, snap = {0};
    int64_t lw = 0, lh = 0;

    if (!setup(&probe, NULL, uplo, TST_KIND_RANDOM, n, nb, 0, 0, seed) ||
        query_sizes(vect, uplo, &probe, ngpu, &lw, &lh) != 0 ||
        !setup(&b, NULL, uplo, TST_KIND_RANDOM, n, nb, lw, lh, seed)) {
        tst_check(false, "arguments vect=%c n=%lld: setup", vect,
                  (long long)n);
        goto out;
    }
    for (int i = 1; i <= 14; i++) {
        args_t a = args_of(vect, uplo, &b, ngpu);
        const char *what = "";
        int want = -i;
        switch (i) {
        case 1: a.vect = 'X'; what = "vect = 'X'"; break;
        case 2: a.uplo = 'X'; what = "uplo = 'X'"; break;
        case 3: a.n = -1; what = "n = -1"; break;
        case 4: a.A = NULL; what = "A = NULL"; break;
        case 5: a.lda = a.n - 1; what = "lda = n-1"; break;
        case 6: a.d = NULL; what = "d = NULL"; break;
        case 7: a.e = NULL; what = "e = NULL"; break;
        case 8: a.tau = NULL; what = "tau = NULL"; break;
        case 9: a.hous2 = NULL; what = "hous2 = NULL, lhous2 > 0"; break;
        case 10: a.lhous2 = (int)lh - 1; what = "lhous2 = minimum-1"; break;
        case 11: a.work = NULL; what = "work = NULL, lwork > 0"; break;
        case 12: a.lwork = (int)lw - 1; what = "lwork = minimum-1"; break;
        case 13:
            a.ngpu = startrd_gpu_count() + 1;
            what = "ngpu = available+1";
            break;
        case 14:
            /* The workspaces' minimum follows from ngpu: ngpu comes first. */
            a.ngpu = startrd_gpu_count() + 1;
            a.lhous2 = (int)lh - 1;
            a.lwork = (int)lw - 1;
            want = -13;
            what = "ngpu = available+1, lhous2 and lwork = minimum-1";
            break;
        }
        if (!bufs_copy(&snap, &b)) {
            tst_check(false, "arguments: out of memory");
            goto out;
        }
        int info = invoke(&a);
        bool untouched = bufs_same(&b, &snap);
        bufs_free(&snap);
        tst_check(info == want && untouched,
                  "argument %2d vect=%c nb=%lld n=%lld (%s): info %d, %s", -want,
                  vect, (long long)nb, (long long)n, what, info,
                  untouched ? "nothing written" : "ARRAYS CHANGED");
    }
out:
    bufs_free(&probe);
    bufs_free(&b);
}

/* ------------------------------------------------------------------ */
/* Driver                                                              */
/* ------------------------------------------------------------------ */

static void run_nb(int64_t nb, uint64_t *seed)
{
    const char uplos[] = {'L', 'U'};
    const int64_t sizes[] = {0, 1, 2, 3, nb - 1, nb, nb + 1, 2 * nb + 3, 257,
                             1000};
    const int64_t mids[] = {2 * nb + 3, 257};
    const int64_t vsizes[] = {1, 2, 3, nb + 1, 2 * nb + 3, 257};

    for (int u = 0; u < 2; u++) {
        /* 1000 costs as much as all the rest: one nb only. */
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            if (sizes[s] != 1000 || nb == NB_LARGE)
                run_case('N', uplos[u], TST_KIND_RANDOM, sizes[s], nb, -1,
                         (*seed)++);
        for (size_t s = 0; s < 2; s++)
            for (int k = 0; k < TST_KIND_COUNT; k++)
                if (k != TST_KIND_RANDOM)
                    run_case('N', uplos[u], (tst_kind)k, mids[s], nb, -1,
                             (*seed)++);
        for (size_t s = 0; s < sizeof vsizes / sizeof vsizes[0]; s++)
            run_case('V', uplos[u], TST_KIND_RANDOM, vsizes[s], nb, -1,
                     (*seed)++);
        /* Every kind through Q as well, at the small mid size. */
        for (int k = 0; k < TST_KIND_COUNT; k++)
            if (k != TST_KIND_RANDOM)
                run_case('V', uplos[u], (tst_kind)k, mids[0], nb, -1,
                         (*seed)++);
        /* CPU workers only, whatever the context holds. */
        for (size_t s = 0; s < 2; s++) {
            run_case('N', uplos[u], TST_KIND_RANDOM, mids[s], nb, 0,
                     (*seed)++);
            run_case('V', uplos[u], TST_KIND_RANDOM, mids[s], nb, 0,
                     (*seed)++);
        }
        for (int v = 0; v < 2; v++)
            workspace_case("NV"[v], uplos[u], mids[0], nb, -1, (*seed)++);
    }
    for (int v = 0; v < 2; v++)
        argument_cases("NV"[v], mids[0], nb, -1, (*seed)++);
    /* Consecutive orders, so that some sizes round down to a float: that of
     * n = 6004 does for nb = 8 and 24. */
    for (int64_t n = 6000; n < 6008; n++)
        large_query_case(n, nb);
}

/* The context's default bandwidth (the nb option 0): the one-stage kernel
 * for VECT = 'N' on GPUs below n = 1536, two stages at and above it and
 * with 'V', each order given its documented bandwidth. */
static void run_default(uint64_t *seed)
{
    const char uplos[] = {'L', 'U'};
    const int64_t sizes[] = {2, 3, 65, 257, 1000, 1535, 1536};
    const bool gpus = startrd_gpu_count() > 0;

    for (int u = 0; u < 2; u++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            /* Without GPUs the largest orders add nothing the other passes lack. */
            if (gpus || sizes[s] < 1000)
                run_case('N', uplos[u], TST_KIND_RANDOM, sizes[s], doc_default_nb(sizes[s], 'N', -1), -1,
                         (*seed)++);
        for (int k = 0; k < TST_KIND_COUNT; k++)
            if (k != TST_KIND_RANDOM)
                run_case('N', uplos[u], (tst_kind)k, 257, doc_default_nb(257, 'N', -1), -1, (*seed)++);
        run_case('V', uplos[u], TST_KIND_RANDOM, 257, doc_default_nb(257, 'V', -1), -1, (*seed)++);
        run_case('N', uplos[u], TST_KIND_RANDOM, 257, doc_default_nb(257, 'N', 0), 0, (*seed)++);
        for (int v = 0; v < 2; v++)
            workspace_case("NV"[v], uplos[u], 257, doc_default_nb(257, "NV"[v], -1), -1, (*seed)++);
    }
}

int main(void)
{
    static const int64_t nbs[] = {8, 24, NB_LARGE};
    uint64_t seed = 1;
    /* In microseconds: the real type, float in single precision, would
     * round the clock's seconds since boot. */
    const int64_t t0_us = (int64_t)(tst_timer() * 1e6);

    for (size_t i = 0; i < sizeof nbs / sizeof nbs[0]; i++) {
        startrd_options_t opt;
        startrd_options_init(&opt);
        opt.ngpu = tst_env_ngpu();
        opt.nb = (int)nbs[i];
        /* The test's orders are all below where stage 1 spreads by default:
         * two bandwidths spread it over every GPU, one keeps the default. */
        opt.stage1_ngpu = stage1_option = nbs[i] == 24 ? 0 : 64;
        if (!tst_check(startrd_init(&opt) == 0, "startrd_init ngpu=%d nb=%d",
                       opt.ngpu, opt.nb))
            continue;
        printf("# nb=%d: %d GPU(s)\n", opt.nb, startrd_gpu_count());
        run_nb(nbs[i], &seed);
        tst_check(startrd_finalize() == 0, "startrd_finalize nb=%d", opt.nb);
    }
    {
        startrd_options_t opt;
        startrd_options_init(&opt);
        opt.ngpu = tst_env_ngpu();
        stage1_option = 0;
        if (tst_check(startrd_init(&opt) == 0, "startrd_init ngpu=%d nb=0", opt.ngpu)) {
            printf("# nb=0 (the library's): %d GPU(s)\n", startrd_gpu_count());
            run_default(&seed);
            tst_check(startrd_finalize() == 0, "startrd_finalize nb=0");
        }
    }
    /* Every init was matched: nothing is left open. */
    tst_check(startrd_finalize() == STARTRD_ERR_STATE,
              "startrd_finalize without an open context: STARTRD_ERR_STATE");
    printf("# worst ratios: eig/zheevd %.3g  eig/zhetrd_2stage %.3g  "
           "||A-QTQ^H|| %.3g  ||I-Q^HQ|| %.3g  (%.1f s)\n",
           worst.heevd, worst.lapack2stage, worst.resid, worst.orth,
           (tst_timer() * 1e6 - t0_us) * 1e-6);
    return tst_summary();
}
