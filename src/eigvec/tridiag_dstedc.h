/* The real symmetric tridiagonal eigenproblem with vectors by divide and
 * conquer, with the products of its merges on the GPUs.
 *
 * @precisions normal d -> s
 */
#ifndef STARTRD_TRIDIAG_DSTEDC_H
#define STARTRD_TRIDIAG_DSTEDC_H

#include <stddef.h>
#include <stdint.h>

#include "starpu_include.h"

/** The worker that holds the vectors while other tasks hold the GPUs'
 *  first ones, and where the vectors go. */
typedef struct startrd_dstedc_beside {
    int worker;
    const starpu_data_handle_t *z_blocks;   /**< n x z_columns each (the last narrower), only written */
    int64_t z_columns;
} startrd_dstedc_beside_t;

/**
 * LAPACK's DSTEDC with COMPZ = 'I': on return d holds the eigenvalues of
 * the tridiagonal matrix (diagonal d, off-diagonal e) in ascending order
 * and the columns of the n x n matrix Z (leading dimension ldz) its
 * orthonormal eigenvectors; e is destroyed.  Subproblems of at most
 * @p leaf rows (0: the library's choice) are the leaves LAPACK's DSTEDC
 * solves whole; tests pass small ones to reach deep trees at small
 * orders.  The merges' deflation decisions and secular equations run on
 * the caller's thread with its OpenMP threads.
 *
 * Without @p beside, StarPU's workers are paused meanwhile, Q is on the
 * host, and the merges' products run as tasks on the GPUs, or on the CPU
 * workers without any.
 *
 * Where @p beside is given, other tasks hold the GPUs meanwhile: the
 * workers are left running, and the vectors stay on beside->worker (a
 * GPU's second stream), where the merges' moves and products run as
 * tasks, from the leaves to the end; it needs
 * startrd_dstedc_gpu_bytes(n) there.  They end in beside->z_blocks,
 * sorted, and Z is not used (it may be NULL).  The caller may hold the
 * CPU workers (startrd_context_cpu_workers_hold()) unless beside->worker
 * is one.
 *
 * Returns 0, ::STARTRD_ERR_MEMORY, ::STARTRD_ERR_KERNEL when a LAPACK step
 * fails (a secular equation that does not converge), or
 * ::STARTRD_ERR_RUNTIME.
 */
int startrd_dstedc(int64_t n, double *d, double *e, double *Z, int64_t ldz, int64_t leaf,
                   const startrd_dstedc_beside_t *beside);

/** The bytes beside->worker holds at order n: Q, the packed Q2, S and a
 *  merge's weights; SIZE_MAX past the orders where Q can be held
 *  (n^2 >= 2^32). */
size_t startrd_dstedc_gpu_bytes(int64_t n);

#endif
