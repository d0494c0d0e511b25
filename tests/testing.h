/**
 * @file testing.h
 * @brief Shared helpers for the StarTRD test programs (no StarPU inside).
 *
 * Matrices are complex double, column-major, n-by-n with a leading dimension
 * lda >= max(1, n); every size and offset is int64_t and is narrowed to
 * LAPACK's integer only at the call, after checking that it fits.
 *
 * uplo arguments are 'L' or 'U' (upper case), as in the library's API.
 *
 * Link with -llapacke -ltmglib -lopenblas -lm (tmglib holds zlatms), and
 * with the library's core (libstartrd_core.la), whose StarPU-free bulge plan
 * (bulge_plan.h) tst_zform_q2() follows.
 *
 * Functions returning @c int return 0 on success, TST_ERR_ARG or
 * TST_ERR_NOMEM on their own failures, and otherwise the nonzero value a
 * LAPACKE call returned.  A test turns any nonzero return into a FAIL line.
 *
 * Ratios are NaN whenever a NaN reached their inputs, so that a check of the
 * form `ratio < tolerance` fails on it.
 */
#ifndef STARTRD_TESTS_TESTING_H
#define STARTRD_TESTS_TESTING_H

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

/* The helpers in each precision, generated from testing_z.h. */
#include "testing_s.h"
#include "testing_d.h"
#include "testing_c.h"
#include "testing_z.h"

/** @name Error codes of the helpers (LAPACKE's own codes pass through). */
/** @{ */
#define TST_ERR_ARG   (-2001) /**< a size or character argument is invalid */
#define TST_ERR_NOMEM (-2002) /**< a work array could not be allocated */
/** @} */

/**
 * TST_KIND_UNDERFLOW is TST_KIND_RANDOM times 2^TST_UNDERFLOW_EXP, so its
 * entries' parts lie below DBL_MIN * 2^52 in modulus.  Inputs, norms and
 * eigenvalues are then still normal numbers while the rounding errors reach
 * the subnormal range and any squared entry underflows to 0, which is what
 * an unscaled norm or Householder vector gets wrong.  Measured: LAPACK's
 * zheevd, zhetrd_2stage+dsterf and zhetrd_he2hb+zhbevd stay accurate (test
 * ratios < 1.3) even at 2^-1022, where inputs are subnormal but up to 1.5x
 * slower; -970 keeps inputs normal so the kind is not a subnormal benchmark.
 */
#define TST_UNDERFLOW_EXP (-970)

/**
 * TST_KIND_OVERFLOW is TST_KIND_RANDOM scaled by a power of two so that its
 * Frobenius norm lies in [2^(TST_OVERFLOW_EXP-1), 2^TST_OVERFLOW_EXP); the
 * norm, not the entries, is fixed because what overflows first (eigenvalues,
 * sums of n terms) grows with n.  Measured: LAPACK's zheevd,
 * zhetrd_2stage+dsterf and zhetrd_he2hb+zhbevd stay accurate (ratios < 1.3,
 * n = 2..1000) up to 2^1024, i.e. while the norm itself is representable;
 * 1020 leaves a factor 16 for intermediate sums that other blockings grow.
 */
#define TST_OVERFLOW_EXP (1020)

/** Kinds of test matrices, all Hermitian; see tst_gen(). */
typedef enum tst_kind {
    TST_KIND_RANDOM,       /**< entries uniform in [-1,1]+i[-1,1], real diagonal */
    TST_KIND_ZERO,         /**< all zero */
    TST_KIND_IDENTITY,     /**< identity */
    TST_KIND_DIAGONAL,     /**< random real diagonal, uniform in [-1,1] */
    TST_KIND_TRIDIAGONAL,  /**< random, with complex off-diagonal, already tridiagonal */
    TST_KIND_CLUSTERED,    /**< 90% of eigenvalues in 1 +- 1e-10, the rest in [-1,1] */
    TST_KIND_GEOMETRIC,    /**< zlatms mode 3, cond 1/DBL_EPSILON: |eigenvalues|
                                geometric from 1 to DBL_EPSILON, random signs */
    TST_KIND_ARITHMETIC,   /**< zlatms mode 4, cond 1/DBL_EPSILON: |eigenvalues|
                                arithmetic from 1 to DBL_EPSILON, random signs */
    TST_KIND_UNDERFLOW,    /**< random, scaled down; see TST_UNDERFLOW_EXP */
    TST_KIND_OVERFLOW,     /**< random, scaled up; see TST_OVERFLOW_EXP */
    TST_KIND_COUNT         /**< number of kinds, for loops */
} tst_kind;

/** Relative machine precision as LAPACK's dlamch('E') defines it: 2^-53. */
double tst_eps(void);

/**
 * The larger of a and b, or NaN if either is NaN: fmax() drops a NaN
 * argument, so a maximum or a clamped scale built with it hides a NaN from
 * the `ratio < tolerance` check that follows.
 */
double tst_max_nan(double a, double b);

/**
 * Printable name of a matrix kind ("random", "zero", ...), or "unknown".
 */
const char *tst_kind_name(tst_kind kind);

/**
 * Fills the n-by-n matrix A with a Hermitian matrix of the given kind.
 *
 * Both triangles are written, consistently Hermitian with an exactly real
 * diagonal, so that any uplo may be used afterwards; rows n..lda-1 are not
 * touched.  The same (kind, n, seed) gives the same matrix on every run and
 * every lda; different seeds give unrelated matrices.
 */
int tst_gen(tst_kind kind, int64_t n, double complex *A, int64_t lda,
            uint64_t seed);

/**
 * Fills A with U*diag(w)*U^H for a random unitary U (zlatms mode 0), so the
 * eigenvalues are w up to rounding.  Same writing rules as tst_gen().
 */
int tst_gen_spectrum(int64_t n, const double *w, double complex *A,
                     int64_t lda, uint64_t seed);

/**
 * Fills A with a Hermitian matrix from zlatms (sym 'H') whose eigenvalue
 * moduli follow zlatms' @p mode (1..5 or their negatives) with condition
 * @p cond (>= 1) and largest modulus 1; zlatms gives them random signs.
 * Same writing rules as tst_gen().
 */
int tst_gen_latms(int64_t n, int mode, double cond, double complex *A,
                  int64_t lda, uint64_t seed);

/**
 * Writes @p sentinel, bit for bit, into every entry of the lda-by-n array A
 * that a routine working on the @p uplo triangle of an n-by-n matrix must
 * not write: the other strict triangle and the padding rows n..lda-1.
 * A NaN sentinel also exposes reads of those entries.
 */
void tst_fill_sentinel(char uplo, int64_t n, double complex *A, int64_t lda,
                       double complex sentinel);

/**
 * Counts the entries filled by tst_fill_sentinel() that no longer hold
 * @p sentinel bit for bit (so NaN sentinels compare correctly).
 */
int64_t tst_count_sentinel_changes(char uplo, int64_t n,
                                   const double complex *A, int64_t lda,
                                   double complex sentinel);

/**
 * Eigenvalues, ascending, of the Hermitian matrix whose @p uplo triangle is
 * stored in A (LAPACKE_zheevd on a copy; A is not modified).
 * @param[out] w  n eigenvalues
 */
int tst_eig_hermitian(char uplo, int64_t n, const double complex *A,
                      int64_t lda, double *w);

/**
 * Eigenvalues, ascending, of the real symmetric tridiagonal matrix with
 * diagonal d (n) and off-diagonal e (n-1) (LAPACKE_dsterf on copies).
 * @param[out] w  n eigenvalues
 */
int tst_eig_tridiagonal(int64_t n, const double *d, const double *e,
                        double *w);

/**
 * Eigenvalues, ascending, of the Hermitian matrix whose @p uplo triangle is
 * stored in A by LAPACK's own two-stage reduction: ZHETRD_2STAGE with
 * VECT = 'N' (after its workspace query) on a copy, then DSTERF.  The
 * reference with the same algorithm as the library; A is not modified.
 * @param[out] w  n eigenvalues
 */
int tst_eig_hetrd_2stage(char uplo, int64_t n, const double complex *A,
                         int64_t lda, double *w);

/**
 * Eigenvalues, ascending, of the Hermitian band matrix of bandwidth kd held
 * in the @p uplo triangle of the full-storage array A (as A's band part after
 * stage 1); entries outside the band are ignored.  Uses LAPACKE_zhbevd.
 * @param[out] w  n eigenvalues
 */
int tst_eig_band(char uplo, int64_t n, int64_t kd, const double complex *A,
                 int64_t lda, double *w);

/**
 * max_i |w1[i] - w2[i]| of two ascending lists of n values; NaN if any
 * difference is NaN, 0 for n = 0.
 */
double tst_eig_maxdiff(int64_t n, const double *w1, const double *w2);

/**
 * Test ratio max_i |w1[i] - w2[i]| / (n * eps * max_i max(|w1[i]|, |w2[i]|)),
 * where the denominator's spectrum radius is raised to at least DBL_MIN so
 * that two zero spectra give 0 rather than 0/0.  A correct result is O(1);
 * LAPACK's tests accept below 30.
 */
double tst_eig_ratio(int64_t n, const double *w1, const double *w2);

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
int tst_form_q1(char uplo, int64_t n, int64_t kd, const double complex *A,
                int64_t lda, const double complex *tau, double complex *Q,
                int64_t ldq);

/**
 * Writes into the n-by-n array B the full Hermitian band matrix of bandwidth
 * kd whose @p uplo half is the band part of A: both triangles of the band,
 * real diagonal (the real part of A's, as LAPACK reads it), zero elsewhere.
 */
void tst_extract_band(char uplo, int64_t n, int64_t kd,
                      const double complex *A, int64_t lda, double complex *B,
                      int64_t ldb);

/**
 * ratio = ||A0 - Q*B*Q^H||_F / (n * ||A0||_F * eps), where A0 is the
 * Hermitian matrix stored in the @p uplo triangle of A0 and B is full.
 * A0 and B are first scaled by the same power of two, so the ratio stays
 * meaningful for matrices near overflow or underflow.  ||A0||_F is raised
 * to at least DBL_MIN, so A0 = 0 = B gives 0.  0 for n = 0.
 */
int tst_resid_similarity(char uplo, int64_t n, const double complex *A0,
                         int64_t lda0, const double complex *Q, int64_t ldq,
                         const double complex *B, int64_t ldb, double *ratio);

/**
 * Q = Q1 * Q2 of a two-stage reduction with VECT = 'V' (tst_form_q1 from
 * A/TAU with bandwidth kd, tst_zform_q2 from HOUS2, whose layout check goes
 * to @p layout_ok), n-by-n with leading dimension ldq.
 */
int tst_form_q(char uplo, int64_t n, int64_t kd, const double complex *A,
               int64_t lda, const double complex *tau,
               const double complex *hous2, double complex *Q, int64_t ldq,
               bool *layout_ok);

/** ratio = ||I - Q^H*Q||_F / (n * eps); 0 for n = 0. */
int tst_resid_unitary(int64_t n, const double complex *Q, int64_t ldq,
                      double *ratio);

/**
 * Both stage-1 ratios at once: forms Q1 (tst_form_q1) and B
 * (tst_extract_band) from the stage-1 output A/TAU, then returns
 * tst_resid_similarity() against the input A0 in @p sim and
 * tst_resid_unitary() of Q1 in @p unit.
 */
int tst_stage1_ratios(char uplo, int64_t n, int64_t kd,
                      const double complex *A0, int64_t lda0,
                      const double complex *A, int64_t lda,
                      const double complex *tau, double *sim, double *unit);

/**
 * Both ratios of a whole two-stage reduction with VECT = 'V':
 * Q = Q1 * Q2 (tst_form_q1 from the stage-1 output A/TAU with bandwidth kd,
 * tst_zform_q2 from HOUS2) and T the real tridiagonal (d, e); returns
 * tst_resid_similarity() of A0 against Q*T*Q^H in @p sim, tst_resid_unitary()
 * of Q in @p unit, and tst_zform_q2()'s layout check in @p layout_ok.
 */
int tst_2stage_ratios(char uplo, int64_t n, int64_t kd,
                      const double complex *A0, int64_t lda0,
                      const double complex *A, int64_t lda,
                      const double complex *tau, const double complex *hous2,
                      const double *d, const double *e, double *sim,
                      double *unit, bool *layout_ok);

/**
 * Number of GPUs the tests ask the runtime for, from the environment
 * variable STARTRD_NGPU, in startrd_options_t's ngpu convention: -1 (every
 * visible GPU) when unset or empty, otherwise k >= 0 (0: CPU workers only).
 * A value that is not a count is reported on stderr and read as -1.
 */
int tst_env_ngpu(void);

/** Monotonic wall-clock time in seconds, for differences only. */
double tst_timer(void);

/**
 * Prints one line "PASS <description>" or "FAIL <description>" (printf
 * format) to stdout and counts it.  Returns @p ok.  Not thread-safe.
 */
bool tst_check(bool ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/**
 * Prints the closing line "N passed, M failed" and returns the process exit
 * status: 0 if no check failed, 1 otherwise.
 */
int tst_summary(void);

#endif /* STARTRD_TESTS_TESTING_H */
