/* B = the leading rows of A (as many rows as both have, as many columns as
 * B has): stage 1's total of the partial products, copied to the first GPU
 * of each other group on that GPU, so that the rest of its group reads it
 * there.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"

#include <string.h>

/* A and B may differ in height. */
static size_t rows_of(void *buffers[])
{
    size_t a = STARPU_MATRIX_GET_NX(buffers[0]), b = STARPU_MATRIX_GET_NX(buffers[1]);

    return a < b ? a : b;
}

static void lacpy_cpu(void *buffers[], void *cl_arg)
{
    const double complex *a = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    double complex *b = (double complex *)STARPU_MATRIX_GET_PTR(buffers[1]);
    size_t lda = STARPU_MATRIX_GET_LD(buffers[0]), ldb = STARPU_MATRIX_GET_LD(buffers[1]);
    size_t rows = rows_of(buffers);

    (void)cl_arg;
    for (size_t j = 0; j < STARPU_MATRIX_GET_NY(buffers[1]); j++)
        memcpy(b + j * ldb, a + j * lda, rows * sizeof *b);
}

#ifdef STARTRD_USE_CUDA
static void lacpy_cuda(void *buffers[], void *cl_arg)
{
    const size_t z = sizeof(double complex);
    cudaError_t st = cudaMemcpy2DAsync((void *)STARPU_MATRIX_GET_PTR(buffers[1]), STARPU_MATRIX_GET_LD(buffers[1]) * z,
                                       (const void *)STARPU_MATRIX_GET_PTR(buffers[0]),
                                       STARPU_MATRIX_GET_LD(buffers[0]) * z, rows_of(buffers) * z,
                                       STARPU_MATRIX_GET_NY(buffers[1]), cudaMemcpyDefault,
                                       starpu_cuda_get_local_stream());

    (void)cl_arg;
    if (st != cudaSuccess)
        startrd_kernel_failure("lacpy", "cudaMemcpy2DAsync", st);
}
#endif

STARTRD_HISTORY_MODEL(lacpy_model, "startrd_zlacpy");

static struct starpu_codelet lacpy_codelet = {
    .name = "zlacpy",
    .cpu_funcs = {lacpy_cpu},
    STARTRD_CUDA_ASYNC(lacpy_cuda)
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_W},
    .model = &lacpy_model,
};

int startrd_task_zlacpy(startrd_place_t place, starpu_data_handle_t A, starpu_data_handle_t B)
{
    return starpu_task_insert(&lacpy_codelet,
                              STARPU_R, A, STARPU_W, B,
                              STARTRD_PLACE_ARGS(place),
                              0);
}
