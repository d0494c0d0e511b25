#include "cuda_green.h"

#include "cuda_driver.h"
#include "error.h"

#ifdef STARTRD_USE_CUDA
#include <cuda.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    CUgreenCtx ctx;
    int keep_free;
    unsigned nsm;
} devices[STARPU_MAXCUDADEVS];

static int create(int dev, int keep_free, startrd_cuda_green_t *ctx, unsigned *nsm)
{
    CUresult (*get_resource)(CUdevice, CUdevResource *, CUdevResourceType);
    CUresult (*split)(CUdevResource *, unsigned *, const CUdevResource *, CUdevResource *, unsigned, unsigned);
    CUresult (*describe)(CUdevResourceDesc *, CUdevResource *, unsigned);
    CUresult (*create_ctx)(CUgreenCtx *, CUdevResourceDesc, CUdevice, unsigned);
    CUdevResource all, share;
    CUdevResourceDesc desc;
    unsigned ngroups = 1;
    CUresult r;

    if (startrd_cuda_driver_entry("cuDeviceGetDevResource", (void **)&get_resource) ||
        startrd_cuda_driver_entry("cuDevSmResourceSplitByCount", (void **)&split) ||
        startrd_cuda_driver_entry("cuDevResourceGenerateDesc", (void **)&describe) ||
        startrd_cuda_driver_entry("cuGreenCtxCreate", (void **)&create_ctx))
        return 1;
    if ((r = get_resource((CUdevice)dev, &all, CU_DEV_RESOURCE_TYPE_SM)) != CUDA_SUCCESS)
        return startrd_cuda_driver_failed("cuDeviceGetDevResource", r);
    if (keep_free <= 0 || (unsigned)keep_free >= all.sm.smCount)
        return 1;
    /* Without the co-scheduling constraint a share may be any even count,
     * not only a multiple of 8 on Hopper. */
    r = split(&share, &ngroups, &all, NULL, CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING,
              all.sm.smCount - (unsigned)keep_free);
    if (r == CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION ||
        (r == CUDA_SUCCESS && (ngroups != 1 || share.sm.smCount >= all.sm.smCount)))
        return 1;
    if (r != CUDA_SUCCESS)
        return startrd_cuda_driver_failed("cuDevSmResourceSplitByCount", r);
    if ((r = describe(&desc, &share, 1)) != CUDA_SUCCESS)
        return startrd_cuda_driver_failed("cuDevResourceGenerateDesc", r);
    if ((r = create_ctx(ctx, desc, (CUdevice)dev, CU_GREEN_CTX_DEFAULT_STREAM)) != CUDA_SUCCESS)
        return startrd_cuda_driver_failed("cuGreenCtxCreate", r);
    *nsm = share.sm.smCount;
    return 0;
}

int startrd_cuda_green_get(int keep_free, startrd_cuda_green_t *ctx, unsigned *nsm)
{
    int dev, st = 0;

    *ctx = NULL;
    *nsm = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= STARPU_MAXCUDADEVS)
        return startrd_cuda_driver_failed("cudaGetDevice", CUDA_ERROR_INVALID_DEVICE);
    pthread_mutex_lock(&lock);
    if (devices[dev].ctx == NULL || devices[dev].keep_free != keep_free) {
        /* Another share was asked for: the old one no longer has streams. */
        startrd_cuda_green_t old = devices[dev].ctx;
        CUresult (*destroy)(CUgreenCtx);

        if (old != NULL && startrd_cuda_driver_entry("cuGreenCtxDestroy", (void **)&destroy) == 0)
            destroy(old);
        devices[dev].ctx = NULL;
        if ((st = create(dev, keep_free, &devices[dev].ctx, &devices[dev].nsm)) == 0)
            devices[dev].keep_free = keep_free;
    }
    *ctx = devices[dev].ctx;
    *nsm = devices[dev].nsm;
    pthread_mutex_unlock(&lock);
    return *ctx != NULL ? 0 : st;
}

int startrd_cuda_green_stream(startrd_cuda_green_t ctx, cudaStream_t *stream)
{
    CUresult (*create_stream)(CUstream *, CUgreenCtx, unsigned, int);
    CUresult r;

    if (startrd_cuda_driver_entry("cuGreenCtxStreamCreate", (void **)&create_stream))
        return startrd_cuda_driver_failed("cuGreenCtxStreamCreate (not in the driver)", CUDA_ERROR_NOT_FOUND);
    if ((r = create_stream((CUstream *)stream, ctx, CU_STREAM_NON_BLOCKING, 0)) != CUDA_SUCCESS)
        return startrd_cuda_driver_failed("cuGreenCtxStreamCreate", r);
    return 0;
}

#endif
