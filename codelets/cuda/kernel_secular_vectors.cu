/* The eigenvectors of a merge's rank-one update from its secular
 * equations' roots, S's columns formed where the merge's products run.  R
 * is the real type of the merge (merge_moves.h). */
#include "kernels_cuda.h"
#include "warp_reduce.cuh"

enum { THREADS = 256, WARPS = THREADS / 32 };

/* Root j's distance from pole p, dlamda_p - lambda_j, counted from the
 * root's own pole so that it keeps DLAED4's accuracy next to it. */
template <typename R>
__device__ inline R distance(const typename startrd_merge_real<R>::secular_entry *e, int64_t p, R pole, R delta)
{
    return (e[p].dlamda - pole) + delta;
}

/* Component p of root j's vector before normalising: weight_p over its
 * distance from pole p. */
template <typename R>
__device__ inline R component(const typename startrd_merge_real<R>::secular_entry *e, const R *weight, int64_t p,
                              R pole, R delta)
{
    return weight[p] / distance<R>(e, p, pole, delta);
}

/* DLAED3's weights recomputed from the roots (Gu and Eisenstat), which
 * make the vectors orthogonal: row i's product in DLAED3's order, root
 * after root, then its square root with the sign of the deflation's
 * weight.  One thread per row; every thread reads the same root at once. */
template <typename R>
__global__ void secular_weights_kernel(int64_t k, const typename startrd_merge_real<R>::secular_entry *e, R *weight)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < k; i += (int64_t)gridDim.x * blockDim.x) {
        const R dlamda = e[i].dlamda;
        R w = distance<R>(e, i, e[e[i].origin].dlamda, e[i].delta);

        for (int64_t j = 0; j < k; j++)
            if (j != i)
                w *= distance<R>(e, i, e[e[j].origin].dlamda, e[j].delta) / (dlamda - e[j].dlamda);
        weight[i] = copysign(sqrt(-w), e[i].w);
    }
}

/* Every lane of the block gets the block's reduction of v. */
template <bool MAX, typename R>
__device__ R block_reduce(R v, R *shared)
{
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    v = MAX ? startrd_warp_max(v) : startrd_warp_sum(v);
    __syncthreads();
    if (lane == 0)
        shared[warp] = v;
    __syncthreads();
    v = lane < WARPS ? shared[lane] : R(0);   /* |t| >= 0: 0 is neutral for both */
    v = MAX ? startrd_warp_max(v) : startrd_warp_sum(v);
    return MAX ? v : __shfl_sync(0xffffffffu, v, 0);
}

/* One block per column j: its norm scaled by its largest component, as
 * DNRM2 keeps clear of overflow, then the column in S's row order. */
template <typename R>
__global__ void secular_vectors_kernel(int64_t k, const typename startrd_merge_real<R>::secular_entry *e,
                                       const R *weight, R *S, int64_t lds)
{
    __shared__ R shared[WARPS];

    for (int64_t j = blockIdx.x; j < k; j += gridDim.x) {
        const R pole = e[e[j].origin].dlamda, delta = e[j].delta;
        R largest = 0, sum = 0;

        for (int64_t p = threadIdx.x; p < k; p += THREADS)
            largest = fmax(largest, fabs(component<R>(e, weight, p, pole, delta)));
        largest = block_reduce<true>(largest, shared);
        for (int64_t p = threadIdx.x; p < k; p += THREADS) {
            const R t = component<R>(e, weight, p, pole, delta) / largest;

            sum += t * t;
        }
        sum = block_reduce<false>(sum, shared);
        for (int64_t i = threadIdx.x; i < k; i += THREADS)
            S[i + j * lds] = component<R>(e, weight, e[i].source, pole, delta) / (largest * sqrt(sum));
    }
}

template <typename R>
static cudaError_t secular_vectors(int64_t k, const typename startrd_merge_real<R>::secular_entry *entries, R *weight,
                                   R *S, int64_t lds, cudaStream_t stream)
{
    enum { MAX_BLOCKS = 65535 };
    const int64_t weight_blocks = (k + THREADS - 1) / THREADS;

    if (k > 0) {
        secular_weights_kernel<R><<<(unsigned)weight_blocks, THREADS, 0, stream>>>(k, entries, weight);
        secular_vectors_kernel<R><<<(unsigned)(k < MAX_BLOCKS ? k : MAX_BLOCKS), THREADS, 0, stream>>>(
            k, entries, weight, S, lds);
    }
    return cudaGetLastError();
}

#define SECULAR_VECTORS(p, R)                                                                                       \
    extern "C" cudaError_t startrd_cuda_##p##secular_vectors(int64_t k, const startrd_##p##secular_entry_t *entries, \
                                                             R *weight, R *S, int64_t lds, cudaStream_t stream)     \
    {                                                                                                               \
        return secular_vectors<R>(k, entries, weight, S, lds, stream);                                              \
    }
STARTRD_MERGE_FOR_EACH_REAL(SECULAR_VECTORS)
