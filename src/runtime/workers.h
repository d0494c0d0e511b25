/* Per-worker set-up, below the context: the CUDA helpers (lanes, uploads,
 * cuBLAS warm-up) make their per-worker state through it when the context
 * opens them, without reaching back into the context. */
#ifndef STARTRD_WORKERS_H
#define STARTRD_WORKERS_H

#include <stdint.h>

/** Run @p set_up on every worker of the kinds @p where (STARPU_CPU,
 *  STARPU_CUDA), each on its own thread.  0 if it returned 0 everywhere,
 *  else STARTRD_ERR_RUNTIME (set_up reports its failures, the first alone
 *  printed) after calling
 *  @p undo, which releases what the workers that succeeded set up. */
int startrd_on_each_worker(int (*set_up)(void), uint32_t where, void (*undo)(void));

/** The first CUDA worker StarPU drives, or -1 where it drives none. */
int startrd_first_cuda_worker(void);

#endif
