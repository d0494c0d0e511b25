/* The tile ZGEMM codelet against CBLAS: C = alpha*op(A)*op(B) + beta*C
 * computed as one task per (tile of C, tile of the inner dimension), on
 * whatever workers the context has, with tasks that write a tile of C placed
 * on the owner of its block column. */
#include "codelets_z.h"
#include "descriptor.h"
#include "error.h"
#include "testing_context.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct gemm_case {
    char transa, transb;
    int64_t m, n, k, nb, dist_nb;
};

static double complex *random_matrix(int64_t rows, int64_t cols, int seed)
{
    double complex *a = malloc((size_t)(rows * cols > 0 ? rows * cols : 1) * sizeof *a);
    lapack_int iseed[4] = {seed, 7, 11, 1};

    if (a != NULL && rows * cols > 0)
        LAPACKE_zlarnv(2, iseed, (lapack_int)(rows * cols), a);
    return a;
}

static void run_case(const startrd_context_t *ctx, const struct gemm_case *c)
{
    const double complex alpha = 0.75 - 0.5 * I, beta = -1.25 + 0.25 * I;
    int64_t ar = c->transa == 'N' ? c->m : c->k, ac = c->transa == 'N' ? c->k : c->m;
    int64_t br = c->transb == 'N' ? c->k : c->n, bc = c->transb == 'N' ? c->n : c->k;
    double complex *a = random_matrix(ar, ac, 1), *b = random_matrix(br, bc, 2);
    double complex *cm = random_matrix(c->m, c->n, 3), *ref = random_matrix(c->m, c->n, 3);
    startrd_desc_t A, B, C;
    const size_t elt = sizeof(double complex);
    int ret = 0;

    if (a == NULL || b == NULL || cm == NULL || ref == NULL) {
        tst_check(false, "zgemm %c%c: out of memory", c->transa, c->transb);
        goto out;
    }
    ret |= startrd_desc_init(&A, "A", STARTRD_DESC_TILES, elt, a, ar > 0 ? ar : 1, ar, ac, c->nb, c->nb, c->nb, 0, NULL);
    ret |= startrd_desc_init(&B, "B", STARTRD_DESC_TILES, elt, b, br > 0 ? br : 1, br, bc, c->nb, c->nb, c->nb, 0, NULL);
    ret |= startrd_desc_init(&C, "C", STARTRD_DESC_TILES, elt, cm, c->m > 0 ? c->m : 1, c->m, c->n, c->nb, c->nb,
                             c->dist_nb, ctx->ncuda, ctx->cuda_worker);
    if (ret != 0) {
        tst_check(false, "zgemm %c%c: descriptors", c->transa, c->transb);
        goto out;
    }
    int64_t kt = c->transa == 'N' ? A.nt : A.mt;

    for (int64_t j = 0; j < C.nt; j++) {
        startrd_place_t place = {.worker = startrd_desc_owner(&C, j)};

        for (int64_t i = 0; i < C.mt; i++)
            for (int64_t l = 0; l < kt; l++) {
                starpu_data_handle_t ta = c->transa == 'N' ? startrd_desc_tile(&A, i, l) : startrd_desc_tile(&A, l, i);
                starpu_data_handle_t tb = c->transb == 'N' ? startrd_desc_tile(&B, l, j) : startrd_desc_tile(&B, j, l);

                ret |= startrd_task_zgemm(place, c->transa, c->transb, alpha, ta, tb, l == 0 ? beta : 1.0, startrd_desc_tile(&C, i, j));
            }
    }
    starpu_task_wait_for_all();
    startrd_desc_finish(&A);
    startrd_desc_finish(&B);
    startrd_desc_finish(&C);

    cblas_zgemm(CblasColMajor, c->transa == 'N' ? CblasNoTrans : CblasConjTrans,
                c->transb == 'N' ? CblasNoTrans : CblasConjTrans, (int)c->m, (int)c->n, (int)c->k,
                &alpha, a, (int)(ar > 0 ? ar : 1), b, (int)(br > 0 ? br : 1), &beta, ref, (int)(c->m > 0 ? c->m : 1));
    double diff = 0.0, scale = 0.0;
    for (int64_t x = 0; x < c->m * c->n; x++) {
        diff = tst_max_nan(diff, cabs(cm[x] - ref[x]));
        scale = tst_max_nan(scale, cabs(ref[x]));
    }
    /* Blocking changes the summation order: each entry may differ by about
     * k roundings of products of O(1) entries. */
    double ratio = diff / ((double)(c->k + 1) * DBL_EPSILON * tst_max_nan(scale, 1.0));
    tst_check(ret == 0 && startrd_kernel_failures_take() == 0 && ratio < 10.0,
              "zgemm %c%c m=%lld n=%lld k=%lld nb=%lld dist=%lld: error/(k*eps*max|C|) = %.3g",
              c->transa, c->transb, (long long)c->m, (long long)c->n, (long long)c->k,
              (long long)c->nb, (long long)c->dist_nb, ratio);
out:
    free(a);
    free(b);
    free(cm);
    free(ref);
}

int main(void)
{
    static const struct gemm_case cases[] = {
        {'N', 'N', 1, 1, 1, 8, 8},
        {'N', 'N', 64, 64, 64, 16, 16},
        {'N', 'C', 100, 37, 53, 16, 32},
        {'C', 'N', 37, 100, 129, 32, 64},
        {'C', 'C', 77, 65, 33, 8, 24},
        {'N', 'N', 300, 200, 150, 64, 128},
    };
    startrd_context_t *ctx;

    ctx = tst_open_context();
    if (ctx == NULL)
        return tst_summary();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        run_case(ctx, &cases[c]);
    startrd_context_release();
    return tst_summary();
}
