#include "kernels_cuda.h"
#include "scalar.cuh"

/* Block (m, k) writes column k of member m; its threads walk the rows. */
template <typename T>
__global__ void q2_gather_kernel(int64_t n, int64_t kd, int64_t nsweeps, int64_t nrefl, const int64_t *sweeps,
                                 const T *hous, int64_t b, int64_t h, int64_t S, int64_t j, T *V, T *tau)
{
    const int64_t m = blockIdx.x, k = blockIdx.y, s = (S + m) * b + k, jm = j + 2 * m;
    const int exists = s < nsweeps && jm < sweeps[2 * s + 1];
    /* Reflector jm of sweep s acts on kd rows from s + 1 + jm kd, fewer at
     * the end of the matrix; its v sits in HOUS2 after the nrefl factors. */
    const int64_t r = exists ? sweeps[2 * s] + jm : 0, row = s + 1 + jm * kd;
    const int64_t len = exists ? (n - row < kd ? n - row : kd) : 0;
    const T *v = hous + nrefl + r * kd;
    T *col = V + (m * b + k) * h;

    for (int64_t i = threadIdx.x; i < h; i += blockDim.x)
        col[i] = i >= k && i - k < len ? v[i - k] : startrd_zero<T>();
    if (threadIdx.x == 0)
        tau[m * b + k] = exists ? hous[r] : startrd_zero<T>();
}

template <typename T>
static cudaError_t q2_gather(int64_t n, int64_t kd, int64_t nsweeps, int64_t nrefl, const int64_t *sweeps,
                             const T *hous, int64_t b, int64_t h, int64_t S, int64_t j, int64_t count, T *V, T *tau,
                             cudaStream_t stream)
{
    if (count > 0 && b > 0)
        q2_gather_kernel<T><<<dim3((unsigned)count, (unsigned)b), 128, 0, stream>>>(n, kd, nsweeps, nrefl, sweeps,
                                                                                   hous, b, h, S, j, V, tau);
    return cudaGetLastError();
}

#define Q2_GATHER(p, T)                                                                                          \
    extern "C" cudaError_t startrd_cuda_##p##q2_gather(int64_t n, int64_t kd, int64_t nsweeps, int64_t nrefl,     \
                                                       const int64_t *sweeps, const T *hous, int64_t b, int64_t h, \
                                                       int64_t S, int64_t j, int64_t count, T *V, T *tau,         \
                                                       cudaStream_t stream)                                       \
    {                                                                                                            \
        return q2_gather<T>(n, kd, nsweeps, nrefl, sweeps, hous, b, h, S, j, count, V, tau, stream);             \
    }
STARTRD_FOR_EACH_PRECISION(Q2_GATHER)
