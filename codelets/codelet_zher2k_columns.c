/* The two-sided update of block columns of the trailing matrix,
 *     C -= W * V[C]^H + V * W[C]^H.
 * (Given two steps' pair [W0 W V0 V W0 W] for P, everything below reads
 * [W0 W] for W and [V0 V] for V: both steps' updates at once, rank 4nb.)
 * On each piece of block columns (see column_pieces.h) that is a HER2K on
 * the diagonal block, which writes its lower triangle only, and below it
 * one GEMM of rank 2nb,
 *     C[B] -= [W[B] V[B]] * [V[P] W[P]]^H,
 * whose two operands are column ranges of one workspace P = [W V W]: one
 * pass over C instead of two, which runs at a higher rate than two GEMMs of
 * rank 64 (docs/architecture.md, "One GEMM of rank 2nb").  P is
 * full-height, indexed by absolute row.  One task updates all the columns
 * one worker owns in a step.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "column_pieces.h"
#include "cuda_lanes.h"
#include "kernels_stage1_z.h"

#include <stdlib.h>

enum { BUF_P, BUF_FIRST_COLUMN };

static void her2k_columns_cpu(void *buffers[], void *cl_arg)
{
    startrd_piece_t u;

    (void)cl_arg;
    for (int i = BUF_FIRST_COLUMN, next; i < startrd_current_nbuffers(); i = next) {
        next = startrd_next_piece(buffers, BUF_FIRST_COLUMN, i, startrd_current_nbuffers(), &u);
        startrd_zher2k_piece_cpu(&u);
    }
}

#ifdef STARTRD_USE_CUDA
/* Pieces are disjoint: they go round the worker's stream and its lanes,
 * whose calls then fill the GPU together where one alone would not (the
 * small pieces near the end); or, for a task beside a panel, round the
 * narrow lanes, which leave the panel multiprocessors of its own. */
static void her2k_columns_cuda(void *buffers[], void *cl_arg)
{
    cublasHandle_t blas[STARTRD_CUDA_MAX_LANES + 1];
    const startrd_cuda_lanes_t *lanes;
    startrd_piece_t u;
    int narrow, nblas = 0;

    starpu_codelet_unpack_args(cl_arg, &narrow);
    if ((lanes = narrow ? startrd_cuda_fork_narrow() : startrd_cuda_fork()) == NULL)
        return;
    if (lanes->beside)
        blas[nblas++] = starpu_cublas_get_local_handle();
    for (int i = 0; i < lanes->count; i++)
        blas[nblas++] = lanes->blas[i];
    for (int i = BUF_FIRST_COLUMN, next, lane = 0; i < startrd_current_nbuffers();
         i = next, lane = (lane + 1) % nblas) {
        next = startrd_next_piece(buffers, BUF_FIRST_COLUMN, i, startrd_current_nbuffers(), &u);
        if (startrd_zher2k_piece_cuda(blas[lane], &u, "her2k_columns") != 0)
            break;
    }
    startrd_cuda_join(lanes);
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

int startrd_task_zher2k_columns(startrd_place_t place, starpu_data_handle_t P,
                                int ncolumns, const starpu_data_handle_t *columns, int narrow)
{
    const struct starpu_data_descr ws[] = {{P, STARPU_R}};
    struct starpu_data_descr *descr = startrd_pieces_descr(BUF_FIRST_COLUMN, ws, ncolumns, columns, STARPU_RW);
    double flops = 0.0, rank = 2.0 * (double)(starpu_matrix_get_ny(P) / 3);
    int ret;

    if (descr == NULL)
        return -ENOMEM;
    for (int i = 0; i < ncolumns; i++) {
        double m = (double)starpu_matrix_get_nx(columns[i]), nb = (double)starpu_matrix_get_ny(columns[i]);

        flops += 8.0 * m * nb * rank;
    }
    ret = starpu_task_insert(&her2k_columns_codelet,
                             STARPU_DATA_MODE_ARRAY, descr, ncolumns + BUF_FIRST_COLUMN,
                             STARTRD_PLACE_ARGS(place),
                             STARPU_VALUE, &narrow, sizeof narrow,
                             STARPU_FLOPS, flops,
                             0);
    free(descr);
    return ret;
}
