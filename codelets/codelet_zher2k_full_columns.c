/* The two-sided update of block columns that keep both triangles,
 *     C(row0:, :) -= W * V[C]^H + V * W[C]^H = [W V] * [V W][C]^H,
 * over every row of the trailing matrix, so that the upper triangle stays
 * the conjugate transpose of the lower one: one GEMM of rank 2nb per piece
 * (column_pieces.h), twice the flops of the lower-only update.  P = [W V W]
 * is full-height, indexed by absolute row; [W V] and [V W] are its column
 * ranges 0 .. 2nb-1 and nb .. 3nb-1.  In the complex precisions the GEMM
 * leaves rounding errors in the imaginary parts of the diagonal, which are
 * set to zero (kernels_stage1_z.h).
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "codelets_z.h"
#include "cuda_zgemm.h"
#include "column_pieces.h"
#include "error.h"
#include "kernels_stage1_z.h"
#include "scalars.h"

#include <cblas.h>
#include <stdlib.h>

enum { BUF_P, BUF_FIRST_COLUMN };

static void her2k_full_cpu(void *buffers[], void *cl_arg)
{
    const startrd_full_args_t *a = cl_arg;
    const double complex one = 1.0, mone = -1.0;
    const double complex *p = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_P]);
    int ldp = (int)STARPU_MATRIX_GET_LD(buffers[BUF_P]), nb = (int)STARPU_MATRIX_GET_NY(buffers[BUF_P]) / 3;
    startrd_full_piece_t u;

    for (int i = BUF_FIRST_COLUMN, next; i < startrd_current_nbuffers(); i = next) {
        next = startrd_next_full_piece(buffers, BUF_FIRST_COLUMN, i, startrd_current_nbuffers(), a->jcol, a->row0, &u);
        double complex *c = u.c;

        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, u.m, u.w, 2 * nb, STARTRD_Z_CBLAS(mone),
                    p + a->row0, ldp, p + (size_t)nb * (size_t)ldp + u.j0 * nb, ldp, STARTRD_Z_CBLAS(one), c, u.ld);
#ifdef COMPLEX
        startrd_zreal_diagonal(c + (u.j0 * nb - a->row0), u.ld, u.w);
#endif
    }
}

#ifdef STARTRD_USE_CUDA
static void her2k_full_cuda(void *buffers[], void *cl_arg)
{
    const startrd_full_args_t *a = cl_arg;
    const cuDoubleComplex one = STARTRD_Z_ONE, mone = STARTRD_Z_MONE;
    const cuDoubleComplex *p = (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[BUF_P]);
    int ldp = (int)STARPU_MATRIX_GET_LD(buffers[BUF_P]), nb = (int)STARPU_MATRIX_GET_NY(buffers[BUF_P]) / 3;
    cublasHandle_t h = starpu_cublas_get_local_handle();
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    cudaError_t ce = cudaSuccess;
    startrd_full_piece_t u;

    for (int i = BUF_FIRST_COLUMN, next; i < startrd_current_nbuffers() && st == CUBLAS_STATUS_SUCCESS &&
                                         ce == cudaSuccess; i = next) {
        next = startrd_next_full_piece(buffers, BUF_FIRST_COLUMN, i, startrd_current_nbuffers(), a->jcol, a->row0, &u);
        cuDoubleComplex *c = u.c;

        st = startrd_cuda_zgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, u.m, u.w, 2 * nb, &mone, p + a->row0, ldp,
                                p + (size_t)nb * (size_t)ldp + u.j0 * nb, ldp, &one, c, u.ld);
#ifdef COMPLEX
        if (st == CUBLAS_STATUS_SUCCESS)
            ce = startrd_cuda_zreal_diagonal(c + (u.j0 * nb - a->row0), u.ld, u.w, starpu_cuda_get_local_stream());
#endif
    }
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("her2k_full_columns", "startrd_cuda_zgemm", st);
    if (ce != cudaSuccess)
        startrd_kernel_failure("her2k_full_columns", "cudaMemset2DAsync", ce);
}
#endif

STARTRD_HISTORY_MODEL_FOOTPRINT(her2k_full_model, "startrd_zher2k_full_columns", startrd_row0_footprint);

static struct starpu_codelet her2k_full_codelet = {
    .name = "zher2k_full_columns",
    .cpu_funcs = {her2k_full_cpu},
    STARTRD_CUDA_ASYNC(her2k_full_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &her2k_full_model,
};

int startrd_task_zher2k_full_columns(startrd_place_t place, starpu_data_handle_t P, int64_t row0,
                                     int ncolumns, const starpu_data_handle_t *columns, const int64_t *jcol)
{
    const struct starpu_data_descr ws[] = {{P, STARPU_R}};
    double flops = 0.0;

    for (int i = 0; i < ncolumns; i++) {
        double m = (double)(starpu_matrix_get_nx(columns[i]) - row0), nb = (double)starpu_matrix_get_ny(columns[i]);

        flops += 16.0 * m * nb * nb;
    }
    return startrd_insert_full_columns_task(&her2k_full_codelet, BUF_FIRST_COLUMN, ws, row0, 0, ncolumns, columns,
                                            jcol, STARPU_RW, place, flops);
}
