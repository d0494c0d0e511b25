#include "kernels_cuda.h"

/* T(0:i, i) = -tau_i * T(0:i, 0:i) * G(0:i, i), column after column: each
 * column needs the finished columns to its left, so one block walks them in
 * order, a thread per row.  nb is the bandwidth (at most a few hundred). */
__global__ void zlarft_gram_kernel(int nb, const cuDoubleComplex *tau, cuDoubleComplex *T, int64_t ldt)
{
    extern __shared__ cuDoubleComplex g[];
    int r = threadIdx.x;

    for (int i = 0; i < nb; i++) {
        if (r < i)
            g[r] = T[(int64_t)i * ldt + r];
        __syncthreads();
        if (r < i) {
            cuDoubleComplex s = make_cuDoubleComplex(0.0, 0.0);

            for (int c = r; c < i; c++)
                s = cuCadd(s, cuCmul(T[(int64_t)c * ldt + r], g[c]));
            T[(int64_t)i * ldt + r] = cuCmul(make_cuDoubleComplex(-cuCreal(tau[i]), -cuCimag(tau[i])), s);
        } else if (r == i) {
            T[(int64_t)i * ldt + r] = tau[i];
        } else if (r < nb) {
            T[(int64_t)i * ldt + r] = make_cuDoubleComplex(0.0, 0.0);
        }
        __syncthreads();
    }
}

extern "C" cudaError_t startrd_cuda_zlarft_gram(int64_t nb, const cuDoubleComplex *tau,
                                                cuDoubleComplex *T, int64_t ldt, cudaStream_t stream)
{
    int threads = (int)((nb + 31) / 32 * 32);

    zlarft_gram_kernel<<<1, threads, (size_t)nb * sizeof(cuDoubleComplex), stream>>>((int)nb, tau, T, ldt);
    return cudaGetLastError();
}
