/* The eigenvectors of a merge's rank-one update from its secular
 * equations' roots, S's columns formed where the merge's products run. */
#include "kernels_cuda.h"
#include "warp_reduce.cuh"

enum { THREADS = 256, WARPS = THREADS / 32 };

/* Component p of root j's vector before normalising: w_p / (dlamda_p -
 * lambda_j), the distance counted from the root's own pole so that it
 * keeps DLAED4's accuracy next to it. */
__device__ inline double component(const startrd_secular_entry_t *e, int64_t p, double pole, double delta)
{
    return e[p].w / ((e[p].dlamda - pole) + delta);
}

/* Every lane of the block gets the block's reduction of v. */
template <bool MAX>
__device__ double block_reduce(double v, double *shared)
{
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    v = MAX ? startrd_warp_max(v) : startrd_warp_sum(v);
    __syncthreads();
    if (lane == 0)
        shared[warp] = v;
    __syncthreads();
    v = lane < WARPS ? shared[lane] : 0.0;   /* |t| >= 0: 0 is neutral for both */
    v = MAX ? startrd_warp_max(v) : startrd_warp_sum(v);
    return MAX ? v : __shfl_sync(0xffffffffu, v, 0);
}

/* One block per column j: its norm scaled by its largest component, as
 * DNRM2 keeps clear of overflow, then the column in S's row order. */
__global__ void secular_vectors_kernel(int64_t k, const startrd_secular_entry_t *e, double *S, int64_t lds)
{
    __shared__ double shared[WARPS];

    for (int64_t j = blockIdx.x; j < k; j += gridDim.x) {
        const double pole = e[e[j].origin].dlamda, delta = e[j].delta;
        double largest = 0.0, sum = 0.0;

        for (int64_t p = threadIdx.x; p < k; p += THREADS)
            largest = fmax(largest, fabs(component(e, p, pole, delta)));
        largest = block_reduce<true>(largest, shared);
        for (int64_t p = threadIdx.x; p < k; p += THREADS) {
            const double t = component(e, p, pole, delta) / largest;

            sum += t * t;
        }
        sum = block_reduce<false>(sum, shared);
        for (int64_t i = threadIdx.x; i < k; i += THREADS)
            S[i + j * lds] = component(e, e[i].source, pole, delta) / (largest * sqrt(sum));
    }
}

extern "C" cudaError_t startrd_cuda_dsecular_vectors(int64_t k, const startrd_secular_entry_t *entries, double *S,
                                                     int64_t lds, cudaStream_t stream)
{
    enum { MAX_BLOCKS = 65535 };

    if (k > 0)
        secular_vectors_kernel<<<(unsigned)(k < MAX_BLOCKS ? k : MAX_BLOCKS), THREADS, 0, stream>>>(k, entries, S,
                                                                                                     lds);
    return cudaGetLastError();
}
