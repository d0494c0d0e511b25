/* The check for NaN and Inf, one block column of the caller's matrix per
 * task, on CPU workers: it reads the caller's triangle while the copies
 * move it to the GPUs, and its verdict decides whether anything is copied
 * back (see startrd_task_copied_in). */
#include "codelets.h"
#include "kernels_stage1.h"

#include <stdlib.h>

struct scan_column_args {
    char uplo;
    int64_t n, lda;
    const double complex *a;
    int64_t col0, cols;
    atomic_int *nonfinite;
};

static void scan_column_cpu(void *buffers[], void *cl_arg)
{
    const struct scan_column_args *x = cl_arg;

    (void)buffers;
    if (!startrd_zscan_finite(x->uplo, x->n, x->a, x->lda, x->col0, x->cols))
        atomic_store(x->nonfinite, 1);
}

STARTRD_HISTORY_MODEL(scan_column_model, "startrd_zscan_column");

static struct starpu_codelet scan_column_codelet = {
    .name = "zscan_column",
    .cpu_funcs = {scan_column_cpu},
    .nbuffers = 1,
    .modes = {STARPU_R},
    .model = &scan_column_model,
};

int startrd_task_zscan_column(char uplo, int64_t n, const double complex *a, int64_t lda, int64_t col0,
                              int64_t cols, atomic_int *nonfinite, starpu_data_handle_t scanned)
{
    struct scan_column_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct scan_column_args){uplo, n, lda, a, col0, cols, nonfinite};
    return starpu_task_insert(&scan_column_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, scanned,
                              STARPU_EXECUTE_WHERE, STARPU_CPU,
                              STARPU_NAME, "scan",
                              0);
}
