/* Moves one block column between the caller's LAPACK-layout matrix and the
 * library's padded lower-storage copy.  Copying in is also where NaN and Inf
 * are caught, at no extra pass over memory; copying out is skipped once one
 * was, so the caller's matrix is left as it was.  For uplo = 'U' the copy holds the
 * conjugate transpose of the stored upper triangle, which is the lower
 * triangle of the same Hermitian matrix, so the stage-1 algorithm only has
 * a lower variant.  Only the referenced triangle of the caller's matrix is
 * read or written. */
#include "codelets.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct copy_column_args {
    int to_user;            /* direction */
    char uplo;
    int64_t n, lda;         /* the caller's matrix */
    double complex *a;
    int64_t col0;           /* first column of this block column */
    atomic_int *nonfinite;  /* NULL: no check */
};

/* x * 0 is 0 for every finite x and NaN for NaN and Inf: one sum tells. */
static int all_finite(const double complex *x, int64_t count)
{
    double sum = 0.0;

    for (int64_t i = 0; i < count; i++)
        sum += creal(x[i]) * 0.0 + cimag(x[i]) * 0.0;
    return !isnan(sum);
}

static void copy_column_cpu(void *buffers[], void *cl_arg)
{
    const struct copy_column_args *x = cl_arg;
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    int64_t ldc = STARPU_MATRIX_GET_LD(buffers[0]);
    int64_t width = STARPU_MATRIX_GET_NY(buffers[0]);
    int64_t cols = x->n - x->col0 < width ? x->n - x->col0 : width;

    if (x->to_user && x->nonfinite != NULL && atomic_load(x->nonfinite))
        return;
    for (int64_t q = 0; q < cols; q++) {
        int64_t col = x->col0 + q, rows = x->n - col;   /* from the diagonal down */
        double complex *cq = c + q * ldc + q;

        if (x->uplo == 'L') {
            double complex *aq = x->a + col * x->lda + col;

            if (x->to_user)
                memcpy(aq, cq, (size_t)rows * sizeof *cq);
            else
                memcpy(cq, aq, (size_t)rows * sizeof *cq);
            continue;
        }
        /* Row `col` of the upper triangle, walked with stride lda. */
        for (int64_t r = 0; r < rows; r++) {
            double complex *ar = x->a + (col + r) * x->lda + col;

            if (x->to_user)
                *ar = conj(cq[r]);
            else
                cq[r] = conj(*ar);
        }
    }
    if (x->to_user)
        return;
    /* The library's copy is allocated, not cleared: what the caller's matrix
     * does not fill (the padding below row n and right of column n, and the
     * unused triangle of the diagonal tile) is zeroed here, by the tasks,
     * in parallel, and only for the block columns' own rows. */
    for (int64_t q = 0; q < width; q++) {
        int64_t height = STARPU_MATRIX_GET_NX(buffers[0]);
        int64_t first = q < cols ? q : height, last = q < cols ? x->n - x->col0 : height;

        memset(c + q * ldc, 0, (size_t)first * sizeof *c);
        memset(c + q * ldc + last, 0, (size_t)(height - last) * sizeof *c);
    }
    if (x->nonfinite != NULL) {
        int finite = 1;

        for (int64_t q = 0; q < cols; q++)
            finite &= all_finite(c + q * ldc + q, x->n - x->col0 - q);
        if (!finite)
            atomic_store(x->nonfinite, 1);
    }
}

STARTRD_HISTORY_MODEL(copy_column_model, "startrd_zcopy_column");

static struct starpu_codelet copy_column_codelet = {
    .name = "zcopy_column",
    .cpu_funcs = {copy_column_cpu},
    .nbuffers = 2,
    .modes = {STARPU_RW, STARPU_R},
    .model = &copy_column_model,
};

int startrd_task_zcopy_column(startrd_place_t place, int to_user, char uplo, int64_t n,
                              double complex *a, int64_t lda, int64_t col0,
                              starpu_data_handle_t column, atomic_int *nonfinite,
                              starpu_data_handle_t scanned)
{
    struct copy_column_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct copy_column_args){to_user, uplo, n, lda, a, col0, nonfinite};
    return starpu_task_insert(&copy_column_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_RW, column, STARPU_R, scanned,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_NAME, to_user ? "copy_out" : "copy_in",
                              0);
}

/* Nothing to compute: the task only orders, through its write of the token,
 * every copy out after every copy in, so that the verdict of the scan is
 * final before anything is written back. */
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
