#include "kernels_cuda.h"

/* One thread per entry of the n x n block; n is at most a tile width. */
__global__ void zero_upper_kernel(int64_t n, cuDoubleComplex *A, int64_t lda)
{
    int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, c = blockIdx.y;

    if (r < c && c < n)
        A[c * lda + r] = make_cuDoubleComplex(0.0, 0.0);
}

extern "C" cudaError_t startrd_cuda_zero_upper(int64_t n, cuDoubleComplex *A, int64_t lda, cudaStream_t stream)
{
    const int threads = 128;

    if (n < 2)
        return cudaSuccess;
    dim3 grid((unsigned)((n + threads - 1) / threads), (unsigned)n);
    zero_upper_kernel<<<grid, threads, 0, stream>>>(n, A, lda);
    return cudaGetLastError();
}
