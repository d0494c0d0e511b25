/* A range of the band's columns copied out of the reduced matrix, on a CPU
 * worker: the copy is a page fault and a cache miss per column, and the GPU
 * chase waits for all of it (at n = 32768 on one core, about 60 ms). */
#include "codelets.h"
#include "kernels_stage2.h"

#include <stdlib.h>

struct zband_from_dense_args {
    char uplo;
    int64_t n, kd, j0, j1, lda, ldab;
    const double complex *A;
    double complex *AB;
};

static void zband_from_dense_cpu(void *buffers[], void *cl_arg)
{
    const struct zband_from_dense_args *x = cl_arg;

    (void)buffers;
    startrd_kernel_zband_from_dense(x->uplo, x->n, x->kd, x->j0, x->j1, x->A, x->lda, x->AB, x->ldab);
}

static struct starpu_codelet zband_from_dense_codelet = {
    .name = "zband_from_dense",
    .cpu_funcs = {zband_from_dense_cpu},
    .nbuffers = 0,
};

int startrd_task_zband_from_dense(int worker, char uplo, int64_t n, int64_t kd, int64_t j0, int64_t j1,
                                  const double complex *A, int64_t lda, double complex *AB, int64_t ldab)
{
    struct zband_from_dense_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct zband_from_dense_args){uplo, n, kd, j0, j1, lda, ldab, A, AB};
    return starpu_task_insert(&zband_from_dense_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_EXECUTE_ON_WORKER, worker,
                              STARPU_NAME, "band",
                              0);
}
