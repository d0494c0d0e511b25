/* Block columns' share of Y = A22 * V, A22 Hermitian in lower storage.  A
 * piece of block columns (see column_pieces.h) holds its diagonal block P
 * (lower triangle valid) and the rows below it, B; its contribution to Y is
 *     Y[P]     += A_PP * V[P] + A_BP^H * V[B]
 *     Y[B]     += A_BP * V[P]
 * so one pass over the piece covers both triangles of A22 (the paper's
 * column-oriented HEMM).  V and Y are full-height workspaces indexed by
 * absolute row.  One task takes all the block columns one worker owns in a
 * step.  The task that first touches Y zeroes it, so partial products need
 * no separate initialisation task.  The only partial product of a step
 * forms P = [W V W] at its end (kernels_stage1.h): the buffers T, ZM and P (and,
 * after a deferred update, the previous P and the pair) then follow the
 * block columns.  On two GPUs each one's task forms P from both partial
 * products, reading the other's where it lies once the other task's stream
 * has computed it (cuda_signal.h): the products then need neither a copy
 * to the other GPU nor a task of W after a runtime round trip (from the
 * later HEMM's end to W's start; docs/architecture.md, "Two GPUs meet on
 * the devices").
 * On a GPU that task takes a trailing matrix of up to whole_hemm_max_rows
 * rows (tuning.h) in one cuBLAS ZHEMM instead of pieces.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "column_pieces.h"
#include "cuda_lanes.h"
#include "cuda_zgemm.h"
#include "error.h"
#include "kernels_stage1_z.h"
#include "scalars.h"
#include "tuning.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

enum { BUF_V, BUF_Y, BUF_FIRST_COLUMN };
enum { FORM_T, FORM_ZM, FORM_P, FORM_PREV, FORM_PAIR };

struct hemm_columns_args {
    int zero_y;       /* this task is the first to write Y */
    int form_w;       /* buffers after the columns (T, ZM, P, and prev and pair where paired):
                       * this task forms P from the total Y; 0 if not */
    int64_t row0;     /* the trailing matrix's first row, for forming P */
    int64_t prev_row0;   /* and the previous step's deferred update's */
    int has_peer;        /* P is formed from this Y and peer's */
    startrd_peer_product_t peer;
    startrd_step_signal_t after;   /* the products wait for it; none if NULL */
    startrd_step_signal_t t_done;  /* forming P waits for it; none if NULL */
};

/* The buffer after the last block column. */
static int columns_end(const struct hemm_columns_args *a)
{
    return startrd_current_nbuffers() - a->form_w;
}

static startrd_wvw_operands_t wvw_operands(void *buffers[], const struct hemm_columns_args *a)
{
    void **form = buffers + columns_end(a);
    int paired = a->form_w > FORM_PREV;

    return (startrd_wvw_operands_t){buffers[BUF_Y], NULL, buffers[BUF_V], form[FORM_T], form[FORM_ZM],
                                    form[FORM_P], paired ? form[FORM_PREV] : NULL, paired ? form[FORM_PAIR] : NULL,
                                    a->row0, a->prev_row0};
}

static void hemm_columns_cpu(void *buffers[], void *cl_arg)
{
    const struct hemm_columns_args *a = cl_arg;
    const double complex one = 1.0;
    startrd_piece_t h;

    if (a->zero_y) {
        double complex *y = (double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_Y]);
        size_t rows = STARPU_MATRIX_GET_NX(buffers[BUF_Y]), ld = STARPU_MATRIX_GET_LD(buffers[BUF_Y]);

        for (size_t c = 0; c < STARPU_MATRIX_GET_NY(buffers[BUF_Y]); c++)
            memset(y + c * ld, 0, rows * sizeof *y);
    }
    for (int i = BUF_FIRST_COLUMN, next; i < columns_end(a); i = next) {
        next = startrd_next_piece(buffers, BUF_FIRST_COLUMN, i, columns_end(a), &h);
        const double complex *c = h.c, *v = h.ws[BUF_V];
        double complex *y = h.ws[BUF_Y];
        int ldv = h.ldws[BUF_V], ldy = h.ldws[BUF_Y];

        cblas_zhemm(CblasColMajor, CblasLeft, CblasLower, h.w, h.nv, STARTRD_Z_CBLAS(one), c, h.ld,
                    v, ldv, STARTRD_Z_CBLAS(one), y, ldy);
        if (h.below == 0)
            continue;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, h.below, h.nv, h.w, STARTRD_Z_CBLAS(one),
                    c + h.w, h.ld, v, ldv, STARTRD_Z_CBLAS(one), y + h.w, ldy);
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, h.w, h.nv, h.below, STARTRD_Z_CBLAS(one),
                    c + h.w, h.ld, v + h.w, ldv, STARTRD_Z_CBLAS(one), y, ldy);
    }
    if (a->has_peer || a->after.signal != NULL || a->t_done.signal != NULL) {
        startrd_kernel_failure("hemm_columns", "a signal between GPU streams on a CPU worker", -1);
    } else if (a->form_w) {
        startrd_wvw_operands_t o = wvw_operands(buffers, a);

        startrd_zform_wvw_cpu(&o);
    }
}

#ifdef STARTRD_USE_CUDA
/* P from this task's Y or, with a peer, from the sum of both GPUs' once
 * the other's is complete, and once T is there where the panel task posts
 * it: T is formed beside the products, off the chain from one panel to
 * the next.  With a peer it runs even after a failure, so that the other
 * task's stream does not wait in vain. */
static void form_cuda(void *buffers[], const struct hemm_columns_args *a)
{
    startrd_wvw_operands_t o = wvw_operands(buffers, a);
    struct starpu_matrix_interface peer;

    if (a->has_peer) {
        if (startrd_cuda_signal_post(a->peer.mine, a->peer.step) != 0 ||
            startrd_cuda_signal_wait(a->peer.theirs, a->peer.step) != 0)
            return;
        peer = *(const struct starpu_matrix_interface *)o.y;
        peer.ptr = peer.dev_handle = a->peer.peer_y;
        peer.offset = 0;
        o.y2 = a->peer.side == 0 ? (void *)&peer : o.y;
        o.y = a->peer.side == 0 ? o.y : (void *)&peer;
    }
    if (a->t_done.signal != NULL && startrd_cuda_signal_wait(a->t_done.signal, a->t_done.step) != 0)
        return;
    startrd_zform_wvw_cuda(&o);
}

/* Y = A22 * V by one ZHEMM over the task's trapezoid, then P; 0 where the
 * task does not qualify.  Y's rows above A22 are left as they were: this
 * task, which computes all of Y, is its only reader. */
static int hemm_whole_cuda(void *buffers[], const struct hemm_columns_args *a)
{
    const cuDoubleComplex one = STARTRD_Z_ONE, zero = STARTRD_Z_ZERO;
    void *first = buffers[BUF_FIRST_COLUMN];
    int64_t rows = STARPU_MATRIX_GET_NX(buffers[BUF_Y]), m = STARPU_MATRIX_GET_NX(first);
    cublasStatus_t st;

    /* Trailing matrices up to some order go to one cuBLAS ZHEMM when a
     * single task holds all of them (tuning.h). */
    if (!a->zero_y || !a->form_w || a->has_peer || m > startrd_tuning()->whole_hemm_max_rows)
        return 0;
    for (int j = BUF_FIRST_COLUMN + 1; j < columns_end(a); j++)
        if (!startrd_continues(buffers, j))
            return 0;
    st = cublasZhemm(starpu_cublas_get_local_handle(), CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, (int)m,
                     (int)STARPU_MATRIX_GET_NY(buffers[BUF_Y]), &one,
                     (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(first), (int)STARPU_MATRIX_GET_LD(first),
                     (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[BUF_V]) + (rows - m),
                     (int)STARPU_MATRIX_GET_LD(buffers[BUF_V]), &zero,
                     (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[BUF_Y]) + (rows - m),
                     (int)STARPU_MATRIX_GET_LD(buffers[BUF_Y]));
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("hemm_columns", "cublasZhemm", st);
    if (st == CUBLAS_STATUS_SUCCESS || a->has_peer)
        form_cuda(buffers, a);
    return 1;
}

/* Y[B] += A_BP * V[P] accumulates into rows that later pieces' own terms
 * write too, so those calls stay on the worker's stream, in order; the
 * terms of Y[P], row-disjoint between pieces, go to the lanes, into a
 * separate buffer D (rows from the first piece's down) added to Y at the
 * end.  A_BP^H * V[B] is the call that fills the GPU worst on its own
 * (a piece-wide x 64 product with a long inner dimension). */
static void hemm_pieces_cuda(void *buffers[], const struct hemm_columns_args *a)
{
    const cuDoubleComplex one = STARTRD_Z_ONE;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cublasHandle_t hd = starpu_cublas_get_local_handle();
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    cuDoubleComplex *y0 = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[BUF_Y]), *d = NULL;
    int ldy = (int)STARPU_MATRIX_GET_LD(buffers[BUF_Y]), nv = (int)STARPU_MATRIX_GET_NY(buffers[BUF_Y]);
    int64_t rows = STARPU_MATRIX_GET_NX(buffers[BUF_Y]);
    /* The first piece starts highest: D covers the rows from there down. */
    int64_t first = rows - (int64_t)STARPU_MATRIX_GET_NX(buffers[BUF_FIRST_COLUMN]), drows = rows - first;
    const startrd_cuda_lanes_t *lanes;
    cudaError_t ce = cudaSuccess;
    startrd_piece_t h;

    if (a->zero_y)
        ce = cudaMemset2DAsync(y0, (size_t)ldy * sizeof *y0, 0, (size_t)rows * sizeof *y0, (size_t)nv, stream);
    if (ce == cudaSuccess)
        ce = cudaMallocAsync((void **)&d, (size_t)drows * (size_t)nv * sizeof *d, stream);
    if (ce == cudaSuccess)
        ce = cudaMemsetAsync(d, 0, (size_t)drows * (size_t)nv * sizeof *d, stream);
    if (ce != cudaSuccess) {
        startrd_kernel_failure("hemm_columns", "cudaMemset2DAsync/cudaMallocAsync/cudaMemsetAsync", ce);
        return;
    }
    if ((lanes = startrd_cuda_fork()) == NULL) {
        cudaFreeAsync(d, stream);
        return;
    }
    for (int i = BUF_FIRST_COLUMN, next, lane = 0; i < columns_end(a) && st == CUBLAS_STATUS_SUCCESS;
         i = next, lane = (lane + 1) % STARTRD_CUDA_LANES) {
        next = startrd_next_piece(buffers, BUF_FIRST_COLUMN, i, columns_end(a), &h);
        cuDoubleComplex *c = (cuDoubleComplex *)h.c, *v = (cuDoubleComplex *)h.ws[BUF_V];
        cuDoubleComplex *y = (cuDoubleComplex *)h.ws[BUF_Y], *dp = d + (rows - h.m - first);
        int ldv = h.ldws[BUF_V], ldd = (int)drows;

        st = cublasZhemm(lanes->blas[lane], CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, h.w, h.nv, &one, c, h.ld,
                         v, ldv, &one, dp, ldd);
        if (st == CUBLAS_STATUS_SUCCESS && h.below > 0)
            st = startrd_cuda_zgemm(lanes->blas[lane], CUBLAS_OP_C, CUBLAS_OP_N, h.w, h.nv, h.below, &one,
                                    c + h.w, h.ld, v + h.w, ldv, &one, dp, ldd);
        if (st == CUBLAS_STATUS_SUCCESS && h.below > 0)
            st = startrd_cuda_zgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, h.below, h.nv, h.w, &one, c + h.w, h.ld,
                                    v, ldv, &one, y + h.w, ldy);
    }
    /* Join even after a failure: D must outlive the lanes' calls. */
    if (startrd_cuda_join(lanes) == cudaSuccess && st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgeam(hd, CUBLAS_OP_N, CUBLAS_OP_N, (int)drows, nv, &one, y0 + first, ldy, &one, d, (int)drows,
                         y0 + first, ldy);
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("hemm_columns", "cuBLAS", st);
    if ((ce = cudaFreeAsync(d, stream)) != cudaSuccess)
        startrd_kernel_failure("hemm_columns", "cudaFreeAsync", ce);
    if (a->form_w && (st == CUBLAS_STATUS_SUCCESS || a->has_peer))
        form_cuda(buffers, a);
}

static void hemm_columns_cuda(void *buffers[], void *cl_arg)
{
    const struct hemm_columns_args *a = cl_arg;

    /* A failed wait is recorded; the products then go on, to no avail. */
    if (a->after.signal != NULL)
        startrd_cuda_signal_wait(a->after.signal, a->after.step);
    if (!hemm_whole_cuda(buffers, cl_arg))
        hemm_pieces_cuda(buffers, cl_arg);
}
#endif

STARTRD_HISTORY_MODEL(hemm_columns_model, "startrd_zhemm_columns");

static struct starpu_codelet hemm_columns_codelet = {
    .name = "zhemm_columns",
    .cpu_funcs = {hemm_columns_cpu},
    STARTRD_CUDA_ASYNC(hemm_columns_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &hemm_columns_model,
};

int startrd_task_zhemm_columns(startrd_place_t place, starpu_data_handle_t V, starpu_data_handle_t Y,
                               int zero_y, int ncolumns, const starpu_data_handle_t *columns,
                               const startrd_wvw_handles_t *form, startrd_step_signal_t after)
{
    struct hemm_columns_args *args = malloc(sizeof *args);
    /* The zeroing task needs no earlier value of Y. */
    const struct starpu_data_descr ws[] = {{V, STARPU_R}, {Y, zero_y ? STARPU_W : STARPU_RW}};
    struct starpu_data_descr *descr = startrd_pieces_descr(BUF_FIRST_COLUMN, ws, ncolumns, columns, STARPU_R);
    int nbuffers = ncolumns + BUF_FIRST_COLUMN;
    int nform = form == NULL ? 0 : form->deferred.prev != NULL ? FORM_PAIR + 1 : FORM_P + 1;
    double flops = 0.0;
    int ret;

    if (descr != NULL && form != NULL) {
        struct starpu_data_descr *more = realloc(descr, (size_t)(nbuffers + nform) * sizeof *descr);

        if (more == NULL)
            free(descr);
        descr = more;
    }
    if (args == NULL || descr == NULL) {
        free(args);
        free(descr);
        return -ENOMEM;
    }
    *args = (struct hemm_columns_args){.zero_y = zero_y, .form_w = nform, .row0 = form ? form->row0 : 0,
                                       .prev_row0 = form ? form->deferred.row0 : 0,
                                       .has_peer = form != NULL && form->peer != NULL, .after = after,
                                       .t_done = form ? form->t_done : (startrd_step_signal_t){NULL, 0}};
    if (args->has_peer)
        args->peer = *form->peer;
    for (int i = 0; i < ncolumns; i++) {
        double m = (double)starpu_matrix_get_nx(columns[i]), nb = (double)starpu_matrix_get_ny(columns[i]);

        flops += 8.0 * nb * nb * (2.0 * m - nb);
    }
    if (form != NULL) {
        double rows = (double)starpu_matrix_get_nx(Y), m = rows - (double)form->row0;
        double nb = (double)starpu_matrix_get_ny(Y);

        descr[nbuffers + FORM_T] = (struct starpu_data_descr){form->T, STARPU_R};
        descr[nbuffers + FORM_ZM] = (struct starpu_data_descr){form->ZM, STARPU_SCRATCH};
        descr[nbuffers + FORM_P] = (struct starpu_data_descr){form->P, STARPU_W};
        if (form->deferred.prev != NULL) {
            descr[nbuffers + FORM_PREV] = (struct starpu_data_descr){form->deferred.prev, STARPU_R};
            descr[nbuffers + FORM_PAIR] = (struct starpu_data_descr){form->deferred.pair, STARPU_W};
        }
        nbuffers += nform;
        flops += startrd_form_wvw_flops(m, form->deferred.prev != NULL ? rows - (double)form->deferred.row0 : 0.0,
                                        nb) +
                 (form->peer != NULL ? 2.0 * m * nb : 0.0);
    }
    ret = starpu_task_insert(&hemm_columns_codelet,
                             STARPU_CL_ARGS, args, sizeof *args,
                             STARPU_DATA_MODE_ARRAY, descr, nbuffers,
                             STARTRD_PLACE_ARGS(place),
                             STARPU_FLOPS, flops,
                             0);
    free(descr);
    return ret;
}
