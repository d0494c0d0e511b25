/* The bulge chase split over several GPUs (kernel_hb2st_chase.cu): on each
 * GPU a task that prepares its copy of the band, then, once every GPU has,
 * a task that runs its share of every sweep.  The second tasks wait for one
 * another inside their kernels, so they must all be running at once: one per
 * GPU, on workers with nothing else queued.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"

_Static_assert(STARTRD_CHASE_MAX_GPUS == STARTRD_CUDA_ZHB2ST_MAX_GPUS, "the GPUs a chase is split over");
#endif

#include <stdlib.h>

struct zhb2st_split_args {
    startrd_zhb2st_split_t split;
    int gpu;
    char uplo;
    int64_t n, kd, nsweeps;
};

#ifdef STARTRD_USE_CUDA
/* The device numbers and buffers of @p split, as the CUDA kernels take them. */
static startrd_cuda_zhb2st_split_t cuda_split(const startrd_zhb2st_split_t *split)
{
    startrd_cuda_zhb2st_split_t c = {.ngpu = split->ngpu};

    for (int g = 0; g < split->ngpu; g++) {
        c.devices[g] = split->devices[g];
        c.work[g] = (cuDoubleComplex *)split->work[g];
        c.progress[g] = split->progress[g];
    }
    return c;
}

static void zhb2st_split_prepare_cuda(void *buffers[], void *cl_arg)
{
    const struct zhb2st_split_args *a = cl_arg;
    startrd_cuda_zhb2st_split_t split = cuda_split(&a->split);
    cudaError_t err = startrd_cuda_zhb2st_split_prepare(&split, a->gpu, a->uplo, a->n, a->kd,
                                                        (const cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[0]),
                                                        a->nsweeps, starpu_cuda_get_local_stream());

    if (err != cudaSuccess)
        startrd_kernel_failure("zhb2st_split_prepare", cudaGetErrorString(err), err);
}

static void zhb2st_split_chase_cuda(void *buffers[], void *cl_arg)
{
    const struct zhb2st_split_args *a = cl_arg;
    startrd_cuda_zhb2st_split_t split = cuda_split(&a->split);
    int with_de = startrd_current_nbuffers() > 2;
    cudaError_t err = startrd_cuda_zhb2st_split_chase(
        &split, a->gpu, a->n, a->kd, a->nsweeps, with_de ? (double *)STARPU_VECTOR_GET_PTR(buffers[2]) : NULL,
        with_de ? (double *)STARPU_VECTOR_GET_PTR(buffers[3]) : NULL, starpu_cuda_get_local_stream());

    if (err != cudaSuccess)
        startrd_kernel_failure("zhb2st_split_chase", cudaGetErrorString(err), err);
}
#endif

static struct starpu_codelet zhb2st_split_prepare_codelet = {
    .name = "zhb2st_split_prepare",
    STARTRD_CUDA_ASYNC(zhb2st_split_prepare_cuda)
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_W, STARPU_W},
};

STARTRD_HISTORY_MODEL(zhb2st_split_chase_model, "startrd_zhb2st_split_chase");

static struct starpu_codelet zhb2st_split_chase_codelet = {
    .name = "zhb2st_split_chase",
    STARTRD_CUDA_ASYNC(zhb2st_split_chase_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &zhb2st_split_chase_model,
};

/* GPU @p gpu's task of @p cl, built, not submitted; NULL when out of memory. */
static struct starpu_task *build(struct starpu_codelet *cl, const startrd_zhb2st_split_t *split, int gpu, char uplo,
                                 const startrd_bulge_plan_t *plan, struct starpu_data_descr *descr, int ndescr,
                                 double flops)
{
    struct zhb2st_split_args *args = malloc(sizeof *args);
    struct starpu_task *task;

    if (args == NULL)
        return NULL;
    *args = (struct zhb2st_split_args){*split, gpu, uplo, plan->n, plan->kd, startrd_bulge_nsweeps(plan)};
    task = starpu_task_build(cl,
                             STARPU_CL_ARGS, args, sizeof *args,
                             STARPU_DATA_MODE_ARRAY, descr, ndescr,
                             STARPU_EXECUTE_ON_WORKER, split->workers[gpu],
                             STARPU_FLOPS, flops,
                             0);
    if (task == NULL)
        free(args);
    return task;
}

/* Every GPU's task, or none: built first, then submitted. */
static int submit_all(struct starpu_task **tasks, int ngpu)
{
    int ret = 0;

    for (int g = 0; g < ngpu; g++)
        if (tasks[g] == NULL)
            ret = -ENOMEM;
    for (int g = 0; g < ngpu; g++) {
        if (ret == 0)
            ret = starpu_task_submit(tasks[g]);
        else if (tasks[g] != NULL)
            starpu_task_destroy(tasks[g]);
    }
    return ret;
}

int startrd_task_zhb2st_split_prepare(const startrd_zhb2st_split_t *split, const startrd_bulge_plan_t *plan,
                                      char uplo, starpu_data_handle_t AB)
{
    struct starpu_task *tasks[STARTRD_CHASE_MAX_GPUS];

    for (int g = 0; g < split->ngpu; g++) {
        struct starpu_data_descr descr[] = {
            {.handle = AB, .mode = STARPU_R},
            {.handle = split->work_handle[g], .mode = STARPU_W},
            {.handle = split->progress_handle[g], .mode = STARPU_W},
        };

        tasks[g] = build(&zhb2st_split_prepare_codelet, split, g, uplo, plan, descr, 3, 0.0);
    }
    return submit_all(tasks, split->ngpu);
}

int startrd_task_zhb2st_split_chase(const startrd_zhb2st_split_t *split, const startrd_bulge_plan_t *plan,
                                    starpu_data_handle_t d, starpu_data_handle_t e)
{
    struct starpu_task *tasks[STARTRD_CHASE_MAX_GPUS];

    for (int g = 0; g < split->ngpu; g++) {
        struct starpu_data_descr descr[] = {
            {.handle = split->work_handle[g], .mode = STARPU_RW},
            {.handle = split->progress_handle[g], .mode = STARPU_RW},
            {.handle = d, .mode = STARPU_W},
            {.handle = e, .mode = STARPU_W},
        };

        /* Roughly 20 kd^2 flops per kernel, shared evenly. */
        tasks[g] = build(&zhb2st_split_chase_codelet, split, g, 'L', plan, descr, g == 0 ? 4 : 2,
                         20.0 * (double)(plan->kd * plan->kd) * (double)startrd_bulge_ntasks(plan) / split->ngpu);
    }
    /* A task the others wait for must not be missing: a submission to a
     * CUDA worker fails only for want of one. */
    return submit_all(tasks, split->ngpu);
}
