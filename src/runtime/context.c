#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "context.h"

#include "cuda_lanes.h"
#include "release_later.h"
#include "cuda_signal.h"
#include "cuda_upload.h"
#include "cuda_gemm.h"
#include "device_memory.h"
#include "error.h"
#include "host_blas.h"
#include "topology.h"
#include "trace.h"
#include "tuning.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>


/* The context is open while it holds references: one per startrd_init()
 * not yet finalized, one for a context opened implicitly (released at
 * exit), and one per call in flight.  StarPU's workers poll for tasks, so
 * between calls a StarPU the library started is paused, its workers
 * blocked, and costs the application no CPU. */
static pthread_mutex_t context_lock = PTHREAD_MUTEX_INITIALIZER;
static startrd_context_t context;
static int implicit_reference;     /* the reference released at exit */
static int explicit_references;    /* startrd_init() calls not yet finalized */
static int calls;                  /* startrd_context_acquire() calls not yet released */
static int paused;                 /* the library paused its StarPU */

static const char *const allreduce_names[] = {"hierarchical", "host", "full", "auto"};

int startrd_allreduce_by_name(const char *name)
{
    for (int a = 0; name != NULL && a < (int)(sizeof allreduce_names / sizeof *allreduce_names); a++)
        if (strcmp(name, allreduce_names[a]) == 0)
            return a;
    return -1;
}

const char *startrd_allreduce_name(startrd_allreduce_t scheme)
{
    return (int)scheme >= 0 && (int)scheme < (int)(sizeof allreduce_names / sizeof *allreduce_names)
               ? allreduce_names[scheme]
               : "?";
}

static startrd_allreduce_t allreduce_from_env(void)
{
    static atomic_int warned;
    const char *name = getenv("STARTRD_ALLREDUCE");
    int scheme = startrd_allreduce_by_name(name);

    /* Once: the defaults are read by every call, which would say it again. */
    if (name != NULL && scheme < 0 && !atomic_exchange(&warned, 1))
        startrd_error("STARTRD_ALLREDUCE=%s is not hierarchical, host, full or auto: ignored", name);
    return scheme < 0 ? STARTRD_ALLREDUCE_AUTO : (startrd_allreduce_t)scheme;
}

void startrd_options_init(startrd_options_t *opt)
{
    opt->ngpu = -1;
    opt->ncpu = -1;
    opt->scheduler = NULL;
    opt->nb = 0;
    opt->dist_nb = 0;
    opt->check_finite = getenv("STARTRD_CHECK_FINITE") == NULL || strcmp(getenv("STARTRD_CHECK_FINITE"), "0") != 0;
    opt->trace_dir = getenv("STARTRD_TRACE_DIR");
    if (opt->trace_dir != NULL && opt->trace_dir[0] == '\0')
        opt->trace_dir = NULL;
    opt->allreduce = allreduce_from_env();
    opt->gpu_groups = getenv(STARTRD_GPU_GROUPS_ENV);
    if (opt->gpu_groups != NULL && opt->gpu_groups[0] == '\0')
        opt->gpu_groups = NULL;
    opt->stage2 = getenv("STARTRD_STAGE2") != NULL && strcmp(getenv("STARTRD_STAGE2"), "host") == 0
                      ? STARTRD_STAGE2_HOST
                      : STARTRD_STAGE2_AUTO;
    opt->stage1_ngpu = getenv("STARTRD_STAGE1_NGPU") != NULL ? atoi(getenv("STARTRD_STAGE1_NGPU")) : 0;
    opt->stage2_ngpu = getenv("STARTRD_STAGE2_NGPU") != NULL ? atoi(getenv("STARTRD_STAGE2_NGPU")) : 0;
    opt->panel_sms = getenv("STARTRD_PANEL_SMS") != NULL ? atoi(getenv("STARTRD_PANEL_SMS")) : -1;
    opt->quiet = startrd_quiet_from_env();
}

/* The cores this process may run on. */
static int allowed_cores(void)
{
    cpu_set_t set;

    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

/* How many GPUs StarPU is about to drive. */
static int gpus_to_drive(const startrd_options_t *opt)
{
#ifdef STARTRD_USE_CUDA
    int count = 0;

    if (opt->ngpu == 0)
        return 0;
    const char *ncuda = getenv("STARPU_NCUDA");

    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();   /* no driver or no device: not an error here */
        return 0;
    }
    if (ncuda != NULL && atoi(ncuda) >= 0 && atoi(ncuda) < count)
        count = atoi(ncuda);
    return opt->ngpu > 0 && opt->ngpu < count ? opt->ngpu : count;
#else
    (void)opt;
    return 0;
#endif
}

/* With GPUs the calling thread works through the whole reduction: it
 * submits the tasks of hundreds of steps while the first ones run.  A CPU
 * worker on every core that drives no GPU (a thread per stream of each
 * GPU, STARPU_NWORKER_PER_CUDA, drives it) left that thread none: leaving
 * one core aside made stage 1 faster at every order measured
 * (docs/experiments.md, "A core for the calling thread").
 * Not where the cores are few (the copies in and out run on the CPU
 * workers), nor when the user chose the count.  Read once the stream
 * count is set in the environment. */
static int cores_to_reserve(const startrd_options_t *opt)
{
    const char *streams = getenv("STARPU_NWORKER_PER_CUDA");
    int gpus, drivers = streams != NULL && atoi(streams) > 0 ? atoi(streams) : 1;

    if (opt->ncpu >= 0 || getenv("STARPU_NCPU") != NULL || (gpus = gpus_to_drive(opt)) == 0)
        return 0;
    return allowed_cores() - drivers * gpus - 1 >= 4 ? 1 : 0;
}

static int start_starpu(const startrd_options_t *opt)
{
    struct starpu_conf conf;
    int ret = starpu_conf_init(&conf);

    if (ret != 0) {
        startrd_error("starpu_conf_init failed (%d)", ret);
        return STARTRD_ERR_RUNTIME;
    }
    conf.ncpus = opt->ncpu;
    conf.sched_policy_name = opt->scheduler ? opt->scheduler : "dmdas";
    if (opt->ngpu >= 0) {
#ifdef STARTRD_USE_CUDA
        conf.ncuda = opt->ngpu;
        /* "The first k GPUs" means CUDA devices 0..k-1, whatever order
         * StarPU would otherwise pick them in. */
        if (opt->ngpu > 0) {
            conf.use_explicit_workers_cuda_gpuid = 1;
            for (int i = 0; i < opt->ngpu && i < STARPU_NMAXWORKERS; i++)
                conf.workers_cuda_gpuid[i] = (unsigned)i;
        }
#else
        if (opt->ngpu > 0) {
            startrd_error("%d GPUs requested but this StarTRD was built without CUDA", opt->ngpu);
            return STARTRD_ERR_NO_GPU;
        }
#endif
    }
    if (opt->trace_dir != NULL && (ret = startrd_trace_prepare(opt->trace_dir)) != 0)
        return ret;
    /* Two streams per GPU unless the user chose otherwise (StarPU reads
     * this only from the environment): stage 1 factors the next panel and
     * copies finished columns out on the second while the first updates
     * the trailing matrix, which pays at the larger orders
     * (docs/architecture.md, "The panel on the GPU"). */
    setenv("STARPU_NWORKER_PER_CUDA", "2", 0);
    /* And a thread for each stream: with one thread per GPU, a task that
     * ends on one stream while the thread launches a long task on the other
     * is noticed only once that launch is done. */
    if (getenv("STARPU_CUDA_THREAD_PER_DEV") == NULL)
        setenv("STARPU_CUDA_THREAD_PER_WORKER", "1", 0);
    conf.reserve_ncpus = cores_to_reserve(opt);
    ret = starpu_init(&conf);
    if (ret == -ENODEV) {
        startrd_error("starpu_init: no worker available");
        return STARTRD_ERR_RUNTIME;
    }
    if (ret != 0) {
        startrd_error("starpu_init failed (%d)", ret);
        return STARTRD_ERR_RUNTIME;
    }
    return 0;
}

/* Per GPU, its first worker and, when StarPU drives it through several
 * streams, its second. */
static void collect_cuda_workers(void)
{
#ifdef STARTRD_USE_CUDA
    int workers[STARPU_NMAXWORKERS];
    int n = (int)starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, workers, STARPU_NMAXWORKERS);

    context.ncuda = 0;
    for (int i = 0; i < n; i++) {
        int g = 0, dev = starpu_worker_get_devid(workers[i]);

        while (g < context.ncuda && starpu_worker_get_devid(context.cuda_worker[g]) != dev)
            g++;
        if (g == context.ncuda) {
            context.cuda_worker[context.ncuda] = context.cuda_side_worker[context.ncuda] = workers[i];
            context.ncuda++;
        } else if (context.cuda_side_worker[g] == context.cuda_worker[g]) {
            context.cuda_side_worker[g] = workers[i];
        }
    }
#else
    context.ncuda = 0;
#endif
}

/* The GPUs' groups for the hierarchical sum: imposed, or found; a machine
 * hwloc cannot read leaves every GPU in a group of its own. */
static int find_groups(const startrd_options_t *opt)
{
    int devid[STARPU_NMAXWORKERS];
    char busid[STARPU_NMAXWORKERS][16];

    if (context.ncuda == 0)
        return 0;
    if (opt->gpu_groups != NULL) {
        if (startrd_topology_parse(opt->gpu_groups, context.ncuda, context.gpu_group) < 0) {
            startrd_error("GPU groups \"%s\" do not name GPUs 0..%d once each", opt->gpu_groups, context.ncuda - 1);
            return STARTRD_ERR_STATE;
        }
        return 0;
    }
    for (int g = 0; g < context.ncuda; g++)
        devid[g] = starpu_worker_get_devid(context.cuda_worker[g]);
    if (startrd_topology_discover(context.ncuda, devid, context.gpu_group, busid) < 0)
        for (int g = 0; g < context.ncuda; g++)
            context.gpu_group[g] = g;
    return 0;
}

/* StarPU and the handles opened for it, once no task runs. */
static void stop_starpu(void)
{
#ifdef STARTRD_USE_CUDA
    starpu_cusolver_shutdown();
    starpu_cublas_shutdown();
#endif
    starpu_shutdown();
}

static int open_context_with(const startrd_options_t *opt)
{
    static int cublas_ready;   /* handles created for an application's StarPU */
    int ret;

    if ((ret = startrd_host_blas_check()) != 0)
        return ret;
    context.owns_starpu = !starpu_is_initialized();
    if (context.owns_starpu) {
        ret = start_starpu(opt);
        if (ret != 0)
            return ret;
    }
    collect_cuda_workers();
    /* The copies of the matrix in and out, the tokens between them and the
     * host's steps are tasks for CPU workers. */
    if (starpu_cpu_worker_get_count() == 0) {
        startrd_error("StarPU runs no CPU worker (STARPU_NCPU=0, or an application's StarPU started without "
                      "them); the library needs at least one");
        if (context.owns_starpu)
            starpu_shutdown();
        return STARTRD_ERR_RUNTIME;
    }
    if (opt->ngpu > context.ncuda) {
        startrd_error("%d GPUs requested, StarPU drives %d", opt->ngpu, context.ncuda);
        if (context.owns_starpu)
            starpu_shutdown();
        return STARTRD_ERR_NO_GPU;
    }
    if (opt->ngpu >= 0)
        context.ncuda = opt->ngpu;
    if ((ret = find_groups(opt)) != 0) {
        if (context.owns_starpu)
            starpu_shutdown();
        return ret;
    }
#ifdef STARTRD_USE_CUDA
    /* StarPU creates one cuBLAS and one cuSOLVER handle per CUDA worker;
     * an application's StarPU gets them once and keeps them, since the
     * application may shut StarPU down on its own. */
    if (context.owns_starpu || !cublas_ready) {
        starpu_cublas_init();
        starpu_cusolver_init();
        cublas_ready = !context.owns_starpu;
    }
#else
    (void)cublas_ready;
#endif
    startrd_tuning_select();
    if ((ret = startrd_cuda_lanes_open(opt->panel_sms < 0 ? startrd_tuning()->panel_sms : opt->panel_sms)) != 0 ||
        (ret = startrd_cuda_gemm_open()) != 0 || (ret = startrd_cuda_upload_open()) != 0) {
        startrd_cuda_gemm_close();
        startrd_cuda_lanes_close();
        if (context.owns_starpu)
            stop_starpu();
        return ret;
    }
    /* The workers' tasks call BLAS beside each other, one per core. */
    starpu_execute_on_each_worker(startrd_host_blas_serial_here, NULL, STARPU_CPU | STARPU_CUDA);
    paused = 0;
    context.opt = *opt;
    /* Owned copies: the caller's strings may go. */
    context.trace_dir = opt->trace_dir != NULL ? strdup(opt->trace_dir) : NULL;
    context.gpu_groups = opt->gpu_groups != NULL ? strdup(opt->gpu_groups) : NULL;
    context.opt.trace_dir = context.trace_dir;
    context.opt.gpu_groups = context.gpu_groups;
    return 0;
}

/* The context's quiet option holds from its opening, whose failures are
 * the caller's too, to its closing; a context that did not open leaves the
 * environment to decide again. */
static int open_context(const startrd_options_t *opt)
{
    int ret;

    startrd_error_set_quiet(opt->quiet != 0);
    if ((ret = open_context_with(opt)) != 0)
        startrd_error_set_quiet(-1);
    return ret;
}

/* CPU workers held in tasks of their own, asleep on a condition (see
 * context.h): hold tasks submitted and not yet returned, and whether they
 * are to wait. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int held, running;
} cpu_hold = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

static void hold_cpu_worker(void *buffers[], void *unused)
{
    (void)buffers;
    (void)unused;
    pthread_mutex_lock(&cpu_hold.lock);
    while (cpu_hold.held)
        pthread_cond_wait(&cpu_hold.changed, &cpu_hold.lock);
    cpu_hold.running--;
    pthread_cond_broadcast(&cpu_hold.changed);
    pthread_mutex_unlock(&cpu_hold.lock);
}

static struct starpu_codelet hold_codelet = {
    .name = "hold_cpu_worker",
    .cpu_funcs = {hold_cpu_worker},
    .nbuffers = 0,
};

int startrd_context_cpu_workers_hold(void)
{
    int ids[STARPU_NMAXWORKERS];
    unsigned count = starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, ids, STARPU_NMAXWORKERS);
    unsigned submitted = 0;
    int ret = 0;

    pthread_mutex_lock(&cpu_hold.lock);
    cpu_hold.held = 1;
    cpu_hold.running += (int)count;
    pthread_mutex_unlock(&cpu_hold.lock);
    for (; submitted < count && ret == 0; submitted += ret == 0)
        ret = starpu_task_insert(&hold_codelet, STARPU_EXECUTE_ON_WORKER, ids[submitted], STARPU_PRIORITY,
                                 STARPU_MAX_PRIO, 0);
    /* Those not submitted will not return. */
    pthread_mutex_lock(&cpu_hold.lock);
    cpu_hold.running -= (int)(count - submitted);
    pthread_mutex_unlock(&cpu_hold.lock);
    if (ret == 0)
        return 0;
    startrd_context_cpu_workers_release();
    startrd_error("starpu_task_insert failed (%d) holding the CPU workers", ret);
    return STARTRD_ERR_RUNTIME;
}

void startrd_context_cpu_workers_release(void)
{
    pthread_mutex_lock(&cpu_hold.lock);
    cpu_hold.held = 0;
    pthread_cond_broadcast(&cpu_hold.changed);
    while (cpu_hold.running > 0)
        pthread_cond_wait(&cpu_hold.changed, &cpu_hold.lock);
    pthread_mutex_unlock(&cpu_hold.lock);
}

static int close_context(void)
{
    int ret = 0;

    context.refcount = 0;
    if (paused) {
        starpu_resume();
        paused = 0;
    }
    if (context.owns_starpu)
        starpu_task_wait_for_all();
    else
        startrd_release_later_wait();
    startrd_cuda_upload_close();
    startrd_cuda_gemm_close();
    startrd_cuda_lanes_close();
    if (context.owns_starpu) {
        stop_starpu();
        if (context.trace_dir != NULL)
            ret = startrd_trace_convert(context.trace_dir);
    }
    free(context.trace_dir);
    free(context.gpu_groups);
    context.trace_dir = context.gpu_groups = NULL;
    startrd_error_set_quiet(-1);
    return ret;
}

/* Pause the StarPU the library started once no call is in flight, resume
 * it when one begins: paused, its workers wait on a condition instead of
 * polling.  An application's own StarPU is left as it is. */
static void set_idle(int idle)
{
    if (!context.owns_starpu || idle == paused)
        return;
    if (idle)
        starpu_pause();
    else
        starpu_resume();
    paused = idle;
}

static int drop_reference(void)
{
    if (--context.refcount == 0) {
        implicit_reference = 0;
        return close_context();
    }
    if (calls == 0)
        set_idle(1);
    return 0;
}

static void release_implicit_at_exit(void)
{
    pthread_mutex_lock(&context_lock);
    if (implicit_reference) {
        implicit_reference = 0;
        (void)drop_reference();
    }
    pthread_mutex_unlock(&context_lock);
}

/* Says which option is out of range, and its value, since startrd_init()
 * can only return -1 for any of them; @p who names where they come from. */
static int options_valid(const startrd_options_t *opt, const char *who)
{
    /* The copies and the bulge chasing need CPU workers; nb up to 1024 keeps
     * the GPU panel's T factor within one thread block. */
    const struct {
        int ok;
        const char *name, *rule;
        long value;
    } checks[] = {
        {opt->ngpu < STARPU_NMAXWORKERS, "ngpu", "below StarPU's worker count limit", opt->ngpu},
        {opt->ncpu != 0 && opt->ncpu < STARPU_NMAXWORKERS, "ncpu",
         "negative (chosen) or from 1 to below StarPU's worker count limit", opt->ncpu},
        {opt->nb >= 0 && opt->nb <= 1024, "nb", "from 0 (chosen) to 1024", opt->nb},
        {opt->dist_nb >= 0 && (opt->dist_nb == 0 || (opt->nb > 0 && opt->dist_nb % opt->nb == 0)), "dist_nb",
         "0 (chosen) or a multiple of nb, which must then be set", opt->dist_nb},
        {opt->allreduce >= STARTRD_ALLREDUCE_HIERARCHICAL && opt->allreduce <= STARTRD_ALLREDUCE_AUTO, "allreduce",
         "a startrd_allreduce_t", (long)opt->allreduce},
        {opt->stage2 == STARTRD_STAGE2_AUTO || opt->stage2 == STARTRD_STAGE2_HOST, "stage2", "a startrd_stage2_where_t",
         (long)opt->stage2},
        {opt->stage1_ngpu >= 0, "stage1_ngpu", "0 (chosen) or more", opt->stage1_ngpu},
        {opt->stage2_ngpu >= 0, "stage2_ngpu", "0 (chosen) or more", opt->stage2_ngpu},
    };

    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (!checks[i].ok) {
            /* The options' own quiet covers the call that passes them. */
            if (!opt->quiet)
                startrd_error("%s: option %s is %ld; it must be %s", who, checks[i].name, checks[i].value,
                              checks[i].rule);
            return 0;
        }
    return 1;
}

/* Only the environment can make the defaults wrong, when they are to open
 * a context: no argument of the call is, so not -1. */
static int defaults_valid(const startrd_options_t *defaults)
{
    return options_valid(defaults, "the options' defaults ($STARTRD_*)") ? 0 : STARTRD_ERR_STATE;
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Whether @p opt asks for the context that is open. */
static int same_options(const startrd_options_t *opt)
{
    const startrd_options_t *o = &context.opt;

    return opt->ngpu == o->ngpu && opt->ncpu == o->ncpu && same_text(opt->scheduler, o->scheduler) &&
           opt->nb == o->nb && opt->dist_nb == o->dist_nb && opt->check_finite == o->check_finite &&
           same_text(opt->trace_dir, o->trace_dir) && opt->allreduce == o->allreduce &&
           same_text(opt->gpu_groups, o->gpu_groups) && opt->stage2 == o->stage2 &&
           opt->stage1_ngpu == o->stage1_ngpu && opt->stage2_ngpu == o->stage2_ngpu &&
           opt->panel_sms == o->panel_sms && (opt->quiet != 0) == (o->quiet != 0);
}

int startrd_context_acquire(const startrd_options_t *opt, int implicit, startrd_context_t **ctx)
{
    static int at_exit_registered;
    startrd_options_t defaults;
    int ret = 0;

    if (opt == NULL) {
        startrd_options_init(&defaults);
        opt = &defaults;
    } else if (!options_valid(opt, "startrd_context_acquire")) {
        return -1;
    }

    pthread_mutex_lock(&context_lock);
    if (context.refcount == 0) {
        ret = opt == &defaults ? defaults_valid(opt) : 0;
        if (ret == 0)
            ret = open_context(opt);
        /* An implicit context holds one extra reference until exit, so that
         * consecutive calls do not restart StarPU each time. */
        if (ret == 0 && implicit) {
            context.refcount++;
            implicit_reference = 1;
            if (!at_exit_registered)
                at_exit_registered = atexit(release_implicit_at_exit) == 0;
        }
    }
    if (ret == 0) {
        context.refcount++;
        if (calls++ == 0) {
            startrd_device_memory_count_others();
            /* Failures an earlier call left uncollected are not this one's. */
            (void)startrd_kernel_failures_take();
        }
        set_idle(0);
        *ctx = &context;
    }
    pthread_mutex_unlock(&context_lock);
    return ret;
}

/* Drops one reference of the kind @p count counts, or says @p unmatched. */
static int release_counted(int *count, const char *unmatched)
{
    int ret;

    pthread_mutex_lock(&context_lock);
    if (*count == 0) {
        startrd_error("%s", unmatched);
        ret = STARTRD_ERR_STATE;
    } else {
        if (--*count == 0 && count == &calls)
            startrd_device_memory_uncount_others();
        ret = drop_reference();
    }
    pthread_mutex_unlock(&context_lock);
    return ret;
}

void startrd_context_sleep(void)
{
    pthread_mutex_lock(&context_lock);
    set_idle(1);
    pthread_mutex_unlock(&context_lock);
}

void startrd_context_wake(void)
{
    pthread_mutex_lock(&context_lock);
    set_idle(0);
    pthread_mutex_unlock(&context_lock);
}

int startrd_context_release(void)
{
    return release_counted(&calls, "the runtime context was released more often than acquired");
}

void startrd_context_preview(startrd_context_t *view)
{
    pthread_mutex_lock(&context_lock);
    if (context.refcount > 0) {
        view->opt = context.opt;
        view->ncuda = context.ncuda;
    } else {
        startrd_options_init(&view->opt);
        view->ncuda = gpus_to_drive(&view->opt);
    }
    pthread_mutex_unlock(&context_lock);
}

int startrd_init(const startrd_options_t *opt)
{
    startrd_options_t defaults;
    int ret = 0;

    if (opt != NULL && !options_valid(opt, "startrd_init"))
        return -1;

    pthread_mutex_lock(&context_lock);
    /* A context the first call opened with the defaults, idle and held by
     * no one else, gives way to the one asked for. */
    if (context.refcount > 0 && opt != NULL && !same_options(opt) && implicit_reference &&
        explicit_references == 0 && calls == 0) {
        implicit_reference = 0;
        ret = drop_reference();
    }
    if (ret == 0 && context.refcount > 0 && opt != NULL && !same_options(opt)) {
        startrd_error("startrd_init: a context with other options is open (%s); startrd_finalize() it first",
                      calls > 0 ? "a call is running on it" : "opened by an earlier startrd_init()");
        ret = STARTRD_ERR_STATE;
    }
    if (ret == 0 && context.refcount == 0) {
        if (opt == NULL)
            startrd_options_init(&defaults);
        ret = opt == NULL ? defaults_valid(&defaults) : 0;
        if (ret == 0)
            ret = open_context(opt != NULL ? opt : &defaults);
    }
    if (ret == 0) {
        context.refcount++;
        explicit_references++;
        if (calls == 0)
            set_idle(1);
    }
    pthread_mutex_unlock(&context_lock);
    return ret;
}

int startrd_finalize(void)
{
    return release_counted(&explicit_references, "startrd_finalize: no startrd_init() to match");
}

int startrd_gpu_count(void)
{
    int n;

    pthread_mutex_lock(&context_lock);
    n = context.refcount > 0 ? context.ncuda : -1;
    pthread_mutex_unlock(&context_lock);
    return n;
}

int64_t startrd_context_bandwidth(const startrd_context_t *ctx, int64_t n, int ngpu, char vect)
{
    int64_t kd = ctx->opt.nb > 0 ? ctx->opt.nb
                 : ngpu > 0      ? (vect == 'N' && n < startrd_tuning()->one_stage_below ? 1 : 64)
                                 : 32;

    return kd < n - 1 ? kd : n > 1 ? n - 1 : 0;
}

/* A stage's GPUs: the option's count, or all of them where @p spread pays. */
static int stage_gpus(int ngpu, int option, int spread)
{
    if (ngpu <= 1)
        return ngpu;
    if (option > 0)
        return option < ngpu ? option : ngpu;
    return spread ? ngpu : 1;
}

/* Two GPUs that read each other's memory meet on the devices
 * (stage1_zhe2hb.c), which moves the order from which spreading pays
 * (tuning.h). */

int startrd_context_stage1_gpus(const startrd_context_t *ctx, int64_t n, int ngpu)
{
    const startrd_tuning_t *t = startrd_tuning();
    int meet = ngpu == 2 && startrd_context_allreduce(ctx) == STARTRD_ALLREDUCE_HIERARCHICAL &&
               startrd_cuda_peers(ctx->cuda_worker[0], ctx->cuda_worker[1]);

    return stage_gpus(ngpu, ctx->opt.stage1_ngpu, n >= (meet ? t->stage1_spread_meeting_from : t->stage1_spread_from));
}

/* The chase splits over the GPUs from the order tuning.h gives. */
int startrd_context_stage2_gpus(const startrd_context_t *ctx, int64_t n, int64_t kd, int ngpu)
{
    const startrd_tuning_t *t = startrd_tuning();

    if (ctx->opt.stage2 != STARTRD_STAGE2_AUTO)
        return 0;
    return stage_gpus(ngpu, ctx->opt.stage2_ngpu,
                      n >= (kd >= 64 ? t->stage2_split_from_wide : t->stage2_split_from_narrow));
}

/* Measured with startrd-bench --allreduce (GPUs linked by NVLink): on one
 * GPU nothing is summed and keeping both triangles costs its doubled
 * update; on two the sum along the GPUs beat the host's and both
 * triangles, and on four it beat the host's (docs/experiments.md, "GPU
 * topology and the allreduce schemes"; docs/measurements.md).  With links
 * this fast the volume the full scheme saves is not what limits stage 1. */
startrd_allreduce_t startrd_context_allreduce(const startrd_context_t *ctx)
{
    return ctx->opt.allreduce != STARTRD_ALLREDUCE_AUTO ? ctx->opt.allreduce : STARTRD_ALLREDUCE_HIERARCHICAL;
}

void startrd_context_host_parallel(int on)
{
    if (on)
        starpu_pause();
    else
        starpu_resume();
}
