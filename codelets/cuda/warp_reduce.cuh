/* Reductions across a warp for the library's CUDA kernels. */
#ifndef STARTRD_WARP_REDUCE_CUH
#define STARTRD_WARP_REDUCE_CUH

/* The sum of v (float or double) over the 32 lanes, in lane 0; every lane
 * must call. */
template <typename R>
__device__ inline R startrd_warp_sum(R v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

/* The largest v (float or double) over the 32 lanes, in every lane; every
 * lane must call. */
template <typename R>
__device__ inline R startrd_warp_max(R v)
{
    for (int o = 16; o > 0; o /= 2)
        v = fmax(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

/* The sums over the warp of N values per lane (N a power of two up to 32),
 * halving the values each lane carries at each of the first log2(N)
 * exchanges: N + log2(32/N) - 1 shuffles instead of 5N.  Value i's sum
 * lands in lanes i * 32/N to (i+1) * 32/N - 1; the lane's is returned.
 * Every lane must call; v is overwritten. */
template <int N, typename R>
__device__ inline R startrd_warp_sums(R (&v)[N], int lane)
{
    static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "N: a power of two up to 32");
    int h = 16;

#pragma unroll
    for (int n = N; n > 1; n /= 2, h /= 2) {
        const bool upper = (lane & h) != 0;

#pragma unroll
        for (int k = 0; k < n / 2; k++) {
            const R send = upper ? v[k] : v[k + n / 2], keep = upper ? v[k + n / 2] : v[k];

            v[k] = keep + __shfl_xor_sync(0xffffffffu, send, h);
        }
    }
    for (; h > 0; h /= 2)
        v[0] += __shfl_xor_sync(0xffffffffu, v[0], h);
    return v[0];
}

#endif
