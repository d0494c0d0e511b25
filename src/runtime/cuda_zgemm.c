/* The typed face of startrd_cuda_gemm_lt().
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "cuda_zgemm.h"

#ifdef STARTRD_USE_CUDA
#include "cuda_gemm.h"

/* Whether the product reads C. */
static int reads_c(const cuDoubleComplex *beta)
{
#ifdef COMPLEX
    return beta->x != 0.0 || beta->y != 0.0;
#else
    return *beta != 0.0;
#endif
}

cublasStatus_t startrd_cuda_zgemm(cublasHandle_t blas, cublasOperation_t transa, cublasOperation_t transb,
                                  int m, int n, int k, const cuDoubleComplex *alpha,
                                  const cuDoubleComplex *a, int lda, const cuDoubleComplex *b, int ldb,
                                  const cuDoubleComplex *beta, cuDoubleComplex *c, int ldc)
{
    int done;
    cublasStatus_t st = startrd_cuda_gemm_lt(blas, CUDA_C_64F, CUBLAS_COMPUTE_64F, transa, transb, m, n, k, alpha, a,
                                             lda, b, ldb, beta, reads_c(beta), c, ldc, &done);

    if (st != CUBLAS_STATUS_SUCCESS || done)
        return st;
    return cublasZgemm(blas, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
#endif
