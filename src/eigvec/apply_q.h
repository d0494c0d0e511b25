/* What the back-transformation's precisions (zapply_q.h and its twins)
 * share. */
#ifndef STARTRD_APPLY_Q_H
#define STARTRD_APPLY_Q_H

/** How Q2 is applied: as the library sees fit, reflector by reflector on
 * the host, or in blocks of reflectors (q2_blocks.h), on any worker. */
typedef enum startrd_q2_method {
    STARTRD_Q2_AUTO,          /**< in blocks when the runtime has CUDA workers */
    STARTRD_Q2_REFLECTORS,
    STARTRD_Q2_BLOCKS,
} startrd_q2_method_t;

#endif
