/* Order between tasks of different workers kept on the GPUs rather than by
 * the runtime: a task posts a signal once it has queued its work on its
 * worker's stream, and a task of another worker (of the same GPU or not)
 * makes its own stream wait for that work.  The waiting task may then start
 * before the posting one has ended, and its kernels run as soon as the
 * posted work is done, with no runtime round trip between the two (each
 * one lengthened the chain of stage 1: docs/architecture.md, "Two GPUs meet
 * on the devices" and "The panel signals the HEMM tasks").  The host waits
 * only until the post has been made, never for the work: tasks that signal
 * each other must be ready at about the same time, and a waiting task holds
 * its worker.
 * What the posting task wrote is then read through plain addresses, behind
 * the runtime's back: callers keep such buffers at a fixed home. */
#ifndef STARTRD_CUDA_SIGNAL_H
#define STARTRD_CUDA_SIGNAL_H

#include <stdint.h>

#include "starpu_include.h"

typedef struct startrd_cuda_signal startrd_cuda_signal_t;

/** A signal posted at steps 0, 1, 2, ... in increasing order (some may be
 *  skipped), always by workers of one GPU; NULL without CUDA or memory. */
startrd_cuda_signal_t *startrd_cuda_signal_create(void);

/** Free @p s (NULL: nothing) once no task uses it. */
void startrd_cuda_signal_destroy(startrd_cuda_signal_t *s);

/** Inside a CUDA codelet: the work queued so far on the worker's stream is
 *  step @p step's.  Step k's mark is reused at step k+2: every wait for
 *  step k must be queued before the post of step k+2.  0, or -1 with the
 *  failure recorded (the post is made all the same, so that no waiter
 *  waits for ever). */
int startrd_cuda_signal_post(startrd_cuda_signal_t *s, int64_t step);

#ifdef STARTRD_USE_CUDA
/** As startrd_cuda_signal_post(), for the work queued so far on @p stream,
 *  a stream of the calling worker's GPU. */
int startrd_cuda_signal_post_on(startrd_cuda_signal_t *s, int64_t step, cudaStream_t stream);
#endif

/** Inside a CUDA codelet: the worker's stream holds what is queued after
 *  this call until the work posted for step @p step is done.  0, or -1 with
 *  the failure recorded. */
int startrd_cuda_signal_wait(startrd_cuda_signal_t *s, int64_t step);

/** 1 when the GPUs of CUDA workers @p worker_a and @p worker_b read each
 *  other's memory (or are one GPU), 0 otherwise and without CUDA. */
int startrd_cuda_peers(int worker_a, int worker_b);

/** Where startrd_cuda_peers() holds, let each of the two GPUs read and
 *  write the other's memory, for the kernels and copies of every worker
 *  (the calling thread's device is left as it was).  1 once done, 0
 *  otherwise (a failure is reported). */
int startrd_cuda_open_peers(int worker_a, int worker_b);

#endif
