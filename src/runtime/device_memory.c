#include "device_memory.h"

#include "cuda_driver.h"
#include "error.h"
#include "starpu_include.h"

#include <string.h>

#ifdef STARTRD_USE_CUDA
#include <cuda.h>
#include <pthread.h>

static struct {
    CUresult (*granularity)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags);
    CUresult (*reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*address_free)(CUdeviceptr, size_t);
    CUresult (*create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long);
    CUresult (*release)(CUmemGenericAllocationHandle);
    CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    CUresult (*unmap)(CUdeviceptr, size_t);
    CUresult (*set_access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    int found;
} vmm;
static pthread_once_t vmm_once = PTHREAD_ONCE_INIT;

static void find_vmm(void)
{
    vmm.found = !startrd_cuda_driver_entry("cuMemGetAllocationGranularity", (void **)&vmm.granularity) &&
                !startrd_cuda_driver_entry("cuMemAddressReserve", (void **)&vmm.reserve) &&
                !startrd_cuda_driver_entry("cuMemAddressFree", (void **)&vmm.address_free) &&
                !startrd_cuda_driver_entry("cuMemCreate", (void **)&vmm.create) &&
                !startrd_cuda_driver_entry("cuMemRelease", (void **)&vmm.release) &&
                !startrd_cuda_driver_entry("cuMemMap", (void **)&vmm.map) &&
                !startrd_cuda_driver_entry("cuMemUnmap", (void **)&vmm.unmap) &&
                !startrd_cuda_driver_entry("cuMemSetAccess", (void **)&vmm.set_access);
}

/* @p bytes on device @p dev, mapped there only: 0, or 1 where the driver
 * cannot (nothing left allocated). */
static int map_on_device(int dev, size_t bytes, startrd_device_memory_t *m)
{
    CUmemAllocationProp prop = {.type = CU_MEM_ALLOCATION_TYPE_PINNED,
                                .location = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev}};
    CUmemAccessDesc access = {.location = prop.location, .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    CUmemGenericAllocationHandle handle;
    CUdeviceptr ptr;
    size_t granule;

    pthread_once(&vmm_once, find_vmm);
    if (!vmm.found || vmm.granularity(&granule, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) != CUDA_SUCCESS ||
        granule == 0)
        return 1;
    bytes = (bytes + granule - 1) / granule * granule;
    if (vmm.reserve(&ptr, bytes, granule, 0, 0) != CUDA_SUCCESS)
        return 1;
    if (vmm.create(&handle, bytes, &prop, 0) != CUDA_SUCCESS)
        goto no_memory;
    if (vmm.map(ptr, bytes, 0, handle, 0) != CUDA_SUCCESS)
        goto no_mapping;
    if (vmm.set_access(ptr, bytes, &access, 1) != CUDA_SUCCESS)
        goto no_access;
    *m = (startrd_device_memory_t){.ptr = (uintptr_t)ptr, .bytes = bytes, .handle = handle, .mapped_here = 1};
    return 0;
no_access:
    vmm.unmap(ptr, bytes);
no_mapping:
    vmm.release(handle);
no_memory:
    vmm.address_free(ptr, bytes);
    return 1;
}

static void unmap(const startrd_device_memory_t *m)
{
    CUresult r = vmm.unmap((CUdeviceptr)m->ptr, m->bytes);

    if (r == CUDA_SUCCESS)
        r = vmm.release((CUmemGenericAllocationHandle)m->handle);
    if (r == CUDA_SUCCESS)
        r = vmm.address_free((CUdeviceptr)m->ptr, m->bytes);
    if (r != CUDA_SUCCESS)
        startrd_cuda_driver_failed("freeing a GPU's block columns", (int)r);
}
#endif

int startrd_device_memory_alloc(unsigned node, size_t bytes, startrd_device_memory_t *m)
{
    memset(m, 0, sizeof *m);
#ifdef STARTRD_USE_CUDA
    if (starpu_node_get_kind(node) == STARPU_CUDA_RAM &&
        map_on_device(starpu_memory_node_get_devid(node), bytes, m) == 0) {
        if (starpu_memory_allocate(node, m->bytes, 0) == 0)
            return 0;
        unmap(m);
        memset(m, 0, sizeof *m);
        return -1;
    }
#endif
    m->ptr = starpu_malloc_on_node(node, bytes);
    m->bytes = bytes;
    return m->ptr != 0 ? 0 : -1;
}

void startrd_device_memory_free(unsigned node, startrd_device_memory_t *m)
{
    if (m->ptr == 0)
        return;
#ifdef STARTRD_USE_CUDA
    if (m->mapped_here) {
        unmap(m);
        starpu_memory_deallocate(node, m->bytes);
        memset(m, 0, sizeof *m);
        return;
    }
#endif
    starpu_free_on_node(node, m->ptr, m->bytes);
    memset(m, 0, sizeof *m);
}

static starpu_ssize_t others[STARPU_MAXNODES];  /* counted on each node by count_others() */

#ifdef STARTRD_USE_CUDA
/* What others hold on GPU memory node @p node beyond StarPU's own use and
 * the share StarPU leaves out of its limit: 0 where the driver cannot say. */
static starpu_ssize_t held_by_others(unsigned node)
{
    size_t free_bytes = 0, total_bytes = 0;
    int current, devid = starpu_memory_node_get_devid(node);
    cudaError_t ce = cudaGetDevice(&current);
    starpu_ssize_t limit = starpu_memory_get_total(node), others_bytes;

    if (ce == cudaSuccess && (ce = cudaSetDevice(devid)) == cudaSuccess)
        ce = cudaMemGetInfo(&free_bytes, &total_bytes);
    if (cudaSetDevice(current) != cudaSuccess || ce != cudaSuccess || limit <= 0) {
        (void)cudaGetLastError();
        return 0;
    }
    others_bytes = limit - (starpu_ssize_t)starpu_memory_get_used(node) - (starpu_ssize_t)free_bytes;
    return others_bytes > 0 ? others_bytes : 0;
}
#endif

void startrd_device_memory_count_others(void)
{
#ifdef STARTRD_USE_CUDA
    for (unsigned node = 0; node < starpu_memory_nodes_get_count() && node < STARPU_MAXNODES; node++)
        if (starpu_node_get_kind(node) == STARPU_CUDA_RAM && (others[node] = held_by_others(node)) > 0)
            starpu_memory_allocate(node, (size_t)others[node], STARPU_MEMORY_OVERFLOW);
#endif
}

void startrd_device_memory_uncount_others(void)
{
    for (unsigned node = 0; node < STARPU_MAXNODES; node++)
        if (others[node] > 0) {
            starpu_memory_deallocate(node, (size_t)others[node]);
            others[node] = 0;
        }
}

starpu_ssize_t startrd_device_memory_room(unsigned node)
{
    starpu_ssize_t total = starpu_memory_get_total(node), room;

    if (total < 0 || node >= STARPU_MAXNODES)
        return total;
    room = total - others[node];
    return room > 0 ? room : 0;
}

int startrd_device_memory_holds(unsigned node, size_t bytes)
{
    starpu_ssize_t room = startrd_device_memory_room(node);

    return starpu_node_get_kind(node) != STARPU_CUDA_RAM || room < 0 || (size_t)room >= bytes + ((size_t)32 << 20);
}

int startrd_device_memory_gpus_hold(size_t bytes)
{
    for (unsigned node = 0; node < starpu_memory_nodes_get_count(); node++)
        if (!startrd_device_memory_holds(node, bytes))
            return 0;
    return 1;
}
