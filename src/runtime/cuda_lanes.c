/* The lanes of each CUDA worker, created on the worker itself so that they
 * belong to its device. */
#include "cuda_lanes.h"

#include "context.h"
#include "error.h"

#ifdef STARTRD_USE_CUDA

static startrd_cuda_lanes_t lanes[STARPU_NMAXWORKERS];
static int created[STARPU_NMAXWORKERS];

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
    int w = starpu_worker_get_id_check();

    (void)arg;
    if (created[w])
        destroy_lanes(&lanes[w], STARTRD_CUDA_LANES);
    created[w] = 0;
}

static int create(void)
{
    int w = starpu_worker_get_id_check(), made = 0;
    startrd_cuda_lanes_t *l = &lanes[w];
    const char *call = "cudaEventCreateWithFlags";
    long st = cudaEventCreateWithFlags(&l->fork, cudaEventDisableTiming);
    int have_fork = st == cudaSuccess;

    for (; st == 0 && made < STARTRD_CUDA_LANES; made++) {
        if ((st = cudaStreamCreateWithFlags(&l->stream[made], cudaStreamNonBlocking)) != cudaSuccess) {
            call = "cudaStreamCreateWithFlags";
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
    if (st == 0) {
        created[w] = 1;
        return 0;
    }
    if (have_fork)
        destroy_lanes(l, made);
    startrd_error("CUDA worker %d: %s failed (%ld)", w, call, st);
    return -1;
}

int startrd_cuda_lanes_open(void)
{
    return startrd_on_each_worker(create, STARPU_CUDA, startrd_cuda_lanes_close);
}

void startrd_cuda_lanes_close(void)
{
    starpu_execute_on_each_worker(destroy, NULL, STARPU_CUDA);
}

const startrd_cuda_lanes_t *startrd_cuda_fork(void)
{
    int w = starpu_worker_get_id_check();
    const startrd_cuda_lanes_t *l = &lanes[w];
    cudaError_t st = cudaEventRecord(l->fork, starpu_cuda_get_local_stream());

    for (int i = 0; st == cudaSuccess && i < STARTRD_CUDA_LANES; i++)
        st = cudaStreamWaitEvent(l->stream[i], l->fork, 0);
    if (st == cudaSuccess)
        return l;
    startrd_kernel_failure("cuda_fork", "cudaEventRecord/cudaStreamWaitEvent", st);
    return NULL;
}

int startrd_cuda_join(const startrd_cuda_lanes_t *l)
{
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cudaError_t st = cudaSuccess;

    for (int i = 0; st == cudaSuccess && i < STARTRD_CUDA_LANES; i++) {
        st = cudaEventRecord(l->join[i], l->stream[i]);
        if (st == cudaSuccess)
            st = cudaStreamWaitEvent(stream, l->join[i], 0);
    }
    if (st != cudaSuccess) {
        startrd_kernel_failure("cuda_join", "cudaEventRecord/cudaStreamWaitEvent", st);
        /* The worker's stream no longer orders what follows after the
         * lanes: drain them here, so that the caller may free what they use. */
        for (int i = 0; i < STARTRD_CUDA_LANES; i++)
            cudaStreamSynchronize(l->stream[i]);
    }
    return (int)st;
}
#else
int startrd_cuda_lanes_open(void)
{
    return 0;
}

void startrd_cuda_lanes_close(void)
{
}
#endif
