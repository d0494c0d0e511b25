/* Two tasks of one step, each on its own GPU, that each need what the
 * other computed (stage 1's partial products of A22 * V on two GPUs): each
 * marks the work it has queued on its worker's stream and makes that
 * stream wait for the other's mark, so both go on, on the GPUs, as soon as
 * both results exist.  No task and no runtime round trip lies between
 * them.  The host waits only until the other task has queued its work,
 * never for the work itself: both tasks are ready at once, so that wait is
 * short, and it needs nothing from the waiting worker. */
#ifndef STARTRD_CUDA_MEETING_H
#define STARTRD_CUDA_MEETING_H

#include <stdint.h>

typedef struct startrd_cuda_meeting startrd_cuda_meeting_t;

/** A meeting of the GPUs of CUDA workers @p worker0 (side 0) and
 *  @p worker1 (side 1), for steps 0, 1, 2, ... in order; NULL without CUDA,
 *  when the two are one GPU, or when they cannot read each other's memory
 *  (then nothing is reported: the caller moves the data instead). */
startrd_cuda_meeting_t *startrd_cuda_meeting_create(int worker0, int worker1);

/** Free @p m (NULL: nothing) once no task of it is left. */
void startrd_cuda_meeting_destroy(startrd_cuda_meeting_t *m);

/** Inside a CUDA codelet on side @p side's worker, at step @p step: the
 *  stream holds what is queued after this call until the other side's work
 *  of the same step, queued before its own call, is done; the other GPU's
 *  memory may then be read.  0, or -1 with the failure recorded. */
int startrd_cuda_meet(startrd_cuda_meeting_t *m, int side, int64_t step);

#endif
