/* The lock that serialises the library's calls and the statistics of the
 * last one, shared by the drivers of every precision. */
#include "stats.h"

#include <pthread.h>

/* StarPU's task graph is shared by the whole process and the stages wait for
 * all its tasks, so concurrent reductions run one after the other. */
static pthread_mutex_t reduction_lock = PTHREAD_MUTEX_INITIALIZER;
static startrd_stats_t last_stats;

void startrd_reduction_lock(void)
{
    pthread_mutex_lock(&reduction_lock);
}

void startrd_reduction_unlock(void)
{
    pthread_mutex_unlock(&reduction_lock);
}

void startrd_stats_record_reduction(const startrd_stats_t *stats)
{
    last_stats = *stats;
}

/* Under the lock, like the reductions that write the rest and the readers. */
void startrd_stats_record_vectors(double tridiag_seconds, double backtransform_seconds)
{
    pthread_mutex_lock(&reduction_lock);
    last_stats.tridiag_seconds = tridiag_seconds;
    last_stats.backtransform_seconds = backtransform_seconds;
    pthread_mutex_unlock(&reduction_lock);
}

void startrd_stats_record_generalized(double standard_form_seconds, double backsubstitution_seconds)
{
    pthread_mutex_lock(&reduction_lock);
    last_stats.standard_form_seconds = standard_form_seconds;
    last_stats.backsubstitution_seconds = backsubstitution_seconds;
    pthread_mutex_unlock(&reduction_lock);
}

void startrd_stats_record_host(void)
{
    pthread_mutex_lock(&reduction_lock);
    last_stats = (startrd_stats_t){0};
    pthread_mutex_unlock(&reduction_lock);
}

void startrd_last_stats(startrd_stats_t *stats)
{
    pthread_mutex_lock(&reduction_lock);
    *stats = last_stats;
    pthread_mutex_unlock(&reduction_lock);
}
