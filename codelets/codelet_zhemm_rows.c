/* The block rows of X = A22 * V that belong to the block columns a worker
 * owns, for the stage-1 scheme that keeps both triangles of A: block row j
 * of the Hermitian A22 is the conjugate transpose of block column j, so
 *     X[j] = A22(:, j)^H * V
 * is one GEMM per piece of side-by-side block columns (column_pieces.h),
 * complete without any other worker's columns: no partial products to sum.
 * The rows go, in the task's column order, to a compact buffer X from row
 * xrow, which alone travels to the other workers (codelet_zgather_rows.c).
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "cuda_zgemm.h"
#include "column_pieces.h"
#include "error.h"
#include "scalars.h"

#include <cblas.h>
#include <stdlib.h>

enum { BUF_V, BUF_X, BUF_FIRST_COLUMN };

static void hemm_rows_cpu(void *buffers[], void *cl_arg)
{
    const startrd_full_args_t *a = cl_arg;
    const double complex one = 1.0, zero = 0.0;
    const double complex *v = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_V]) + a->row0;
    double complex *x = (double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_X]) + a->xrow;
    int ldv = (int)STARPU_MATRIX_GET_LD(buffers[BUF_V]), ldx = (int)STARPU_MATRIX_GET_LD(buffers[BUF_X]);
    int nb = (int)STARPU_MATRIX_GET_NY(buffers[BUF_V]);
    startrd_full_piece_t h;

    for (int i = BUF_FIRST_COLUMN, next; i < startrd_current_nbuffers(); i = next, x += h.w) {
        next = startrd_next_full_piece(buffers, BUF_FIRST_COLUMN, i, startrd_current_nbuffers(), a->jcol, a->row0, &h);
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, h.w, nb, h.m, STARTRD_Z_CBLAS(one), h.c, h.ld, v,
                    ldv, STARTRD_Z_CBLAS(zero), x, ldx);
    }
}

#ifdef STARTRD_USE_CUDA
static void hemm_rows_cuda(void *buffers[], void *cl_arg)
{
    const startrd_full_args_t *a = cl_arg;
    const cuDoubleComplex one = STARTRD_Z_ONE, zero = STARTRD_Z_ZERO;
    const cuDoubleComplex *v = (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[BUF_V]) + a->row0;
    cuDoubleComplex *x = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[BUF_X]) + a->xrow;
    int ldv = (int)STARPU_MATRIX_GET_LD(buffers[BUF_V]), ldx = (int)STARPU_MATRIX_GET_LD(buffers[BUF_X]);
    int nb = (int)STARPU_MATRIX_GET_NY(buffers[BUF_V]);
    cublasHandle_t hd = starpu_cublas_get_local_handle();
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    startrd_full_piece_t h;

    for (int i = BUF_FIRST_COLUMN, next; i < startrd_current_nbuffers() && st == CUBLAS_STATUS_SUCCESS;
         i = next, x += h.w) {
        next = startrd_next_full_piece(buffers, BUF_FIRST_COLUMN, i, startrd_current_nbuffers(), a->jcol, a->row0, &h);
        st = startrd_cuda_zgemm(hd, CUBLAS_OP_C, CUBLAS_OP_N, h.w, nb, h.m, &one, (const cuDoubleComplex *)h.c,
                                h.ld, v, ldv, &zero, x, ldx);
    }
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("hemm_rows", "startrd_cuda_zgemm", st);
}
#endif

STARTRD_HISTORY_MODEL_FOOTPRINT(hemm_rows_model, "startrd_zhemm_rows", startrd_row0_footprint);

static struct starpu_codelet hemm_rows_codelet = {
    .name = "zhemm_rows",
    .cpu_funcs = {hemm_rows_cpu},
    STARTRD_CUDA_ASYNC(hemm_rows_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &hemm_rows_model,
};

int startrd_task_zhemm_rows(startrd_place_t place, starpu_data_handle_t V, starpu_data_handle_t X, int64_t xrow,
                            int64_t row0, int ncolumns, const starpu_data_handle_t *columns, const int64_t *jcol)
{
    /* The task that writes X from its first row needs none of its old rows. */
    const struct starpu_data_descr ws[] = {{V, STARPU_R}, {X, xrow == 0 ? STARPU_W : STARPU_RW}};
    double flops = 0.0;

    for (int i = 0; i < ncolumns; i++)
        flops += 8.0 * (double)(starpu_matrix_get_nx(columns[i]) - row0) * (double)starpu_matrix_get_ny(columns[i]) *
                 (double)starpu_matrix_get_ny(V);
    return startrd_insert_full_columns_task(&hemm_rows_codelet, BUF_FIRST_COLUMN, ws, row0, xrow, ncolumns, columns,
                                            jcol, STARPU_R, place, flops);
}
