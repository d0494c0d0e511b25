/* Stage 1 (dense -> band) against LAPACK: the band's eigenvalues (ZHBEVD)
 * against ZHEEVD of the input, the similarity A = Q1*B*Q1^H and the
 * orthogonality of Q1 formed from the stored reflectors, and no write outside
 * the referenced triangle, for both storages, several bandwidths and
 * distribution blocks, and lda > n. */
#include "stage1.h"
#include "testing_context.h"

#include <stdlib.h>
#include <string.h>

static const double complex sentinel = 12345.0 - 678.0 * I;

static void run_case(const startrd_context_t *ctx, char uplo, int64_t n, int64_t nb,
                     int64_t lda, int64_t dist_nb, const int *groups, startrd_allreduce_t allreduce,
                     const char *sum, uint64_t seed)
{
    size_t size = (size_t)lda * (size_t)(n > 0 ? n : 1);
    double complex *a0 = malloc(size * sizeof *a0), *a = malloc(size * sizeof *a);
    double complex *tau = calloc((size_t)(n > nb ? n - nb : 1), sizeof *tau);
    double *w0 = malloc((size_t)(n > 0 ? n : 1) * sizeof *w0), *w = malloc((size_t)(n > 0 ? n : 1) * sizeof *w);
    double sim = 0.0, unit = 0.0, ratio = 0.0;
    int ret = -1;
    int64_t outside = -1;

    if (a0 == NULL || a == NULL || tau == NULL || w0 == NULL || w == NULL)
        goto out;
    if (tst_gen(TST_KIND_RANDOM, n, a0, lda, seed) != 0)
        goto out;
    tst_fill_sentinel(uplo, n, a0, lda, sentinel);
    memcpy(a, a0, size * sizeof *a);
    ret = startrd_stage1_zhe2hb(uplo, n, nb, dist_nb, ctx->ncuda, ctx->cuda_worker, ctx->cuda_side_worker, groups,
                                allreduce, a, lda, tau, 1);
    if (ret != 0)
        goto out;
    outside = tst_count_sentinel_changes(uplo, n, a, lda, sentinel);
    ret = tst_eig_hermitian(uplo, n, a0, lda, w0) | tst_eig_band(uplo, n, nb, a, lda, w) |
          tst_stage1_ratios(uplo, n, nb, a0, lda, a, lda, tau, &sim, &unit);
    ratio = tst_eig_ratio(n, w0, w);
out:
    tst_check(ret == 0 && outside == 0 && ratio <= 10.0 && sim < 30.0 && unit < 30.0,
              "stage1 uplo=%c n=%lld nb=%lld lda=%lld dist=%lld sum %s: eig %.3g  ||A-QBQ^H|| %.3g  "
              "||I-Q^HQ|| %.3g  writes outside %lld",
              uplo, (long long)n, (long long)nb, (long long)lda, (long long)dist_nb, sum,
              ratio, sim, unit, (long long)outside);
    free(a0);
    free(a);
    free(tau);
    free(w0);
    free(w);
}

int main(void)
{
    static const int64_t nbs[] = {8, 16, 32};
    startrd_context_t *ctx;
    uint64_t seed = 1;

    ctx = tst_open_context();
    if (ctx == NULL)
        return tst_summary();
    for (size_t b = 0; b < sizeof nbs / sizeof nbs[0]; b++) {
        int64_t nb = nbs[b];
        int64_t sizes[] = {1, 2, nb - 1, nb, nb + 1, 3 * nb + 5, 200, 513};

        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int u = 0; u < 2; u++) {
                int64_t n = sizes[s];
                /* Alternate lda > n and distribution blocks of 1 and 2 block columns. */
                int64_t lda = (s + (size_t)u) % 2 ? n + 3 : (n > 1 ? n : 1);
                int64_t dist = (s % 2 + 1) * nb;

                run_case(ctx, u ? 'U' : 'L', n, nb, lda, dist, ctx->ncuda > 0 ? ctx->gpu_group : NULL,
                         STARTRD_ALLREDUCE_HIERARCHICAL, "hierarchical", seed++);
            }
    }
    /* The other ways to sum the partial products: groups of two (of CPU
     * workers' products, or of GPUs), a group each (with GPUs, the total
     * then goes to each group's first GPU before the rest of it), and on
     * host cores. */
    static int pairs[STARPU_NMAXWORKERS], alone[STARPU_NMAXWORKERS];

    for (int p = 0; p < STARPU_NMAXWORKERS; p++) {
        pairs[p] = p / 2;
        alone[p] = p;
    }
    for (int u = 0; u < 2; u++) {
        run_case(ctx, u ? 'U' : 'L', 513, 16, 515, 16, pairs, STARTRD_ALLREDUCE_HIERARCHICAL, "in pairs", seed++);
        run_case(ctx, u ? 'U' : 'L', 513, 16, 513, 32, alone, STARTRD_ALLREDUCE_HIERARCHICAL, "a group each",
                 seed++);
        run_case(ctx, u ? 'U' : 'L', 513, 16, 513, 16, alone, STARTRD_ALLREDUCE_HOST, "on the host", seed++);
    }
    startrd_context_release();
    return tst_summary();
}
