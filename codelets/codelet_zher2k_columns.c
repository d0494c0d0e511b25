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

struct update_piece {
    startrd_piece_t p;
    int nv, below, ldv, ldw;
    const double complex *v, *w;   /* at the piece's first row */
};

static int next_piece(void *buffers[], int i, struct update_piece *u)
{
    int next = startrd_next_piece(buffers, i, startrd_current_nbuffers(),
                                  STARPU_MATRIX_GET_NX(buffers[BUF_V]), &u->p);

    u->nv = (int)STARPU_MATRIX_GET_NY(buffers[BUF_V]);
    u->below = u->p.m - u->p.w;
    u->ldv = (int)STARPU_MATRIX_GET_LD(buffers[BUF_V]);
    u->v = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_V]) + u->p.row;
    u->ldw = (int)STARPU_MATRIX_GET_LD(buffers[BUF_W]);
    u->w = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_W]) + u->p.row;
    return next;
}

static void her2k_columns_cpu(void *buffers[], void *cl_arg)
{
    const double complex one = 1.0, mone = -1.0;
    struct update_piece u;

    (void)cl_arg;
    for (int i = BUF_FIRST_COLUMN, next; i < startrd_current_nbuffers(); i = next) {
        next = next_piece(buffers, i, &u);
        cblas_zher2k(CblasColMajor, CblasLower, CblasNoTrans, u.p.w, u.nv, &mone, u.w, u.ldw,
                     u.v, u.ldv, 1.0, u.p.c, u.p.ld);
        if (u.below == 0)
            continue;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, u.below, u.p.w, u.nv, &mone,
                    u.w + u.p.w, u.ldw, u.v, u.ldv, &one, u.p.c + u.p.w, u.p.ld);
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, u.below, u.p.w, u.nv, &mone,
                    u.v + u.p.w, u.ldv, u.w, u.ldw, &one, u.p.c + u.p.w, u.p.ld);
    }
}

#ifdef STARTRD_USE_CUDA
static void her2k_columns_cuda(void *buffers[], void *cl_arg)
{
    const cuDoubleComplex one = {1.0, 0.0}, mone = {-1.0, 0.0};
    const double rone = 1.0;
    cublasHandle_t h = starpu_cublas_get_local_handle();
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    struct update_piece u;

    (void)cl_arg;
    for (int i = BUF_FIRST_COLUMN, next; i < startrd_current_nbuffers() && st == CUBLAS_STATUS_SUCCESS; i = next) {
        next = next_piece(buffers, i, &u);
        const cuDoubleComplex *v = (const cuDoubleComplex *)u.v, *w = (const cuDoubleComplex *)u.w;
        cuDoubleComplex *c = (cuDoubleComplex *)u.p.c;

        st = cublasZher2k(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, u.p.w, u.nv, &mone, w, u.ldw, v, u.ldv,
                          &rone, c, u.p.ld);
        if (st == CUBLAS_STATUS_SUCCESS && u.below > 0)
            st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, u.below, u.p.w, u.nv, &mone, w + u.p.w, u.ldw,
                             v, u.ldv, &one, c + u.p.w, u.p.ld);
        if (st == CUBLAS_STATUS_SUCCESS && u.below > 0)
            st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, u.below, u.p.w, u.nv, &mone, v + u.p.w, u.ldv,
                             w, u.ldw, &one, c + u.p.w, u.p.ld);
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
