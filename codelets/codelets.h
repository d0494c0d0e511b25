/* Task insertion, one function per codelet.  Algorithms call these and never
 * touch buffers; each codelet file adapts StarPU buffers to one kernel call. */
#ifndef STARTRD_CODELETS_H
#define STARTRD_CODELETS_H

#include <complex.h>

#include "starpu_include.h"

/** Where and how urgently a task runs. */
typedef struct startrd_place {
    int worker;      /**< worker id, or -1 to let the scheduler choose */
    int priority;    /**< StarPU priority: higher runs first */
} startrd_place_t;

/** C = alpha * op(A) * op(B) + beta * C on whole handles; op is 'N', 'T' or 'C'. */
int startrd_task_zgemm(startrd_place_t place, char transa, char transb,
                       double complex alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                       double complex beta, starpu_data_handle_t C);

#endif
