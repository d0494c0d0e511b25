/* The copies between the caller's matrix and stage 1's block columns: a
 * column copied in to a GPU's memory by a CPU worker through its pinned
 * buffers (as stage 1 does when the columns live on GPUs; without a GPU,
 * into a handle taller than the column) is bitwise the column copied in
 * directly on the host, padding and unused triangle zeroed; and a copy
 * out from there, the same way, writes the referenced triangle back
 * exactly and nothing else.  With the caller's matrix in a GPU's memory
 * (the _gpu entry points), the columns copied in by the GPUs' kernels, on
 * the matrix's GPU or through a peer copy, are bitwise the host's, with
 * both triangles as well, and the copies out write the referenced
 * triangle and nothing else there too. */
#include "codelets_z.h"
#include "descriptor.h"
#include "error.h"
#include "testing_context.h"

#include <stdlib.h>
#include <string.h>

static const double complex sentinel = -77.0 + 5.5 * I;

static void run_case(const startrd_context_t *ctx, char uplo, int64_t n, int64_t nb, int64_t lda)
{
    int64_t nt = (n + nb - 1) / nb, N = nt * nb;
    size_t size = (size_t)lda * (size_t)n, col = (size_t)N * (size_t)nb;
    double complex *a = malloc(size * sizeof *a), *back = malloc(size * sizeof *back);
    double complex *direct = malloc(col * sizeof *direct), *staged = malloc(col * sizeof *staged);
    startrd_place_t anywhere = {.worker = -1}, cpu = {.worker = -1, .cpu_only = 1};
    int64_t differ = -1, outside = -1, wrong = -1;
    int ret = -1;

    if (a == NULL || back == NULL || direct == NULL || staged == NULL || tst_zgen(TST_KIND_RANDOM, n, a, lda, 3) != 0)
        goto out;
    tst_zfill_sentinel(uplo, n, a, lda, sentinel);
    memcpy(back, a, size * sizeof *back);
    memset(direct, 0x5a, col * sizeof *direct);
    memset(staged, 0x5a, col * sizeof *staged);
    differ = outside = wrong = 0;
    ret = 0;
    for (int64_t j = 0; j < nt; j++) {
        int64_t height = N - j * nb;
        starpu_data_handle_t cd, cs, cg, scanned;
        startrd_place_t gpu = anywhere;
        uintptr_t dev = 0;
        unsigned node = 0;
        int registered = 0;

        if (ctx->ncuda > 0)
            gpu.worker = ctx->cuda_worker[j % ctx->ncuda];
        starpu_matrix_data_register(&cd, STARPU_MAIN_RAM, (uintptr_t)direct, (uint32_t)N, (uint32_t)height,
                                    (uint32_t)nb, sizeof *direct);
        starpu_matrix_data_register(&cs, STARPU_MAIN_RAM, (uintptr_t)staged, (uint32_t)N, (uint32_t)height,
                                    (uint32_t)nb, sizeof *staged);
        starpu_void_data_register(&scanned);
        ret |= startrd_task_zcopy_column(cpu, 0, uplo, n, a, lda, -1, j * nb, 0, cd, NULL, scanned, NULL);
        if (ctx->ncuda > 0) {
            /* A column whose home is the GPU, as stage 1's are there. */
            node = starpu_worker_get_memory_node(gpu.worker);
            dev = starpu_malloc_on_node(node, col * sizeof *staged);
            if (dev == 0)
                ret = -1;
            else
                starpu_matrix_data_register(&cg, (int)node, dev, (uint32_t)N, (uint32_t)height, (uint32_t)nb,
                                            sizeof *staged);
            registered = dev != 0;
        } else {
            startrd_workspace_register(&cg, "taller", sizeof(double complex), N, nb);
            registered = 1;
        }
        if (ret == 0) {
            ret |= startrd_task_zcopy_column(cpu, 0, uplo, n, a, lda, -1, j * nb, 0, cg, NULL, scanned, NULL);
            ret |= startrd_task_zlacpy(gpu, cg, cs);
            ret |= startrd_task_zcopy_column(cpu, 1, uplo, n, back, lda, -1, j * nb, 0, cg, NULL, scanned, NULL);
        }
        starpu_task_wait_for_all();
        if (registered)
            starpu_data_unregister(cg);
        if (dev != 0)
            starpu_free_on_node(node, dev, col * sizeof *staged);
        starpu_data_unregister(cd);
        starpu_data_unregister(cs);
        starpu_data_unregister(scanned);
        differ += memcmp(direct, staged, (size_t)height * sizeof *direct * (size_t)nb) != 0;
        /* Above the diagonal of the diagonal tile and below row n: zeros. */
        for (int64_t q = 0; q < nb; q++)
            for (int64_t r = 0; r < height; r++)
                wrong += (r < q || j * nb + q >= n || j * nb + r >= n) && direct[q * N + r] != 0.0;
    }
    ret |= startrd_kernel_failures_take();
    outside = tst_zcount_sentinel_changes(uplo, n, back, lda, sentinel);
    wrong += memcmp(a, back, size * sizeof *a) != 0;
out:
    tst_check(ret == 0 && differ == 0 && wrong == 0 && outside == 0,
              "copy uplo=%c n=%lld nb=%lld lda=%lld: staged columns differing %lld, misplaced entries %lld, "
              "writes outside %lld", uplo, (long long)n, (long long)nb, (long long)lda, (long long)differ,
              (long long)wrong, (long long)outside);
    free(a);
    free(back);
    free(direct);
    free(staged);
}

#ifdef STARTRD_USE_CUDA
/* The caller's matrix in the memory of the last GPU; column j on GPU
 * j % ncuda, so that with two GPUs half the columns cross between them. */
static void run_device_case(const startrd_context_t *ctx, char uplo, int64_t n, int64_t nb, int64_t lda, int both)
{
    const int devid = starpu_worker_get_devid(ctx->cuda_worker[ctx->ncuda - 1]);
    const int64_t nt = (n + nb - 1) / nb, N = nt * nb;
    const size_t size = (size_t)lda * (size_t)n, col = (size_t)N * (size_t)nb;
    double complex *a = malloc(size * sizeof *a), *back = malloc(size * sizeof *back);
    double complex *direct = malloc(col * sizeof *direct), *viagpu = malloc(col * sizeof *viagpu);
    double complex *da = NULL, *dback = NULL;
    const startrd_place_t cpu = {.worker = -1, .cpu_only = 1};
    int64_t differ = -1, outside = -1;
    int ret = -1, nonfinite_seen = 0;

    if (a == NULL || back == NULL || direct == NULL || viagpu == NULL ||
        tst_zgen(TST_KIND_RANDOM, n, a, lda, 5) != 0 || cudaSetDevice(devid) != cudaSuccess ||
        cudaMalloc((void **)&da, size * sizeof *da) != cudaSuccess ||
        cudaMalloc((void **)&dback, size * sizeof *dback) != cudaSuccess)
        goto out;
    if (!both)
        tst_zfill_sentinel(uplo, n, a, lda, sentinel);
    if (cudaMemcpy(da, a, size * sizeof *a, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(dback, a, size * sizeof *a, cudaMemcpyHostToDevice) != cudaSuccess)
        goto out;
    differ = 0;
    ret = 0;
    for (int64_t j = 0; j < nt && ret == 0; j++) {
        const int64_t row0 = both ? 0 : j * nb, height = N - row0;
        const startrd_place_t gpu = {.worker = ctx->cuda_worker[j % ctx->ncuda]};
        const unsigned node = starpu_worker_get_memory_node(gpu.worker);
        uintptr_t dev = starpu_malloc_on_node(node, col * sizeof *direct);
        starpu_data_handle_t cd, cs, cg, scanned;
        atomic_int nonfinite;

        if (dev == 0) {
            ret = -1;
            break;
        }
        atomic_init(&nonfinite, 0);
        memset(direct, 0x5a, col * sizeof *direct);
        memset(viagpu, 0x5a, col * sizeof *viagpu);
        starpu_matrix_data_register(&cd, STARPU_MAIN_RAM, (uintptr_t)direct, (uint32_t)N, (uint32_t)height,
                                    (uint32_t)nb, sizeof *direct);
        starpu_matrix_data_register(&cs, STARPU_MAIN_RAM, (uintptr_t)viagpu, (uint32_t)N, (uint32_t)height,
                                    (uint32_t)nb, sizeof *viagpu);
        starpu_matrix_data_register(&cg, (int)node, dev, (uint32_t)N, (uint32_t)height, (uint32_t)nb,
                                    sizeof *direct);
        starpu_void_data_register(&scanned);
        ret |= startrd_task_zcopy_column(cpu, 0, uplo, n, a, lda, -1, j * nb, both, cd, NULL, scanned, NULL);
        ret |= startrd_task_zcopy_column(cpu, 0, uplo, n, da, lda, devid, j * nb, both, cg, &nonfinite, scanned,
                                         NULL);
        ret |= startrd_task_zlacpy(gpu, cg, cs);
        ret |= startrd_task_zcopy_column(cpu, 1, uplo, n, dback, lda, devid, j * nb, both, cg, &nonfinite, scanned,
                                         NULL);
        starpu_task_wait_for_all();
        starpu_data_unregister(cg);
        starpu_free_on_node(node, dev, col * sizeof *direct);
        starpu_data_unregister(cd);
        starpu_data_unregister(cs);
        starpu_data_unregister(scanned);
        nonfinite_seen |= atomic_load(&nonfinite);
        differ += memcmp(direct, viagpu, (size_t)height * sizeof *direct * (size_t)nb) != 0;
    }
    ret |= startrd_kernel_failures_take();
    if (ret == 0 && cudaMemcpy(back, dback, size * sizeof *back, cudaMemcpyDeviceToHost) != cudaSuccess)
        ret = -1;
    outside = memcmp(a, back, size * sizeof *a) != 0;
out:
    tst_check(ret == 0 && differ == 0 && outside == 0 && !nonfinite_seen,
              "copy from GPU %d memory uplo=%c n=%lld nb=%lld lda=%lld both=%d: columns differing from the host's "
              "%lld, matrix changed by the copies back %lld, NaN reported %d",
              devid, uplo, (long long)n, (long long)nb, (long long)lda, both, (long long)differ, (long long)outside,
              nonfinite_seen);
    cudaFree(da);
    cudaFree(dback);
    free(a);
    free(back);
    free(direct);
    free(viagpu);
}
#endif

int main(void)
{
    startrd_context_t *ctx = tst_open_context();

    if (ctx == NULL)
        return tst_summary();
    for (int u = 0; u < 2; u++) {
        char uplo = u ? 'U' : 'L';

        run_case(ctx, uplo, 37, 16, 37);
        run_case(ctx, uplo, 100, 16, 103);
        run_case(ctx, uplo, 64, 32, 70);
        /* Columns taller than a pinned buffer holds 64 of (8 MiB): the
         * copies to and from a GPU run in several rounds. */
        if (ctx->ncuda > 0)
            run_case(ctx, uplo, 8300, 64, 8300);
#ifdef STARTRD_USE_CUDA
        for (int both = 0; ctx->ncuda > 0 && both < 2; both++) {
            run_device_case(ctx, uplo, 37, 16, 37, both);
            run_device_case(ctx, uplo, 100, 16, 103, both);
            run_device_case(ctx, uplo, 1000, 64, 1001, both);
        }
#endif
    }
    startrd_context_release();
    return tst_summary();
}
