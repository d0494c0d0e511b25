/* ZGEMM through cuBLASLt where its heuristic offers an algorithm
 * (cuda_gemm.h says why), through cublasZgemm otherwise.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_CUDA_ZGEMM_H
#define STARTRD_CUDA_ZGEMM_H

#include "starpu_include.h"

#ifdef STARTRD_USE_CUDA
/** Inside a CUDA codelet: cublasZgemm(@p blas, ...) with host-side alpha
 *  and beta, where @p blas is StarPU's handle of the calling worker or one
 *  of its lanes' (cuda_lanes.h), on that handle's stream; returns the
 *  cuBLAS status. */
cublasStatus_t startrd_cuda_zgemm(cublasHandle_t blas, cublasOperation_t transa, cublasOperation_t transb,
                                  int m, int n, int k, const cuDoubleComplex *alpha,
                                  const cuDoubleComplex *a, int lda, const cuDoubleComplex *b, int ldb,
                                  const cuDoubleComplex *beta, cuDoubleComplex *c, int ldc);
#endif

#endif
