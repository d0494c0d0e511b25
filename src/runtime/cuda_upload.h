/* Copies between the caller's pageable memory and a GPU, made by CPU
 * workers from start to end: coming in, each packs columns into one of its
 * two pinned buffers while the GPU pulls the other; going out, it unpacks
 * one buffer while the other fills.  Staging a whole block column and then
 * moving it with a task on the GPU's worker cost a task hop per column
 * and tied each staging buffer to the GPU worker's turn, so that the copies
 * in waited on those hops (docs/experiments.md, "What is still idle at
 * n = 32768").  Going out, staging buffers cost a task per column on the
 * GPU's worker too, and StarPU allocated and pinned them at their first
 * use, which stalled a first call on four GPUs (docs/experiments.md,
 * "Four GPUs"). */
#ifndef STARTRD_CUDA_UPLOAD_H
#define STARTRD_CUDA_UPLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "starpu_include.h"

#ifdef STARTRD_USE_CUDA
/** Fills (uploads) or empties (downloads) columns @p q0 .. @p q1 - 1 of
 *  what is copied, column q at entry (q - q0) * @p ld of @p buf. */
typedef void (*startrd_cuda_columns_t)(void *arg, void *buf, int64_t ld, int64_t q0, int64_t q1);

/** Inside a CPU codelet: @p cols columns of @p rows entries of
 *  @p entry_bytes each (the precision's scalar), packed by @p pack, to
 *  device @p devid's memory at @p dst (leading dimension @p ldd); returns
 *  once they are there.  0, or the failing CUDA status
 *  (cudaErrorInvalidValue for a column taller than a pinned buffer). */
int startrd_cuda_upload(int devid, size_t entry_bytes, void *dst, int64_t ldd, int64_t rows, int64_t cols,
                        startrd_cuda_columns_t pack, void *arg);

/** Inside a CPU codelet: @p cols columns of @p rows entries of
 *  @p entry_bytes each from device @p devid's memory at @p src (leading
 *  dimension @p lds), handed to @p unpack as they arrive; returns once all
 *  are unpacked.  0, or the failing CUDA status, as startrd_cuda_upload(). */
int startrd_cuda_download(int devid, size_t entry_bytes, void *src, int64_t lds, int64_t rows, int64_t cols,
                          startrd_cuda_columns_t unpack, void *arg);

/** Inside a CPU codelet: the worker's stream on device @p devid, which it
 *  makes current, for copies between GPUs and the kernels that go with
 *  them; NULL where the worker has none there. */
cudaStream_t startrd_cuda_upload_stream(int devid);
#endif

/** Give every CPU worker its pinned buffers and a stream per GPU, when
 *  StarPU drives GPUs.  0, or STARTRD_ERR_RUNTIME (reported). */
int startrd_cuda_upload_open(void);

/** Free what startrd_cuda_upload_open() made. */
void startrd_cuda_upload_close(void);

#endif
