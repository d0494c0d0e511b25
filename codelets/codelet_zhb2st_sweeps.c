/* One rank of the bulge chase.  The kernels are grouped as in
 * stage2_zhb2st.c: group S holds sweeps S*G .. S*G+G-1, its window M the
 * kernels whose skewed position q = m + 2r (r the sweep's rank in the group)
 * lies in [2GM, 2G(M+1)), which touch one stretch of the band that stays in
 * cache while they run.  Window (S, M) needs (S, M-1) and (S-1, M+1).  Rank
 * r of P takes the groups S = r, r+P, ... and runs their windows in order;
 * before (S, M) it waits for group S-1 to have completed window M+1, read
 * from that group's progress counter.  A window is a few dozen microseconds
 * of work: a runtime task per window costs the runtime more than that, a
 * counter costs one atomic store.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "kernels_stage2.h"

#include <stdlib.h>

struct zhb2st_sweeps_args {
    const startrd_zhb2st_schedule_t *sched;
    int rank, nranks;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void run_window(const startrd_zhb2st_schedule_t *x, int64_t S, int64_t M, double complex *work)
{
    int64_t s0 = S * x->G, s1 = s0 + x->G < x->nsweeps ? s0 + x->G : x->nsweeps, width = 2 * x->G;

    for (int64_t s = s0; s < s1; s++) {
        int64_t skew = 2 * (s - s0), nk = startrd_bulge_nkernels(x->plan, s);

        for (int64_t q = M * width; q < (M + 1) * width; q++)
            if (q - skew >= 0 && q - skew < nk)
                startrd_kernel_zhb2st_step(x->plan, x->uplo, s, q - skew, x->AB, x->ldab, x->hous, work);
    }
}

static void zhb2st_sweeps_cpu(void *buffers[], void *cl_arg)
{
    const struct zhb2st_sweeps_args *a = cl_arg;
    const startrd_zhb2st_schedule_t *x = a->sched;
    double complex *work = x->work + (size_t)a->rank * (size_t)(x->plan->kd > 0 ? x->plan->kd : 1);

    (void)buffers;
    for (int64_t S = a->rank; S < x->ngroups; S += a->nranks)
        for (int64_t M = 0; M < x->nwindows[S]; M++) {
            if (S > 0) {
                int64_t need = M + 2 < x->nwindows[S - 1] ? M + 2 : x->nwindows[S - 1];

                while (atomic_load_explicit(&x->done[S - 1].windows, memory_order_acquire) < need)
                    cpu_relax();
            }
            run_window(x, S, M, work);
            atomic_store_explicit(&x->done[S].windows, M + 1, memory_order_release);
        }
}

STARTRD_HISTORY_MODEL(zhb2st_sweeps_model, "startrd_zhb2st_sweeps");

static struct starpu_codelet zhb2st_sweeps_codelet = {
    .name = "zhb2st_sweeps",
    .cpu_funcs = {zhb2st_sweeps_cpu},
    .nbuffers = 0,
    .model = &zhb2st_sweeps_model,
};

int startrd_task_zhb2st_sweeps(int worker, const startrd_zhb2st_schedule_t *sched, int rank, int nranks)
{
    struct zhb2st_sweeps_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct zhb2st_sweeps_args){sched, rank, nranks};
    return starpu_task_insert(&zhb2st_sweeps_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_EXECUTE_ON_WORKER, worker,
                              /* Roughly 20 kd^2 flops per kernel, shared by the ranks. */
                              STARPU_FLOPS,
                              20.0 * (double)(sched->plan->kd * sched->plan->kd) * sched->nkernels / nranks,
                              0);
}
