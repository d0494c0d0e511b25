/* Compilation of the reflector kernels.  They run as plain loops over
 * interleaved real and imaginary parts, written so that the compiler
 * vectorises them: reassociating sums (as any BLAS does) lets it vectorise
 * the dot products, and with GCC on x86-64 each kernel is also built for
 * AVX, AVX2, and the x86-64-v3 level (AVX2 with FMA), the best one picked
 * at load time: virtual machines often expose AVX2 without all of v3.  Include this
 * first, in those files only: the pragma applies to the rest of the file. */
#ifndef STARTRD_REFLECT_SIMD_H
#define STARTRD_REFLECT_SIMD_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#pragma GCC optimize("O3", "associative-math", "no-signed-zeros", "no-trapping-math")
#define STARTRD_VECTOR_CLONES __attribute__((target_clones("default", "avx", "avx2", "arch=x86-64-v3")))
#else
#define STARTRD_VECTOR_CLONES
#endif

#endif
