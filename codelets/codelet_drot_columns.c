/* The rotations a divide-and-conquer merge's deflation gives pairs of
 * close eigenvalues, applied to the merge's rows of Q where its vectors
 * stay on one worker.
 *
 * @precisions normal d -> s
 */
#include "codelets_dstedc.h"
#include "cuda_lanes.h"
#include "error.h"

#include <cblas.h>
#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct rot_args {
    int64_t row0, rows, col0;
};

static double *first_column(void *buffers[], const struct rot_args *a)
{
    return (double *)STARPU_MATRIX_GET_PTR(buffers[1]) + a->row0 + a->col0 * STARPU_MATRIX_GET_LD(buffers[1]);
}

static void rot_columns_cpu(void *buffers[], void *cl_arg)
{
    const struct rot_args *a = cl_arg;
    const startrd_drotation_t *rot = (const startrd_drotation_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const int64_t count = STARPU_VECTOR_GET_NX(buffers[0]), ldq = STARPU_MATRIX_GET_LD(buffers[1]);
    double *q = first_column(buffers, a);

    for (int64_t t = 0; t < count; t++)
        cblas_drot((int)a->rows, q + rot[t].p * ldq, 1, q + rot[t].c * ldq, 1, rot[t].cs, rot[t].sn);
}

#ifdef STARTRD_USE_CUDA
static void rot_columns_cuda(void *buffers[], void *cl_arg)
{
    const struct rot_args *a = cl_arg;
    const startrd_cuda_lanes_t *lane = startrd_cuda_fork_urgent();
    cudaError_t st;

    if (lane == NULL)
        return;
    st = startrd_cuda_drot_columns(a->rows, STARPU_VECTOR_GET_NX(buffers[0]),
                                   (const startrd_drotation_t *)STARPU_VECTOR_GET_PTR(buffers[0]),
                                   first_column(buffers, a), STARPU_MATRIX_GET_LD(buffers[1]), lane->stream[0]);
    if (st != cudaSuccess)
        startrd_kernel_failure("drot_columns", "rotation kernel", st);
    startrd_cuda_join(lane);
}
#endif

static struct starpu_codelet rot_columns_codelet = {
    .name = "drot_columns",
    .cpu_funcs = {rot_columns_cpu},
    STARTRD_CUDA_ASYNC(rot_columns_cuda)
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_RW},
};

int startrd_task_drot_columns(int worker, int64_t row0, int64_t rows, int64_t col0, starpu_data_handle_t rotations,
                              starpu_data_handle_t Q)
{
    struct rot_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct rot_args){row0, rows, col0};
    return starpu_task_insert(&rot_columns_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, rotations, STARPU_RW, Q,
                              STARPU_EXECUTE_ON_WORKER, worker,
                              0);
}
