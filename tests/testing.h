/**
 * @file testing.h
 * @brief Shared helpers for the StarTRD test programs (no StarPU inside).
 *
 * The helpers that take or return matrices, eigenvalues or eps come in every
 * precision: tst_z* on complex double in testing_z.{h,c}, and the s, d and c
 * twins that tools/codegen.py generates from them (real single, real double
 * and complex single; symmetric matrices in the real precisions).  This file
 * holds the precision-free rest and includes the four headers.
 *
 * Matrices are column-major, n-by-n with a leading dimension
 * lda >= max(1, n); every size and offset is int64_t and is narrowed to
 * LAPACK's integer only at the call, after checking that it fits.
 *
 * uplo arguments are 'L' or 'U' (upper case), as in the library's API.
 *
 * Link with -llapacke -ltmglib -lopenblas -lm (tmglib holds the ?latms
 * generators), and with the library's core (libstartrd_core.la), whose
 * StarPU-free bulge plan (bulge_plan.h) tst_zform_q2() follows.
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

/** @name Error codes of the helpers (LAPACKE's own codes pass through). */
/** @{ */
#define TST_ERR_ARG   (-2001) /**< a size or character argument is invalid */
#define TST_ERR_NOMEM (-2002) /**< a work array could not be allocated */
/** @} */

/**
 * TST_KIND_UNDERFLOW is TST_KIND_RANDOM times 2^TST_UNDERFLOW_EXP(min, eps)
 * with min and eps the precision's smallest normal number and epsilon
 * (DBL_MIN and DBL_EPSILON: -970; FLT_MIN and FLT_EPSILON: -103), so its
 * entries' parts lie below min / eps in modulus.  Inputs, norms and
 * eigenvalues are then still normal numbers while the rounding errors reach
 * the subnormal range and any squared entry underflows to 0, which is what
 * an unscaled norm or Householder vector gets wrong.  Measured in complex
 * double: LAPACK's zheevd, zhetrd_2stage+dsterf and zhetrd_he2hb+zhbevd stay
 * accurate (test ratios < 1.3) even at 2^-1022, where inputs are subnormal
 * but up to 1.5x slower; -970 keeps inputs normal so the kind is not a
 * subnormal benchmark.
 */
#define TST_UNDERFLOW_EXP(min, eps) (ilogb(min) - ilogb(eps))

/**
 * TST_KIND_OVERFLOW is TST_KIND_RANDOM scaled by a power of two so that its
 * Frobenius norm lies in [2^(x-1), 2^x), x = TST_OVERFLOW_EXP(max) with max
 * the precision's largest number (DBL_MAX: 1020; FLT_MAX: 124); the norm,
 * not the entries, is fixed because what overflows first (eigenvalues, sums
 * of n terms) grows with n.  Measured in complex double: LAPACK's zheevd,
 * zhetrd_2stage+dsterf and zhetrd_he2hb+zhbevd stay accurate (ratios < 1.3,
 * n = 2..1000) up to 2^1024, i.e. while the norm itself is representable;
 * 1020 leaves a factor 16 for intermediate sums that other blockings grow.
 */
#define TST_OVERFLOW_EXP(max) (ilogb(max) - 3)

/**
 * Kinds of test matrices, all Hermitian (symmetric in the real precisions);
 * see tst_zgen().  eps is the precision's (DBL_EPSILON, FLT_EPSILON).
 */
typedef enum tst_kind {
    TST_KIND_RANDOM,       /**< entries uniform in [-1,1]+i[-1,1] ([-1,1] when
                                real), real diagonal */
    TST_KIND_ZERO,         /**< all zero */
    TST_KIND_IDENTITY,     /**< identity */
    TST_KIND_DIAGONAL,     /**< random real diagonal, uniform in [-1,1] */
    TST_KIND_TRIDIAGONAL,  /**< random, already tridiagonal (complex off-diagonal
                                when complex) */
    TST_KIND_CLUSTERED,    /**< 90% of eigenvalues in 1 +- 1e-10 (all 1 in single
                                precision), the rest in [-1,1] */
    TST_KIND_GEOMETRIC,    /**< ?latms mode 3, cond 1/eps: |eigenvalues|
                                geometric from 1 to eps, random signs */
    TST_KIND_ARITHMETIC,   /**< ?latms mode 4, cond 1/eps: |eigenvalues|
                                arithmetic from 1 to eps, random signs */
    TST_KIND_UNDERFLOW,    /**< random, scaled down; see TST_UNDERFLOW_EXP */
    TST_KIND_OVERFLOW,     /**< random, scaled up; see TST_OVERFLOW_EXP */
    TST_KIND_COUNT         /**< number of kinds, for loops */
} tst_kind;

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

/* The helpers in each precision, generated from testing_z.h. */
#include "testing_s.h"
#include "testing_d.h"
#include "testing_c.h"
#include "testing_z.h"

#endif /* STARTRD_TESTS_TESTING_H */
