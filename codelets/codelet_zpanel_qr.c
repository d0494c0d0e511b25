/* QR factorisation of a stage-1 panel: the tiles below the diagonal tile of
 * block column k.  It leaves R and the reflectors in place, as ZHETRD_HE2HB
 * stores them, and produces what the two-sided update needs: the compact WY
 * factor T and V as an explicit matrix (unit diagonal, zeros above) in a
 * full-height workspace whose rows above the panel are zero, so that products
 * over the whole workspace equal products over the panel's rows.  The scalar
 * factors go to the caller's TAU through a vector handle.
 * On the host the recursive ZGEQRT3 keeps the factorisation in Level-3 BLAS;
 * on a GPU CholeskyQR2 with Householder reconstruction
 * (kernel_geqrf_cholqr.cu) factors the panel where it lives and hands a
 * panel too ill-conditioned for it (or one wider than it takes) to the
 * library's one-kernel ZGEQR2 (kernel_geqr2_panel.cu); T is built from the
 * Gram matrix V^H V.
 * Given the previous step's P = [W V W], the task first applies that
 * step's update to its block column, which is all the panel waits for: as a
 * task of its own, that update cost the chain from one panel to the next a
 * runtime round trip per step.  Given mirrors, it copies V's trailing rows
 * to the GPUs of the step's HEMM tasks as soon as V is formed, then T, and
 * posts a signal after each that their streams wait for (cuda_signal.h):
 * they need not wait for this task's end, another runtime round trip.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "column_pieces.h"
#include "error.h"
#include "cuda_lanes.h"
#include "kernels_stage1_z.h"
#include "scalars.h"

#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct panel_qr_args {
    int64_t vrow;          /* absolute row of the panel's first row in V */
    int64_t crow;          /* row of the block column's diagonal tile in its handle */
    int has_mirrors;
    startrd_panel_mirrors_t mirrors;
};

struct panel_view {
    int64_t m, nb, ldc, ldv, ldt, vrows, ntau;
    double complex *p, *v, *t, *tau;
};

/* The panel's own buffers, after P when the task updates the column first. */
enum { PANEL_BUFFERS = 4 };

static int updates_first(void)
{
    return startrd_current_nbuffers() > PANEL_BUFFERS;
}

/* The block column as a piece whose workspace is P: buffers P, column. */
static void column_piece(void *buffers[], startrd_piece_t *u)
{
    startrd_next_piece(buffers, 1, 1, 2, u);
}

/* The panel's own buffers: the column, V, T and tau. */
static void **panel_buffers(void *buffers[])
{
    return updates_first() ? buffers + 1 : buffers;
}

static struct panel_view view(void *buffers[], const struct panel_qr_args *a)
{
    struct panel_view w;

    w.nb = STARPU_MATRIX_GET_NY(buffers[0]);
    w.m = STARPU_MATRIX_GET_NX(buffers[0]) - a->crow - w.nb;
    w.ldc = STARPU_MATRIX_GET_LD(buffers[0]);
    w.p = (double complex *)STARPU_MATRIX_GET_PTR(buffers[0]) + a->crow + w.nb;
    w.v = (double complex *)STARPU_MATRIX_GET_PTR(buffers[1]);
    w.ldv = STARPU_MATRIX_GET_LD(buffers[1]);
    w.vrows = STARPU_MATRIX_GET_NX(buffers[1]);
    w.t = (double complex *)STARPU_MATRIX_GET_PTR(buffers[2]);
    w.ldt = STARPU_MATRIX_GET_LD(buffers[2]);
    w.tau = (double complex *)STARPU_VECTOR_GET_PTR(buffers[3]);
    w.ntau = STARPU_VECTOR_GET_NX(buffers[3]);
    return w;
}

static void panel_qr_cpu(void *buffers[], void *cl_arg)
{
    const struct panel_qr_args *a = cl_arg;
    struct panel_view w = view(panel_buffers(buffers), a);
    lapack_int info;

    if (a->has_mirrors) {
        startrd_kernel_failure("panel_qr", "a signal between GPU streams on a CPU worker", -1);
        return;
    }
    if (updates_first()) {
        startrd_piece_t u;

        column_piece(buffers, &u);
        startrd_zher2k_piece_cpu(&u);
    }

    info = LAPACKE_zgeqrt3_work(LAPACK_COL_MAJOR, (lapack_int)w.m, (lapack_int)w.nb, w.p,
                                (lapack_int)w.ldc, w.t, (lapack_int)w.ldt);
    if (info != 0) {
        startrd_kernel_failure("panel_qr", "zgeqrt3", info);
        return;
    }
    for (int64_t c = 0; c < w.nb; c++) {
        double complex *vc = w.v + c * w.ldv;

        /* ZGEQRT3 sets only the upper triangle of T; the update multiplies by all of it. */
        memset(w.t + c * w.ldt + c + 1, 0, (size_t)(w.nb - c - 1) * sizeof *w.t);
        memset(vc, 0, (size_t)(a->vrow + c) * sizeof *vc);
        vc[a->vrow + c] = 1.0;
        memcpy(vc + a->vrow + c + 1, w.p + c * w.ldc + c + 1, (size_t)(w.m - c - 1) * sizeof *vc);
        memset(vc + a->vrow + w.m, 0, (size_t)(w.vrows - a->vrow - w.m) * sizeof *vc);
    }
    for (int64_t i = 0; i < w.ntau; i++)
        w.tau[i] = w.t[i * w.ldt + i];
}

#ifdef STARTRD_USE_CUDA
/* rows x cols of @p src (from row row0, leading dimension lds) into each
 * mirror's buffer dst[i] (the same rows, leading dimension ldd) on
 * @p stream. */
static void copy_to_mirrors(int count, const uintptr_t *dst, int64_t ldd, const double complex *src, int64_t lds,
                            int64_t row0, int64_t rows, int64_t cols, cudaStream_t stream)
{
    size_t z = sizeof *src;
    cudaError_t ce = cudaSuccess;

    for (int i = 0; i < count && ce == cudaSuccess; i++)
        ce = cudaMemcpy2DAsync((double complex *)dst[i] + row0, (size_t)ldd * z, src + row0, (size_t)lds * z,
                               (size_t)rows * z, (size_t)cols, cudaMemcpyDeviceToDevice, stream);
    if (ce != cudaSuccess)
        startrd_kernel_failure("panel_qr", "cudaMemcpy2DAsync", ce);
}

/* V's rows from vrow down into each mirror on @p stream, then V's signal,
 * posted whatever happened before so that no HEMM task waits for ever. */
static void send_v(const struct panel_qr_args *a, const struct panel_view *w, cudaStream_t stream)
{
    const startrd_panel_mirrors_t *m = &a->mirrors;

    copy_to_mirrors(m->count, m->v, w->ldv, w->v, w->ldv, a->vrow, w->vrows - a->vrow, w->nb, stream);
    startrd_cuda_signal_post_on(m->v_done.signal, m->v_done.step, stream);
}

/* V into each mirror unless a lane has taken it, then T, and T's signal,
 * posted whatever happened before. */
static void fill_mirrors(const struct panel_qr_args *a, const struct panel_view *w,
                         const startrd_cuda_lanes_t *lanes, cudaStream_t stream)
{
    const startrd_panel_mirrors_t *m = &a->mirrors;

    if (lanes == NULL)
        send_v(a, w, stream);
    copy_to_mirrors(m->count, m->t, w->nb, w->t, w->ldt, 0, w->nb, w->nb, stream);
    if (lanes != NULL)
        startrd_cuda_join(lanes);
    startrd_cuda_signal_post(m->t_done.signal, m->t_done.step);
}

/* T from V's Gram matrix and the scalar factors, which go to tau too. */
static void form_t(const struct panel_view *w, int64_t vrow, const cuDoubleComplex *tau, cudaStream_t stream)
{
    const cuDoubleComplex one = STARTRD_Z_ONE, zero = STARTRD_Z_ZERO;
    const cuDoubleComplex *v = (const cuDoubleComplex *)w->v + vrow;
    long st;

    if ((st = cublasZgemm(starpu_cublas_get_local_handle(), CUBLAS_OP_C, CUBLAS_OP_N, (int)w->nb, (int)w->nb,
                          (int)w->m, &one, v, (int)w->ldv, v, (int)w->ldv, &zero, (cuDoubleComplex *)w->t,
                          (int)w->ldt)) != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("panel_qr", "cublasZgemm", st);
    else if ((st = startrd_cuda_zlarft_gram(w->nb, 1, tau, 0, (cuDoubleComplex *)w->t, w->ldt, 0, stream)) != cudaSuccess)
        startrd_kernel_failure("panel_qr", "zlarft_gram kernel", st);
    else if ((st = cudaMemcpyAsync(w->tau, tau, (size_t)w->ntau * sizeof *tau, cudaMemcpyDeviceToDevice, stream)) !=
             cudaSuccess)
        startrd_kernel_failure("panel_qr", "cudaMemcpyAsync", st);
}

/* The factorisation, V and T on the worker's stream.  With mirrors, V
 * goes to them on a lane as soon as it is formed, and the HEMM tasks start
 * while T is computed.  Returns the lanes, or NULL where V is left for
 * fill_mirrors(). */
static const startrd_cuda_lanes_t *factor_cuda(void *buffers[], const struct panel_qr_args *a)
{
    struct panel_view w = view(panel_buffers(buffers), a);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cuDoubleComplex *p = (cuDoubleComplex *)w.p, *v = (cuDoubleComplex *)w.v;
    cuDoubleComplex *tau, *work;
    int nblocks = startrd_cuda_zgeqr2_panel_blocks(w.m, w.nb);
    /* CholeskyQR2 wherever it applies, the Householder kernels behind it
     * for the panels it refuses: kernel_geqrf_cholqr.cu says why and by
     * how much. */
    int cholqr = w.nb <= STARTRD_CUDA_CHOLQR_MAX_NB && w.m >= w.nb;
    int64_t nwork = cholqr ? startrd_cuda_zgeqrf_cholqr_work(w.nb) : 0;
    int64_t nscratch = startrd_cuda_zgeqr2_panel_scratch(w.nb, nblocks);
    const startrd_cuda_lanes_t *lanes = NULL;
    const int *refused = NULL;
    const char *call = NULL;
    long st;

    if (updates_first()) {
        startrd_piece_t u;

        column_piece(buffers, &u);
        if (startrd_zher2k_piece_cuda(starpu_cublas_get_local_handle(), &u, "panel_qr") != 0)
            return NULL;
    }

    /* Stream-ordered scratch: the scalar factors, CholeskyQR's work, then
     * the Householder kernel's partial results. */
    if ((st = cudaMallocAsync((void **)&tau, (size_t)(w.nb + nwork) * sizeof *tau + (size_t)nscratch * sizeof(double),
                              stream)) != cudaSuccess) {
        startrd_kernel_failure("panel_qr", "cudaMallocAsync", st);
        return NULL;
    }
    work = tau + w.nb;
    /* V's rows of the panel hold CholeskyQR's Q until V is written below;
     * the Householder kernel runs only on a panel CholeskyQR refused. */
    if (cholqr) {
        st = startrd_cuda_zgeqrf_cholqr(starpu_cublas_get_local_handle(), w.m, w.nb, p, w.ldc, v + a->vrow, w.ldv,
                                        tau, work, stream, &call);
        refused = startrd_cuda_zgeqrf_cholqr_flag(work, w.nb);
    }
    if (st != 0)
        startrd_kernel_failure("panel_qr", call, st);
    else if ((st = startrd_cuda_zgeqr2_panel(w.m, w.nb, p, w.ldc, tau, (double *)(work + nwork), nblocks, refused,
                                             stream)) != cudaSuccess)
        startrd_kernel_failure("panel_qr", "zgeqr2_panel kernel", st);
    else if ((st = startrd_cuda_zpanel_v(w.m, w.nb, p, w.ldc, v, w.ldv, a->vrow, w.vrows, stream)) != cudaSuccess)
        startrd_kernel_failure("panel_qr", "zpanel_v kernel", st);
    else {
        if (a->has_mirrors && (lanes = startrd_cuda_fork()) != NULL)
            send_v(a, &w, lanes->stream[0]);
        form_t(&w, a->vrow, tau, stream);
    }
    if ((st = cudaFreeAsync(tau, stream)) != cudaSuccess)
        startrd_kernel_failure("panel_qr", "cudaFreeAsync", st);
    return lanes;
}

static void panel_qr_cuda(void *buffers[], void *cl_arg)
{
    const struct panel_qr_args *a = cl_arg;
    struct panel_view w = view(panel_buffers(buffers), a);
    const startrd_cuda_lanes_t *lanes = factor_cuda(buffers, a);

    if (a->has_mirrors)
        fill_mirrors(a, &w, lanes, starpu_cuda_get_local_stream());
}
#endif

STARTRD_HISTORY_MODEL(panel_qr_model, "startrd_zpanel_qr");

static struct starpu_codelet panel_qr_codelet = {
    .name = "zpanel_qr",
    .cpu_funcs = {panel_qr_cpu},
    STARTRD_CUDA_ASYNC(panel_qr_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &panel_qr_model,
};

int startrd_task_zpanel_qr(startrd_place_t place, starpu_data_handle_t column, int64_t crow, int64_t vrow,
                           starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t tau,
                           starpu_data_handle_t P, const startrd_panel_mirrors_t *mirrors)
{
    struct panel_qr_args *args = malloc(sizeof *args);
    double nb = (double)starpu_matrix_get_ny(column), m = (double)(starpu_matrix_get_nx(column) - crow) - nb;
    double flops = 8.0 * (m * nb * nb - nb * nb * nb / 3.0);
    struct starpu_data_descr descr[PANEL_BUFFERS + 1];
    int nbuffers = 0;

    if (args == NULL)
        return -ENOMEM;
    *args = (struct panel_qr_args){.vrow = vrow, .crow = crow, .has_mirrors = mirrors != NULL};
    if (mirrors != NULL)
        args->mirrors = *mirrors;
    if (P != NULL) {
        descr[nbuffers++] = (struct starpu_data_descr){P, STARPU_R};
        flops += 16.0 * (m + nb) * nb * nb;
    }
    descr[nbuffers++] = (struct starpu_data_descr){column, STARPU_RW};
    descr[nbuffers++] = (struct starpu_data_descr){V, STARPU_W};
    descr[nbuffers++] = (struct starpu_data_descr){T, STARPU_W};
    descr[nbuffers++] = (struct starpu_data_descr){tau, STARPU_W};
    return starpu_task_insert(&panel_qr_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_DATA_MODE_ARRAY, descr, nbuffers,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_FLOPS, flops,
                              0);
}
