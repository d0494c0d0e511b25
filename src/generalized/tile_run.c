#include "tile_run.h"

#include "error.h"
#include "startrd.h"

startrd_place_t startrd_tile_place(const startrd_tile_run_t *run, int64_t owner, int priority)
{
    const startrd_tile_workers_t *w = run->workers;
    startrd_place_t p = {.worker = -1, .priority = priority, .cpu_only = w->count == 0, .forward = NULL};

    if (w->count > 0)
        p.worker = w->worker[owner % w->count];
    return p;
}

int startrd_tile_node(const startrd_tile_run_t *run, int64_t owner)
{
    const startrd_tile_workers_t *w = run->workers;

    return w->count > 0 ? (int)starpu_worker_get_memory_node((unsigned)w->worker[owner % w->count]) : STARPU_MAIN_RAM;
}

int startrd_tile_run_wait(startrd_tile_run_t *run, const char *what)
{
    starpu_task_wait_for_all();
    if (run->status != 0) {
        startrd_error("%s: StarPU could not insert a task (%d)", what, run->status);
        return STARTRD_ERR_RUNTIME;
    }
    if (startrd_kernel_failures_take() > 0)
        return STARTRD_ERR_KERNEL;
    return 0;
}
