/* The process-wide runtime context: StarPU's lifetime, the CUDA workers the
 * library may use and the options it was opened with. */
#ifndef STARTRD_CONTEXT_H
#define STARTRD_CONTEXT_H

#include "startrd.h"
#include "starpu_include.h"

#include <stdint.h>

typedef struct startrd_context {
    int refcount;
    int owns_starpu;               /* 0 when the application started StarPU */
    int ncuda;                     /* CUDA workers available to the library */
    int cuda_worker[STARPU_NMAXWORKERS];       /* per GPU, the worker of its bulk work */
    int cuda_side_worker[STARPU_NMAXWORKERS];  /* per GPU, a second worker (stream) for the critical
                                                  path beside it, or cuda_worker when there is none */
    int gpu_group[STARPU_NMAXWORKERS];         /* per GPU, its group in the hierarchical sum */
    startrd_options_t opt;
    char *trace_dir;               /* owned copy of opt.trace_dir */
    char *gpu_groups;              /* owned copy of opt.gpu_groups */
} startrd_context_t;

/**
 * Begin a call: the open context, or one opened with @p opt (NULL: the
 * defaults) that closes with the last release, or with @p implicit at
 * process exit.  StarPU runs from here to the matching
 * startrd_context_release(), and is paused between calls when the library
 * started it.  On success *ctx points to the open context.  -1 when @p opt
 * holds an invalid value; STARTRD_ERR_STATE when the defaults, which only
 * the environment can make invalid, are to open a context and are invalid.
 */
int startrd_context_acquire(const startrd_options_t *opt, int implicit, startrd_context_t **ctx);

/** End a call begun by startrd_context_acquire(). */
int startrd_context_release(void);

/** Without opening anything, the options and GPU count (ncuda) a call would
 *  get now: the open context's, or those of the context it would open with
 *  the defaults.  Only those two fields of @p view are set. */
void startrd_context_preview(startrd_context_t *view);

/** Inside a call, between tasks, host LAPACK on the caller's thread with
 *  the caller's BLAS threads: with @p on, StarPU's workers stop polling
 *  for tasks, which would compete with those threads; off undoes it.  No
 *  task may be submitted in between. */
void startrd_context_host_parallel(int on);

/** Inside a call, around a nested driver call that may run LAPACK on the
 *  caller's threads: StarPU's workers sleep as they do between calls
 *  instead of polling beside those threads, while the call stays counted,
 *  so that no other thread can close or reopen the context meanwhile.  A
 *  nested call that inserts tasks wakes them as any call does;
 *  startrd_context_wake() undoes this.  Only the library's own StarPU
 *  sleeps (an application's keeps its workers). */
void startrd_context_sleep(void);
void startrd_context_wake(void);

/** The same beside tasks that keep running on the GPUs: each CPU worker is
 *  held asleep in a task of its own until
 *  startrd_context_cpu_workers_release(), instead of polling for tasks
 *  (StarPU's drivers poll when idle) on the cores the caller's threads
 *  need.  No task may be submitted to the CPU workers in between.  0 or
 *  ::STARTRD_ERR_RUNTIME (reported, nothing held). */
int startrd_context_cpu_workers_hold(void);

/** Undo startrd_context_cpu_workers_hold(), once its tasks have returned. */
void startrd_context_cpu_workers_release(void);


/** Bandwidth of the band of a reduction of order n on ngpu GPUs with
 *  @p vect ('N' or 'V'): the option's nb or the library's choice (1, the
 *  one-stage reduction, for 'N' on GPUs below the tuning's
 *  one_stage_below), never wider than the matrix (kd <= n-1, so 0 for
 *  n <= 1).  The back-transformation depends on it. */
int64_t startrd_context_bandwidth(const startrd_context_t *ctx, int64_t n, int ngpu, char vect);

/** GPUs stage 1 spreads over in a reduction of order n on ngpu GPUs: ngpu
 *  when it is 0 or 1, else the stage1_ngpu option's count (at most ngpu),
 *  or without it all of them from the order on where spreading was
 *  measured faster, the first GPU alone below. */
int startrd_context_stage1_gpus(const startrd_context_t *ctx, int64_t n, int ngpu);

/** GPUs to give startrd_stage2_zhb2st() in a reduction of order n, bandwidth
 *  kd, on ngpu GPUs: 0 with the stage2 option at STARTRD_STAGE2_HOST, else as
 *  for stage 1 with the stage2_ngpu option and the order from which a split
 *  chase was measured faster.  startrd_stage2_zhb2st() still keeps to one
 *  GPU where it cannot split (vect = 'V', kd = 1, ...). */
int startrd_context_stage2_gpus(const startrd_context_t *ctx, int64_t n, int64_t kd, int ngpu);

/** The stage-1 scheme: the option's, or for STARTRD_ALLREDUCE_AUTO the one
 *  measured fastest at every GPU count tried (1, 2 and 4). */
startrd_allreduce_t startrd_context_allreduce(const startrd_context_t *ctx);

#endif
