/* Outputs sent on at the end of the task that writes them.  StarPU moves a
 * task's input only once the task is ready, after every task it depends on
 * has ended and released its handles: on two GPUs a stage-1 step waited
 * from the HEMM tasks' end to W, which needs the other GPU's partial
 * product, well beyond the time that product's copy over NVLink takes.
 * A forwarding request starts such a copy from the writer's epilogue,
 * before the runtime releases its dependencies, which shortened that hop
 * (docs/experiments.md, "Outputs forwarded from their writer's end" and
 * "Figures moved from the code"). */
#ifndef STARTRD_FORWARD_H
#define STARTRD_FORWARD_H

#include "starpu_include.h"

enum { STARTRD_FORWARD_HANDLES = 2 };

/** Handles a task writes and the memory nodes whose next readers want them. */
typedef struct startrd_forward {
    starpu_data_handle_t handle[STARTRD_FORWARD_HANDLES];
    int nhandles;
    unsigned node[STARPU_MAXNODES];
    int nnodes;
} startrd_forward_t;

/** A task's epilogue callback, @p forward from startrd_forward_arg():
 *  asynchronous fetches of every handle onto every node (those already
 *  valid there cost nothing). */
void startrd_forward_callback(void *forward);

/** The callback's argument for @p forward (NULL gives NULL): a copy, which
 *  StarPU frees with the task, as it does every epilogue argument given to
 *  starpu_task_insert().  NULL also where the copy cannot be allocated: the
 *  outputs then move when their readers start, as without forwarding. */
void *startrd_forward_arg(const startrd_forward_t *forward);

#endif
