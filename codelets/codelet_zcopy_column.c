/* Moves one block column between the caller's LAPACK-layout matrix and the
 * library's padded lower-storage copy, on the host: the host copy, or a
 * pinned staging buffer that StarPU moves to or from the column's GPU at the
 * link's full rate.  A GPU reads or writes the caller's pageable memory at
 * 2-9 GB/s, and such a copy blocks the thread that drives the GPU's
 * streams.  Copying out is skipped once a NaN or Inf was seen, so the
 * caller's matrix is left as it was.  For uplo = 'U' the copy holds the conjugate
 * transpose of the stored upper triangle, which is the lower triangle of the
 * same Hermitian matrix, so the stage-1 algorithm only has a lower variant.
 * A column that keeps both triangles (its handle starts at row 0, so its
 * diagonal tile at row col0) gets the other triangle above the diagonal when
 * copied in; only the lower part goes back.
 * Only the referenced triangle of the caller's matrix is written. */
#include "codelets.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

enum { BUF_COLUMN, BUF_SCANNED };

struct copy_column_args {
    int to_user;            /* direction */
    char uplo;
    int64_t n, lda;         /* the caller's matrix */
    double complex *a;
    int64_t col0;           /* first column of this block column */
    int both;               /* the handle holds both triangles, from row 0 */
    atomic_int *nonfinite;  /* NULL: no check */
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
    /* The column's rows in the padded matrix; a staging buffer, shared by
     * columns of every height, may have more. */
    v.height = (x->n + v.width - 1) / v.width * v.width - x->col0;
    if (v.height > (int64_t)STARPU_MATRIX_GET_NX(buffers[BUF_COLUMN]) - crow)
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

/* Rows 0 .. col0-1 of a column kept with both triangles: the conjugate
 * transpose of the caller's row block col0 for 'L' (read along its columns,
 * where it is contiguous), the caller's own rows for 'U'; zeros right of n. */
static void copy_other_triangle_in(const struct copy_column_args *x, const struct column_view *v)
{
    double complex *top = v->c - x->col0;

    if (x->uplo == 'L') {
        for (int64_t i = 0; i < x->col0; i++) {
            const double complex *ai = x->a + i * x->lda + x->col0;

            for (int64_t q = 0; q < v->cols; q++)
                top[q * v->ldc + i] = conj(ai[q]);
        }
    } else {
        for (int64_t q = 0; q < v->cols; q++)
            memcpy(top + q * v->ldc, x->a + (x->col0 + q) * x->lda, (size_t)x->col0 * sizeof *top);
    }
    for (int64_t q = v->cols; q < v->width; q++)
        memset(top + q * v->ldc, 0, (size_t)x->col0 * sizeof *top);
}

static void copy_column_cpu(void *buffers[], void *cl_arg)
{
    const struct copy_column_args *x = cl_arg;
    struct column_view v = view(buffers, x);

    if (skipped(x))
        return;
    for (int64_t q = 0; q < v.cols; q++) {
        double complex *cq = v.c + q * v.ldc + q;

        if (x->uplo == 'L') {
            double complex *aq = v.a + q * x->lda + q;

            if (x->to_user)
                memcpy(aq, cq, (size_t)(v.rows - q) * sizeof *cq);
            else
                memcpy(cq, aq, (size_t)(v.rows - q) * sizeof *cq);
            continue;
        }
        /* Row col0+q of the upper triangle, walked with stride lda. */
        for (int64_t r = 0; r < v.rows - q; r++) {
            double complex *ar = v.a + (q + r) * x->lda + q;

            if (x->to_user)
                *ar = conj(cq[r]);
            else
                cq[r] = conj(*ar);
        }
    }
    if (x->to_user)
        return;
    if (x->both)
        copy_other_triangle_in(x, &v);
    /* The library's copy is allocated, not cleared: what the caller's matrix
     * does not fill (the padding below row n and right of column n, and the
     * unused triangle of the diagonal tile, unless both are kept) is zeroed
     * here, by the tasks, in parallel, and only for the block columns' own
     * rows. */
    for (int64_t q = 0; q < v.width; q++) {
        int64_t first = q < v.cols ? q : v.height, last = q < v.cols ? v.rows : v.height;

        if (x->both && q < v.cols) {
            for (int64_t r = 0; r < q; r++)
                v.c[q * v.ldc + r] = conj(v.c[r * v.ldc + q]);
            first = 0;
        }
        memset(v.c + q * v.ldc, 0, (size_t)first * sizeof *v.c);
        memset(v.c + q * v.ldc + last, 0, (size_t)(v.height - last) * sizeof *v.c);
    }
}

/* A staging buffer has one size for columns of every height: the height
 * is part of the footprint the history is kept by. */
static uint32_t copy_in_footprint(struct starpu_task *task)
{
    const struct copy_column_args *x = task->cl_arg;

    return starpu_hash_crc32c_be((uint32_t)(x->n - x->col0), starpu_task_data_footprint(task));
}

STARTRD_HISTORY_MODEL_FOOTPRINT(copy_in_model, "startrd_zcopy_in", copy_in_footprint);
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

int startrd_task_zcopy_column(startrd_place_t place, int to_user, char uplo, int64_t n,
                              double complex *a, int64_t lda, int64_t col0, int both,
                              starpu_data_handle_t column, atomic_int *nonfinite,
                              starpu_data_handle_t scanned)
{
    struct copy_column_args *args = malloc(sizeof *args);
    /* A copy in writes every entry of the column (or staging buffer) it fills. */
    struct starpu_data_descr descr[2] = {{column, to_user ? STARPU_R : STARPU_W}, {scanned, STARPU_R}};

    if (args == NULL)
        return -ENOMEM;
    *args = (struct copy_column_args){to_user, uplo, n, lda, a, col0, both, nonfinite};
    return starpu_task_insert(to_user ? &copy_out_codelet : &copy_in_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_DATA_MODE_ARRAY, descr, 2,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_NAME, to_user ? "copy_out" : "copy_in",
                              0);
}

/* Nothing to compute: the task only orders, through its write of the token,
 * every copy out after every copy in and every scan, so that the verdict of
 * the scan is final before anything is written back. */
static void copied_in_cpu(void *buffers[], void *cl_arg)
{
    (void)buffers;
    (void)cl_arg;
}

static struct starpu_codelet copied_in_codelet = {
    .name = "copied_in",
    .cpu_funcs = {copied_in_cpu},
    .nbuffers = 1,
    .modes = {STARPU_W},
};

int startrd_task_copied_in(starpu_data_handle_t scanned)
{
    return starpu_task_insert(&copied_in_codelet, STARPU_W, scanned, 0);
}
