#include "kernels_cuda.h"

/* One thread per row of V, one block column of threads per column. */
__global__ void zpanel_v_kernel(int64_t m, const cuDoubleComplex *A, int64_t lda,
                                cuDoubleComplex *V, int64_t ldv, int64_t vrow, int64_t vrows)
{
    int64_t c = blockIdx.y;
    const cuDoubleComplex zero = make_cuDoubleComplex(0.0, 0.0);

    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < vrows;
         r += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = r - vrow;   /* row inside the panel */
        cuDoubleComplex v = zero;

        if (i == c)
            v = make_cuDoubleComplex(1.0, 0.0);
        else if (i > c && i < m)
            v = A[c * lda + i];
        V[c * ldv + r] = v;
    }
}

extern "C" cudaError_t startrd_cuda_zpanel_v(int64_t m, int64_t nb, const cuDoubleComplex *A,
                                             int64_t lda, cuDoubleComplex *V, int64_t ldv,
                                             int64_t vrow, int64_t vrows, cudaStream_t stream)
{
    const int threads = 256;
    int64_t blocks = (vrows + threads - 1) / threads;
    dim3 grid((unsigned)(blocks < 1024 ? (blocks > 0 ? blocks : 1) : 1024), (unsigned)nb);

    zpanel_v_kernel<<<grid, threads, 0, stream>>>(m, A, lda, V, ldv, vrow, vrows);
    return cudaGetLastError();
}
