/* One block column's share of Y = A22 * V, A22 Hermitian in lower storage:
 * the column holds the diagonal tile Ajj (lower triangle valid) and the tiles
 * below it, Bj.  Its contribution to Y is
 *     Y[j]     += Ajj * V[j] + Bj^H * V[below j]
 *     Y[below] += Bj * V[j]
 * so one pass over the column covers both triangles of A22 (the paper's
 * column-oriented HEMM).  V and Y are full-height workspaces indexed by
 * absolute row; the task that first touches Y zeroes it, so partial products
 * need no separate initialisation task. */
#include "codelets.h"
#include "error.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

struct hemm_column_args {
    int64_t row;      /* absolute row of the column's diagonal in V and Y */
    int zero_y;       /* this task is the first to write Y */
};

struct column_view {
    int64_t m, nb;    /* column height from the diagonal down, width */
    double complex *c, *v, *y;
    int64_t ldc, ldv, ldy;
};

static struct column_view view(void *buffers[], const struct hemm_column_args *a)
{
    struct column_view w;

    w.m = STARPU_MATRIX_GET_NX(buffers[0]);
    w.nb = STARPU_MATRIX_GET_NY(buffers[0]);
    w.c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    w.ldc = STARPU_MATRIX_GET_LD(buffers[0]);
    w.ldv = STARPU_MATRIX_GET_LD(buffers[1]);
    w.v = (double complex *)STARPU_MATRIX_GET_PTR(buffers[1]) + a->row;
    w.ldy = STARPU_MATRIX_GET_LD(buffers[2]);
    w.y = (double complex *)STARPU_MATRIX_GET_PTR(buffers[2]) + a->row;
    return w;
}

static void hemm_column_cpu(void *buffers[], void *cl_arg)
{
    const struct hemm_column_args *a = cl_arg;
    struct column_view w = view(buffers, a);
    const double complex one = 1.0;
    int nb = (int)w.nb, below = (int)(w.m - w.nb);

    if (a->zero_y) {
        double complex *y0 = (double complex *)STARPU_MATRIX_GET_PTR(buffers[2]);
        size_t rows = STARPU_MATRIX_GET_NX(buffers[2]);

        for (size_t c = 0; c < STARPU_MATRIX_GET_NY(buffers[2]); c++)
            memset(y0 + c * (size_t)w.ldy, 0, rows * sizeof *y0);
    }
    cblas_zhemm(CblasColMajor, CblasLeft, CblasLower, nb, nb, &one, w.c, (int)w.ldc,
                w.v, (int)w.ldv, &one, w.y, (int)w.ldy);
    if (below > 0) {
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, below, nb, nb, &one,
                    w.c + nb, (int)w.ldc, w.v, (int)w.ldv, &one, w.y + nb, (int)w.ldy);
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, nb, nb, below, &one,
                    w.c + nb, (int)w.ldc, w.v + nb, (int)w.ldv, &one, w.y, (int)w.ldy);
    }
}

#ifdef STARTRD_USE_CUDA
static void hemm_column_cuda(void *buffers[], void *cl_arg)
{
    const struct hemm_column_args *a = cl_arg;
    struct column_view w = view(buffers, a);
    const cuDoubleComplex one = {1.0, 0.0};
    cublasHandle_t h = starpu_cublas_get_local_handle();
    int nb = (int)w.nb, below = (int)(w.m - w.nb);
    cublasStatus_t st;

    if (a->zero_y) {
        cudaError_t ce = cudaMemset2DAsync(
            (void *)STARPU_MATRIX_GET_PTR(buffers[2]), (size_t)w.ldy * sizeof(double complex), 0,
            STARPU_MATRIX_GET_NX(buffers[2]) * sizeof(double complex),
            STARPU_MATRIX_GET_NY(buffers[2]), starpu_cuda_get_local_stream());
        if (ce != cudaSuccess)
            startrd_kernel_failure("hemm_column", "cudaMemset2DAsync", ce);
    }
    st = cublasZhemm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, nb, nb, &one,
                     (cuDoubleComplex *)w.c, (int)w.ldc, (cuDoubleComplex *)w.v, (int)w.ldv,
                     &one, (cuDoubleComplex *)w.y, (int)w.ldy);
    if (st == CUBLAS_STATUS_SUCCESS && below > 0)
        st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, below, nb, nb, &one,
                         (cuDoubleComplex *)w.c + nb, (int)w.ldc, (cuDoubleComplex *)w.v, (int)w.ldv,
                         &one, (cuDoubleComplex *)w.y + nb, (int)w.ldy);
    if (st == CUBLAS_STATUS_SUCCESS && below > 0)
        st = cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, nb, nb, below, &one,
                         (cuDoubleComplex *)w.c + nb, (int)w.ldc, (cuDoubleComplex *)w.v + nb, (int)w.ldv,
                         &one, (cuDoubleComplex *)w.y, (int)w.ldy);
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("hemm_column", "cuBLAS", st);
}
#endif

static struct starpu_perfmodel hemm_column_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "startrd_zhemm_column",
};

/* The first task on Y only writes it: StarPU then neither fetches nor
 * requires an earlier value, so a codelet of its own with mode W. */
#ifdef STARTRD_USE_CUDA
#define HEMM_COLUMN_CUDA .cuda_funcs = {hemm_column_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC},
#else
#define HEMM_COLUMN_CUDA
#endif
static struct starpu_codelet hemm_column_codelet[2] = {
    {.name = "zhemm_column", .cpu_funcs = {hemm_column_cpu}, HEMM_COLUMN_CUDA .nbuffers = 3,
     .modes = {STARPU_R, STARPU_R, STARPU_RW}, .model = &hemm_column_model},
    {.name = "zhemm_column", .cpu_funcs = {hemm_column_cpu}, HEMM_COLUMN_CUDA .nbuffers = 3,
     .modes = {STARPU_R, STARPU_R, STARPU_W}, .model = &hemm_column_model},
};

int startrd_task_zhemm_column(startrd_place_t place, starpu_data_handle_t column, int64_t row,
                              starpu_data_handle_t V, starpu_data_handle_t Y, int zero_y)
{
    struct hemm_column_args *args = malloc(sizeof *args);
    double m = (double)starpu_matrix_get_nx(column), nb = (double)starpu_matrix_get_ny(column);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct hemm_column_args){row, zero_y};
    return starpu_task_insert(&hemm_column_codelet[zero_y != 0],
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, column, STARPU_R, V, zero_y ? STARPU_W : STARPU_RW, Y,
                              STARPU_EXECUTE_ON_WORKER, place.worker,
                              STARPU_PRIORITY, place.priority,
                              STARPU_FLOPS, 8.0 * nb * nb * (2.0 * m - nb),
                              0);
}
