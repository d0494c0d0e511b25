/* The one-stage reduction of a small matrix on one GPU: a thin adapter over
 * startrd_cuda_zhetd2_fused() (kernel_hetd2_fused.cu).
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"

#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"

static void hetd2_fused_cuda(void *buffers[], void *cl_arg)
{
    const char uplo = *(const char *)cl_arg;
    cudaError_t st = startrd_cuda_zhetd2_fused(
        uplo, (int64_t)STARPU_MATRIX_GET_NX(buffers[0]), (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]),
        (int64_t)STARPU_MATRIX_GET_LD(buffers[0]), (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[1]),
        (double *)STARPU_VECTOR_GET_PTR(buffers[2]), (double *)STARPU_VECTOR_GET_PTR(buffers[3]),
        (cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[4]), (void *)STARPU_VECTOR_GET_PTR(buffers[5]),
        (size_t)STARPU_VECTOR_GET_NX(buffers[5]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[5]),
        starpu_cuda_get_local_stream());

    /* The codelet is synchronous: StarPU expects the stream idle on return. */
    if (st == cudaSuccess)
        st = cudaStreamSynchronize(starpu_cuda_get_local_stream());
    if (st != cudaSuccess)
        startrd_kernel_failure("zhetd2_fused", "startrd_cuda_zhetd2_fused", st);
}
#endif

STARTRD_HISTORY_MODEL(hetd2_fused_model, "startrd_zhetd2_fused");

static struct starpu_codelet hetd2_fused_codelet = {
    .name = "zhetd2_fused",
#ifdef STARTRD_USE_CUDA
    .cuda_funcs = {hetd2_fused_cuda},
#endif
    .nbuffers = 6,
    .modes = {STARPU_RW, STARPU_SCRATCH, STARPU_W, STARPU_W, STARPU_W, STARPU_SCRATCH},
    .model = &hetd2_fused_model,
};

int startrd_task_zhetd2_fused(int worker, char uplo, starpu_data_handle_t B, starpu_data_handle_t W,
                              starpu_data_handle_t d, starpu_data_handle_t e, starpu_data_handle_t tau,
                              starpu_data_handle_t scratch)
{
    char *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = uplo;
    return starpu_task_insert(&hetd2_fused_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_RW, B, STARPU_SCRATCH, W, STARPU_W, d, STARPU_W, e, STARPU_W, tau,
                              STARPU_SCRATCH, scratch,
                              STARPU_EXECUTE_ON_WORKER, worker,
                              STARPU_NAME, "hetd2_fused",
                              0);
}
