/* A group of bulge-chasing kernels: sweeps s0..s1-1, and in each sweep
 * s0+r the kernels m with q = m + 2r in [q0, q1).  Skewing by 2r lines the
 * group's sweeps up so that its kernels touch one window of the band, which
 * stays in cache while they run (see stage2_zhb2st.c for the ordering).  The
 * band and HOUS are shared host arrays; the tasks' order comes from the
 * token handles they access, not from the arrays. */
#include "codelets.h"
#include "error.h"
#include "kernels_stage2.h"

#include <stdlib.h>

struct zhb2st_group_args {
    const startrd_bulge_plan_t *plan;
    char uplo;
    double complex *AB, *hous;
    int64_t ldab, s0, s1, q0, q1;
};

static void zhb2st_group_cpu(void *buffers[], void *cl_arg)
{
    const struct zhb2st_group_args *a = cl_arg;
    double complex *work = malloc((size_t)(a->plan->kd > 0 ? a->plan->kd : 1) * sizeof *work);

    (void)buffers;
    if (work == NULL) {
        startrd_kernel_failure("zhb2st_group", "malloc", 0);
        return;
    }
    for (int64_t s = a->s0; s < a->s1; s++) {
        int64_t skew = 2 * (s - a->s0), nk = startrd_bulge_nkernels(a->plan, s);

        for (int64_t q = a->q0; q < a->q1; q++)
            if (q - skew >= 0 && q - skew < nk)
                startrd_kernel_zhb2st_step(a->plan, a->uplo, s, q - skew, a->AB, a->ldab, a->hous, work);
    }
    free(work);
}

STARTRD_HISTORY_MODEL(zhb2st_group_model, "startrd_zhb2st_group");

static struct starpu_codelet zhb2st_group_codelet = {
    .name = "zhb2st_group",
    .cpu_funcs = {zhb2st_group_cpu},
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_RW, STARPU_R},
    .model = &zhb2st_group_model,
};

int startrd_task_zhb2st_group(startrd_place_t place, const startrd_bulge_plan_t *plan, char uplo,
                              double complex *AB, int64_t ldab, double complex *hous,
                              int64_t s0, int64_t s1, int64_t q0, int64_t q1,
                              starpu_data_handle_t before, starpu_data_handle_t self,
                              starpu_data_handle_t after)
{
    struct zhb2st_group_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct zhb2st_group_args){plan, uplo, AB, hous, ldab, s0, s1, q0, q1};
    return starpu_task_insert(&zhb2st_group_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, before, STARPU_RW, self, STARPU_R, after,
                              STARTRD_PLACE_ARGS(place),
                              /* Roughly 20 kd^2 flops per kernel, one kernel per (sweep, q). */
                              STARPU_FLOPS, 20.0 * (double)(plan->kd * plan->kd) * (double)((s1 - s0) * (q1 - q0)),
                              0);
}
