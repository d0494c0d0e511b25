/* The block columns' home on their GPU: memory that only that GPU maps.
 * Once two GPUs read each other's memory (stage 1 on two GPUs opens that,
 * startrd_cuda_open_peers()), every cudaMalloc maps the new memory on both,
 * which made it several times slower, once per GPU at the start of every
 * reduction.  The driver's virtual memory calls map it on its own GPU only,
 * as fast as cudaMalloc was before (docs/experiments.md, "The block
 * columns' memory mapped on its own GPU only"); the block columns are read
 * and written there alone, and cross to the host by copies that GPU makes.
 * Where the driver lacks those calls or refuses them, StarPU allocates the
 * memory as before. */
#ifndef STARTRD_DEVICE_MEMORY_H
#define STARTRD_DEVICE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "starpu_include.h"

typedef struct startrd_device_memory {
    uintptr_t ptr;              /* 0: none */
    size_t bytes;               /* as allocated, rounded up to the driver's granularity when mapped here */
    unsigned long long handle;  /* the driver's physical allocation, where mapped here */
    int mapped_here;            /* 0: StarPU allocated it */
} startrd_device_memory_t;

/** @p bytes of memory node @p node (a GPU's), counted in StarPU's use of
 *  that node.  0, or -1 without the room (nothing allocated). */
int startrd_device_memory_alloc(unsigned node, size_t bytes, startrd_device_memory_t *m);

/** Give back what startrd_device_memory_alloc() took (none: nothing).  No
 *  work on the GPU may still use it: unlike cudaFree(), this does not wait
 *  for the GPU, which may already run the next work (stage 2's chase). */
void startrd_device_memory_free(unsigned node, startrd_device_memory_t *m);

/** Count the memory that others (other programs, the caller's own
 *  allocations) hold on each GPU now against StarPU's share of that GPU,
 *  so that StarPU evicts what it holds instead of asking the driver for
 *  memory that is not there, where it waits without end.  Done when a call
 *  begins; startrd_device_memory_uncount_others() undoes it when the last
 *  call ends. */
void startrd_device_memory_count_others(void);
void startrd_device_memory_uncount_others(void);

/** The bytes StarPU can hold on memory node @p node during this call:
 *  its limit (STARPU_LIMIT_CUDA_MEM, or most of the GPU) less what others
 *  held when the call began; negative where StarPU knows no limit. */
starpu_ssize_t startrd_device_memory_room(unsigned node);

/** Whether memory node @p node, where it is a GPU's, can hold one task's
 *  @p bytes and 32 MiB for cuBLAS's own buffers in what this call may use
 *  of it (other nodes, and GPUs without a known limit: yes). */
int startrd_device_memory_holds(unsigned node, size_t bytes);

/** startrd_device_memory_holds() on every GPU: where not, work that needs
 *  its bytes at once goes to the CPU workers instead of waiting. */
int startrd_device_memory_gpus_hold(size_t bytes);

#endif
