/* Opening the library's runtime context in tests that drive its internal
 * layers (descriptors, codelets, stages) rather than the public API. */
#ifndef STARTRD_TESTING_CONTEXT_H
#define STARTRD_TESTING_CONTEXT_H

#include "context.h"
#include "testing.h"

#include <omp.h>
#include <stdio.h>

/** The context with @p ngpu GPUs and @p ncpu CPU workers (startrd_options_t's
 *  meanings), or NULL after a failed check. */
static inline startrd_context_t *tst_open_context_with(int ngpu, int ncpu)
{
    startrd_options_t opt;
    startrd_context_t *ctx;

    startrd_options_init(&opt);
    opt.ngpu = ngpu;
    opt.ncpu = ncpu;
    /* The test holds a call open while it computes its references on this
     * thread, so StarPU's workers poll on every core: a threaded BLAS here
     * would spin against them. */
    omp_set_num_threads(1);
    if (startrd_context_acquire(&opt, 0, &ctx) != 0) {
        tst_check(false, "runtime context");
        return NULL;
    }
    printf("# %d GPU worker(s), %u CPU worker(s)\n", ctx->ncuda, starpu_cpu_worker_get_count());
    fflush(stdout);
    return ctx;
}

/** The context with the GPUs $STARTRD_NGPU asks for, or NULL after a failed check. */
static inline startrd_context_t *tst_open_context(void)
{
    return tst_open_context_with(tst_env_ngpu(), -1);
}

#endif
