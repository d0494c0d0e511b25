/* C(kd:n-1, :) := Q1 C(kd:n-1, :) or Q1^H C(kd:n-1, :) for a block of
 * columns C, Q1 the stage-1 reflectors: reflector j starts at row j of the
 * (n-kd) x (n-kd) matrix V, ZGEQRF's layout, so LAPACK's ZUNMQR applies
 * them, blocked. */
#include "codelets.h"
#include "error.h"

#include <lapacke.h>
#include <stdlib.h>

struct unmqr_args {
    char trans;
    int64_t kd;
};

static void unmqr_cpu(void *buffers[], void *cl_arg)
{
    const struct unmqr_args *a = cl_arg;
    const double complex *v = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const double complex *tau = (const double complex *)STARPU_VECTOR_GET_PTR(buffers[1]);
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[2]);
    lapack_int m = (lapack_int)STARPU_MATRIX_GET_NX(buffers[0]), k = (lapack_int)STARPU_VECTOR_GET_NX(buffers[1]);
    lapack_int info = LAPACKE_zunmqr(LAPACK_COL_MAJOR, 'L', a->trans, m, (lapack_int)STARPU_MATRIX_GET_NY(buffers[2]),
                                     k, v, (lapack_int)STARPU_MATRIX_GET_LD(buffers[0]), tau, c + a->kd,
                                     (lapack_int)STARPU_MATRIX_GET_LD(buffers[2]));

    if (info != 0)
        startrd_kernel_failure("unmqr_q1", "LAPACKE_zunmqr", info);
}

STARTRD_HISTORY_MODEL(unmqr_model, "startrd_zunmqr_q1");

static struct starpu_codelet unmqr_codelet = {
    .name = "zunmqr_q1",
    .cpu_funcs = {unmqr_cpu},
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_R, STARPU_RW},
    .model = &unmqr_model,
};

int startrd_task_zunmqr_q1(char trans, int64_t kd, starpu_data_handle_t V, starpu_data_handle_t tau,
                           starpu_data_handle_t C)
{
    struct unmqr_args *args = malloc(sizeof *args);
    double m = (double)starpu_matrix_get_nx(V);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct unmqr_args){trans, kd};
    return starpu_task_insert(&unmqr_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, V, STARPU_R, tau, STARPU_RW, C,
                              STARPU_FLOPS, 8.0 * m * m * (double)starpu_matrix_get_ny(C),
                              0);
}
