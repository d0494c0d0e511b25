#include "kernels_cuda.h"

/* Block (m, k) writes column k of member m; its threads walk the rows. */
__global__ void zq2_gather_kernel(int64_t n, int64_t kd, int64_t nsweeps, int64_t nrefl, const int64_t *sweeps,
                                  const cuDoubleComplex *hous, int64_t b, int64_t h, int64_t S, int64_t j,
                                  cuDoubleComplex *V, cuDoubleComplex *tau)
{
    const int64_t m = blockIdx.x, k = blockIdx.y, s = (S + m) * b + k, jm = j + 2 * m;
    const int exists = s < nsweeps && jm < sweeps[2 * s + 1];
    /* Reflector jm of sweep s acts on kd rows from s + 1 + jm kd, fewer at
     * the end of the matrix; its v sits in HOUS2 after the nrefl factors. */
    const int64_t r = exists ? sweeps[2 * s] + jm : 0, row = s + 1 + jm * kd;
    const int64_t len = exists ? (n - row < kd ? n - row : kd) : 0;
    const cuDoubleComplex *v = hous + nrefl + r * kd;
    cuDoubleComplex *col = V + (m * b + k) * h;

    for (int64_t i = threadIdx.x; i < h; i += blockDim.x)
        col[i] = i >= k && i - k < len ? v[i - k] : make_cuDoubleComplex(0.0, 0.0);
    if (threadIdx.x == 0)
        tau[m * b + k] = exists ? hous[r] : make_cuDoubleComplex(0.0, 0.0);
}

extern "C" cudaError_t startrd_cuda_zq2_gather(int64_t n, int64_t kd, int64_t nsweeps, int64_t nrefl,
                                               const int64_t *sweeps, const cuDoubleComplex *hous, int64_t b,
                                               int64_t h, int64_t S, int64_t j, int64_t count, cuDoubleComplex *V,
                                               cuDoubleComplex *tau, cudaStream_t stream)
{
    if (count > 0 && b > 0)
        zq2_gather_kernel<<<dim3((unsigned)count, (unsigned)b), 128, 0, stream>>>(n, kd, nsweeps, nrefl, sweeps,
                                                                               hous, b, h, S, j, V, tau);
    return cudaGetLastError();
}
