/* The lanes of each CUDA worker, created on the worker itself so that they
 * belong to its device. */
#include "cuda_lanes.h"

#include "workers.h"
#include "cuda_green.h"
#include "error.h"

#ifdef STARTRD_USE_CUDA

struct worker_lanes {
    startrd_cuda_lanes_t wide, narrow;   /* narrow.count == 0: none */
    startrd_cuda_lanes_t urgent;
    int created;
};

static struct worker_lanes workers[STARPU_NMAXWORKERS];
static int panel_sms;                    /* for the workers' set-up */

/* The fork event and the first @p count lanes. */
static void destroy_lanes(startrd_cuda_lanes_t *l, int count)
{
    for (int i = 0; i < count; i++) {
        cublasDestroy(l->blas[i]);
        cudaEventDestroy(l->join[i]);
        cudaStreamDestroy(l->stream[i]);
    }
    cudaEventDestroy(l->fork);
}

static void destroy(void *arg)
{
    struct worker_lanes *w = &workers[starpu_worker_get_id_check()];

    (void)arg;
    if (w->created) {
        destroy_lanes(&w->wide, w->wide.count);
        destroy_lanes(&w->urgent, w->urgent.count);
        if (w->narrow.count > 0)
            destroy_lanes(&w->narrow, w->narrow.count);
    }
    w->narrow.count = 0;
    w->created = 0;
}

/* @p count lanes into @p l, their streams on @p green (NULL: the device's
 * primary context, at stream priority @p priority).  0, or -1 with what was
 * made destroyed (reported). */
static int create_lanes(startrd_cuda_lanes_t *l, int count, int beside, startrd_cuda_green_t green, int priority)
{
    const char *call = "cudaEventCreateWithFlags";
    long st = cudaEventCreateWithFlags(&l->fork, cudaEventDisableTiming);
    int made = 0;

    if (st != cudaSuccess)
        goto fail;
    for (; made < count; made++) {
        if (green != NULL) {
            if (startrd_cuda_green_stream(green, &l->stream[made]) != 0) {
                destroy_lanes(l, made);
                return -1;
            }
        } else if ((st = cudaStreamCreateWithPriority(&l->stream[made], cudaStreamNonBlocking, priority)) !=
                   cudaSuccess) {
            call = "cudaStreamCreateWithPriority";
            break;
        }
        if ((st = cudaEventCreateWithFlags(&l->join[made], cudaEventDisableTiming)) != cudaSuccess) {
            cudaStreamDestroy(l->stream[made]);
            break;
        }
        if ((st = cublasCreate(&l->blas[made])) != CUBLAS_STATUS_SUCCESS) {
            call = "cublasCreate";
        } else if ((st = cublasSetStream(l->blas[made], l->stream[made])) != CUBLAS_STATUS_SUCCESS) {
            call = "cublasSetStream";
            cublasDestroy(l->blas[made]);
        }
        if (st != 0) {
            cudaEventDestroy(l->join[made]);
            cudaStreamDestroy(l->stream[made]);
            break;
        }
    }
    if (made == count) {
        l->count = count;
        l->beside = beside;
        return 0;
    }
    destroy_lanes(l, made);
fail:
    startrd_error("CUDA worker %d: %s failed (%ld)", starpu_worker_get_id_check(), call, st);
    return -1;
}

static int create(void)
{
    struct worker_lanes *w = &workers[starpu_worker_get_id_check()];
    startrd_cuda_green_t green;
    unsigned nsm;
    int st, lowest, highest;
    cudaError_t cst = cudaDeviceGetStreamPriorityRange(&lowest, &highest);

    w->narrow.count = 0;
    if (cst != cudaSuccess) {
        startrd_error("CUDA worker %d: cudaDeviceGetStreamPriorityRange failed (%d)", starpu_worker_get_id_check(),
                      (int)cst);
        return -1;
    }
    if (create_lanes(&w->wide, STARTRD_CUDA_LANES, 1, NULL, 0) != 0)
        return -1;
    if (create_lanes(&w->urgent, 1, 0, NULL, highest) != 0) {
        destroy_lanes(&w->wide, w->wide.count);
        return -1;
    }
    w->created = 1;
    if (panel_sms <= 0 || (st = startrd_cuda_green_get(panel_sms, &green, &nsm)) == 1)
        return 0;
    /* Narrow lanes only let the panel run beside the update; without them
     * (a driver or a GPU partition that refuses the share) the update takes
     * the wide lanes, as on GPUs too small to spare the panel's share. */
    if (st != 0 || create_lanes(&w->narrow, STARTRD_CUDA_NARROW_LANES, 0, green, 0) != 0)
        startrd_error("CUDA worker %d: no narrow lanes; the update will use every multiprocessor",
                      starpu_worker_get_id_check());
    return 0;
}

int startrd_cuda_lanes_open(int keep_free)
{
    panel_sms = keep_free;
    return startrd_on_each_worker(create, STARPU_CUDA, startrd_cuda_lanes_close);
}

void startrd_cuda_lanes_close(void)
{
    starpu_execute_on_each_worker(destroy, NULL, STARPU_CUDA);
}

static const startrd_cuda_lanes_t *fork_lanes(const startrd_cuda_lanes_t *l)
{
    cudaError_t st = cudaEventRecord(l->fork, starpu_cuda_get_local_stream());

    for (int i = 0; st == cudaSuccess && i < l->count; i++)
        st = cudaStreamWaitEvent(l->stream[i], l->fork, 0);
    if (st == cudaSuccess)
        return l;
    startrd_kernel_failure("cuda_fork", "cudaEventRecord/cudaStreamWaitEvent", st);
    return NULL;
}

const startrd_cuda_lanes_t *startrd_cuda_fork(void)
{
    return fork_lanes(&workers[starpu_worker_get_id_check()].wide);
}

const startrd_cuda_lanes_t *startrd_cuda_fork_narrow(void)
{
    const struct worker_lanes *w = &workers[starpu_worker_get_id_check()];

    return fork_lanes(w->narrow.count > 0 ? &w->narrow : &w->wide);
}

const startrd_cuda_lanes_t *startrd_cuda_fork_urgent(void)
{
    return fork_lanes(&workers[starpu_worker_get_id_check()].urgent);
}

int startrd_cuda_join(const startrd_cuda_lanes_t *l)
{
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cudaError_t st = cudaSuccess;

    for (int i = 0; st == cudaSuccess && i < l->count; i++) {
        st = cudaEventRecord(l->join[i], l->stream[i]);
        if (st == cudaSuccess)
            st = cudaStreamWaitEvent(stream, l->join[i], 0);
    }
    if (st != cudaSuccess) {
        startrd_kernel_failure("cuda_join", "cudaEventRecord/cudaStreamWaitEvent", st);
        /* The worker's stream no longer orders what follows after the
         * lanes: drain them here, so that the caller may free what they use. */
        for (int i = 0; i < l->count; i++)
            cudaStreamSynchronize(l->stream[i]);
    }
    return (int)st;
}
#else
int startrd_cuda_lanes_open(int panel_sms)
{
    (void)panel_sms;
    return 0;
}

void startrd_cuda_lanes_close(void)
{
}
#endif
