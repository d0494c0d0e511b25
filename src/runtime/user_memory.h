/* Where the caller's arrays live: host memory, or the memory of one GPU
 * (the _gpu entry points), and the copies the drivers make between the two
 * where the work has to run on the host. */
#ifndef STARTRD_USER_MEMORY_H
#define STARTRD_USER_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/** The CUDA device whose memory @p p points into, or -1 for memory the
 *  host reads (host, pinned or managed memory, NULL, and every pointer in
 *  a build without CUDA). */
int startrd_user_device(const void *p);

/** Whether @p p is pinned host memory, which a GPU reads by DMA (0 in a
 *  build without CUDA). */
int startrd_user_pinned(const void *p);

/** The memory node of CUDA device @p devid in the open context, or -1
 *  where StarPU drives no worker on it. */
int startrd_user_node(int devid);

/** The memory node of the caller's array @p p for the runtime's handles:
 *  STARPU_MAIN_RAM for host memory, the GPU's node, or -1 for a GPU the
 *  context does not drive. */
int startrd_user_array_node(const void *p);

/** Copies @p rows x @p cols entries of @p entry_bytes from @p src (leading
 *  dimension @p lds) to @p dst (@p ldd), either in host or in GPU memory.
 *  0, or ::STARTRD_ERR_KERNEL after a message naming @p routine. */
int startrd_user_copy(const char *routine, size_t entry_bytes, int64_t rows, int64_t cols, void *dst, int64_t ldd,
                      const void *src, int64_t lds);

/** A host array of @p rows x @p cols entries of @p entry_bytes (leading
 *  dimension rows), holding a copy of @p src (leading dimension @p lds, in
 *  host or GPU memory), or uninitialised where src is NULL: for the
 *  drivers' host copies.  Nothing is done where *@p info is not 0 already;
 *  NULL with *info set after a message naming @p routine where it cannot
 *  be made.  free() gives it back. */
void *startrd_user_host_copy(const char *routine, size_t entry_bytes, int64_t rows, int64_t cols, const void *src,
                             int64_t lds, int *info);

#endif
