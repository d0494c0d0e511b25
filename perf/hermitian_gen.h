/* The random Hermitian test matrices of the benchmarks. */
#ifndef STARTRD_PERF_HERMITIAN_GEN_H
#define STARTRD_PERF_HERMITIAN_GEN_H

#include <complex.h>
#include <stdint.h>

/**
 * Fill both triangles of the n x n matrix a (leading dimension n) with a
 * Hermitian matrix whose entries are uniform in [-1,1] + i[-1,1] (real
 * diagonal), the same for the same seed.  Fast enough for n = 65536: a
 * counter-based generator, one thread per core, and a blocked mirror of the
 * lower triangle.
 */
void perf_hermitian(int64_t n, double complex *a, uint64_t seed);

#endif
