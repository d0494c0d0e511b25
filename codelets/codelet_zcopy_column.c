/* Moves one block column between the caller's LAPACK-layout matrix and the
 * library's padded lower-storage copy, on a CPU worker: the host copy, or
 * the column in its GPU's memory through the worker's pinned buffers
 * (cuda_upload.h).  A GPU reads or writes the caller's pageable memory at
 * a fraction of the rate it reaches on pinned memory (docs/experiments.md,
 * "Figures moved from the code"), and such a copy blocks the thread that
 * drives the GPU's streams.  A copy in checks what it copies for NaN and
 * Inf (the data is in cache then), and copying out is skipped once one was seen, so the
 * caller's matrix is left as it was.  For uplo = 'U' the copy holds the conjugate
 * transpose of the stored upper triangle, which is the lower triangle of the
 * same Hermitian matrix, so the stage-1 algorithm only has a lower variant.
 * A column that keeps both triangles (its handle starts at row 0, so its
 * diagonal tile at row col0) gets the other triangle above the diagonal when
 * copied in; only the lower part goes back.
 * Only the referenced triangle of the caller's matrix is written.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "codelets_z.h"
#include "cuda_upload.h"
#include "error.h"
#include "kernels_stage1_z.h"
#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { BUF_COLUMN, BUF_SCANNED };

/* The conjugate that moves an entry between the triangles; the real
 * precisions' transposes do without. */
#ifdef COMPLEX
#define CONJ(x) conj(x)
#else
#define CONJ(x) (x)
#endif

struct copy_column_args {
    int to_user;            /* direction */
    char uplo;
    int64_t n, lda;         /* the caller's matrix */
    double complex *a;
    int user_devid;         /* the GPU whose memory holds it, or -1: host memory */
    int64_t col0;           /* first column of this block column */
    int both;               /* the handle holds both triangles, from row 0 */
    atomic_int *nonfinite;  /* NULL: no check */
    startrd_zband_out_t band; /* band.ab NULL: none */
};

struct column_view {
    double complex *c;
    int64_t ldc, height, width;
    int64_t cols;           /* columns inside the caller's matrix */
    int64_t rows;           /* rows inside it, from the diagonal down */
    double complex *a;      /* the caller's diagonal element of this block column */
};

static struct column_view view(void *buffers[], const struct copy_column_args *x)
{
    struct column_view v;

    int64_t crow = x->both ? x->col0 : 0;   /* the diagonal tile's row in the handle */

    v.c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_COLUMN]) + crow;
    v.ldc = STARPU_MATRIX_GET_LD(buffers[BUF_COLUMN]);
    v.width = STARPU_MATRIX_GET_NY(buffers[BUF_COLUMN]);
    v.height = (int64_t)STARPU_MATRIX_GET_NX(buffers[BUF_COLUMN]) - crow;
    v.cols = x->n - x->col0 < v.width ? x->n - x->col0 : v.width;
    v.rows = x->n - x->col0;
    v.a = x->a + x->col0 * x->lda + x->col0;
    return v;
}

static int skipped(const struct copy_column_args *x)
{
    return x->to_user && x->nonfinite != NULL && atomic_load(x->nonfinite);
}

/* Column q of the block column in the library's layout, written at @p cq
 * (its row col0 for a column kept with both triangles, else its first
 * row): the caller's column q (for 'U', the conjugate of row col0+q) from
 * the diagonal down; with both triangles, rows 0 .. col0-1 get the other
 * triangle (the conjugate of the caller's row block col0 for 'L', the
 * caller's own rows for 'U') and the diagonal tile's upper part its
 * mirror, both read in the caller's matrix; everything else the caller's
 * matrix does not fill (the padding below row n and right of column n, and
 * the unused triangle of the diagonal tile) is zeroed: the library's copy
 * is allocated, not cleared, and zeroing here does it in parallel, only
 * for the column's own rows.  Returns startrd_znan_sum() of the caller's
 * entries it copied when the copy checks for NaN and Inf, else 0. */
static double fill_column(const struct copy_column_args *x, const struct column_view *v, double complex *cq,
                          int64_t q)
{
    double nan_sum = 0.0;

    const double complex *a = x->a;
    int64_t c0 = x->col0, lda = x->lda;
    int64_t first = q < v->cols ? q : v->height, last = q < v->cols ? v->rows : v->height;

    if (q < v->cols && x->uplo == 'L') {
        memcpy(cq + q, v->a + q * lda + q, (size_t)(v->rows - q) * sizeof *cq);
    } else if (q < v->cols) {
        /* Row col0+q of the upper triangle, walked with stride lda. */
        for (int64_t r = 0; r < v->rows - q; r++)
            cq[q + r] = CONJ(v->a[(q + r) * lda + q]);
    }
    if (q < v->cols && x->nonfinite != NULL)
        nan_sum = startrd_znan_sum(cq + q, v->rows - q);
    if (x->both) {
        double complex *top = cq - c0;

        if (q >= v->cols)
            memset(top, 0, (size_t)c0 * sizeof *top);
        else if (x->uplo == 'L')
            for (int64_t i = 0; i < c0; i++)
                top[i] = CONJ(a[i * lda + c0 + q]);
        else
            memcpy(top, a + (c0 + q) * lda, (size_t)c0 * sizeof *top);
        if (q < v->cols) {
            for (int64_t r = 0; r < q; r++)
                cq[r] = x->uplo == 'L' ? CONJ(a[(c0 + r) * lda + c0 + q]) : a[(c0 + q) * lda + c0 + r];
            first = 0;
        }
    }
    memset(cq, 0, (size_t)first * sizeof *cq);
    memset(cq + last, 0, (size_t)(v->height - last) * sizeof *cq);
    return nan_sum;
}

static void report_nonfinite(const struct copy_column_args *x, double nan_sum)
{
    if (isnan(nan_sum))
        atomic_store(x->nonfinite, 1);
}

/* The band entries of the caller's column col0+q (for 'U', its row) while
 * they are in cache: @p cq holds the library's column from the diagonal
 * down, @p rows entries.  In stage 2's storage an upper band's column j
 * holds A(i, j) at row 2kd - (j - i), a lower band's A(i, j) at row i - j
 * (startrd_kernel_zband_from_dense()); each entry is written by the copy
 * that holds it, and a column's zeros by the copy of its diagonal. */
static void scatter_band(const struct copy_column_args *x, const double complex *cq, int64_t q, int64_t rows)
{
    const startrd_zband_out_t *b = &x->band;
    int64_t c = x->col0 + q, len = rows < b->kd + 1 ? rows : b->kd + 1;
    double complex *col = b->ab + c * b->ldab;

    if (x->uplo == 'L') {
        memcpy(col, cq, (size_t)len * sizeof *col);
        memset(col + len, 0, (size_t)(b->ldab - len) * sizeof *col);
        return;
    }
    int64_t first = 2 * b->kd - (c < b->kd ? c : b->kd);

    memset(col, 0, (size_t)first * sizeof *col);
    memset(col + 2 * b->kd + 1, 0, (size_t)(b->ldab - 2 * b->kd - 1) * sizeof *col);
    for (int64_t r = 0; r < len; r++)
        b->ab[2 * b->kd - r + (c + r) * b->ldab] = CONJ(cq[r]);
}

/* The caller's column col0+q (for 'U', its row) from the library's column
 * q, @p cq pointing at its diagonal entry, and its band entries while
 * they are in cache. */
static void store_column(const struct copy_column_args *x, const struct column_view *v, const double complex *cq,
                         int64_t q)
{
    if (x->band.ab != NULL)
        scatter_band(x, cq, q, v->rows - q);
    if (x->uplo == 'L') {
        memcpy(v->a + q * x->lda + q, cq, (size_t)(v->rows - q) * sizeof *cq);
        return;
    }
    for (int64_t r = 0; r < v->rows - q; r++)
        v->a[(q + r) * x->lda + q] = CONJ(cq[r]);
}

static void copy_column_cpu(void *buffers[], void *cl_arg)
{
    const struct copy_column_args *x = cl_arg;
    struct column_view v = view(buffers, x);

    if (skipped(x))
        return;
    /* The stage-1 driver keeps such columns on GPUs (stage1_zhe2hb.h). */
    if (x->user_devid >= 0) {
        startrd_kernel_failure(x->to_user ? "copy_out" : "copy_in", "a column in host memory", -1);
        return;
    }
    if (!x->to_user) {
        double nan_sum = 0.0;

        for (int64_t q = 0; q < v.width; q++)
            nan_sum += fill_column(x, &v, v.c + q * v.ldc, q);
        report_nonfinite(x, nan_sum);
        return;
    }
    for (int64_t q = 0; q < v.cols; q++)
        store_column(x, &v, v.c + q * v.ldc + q, q);
}

STARTRD_HISTORY_MODEL(copy_in_model, "startrd_zcopy_in");
STARTRD_HISTORY_MODEL(copy_out_model, "startrd_zcopy_out");

static struct starpu_codelet copy_in_codelet = {
    .name = "zcopy_in",
    .cpu_funcs = {copy_column_cpu},
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &copy_in_model,
};

static struct starpu_codelet copy_out_codelet = {
    .name = "zcopy_out",
    .cpu_funcs = {copy_column_cpu},
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &copy_out_model,
};

#ifdef STARTRD_USE_CUDA
struct gpu_columns {
    const struct copy_column_args *x;
    const struct column_view *v;
    int64_t crow;           /* the diagonal tile's row in the handle */
    double nan_sum;
};

static void pack_columns(void *arg, void *packed, int64_t ld, int64_t q0, int64_t q1)
{
    struct gpu_columns *u = arg;
    double complex *buf = packed;

    for (int64_t q = q0; q < q1; q++)
        u->nan_sum += fill_column(u->x, u->v, buf + (q - q0) * ld + u->crow, q);
}

/* The buffer holds the columns from the diagonal tile's row down. */
static void unpack_columns(void *arg, void *packed, int64_t ld, int64_t q0, int64_t q1)
{
    const struct gpu_columns *u = arg;
    double complex *buf = packed;

    for (int64_t q = q0; q < q1; q++)
        store_column(u->x, u->v, buf + (q - q0) * ld + q, q);
}

/* The caller's matrix in GPU memory, the column on GPU @p devid: the
 * caller's rectangles (kernels_cuda.h) are read and written in place where
 * that is the caller's GPU, else through a copy of them on the column's
 * GPU, which the worker's stream fills from the caller's GPU and, going
 * out, writes back (a read, then a write of the same rectangle: its other
 * triangle's entries go back as they were).  The band goes to the host. */
static cudaError_t copy_column_device(const struct copy_column_args *x, const struct column_view *v,
                                      double complex *column, int64_t crow, int devid, const char **call)
{
    const size_t z = sizeof *column;
    const int64_t c0 = x->col0, lda = x->lda, rows = x->n - c0, cols = v->cols;
    const int lower = x->uplo == 'L', above = x->both && !x->to_user && c0 > 0, same = devid == x->user_devid;
    const int64_t m1 = lower ? rows : cols, n1 = lower ? cols : rows, m2 = lower ? cols : c0, n2 = lower ? c0 : cols;
    double complex *a1 = x->a + c0 + c0 * lda, *a2 = lower ? x->a + c0 : x->a + c0 * lda, *s1 = a1, *s2 = a2;
    const size_t bytes1 = (size_t)(m1 * n1) * z, bytes2 = above ? (size_t)(m2 * n2) * z : 0;
    const size_t flag_at = same ? 0 : (bytes1 + bytes2 + 15) / 16 * 16;
    cudaStream_t stream = startrd_cuda_upload_stream(devid);
    int64_t ld1 = lda, ld2 = lda;
    void *scratch = NULL;
    int *flag, found = 0;
    cudaError_t st;

    *call = "cudaMallocAsync";
    if (stream == NULL)
        return cudaErrorInvalidDevice;
    if ((st = cudaMallocAsync(&scratch, flag_at + sizeof *flag, stream)) != cudaSuccess)
        return st;
    flag = (int *)((char *)scratch + flag_at);
    if (!same) {
        s1 = scratch;
        s2 = s1 + m1 * n1;
        ld1 = m1 > 0 ? m1 : 1;
        ld2 = m2 > 0 ? m2 : 1;
        *call = "cudaMemcpy2DAsync";
        if (bytes1 > 0)
            st = cudaMemcpy2DAsync(s1, (size_t)ld1 * z, a1, (size_t)lda * z, (size_t)m1 * z, (size_t)n1,
                                   cudaMemcpyDefault, stream);
        if (st == cudaSuccess && bytes2 > 0)
            st = cudaMemcpy2DAsync(s2, (size_t)ld2 * z, a2, (size_t)lda * z, (size_t)m2 * z, (size_t)n2,
                                   cudaMemcpyDefault, stream);
    }
    if (st == cudaSuccess && !x->to_user) {
        *call = "startrd_cuda_zcolumn_from_user";
        if ((st = cudaMemsetAsync(flag, 0, sizeof *flag, stream)) == cudaSuccess)
            st = startrd_cuda_zcolumn_from_user(x->uplo, x->both, x->n, c0, crow + v->height, v->width,
                                                (const cuDoubleComplex *)s1, ld1, (const cuDoubleComplex *)s2, ld2,
                                                (cuDoubleComplex *)column, v->ldc, x->nonfinite != NULL ? flag : NULL,
                                                stream);
        if (st == cudaSuccess)
            st = cudaMemcpyAsync(&found, flag, sizeof found, cudaMemcpyDeviceToHost, stream);
    } else if (st == cudaSuccess) {
        *call = "startrd_cuda_zcolumn_to_user";
        st = startrd_cuda_zcolumn_to_user(x->uplo, x->n, c0, v->width, (const cuDoubleComplex *)(column + crow),
                                          v->ldc, (cuDoubleComplex *)s1, ld1, stream);
        if (st == cudaSuccess && !same && bytes1 > 0)
            st = cudaMemcpy2DAsync(a1, (size_t)lda * z, s1, (size_t)ld1 * z, (size_t)m1 * z, (size_t)n1,
                                   cudaMemcpyDefault, stream);
    }
    if (st == cudaSuccess)
        st = cudaFreeAsync(scratch, stream);
    else
        cudaFreeAsync(scratch, stream);
    *call = st != cudaSuccess ? *call : "cudaStreamSynchronize";
    if (st == cudaSuccess)
        st = cudaStreamSynchronize(stream);
    if (st == cudaSuccess && found)
        atomic_store(x->nonfinite, 1);
    if (st == cudaSuccess && x->to_user && x->band.ab != NULL && cols > 0) {
        /* The band's entries of each column, at most kd below its diagonal. */
        const int64_t hrows = rows < cols + x->band.kd ? rows : cols + x->band.kd;
        double complex *top = malloc((size_t)(hrows * cols) * z);

        *call = "cudaMemcpy2D";
        if (top == NULL)
            return cudaErrorMemoryAllocation;
        st = cudaMemcpy2DAsync(top, (size_t)hrows * z, column + crow, (size_t)v->ldc * z, (size_t)hrows * z,
                               (size_t)cols, cudaMemcpyDeviceToHost, stream);
        if (st == cudaSuccess && (st = cudaStreamSynchronize(stream)) == cudaSuccess)
            for (int64_t q = 0; q < cols; q++)
                scatter_band(x, top + q * hrows + q, q, rows - q);
        free(top);
    }
    return st;
}

/* On a CPU worker, the column in its GPU's memory: the view's pointer is
 * a device address, only its geometry is used here.  Going in, every row
 * of the handle is written (padding and, with both triangles, the rows
 * above the diagonal tile); going out, only the columns inside the
 * caller's matrix travel, from the diagonal tile's row down. */
static void copy_column_gpu_cpu(void *buffers[], void *cl_arg)
{
    const struct copy_column_args *x = cl_arg;
    struct column_view v = view(buffers, x);
    struct gpu_columns u = {x, &v, x->both ? x->col0 : 0, 0.0};
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_COLUMN]);
    int devid = starpu_memory_node_get_devid((unsigned)starpu_task_get_current_data_node(BUF_COLUMN));
    int st;

    if (skipped(x))
        return;
    if (x->user_devid >= 0) {
        const char *call;

        if ((st = copy_column_device(x, &v, c, u.crow, devid, &call)) != cudaSuccess)
            startrd_kernel_failure(x->to_user ? "copy_out_device" : "copy_in_device", call, st);
        return;
    }
    if (x->to_user)
        st = startrd_cuda_download(devid, sizeof *c, c + u.crow, v.ldc, v.height, v.cols, unpack_columns, &u);
    else
        st = startrd_cuda_upload(devid, sizeof *c, c, v.ldc, u.crow + v.height, v.width, pack_columns, &u);
    if (st != 0)
        startrd_kernel_failure(x->to_user ? "copy_out_gpu" : "copy_in_gpu",
                               x->to_user ? "startrd_cuda_download" : "startrd_cuda_upload", st);
    else if (!x->to_user)
        report_nonfinite(x, u.nan_sum);
}

STARTRD_HISTORY_MODEL(copy_in_gpu_model, "startrd_zcopy_in_gpu");
STARTRD_HISTORY_MODEL(copy_out_gpu_model, "startrd_zcopy_out_gpu");

/* The column's memory node is part of the codelet: one per direction and
 * node. */
static struct starpu_codelet copy_gpu_codelets[2][STARPU_MAXNODES];
static pthread_once_t copy_gpu_once = PTHREAD_ONCE_INIT;

static void init_copy_gpu(void)
{
    for (int to_user = 0; to_user < 2; to_user++)
        for (int node = 0; node < STARPU_MAXNODES; node++)
            copy_gpu_codelets[to_user][node] = (struct starpu_codelet){
                .name = to_user ? "zcopy_out_gpu" : "zcopy_in_gpu",
                .cpu_funcs = {copy_column_gpu_cpu},
                .nbuffers = 2,
                .modes = {to_user ? STARPU_R : STARPU_W, STARPU_R},
                .specific_nodes = 1,
                .nodes = {node, STARPU_SPECIFIC_NODE_LOCAL},
                .model = to_user ? &copy_out_gpu_model : &copy_in_gpu_model,
            };
}
#endif

/* The codelet for a column whose home is @p node, and the task's name. */
static struct starpu_codelet *copy_codelet(int to_user, int node, const char **name)
{
#ifdef STARTRD_USE_CUDA
    if (node >= 0 && node < STARPU_MAXNODES && starpu_node_get_kind((unsigned)node) == STARPU_CUDA_RAM) {
        pthread_once(&copy_gpu_once, init_copy_gpu);
        *name = to_user ? "copy_out_gpu" : "copy_in_gpu";
        return &copy_gpu_codelets[to_user][node];
    }
#else
    (void)node;
#endif
    *name = to_user ? "copy_out" : "copy_in";
    return to_user ? &copy_out_codelet : &copy_in_codelet;
}

int startrd_task_zcopy_column(startrd_place_t place, int to_user, char uplo, int64_t n,
                              double complex *a, int64_t lda, int user_devid, int64_t col0, int both,
                              starpu_data_handle_t column, atomic_int *nonfinite,
                              starpu_data_handle_t scanned, const startrd_zband_out_t *band)
{
    struct copy_column_args *args = malloc(sizeof *args);
    const char *name;
    struct starpu_codelet *cl = copy_codelet(to_user, starpu_data_get_home_node(column), &name);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct copy_column_args){to_user, uplo, n, lda, a, user_devid, col0, both, nonfinite,
                                      to_user && band != NULL ? *band : (startrd_zband_out_t){NULL, 0, 0}};
    /* A copy in writes every entry of the column it fills. */
    return starpu_task_insert(cl,
                              STARPU_CL_ARGS, args, sizeof *args,
                              to_user ? STARPU_R : STARPU_W, column, STARPU_R, scanned,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_NAME, name,
                              0);
}
