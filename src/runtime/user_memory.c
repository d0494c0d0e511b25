#include "user_memory.h"

#include "error.h"
#include "startrd.h"
#include "starpu_include.h"

#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
/* CUDA's view of @p p into *attr; 0 where it has none (NULL, or pageable
 * memory CUDA never saw, on older runtimes). */
static int pointer_attributes(const void *p, struct cudaPointerAttributes *attr)
{
    if (p == NULL)
        return 0;
    if (cudaPointerGetAttributes(attr, p) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return 1;
}
#endif

int startrd_user_device(const void *p)
{
#ifdef STARTRD_USE_CUDA
    struct cudaPointerAttributes attr;

    return pointer_attributes(p, &attr) && attr.type == cudaMemoryTypeDevice ? attr.device : -1;
#else
    (void)p;
    return -1;
#endif
}

int startrd_user_pinned(const void *p)
{
#ifdef STARTRD_USE_CUDA
    struct cudaPointerAttributes attr;

    return pointer_attributes(p, &attr) && attr.type == cudaMemoryTypeHost;
#else
    (void)p;
    return 0;
#endif
}

int startrd_user_node(int devid)
{
    int workers[STARPU_NMAXWORKERS];
    const int count = devid < 0 ? 0 : (int)starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, workers,
                                                                          STARPU_NMAXWORKERS);

    for (int i = 0; i < count; i++)
        if (starpu_worker_get_devid(workers[i]) == devid)
            return (int)starpu_worker_get_memory_node((unsigned)workers[i]);
    return -1;
}

int startrd_user_array_node(const void *p)
{
    const int devid = startrd_user_device(p);

    return devid < 0 ? STARPU_MAIN_RAM : startrd_user_node(devid);
}

void *startrd_user_host_copy(const char *routine, size_t entry_bytes, int64_t rows, int64_t cols, const void *src,
                             int64_t lds, int *info)
{
    void *copy;

    if (*info != 0)
        return NULL;
    if ((copy = malloc((size_t)(rows > 0 ? rows : 1) * (size_t)(cols > 0 ? cols : 1) * entry_bytes)) == NULL) {
        startrd_error("%s: cannot allocate a host copy of %lld x %lld entries", routine, (long long)rows,
                      (long long)cols);
        *info = STARTRD_ERR_MEMORY;
    } else if (src != NULL &&
               (*info = startrd_user_copy(routine, entry_bytes, rows, cols, copy, rows, src, lds)) != 0) {
        free(copy);
        copy = NULL;
    }
    return copy;
}

int startrd_user_copy(const char *routine, size_t entry_bytes, int64_t rows, int64_t cols, void *dst, int64_t ldd,
                      const void *src, int64_t lds)
{
    if (rows <= 0 || cols <= 0)
        return 0;
#ifdef STARTRD_USE_CUDA
    cudaError_t st = cudaMemcpy2D(dst, (size_t)ldd * entry_bytes, src, (size_t)lds * entry_bytes,
                                  (size_t)rows * entry_bytes, (size_t)cols, cudaMemcpyDefault);

    if (st == cudaSuccess)
        return 0;
    (void)cudaGetLastError();
    startrd_error("%s: copying a %lld x %lld matrix to or from a GPU failed: %s", routine, (long long)rows,
                  (long long)cols, cudaGetErrorString(st));
#else
    (void)entry_bytes, (void)dst, (void)ldd, (void)src, (void)lds;
    startrd_error("%s: the library was built without CUDA", routine);
#endif
    return STARTRD_ERR_KERNEL;
}
