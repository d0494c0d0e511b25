#include "kernels_cuda.h"
#include "scalar.cuh"
#include "tile_conversion.h"

/* One thread per element of B; the conversions are the host loop's of
 * codelet_ztile_convert.c, in the same order of cases. */
template <typename T>
__global__ void tile_convert_kernel(int how, int64_t m, int64_t n, const T *A, int64_t lda, T *B, int64_t ldb)
{
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < m;
             i += (int64_t)gridDim.x * blockDim.x) {
            T *b = &B[i + j * ldb];

            switch (how) {
            case STARTRD_TILE_ADJOINT:
                *b = startrd_conj(A[j + i * lda]);
                break;
            case STARTRD_TILE_FROM_LOWER:
                *b = i > j   ? A[i + j * lda]
                     : i < j ? startrd_conj(A[j + i * lda])
                             : startrd_make<T>(startrd_real(A[i + j * lda]));
                break;
            case STARTRD_TILE_FROM_UPPER:
                *b = i < j   ? A[i + j * lda]
                     : i > j ? startrd_conj(A[j + i * lda])
                             : startrd_make<T>(startrd_real(A[i + j * lda]));
                break;
            case STARTRD_TILE_LOWER_PART:
                if (i >= j)
                    *b = A[i + j * lda];
                break;
            case STARTRD_TILE_UPPER_PART:
                if (i <= j)
                    *b = A[i + j * lda];
                break;
            case STARTRD_TILE_ADJOINT_LOWER:
                *b = i > j ? startrd_conj(A[j + i * lda]) : startrd_zero<T>();
                break;
            }
        }
}

enum { THREADS = 256, MAX_BLOCKS_X = 64, MAX_BLOCKS_Y = 65535 };

/* The kernels' grid for an m x n tile: a block row of threads per column
 * (up to MAX_BLOCKS_Y, then strided), each column's rows strided over at
 * most MAX_BLOCKS_X blocks. */
static dim3 tile_grid(int64_t m, int64_t n)
{
    const int64_t bx = (m + THREADS - 1) / THREADS;

    return dim3((unsigned)(bx < MAX_BLOCKS_X ? bx : MAX_BLOCKS_X), (unsigned)(n < MAX_BLOCKS_Y ? n : MAX_BLOCKS_Y));
}

template <typename T>
static cudaError_t tile_convert(int how, int64_t m, int64_t n, const T *A, int64_t lda, T *B, int64_t ldb,
                                cudaStream_t stream)
{
    if (m > 0 && n > 0)
        tile_convert_kernel<T><<<tile_grid(m, n), THREADS, 0, stream>>>(how, m, n, A, lda, B, ldb);
    return cudaGetLastError();
}

/* Any entry of the part that is NaN or Inf sets *flag. */
template <typename T>
__global__ void tile_finite_kernel(char part, int64_t m, int64_t n, const T *A, int64_t lda, int *flag)
{
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < m;
             i += (int64_t)gridDim.x * blockDim.x) {
            const T x = A[i + j * lda];

            if ((part == 'A' || (part == 'L' ? i >= j : i <= j)) &&
                !(isfinite(startrd_real(x)) && isfinite(startrd_imag(x))))
                *flag = 1;
        }
}

template <typename T>
static cudaError_t tile_finite(char part, int64_t m, int64_t n, const T *A, int64_t lda, int *flag,
                               cudaStream_t stream)
{
    if (m > 0 && n > 0)
        tile_finite_kernel<T><<<tile_grid(m, n), THREADS, 0, stream>>>(part, m, n, A, lda, flag);
    return cudaGetLastError();
}

#define TILE_CONVERT(p, T)                                                                                   \
    extern "C" cudaError_t startrd_cuda_##p##tile_convert(int how, int64_t m, int64_t n, const T *A,        \
                                                          int64_t lda, T *B, int64_t ldb, cudaStream_t stream) \
    {                                                                                                        \
        return tile_convert<T>(how, m, n, A, lda, B, ldb, stream);                                           \
    }                                                                                                        \
    extern "C" cudaError_t startrd_cuda_##p##tile_finite(char part, int64_t m, int64_t n, const T *A,       \
                                                         int64_t lda, int *flag, cudaStream_t stream)       \
    {                                                                                                        \
        return tile_finite<T>(part, m, n, A, lda, flag, stream);                                             \
    }
STARTRD_FOR_EACH_PRECISION(TILE_CONVERT)
