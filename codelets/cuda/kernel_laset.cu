#include "kernels_cuda.h"
#include "scalar.cuh"

/* Each thread writes elements of one column, the columns spread over the
 * grid's y dimension and, beyond it, walked by the blocks in turn. */
template <typename T>
__global__ void laset_kernel(int64_t m, int64_t cols, int64_t row0, T offdiag, T diag, T *A, int64_t lda)
{
    for (int64_t j = blockIdx.y; j < cols; j += gridDim.y)
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < m; i += (int64_t)gridDim.x * blockDim.x)
            A[i + j * lda] = i == row0 + j ? diag : offdiag;
}

template <typename T>
static cudaError_t laset(int64_t m, int64_t cols, int64_t row0, T offdiag, T diag, T *A, int64_t lda,
                         cudaStream_t stream)
{
    enum { THREADS = 256, MAX_BLOCKS_X = 64, MAX_BLOCKS_Y = 65535 };
    const int64_t bx = (m + THREADS - 1) / THREADS;

    if (m > 0 && cols > 0)
        laset_kernel<T><<<dim3((unsigned)(bx < MAX_BLOCKS_X ? bx : MAX_BLOCKS_X),
                               (unsigned)(cols < MAX_BLOCKS_Y ? cols : MAX_BLOCKS_Y)),
                          THREADS, 0, stream>>>(m, cols, row0, offdiag, diag, A, lda);
    return cudaGetLastError();
}

#define LASET(p, T)                                                                                        \
    extern "C" cudaError_t startrd_cuda_##p##laset(int64_t m, int64_t cols, int64_t row0, T offdiag, T diag, \
                                                   T *A, int64_t lda, cudaStream_t stream)                 \
    {                                                                                                      \
        return laset<T>(m, cols, row0, offdiag, diag, A, lda, stream);                                     \
    }
STARTRD_FOR_EACH_PRECISION(LASET)
