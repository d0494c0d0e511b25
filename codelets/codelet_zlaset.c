/* A block of columns set to those of the identity from column row0 on
 * (LAPACK's ZLASET with the diagonal shifted): where Q = Q1 Q2 is formed,
 * the block it starts from, written in place on its worker.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"
#include "scalars.h"

#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct laset_args {
    int64_t row0;
};

static void laset_cpu(void *buffers[], void *cl_arg)
{
    const struct laset_args *a = cl_arg;
    double complex *A = (double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const int64_t m = STARPU_MATRIX_GET_NX(buffers[0]), cols = STARPU_MATRIX_GET_NY(buffers[0]),
                  lda = STARPU_MATRIX_GET_LD(buffers[0]);

    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < m; i++)
            A[i + j * lda] = i == a->row0 + j ? 1.0 : 0.0;
}

#ifdef STARTRD_USE_CUDA
static void laset_cuda(void *buffers[], void *cl_arg)
{
    const struct laset_args *a = cl_arg;
    const cuDoubleComplex zero = STARTRD_Z_ZERO, one = STARTRD_Z_ONE;
    cudaError_t st = startrd_cuda_zlaset(STARPU_MATRIX_GET_NX(buffers[0]), STARPU_MATRIX_GET_NY(buffers[0]), a->row0,
                                         zero, one,
                                         (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]),
                                         STARPU_MATRIX_GET_LD(buffers[0]), starpu_cuda_get_local_stream());

    if (st != cudaSuccess)
        startrd_kernel_failure("zlaset", "laset kernel", st);
}
#endif

STARTRD_HISTORY_MODEL(laset_model, "startrd_zlaset");

static struct starpu_codelet laset_codelet = {
    .name = "zlaset",
    .cpu_funcs = {laset_cpu},
    STARTRD_CUDA_ASYNC(laset_cuda)
    .nbuffers = 1,
    .modes = {STARPU_W},
    .model = &laset_model,
};

int startrd_task_zlaset_identity(unsigned long long where, int worker, int64_t row0, starpu_data_handle_t A)
{
    struct laset_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    args->row0 = row0;
    return starpu_task_insert(&laset_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_W, A,
                              STARPU_EXECUTE_WHERE, where, STARPU_EXECUTE_ON_WORKER, worker,
                              0);
}
