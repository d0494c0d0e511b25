/* Stage 1 (dense -> band) against LAPACK: the band's eigenvalues (ZHBEVD)
 * against ZHEEVD of the input, the similarity A = Q1*B*Q1^H and the
 * orthogonality of Q1 formed from the stored reflectors, and no write outside
 * the referenced triangle, for both storages, several bandwidths and
 * distribution blocks, and lda > n; every way of combining the workers'
 * shares of A*V gives the band of the CPU path, to rounding; and the band
 * the copies back write for stage 2 is, entry for entry, the one
 * startrd_kernel_zband_from_dense() takes from the result.  The block
 * columns' layout in groups holds about the triangle, each group one
 * trapezoid. */
#include "column_pieces.h"
#include "descriptor.h"
#include "kernels_stage2.h"
#include "stage1_zhe2hb.h"
#include "testing_context.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double complex sentinel = 12345.0 - 678.0 * I;

/* Largest difference between the bands (diagonal and nb off-diagonals of
 * triangle uplo) of a and b, in units of n eps max|A|. */
static double band_difference(char uplo, int64_t n, int64_t nb, const double complex *a, const double complex *b,
                              const double complex *a0, int64_t lda)
{
    double diff = 0.0, amax = 0.0;

    for (int64_t j = 0; j < n; j++)
        for (int64_t i = uplo == 'L' ? j : (j > nb ? j - nb : 0); i <= (uplo == 'L' ? (j + nb < n ? j + nb : n - 1) : j);
             i++) {
            diff = tst_max_nan(diff, cabs(a[j * lda + i] - b[j * lda + i]));
            amax = tst_max_nan(amax, cabs(a0[j * lda + i]));
        }
    /* Tested for zero, not for > 0, so that a NaN amax reaches the ratio. */
    return amax == 0.0 ? diff : diff / ((double)n * DBL_EPSILON * amax);
}

/* On the context's GPUs, or with @p cpu on its CPU workers.  With @p keep,
 * the result is copied there; with @p ref, its band must match ref's. */
static void run_case(const startrd_context_t *ctx, int cpu, char uplo, int64_t n, int64_t nb,
                     int64_t lda, int64_t dist_nb, const int *groups, startrd_allreduce_t allreduce,
                     const char *sum, uint64_t seed, double complex *keep, const double complex *ref)
{
    size_t size = (size_t)lda * (size_t)(n > 0 ? n : 1);
    double complex *a0 = malloc(size * sizeof *a0), *a = malloc(size * sizeof *a);
    double complex *tau = calloc((size_t)(n > nb ? n - nb : 1), sizeof *tau);
    double *w0 = malloc((size_t)(n > 0 ? n : 1) * sizeof *w0), *w = malloc((size_t)(n > 0 ? n : 1) * sizeof *w);
    /* Taller than stage 2's 2nb+1 rows on odd seeds: the rows below are zeroed too. */
    int64_t ldab = 2 * nb + 1 + (int64_t)(seed % 2) * 2;
    size_t band_size = (size_t)ldab * (size_t)(n > 0 ? n : 1);
    double complex *ab = malloc(band_size * sizeof *ab), *ab_ref = malloc(band_size * sizeof *ab_ref);
    double sim = 0.0, unit = 0.0, ratio = 0.0, same = 0.0;
    char same_text[32];
    int ret = -1;
    int64_t outside = -1, complex_diagonal = -1, band_wrong = -1;

    if (a0 == NULL || a == NULL || tau == NULL || w0 == NULL || w == NULL || ab == NULL || ab_ref == NULL)
        goto out;
    for (size_t k = 0; k < band_size; k++)
        ab[k] = ab_ref[k] = sentinel;
    if (tst_zgen(TST_KIND_RANDOM, n, a0, lda, seed) != 0)
        goto out;
    tst_zfill_sentinel(uplo, n, a0, lda, sentinel);
    memcpy(a, a0, size * sizeof *a);
    ret = startrd_stage1_zhe2hb(uplo, n, nb, dist_nb, cpu ? 0 : ctx->ncuda, ctx->cuda_worker, ctx->cuda_side_worker,
                                groups, allreduce, a, lda, tau, ab, ldab, 1);
    if (ret != 0)
        goto out;
    /* Nothing to reduce for n <= nb: the band is left alone. */
    if (n > nb)
        startrd_kernel_zband_from_dense(uplo, n, nb, 0, n, a, lda, ab_ref, ldab);
    band_wrong = 0;
    for (size_t k = 0; k < band_size; k++)
        band_wrong += ab[k] != ab_ref[k];
    outside = tst_zcount_sentinel_changes(uplo, n, a, lda, sentinel);
    /* A Hermitian band has a real diagonal, as ZHER2K leaves it. */
    complex_diagonal = 0;
    for (int64_t i = 0; i < n; i++)
        complex_diagonal += cimag(a[i * lda + i]) != 0.0;
    ret = tst_zeig_hermitian(uplo, n, a0, lda, w0) | tst_zeig_band(uplo, n, nb, a, lda, w) |
          tst_zstage1_ratios(uplo, n, nb, a0, lda, a, lda, tau, &sim, &unit);
    ratio = tst_zeig_ratio(n, w0, w);
    if (keep != NULL)
        memcpy(keep, a, size * sizeof *a);
    if (ref != NULL)
        same = band_difference(uplo, n, nb, a, ref, a0, lda);
out:
    snprintf(same_text, sizeof same_text, ref != NULL ? "%.3g" : "-", same);
    tst_check(ret == 0 && outside == 0 && complex_diagonal == 0 && band_wrong == 0 && ratio <= 10.0 && sim < 30.0 &&
                  unit < 30.0 && same < 30.0,
              "stage1 uplo=%c n=%lld nb=%lld lda=%lld dist=%lld %s%s: eig %.3g  ||A-QBQ^H|| %.3g  "
              "||I-Q^HQ|| %.3g  writes outside %lld  non-real diagonal entries %lld  stage-2 band entries wrong "
              "%lld (ldab %lld)  band vs CPU path %s",
              uplo, (long long)n, (long long)nb, (long long)lda, (long long)dist_nb, sum, cpu ? " (CPU path)" : "",
              ratio, sim, unit, (long long)outside, (long long)complex_diagonal, (long long)band_wrong,
              (long long)ldab, same_text);
    free(a0);
    free(a);
    free(tau);
    free(w0);
    free(w);
    free(ab);
    free(ab_ref);
}

/* Against the CPU path's band, every scheme: the hierarchical sum in groups
 * of two (of CPU workers' products, or of GPUs) and a group each (with GPUs,
 * the total then goes to each group's first GPU before the rest of it), the
 * sum on host cores, and both triangles kept. */
static void compare_schemes(const startrd_context_t *ctx, uint64_t *seed)
{
    static int pairs[STARPU_NMAXWORKERS], alone[STARPU_NMAXWORKERS];
    double complex *ref = malloc((size_t)515 * 513 * sizeof *ref);

    for (int p = 0; p < STARPU_NMAXWORKERS; p++) {
        pairs[p] = p / 2;
        alone[p] = p;
    }
    for (int u = 0; u < 2 && ref != NULL; u++, (*seed)++) {
        char uplo = u ? 'U' : 'L';

        run_case(ctx, 1, uplo, 513, 16, 515, 16, NULL, STARTRD_ALLREDUCE_HIERARCHICAL, "hierarchical", *seed, ref,
                 NULL);
        run_case(ctx, 0, uplo, 513, 16, 515, 16, pairs, STARTRD_ALLREDUCE_HIERARCHICAL, "in pairs", *seed, NULL,
                 ref);
        run_case(ctx, 0, uplo, 513, 16, 515, 32, alone, STARTRD_ALLREDUCE_HIERARCHICAL, "a group each", *seed, NULL,
                 ref);
        run_case(ctx, 0, uplo, 513, 16, 515, 16, alone, STARTRD_ALLREDUCE_HOST, "on the host", *seed, NULL, ref);
        run_case(ctx, 0, uplo, 513, 16, 515, 32, pairs, STARTRD_ALLREDUCE_FULL, "full", *seed, NULL, ref);
    }
    tst_check(ref != NULL, "stage1: memory for the reference band");
    free(ref);
}

/* Block columns allocated by the descriptor, in host memory here (the GPUs'
 * groups are the same but for the last): within a group each block column
 * continues the previous one (nb rows and nb columns on, one leading
 * dimension); groups start at multiples of STARTRD_DESC_GROUP_COLS
 * columns; nothing overlaps and the lower layout takes about half of the
 * square.  Both triangles keep the square's layout, one block column after
 * the other. */
static void check_layout(startrd_desc_layout_t layout, int64_t n, int64_t nb)
{
    startrd_desc_t A;
    int64_t groups = 0, bad = 0;
    size_t z = sizeof(double complex), square = (size_t)n * (size_t)n * z;
    int lower = layout == STARTRD_DESC_LOWER_COLUMNS;

    if (startrd_desc_init(&A, "A", layout, z, NULL, n, n, n, nb, nb, nb, 0, NULL) != 0) {
        tst_check(false, "layout of %s block columns, n = %lld: descriptor", lower ? "lower" : "full", (long long)n);
        return;
    }
    for (int64_t j = 0; j < A.nt; j++) {
        starpu_data_handle_t h = startrd_desc_column(&A, j);
        uintptr_t p = starpu_matrix_get_local_ptr(h), base = (uintptr_t)A.mat;
        int64_t ld = starpu_matrix_get_local_ld(h), rows = starpu_matrix_get_nx(h), col = j * nb;
        int starts = j == 0 || (lower && col % STARTRD_DESC_GROUP_COLS == 0);

        bad += rows != n - startrd_desc_column_row0(&A, j) || ld < rows || p < base ||
               p + ((size_t)(nb - 1) * (size_t)ld + (size_t)rows) * z > base + A.mat_bytes;
        if (j > 0) {
            starpu_data_handle_t g = startrd_desc_column(&A, j - 1);
            uintptr_t q = starpu_matrix_get_local_ptr(g);
            int64_t ldq = starpu_matrix_get_local_ld(g);
            int continues = ld == ldq && p == q + (size_t)((ldq + (lower ? 1 : 0)) * nb) * z;

            /* A new group starts after the end of the previous block column. */
            bad += starts ? continues || p < q + ((size_t)(nb - 1) * (size_t)ldq + starpu_matrix_get_nx(g)) * z
                          : !continues;
        }
        groups += starts;
    }
    tst_check(bad == 0 && (lower ? A.mat_bytes < square * 6 / 10 : A.mat_bytes == square),
              "layout of %s block columns, n = %lld, nb = %lld: %lld groups, %zu MiB against the square's %zu, "
              "%lld misplaced", lower ? "lower" : "full", (long long)n, (long long)nb, (long long)groups,
              A.mat_bytes >> 20, square >> 20, (long long)bad);
    startrd_desc_finish(&A);
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

                run_case(ctx, 0, u ? 'U' : 'L', n, nb, lda, dist, ctx->ncuda > 0 ? ctx->gpu_group : NULL,
                         STARTRD_ALLREDUCE_HIERARCHICAL, "hierarchical", seed, NULL, NULL);
                /* Both triangles kept: the copy's other triangle, the
                 * gathered rows and the full-height update at every size. */
                if (nb == 16)
                    run_case(ctx, 0, u ? 'U' : 'L', n, nb, lda, dist, NULL, STARTRD_ALLREDUCE_FULL, "full", seed,
                             NULL, NULL);
                seed++;
            }
    }
    /* One distribution block holding every block column: on a GPU, whose
     * tasks take all the columns it owns, they lie side by side over more
     * than the widest piece (column_pieces.h), and the tasks update them
     * piece by piece (CPU workers' tasks take a few columns each). */
    {
        const int64_t n = STARTRD_PIECE_COLS + 76, nb = 8, dist = (n + nb - 1) / nb * nb;

        run_case(ctx, 0, 'L', n, nb, n, dist, NULL, STARTRD_ALLREDUCE_HIERARCHICAL, "hierarchical", seed++, NULL,
                 NULL);
    }
    /* A band wider than 128: on a GPU, T's last levels (blocks of 128
     * columns) are built in chunks narrower than a block, and T no longer
     * fits in shared memory. */
    {
        const int64_t nb = 160, n = 3 * nb + 5;

        run_case(ctx, 0, 'L', n, nb, n + 1, nb, NULL, STARTRD_ALLREDUCE_HIERARCHICAL, "hierarchical", seed++, NULL,
                 NULL);
    }
    compare_schemes(ctx, &seed);
    check_layout(STARTRD_DESC_LOWER_COLUMNS, 11 * STARTRD_DESC_GROUP_COLS - 64, 64);
    check_layout(STARTRD_DESC_LOWER_COLUMNS, 12 * STARTRD_DESC_GROUP_COLS, 32);
    check_layout(STARTRD_DESC_FULL_COLUMNS, 2 * STARTRD_DESC_GROUP_COLS, 64);
    startrd_context_release();
    /* Two and four CPU workers, whatever the machine: with two partial
     * products W's tasks add both (after a deferred update, before the
     * correction); with four, the sums run inside groups and then between
     * their first products. */
    for (int ncpu = 2; ncpu <= 4; ncpu += 2) {
        ctx = tst_open_context_with(0, ncpu);
        if (ctx != NULL) {
            compare_schemes(ctx, &seed);
            startrd_context_release();
        }
    }
    return tst_summary();
}
