/* The whole bulge chase as one task on a GPU (kernel_hb2st_chase.cu): the
 * band in, d and e out, and HOUS2 when the reflectors are kept.  The CPU
 * chase is a set of ranks on all CPU workers instead
 * (codelet_zhb2st_sweeps.c).
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"

_Static_assert(STARTRD_CHASE_GPU_MAX_KD == STARTRD_CUDA_ZHB2ST_MAX_KD, "the codelet offers what the kernel takes");
#endif

#include <stdlib.h>

struct zhb2st_chase_args {
    char uplo;
    int64_t n, kd, nsweeps, nrefl;
};

#ifdef STARTRD_USE_CUDA
static void zhb2st_chase_cuda(void *buffers[], void *cl_arg)
{
    const struct zhb2st_chase_args *a = cl_arg;
    cuDoubleComplex *hous = startrd_current_nbuffers() > 5
        ? (cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[5]) : NULL;
    cudaError_t err = startrd_cuda_zhb2st(a->uplo, a->n, a->kd,
                                          (const cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[0]),
                                          (cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[3]),
                                          (int *)STARPU_VECTOR_GET_PTR(buffers[4]), a->nsweeps, hous, a->nrefl,
                                          (double *)STARPU_VECTOR_GET_PTR(buffers[1]),
                                          (double *)STARPU_VECTOR_GET_PTR(buffers[2]),
                                          starpu_cuda_get_local_stream());

    if (err != cudaSuccess)
        startrd_kernel_failure("zhb2st_chase", cudaGetErrorString(err), err);
}
#endif

STARTRD_HISTORY_MODEL(zhb2st_chase_model, "startrd_zhb2st_chase");

static struct starpu_codelet zhb2st_chase_codelet = {
    .name = "zhb2st_chase",
    STARTRD_CUDA_ASYNC(zhb2st_chase_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &zhb2st_chase_model,
};

int startrd_task_zhb2st_chase(int worker, const startrd_bulge_plan_t *plan, char uplo, starpu_data_handle_t AB,
                              starpu_data_handle_t d, starpu_data_handle_t e, starpu_data_handle_t work,
                              starpu_data_handle_t progress, starpu_data_handle_t hous)
{
    struct zhb2st_chase_args *args = malloc(sizeof *args);
    struct starpu_data_descr descr[] = {
        {.handle = AB, .mode = STARPU_R},        {.handle = d, .mode = STARPU_W},
        {.handle = e, .mode = STARPU_W},         {.handle = work, .mode = STARPU_SCRATCH},
        {.handle = progress, .mode = STARPU_SCRATCH}, {.handle = hous, .mode = STARPU_W},
    };

    if (args == NULL)
        return -ENOMEM;
    *args = (struct zhb2st_chase_args){uplo, plan->n, plan->kd, startrd_bulge_nsweeps(plan),
                                       startrd_bulge_nrefl(plan)};
    return starpu_task_insert(&zhb2st_chase_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_DATA_MODE_ARRAY, descr, hous != NULL ? 6 : 5,
                              STARPU_EXECUTE_ON_WORKER, worker,
                              /* Roughly 20 kd^2 flops per kernel. */
                              STARPU_FLOPS, 20.0 * (double)(plan->kd * plan->kd) * (double)startrd_bulge_ntasks(plan),
                              0);
}

int64_t startrd_zhb2st_chase_scratch_ints(const startrd_bulge_plan_t *plan)
{
#ifdef STARTRD_USE_CUDA
    return startrd_cuda_zhb2st_scratch_ints(startrd_bulge_nsweeps(plan));
#else
    return startrd_bulge_nsweeps(plan);
#endif
}
