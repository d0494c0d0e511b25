/* The two-sided update of block columns of the trailing matrix,
 *     C -= W * V[j]^H + V * W[j]^H,
 * as two GEMMs over each whole column, diagonal tile included: the diagonal
 * tile's strictly upper triangle is not part of the lower storage, so it
 * serves as scratch instead of costing a separate HER2K call.  V and W are
 * full-height workspaces indexed by absolute row; a column of height m starts
 * at row height(V) - m.  One task updates all the columns one worker owns
 * in a step. */
#include "codelets.h"
#include "error.h"

#include <cblas.h>
#include <stdlib.h>

enum { BUF_V, BUF_W, BUF_FIRST_COLUMN };

struct update_view {
    int m, nb, ldc, ldv, ldw;
    double complex *c;
    const double complex *v, *w;
};

static struct update_view view(void *buffers[], int i)
{
    struct update_view u;
    int64_t row = STARPU_MATRIX_GET_NX(buffers[BUF_V]) - STARPU_MATRIX_GET_NX(buffers[i]);

    u.m = (int)STARPU_MATRIX_GET_NX(buffers[i]);
    u.nb = (int)STARPU_MATRIX_GET_NY(buffers[i]);
    u.c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[i]);
    u.ldc = (int)STARPU_MATRIX_GET_LD(buffers[i]);
    u.v = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_V]) + row;
    u.ldv = (int)STARPU_MATRIX_GET_LD(buffers[BUF_V]);
    u.w = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_W]) + row;
    u.ldw = (int)STARPU_MATRIX_GET_LD(buffers[BUF_W]);
    return u;
}

static void her2k_columns_cpu(void *buffers[], void *cl_arg)
{
    const double complex one = 1.0, mone = -1.0;

    (void)cl_arg;
    for (int i = BUF_FIRST_COLUMN; i < startrd_current_nbuffers(); i++) {
        struct update_view u = view(buffers, i);

        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, u.m, u.nb, u.nb, &mone,
                    u.w, u.ldw, u.v, u.ldv, &one, u.c, u.ldc);
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, u.m, u.nb, u.nb, &mone,
                    u.v, u.ldv, u.w, u.ldw, &one, u.c, u.ldc);
    }
}

#ifdef STARTRD_USE_CUDA
static void her2k_columns_cuda(void *buffers[], void *cl_arg)
{
    const cuDoubleComplex one = {1.0, 0.0}, mone = {-1.0, 0.0};
    cublasHandle_t h = starpu_cublas_get_local_handle();
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;

    (void)cl_arg;
    for (int i = BUF_FIRST_COLUMN; i < startrd_current_nbuffers() && st == CUBLAS_STATUS_SUCCESS; i++) {
        struct update_view u = view(buffers, i);
        const cuDoubleComplex *v = (const cuDoubleComplex *)u.v, *w = (const cuDoubleComplex *)u.w;

        st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, u.m, u.nb, u.nb, &mone, w, u.ldw, v, u.ldv,
                         &one, (cuDoubleComplex *)u.c, u.ldc);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, u.m, u.nb, u.nb, &mone, v, u.ldv, w, u.ldw,
                             &one, (cuDoubleComplex *)u.c, u.ldc);
    }
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("her2k_columns", "cublasZgemm", st);
}
#endif

STARTRD_HISTORY_MODEL(her2k_columns_model, "startrd_zher2k_columns");

static struct starpu_codelet her2k_columns_codelet = {
    .name = "zher2k_columns",
    .cpu_funcs = {her2k_columns_cpu},
    STARTRD_CUDA_ASYNC(her2k_columns_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &her2k_columns_model,
};

int startrd_task_zher2k_columns(startrd_place_t place, starpu_data_handle_t V, starpu_data_handle_t W,
                                int ncolumns, const starpu_data_handle_t *columns)
{
    struct starpu_data_descr *descr = malloc((size_t)(ncolumns + 2) * sizeof *descr);
    double flops = 0.0;
    int ret;

    if (descr == NULL)
        return -ENOMEM;
    descr[BUF_V] = (struct starpu_data_descr){V, STARPU_R};
    descr[BUF_W] = (struct starpu_data_descr){W, STARPU_R};
    for (int i = 0; i < ncolumns; i++) {
        descr[BUF_FIRST_COLUMN + i] = (struct starpu_data_descr){columns[i], STARPU_RW};
        flops += 16.0 * (double)starpu_matrix_get_nx(columns[i]) * (double)starpu_matrix_get_ny(columns[i]) *
                 (double)starpu_matrix_get_ny(columns[i]);
    }
    ret = starpu_task_insert(&her2k_columns_codelet,
                             STARPU_DATA_MODE_ARRAY, descr, ncolumns + 2,
                             STARTRD_PLACE_ARGS(place),
                             STARPU_FLOPS, flops,
                             0);
    free(descr);
    return ret;
}
