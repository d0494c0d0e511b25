/* Streams beside StarPU's own on each CUDA worker.  A codelet whose work
 * splits into independent cuBLAS calls, each too small to fill the GPU on
 * its own, spreads them over its worker's stream and these lanes: on an
 * H200 the stage-1 HEMM of a 16384 trailing matrix runs at 52 TFLOP/s
 * instead of 38 that way.  A task forks the lanes from its worker's stream
 * and joins them back before it returns, so StarPU, which only watches that
 * stream, still sees the task end when its last call does. */
#ifndef STARTRD_CUDA_LANES_H
#define STARTRD_CUDA_LANES_H

#include "starpu_include.h"

#ifdef STARTRD_USE_CUDA
enum { STARTRD_CUDA_LANES = 2 };

typedef struct startrd_cuda_lanes {
    cudaStream_t stream[STARTRD_CUDA_LANES];
    cublasHandle_t blas[STARTRD_CUDA_LANES];
    cudaEvent_t fork;                         /* recorded on the worker's stream */
    cudaEvent_t join[STARTRD_CUDA_LANES];     /* recorded on each lane */
} startrd_cuda_lanes_t;

/** Inside a CUDA codelet: the worker's lanes, once they wait for the work
 *  issued so far on the worker's stream; NULL (failure recorded) if a CUDA
 *  call failed. */
const startrd_cuda_lanes_t *startrd_cuda_fork(void);

/** Inside a CUDA codelet: the worker's stream waits for everything issued
 *  on the lanes.  0, or the failing CUDA status (recorded), after waiting
 *  on the host for the lanes to drain. */
int startrd_cuda_join(const startrd_cuda_lanes_t *lanes);
#endif

/** Create the lanes of every CUDA worker (nothing without CUDA).
 *  0 or STARTRD_ERR_RUNTIME (reported). */
int startrd_cuda_lanes_open(void);

/** Destroy what startrd_cuda_lanes_open() created. */
void startrd_cuda_lanes_close(void);

#endif
