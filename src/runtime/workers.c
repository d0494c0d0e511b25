#include "workers.h"

#include "error.h"
#include "starpu_include.h"
#include "startrd.h"

#include <stdatomic.h>

struct on_each_worker {
    int (*set_up)(void);
    atomic_int failures;
};

static void run_set_up(void *arg)
{
    struct on_each_worker *e = arg;

    if (e->set_up() != 0)
        atomic_fetch_add(&e->failures, 1);
}

int startrd_on_each_worker(int (*set_up)(void), uint32_t where, void (*undo)(void))
{
    struct on_each_worker e = {.set_up = set_up};

    atomic_init(&e.failures, 0);
    /* Every worker fails for the same cause (a driver, a full GPU): said once. */
    startrd_error_burst_begin();
    starpu_execute_on_each_worker(run_set_up, &e, where);
    startrd_error_burst_end();
    if (atomic_load(&e.failures) == 0)
        return 0;
    undo();
    return STARTRD_ERR_RUNTIME;
}

int startrd_first_cuda_worker(void)
{
    /* Room for every id: with fewer places than workers StarPU returns
     * -ERANGE, as it does with two workers per GPU (its default). */
    int workers[STARPU_NMAXWORKERS];

    return starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, workers, STARPU_NMAXWORKERS) > 0 ? workers[0] : -1;
}
