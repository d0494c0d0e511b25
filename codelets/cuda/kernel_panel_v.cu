#include "kernels_cuda.h"
#include "scalar.cuh"

/* One thread per row of V, one block column of threads per column. */
template <typename T>
__global__ void panel_v_kernel(int64_t m, const T *A, int64_t lda, T *V, int64_t ldv, int64_t vrow, int64_t vrows)
{
    int64_t c = blockIdx.y;

    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < vrows;
         r += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = r - vrow;   /* row inside the panel */
        T v = startrd_zero<T>();

        if (i == c)
            v = startrd_one<T>();
        else if (i > c && i < m)
            v = A[c * lda + i];
        V[c * ldv + r] = v;
    }
}

template <typename T>
static cudaError_t panel_v(int64_t m, int64_t nb, const T *A, int64_t lda, T *V, int64_t ldv, int64_t vrow,
                           int64_t vrows, cudaStream_t stream)
{
    const int threads = 256;
    int64_t blocks = (vrows + threads - 1) / threads;
    dim3 grid((unsigned)(blocks < 1024 ? (blocks > 0 ? blocks : 1) : 1024), (unsigned)nb);

    panel_v_kernel<T><<<grid, threads, 0, stream>>>(m, A, lda, V, ldv, vrow, vrows);
    return cudaGetLastError();
}

#define PANEL_V(p, T)                                                                                              \
    extern "C" cudaError_t startrd_cuda_##p##panel_v(int64_t m, int64_t nb, const T *A, int64_t lda, T *V,        \
                                                     int64_t ldv, int64_t vrow, int64_t vrows, cudaStream_t stream) \
    {                                                                                                              \
        return panel_v<T>(m, nb, A, lda, V, ldv, vrow, vrows, stream);                                             \
    }
STARTRD_FOR_EACH_PRECISION(PANEL_V)
