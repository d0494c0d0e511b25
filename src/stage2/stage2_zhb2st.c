/* Stage 2.  Kernel (s, m) of the plan waits for (s, m-1) and for (s-1,
 * about m+2) (bulge_plan.h).  Writing q = m + 2r for sweep s0 + r of a
 * group of G consecutive sweeps turns both into "same or earlier q, same or
 * earlier sweep", so all the group's kernels in a q-window of width 2G can
 * run together, sweep by sweep, and window M of group S then waits only for
 * window M-1 of S and window M+1 of S-1.  The CPU workers share the groups
 * round robin and follow each other through progress counters
 * (codelet_zhb2st_sweeps.c).
 *
 * @precisions normal z -> s d c
 */
#include "stage2_zhb2st.h"

#include "codelets_z.h"
#include "device_memory.h"
#include "error.h"
#include "kernels_stage2.h"
#include "startrd.h"
#include "topology.h"

#include <stdlib.h>
#include <string.h>

/* Sweeps per group, G: a window runs about 2G^2 kernels and keeps a
 * stretch of 2G+kd columns of the band in cache.  A group spans about
 * 2(n-s)/(kd 2G) windows, and as many groups as that can be in progress at
 * once: G = 2 leaves the CPU workers enough of them until the last sweeps. */
enum { SWEEPS_PER_GROUP = 2 };

void startrd_stage2_zband_from_dense(char uplo, int64_t n, int64_t kd, const double complex *A, int64_t lda,
                                    double complex *AB, int64_t ldab)
{
    startrd_kernel_zband_from_dense(uplo, n, kd, 0, n, A, lda, AB, ldab);
}

/* Whether the GPU chase fits: the band twice (in, and the working copy)
 * and HOUS within half of the GPU's memory, the rest left to StarPU's
 * caches; and vectors of at most 2^32-1 entries, which bands of 2kd+1 <=
 * 257 rows reach only beyond n = 2^24. */
static int fits_on_gpu(const startrd_bulge_plan_t *plan, int64_t ldab, int cuda_worker)
{
    size_t bytes = 2 * (size_t)(ldab * plan->n) * sizeof(double complex);
    starpu_ssize_t room = startrd_device_memory_room(starpu_worker_get_memory_node((unsigned)cuda_worker));

    if (plan->vect == 'V') {
        if (startrd_bulge_lhous(plan) > UINT32_MAX)
            return 0;
        bytes += (size_t)startrd_bulge_lhous(plan) * sizeof(double complex);
    }
    return room < 0 || bytes <= (size_t)room / 2;   /* < 0: StarPU knows no limit */
}

/*
 * The band crosses to the GPU from the caller's WORK, pageable, through the
 * driver's staging; pinned in place for the call it crosses by DMA, pinning
 * included faster (docs/experiments.md, "Stage 2: band to tridiagonal").
 * Where it cannot be pinned (already pinned, say) it crosses as before.
 * HOUS2 is not pinned: its pages are often untouched, and pinning faults
 * them in on one thread (hous_download()).
 */
static int pin(const void *p, size_t bytes)
{
    return p != NULL && starpu_memory_pin((void *)p, bytes) == 0;
}

static void unpin(int pinned, const void *p, size_t bytes, const char *what)
{
    if (pinned && starpu_memory_unpin((void *)p, bytes) != 0)
        startrd_error("stage 2: cannot unpin %s", what);
}

/* Where the chase runs, chosen before it starts. */
enum chase_where { CHASE_ON_HOST, CHASE_ON_ONE_GPU, CHASE_SPLIT };

struct startrd_zhb2st_chase {
    startrd_bulge_plan_t plan;
    enum chase_where where;
    char uplo;
    double complex *AB, *hous;
    int64_t ldab;
    double *d, *e;
    int cuda_worker;                   /* the one GPU's */
    startrd_zhb2st_split_t sp;         /* the GPUs of a split chase */
    starpu_data_handle_t hab, hd, he, hwork, hprogress, hhous;   /* the one GPU's task's */
    int band_pinned, keep_hous_on_gpu, submitted;
};

static size_t band_bytes(const struct startrd_zhb2st_chase *s)
{
    return (size_t)(s->ldab * s->plan.n) * sizeof *s->AB;
}

/* HOUS in ranges per download task: enough tasks to keep the CPU
 * workers busy at n = 8192, few enough for their overhead not to show. */
enum { HOUS_RANGE = 1 << 21 };

/* The GPU chase is one task, the band in and (d, e) and HOUS out: its
 * buffers pinned and registered ahead of it.  HOUS has no home: it stays
 * on the GPU, for the caller or for hous_download(). */
static void one_gpu_register(struct startrd_zhb2st_chase *s)
{
    const startrd_bulge_plan_t *plan = &s->plan;
    int64_t n = plan->n;

    s->band_pinned = pin(s->AB, band_bytes(s));
    starpu_vector_data_register(&s->hab, STARPU_MAIN_RAM, (uintptr_t)s->AB, (uint32_t)(s->ldab * n), sizeof *s->AB);
    starpu_vector_data_register(&s->hd, STARPU_MAIN_RAM, (uintptr_t)s->d, (uint32_t)n, sizeof *s->d);
    starpu_vector_data_register(&s->he, STARPU_MAIN_RAM, (uintptr_t)s->e, (uint32_t)(n - 1), sizeof *s->e);
    starpu_vector_data_register(&s->hwork, -1, 0, (uint32_t)(s->ldab * n), sizeof *s->AB);
    starpu_vector_data_register(&s->hprogress, -1, 0, (uint32_t)startrd_zhb2st_chase_scratch_ints(plan),
                                sizeof(int));
    if (plan->vect == 'V')
        starpu_vector_data_register(&s->hhous, -1, 0, (uint32_t)startrd_bulge_lhous(plan), sizeof *s->hous);
}

/* HOUS from the GPU into the caller's HOUS2, range by range on the CPU
 * workers through their pinned buffers, which fault HOUS2's pages in on
 * many threads: pinned in place, HOUS2 took longer than stage 1 to pin
 * (docs/experiments.md, "HOUS2 downloaded, not pinned"). */
static int hous_download(const struct startrd_zhb2st_chase *s)
{
    const int64_t total = startrd_bulge_lhous(&s->plan);
    const int node = (int)starpu_worker_get_memory_node((unsigned)s->cuda_worker);
    int ret = 0;

    for (int64_t off = 0; off < total && ret == 0; off += HOUS_RANGE)
        ret = startrd_task_zdownload_range(node, s->hhous, off, total - off < HOUS_RANGE ? total - off : HOUS_RANGE,
                                           s->hous + off);
    starpu_task_wait_for_all();
    if (ret != 0) {
        startrd_error("stage 2: HOUS2's download could not be submitted (%d)", ret);
        return STARTRD_ERR_RUNTIME;
    }
    return startrd_kernel_failures_take() > 0 ? STARTRD_ERR_KERNEL : 0;
}

static int one_gpu_submit(struct startrd_zhb2st_chase *s)
{
    int ret = startrd_task_zhb2st_chase(s->cuda_worker, &s->plan, s->uplo, s->hab, s->hd, s->he, s->hwork,
                                        s->hprogress, s->hhous);

    if (ret != 0) {
        startrd_error("stage 2: GPU task submission failed (%d)", ret);
        return STARTRD_ERR_RUNTIME;
    }
    s->submitted = 1;
    return 0;
}

/* Waits for the task, if submitted, and gives its buffers back, but HOUS
 * kept on the GPU after a chase that ran there: that goes to *@p hous_on_gpu. */
static int one_gpu_finish(struct startrd_zhb2st_chase *s, starpu_data_handle_t *hous_on_gpu)
{
    int ret;

    if (s->submitted)
        starpu_task_wait_for_all();
    ret = s->submitted && startrd_kernel_failures_take() > 0 ? STARTRD_ERR_KERNEL : 0;
    starpu_data_unregister(s->hab);
    unpin(s->band_pinned, s->AB, band_bytes(s), "the band in WORK");
    starpu_data_unregister(s->hd);
    starpu_data_unregister(s->he);
    starpu_data_unregister(s->hwork);
    starpu_data_unregister(s->hprogress);
    if (s->hhous != NULL && s->keep_hous_on_gpu && s->submitted && ret == 0 && hous_on_gpu != NULL)
        *hous_on_gpu = s->hhous;
    else if (s->hhous != NULL) {
        if (!s->keep_hous_on_gpu && s->submitted && ret == 0)
            ret = hous_download(s);
        starpu_data_unregister(s->hhous);
    }
    return ret;
}

static void split_release(startrd_zhb2st_split_t *sp, size_t work_bytes, size_t progress_bytes)
{
    for (int g = 0; g < sp->ngpu; g++) {
        unsigned node = starpu_worker_get_memory_node((unsigned)sp->workers[g]);

        if (sp->work_handle[g] != NULL)
            starpu_data_unregister(sp->work_handle[g]);
        if (sp->progress_handle[g] != NULL)
            starpu_data_unregister(sp->progress_handle[g]);
        if (sp->work[g] != NULL)
            starpu_free_on_node(node, (uintptr_t)sp->work[g], work_bytes);
        if (sp->progress[g] != NULL)
            starpu_free_on_node(node, (uintptr_t)sp->progress[g], progress_bytes);
    }
}

/*
 * The GPU chase split over the GPUs of @p sp (kernel_hb2st_chase.cu): each
 * gets a working copy of the band in its memory, and runs an equal share of
 * every sweep.  The copies are prepared everywhere before any GPU's share
 * starts, since each GPU writes into the others' copies and counters.
 */
static int zhb2st_split(const startrd_bulge_plan_t *plan, char uplo, const double complex *AB, int64_t ldab,
                        double *d, double *e, startrd_zhb2st_split_t *sp)
{
    starpu_data_handle_t hab = NULL, hd = NULL, he = NULL;
    int64_t n = plan->n, nsweeps = startrd_bulge_nsweeps(plan);
    size_t band_bytes = (size_t)(ldab * n) * sizeof *AB,
           work_bytes = band_bytes + (size_t)(nsweeps * (plan->kd + 1)) * sizeof *AB,
           progress_bytes = (size_t)(nsweeps > 0 ? nsweeps : 1) * sizeof(int);
    int band_pinned = pin(AB, band_bytes), ret = 0;

    for (int g = 0; g < sp->ngpu; g++) {
        unsigned node = starpu_worker_get_memory_node((unsigned)sp->workers[g]);

        sp->work[g] = (void *)starpu_malloc_on_node(node, work_bytes);
        sp->progress[g] = (int *)starpu_malloc_on_node(node, progress_bytes);
        if (sp->work[g] == NULL || sp->progress[g] == NULL) {
            startrd_error("stage 2: cannot allocate the band on GPU %d", sp->devices[g]);
            ret = STARTRD_ERR_MEMORY;
            goto out;
        }
        starpu_vector_data_register(&sp->work_handle[g], (int)node, (uintptr_t)sp->work[g],
                                    (uint32_t)(work_bytes / sizeof *AB), sizeof *AB);
        starpu_vector_data_register(&sp->progress_handle[g], (int)node, (uintptr_t)sp->progress[g],
                                    (uint32_t)(progress_bytes / sizeof(int)), sizeof(int));
    }
    starpu_vector_data_register(&hab, STARPU_MAIN_RAM, (uintptr_t)AB, (uint32_t)(ldab * n), sizeof *AB);
    starpu_vector_data_register(&hd, STARPU_MAIN_RAM, (uintptr_t)d, (uint32_t)n, sizeof *d);
    starpu_vector_data_register(&he, STARPU_MAIN_RAM, (uintptr_t)e, (uint32_t)(n - 1), sizeof *e);
    if ((ret = startrd_task_zhb2st_split_prepare(sp, plan, uplo, hab)) != 0)
        startrd_error("stage 2: GPU task submission failed (%d)", ret);
    starpu_task_wait_for_all();
    /* A GPU that could not prepare would leave the others waiting. */
    if (ret == 0 && startrd_kernel_failures_take() > 0)
        ret = STARTRD_ERR_KERNEL;
    else if (ret == 0 && (ret = startrd_task_zhb2st_split_chase(sp, plan, hd, he)) != 0)
        startrd_error("stage 2: GPU task submission failed (%d)", ret);
    starpu_task_wait_for_all();
    if (ret < 0)
        ret = STARTRD_ERR_RUNTIME;
    else if (ret == 0 && startrd_kernel_failures_take() > 0)
        ret = STARTRD_ERR_KERNEL;
out:
    if (hab != NULL) {
        starpu_data_unregister(hab);
        starpu_data_unregister(hd);
        starpu_data_unregister(he);
    }
    unpin(band_pinned, AB, band_bytes, "the band in WORK");
    split_release(sp, work_bytes, progress_bytes);
    return ret;
}

/* The chase as ranks on every CPU worker, in place in the band. */
static int zhb2st_on_host(const startrd_bulge_plan_t *plan, char uplo, double complex *AB, int64_t ldab,
                          double *d, double *e, double complex *hous)
{
    const int64_t G = SWEEPS_PER_GROUP, width = 2 * G, n = plan->n, kd = plan->kd;
    startrd_zhb2st_schedule_t x = {.plan = plan, .uplo = uplo, .AB = AB, .hous = hous, .ldab = ldab, .G = G};
    int workers[STARPU_NMAXWORKERS];
    int nranks = (int)starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, workers, STARPU_NMAXWORKERS);
    int64_t *nwindows;
    int ret = 0;

    if (nranks < 1) {
        startrd_error("stage 2 needs a CPU worker");
        return STARTRD_ERR_RUNTIME;
    }
    /* The kernels write only each reflector's own entries. */
    if (plan->vect == 'V')
        memset(hous, 0, (size_t)startrd_bulge_lhous(plan) * sizeof *hous);
    x.nsweeps = startrd_bulge_nsweeps(plan);
    x.ngroups = (x.nsweeps + G - 1) / G;
    size_t ngroups = (size_t)(x.ngroups > 0 ? x.ngroups : 1);

    nwindows = calloc(ngroups, sizeof *nwindows);
    x.done = aligned_alloc(_Alignof(startrd_progress_t), ngroups * sizeof *x.done);
    if (x.done != NULL)
        memset(x.done, 0, ngroups * sizeof *x.done);
    x.work = malloc((size_t)nranks * (size_t)(kd > 0 ? kd : 1) * sizeof *x.work);
    if (nwindows == NULL || x.done == NULL || x.work == NULL) {
        startrd_error("stage 2: cannot allocate the schedule of %lld groups", (long long)x.ngroups);
        ret = STARTRD_ERR_MEMORY;
        goto out;
    }
    /* A group reaches as far as its furthest sweep's last kernel, skewed. */
    for (int64_t s = 0; s < x.nsweeps; s++) {
        int64_t nk = startrd_bulge_nkernels(plan, s), last = nk - 1 + 2 * (s % G), S = s / G;

        x.nkernels += (double)nk;
        nwindows[S] = last / width + 1 > nwindows[S] ? last / width + 1 : nwindows[S];
    }
    x.nwindows = nwindows;
    /* Group S trails group S-1 by two windows, so at most about half the
     * first group's windows can be in progress at once.  Ranks beyond that
     * only spin, and spinning workers slowed the working ones down
     * (docs/experiments.md, "Figures moved from the code"). */
    if (nranks > nwindows[0] / 2 + 2)
        nranks = (int)(nwindows[0] / 2 + 2);
    int submitted = 0;

    while (submitted < nranks && ret == 0)
        if ((ret = startrd_task_zhb2st_sweeps(workers[submitted], &x, submitted, nranks)) == 0)
            submitted++;
    if (ret != 0) {
        /* The ranks that run would wait forever for the groups of those
         * that do not: mark those groups done, and discard the result. */
        for (int64_t S = 0; S < x.ngroups; S++)
            if (S % nranks >= submitted)
                atomic_store(&x.done[S].windows, nwindows[S]);
        startrd_error("stage 2: task submission failed (%d)", ret);
        ret = STARTRD_ERR_RUNTIME;
    }
    starpu_task_wait_for_all();
    if (startrd_kernel_failures_take() > 0 && ret == 0)
        ret = STARTRD_ERR_KERNEL;
    if (ret == 0)
        startrd_kernel_zhb2st_tridiag(uplo, n, kd, AB, ldab, d, e);
out:
    free(nwindows);
    free(x.done);
    free(x.work);
    return ret;
}

int startrd_stage2_zhb2st_prepare(char vect, char uplo, int64_t n, int64_t kd, double complex *AB, int64_t ldab,
                                  double *d, double *e, double complex *hous, const int *cuda_workers, int ngpu,
                                  int keep_hous_on_gpu, startrd_zhb2st_chase_t **out)
{
    struct startrd_zhb2st_chase *s = malloc(sizeof *s);

    *out = NULL;
    if (s == NULL) {
        startrd_error("stage 2: cannot allocate its state");
        return STARTRD_ERR_MEMORY;
    }
    *s = (struct startrd_zhb2st_chase){.where = CHASE_ON_HOST, .uplo = uplo, .AB = AB, .hous = hous, .ldab = ldab,
                                       .d = d, .e = e, .keep_hous_on_gpu = keep_hous_on_gpu};
    if (startrd_bulge_plan_init(&s->plan, vect, n, kd) != 0) {
        startrd_error("stage 2: invalid band n=%lld kd=%lld", (long long)n, (long long)kd);
        free(s);
        return STARTRD_ERR_STATE;
    }
    if (ngpu > 0 && n >= 2 && kd >= 1 && kd <= STARTRD_CHASE_GPU_MAX_KD) {
        startrd_zhb2st_split_t *sp = &s->sp;
        int fits = fits_on_gpu(&s->plan, ldab, cuda_workers[0]), all_fit = fits;

        sp->ngpu = ngpu < STARTRD_CHASE_MAX_GPUS ? ngpu : STARTRD_CHASE_MAX_GPUS;
        for (int g = 0; g < sp->ngpu; g++) {
            sp->workers[g] = cuda_workers[g];
            sp->devices[g] = starpu_worker_get_devid(cuda_workers[g]);
            all_fit = all_fit && (g == 0 || fits_on_gpu(&s->plan, ldab, cuda_workers[g]));
        }
        /* With kd = 1 the one sweep would leave d and e on several GPUs. */
        if (sp->ngpu > 1 && vect == 'N' && kd >= 2 && all_fit &&
            startrd_topology_peers_reachable(sp->ngpu, sp->devices)) {
            s->where = CHASE_SPLIT;
        } else if (fits) {
            s->where = CHASE_ON_ONE_GPU;
            s->cuda_worker = cuda_workers[0];
            one_gpu_register(s);
        }
    }
    *out = s;
    return 0;
}

int startrd_stage2_zhb2st_start(startrd_zhb2st_chase_t *s)
{
    return s->where == CHASE_ON_ONE_GPU && !s->submitted ? one_gpu_submit(s) : 0;
}

int startrd_stage2_zhb2st_finish(startrd_zhb2st_chase_t *s, int run, int *chased_on,
                                 starpu_data_handle_t *hous_on_gpu)
{
    int ret = 0;

    if (chased_on != NULL)
        *chased_on = 0;
    if (hous_on_gpu != NULL)
        *hous_on_gpu = NULL;
    if (s == NULL)
        return 0;
    switch (s->where) {
    case CHASE_ON_ONE_GPU: {
        int started = run ? startrd_stage2_zhb2st_start(s) : 0;

        ret = one_gpu_finish(s, started == 0 ? hous_on_gpu : NULL);
        if (started != 0)
            ret = started;
        if (chased_on != NULL)
            *chased_on = 1;
        break;
    }
    case CHASE_SPLIT:
        if (run)
            ret = zhb2st_split(&s->plan, s->uplo, s->AB, s->ldab, s->d, s->e, &s->sp);
        if (chased_on != NULL)
            *chased_on = s->sp.ngpu;
        break;
    case CHASE_ON_HOST:
        if (run)
            ret = zhb2st_on_host(&s->plan, s->uplo, s->AB, s->ldab, s->d, s->e, s->hous);
        break;
    }
    free(s);
    return ret;
}

int startrd_stage2_zhb2st(char vect, char uplo, int64_t n, int64_t kd, double complex *AB,
                          int64_t ldab, double *d, double *e, double complex *hous, const int *cuda_workers,
                          int ngpu, int *chased_on)
{
    startrd_zhb2st_chase_t *s;
    int ret = startrd_stage2_zhb2st_prepare(vect, uplo, n, kd, AB, ldab, d, e, hous, cuda_workers, ngpu, 0, &s);

    if (chased_on != NULL)
        *chased_on = 0;
    return ret != 0 ? ret : startrd_stage2_zhb2st_finish(s, 1, chased_on, NULL);
}
