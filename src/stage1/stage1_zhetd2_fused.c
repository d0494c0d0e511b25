/* Small orders: the matrix goes up to one GPU through a CPU worker's
 * pinned buffers, is reduced there by one kernel, and its triangle comes
 * back the same way (docs/architecture.md, "Small orders: one stage in one
 * kernel").
 *
 * @precisions normal z -> s d c
 */
#include "stage1_zhetd2_fused.h"

#include "codelets_z.h"
#include "error.h"
#include "startrd.h"

#include <stdatomic.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

int startrd_stage1_zhetd2_fused_fits(int64_t n, int cuda_worker)
{
#ifdef STARTRD_USE_CUDA
    int dev, ok;

    if (cuda_worker < 0 || n < 2 || n > UINT32_MAX || cudaGetDevice(&dev) != cudaSuccess)
        return 0;
    ok = cudaSetDevice(starpu_worker_get_devid(cuda_worker)) == cudaSuccess && n <= startrd_cuda_zhetd2_fused_max_n();
    return cudaSetDevice(dev) == cudaSuccess && ok;
#else
    (void)n;
    (void)cuda_worker;
    return 0;
#endif
}

#ifdef STARTRD_USE_CUDA
/* The tasks, once the handles are registered.  0 or a positive status. */
static int submit(char uplo, double complex *A, int64_t lda, int a_devid, int cuda_worker, int check_finite,
                  starpu_data_handle_t hB, starpu_data_handle_t const h[5])
{
    const int node = (int)starpu_worker_get_memory_node((unsigned)cuda_worker);
    atomic_int nonfinite = 0;
    int ret = startrd_task_zupload(node, -1, A, lda, a_devid, hB);

    if (ret == 0 && check_finite) {
        ret = startrd_task_ztile_finite((startrd_place_t){.worker = cuda_worker}, uplo, hB, &nonfinite);
        starpu_task_wait_for_all();
        if (ret == 0 && atomic_load(&nonfinite)) {
            startrd_error("the matrix holds NaN or Inf; A is left unchanged");
            return STARTRD_ERR_NONFINITE;
        }
    }
    if (ret == 0)
        ret = startrd_task_zhetd2_fused(cuda_worker, uplo, hB, h[0], h[1], h[2], h[3], h[4]);
    if (ret == 0)
        ret = startrd_task_zdownload(node, hB, uplo, A, lda, a_devid);
    starpu_task_wait_for_all();
    if (ret != 0) {
        startrd_error("the one-stage reduction: task submission failed (%d)", ret);
        return STARTRD_ERR_RUNTIME;
    }
    return startrd_kernel_failures_take() > 0 ? STARTRD_ERR_KERNEL : 0;
}
#endif

int startrd_stage1_zhetd2_fused(char uplo, int64_t n, double complex *A, int64_t lda, int a_devid, double *d,
                                double *e, double complex *tau, int cuda_worker, int check_finite)
{
#ifdef STARTRD_USE_CUDA
    const size_t scratch = startrd_cuda_hetd2_fused_scratch_bytes(n, sizeof *A);
    starpu_data_handle_t hB, h[5];   /* W, d, e, tau, scratch */
    int ret;

    if (!startrd_stage1_zhetd2_fused_fits(n, cuda_worker))
        return STARTRD_ERR_STATE;
    starpu_matrix_data_register(&hB, -1, 0, (uint32_t)n, (uint32_t)n, (uint32_t)n, sizeof *A);
    starpu_matrix_data_register(&h[0], -1, 0, (uint32_t)n, (uint32_t)n, (uint32_t)n, sizeof *A);
    starpu_vector_data_register(&h[1], STARPU_MAIN_RAM, (uintptr_t)d, (uint32_t)n, sizeof *d);
    starpu_vector_data_register(&h[2], STARPU_MAIN_RAM, (uintptr_t)e, (uint32_t)(n - 1), sizeof *e);
    starpu_vector_data_register(&h[3], STARPU_MAIN_RAM, (uintptr_t)tau, (uint32_t)(n - 1), sizeof *tau);
    starpu_vector_data_register(&h[4], -1, 0, (uint32_t)((scratch + sizeof *A - 1) / sizeof *A), sizeof *A);
    ret = submit(uplo, A, lda, a_devid, cuda_worker, check_finite, hB, h);
    starpu_data_unregister(hB);
    for (int k = 0; k < 5; k++)
        starpu_data_unregister(h[k]);
    return ret;
#else
    (void)uplo, (void)n, (void)A, (void)lda, (void)a_devid, (void)d, (void)e, (void)tau, (void)cuda_worker,
        (void)check_finite;
    return STARTRD_ERR_STATE;
#endif
}
