#include "kernels_cuda.h"
#include "warp_reduce.cuh"

/* T(0:i, i) = -tau_i * T(0:i, 0:i) * G(0:i, i), column after column: each
 * column needs the finished columns to its left.  A warp per row of the
 * column, its lanes along the row, so a column costs a few shared-memory
 * reads and one reduction; T lives in shared memory while it is built when
 * it fits (nb up to about 110), which keeps the chain of columns off the
 * memory system the trailing update keeps busy: a block walking T in
 * global memory took 94 us alone and 407 us beside the update (nb = 64, one
 * H200). */

namespace {

const int THREADS = 1024, WARPS = THREADS / 32;

__global__ void __launch_bounds__(THREADS) zlarft_gram_kernel(int nb, const cuDoubleComplex *tau,
                                                              cuDoubleComplex *T, int64_t ldt, int in_shared)
{
    extern __shared__ cuDoubleComplex sh[];
    cuDoubleComplex *g = sh, *t = in_shared ? sh + nb : T;
    const int64_t ld = in_shared ? nb : ldt;
    const int lane = (int)threadIdx.x % 32, warp = (int)threadIdx.x / 32;

    if (in_shared) {
        for (int64_t k = threadIdx.x; k < (int64_t)nb * nb; k += THREADS)
            t[k] = T[(k / nb) * ldt + k % nb];
        __syncthreads();
    }
    for (int i = 0; i < nb; i++) {
        for (int r = (int)threadIdx.x; r < i; r += THREADS)
            g[r] = t[(int64_t)i * ld + r];
        __syncthreads();
        const cuDoubleComplex mt = make_cuDoubleComplex(-cuCreal(tau[i]), -cuCimag(tau[i]));

        for (int r = warp; r < i; r += WARPS) {
            double sr = 0.0, si = 0.0;

            for (int c = r + lane; c < i; c += 32) {
                cuDoubleComplex p = cuCmul(t[(int64_t)c * ld + r], g[c]);

                sr += cuCreal(p);
                si += cuCimag(p);
            }
            sr = startrd_warp_sum(sr);
            si = startrd_warp_sum(si);
            if (lane == 0)
                t[(int64_t)i * ld + r] = cuCmul(mt, make_cuDoubleComplex(sr, si));
        }
        for (int r = i + (int)threadIdx.x; r < nb; r += THREADS)
            t[(int64_t)i * ld + r] = r == i ? tau[i] : make_cuDoubleComplex(0.0, 0.0);
        __syncthreads();
    }
    if (in_shared) {
        for (int64_t k = threadIdx.x; k < (int64_t)nb * nb; k += THREADS)
            T[(k / nb) * ldt + k % nb] = t[k];
    }
}

} // namespace

extern "C" cudaError_t startrd_cuda_zlarft_gram(int64_t nb, const cuDoubleComplex *tau, cuDoubleComplex *T,
                                                int64_t ldt, cudaStream_t stream)
{
    size_t bytes = (size_t)(nb + nb * nb) * sizeof(cuDoubleComplex);
    int dev, most = 0, in_shared;
    cudaError_t st;

    if ((st = cudaGetDevice(&dev)) != cudaSuccess ||
        (st = cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) != cudaSuccess)
        return st;
    in_shared = bytes <= (size_t)most;
    if (!in_shared)
        bytes = (size_t)nb * sizeof(cuDoubleComplex);
    if (bytes > 48 * 1024 &&
        (st = cudaFuncSetAttribute((const void *)zlarft_gram_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)bytes)) != cudaSuccess)
        return st;
    zlarft_gram_kernel<<<1, THREADS, bytes, stream>>>((int)nb, tau, T, ldt, in_shared);
    return cudaGetLastError();
}
