/* P = [W V W], the workspace of the update (codelet_zher2k_columns.c), whose
 * column ranges [W V] and [V W] are the two operands of its rank-2nb GEMM,
 * with
 *     W = Y T - 1/2 V (T^H (V^H (Y T)))
 * formed in P's first third.  One task for the four small GEMMs and the
 * copies: each is tens of microseconds of work on a GPU, and as separate
 * tasks on the critical path their runtime round trips added to every
 * panel's chain (docs/architecture.md, "Where stage 1's time goes").  Only
 * the rows from row0 (the trailing matrix's first) down are formed: V and
 * Y are zero above, and the update reads none of them.  Z and M are the
 * two halves of an nb x 2nb scratch.
 * Given two partial products, the task adds them first, into P's last
 * third: each GPU then forms W once the other's product has arrived, with
 * no sum on one GPU and its result sent back on the critical path.  Where
 * the previous step's update was deferred (form_wvw.h), Y is corrected in
 * P's last third too, and the pair of both steps' operands assembled. */
#include "codelets.h"
#include "error.h"
#include "form_wvw.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

enum { BUF_Y, BUF_V, BUF_T, BUF_ZM, BUF_P, BUF_OPTIONAL };

struct form_wvw_args {
    int64_t row0;   /* first: startrd_row0_footprint() */
    int y2, prev;   /* the buffers of Y2 and of the previous P (the pair's after it), or -1 */
    int64_t prev_row0;
};

/* The operands from row0 down, as BLAS sees them; the correction's and
 * the pair's from row0 + dm down. */
struct form_view {
    int m, nb, ldy, ldy2, ldv, ldt, ldz, ldp, ldprev, ldpair, dm;
    double complex *y, *y2, *v, *t, *z, *mm, *w, *pv, *pw;   /* pv, pw: P's second and last thirds */
    double complex *prev, *pair;
};

/* Where the pair's six blocks [W0 W V0 V W0 W] come from. */
struct pair_sources {
    const double complex *src[6];
    int ld[6];
};

static struct form_view form_view(const startrd_wvw_operands_t *o)
{
    struct form_view f;
    size_t r = (size_t)o->row0;

    f.m = (int)((int64_t)STARPU_MATRIX_GET_NX(o->y) - o->row0);
    f.nb = (int)STARPU_MATRIX_GET_NY(o->y);
    f.ldy = (int)STARPU_MATRIX_GET_LD(o->y);
    f.ldv = (int)STARPU_MATRIX_GET_LD(o->v);
    f.ldt = (int)STARPU_MATRIX_GET_LD(o->t);
    f.ldz = (int)STARPU_MATRIX_GET_LD(o->zm);
    f.ldp = (int)STARPU_MATRIX_GET_LD(o->p);
    f.y = (double complex *)STARPU_MATRIX_GET_PTR(o->y) + r;
    f.y2 = o->y2 != NULL ? (double complex *)STARPU_MATRIX_GET_PTR(o->y2) + r : NULL;
    f.ldy2 = o->y2 != NULL ? (int)STARPU_MATRIX_GET_LD(o->y2) : 0;
    f.v = (double complex *)STARPU_MATRIX_GET_PTR(o->v) + r;
    f.t = (double complex *)STARPU_MATRIX_GET_PTR(o->t);
    f.z = (double complex *)STARPU_MATRIX_GET_PTR(o->zm);
    f.mm = f.z + (size_t)f.nb * (size_t)f.ldz;
    f.w = (double complex *)STARPU_MATRIX_GET_PTR(o->p) + r;
    f.pv = f.w + (size_t)f.nb * (size_t)f.ldp;
    f.pw = f.pv + (size_t)f.nb * (size_t)f.ldp;
    f.dm = o->prev != NULL ? (int)(o->prev_row0 - o->row0) : 0;
    f.prev = o->prev != NULL ? (double complex *)STARPU_MATRIX_GET_PTR(o->prev) + o->prev_row0 : NULL;
    f.ldprev = o->prev != NULL ? (int)STARPU_MATRIX_GET_LD(o->prev) : 0;
    f.pair = o->pair != NULL ? (double complex *)STARPU_MATRIX_GET_PTR(o->pair) + o->prev_row0 : NULL;
    f.ldpair = o->pair != NULL ? (int)STARPU_MATRIX_GET_LD(o->pair) : 0;
    return f;
}

static struct pair_sources pair_sources(const struct form_view *f)
{
    const double complex *w0 = f->prev, *v0 = f->prev + (size_t)f->nb * (size_t)f->ldprev;
    const double complex *w = f->w + f->dm, *v = f->v + f->dm;

    return (struct pair_sources){{w0, w, v0, v, w0, w}, {f->ldprev, f->ldp, f->ldprev, f->ldv, f->ldprev, f->ldp}};
}

static startrd_wvw_operands_t operands(void *buffers[], const struct form_wvw_args *a)
{
    void *y2 = a->y2 >= 0 ? buffers[a->y2] : NULL;
    void *prev = a->prev >= 0 ? buffers[a->prev] : NULL, *pair = a->prev >= 0 ? buffers[a->prev + 1] : NULL;

    return (startrd_wvw_operands_t){buffers[BUF_Y], y2, buffers[BUF_V], buffers[BUF_T], buffers[BUF_ZM],
                                    buffers[BUF_P], prev, pair, a->row0, a->prev_row0};
}

void startrd_form_wvw_cpu(const startrd_wvw_operands_t *o)
{
    const double complex one = 1.0, zero = 0.0, mhalf = -0.5, mone = -1.0;
    struct form_view f = form_view(o);

    if (f.y2 != NULL || f.prev != NULL) {
        for (int c = 0; c < f.nb; c++)
            for (int i = 0; i < f.m; i++)
                f.pw[i + (size_t)c * (size_t)f.ldp] = f.y[i + (size_t)c * (size_t)f.ldy] +
                                                      (f.y2 != NULL ? f.y2[i + (size_t)c * (size_t)f.ldy2] : 0.0);
        f.y = f.pw;
        f.ldy = f.ldp;
    }
    /* Z M, as one 2nb x nb matrix, takes [V0 W0]^H V. */
    if (f.prev != NULL) {
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, 2 * f.nb, f.nb, f.m - f.dm, &one,
                    f.prev + (size_t)f.nb * (size_t)f.ldprev, f.ldprev, f.v + f.dm, f.ldv, &zero, f.z, 2 * f.nb);
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, f.m - f.dm, f.nb, 2 * f.nb, &mone, f.prev,
                    f.ldprev, f.z, 2 * f.nb, &one, f.y + f.dm, f.ldy);
    }
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, f.m, f.nb, f.nb, &one, f.y, f.ldy, f.t, f.ldt,
                &zero, f.w, f.ldp);
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, f.nb, f.nb, f.m, &one, f.v, f.ldv, f.w, f.ldp,
                &zero, f.z, f.ldz);
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, f.nb, f.nb, f.nb, &one, f.t, f.ldt, f.z, f.ldz,
                &zero, f.mm, f.ldz);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, f.m, f.nb, f.nb, &mhalf, f.v, f.ldv, f.mm, f.ldz,
                &one, f.w, f.ldp);
    for (int c = 0; c < f.nb; c++) {
        memcpy(f.pv + (size_t)c * (size_t)f.ldp, f.v + (size_t)c * (size_t)f.ldv, (size_t)f.m * sizeof *f.v);
        memcpy(f.pw + (size_t)c * (size_t)f.ldp, f.w + (size_t)c * (size_t)f.ldp, (size_t)f.m * sizeof *f.w);
    }
    if (f.pair != NULL) {
        struct pair_sources ps = pair_sources(&f);

        for (size_t blk = 0; blk < 6; blk++)
            for (size_t c = 0; c < (size_t)f.nb; c++)
                memcpy(f.pair + (blk * (size_t)f.nb + c) * (size_t)f.ldpair, ps.src[blk] + c * (size_t)ps.ld[blk],
                       (size_t)(f.m - f.dm) * sizeof *f.pair);
    }
}

static void form_wvw_cpu(void *buffers[], void *cl_arg)
{
    startrd_wvw_operands_t o = operands(buffers, cl_arg);

    startrd_form_wvw_cpu(&o);
}

#ifdef STARTRD_USE_CUDA
void startrd_form_wvw_cuda(const startrd_wvw_operands_t *o)
{
    const cuDoubleComplex one = {1.0, 0.0}, zero = {0.0, 0.0}, mhalf = {-0.5, 0.0}, mone = {-1.0, 0.0};
    struct form_view f = form_view(o);
    cublasHandle_t h = starpu_cublas_get_local_handle();
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cuDoubleComplex *y = (cuDoubleComplex *)f.y, *v = (cuDoubleComplex *)f.v, *t = (cuDoubleComplex *)f.t;
    cuDoubleComplex *z = (cuDoubleComplex *)f.z, *mm = (cuDoubleComplex *)f.mm, *w = (cuDoubleComplex *)f.w;
    size_t col = (size_t)f.m * sizeof *w, ldp = (size_t)f.ldp * sizeof *w;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    cudaError_t ce;
    int ldy = f.ldy;

    if (f.y2 != NULL || f.prev != NULL) {
        /* Y + Y2, or Y + 0 Y: a copy where only the correction follows. */
        st = cublasZgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, f.m, f.nb, &one, y, f.ldy, f.y2 != NULL ? &one : &zero,
                         f.y2 != NULL ? (cuDoubleComplex *)f.y2 : y, f.y2 != NULL ? f.ldy2 : f.ldy,
                         (cuDoubleComplex *)f.pw, f.ldp);
        y = (cuDoubleComplex *)f.pw;
        ldy = f.ldp;
    }
    if (f.prev != NULL && st == CUBLAS_STATUS_SUCCESS) {
        cuDoubleComplex *prev = (cuDoubleComplex *)f.prev;

        st = cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, 2 * f.nb, f.nb, f.m - f.dm, &one,
                         prev + (size_t)f.nb * f.ldprev, f.ldprev, v + f.dm, f.ldv, &zero, z, 2 * f.nb);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, f.m - f.dm, f.nb, 2 * f.nb, &mone, prev, f.ldprev, z,
                             2 * f.nb, &one, y + f.dm, ldy);
    }
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, f.m, f.nb, f.nb, &one, y, ldy, t, f.ldt, &zero, w, f.ldp);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, f.nb, f.nb, f.m, &one, v, f.ldv, w, f.ldp, &zero, z, f.ldz);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, f.nb, f.nb, f.nb, &one, t, f.ldt, z, f.ldz, &zero, mm, f.ldz);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, f.m, f.nb, f.nb, &mhalf, v, f.ldv, mm, f.ldz, &one, w, f.ldp);
    if (st != CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure("form_wvw", "cuBLAS", st);
        return;
    }
    ce = cudaMemcpy2DAsync(f.pv, ldp, f.v, (size_t)f.ldv * sizeof *w, col, (size_t)f.nb, cudaMemcpyDeviceToDevice,
                           stream);
    if (ce == cudaSuccess)
        ce = cudaMemcpy2DAsync(f.pw, ldp, f.w, ldp, col, (size_t)f.nb, cudaMemcpyDeviceToDevice, stream);
    if (f.pair != NULL) {
        struct pair_sources ps = pair_sources(&f);

        for (size_t blk = 0; blk < 6 && ce == cudaSuccess; blk++)
            ce = cudaMemcpy2DAsync(f.pair + blk * (size_t)f.nb * (size_t)f.ldpair, (size_t)f.ldpair * sizeof *w,
                                   ps.src[blk], (size_t)ps.ld[blk] * sizeof *w, (size_t)(f.m - f.dm) * sizeof *w,
                                   (size_t)f.nb, cudaMemcpyDeviceToDevice, stream);
    }
    if (ce != cudaSuccess)
        startrd_kernel_failure("form_wvw", "cudaMemcpy2DAsync", ce);
}

static void form_wvw_cuda(void *buffers[], void *cl_arg)
{
    startrd_wvw_operands_t o = operands(buffers, cl_arg);

    startrd_form_wvw_cuda(&o);
}
#endif

STARTRD_HISTORY_MODEL_FOOTPRINT(form_wvw_model, "startrd_zform_wvw", startrd_row0_footprint);
STARTRD_HISTORY_MODEL_FOOTPRINT(form_wvw_sum_model, "startrd_zform_wvw_sum", startrd_row0_footprint);

static struct starpu_codelet form_wvw_codelet = {
    .name = "zform_wvw",
    .cpu_funcs = {form_wvw_cpu},
    STARTRD_CUDA_ASYNC(form_wvw_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &form_wvw_model,
};

static struct starpu_codelet form_wvw_sum_codelet = {
    .name = "zform_wvw_sum",
    .cpu_funcs = {form_wvw_cpu},
    STARTRD_CUDA_ASYNC(form_wvw_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &form_wvw_sum_model,
};

int startrd_task_zform_wvw(startrd_place_t place, int64_t row0, starpu_data_handle_t Y, starpu_data_handle_t Y2,
                           starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t ZM,
                           starpu_data_handle_t P, startrd_deferred_update_t deferred)
{
    struct form_wvw_args *args = malloc(sizeof *args);
    double m = (double)starpu_matrix_get_nx(Y) - (double)row0, nb = (double)starpu_matrix_get_ny(Y);
    double mc = (double)starpu_matrix_get_nx(Y) - (double)deferred.row0;
    struct starpu_data_descr descr[BUF_OPTIONAL + 3] = {{Y, STARPU_R}, {V, STARPU_R}, {T, STARPU_R},
                                                        {ZM, STARPU_SCRATCH}, {P, STARPU_W}};
    int nbuffers = BUF_OPTIONAL;

    if (args == NULL)
        return -ENOMEM;
    *args = (struct form_wvw_args){row0, -1, -1, deferred.row0};
    if (Y2 != NULL) {
        args->y2 = nbuffers;
        descr[nbuffers++] = (struct starpu_data_descr){Y2, STARPU_R};
    }
    if (deferred.prev != NULL) {
        args->prev = nbuffers;
        descr[nbuffers++] = (struct starpu_data_descr){deferred.prev, STARPU_R};
        descr[nbuffers++] = (struct starpu_data_descr){deferred.pair, STARPU_W};
    }
    return starpu_task_insert(Y2 != NULL ? &form_wvw_sum_codelet : &form_wvw_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_DATA_MODE_ARRAY, descr, nbuffers,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_FLOPS, startrd_form_wvw_flops(m, deferred.prev != NULL ? mc : 0.0, nb) +
                                                (Y2 != NULL ? 2.0 * m * nb : 0.0),
                              0);
}
