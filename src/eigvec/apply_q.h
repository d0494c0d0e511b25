/* The back-transformation: Q = Q1 Q2 of a two-stage reduction applied to a
 * block of vectors. */
#ifndef STARTRD_APPLY_Q_H
#define STARTRD_APPLY_Q_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

/** How Q2 is applied: as the library sees fit, reflector by reflector on
 * the host, or in blocks of reflectors (q2_blocks.h), on any worker. */
typedef enum startrd_q2_method {
    STARTRD_Q2_AUTO,          /**< in blocks when the runtime has CUDA workers */
    STARTRD_Q2_REFLECTORS,
    STARTRD_Q2_BLOCKS,
} startrd_q2_method_t;

/**
 * C := Q C (trans 'N') or Q^H C (trans 'C') for the n x m matrix C, Q = Q1 Q2
 * from a reduction with bandwidth kd: Q1 from the reflectors in A (triangle
 * @p uplo, beyond the band) and tau, Q2 from HOUS2 (VECT = 'V' layout).
 * Tasks, two per block of columns of C; Q2 as @p method says, in blocks
 * whose V and Y are built in chunks of about @p q2_chunk_bytes (0: the
 * library's choice).  Blocks until done.  @return 0 or a positive
 * startrd_status.
 */
int startrd_apply_q(char trans, char uplo, int64_t n, int64_t m, int64_t kd, const double complex *A, int64_t lda,
                    const double complex *tau, const double complex *hous2, double complex *C, int64_t ldc,
                    startrd_q2_method_t method, size_t q2_chunk_bytes);

#endif
