/* GEMM through cuBLASLt, for every precision.  cuBLAS's own GEMM picks a
 * poor kernel for the stage-1 update's products: with the matrix's leading
 * dimension, the first algorithm cuBLASLt's heuristic offers runs them
 * faster (m x 1024 x 128 NC, m x 64 x 1024 NN, 1024 x 64 x m CN;
 * docs/experiments.md, "Products through cuBLASLt"; measured in complex
 * double, which the other precisions follow).  A query of that heuristic
 * costs as much as a small product, so each worker keeps the algorithm it
 * found for each shape and precision.  The typed entry points are
 * startrd_cuda_zgemm() and its twins (cuda_zgemm.h). */
#ifndef STARTRD_CUDA_GEMM_H
#define STARTRD_CUDA_GEMM_H

#include "starpu_include.h"

#ifdef STARTRD_USE_CUDA
#include <cublasLt.h>

/** Inside a CUDA codelet: C = alpha op(A) op(B) + beta C through cuBLASLt
 *  on the stream of @p blas (StarPU's handle of the calling worker or one
 *  of its lanes', cuda_lanes.h), for data of @p type computed in
 *  @p compute, with host-side alpha and beta; @p reads_c says whether beta
 *  is not zero.  Sets *done where it queued the product; where it did not
 *  (an empty product, beta = 0, or no algorithm for the shape and
 *  alignment) the caller runs cuBLAS's own GEMM.  Returns the cuBLAS
 *  status. */
cublasStatus_t startrd_cuda_gemm_lt(cublasHandle_t blas, cudaDataType_t type, cublasComputeType_t compute,
                                    cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                                    const void *alpha, const void *a, int lda, const void *b, int ldb,
                                    const void *beta, int reads_c, void *c, int ldc, int *done);
#endif

/** On each CUDA worker: set up startrd_cuda_gemm_lt() (its workspaces
 *  included) and make cuBLAS load its kernels.  0, or STARTRD_ERR_RUNTIME
 *  (reported).  Nothing without CUDA. */
int startrd_cuda_gemm_open(void);

/** Free the cuBLASLt handle, workspaces and algorithm cache that
 *  startrd_cuda_gemm_lt() set up on each CUDA worker (nothing without CUDA). */
void startrd_cuda_gemm_close(void);

#endif
