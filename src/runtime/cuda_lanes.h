/* Streams beside StarPU's own on each CUDA worker.  A codelet whose work
 * splits into independent cuBLAS calls, each too small to fill the GPU on
 * its own, spreads them over its worker's stream and these lanes, which
 * runs the stage-1 HEMM markedly faster (docs/architecture.md, "Where
 * stage 1's time goes").  A task forks the lanes from its worker's stream
 * and joins them back before it returns, so StarPU, which only watches that
 * stream, still sees the task end when its last call does.
 *
 * Narrow lanes run on a green context that leaves some multiprocessors
 * free: stage 1's trailing update takes them while a panel, on the
 * worker's other stream, is factored beside it, so that the panel's many
 * small kernels do not queue behind the update's GEMM blocks.
 *
 * The urgent lane is a stream of the device's highest priority, for short
 * work on the critical path that shares its GPU with long work on the
 * other worker: the divide and conquer's merges beside Q's forming waited
 * for Q's kernels to drain at equal priority (docs/architecture.md,
 * "The divide and conquer's vectors held on one GPU"). */
#ifndef STARTRD_CUDA_LANES_H
#define STARTRD_CUDA_LANES_H

#include "starpu_include.h"

#ifdef STARTRD_USE_CUDA
enum {
    STARTRD_CUDA_LANES = 2,          /* beside the worker's stream */
    STARTRD_CUDA_NARROW_LANES = 3,   /* in place of it */
    STARTRD_CUDA_MAX_LANES = 3
};

typedef struct startrd_cuda_lanes {
    int count;
    int beside;                                   /* 1: the worker's stream is a lane too */
    cudaStream_t stream[STARTRD_CUDA_MAX_LANES];
    cublasHandle_t blas[STARTRD_CUDA_MAX_LANES];
    cudaEvent_t fork;                             /* recorded on the worker's stream */
    cudaEvent_t join[STARTRD_CUDA_MAX_LANES];     /* recorded on each lane */
} startrd_cuda_lanes_t;

/** Inside a CUDA codelet: the worker's lanes (STARTRD_CUDA_LANES of them,
 *  beside its stream), once they wait for the work issued so far on the
 *  worker's stream; NULL (failure recorded) if a CUDA call failed. */
const startrd_cuda_lanes_t *startrd_cuda_fork(void);

/** As startrd_cuda_fork(), but where the worker has them, its narrow lanes:
 *  streams whose kernels leave the multiprocessors kept for the panels
 *  (the panel_sms option) free, to be used instead of the worker's stream. */
const startrd_cuda_lanes_t *startrd_cuda_fork_narrow(void);

/** As startrd_cuda_fork(), but one lane: the worker's urgent stream, whose
 *  kernels the GPU schedules before those of the worker's own stream and
 *  of the other workers. */
const startrd_cuda_lanes_t *startrd_cuda_fork_urgent(void);

/** Inside a CUDA codelet: the worker's stream waits for everything issued
 *  on the lanes.  0, or the failing CUDA status (recorded), after waiting
 *  on the host for the lanes to drain. */
int startrd_cuda_join(const startrd_cuda_lanes_t *lanes);
#endif

/** Create the lanes of every CUDA worker (nothing without CUDA), and
 *  narrow lanes that leave @p panel_sms multiprocessors of each GPU free
 *  where @p panel_sms > 0 and the driver has green contexts (a worker
 *  whose narrow lanes fail goes on without them, reported).
 *  0 or STARTRD_ERR_RUNTIME (reported). */
int startrd_cuda_lanes_open(int panel_sms);

/** Destroy what startrd_cuda_lanes_open() created. */
void startrd_cuda_lanes_close(void);

#endif
