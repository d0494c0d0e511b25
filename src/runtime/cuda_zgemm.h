/* ZGEMM through cuBLASLt.  cublasZgemm picks a poor kernel for the stage-1
 * update's products: with the matrix's leading dimension, the first
 * algorithm cuBLASLt's heuristic offers runs them faster (m x 1024 x 128
 * NC, m x 64 x 1024 NN, 1024 x 64 x m CN; docs/experiments.md, "Products
 * through cuBLASLt").  A query of that heuristic costs as much as a small
 * product, so each worker keeps the algorithm it found for each shape. */
#ifndef STARTRD_CUDA_ZGEMM_H
#define STARTRD_CUDA_ZGEMM_H

#include "starpu_include.h"

#ifdef STARTRD_USE_CUDA
/** Inside a CUDA codelet: cublasZgemm(@p blas, ...) with host-side alpha
 *  and beta, where @p blas is StarPU's handle of the calling worker or one
 *  of its lanes' (cuda_lanes.h).  Runs on that handle's stream, through
 *  cuBLASLt when its heuristic offers an algorithm for the shape and
 *  alignment, through cublasZgemm otherwise; returns the cuBLAS status. */
cublasStatus_t startrd_cuda_zgemm(cublasHandle_t blas, cublasOperation_t transa, cublasOperation_t transb,
                                  int m, int n, int k, const cuDoubleComplex *alpha,
                                  const cuDoubleComplex *a, int lda, const cuDoubleComplex *b, int ldb,
                                  const cuDoubleComplex *beta, cuDoubleComplex *c, int ldc);
#endif

/** On each CUDA worker: set up startrd_cuda_zgemm() (its workspaces
 *  included) and make cuBLAS load its kernels.  0, or STARTRD_ERR_RUNTIME
 *  (reported).  Nothing without CUDA. */
int startrd_cuda_zgemm_open(void);

/** Free the cuBLASLt handle, workspaces and algorithm cache that
 *  startrd_cuda_zgemm() set up on each CUDA worker (nothing without CUDA). */
void startrd_cuda_zgemm_close(void);

#endif
