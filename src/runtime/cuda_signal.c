/* Signals between the GPU streams of different workers (cuda_signal.h):
 * a CUDA event per step, recorded by the poster and waited for by the
 * waiters' streams, and a counter telling the waiters it was recorded. */
#include "cuda_signal.h"

#include "error.h"
#include "starpu_include.h"

#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

/* Marks used in turn by the steps. */
enum { MARKS = 2 };

/* A post not made after this long never will be (the posting task
 * failed): the wait gives up, with a failure recorded, rather than hang. */
#define GIVE_UP_SECONDS 60.0

struct startrd_cuda_signal {
    cudaEvent_t mark[MARKS];   /* created by the posting worker, on its GPU */
    _Atomic int64_t posted;    /* the last step posted, plus one */
};

startrd_cuda_signal_t *startrd_cuda_signal_create(void)
{
    startrd_cuda_signal_t *s = calloc(1, sizeof *s);

    if (s != NULL)
        atomic_init(&s->posted, 0);
    return s;
}

void startrd_cuda_signal_destroy(startrd_cuda_signal_t *s)
{
    if (s == NULL)
        return;
    for (int i = 0; i < MARKS; i++)
        if (s->mark[i] != NULL)
            cudaEventDestroy(s->mark[i]);
    free(s);
}

int startrd_cuda_signal_post(startrd_cuda_signal_t *s, int64_t step)
{
    return startrd_cuda_signal_post_on(s, step, starpu_cuda_get_local_stream());
}

int startrd_cuda_signal_post_on(startrd_cuda_signal_t *s, int64_t step, cudaStream_t stream)
{
    cudaEvent_t *mark = &s->mark[step % MARKS];
    const char *call = "cudaEventCreateWithFlags";
    cudaError_t ce = cudaSuccess;

    if (*mark == NULL)
        ce = cudaEventCreateWithFlags(mark, cudaEventDisableTiming);
    if (ce == cudaSuccess && (ce = cudaEventRecord(*mark, stream)) != cudaSuccess)
        call = "cudaEventRecord";
    atomic_store_explicit(&s->posted, step + 1, memory_order_release);
    if (ce == cudaSuccess)
        return 0;
    startrd_kernel_failure("signal", call, ce);
    return -1;
}

static double seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int startrd_cuda_signal_wait(startrd_cuda_signal_t *s, int64_t step)
{
    double start = 0.0;
    cudaError_t ce;

    for (unsigned spins = 1; atomic_load_explicit(&s->posted, memory_order_acquire) <= step; spins++) {
        if (spins % 1024 != 0)
            continue;
        if (start == 0.0) {
            start = seconds();
        } else if (seconds() - start > GIVE_UP_SECONDS) {
            startrd_kernel_failure("signal", "a post that never came", -1);
            return -1;
        }
        sched_yield();
    }
    if ((ce = cudaStreamWaitEvent(starpu_cuda_get_local_stream(), s->mark[step % MARKS], 0)) == cudaSuccess)
        return 0;
    startrd_kernel_failure("signal", "cudaStreamWaitEvent", ce);
    return -1;
}

int startrd_cuda_peers(int worker_a, int worker_b)
{
    int a, b, ab = 0, ba = 0;

    if (starpu_worker_get_type(worker_a) != STARPU_CUDA_WORKER ||
        starpu_worker_get_type(worker_b) != STARPU_CUDA_WORKER)
        return 0;
    a = starpu_worker_get_devid(worker_a);
    b = starpu_worker_get_devid(worker_b);
    if (a == b)
        return 1;
    if (cudaDeviceCanAccessPeer(&ab, a, b) != cudaSuccess || cudaDeviceCanAccessPeer(&ba, b, a) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return ab && ba;
}

/* Access from a's context to b's memory; already granted (StarPU grants
 * it unless told not to copy between GPUs directly) counts as granted. */
static cudaError_t grant(int a, int b)
{
    cudaError_t ce = cudaSetDevice(a);

    if (ce == cudaSuccess && (ce = cudaDeviceEnablePeerAccess(b, 0)) == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();
        ce = cudaSuccess;
    }
    return ce;
}

int startrd_cuda_open_peers(int worker_a, int worker_b)
{
    int a, b, current;
    cudaError_t ce;

    if (!startrd_cuda_peers(worker_a, worker_b))
        return 0;
    a = starpu_worker_get_devid(worker_a);
    b = starpu_worker_get_devid(worker_b);
    if (a == b)
        return 1;
    if ((ce = cudaGetDevice(&current)) == cudaSuccess && (ce = grant(a, b)) == cudaSuccess)
        ce = grant(b, a);
    if (cudaSetDevice(current) == cudaSuccess && ce == cudaSuccess)
        return 1;
    (void)cudaGetLastError();
    startrd_error("CUDA devices %d and %d cannot reach each other's memory: %s", a, b, cudaGetErrorString(ce));
    return 0;
}

#else

startrd_cuda_signal_t *startrd_cuda_signal_create(void)
{
    return NULL;
}

void startrd_cuda_signal_destroy(startrd_cuda_signal_t *s)
{
    (void)s;
}

static int no_cuda(void)
{
    startrd_kernel_failure("signal", "CUDA", -1);
    return -1;
}

int startrd_cuda_signal_post(startrd_cuda_signal_t *s, int64_t step)
{
    (void)s;
    (void)step;
    return no_cuda();
}

int startrd_cuda_signal_wait(startrd_cuda_signal_t *s, int64_t step)
{
    (void)s;
    (void)step;
    return no_cuda();
}

int startrd_cuda_peers(int worker_a, int worker_b)
{
    (void)worker_a;
    (void)worker_b;
    return 0;
}

int startrd_cuda_open_peers(int worker_a, int worker_b)
{
    (void)worker_a;
    (void)worker_b;
    return 0;
}
#endif
