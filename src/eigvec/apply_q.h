/* What the back-transformation's precisions (zapply_q.h and its twins)
 * share. */
#ifndef STARTRD_APPLY_Q_H
#define STARTRD_APPLY_Q_H

#include <stdint.h>

#include "starpu_include.h"

/** How Q2 is applied: as the library sees fit, reflector by reflector on
 * the host, or in blocks of reflectors (q2_blocks.h), on any worker. */
typedef enum startrd_q2_method {
    STARTRD_Q2_AUTO,          /**< in blocks when the runtime has CUDA workers */
    STARTRD_Q2_REFLECTORS,
    STARTRD_Q2_BLOCKS,
} startrd_q2_method_t;

/** Columns first.. of a real matrix of the precision's real type, given as
 * column blocks of @p width columns each but the last (NULL where no
 * column is taken from it), wherever StarPU holds them: what the blocks of
 * C start from in place of C's contents. */
typedef struct startrd_real_columns {
    const starpu_data_handle_t *blocks;
    int64_t nblocks, width, first;
} startrd_real_columns_t;

#endif
