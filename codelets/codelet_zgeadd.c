/* B += A on whole handles: sums partial products of different workers.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"
#include "scalars.h"

#include <cblas.h>

static void geadd_cpu(void *buffers[], void *cl_arg)
{
    const double complex one = 1.0;
    const double complex *a = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    double complex *b = (double complex *)STARPU_MATRIX_GET_PTR(buffers[1]);
    size_t lda = STARPU_MATRIX_GET_LD(buffers[0]), ldb = STARPU_MATRIX_GET_LD(buffers[1]);
    int m = (int)STARPU_MATRIX_GET_NX(buffers[1]);

    (void)cl_arg;
    for (size_t j = 0; j < STARPU_MATRIX_GET_NY(buffers[1]); j++)
        cblas_zaxpy(m, STARTRD_Z_CBLAS(one), a + j * lda, 1, b + j * ldb, 1);
}

#ifdef STARTRD_USE_CUDA
static void geadd_cuda(void *buffers[], void *cl_arg)
{
    const cuDoubleComplex one = STARTRD_Z_ONE;
    cuDoubleComplex *b = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[1]);
    int ldb = (int)STARPU_MATRIX_GET_LD(buffers[1]);
    /* cuBLAS allows C == B in geam when ldc == ldb. */
    cublasStatus_t st = cublasZgeam(
        starpu_cublas_get_local_handle(), CUBLAS_OP_N, CUBLAS_OP_N,
        (int)STARPU_MATRIX_GET_NX(buffers[1]), (int)STARPU_MATRIX_GET_NY(buffers[1]),
        &one, (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]), (int)STARPU_MATRIX_GET_LD(buffers[0]),
        &one, b, ldb, b, ldb);

    (void)cl_arg;
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("geadd", "cublasZgeam", st);
}
#endif

STARTRD_HISTORY_MODEL(geadd_model, "startrd_zgeadd");

static struct starpu_codelet geadd_codelet = {
    .name = "zgeadd",
    .cpu_funcs = {geadd_cpu},
    STARTRD_CUDA_ASYNC(geadd_cuda)
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_RW},
    .model = &geadd_model,
};

int startrd_task_zgeadd(startrd_place_t place, starpu_data_handle_t A, starpu_data_handle_t B)
{
    return starpu_task_insert(&geadd_codelet,
                              STARPU_R, A, STARPU_RW, B,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_FLOPS, 2.0 * (double)starpu_matrix_get_nx(B) * (double)starpu_matrix_get_ny(B),
                              0);
}
