/* Compilation of the reflector kernels.  They run as plain loops over
 * interleaved real and imaginary parts, written so that the compiler
 * vectorises them: reassociating sums (as any BLAS does) lets it vectorise
 * the dot products, and with GCC on x86-64 each kernel is also built for
 * AVX2 and FMA and picked at load time on CPUs that have them.  Include this
 * first, in those files only: the pragma applies to the rest of the file. */
#ifndef STARTRD_ZREFLECT_SIMD_H
#define STARTRD_ZREFLECT_SIMD_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#pragma GCC optimize("O3", "associative-math", "no-signed-zeros", "no-trapping-math")
#define STARTRD_VECTOR_CLONES __attribute__((target_clones("default", "arch=x86-64-v3")))
#else
#define STARTRD_VECTOR_CLONES
#endif

#endif
