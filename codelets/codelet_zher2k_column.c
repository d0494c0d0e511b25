/* The two-sided update of one block column of the trailing matrix,
 *     C -= W * V[j]^H + V * W[j]^H,
 * as two GEMMs over the whole column, diagonal tile included: the diagonal
 * tile's strictly upper triangle is not part of the lower storage, so it
 * serves as scratch instead of costing a separate HER2K call. */
#include "codelets.h"
#include "error.h"

#include <cblas.h>
#include <stdlib.h>

struct her2k_column_args {
    int64_t row;      /* absolute row of the column's diagonal in V and W */
};

static void her2k_column_cpu(void *buffers[], void *cl_arg)
{
    const struct her2k_column_args *a = cl_arg;
    int m = (int)STARPU_MATRIX_GET_NX(buffers[0]), nb = (int)STARPU_MATRIX_GET_NY(buffers[0]);
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const double complex *v = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[1]) + a->row;
    const double complex *w = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[2]) + a->row;
    int ldc = (int)STARPU_MATRIX_GET_LD(buffers[0]), ldv = (int)STARPU_MATRIX_GET_LD(buffers[1]);
    int ldw = (int)STARPU_MATRIX_GET_LD(buffers[2]);
    const double complex one = 1.0, mone = -1.0;

    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, m, nb, nb, &mone, w, ldw, v, ldv, &one, c, ldc);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, m, nb, nb, &mone, v, ldv, w, ldw, &one, c, ldc);
}

#ifdef STARTRD_USE_CUDA
static void her2k_column_cuda(void *buffers[], void *cl_arg)
{
    const struct her2k_column_args *a = cl_arg;
    int m = (int)STARPU_MATRIX_GET_NX(buffers[0]), nb = (int)STARPU_MATRIX_GET_NY(buffers[0]);
    cuDoubleComplex *c = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const cuDoubleComplex *v = (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[1]) + a->row;
    const cuDoubleComplex *w = (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[2]) + a->row;
    int ldc = (int)STARPU_MATRIX_GET_LD(buffers[0]), ldv = (int)STARPU_MATRIX_GET_LD(buffers[1]);
    int ldw = (int)STARPU_MATRIX_GET_LD(buffers[2]);
    const cuDoubleComplex one = {1.0, 0.0}, mone = {-1.0, 0.0};
    cublasHandle_t h = starpu_cublas_get_local_handle();
    cublasStatus_t st;

    st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, m, nb, nb, &mone, w, ldw, v, ldv, &one, c, ldc);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, m, nb, nb, &mone, v, ldv, w, ldw, &one, c, ldc);
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("her2k_column", "cublasZgemm", st);
}
#endif

static struct starpu_perfmodel her2k_column_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "startrd_zher2k_column",
};

static struct starpu_codelet her2k_column_codelet = {
    .name = "zher2k_column",
    .cpu_funcs = {her2k_column_cpu},
#ifdef STARTRD_USE_CUDA
    .cuda_funcs = {her2k_column_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 3,
    .modes = {STARPU_RW, STARPU_R, STARPU_R},
    .model = &her2k_column_model,
};

int startrd_task_zher2k_column(startrd_place_t place, starpu_data_handle_t column, int64_t row,
                               starpu_data_handle_t V, starpu_data_handle_t W)
{
    struct her2k_column_args *args = malloc(sizeof *args);
    double m = (double)starpu_matrix_get_nx(column), nb = (double)starpu_matrix_get_ny(column);

    if (args == NULL)
        return -ENOMEM;
    args->row = row;
    return starpu_task_insert(&her2k_column_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_RW, column, STARPU_R, V, STARPU_R, W,
                              STARPU_EXECUTE_ON_WORKER, place.worker,
                              STARPU_PRIORITY, place.priority,
                              STARPU_FLOPS, 16.0 * m * nb * nb,
                              0);
}
