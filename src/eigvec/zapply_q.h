/* The back-transformation: Q = Q1 Q2 of a two-stage reduction applied to a
 * block of vectors.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_ZAPPLY_Q_H
#define STARTRD_ZAPPLY_Q_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

#include "apply_q.h"
#include "starpu_include.h"

/**
 * C := Q C (trans 'N') or Q^H C (trans 'C') for the n x m matrix C, Q = Q1 Q2
 * from a reduction with bandwidth kd: Q1 from the reflectors in A (triangle
 * @p uplo, beyond the band) and tau, Q2 from HOUS2 (VECT = 'V' layout):
 * @p hous2, or where @p hous2_on_gpu is given, the handle the reduction
 * left it in on a GPU (startrd_stage2_zhb2st_finish()), which stays
 * registered.
 * Tasks, two per block of columns of C; Q2 as @p method says, in blocks
 * whose V and Y are built in chunks of about @p q2_chunk_bytes (0: the
 * library's choice).  A and C are in the memory of nodes @p a_node and
 * @p c_node: STARPU_MAIN_RAM, or a GPU's (the caller's matrices in GPU
 * memory, which stay there as the home of their handles).  Blocks until
 * done.  @return 0 or a positive startrd_status.
 */
int startrd_zapply_q(char trans, char uplo, int64_t n, int64_t m, int64_t kd, const double complex *A, int64_t lda,
                     int a_node, const double complex *tau, const double complex *hous2,
                     starpu_data_handle_t hous2_on_gpu, double complex *C, int64_t ldc, int c_node,
                     startrd_q2_method_t method, size_t q2_chunk_bytes);

/** Q formed by tasks, until it is multiplied into vectors. */
typedef struct startrd_zq_former startrd_zq_former_t;

/**
 * Submits the tasks that form Q = Q1 Q2 (factors as for startrd_zapply_q(),
 * which must outlive the forming; A in node @p a_node's memory) in blocks of columns, each started as the
 * identity's, and returns without waiting: the caller computes the vectors
 * meanwhile.  On the GPUs where @p workers (one per GPU, @p nworkers) are
 * given, each block on one of them, Q2 blocked; on the CPU workers if
 * @p workers is NULL.  Q lives in the workers' memory.
 *
 * *@p former is left NULL where a GPU cannot hold its blocks of Q, the
 * factors and @p beside_bytes of the caller's own work (SIZE_MAX: more
 * than any GPU holds), or all of Q
 * afterwards, and where a leading dimension doubled would pass an int: the
 * caller then applies Q with startrd_zapply_q().
 * @return 0 or a positive startrd_status (*@p former NULL).
 */
int startrd_zform_q_begin(char uplo, int64_t n, int64_t kd, const double complex *A, int64_t lda, int a_node,
                          const double complex *tau, const double complex *hous2, starpu_data_handle_t hous2_on_gpu,
                          const int *workers, int nworkers, size_t beside_bytes, startrd_zq_former_t **former);

/** Columns per block of Z and R in startrd_zform_q_end()'s products. */
int64_t startrd_zform_q_block_columns(const startrd_zq_former_t *former, int64_t m);

/**
 * R := Q Z for the real n x m matrix Z (m from 0 to n; 0 only ends the
 * forming), R n x m; R may be the array A of startrd_zform_q_begin() for
 * uplo = 'L'.  Z is the host array @p Z (leading dimension ldz), or where
 * @p z_blocks is given, its blocks of startrd_zform_q_block_columns() columns
 * (n rows each, the last narrower), wherever their data is: they stay
 * registered.  R is in node @p r_node's memory (as C for
 * startrd_zapply_q()).  Waits for all tasks and frees @p former.
 * @return 0 or a positive startrd_status (::STARTRD_ERR_SIZE where ldr
 * doubled or ldz passes an int).
 */
int startrd_zform_q_end(startrd_zq_former_t *former, int64_t m, const double *Z, int64_t ldz,
                        const starpu_data_handle_t *z_blocks, double complex *R, int64_t ldr, int r_node);

#endif
