#include "cuda_driver.h"

#include "error.h"

#ifdef STARTRD_USE_CUDA
int startrd_cuda_driver_entry(const char *name, void **fn)
{
    enum cudaDriverEntryPointQueryResult found;

    if (cudaGetDriverEntryPointByVersion(name, fn, CUDART_VERSION, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess || *fn == NULL) {
        *fn = NULL;
        return 1;
    }
    return 0;
}

int startrd_cuda_driver_failed(const char *call, int status)
{
    startrd_error("%s failed (CUDA driver status %d)", call, status);
    return -status;
}
#endif
