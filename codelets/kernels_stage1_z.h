/**
 * @file kernels_stage1_z.h
 * @brief Kernels of stage 1 that are the library's own, or that more than
 *        one codelet calls, in one precision: on the host (cpu/kernel_*.c)
 *        and, in builds with CUDA, through cuBLAS on a worker's stream
 *        (cuda/kernel_*_cublas.c).  The panel factorisation and the other
 *        products call BLAS and LAPACK from their codelets directly.  What
 *        the precisions share (pieces, operands) is in kernels_stage1.h.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_KERNELS_STAGE1_Z_H
#define STARTRD_KERNELS_STAGE1_Z_H

#include <complex.h>
#include <stdint.h>

#include "config.h"
#include "kernels_stage1.h"

#ifdef STARTRD_USE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#endif

/**
 * 0 if every entry of x[0 .. count-1] is finite, NaN otherwise; sums of
 * such results tell the same for many vectors at once.
 */
double startrd_znan_sum(const double complex *x, int64_t count);

/* P = [W V W] from the operands @p o (kernels_stage1.h). */
void startrd_zform_wvw_cpu(const startrd_wvw_operands_t *o);
#ifdef STARTRD_USE_CUDA
/* On the calling worker's stream, with its cuBLAS handle. */
void startrd_zform_wvw_cuda(const startrd_wvw_operands_t *o);
#endif

/* The two-sided update of one piece of block columns by P = [W V W]
 * (codelet_zher2k_columns.c), for codelets that update a block column
 * before their own work: the panel task of step k+1 applies step k's
 * update to its block column first, so that the chain from one panel to
 * the next holds one runtime round trip fewer (codelet_zpanel_qr.c). */

/* C -= W * V[C]^H + V * W[C]^H on the piece @p u, whose first workspace is
 * P: a HER2K on the diagonal block, a GEMM of rank 2nb below it. */
void startrd_zher2k_piece_cpu(const startrd_piece_t *u);

#ifdef STARTRD_USE_CUDA
/* The same on @p h's stream, with one GEMM over the diagonal block too (its
 * diagonal then made real in the complex precisions); 0, or -1 once the
 * failure is reported as @p kernel's. */
int startrd_zher2k_piece_cuda(cublasHandle_t h, const startrd_piece_t *u, const char *kernel);
#endif

#ifdef COMPLEX
/* GEMM updates of a diagonal block leave rounding errors in the imaginary
 * parts of its diagonal, where ZHER2K sets them to zero: a Hermitian band
 * has a real diagonal, and it goes back to the caller.  The w x w block
 * at @p c, leading dimension @p ld.  Complex precisions only (for files
 * that define COMPLEX): a real diagonal is real already. */
static inline void startrd_zreal_diagonal(double complex *c, int64_t ld, int64_t w)
{
    for (int64_t q = 0; q < w; q++)
        c[q * (ld + 1)] = creal(c[q * (ld + 1)]);
}

#ifdef STARTRD_USE_CUDA
/* The same on a GPU: the imaginary half of every (ld + 1)-th entry. */
static inline cudaError_t startrd_cuda_zreal_diagonal(cuDoubleComplex *c, int64_t ld, int64_t w,
                                                      cudaStream_t stream)
{
    const size_t z = sizeof *c;

    return cudaMemset2DAsync((char *)c + z / 2, ((size_t)ld + 1) * z, 0, z / 2, (size_t)w, stream);
}
#endif
#endif

#endif
