/* The column moves and rotations of a divide-and-conquer merge whose
 * vectors stay on the GPU. */
#include "kernels_cuda.h"

enum { THREADS = 256, MAX_BLOCKS_X = 64, MAX_BLOCKS_Y = 65535 };

/* Each block's y index walks the moves, its threads the move's elements. */
template <typename T>
__global__ void copy_moves_kernel(int64_t count, const startrd_move_t *moves, const startrd_move_lds_t lds,
                                  const T *src, T *dst)
{
    for (int64_t t = blockIdx.y; t < count; t += gridDim.y) {
        const startrd_move_t mv = moves[t];
        const T *from = src + startrd_move_offset(mv.src, lds.src_listed, lds.src);
        T *to = dst + startrd_move_offset(mv.dst, lds.dst_listed, lds.dst);

        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < mv.len;
             i += (int64_t)gridDim.x * blockDim.x)
            to[i] = from[i];
    }
}

/* One thread per row applies every rotation in order: rotations sharing a
 * column follow each other, rows do not meet.  R is the real type of Q and
 * of the rotations. */
template <typename R>
__global__ void rot_columns_kernel(int64_t rows, int64_t count, const typename startrd_merge_real<R>::rotation *rot,
                                   R *Q, int64_t ldq)
{
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;

    if (i >= rows)
        return;
    for (int64_t t = 0; t < count; t++) {
        R *x = Q + i + rot[t].p * ldq, *y = Q + i + rot[t].c * ldq;
        const R a = *x, b = *y;

        *x = rot[t].cs * a + rot[t].sn * b;
        *y = rot[t].cs * b - rot[t].sn * a;
    }
}

template <typename T>
static cudaError_t copy_moves(int64_t count, int64_t longest, const startrd_move_t *moves,
                              const startrd_move_lds_t &lds, const T *src, T *dst, cudaStream_t stream)
{
    const int64_t bx = (longest + THREADS - 1) / THREADS;

    if (count > 0 && longest > 0)
        copy_moves_kernel<T><<<dim3((unsigned)(bx < MAX_BLOCKS_X ? bx : MAX_BLOCKS_X),
                                    (unsigned)(count < MAX_BLOCKS_Y ? count : MAX_BLOCKS_Y)),
                               THREADS, 0, stream>>>(count, moves, lds, src, dst);
    return cudaGetLastError();
}

template <typename R>
static cudaError_t rot_columns(int64_t rows, int64_t count, const typename startrd_merge_real<R>::rotation *rot,
                               R *Q, int64_t ldq, cudaStream_t stream)
{
    if (rows > 0 && count > 0)
        rot_columns_kernel<R><<<(unsigned)((rows + THREADS - 1) / THREADS), THREADS, 0, stream>>>(rows, count, rot, Q,
                                                                                                ldq);
    return cudaGetLastError();
}

#define MERGE_MOVES(p, R)                                                                                        \
    extern "C" cudaError_t startrd_cuda_##p##copy_moves(int64_t count, int64_t longest, const startrd_move_t *moves, \
                                                        startrd_move_lds_t lds, const R *src, R *dst,              \
                                                        cudaStream_t stream)                                       \
    {                                                                                                              \
        return copy_moves<R>(count, longest, moves, lds, src, dst, stream);                                        \
    }                                                                                                              \
    extern "C" cudaError_t startrd_cuda_##p##rot_columns(int64_t rows, int64_t count,                              \
                                                         const startrd_##p##rotation_t *rot, R *Q, int64_t ldq,    \
                                                         cudaStream_t stream)                                      \
    {                                                                                                              \
        return rot_columns<R>(rows, count, rot, Q, ldq, stream);                                                   \
    }
STARTRD_MERGE_FOR_EACH_REAL(MERGE_MOVES)
