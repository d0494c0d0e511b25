#include "host_blas.h"
#include "config.h"
#include "error.h"
#include "startrd.h"

#if defined(HAVE_OPENBLAS_GET_PARALLEL) && defined(HAVE_OPENBLAS_GET_NUM_THREADS)
#include <cblas.h>
#endif
#include <omp.h>

int startrd_host_blas_check(void)
{
#if defined(HAVE_OPENBLAS_GET_PARALLEL) && defined(HAVE_OPENBLAS_GET_NUM_THREADS)
    /* openblas_get_parallel(): 0 sequential, 1 pthreads, 2 OpenMP. */
    if (openblas_get_parallel() == 1 && openblas_get_num_threads() > 1) {
        startrd_error("the OpenBLAS in this process is threaded with pthreads (%d threads), whose thread count "
                      "is the whole process's: its StarPU workers would each start that many; link the OpenMP "
                      "OpenBLAS that tools/setup.sh builds, or set OPENBLAS_NUM_THREADS=1",
                      openblas_get_num_threads());
        return STARTRD_ERR_RUNTIME;
    }
#endif
    return 0;
}

void startrd_host_blas_serial_here(void *unused)
{
    (void)unused;
    /* An OpenMP BLAS (OpenBLAS, MKL's GNU threading) reads the calling
     * thread's own count; a sequential one ignores it. */
    omp_set_num_threads(1);
}
