/* Host buffers a call gives back after it has returned.  Once its results
 * are final, the eigensolver still had to free the reflectors and the
 * tridiagonal solver's workspace, gigabytes at the larger orders: a CPU
 * worker does that now, beside whatever the caller does next
 * (docs/architecture.md, "After the results"). */
#ifndef STARTRD_RELEASE_LATER_H
#define STARTRD_RELEASE_LATER_H

/** Runs @p release(@p arg) on a CPU worker, at the lowest priority, without
 *  waiting for it; where the submission fails (reported), on the calling
 *  thread before returning.  @p release must not use StarPU's data or
 *  tasks: it may run inside a task. */
void startrd_release_later(void (*release)(void *), void *arg);

/** Waits until every release submitted has run: the context's close calls
 *  it, so that none runs after the library is finalized on an
 *  application's StarPU. */
void startrd_release_later_wait(void);

/** free(@p p), later as above; a NULL @p p is nothing to do. */
void startrd_free_later(void *p);

#endif
