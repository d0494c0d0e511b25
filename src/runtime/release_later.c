/* The task that gives host buffers back after the call. */
#include "release_later.h"

#include "error.h"
#include "starpu_include.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

/* Releases submitted and not yet run. */
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pending_done = PTHREAD_COND_INITIALIZER;
static int pending;

struct release {
    void (*release)(void *);
    void *arg;
};

static void release_cpu(void *buffers[], void *cl_arg)
{
    struct release r;

    (void)buffers;
    starpu_codelet_unpack_args(cl_arg, &r);
    r.release(r.arg);
    pthread_mutex_lock(&pending_lock);
    if (--pending == 0)
        pthread_cond_broadcast(&pending_done);
    pthread_mutex_unlock(&pending_lock);
}

static struct starpu_codelet release_codelet = {
    .name = "release_later",
    .cpu_funcs = {release_cpu},
    .nbuffers = 0,
};

void startrd_release_later(void (*release)(void *), void *arg)
{
    struct release r = {release, arg};
    int ret;

    pthread_mutex_lock(&pending_lock);
    pending++;
    pthread_mutex_unlock(&pending_lock);
    ret = starpu_task_insert(&release_codelet, STARPU_VALUE, &r, sizeof r, STARPU_PRIORITY, STARPU_MIN_PRIO, 0);
    if (ret == 0)
        return;
    pthread_mutex_lock(&pending_lock);
    pending--;
    pthread_mutex_unlock(&pending_lock);
    startrd_error("giving buffers back after the call: task submission failed (%d); given back now", ret);
    release(arg);
}

void startrd_release_later_wait(void)
{
    pthread_mutex_lock(&pending_lock);
    while (pending > 0)
        pthread_cond_wait(&pending_done, &pending_lock);
    pthread_mutex_unlock(&pending_lock);
}

void startrd_free_later(void *p)
{
    if (p != NULL)
        startrd_release_later(free, p);
}
