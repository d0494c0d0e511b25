/* What the benchmarks share: their random test matrices, their copies, and
 * the clock. */
#ifndef STARTRD_PERF_HERMITIAN_GEN_H
#define STARTRD_PERF_HERMITIAN_GEN_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

/** The element types of the benchmarks' matrices, one per precision (s, d, c, z). */
typedef enum perf_scalar { PERF_FLOAT, PERF_DOUBLE, PERF_FLOAT_COMPLEX, PERF_DOUBLE_COMPLEX } perf_scalar_t;

/** Bytes of one element of type t. */
size_t perf_scalar_size(perf_scalar_t t);

/**
 * Fill both triangles of the n x n matrix a (leading dimension n) with a
 * Hermitian matrix whose entries are uniform in [-1,1] + i[-1,1] (real
 * diagonal), the same for the same seed.  Fast enough for n = 65536: a
 * counter-based generator, one thread per core, and a blocked mirror of the
 * lower triangle.
 */
void perf_hermitian(int64_t n, double complex *a, uint64_t seed);

/**
 * perf_hermitian()'s matrix with elements of type t: in the complex types
 * its entries (rounded to float in PERF_FLOAT_COMPLEX), in the real ones
 * their real parts, a symmetric matrix.  One generator for every
 * precision, so that the precisions of a benchmark see related matrices
 * and no double complex copy (16 n^2 bytes) is needed to make a float one.
 */
void perf_matrix(int64_t n, perf_scalar_t t, void *a, uint64_t seed);

/**
 * Fill both triangles of a with a Hermitian positive definite matrix whose
 * spectrum lies in [lo, hi] (0 < lo < hi): perf_hermitian(n, ., seed)'s
 * matrix H as (lo + hi)/2 I + (hi - lo)/2 H / r, r a bound of H's spectral
 * radius.  Conditioned by construction at perf_hermitian's cost, with no
 * product or factorisation, which would cost more than the eigensolvers it
 * feeds at the largest orders.
 */
void perf_hermitian_definite(int64_t n, double complex *a, uint64_t seed, double lo, double hi);

/**
 * Entry (i, j) of the matrix perf_hermitian(n, a, seed) writes, drawn on
 * its own: a check can regenerate the matrix rather than keep a copy.
 */
double complex perf_hermitian_entry(int64_t n, uint64_t seed, int64_t i, int64_t j);

/**
 * a = src, both n x n with leading dimension n, one thread per core: the
 * benchmarks restore their input before every run, and one core's copy of
 * a 65536 matrix (64 GiB) would take longer than the reduction.
 */
void perf_copy(int64_t n, double complex *a, const double complex *src);

/** perf_copy() of elements of type t. */
void perf_copy_matrix(int64_t n, perf_scalar_t t, void *a, const void *src);

/**
 * The next number of a linear congruential sequence in *state, uniform in
 * [-1, 1): the entries of the random bands and tridiagonals, drawn in the
 * order they are filled.
 */
double perf_uniform(uint64_t *state);

/** Seconds on the monotonic clock. */
double perf_now(void);

#endif
