/* Stage 1's block columns between the library's lower-storage copy and a
 * caller's matrix held in GPU memory: the device counterpart of the host
 * loops of codelet_zcopy_column.c (fill_column(), store_column()), with
 * the same cases in the same order.  The caller's part of a block column
 * is given as rectangles of the caller's matrix on the kernel's GPU (the
 * matrix itself or a copy of those rectangles): R1, the column from its
 * diagonal down (for uplo 'U' the block row from the diagonal right), and,
 * for a column kept with both triangles, R2, the rows above it (for 'U'
 * the block column above the diagonal). */
#include "kernels_cuda.h"
#include "scalar.cuh"

template <typename T>
__device__ inline bool finite_entry(T x)
{
    return isfinite(startrd_real(x)) && isfinite(startrd_imag(x));
}

/* Entry (i, q) of the column handle, whose row crow is the diagonal
 * tile's first (col0 with both triangles, else 0). */
template <typename T>
__device__ T column_entry(char uplo, int both, int64_t i, int64_t q, int64_t crow, int64_t rows, int64_t cols,
                          const T *r1, int64_t ld1, const T *r2, int64_t ld2, int *nonfinite)
{
    const int64_t r = i - crow;

    if (q >= cols)
        return startrd_zero<T>();
    if (r < 0)
        return uplo == 'L' ? startrd_conj(r2[q + i * ld2]) : r2[i + q * ld2];
    if (r < q) {
        if (!both)
            return startrd_zero<T>();
        return uplo == 'L' ? startrd_conj(r1[q + r * ld1]) : r1[r + q * ld1];
    }
    if (r >= rows)
        return startrd_zero<T>();
    T x = uplo == 'L' ? r1[r + q * ld1] : startrd_conj(r1[q + r * ld1]);

    if (nonfinite != NULL && !finite_entry(x))
        *nonfinite = 1;
    return x;
}

template <typename T>
__global__ void column_from_user_kernel(char uplo, int both, int64_t height, int64_t width, int64_t crow,
                                        int64_t rows, int64_t cols, const T *r1, int64_t ld1, const T *r2,
                                        int64_t ld2, T *column, int64_t ldc, int *nonfinite)
{
    for (int64_t q = blockIdx.y; q < width; q += gridDim.y)
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < height;
             i += (int64_t)gridDim.x * blockDim.x)
            column[i + q * ldc] = column_entry(uplo, both, i, q, crow, rows, cols, r1, ld1, r2, ld2, nonfinite);
}

/* Only the referenced triangle of the caller's matrix is written: column
 * q's entries from its diagonal down (for 'U', row q's from the diagonal
 * right, conjugated). */
template <typename T>
__global__ void column_to_user_kernel(char uplo, int64_t rows, int64_t cols, const T *diag, int64_t ldc, T *r1,
                                      int64_t ld1)
{
    for (int64_t q = blockIdx.y; q < cols; q += gridDim.y)
        for (int64_t r = q + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < rows;
             r += (int64_t)gridDim.x * blockDim.x) {
            const T x = diag[r + q * ldc];

            if (uplo == 'L')
                r1[r + q * ld1] = x;
            else
                r1[q + r * ld1] = startrd_conj(x);
        }
}

enum { THREADS = 256, MAX_BLOCKS_X = 128, MAX_BLOCKS_Y = 65535 };

static dim3 grid(int64_t height, int64_t width)
{
    const int64_t bx = (height + THREADS - 1) / THREADS;

    return dim3((unsigned)(bx < MAX_BLOCKS_X ? bx : MAX_BLOCKS_X),
                (unsigned)(width < MAX_BLOCKS_Y ? width : MAX_BLOCKS_Y));
}

template <typename T>
static cudaError_t column_from_user(char uplo, int both, int64_t n, int64_t col0, int64_t height, int64_t width,
                                   const T *r1, int64_t ld1, const T *r2, int64_t ld2, T *column, int64_t ldc,
                                   int *nonfinite, cudaStream_t stream)
{
    const int64_t rows = n - col0, cols = rows < width ? rows : width;

    if (height > 0 && width > 0)
        column_from_user_kernel<T><<<grid(height, width), THREADS, 0, stream>>>(
            uplo, both, height, width, both ? col0 : 0, rows, cols, r1, ld1, r2, ld2, column, ldc, nonfinite);
    return cudaGetLastError();
}

template <typename T>
static cudaError_t column_to_user(char uplo, int64_t n, int64_t col0, int64_t width, const T *diag, int64_t ldc,
                                 T *r1, int64_t ld1, cudaStream_t stream)
{
    const int64_t rows = n - col0, cols = rows < width ? rows : width;

    if (rows > 0 && cols > 0)
        column_to_user_kernel<T><<<grid(rows, cols), THREADS, 0, stream>>>(uplo, rows, cols, diag, ldc, r1, ld1);
    return cudaGetLastError();
}

#define USER_COLUMN(p, T)                                                                                         \
    extern "C" cudaError_t startrd_cuda_##p##column_from_user(                                                    \
        char uplo, int both, int64_t n, int64_t col0, int64_t height, int64_t width, const T *r1, int64_t ld1,     \
        const T *r2, int64_t ld2, T *column, int64_t ldc, int *nonfinite, cudaStream_t stream)                    \
    {                                                                                                             \
        return column_from_user<T>(uplo, both, n, col0, height, width, r1, ld1, r2, ld2, column, ldc, nonfinite,  \
                                   stream);                                                                       \
    }                                                                                                             \
    extern "C" cudaError_t startrd_cuda_##p##column_to_user(char uplo, int64_t n, int64_t col0, int64_t width,    \
                                                            const T *diag, int64_t ldc, T *r1, int64_t ld1,       \
                                                            cudaStream_t stream)                                  \
    {                                                                                                             \
        return column_to_user<T>(uplo, n, col0, width, diag, ldc, r1, ld1, stream);                               \
    }
STARTRD_FOR_EACH_PRECISION(USER_COLUMN)
