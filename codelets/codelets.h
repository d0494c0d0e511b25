/* Task insertion, one function per codelet.  Algorithms call these and never
 * touch buffers; each codelet file adapts StarPU buffers to one kernel call. */
#ifndef STARTRD_CODELETS_H
#define STARTRD_CODELETS_H

#include <complex.h>
#include <stdatomic.h>

#include "bulge_plan.h"
#include "cuda_signal.h"
#include "forward.h"
#include "q2_blocks.h"
#include "starpu_include.h"
#include "tile_conversion.h"

/* A codelet's CUDA implementation, in builds with CUDA: its kernels are
 * queued on the worker's stream and StarPU waits on the stream, not on the
 * function's return. */
#ifdef STARTRD_USE_CUDA
#define STARTRD_CUDA_ASYNC(func) .cuda_funcs = {func}, .cuda_flags = {STARPU_CUDA_ASYNC},
#else
#define STARTRD_CUDA_ASYNC(func)
#endif

/* A performance model StarPU calibrates from measured runs, per data size. */
#define STARTRD_HISTORY_MODEL(var, symbol_name) \
    static struct starpu_perfmodel var = {.type = STARPU_HISTORY_BASED, .symbol = symbol_name}

/* The same, for tasks whose handles do not tell their work: @p fp gives the
 * footprint the history is kept by. */
#define STARTRD_HISTORY_MODEL_FOOTPRINT(var, symbol_name, fp) \
    static struct starpu_perfmodel var = {.type = STARPU_HISTORY_BASED, .symbol = symbol_name, .footprint = fp}

/* A footprint for tasks whose handles are full-height whatever the step, so
 * that the trailing matrix's first row tells their work: it is the int64_t
 * their arguments start with. */
static inline uint32_t startrd_row0_footprint(struct starpu_task *task)
{
    const int64_t *row0 = task->cl_arg;

    return starpu_hash_crc32c_be((uint32_t)*row0, starpu_task_data_footprint(task));
}

/* Number of buffers of the running task, for codelets with STARPU_VARIABLE_NBUFFERS. */
static inline int startrd_current_nbuffers(void)
{
    return STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
}

/** Where and how urgently a task runs. */
typedef struct startrd_place {
    int worker;      /**< worker id, or -1 to let the scheduler choose */
    int priority;    /**< StarPU priority: higher runs first */
    int cpu_only;    /**< keep the task off the GPUs (a reduction asked for CPU workers) */
    const startrd_forward_t *forward;   /**< outputs sent on at the task's end, or NULL */
} startrd_place_t;

static inline unsigned long long startrd_place_where(startrd_place_t place)
{
    return place.cpu_only ? STARPU_CPU : (unsigned long long)-1;   /* -1: any kind of worker */
}

/* The task_insert arguments that put a task where @p place says. */
#define STARTRD_PLACE_ARGS(place)                                                  \
    STARPU_EXECUTE_ON_WORKER, (place).worker, STARPU_EXECUTE_WHERE,               \
        startrd_place_where(place), STARPU_PRIORITY, (place).priority,            \
        STARPU_EPILOGUE_CALLBACK, (place).forward != NULL ? startrd_forward_callback : NULL, \
        STARPU_EPILOGUE_CALLBACK_ARG, startrd_forward_arg((place).forward)

/** A signal (cuda_signal.h) at one step; none where signal is NULL. */
typedef struct startrd_step_signal {
    startrd_cuda_signal_t *signal;
    int64_t step;
} startrd_step_signal_t;

/** Where each of two GPUs' HEMM tasks of a step forms P from both partial
 *  products: each posts @p mine at @p step once its Y is complete, and
 *  reads the other task's Y in place, on its GPU (the two GPUs reach each
 *  other's memory: startrd_cuda_open_peers()), once @p theirs is posted. */
typedef struct startrd_peer_product {
    startrd_cuda_signal_t *mine, *theirs;
    int64_t step;
    int side;             /* 0: this task's Y is the sum's first term, 1: its second */
    uintptr_t peer_y;     /* the other task's Y: the same shape, on the other GPU */
} startrd_peer_product_t;

/** Most GPUs whose HEMM tasks a panel task copies V and T for. */
#define STARTRD_PANEL_MIRRORS 2

/** Where a panel task copies V (rows from vrow down) and T for the HEMM
 *  tasks of its step, which then wait for its signals instead of its end
 *  (cuda_signal.h): copies homed on their GPUs, whose HEMM tasks read them
 *  in place, V in their products and T only where they form P. */
typedef struct startrd_panel_mirrors {
    startrd_step_signal_t v_done;   /* posted once V is in every copy */
    startrd_step_signal_t t_done;   /* posted once T is in every copy too */
    int count;
    uintptr_t v[STARTRD_PANEL_MIRRORS];   /* N x nb, leading dimension N, as V */
    uintptr_t t[STARTRD_PANEL_MIRRORS];   /* nb x nb, leading dimension nb */
} startrd_panel_mirrors_t;

/** The previous step's update, where it was deferred from row0 (and
 *  column row0) down: its P, and the pair that receives both steps'
 *  operands (kernels_stage1.h); prev NULL where there is none. */
typedef struct startrd_deferred_update {
    starpu_data_handle_t prev, pair;
    int64_t row0;
} startrd_deferred_update_t;

/** The operands of forming P = [W V W] (startrd_task_zform_wvw()); with
 *  @p peer (or NULL) Y is the sum of the task's partial product and the
 *  other GPU's; with @p t_done.signal (or NULL) T is a copy that the panel
 *  task posts there (startrd_panel_mirrors_t). */
typedef struct startrd_wvw_handles {
    int64_t row0;
    starpu_data_handle_t T, ZM, P;
    startrd_deferred_update_t deferred;
    const startrd_peer_product_t *peer;
    startrd_step_signal_t t_done;
} startrd_wvw_handles_t;

/** A run of rows copied from one source buffer into a full-height one. */
typedef struct startrd_row_segment {
    int source;                 /* index in the task's list of sources */
    int64_t src_row, dst_row, rows;
} startrd_row_segment_t;

/** Orders every copy out of startrd_task_zcopy_column() after every copy in
 *  submitted before it. */
int startrd_task_copied_in(starpu_data_handle_t scanned);

/**
 * A group's progress counter, alone in its 128 bytes (a pair of cache
 * lines, which x86 cores prefetch together): neighbouring groups belong to
 * different ranks, which would otherwise invalidate the line the others
 * spin on at every window.
 */
typedef struct startrd_progress {
    _Alignas(128) _Atomic int64_t windows;   /**< windows completed */
} startrd_progress_t;

/** Largest bandwidth the GPU chase takes (kernel_hb2st_chase.cu). */
#define STARTRD_CHASE_GPU_MAX_KD 128

/** Most GPUs a bulge chase is split over. */
#define STARTRD_CHASE_MAX_GPUS 8

/** Where a Cholesky factorisation's tiles record the order of the first
 *  leading minor found not positive definite, counted from the matrix's
 *  first row; 0 while none failed. */
typedef _Atomic int64_t startrd_minor_t;

#endif
