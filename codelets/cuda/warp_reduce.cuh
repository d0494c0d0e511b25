/* Reductions across a warp for the library's CUDA kernels. */
#ifndef STARTRD_WARP_REDUCE_CUH
#define STARTRD_WARP_REDUCE_CUH

/* The sum of v over the 32 lanes, in lane 0; every lane must call. */
__device__ inline double startrd_warp_sum(double v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

#endif
