/* The meeting of two GPUs' tasks (cuda_meeting.h): CUDA events, recorded
 * by each side on its worker's stream and waited for by the other's. */
#include "cuda_meeting.h"

#include "error.h"
#include "starpu_include.h"

#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

/* Each side's marks, used in turn: step k's is recorded again at step k+2
 * only, which cannot start before the other side has waited on it at step
 * k (both sides of step k+1 come between). */
enum { MARKS = 2 };

/* A side that has not queued its work after this long never will (its task
 * failed): the wait gives up, with a failure recorded, rather than hang. */
#define GIVE_UP_SECONDS 60.0

struct startrd_cuda_meeting {
    int device[2];
    int peer_enabled[2];                  /* each side's, touched by its worker only */
    cudaEvent_t mark[2][MARKS];           /* created by each side's worker, on its device */
    _Atomic int64_t queued[2];            /* per side: how many steps' work it has marked */
};

startrd_cuda_meeting_t *startrd_cuda_meeting_create(int worker0, int worker1)
{
    int workers[2] = {worker0, worker1}, device[2], can01 = 0, can10 = 0;
    startrd_cuda_meeting_t *m;

    for (int s = 0; s < 2; s++) {
        if (workers[s] < 0 || starpu_worker_get_type(workers[s]) != STARPU_CUDA_WORKER)
            return NULL;
        device[s] = starpu_worker_get_devid(workers[s]);
    }
    if (device[0] == device[1] || cudaDeviceCanAccessPeer(&can01, device[0], device[1]) != cudaSuccess ||
        cudaDeviceCanAccessPeer(&can10, device[1], device[0]) != cudaSuccess || !can01 || !can10) {
        (void)cudaGetLastError();
        return NULL;
    }
    if ((m = calloc(1, sizeof *m)) == NULL)
        return NULL;
    m->device[0] = device[0];
    m->device[1] = device[1];
    atomic_init(&m->queued[0], 0);
    atomic_init(&m->queued[1], 0);
    return m;
}

void startrd_cuda_meeting_destroy(startrd_cuda_meeting_t *m)
{
    if (m == NULL)
        return;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < MARKS; i++)
            if (m->mark[s][i] != NULL)
                cudaEventDestroy(m->mark[s][i]);
    free(m);
}

static double seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Until the other side has marked @p steps steps; 0, or -1 after
 * GIVE_UP_SECONDS. */
static int await_queued(startrd_cuda_meeting_t *m, int other, int64_t steps)
{
    double start = 0.0;

    for (unsigned spins = 0; atomic_load_explicit(&m->queued[other], memory_order_acquire) < steps; spins++) {
        if (spins % 1024 != 1023)
            continue;
        if (start == 0.0)
            start = seconds();
        else if (seconds() - start > GIVE_UP_SECONDS)
            return -1;
        sched_yield();
    }
    return 0;
}

int startrd_cuda_meet(startrd_cuda_meeting_t *m, int side, int64_t step)
{
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cudaEvent_t *mark = &m->mark[side][step % MARKS];
    const char *call = "cudaDeviceEnablePeerAccess";
    int other = 1 - side;
    cudaError_t ce = cudaSuccess;

    /* StarPU enables it, unless told not to copy between GPUs directly. */
    if (!m->peer_enabled[side]) {
        ce = cudaDeviceEnablePeerAccess(m->device[other], 0);
        if (ce == cudaErrorPeerAccessAlreadyEnabled) {
            (void)cudaGetLastError();
            ce = cudaSuccess;
        }
        m->peer_enabled[side] = ce == cudaSuccess;
    }
    if (ce == cudaSuccess && *mark == NULL && (ce = cudaEventCreateWithFlags(mark, cudaEventDisableTiming)) != cudaSuccess)
        call = "cudaEventCreateWithFlags";
    if (ce == cudaSuccess && (ce = cudaEventRecord(*mark, stream)) != cudaSuccess)
        call = "cudaEventRecord";
    /* Even after a failure: the other side must not wait for ever. */
    atomic_store_explicit(&m->queued[side], step + 1, memory_order_release);
    if (ce != cudaSuccess) {
        startrd_kernel_failure("meeting", call, ce);
        return -1;
    }
    if (await_queued(m, other, step + 1) != 0) {
        startrd_kernel_failure("meeting", "the other GPU's task", -1);
        return -1;
    }
    if ((ce = cudaStreamWaitEvent(stream, m->mark[other][step % MARKS], 0)) != cudaSuccess) {
        startrd_kernel_failure("meeting", "cudaStreamWaitEvent", ce);
        return -1;
    }
    return 0;
}

#else

startrd_cuda_meeting_t *startrd_cuda_meeting_create(int worker0, int worker1)
{
    (void)worker0;
    (void)worker1;
    return NULL;
}

void startrd_cuda_meeting_destroy(startrd_cuda_meeting_t *m)
{
    (void)m;
}

int startrd_cuda_meet(startrd_cuda_meeting_t *m, int side, int64_t step)
{
    (void)m;
    (void)side;
    (void)step;
    startrd_kernel_failure("meeting", "CUDA", -1);
    return -1;
}
#endif
