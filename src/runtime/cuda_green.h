/* A CUDA green context: a share of the current GPU's multiprocessors that
 * kernels launched on its streams stay within, the rest of the GPU left to
 * other work.  The driver's entry points are looked up through the runtime,
 * so the library does not link libcuda (CPU-only machines have none).
 *
 * A device's green context lives until the process ends: each new one
 * cost host memory that destroying it did not give back (cuBLAS's kernels
 * loaded into it, per init/finalize cycle of the context), so contexts
 * opened again reuse it (docs/architecture.md, "Multiprocessors left to
 * the panel"). */
#ifndef STARTRD_CUDA_GREEN_H
#define STARTRD_CUDA_GREEN_H

#include "starpu_include.h"

#ifdef STARTRD_USE_CUDA
typedef struct CUgreenCtx_st *startrd_cuda_green_t;

/** On the current device, the green context holding all multiprocessors
 *  but @p keep_free (rounded as the driver partitions them), and its actual
 *  count in @p *nsm.  1 and *ctx = NULL where the driver has no green
 *  contexts or the device is too small to spare @p keep_free; 0; or the
 *  failing driver status, negated (reported).  Thread-safe. */
int startrd_cuda_green_get(int keep_free, startrd_cuda_green_t *ctx, unsigned *nsm);

/** A non-blocking stream whose kernels run on @p ctx's multiprocessors.
 *  0, or the failing driver status, negated (reported). */
int startrd_cuda_green_stream(startrd_cuda_green_t ctx, cudaStream_t *stream);
#endif

#endif
