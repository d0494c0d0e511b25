/**
 * @file test_zhb2st_gpu.c
 * @brief Stage 2 (startrd_stage2_zhb2st) on GPUs against the host chase.
 *
 * Stage 2 on a GPU against the host chase on the same bands: eigenvalues of
 * the two tridiagonals within 10 n eps max|lambda|, and, with the GPU's
 * reflectors, ||B - Q2 T Q2^H|| / (n ||B|| eps) < 30 and
 * ||I - Q2^H Q2|| / (n eps) < 30, with HOUS2 laid out as documented.  Both
 * storages, bandwidths across the GPU kernel's three tile sizes, orders from
 * 2 to several hundred sweeps in flight, and bands whose entries are so small
 * or large that the reflectors need LAPACK's scaling.  With several GPUs, the
 * chase split over all of them too: eigenvalues against the host's as
 * above, and d and e bit for bit those of the chase on one GPU where both
 * wait for whole kernels (kd <= 32).  Each call must report the GPUs it
 * chased on: one, or all of them where the split applies (kd >= 2 and the
 * GPUs reach each other's memory).  Needs a GPU: skipped without one.
 *
 * eps is the precision's (tst_zeps()) and the scaled bands' scales are
 * powers of two placed by the precision's exponent range, so that every
 * bound holds as written in each precision.
 *
 * @precisions normal z -> s d c
 */
#include "bulge_plan.h"
#include "codelets_z.h"
#include "stage2_zhb2st.h"
#include "testing.h"
#include "testing_context.h"
#include "topology.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Q2 and the residuals cost n^3: checked up to this order. */
enum { MAX_N_VECTORS = 600 };

#define TOL_EIG 10.0 /* eigenvalues, in units of n eps max|lambda| */
#define TOL_Q   30.0 /* backward error and orthogonality, in units of n eps */

struct chase {
    double complex *AB, *hous;
    double *d, *e, *w;
};

static bool chase_alloc(struct chase *c, const startrd_bulge_plan_t *plan, int64_t ldab)
{
    c->AB = malloc((size_t)(ldab * plan->n) * sizeof *c->AB);
    c->hous = malloc((size_t)startrd_bulge_lhous(plan) * sizeof *c->hous);
    c->d = malloc((size_t)plan->n * sizeof *c->d);
    c->e = malloc((size_t)plan->n * sizeof *c->e);
    c->w = malloc((size_t)plan->n * sizeof *c->w);
    return c->AB != NULL && c->hous != NULL && c->d != NULL && c->e != NULL && c->w != NULL;
}

static void chase_free(struct chase *c)
{
    free(c->AB);
    free(c->hous);
    free(c->d);
    free(c->e);
    free(c->w);
}

/* ||B - Q2 T Q2^H|| and ||I - Q2^H Q2|| ratios from the GPU's HOUS2. */
static bool check_vectors(char uplo, int64_t n, int64_t kd, const double complex *A, const struct chase *g,
                          double *resid, double *orth, bool *layout_ok)
{
    double complex *B = calloc((size_t)(n * n), sizeof *B), *Q = malloc((size_t)(n * n) * sizeof *Q);
    double complex *T = calloc((size_t)(n * n), sizeof *T);
    bool ok = B != NULL && Q != NULL && T != NULL;

    if (ok) {
        tst_zextract_band(uplo, n, kd, A, n, B, n);
        for (int64_t i = 0; i < n; i++) {
            T[i + i * n] = g->d[i];
            if (i < n - 1)
                T[i + 1 + i * n] = T[i + (i + 1) * n] = g->e[i];
        }
        ok = tst_zform_q2(n, kd, g->hous, Q, n, layout_ok) == 0 &&
             tst_zresid_similarity('L', n, B, n, Q, n, T, n, resid) == 0 && tst_zresid_unitary(n, Q, n, orth) == 0;
    }
    free(B);
    free(Q);
    free(T);
    return ok;
}

static void gpu_case(const startrd_context_t *ctx, char vect, char uplo, int64_t n, int64_t kd, double scale,
                     uint64_t seed)
{
    const int64_t ldab = 2 * kd + 1;
    startrd_bulge_plan_t plan;
    struct chase h = {0}, g = {0};
    double complex *A = malloc((size_t)(n * n) * sizeof *A);
    double ratio = NAN, resid = 0.0, orth = 0.0;
    bool layout_ok = true, ok = false, on_gpu = false;
    int ih = -1, ig = -1, chased_on = -1;

    if (A == NULL || startrd_bulge_plan_init(&plan, vect, n, kd) != 0 || !chase_alloc(&h, &plan, ldab) ||
        !chase_alloc(&g, &plan, ldab) || tst_zgen(TST_KIND_RANDOM, n, A, n, seed) != 0)
        goto out;
    for (int64_t i = 0; i < n * n; i++)
        A[i] *= scale;
    startrd_stage2_zband_from_dense(uplo, n, kd, A, n, h.AB, ldab);
    memcpy(g.AB, h.AB, (size_t)(ldab * n) * sizeof *g.AB);
    ih = startrd_stage2_zhb2st(vect, uplo, n, kd, h.AB, ldab, h.d, h.e, h.hous, NULL, 0, NULL);
    ig = startrd_stage2_zhb2st(vect, uplo, n, kd, g.AB, ldab, g.d, g.e, g.hous, ctx->cuda_worker, 1, &chased_on);
    /* The GPU chase works on a copy; the host one, had stage 2 fallen back
     * to it, in place. */
    startrd_stage2_zband_from_dense(uplo, n, kd, A, n, h.AB, ldab);
    on_gpu = memcmp(g.AB, h.AB, (size_t)(ldab * n) * sizeof *g.AB) == 0;
    if (ih != 0 || ig != 0 || tst_zeig_tridiagonal(n, h.d, h.e, h.w) != 0 ||
        tst_zeig_tridiagonal(n, g.d, g.e, g.w) != 0)
        goto out;
    ratio = tst_zeig_ratio(n, h.w, g.w);
    ok = vect == 'N' || n > MAX_N_VECTORS || check_vectors(uplo, n, kd, A, &g, &resid, &orth, &layout_ok);
out:
    tst_check(ok && on_gpu && chased_on == 1 && ratio <= TOL_EIG && resid < TOL_Q && orth < TOL_Q && layout_ok,
              "vect=%c uplo=%c n=%lld kd=%lld scale %.0e: status host %d GPU %d (%s, on %d GPUs), eigenvalues %.3g "
              "n eps max|lambda|, resid %.3g, orth %.3g, HOUS2 layout %s",
              vect, uplo, (long long)n, (long long)kd, scale, ih, ig,
              on_gpu ? "band untouched" : "band changed: not on the GPU", chased_on, ratio, resid, orth,
              layout_ok ? "ok" : "wrong");
    free(A);
    chase_free(&h);
    chase_free(&g);
}

/* Whether the first @p ngpu GPUs of the context reach each other's memory,
 * which the split chase needs. */
static bool peers_reachable(const startrd_context_t *ctx, int ngpu)
{
    int devid[STARTRD_CHASE_MAX_GPUS];

    for (int g = 0; g < ngpu; g++)
        devid[g] = starpu_worker_get_devid(ctx->cuda_worker[g]);
    return startrd_topology_peers_reachable(ngpu, devid) != 0;
}

/* The chase split over every GPU against the host's and one GPU's. */
static void split_case(const startrd_context_t *ctx, char uplo, int64_t n, int64_t kd, uint64_t seed)
{
    const int64_t ldab = 2 * kd + 1;
    const int ngpu = ctx->ncuda < STARTRD_CHASE_MAX_GPUS ? ctx->ncuda : STARTRD_CHASE_MAX_GPUS;
    startrd_bulge_plan_t plan;
    struct chase h = {0}, one = {0}, sp = {0};
    double complex *A = malloc((size_t)(n * n) * sizeof *A);
    double ratio = NAN;
    bool same = false, ok = false;
    int ih = -1, i1 = -1, is = -1, on1 = -1, on_split = -1;
    const int split_gpus = kd >= 2 && peers_reachable(ctx, ngpu) ? ngpu : 1;

    if (A == NULL || startrd_bulge_plan_init(&plan, 'N', n, kd) != 0 || !chase_alloc(&h, &plan, ldab) ||
        !chase_alloc(&one, &plan, ldab) || !chase_alloc(&sp, &plan, ldab) ||
        tst_zgen(TST_KIND_RANDOM, n, A, n, seed) != 0)
        goto out;
    startrd_stage2_zband_from_dense(uplo, n, kd, A, n, h.AB, ldab);
    memcpy(one.AB, h.AB, (size_t)(ldab * n) * sizeof *h.AB);
    memcpy(sp.AB, h.AB, (size_t)(ldab * n) * sizeof *h.AB);
    ih = startrd_stage2_zhb2st('N', uplo, n, kd, h.AB, ldab, h.d, h.e, h.hous, NULL, 0, NULL);
    i1 = startrd_stage2_zhb2st('N', uplo, n, kd, one.AB, ldab, one.d, one.e, one.hous, ctx->cuda_worker, 1, &on1);
    is = startrd_stage2_zhb2st('N', uplo, n, kd, sp.AB, ldab, sp.d, sp.e, sp.hous, ctx->cuda_worker, ngpu,
                               &on_split);
    if (ih != 0 || i1 != 0 || is != 0 || tst_zeig_tridiagonal(n, h.d, h.e, h.w) != 0 ||
        tst_zeig_tridiagonal(n, sp.d, sp.e, sp.w) != 0)
        goto out;
    ratio = tst_zeig_ratio(n, h.w, sp.w);
    same = memcmp(one.d, sp.d, (size_t)n * sizeof *sp.d) == 0 &&
           memcmp(one.e, sp.e, (size_t)(n - 1) * sizeof *sp.e) == 0;
    ok = true;
out:
    tst_check(ok && ratio <= TOL_EIG && (same || kd > 32) && on1 == 1 && on_split == split_gpus,
              "split over %d GPUs uplo=%c n=%lld kd=%lld: status host %d one GPU %d split %d, chased on %d and %d "
              "GPUs (%d expected), eigenvalues %.3g n eps max|lambda|, d and e %s those on one GPU",
              ngpu, uplo, (long long)n, (long long)kd, ih, i1, is, on1, on_split, split_gpus, ratio,
              same ? "the same bits as" : "differ from");
    free(A);
    chase_free(&h);
    chase_free(&one);
    chase_free(&sp);
}

int main(void)
{
    static const int64_t kds[] = {1, 2, 3, 16, 31, 32, 33, 64, 65, 100, 128};
    /* Bands scaled by 2^x for these x: the first puts the reflectors'
     * norms below LAPACK's safe minimum over eps (ZLARFG's rescaling loop)
     * with the entries still 16 binades above underflow, the other two make
     * the squares of the entries underflow or overflow (out of the GPU
     * kernel's unscaled range) while the norms stay far from both.  That
     * is 2^-1005, 2^-680, 2^682 (about 1e-303, 1e-205, 1e205) in binary64
     * and 2^-109, 2^-83, 2^85 in binary32. */
    static const int scale_exps[] = {DBL_MIN_EXP + 16, 2 * DBL_MIN_EXP / 3, 2 * DBL_MAX_EXP / 3};
    startrd_context_t *ctx = tst_open_context();
    uint64_t seed = 11;

    if (ctx == NULL)
        return tst_summary();
    if (ctx->ncuda == 0) {
        printf("# no GPU: nothing to compare\n");
        startrd_context_release();
        return 77;
    }
    for (size_t k = 0; k < sizeof kds / sizeof kds[0]; k++) {
        int64_t kd = kds[k], ns[] = {2, 3, kd + 1, kd + 2, 3 * kd + 5, 300, 557, 2000};

        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (int u = 0; u < 2; u++) {
                if (ns[i] == 2000 && kd != 32 && kd != 64)
                    continue;
                gpu_case(ctx, 'V', u ? 'U' : 'L', ns[i], kd, 1.0, seed);
                gpu_case(ctx, 'N', u ? 'U' : 'L', ns[i], kd, 1.0, seed++);
            }
    }
    for (size_t k = 0; k < sizeof scale_exps / sizeof scale_exps[0]; k++)
        for (int64_t kd = 32; kd <= 128; kd *= 2)
            gpu_case(ctx, 'N', k % 2 ? 'U' : 'L', 300, kd, ldexp(1.0, scale_exps[k]), seed++);
    /* Orders up to sweeps of many stretches' reach (4 kd) on each GPU. */
    if (ctx->ncuda >= 2)
        for (size_t k = 0; k < sizeof kds / sizeof kds[0]; k++) {
            int64_t kd = kds[k], ns[] = {2, 3, kd + 2, 3 * kd + 5, 557, 2000, 5000};

            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
                if (ns[i] < 2000 || kd == 2 || kd == 16 || kd == 32 || kd == 64)
                    split_case(ctx, i % 2 ? 'U' : 'L', ns[i], kd, seed++);
        }
    startrd_context_release();
    return tst_summary();
}
