/**
 * @file testing_z.h
 * @brief The test helpers that depend on the precision (see testing.h for
 *        the conventions; included from there, after tst_kind).
 *
 * In the real precisions the matrices are symmetric rather than Hermitian,
 * orthogonal rather than unitary, and the reference routines the symmetric
 * ones of LAPACK (the names say so: tst_deig_symmetric calls dsyevd).  The
 * helpers on the real type (eigenvalues, tridiagonals, eps) exist in every
 * precision, those of c taking the same float arrays as those of s.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_TESTS_TESTING_Z_H
#define STARTRD_TESTS_TESTING_Z_H

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

/** Relative machine precision as LAPACK's dlamch('E') defines it. */
double tst_zeps(void);

/** Largest |real| or |imaginary| part of an m-by-n block; NaN if any is. */
double tst_zmax_component(int64_t m, int64_t n, const double complex *A, int64_t lda);

/**
 * Frobenius norm of the m-by-n block A, scaled by its largest component so
 * that matrices near overflow or underflow keep it; NaN if A holds one.
 */
double tst_zfrobenius(int64_t m, int64_t n, const double complex *A,
                      int64_t lda);

/**
 * Fills the n-by-n matrix A with a Hermitian matrix of the given kind.
 *
 * Both triangles are written, consistently Hermitian with an exactly real
 * diagonal, so that any uplo may be used afterwards; rows n..lda-1 are not
 * touched.  The same (kind, n, seed) gives the same matrix on every run and
 * every lda; different seeds give unrelated matrices.
 */
int tst_zgen(tst_kind kind, int64_t n, double complex *A, int64_t lda,
             uint64_t seed);

/**
 * Fills A with U*diag(w)*U^H for a random unitary U (zlatms mode 0), so the
 * eigenvalues are w up to rounding.  Same writing rules as tst_zgen().
 */
int tst_zgen_spectrum(int64_t n, const double *w, double complex *A,
                      int64_t lda, uint64_t seed);

/**
 * Fills A with a Hermitian matrix from zlatms whose eigenvalue moduli follow
 * zlatms' @p mode (1..5 or their negatives) with condition @p cond (>= 1)
 * and largest modulus 1; zlatms gives them random signs.  Same writing rules
 * as tst_zgen().
 */
int tst_zgen_latms(int64_t n, int mode, double cond, double complex *A,
                   int64_t lda, uint64_t seed);

/**
 * Writes @p sentinel, bit for bit, into every entry of the lda-by-n array A
 * that a routine working on the @p uplo triangle of an n-by-n matrix must
 * not write: the other strict triangle and the padding rows n..lda-1.
 * A NaN sentinel also exposes reads of those entries.
 */
void tst_zfill_sentinel(char uplo, int64_t n, double complex *A, int64_t lda,
                        double complex sentinel);

/**
 * Counts the entries filled by tst_zfill_sentinel() that no longer hold
 * @p sentinel bit for bit (so NaN sentinels compare correctly).
 */
int64_t tst_zcount_sentinel_changes(char uplo, int64_t n,
                                    const double complex *A, int64_t lda,
                                    double complex sentinel);

/**
 * Eigenvalues, ascending, of the Hermitian matrix whose @p uplo triangle is
 * stored in A (LAPACKE_zheevd on a copy; A is not modified).
 * @param[out] w  n eigenvalues
 */
int tst_zeig_hermitian(char uplo, int64_t n, const double complex *A,
                       int64_t lda, double *w);

/**
 * Eigenvalues, ascending, of the real symmetric tridiagonal matrix with
 * diagonal d (n) and off-diagonal e (n-1) (LAPACKE_dsterf on copies).
 * @param[out] w  n eigenvalues
 */
int tst_zeig_tridiagonal(int64_t n, const double *d, const double *e,
                         double *w);

/**
 * Eigenvalues, ascending, of the Hermitian matrix whose @p uplo triangle is
 * stored in A by LAPACK's own two-stage reduction: ZHETRD_2STAGE with
 * VECT = 'N' (after its workspace query) on a copy, then DSTERF.  The
 * reference with the same algorithm as the library; A is not modified.
 * @param[out] w  n eigenvalues
 */
int tst_zeig_hetrd_2stage(char uplo, int64_t n, const double complex *A,
                          int64_t lda, double *w);

/**
 * Eigenvalues, ascending, of the Hermitian band matrix of bandwidth kd held
 * in the @p uplo triangle of the full-storage array A (as A's band part after
 * stage 1); entries outside the band are ignored.  Uses LAPACKE_zhbevd.
 * @param[out] w  n eigenvalues
 */
int tst_zeig_band(char uplo, int64_t n, int64_t kd, const double complex *A,
                  int64_t lda, double *w);

/**
 * max_i |w1[i] - w2[i]| of two ascending lists of n values; NaN if any
 * difference is NaN, 0 for n = 0.
 */
double tst_zeig_maxdiff(int64_t n, const double *w1, const double *w2);

/**
 * Test ratio max_i |w1[i] - w2[i]| / (n * eps * max_i max(|w1[i]|, |w2[i]|)),
 * where the denominator's spectrum radius is raised to at least DBL_MIN so
 * that two zero spectra give 0 rather than 0/0.  A correct result is O(1);
 * LAPACK's tests accept below 30.
 */
double tst_zeig_ratio(int64_t n, const double *w1, const double *w2);

/**
 * Builds the n-by-n unitary Q1 of stage 1 from the reflectors that
 * ZHETRD_HE2HB leaves in A beyond the band of width kd (>= 1) and in TAU
 * (n-kd factors, none when kd >= n), such that A0 = Q1 * B * Q1^H.
 *
 * Q1 = H(1) H(2) ... H(n-kd), H(j) = I - tau(j) v(j) v(j)^H with
 * v(j) = 0 above row j+kd, v(j)(j+kd) = 1 (1-based), and below:
 *  - uplo 'L': v(j)(j+kd+1:n) = A(j+kd+1:n, j);
 *  - uplo 'U': v(j)(j+kd+1:n) = conj(A(j, j+kd+1:n)).
 * ZHETRD_HE2HB returns early when n <= kd+1 and leaves TAU unset there;
 * callers that emulate it must zero TAU for n = kd+1 to get Q1 = I.
 */
int tst_zform_q1(char uplo, int64_t n, int64_t kd, const double complex *A,
                 int64_t lda, const double complex *tau, double complex *Q,
                 int64_t ldq);

/**
 * Builds the n-by-n unitary Q2 of stage 2 from the reflectors that the bulge
 * chasing of a band of bandwidth kd keeps in HOUS2 with VECT = 'V' (layout in
 * src/plans/bulge_plan.h: [TAU2 (R entries) | V2 (kd x R, ld = kd)]), as
 *
 *     Q2 = H(0,0) H(0,1) ... H(1,0) ... H(nsweeps-1, last),
 *
 * the product in generation order of H(s,j) = I - tau v v^H, so that the
 * band B = Q2 * T * Q2^H with T the tridiagonal (d, e).  kd is the bandwidth
 * the reduction used (for the library's entry point: startrd_last_stats()).
 *
 * @param[out] layout_ok  if not NULL, whether HOUS2 is laid out as
 *     documented: the plan numbers reflectors in generation order with TAU2
 *     and V2 at the documented offsets, and every v has v[0] = 1 and zeros
 *     past its length.  The zeros hold only when HOUS2 was zeroed before the
 *     chase, as zhetrd_2stage_mgpu() does (the kernels write only each
 *     reflector's own entries).
 */
int tst_zform_q2(int64_t n, int64_t kd, const double complex *hous2,
                 double complex *Q, int64_t ldq, bool *layout_ok);

/**
 * Writes into the n-by-n array B the full Hermitian band matrix of bandwidth
 * kd whose @p uplo half is the band part of A: both triangles of the band,
 * real diagonal (the real part of A's, as LAPACK reads it), zero elsewhere.
 */
void tst_zextract_band(char uplo, int64_t n, int64_t kd,
                       const double complex *A, int64_t lda, double complex *B,
                       int64_t ldb);

/**
 * ratio = ||A0 - Q*B*Q^H||_F / (n * ||A0||_F * eps), where A0 is the
 * Hermitian matrix stored in the @p uplo triangle of A0 and B is full.
 * A0 and B are first scaled by the same power of two, so the ratio stays
 * meaningful for matrices near overflow or underflow.  ||A0||_F is raised
 * to at least DBL_MIN, so A0 = 0 = B gives 0.  0 for n = 0.
 */
int tst_zresid_similarity(char uplo, int64_t n, const double complex *A0,
                          int64_t lda0, const double complex *Q, int64_t ldq,
                          const double complex *B, int64_t ldb, double *ratio);

/**
 * Q = Q1 * Q2 of a two-stage reduction with VECT = 'V' (tst_zform_q1 from
 * A/TAU with bandwidth kd, tst_zform_q2 from HOUS2, whose layout check goes
 * to @p layout_ok), n-by-n with leading dimension ldq.
 */
int tst_zform_q(char uplo, int64_t n, int64_t kd, const double complex *A,
                int64_t lda, const double complex *tau,
                const double complex *hous2, double complex *Q, int64_t ldq,
                bool *layout_ok);

/**
 * The ratios of m eigenpairs (w, the n x m Z) of the Hermitian matrix in
 * the @p uplo triangle of A0: resid = ||A0 Z - Z diag(w)||_F / (n ||A0||_F
 * eps) and orth = ||I - Z^H Z||_F / (n eps); both NaN when scratch cannot
 * be allocated.  A correct result is O(1); the tests accept below 30.
 */
void tst_zeigvec_ratios(char uplo, int64_t n, int64_t m, const double complex *A0, int64_t lda,
                        const double complex *Z, int64_t ldz, const double *w, double *resid, double *orth);

/** ratio = ||I - Q^H*Q||_F / (n * eps); 0 for n = 0. */
int tst_zresid_unitary(int64_t n, const double complex *Q, int64_t ldq,
                       double *ratio);

/**
 * Both stage-1 ratios at once: forms Q1 (tst_zform_q1) and B
 * (tst_zextract_band) from the stage-1 output A/TAU, then returns
 * tst_zresid_similarity() against the input A0 in @p sim and
 * tst_zresid_unitary() of Q1 in @p unit.
 */
int tst_zstage1_ratios(char uplo, int64_t n, int64_t kd,
                       const double complex *A0, int64_t lda0,
                       const double complex *A, int64_t lda,
                       const double complex *tau, double *sim, double *unit);

/**
 * Both ratios of a whole two-stage reduction with VECT = 'V':
 * Q = Q1 * Q2 (tst_zform_q1 from the stage-1 output A/TAU with bandwidth kd,
 * tst_zform_q2 from HOUS2) and T the real tridiagonal (d, e); returns
 * tst_zresid_similarity() of A0 against Q*T*Q^H in @p sim,
 * tst_zresid_unitary() of Q in @p unit, and tst_zform_q2()'s layout check in
 * @p layout_ok.
 */
int tst_z2stage_ratios(char uplo, int64_t n, int64_t kd,
                       const double complex *A0, int64_t lda0,
                       const double complex *A, int64_t lda,
                       const double complex *tau, const double complex *hous2,
                       const double *d, const double *e, double *sim,
                       double *unit, bool *layout_ok);

#endif
