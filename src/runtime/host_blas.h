/* What the library does to the host BLAS's threads: StarPU's workers each
 * run BLAS on one thread, set on the worker's own thread, and nothing else
 * is touched, so the application's threads keep the BLAS threading they
 * chose, during the library's calls as between them. */
#ifndef STARTRD_HOST_BLAS_H
#define STARTRD_HOST_BLAS_H

/** 0 when the BLAS in this process can run one thread per StarPU worker
 *  without a process-wide setting: sequential, or threaded by OpenMP, whose
 *  thread count belongs to each thread.  STARTRD_ERR_RUNTIME, with a
 *  message, for a BLAS whose thread count is the whole process's and more
 *  than one (OpenBLAS threaded by pthreads). */
int startrd_host_blas_check(void);

/** One BLAS thread for the calling thread, whatever the others have: run
 *  on every StarPU worker once the workers exist. */
void startrd_host_blas_serial_here(void *unused);

#endif
