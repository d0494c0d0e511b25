/* The two-sided update of block columns of the trailing matrix,
 *     C -= W * V[C]^H + V * W[C]^H.
 * On each piece of block columns (see column_pieces.h) that is a HER2K on
 * the diagonal block, which writes its lower triangle only, and two GEMMs
 * on the rows below it.  V and W are full-height workspaces indexed by
 * absolute row.  One task updates all the columns one worker owns in a
 * step. */
#include "codelets.h"
#include "column_pieces.h"
#include "error.h"

#include <cblas.h>
#include <stdlib.h>

enum { BUF_V, BUF_W, BUF_FIRST_COLUMN };

static void her2k_columns_cpu(void *buffers[], void *cl_arg)
{
    const double complex one = 1.0, mone = -1.0;
    startrd_piece_t u;

    (void)cl_arg;
    for (int i = BUF_FIRST_COLUMN, next; i < startrd_current_nbuffers(); i = next) {
        next = startrd_next_piece(buffers, i, startrd_current_nbuffers(), &u);
        const double complex *v = u.ws[BUF_V], *w = u.ws[BUF_W];
        int ldv = u.ldws[BUF_V], ldw = u.ldws[BUF_W];

        cblas_zher2k(CblasColMajor, CblasLower, CblasNoTrans, u.w, u.nv, &mone, w, ldw,
                     v, ldv, 1.0, u.c, u.ld);
        if (u.below == 0)
            continue;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, u.below, u.w, u.nv, &mone,
                    w + u.w, ldw, v, ldv, &one, u.c + u.w, u.ld);
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, u.below, u.w, u.nv, &mone,
                    v + u.w, ldv, w, ldw, &one, u.c + u.w, u.ld);
    }
}

#ifdef STARTRD_USE_CUDA
static void her2k_columns_cuda(void *buffers[], void *cl_arg)
{
    const cuDoubleComplex one = {1.0, 0.0}, mone = {-1.0, 0.0};
    const double rone = 1.0;
    cublasHandle_t h = starpu_cublas_get_local_handle();
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    startrd_piece_t u;

    (void)cl_arg;
    for (int i = BUF_FIRST_COLUMN, next; i < startrd_current_nbuffers() && st == CUBLAS_STATUS_SUCCESS; i = next) {
        next = startrd_next_piece(buffers, i, startrd_current_nbuffers(), &u);
        const cuDoubleComplex *v = (const cuDoubleComplex *)u.ws[BUF_V], *w = (const cuDoubleComplex *)u.ws[BUF_W];
        cuDoubleComplex *c = (cuDoubleComplex *)u.c;
        int ldv = u.ldws[BUF_V], ldw = u.ldws[BUF_W];

        st = cublasZher2k(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, u.w, u.nv, &mone, w, ldw, v, ldv,
                          &rone, c, u.ld);
        if (st == CUBLAS_STATUS_SUCCESS && u.below > 0)
            st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, u.below, u.w, u.nv, &mone, w + u.w, ldw,
                             v, ldv, &one, c + u.w, u.ld);
        if (st == CUBLAS_STATUS_SUCCESS && u.below > 0)
            st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, u.below, u.w, u.nv, &mone, v + u.w, ldv,
                             w, ldw, &one, c + u.w, u.ld);
    }
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("her2k_columns", "cuBLAS", st);
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
    struct starpu_data_descr *descr = startrd_pieces_descr(V, STARPU_R, W, STARPU_R, ncolumns, columns, STARPU_RW);
    double flops = 0.0;
    int ret;

    if (descr == NULL)
        return -ENOMEM;
    for (int i = 0; i < ncolumns; i++) {
        double m = (double)starpu_matrix_get_nx(columns[i]), nb = (double)starpu_matrix_get_ny(columns[i]);

        flops += 16.0 * m * nb * nb;
    }
    ret = starpu_task_insert(&her2k_columns_codelet,
                             STARPU_DATA_MODE_ARRAY, descr, ncolumns + 2,
                             STARTRD_PLACE_ARGS(place),
                             STARPU_FLOPS, flops,
                             0);
    free(descr);
    return ret;
}
