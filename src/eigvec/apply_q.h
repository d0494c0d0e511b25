/* The back-transformation: Q = Q1 Q2 of a two-stage reduction applied to a
 * block of vectors. */
#ifndef STARTRD_APPLY_Q_H
#define STARTRD_APPLY_Q_H

#include <complex.h>
#include <stdint.h>

/**
 * C := Q C (trans 'N') or Q^H C (trans 'C') for the n x m matrix C, Q = Q1 Q2
 * from a reduction with bandwidth kd: Q1 from the reflectors in A (triangle
 * @p uplo, beyond the band) and tau, Q2 from HOUS2 (VECT = 'V' layout).
 * Tasks on the CPU workers, one per block of columns of C.  Blocks until
 * done.  @return 0 or a positive startrd_status.
 */
int startrd_apply_q(char trans, char uplo, int64_t n, int64_t m, int64_t kd, const double complex *A, int64_t lda,
                    const double complex *tau, const double complex *hous2, double complex *C, int64_t ldc);

#endif
