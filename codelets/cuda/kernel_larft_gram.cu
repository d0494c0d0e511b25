#include "kernels_cuda.h"
#include "scalar.cuh"

/* T of the compact WY form from the Gram matrix G = V^H V (V^T V for real
 * scalars), as LAPACK's xLARFT (forward, columnwise) defines it column by
 * column,
 *     T(i, i) = tau_i,   T(0:i, i) = -tau_i T(0:i, 0:i) G(0:i, i),
 * but in blocks: that recurrence inside each LEAF x LEAF diagonal block (a
 * warp per block), then, for blocks A and C side by side on the diagonal,
 * twice as large at each level,
 *     T(A, C) = -T(A, A) G(A, C) T(C, C),
 * which follows from the recurrence (tau_i = 0 included: row and column i
 * of T vanish) and needs about 2 log2(nb / LEAF) block-wide barriers where
 * the recurrence needs two per column, and T is on the chain from one
 * panel to the next (docs/architecture.md, "T from the Gram matrix").  T
 * and the scalar factors live in shared memory while T is built when they
 * fit (nb up to about 100 in complex double, more in the other precisions),
 * which keeps the chain off the memory system the trailing update keeps
 * busy. */

namespace {

const int THREADS = 1024, WARPS = THREADS / 32, LEAF = 8;
/* G(A, C) T(C, C) for as many columns of C as fit. */
const int TMP_ENTRIES = 4096;

/* One block per factor of the batch; the scalar type is S, T is the factor. */
template <typename S>
__global__ void __launch_bounds__(THREADS) larft_gram_kernel(int nb, const S *tau, int64_t tau_stride, S *T,
                                                             int64_t ldt, int64_t t_stride, int in_shared)
{
    /* One name for every S: an extern array's type cannot vary. */
    extern __shared__ __align__(16) unsigned char sh_bytes[];
    S *sh = reinterpret_cast<S *>(sh_bytes);
    tau += blockIdx.x * tau_stride;
    T += blockIdx.x * t_stride;
    S *taus = sh, *tmp = sh + nb, *t = in_shared ? sh + nb + TMP_ENTRIES : T;
    const int64_t ld = in_shared ? nb : ldt;
    const int lane = (int)threadIdx.x % 32, warp = (int)threadIdx.x / 32;
    const S zero = startrd_zero<S>();

    for (int k = (int)threadIdx.x; k < nb; k += THREADS)
        taus[k] = tau[k];
    if (in_shared)
        for (int64_t k = threadIdx.x; k < (int64_t)nb * nb; k += THREADS)
            t[k] = T[(k / nb) * ldt + k % nb];
    __syncthreads();

    /* The recurrence inside each diagonal block, lane r on row p + r. */
    for (int p = warp * LEAF; p < nb; p += WARPS * LEAF) {
        const int e = p + LEAF < nb ? p + LEAF : nb, r = p + lane;

        for (int i = p; i < e; i++) {
            S v = zero;

            if (r < i) {
                for (int c = r; c < i; c++)
                    v = startrd_fma(t[(int64_t)c * ld + r], t[(int64_t)i * ld + c], v);
                v = startrd_mul(startrd_neg(taus[i]), v);
            }
            /* Lanes above read G(r, i) until all have. */
            __syncwarp();
            if (r < i)
                t[(int64_t)i * ld + r] = v;
            else if (r == i)
                t[(int64_t)i * ld + i] = taus[i];
            __syncwarp();
        }
    }
    __syncthreads();

    /* Blocks A = [p, p+s) and C = [p+s, p+2s) of each level, C's columns
     * in chunks of TMP_ENTRIES / s, the last chunk first: a chunk reads
     * G(A, k) for the columns k of C up to its own, which the chunks to
     * its left overwrite with T(A, k). */
    for (int s = LEAF; s < nb; s *= 2) {
        const int width = TMP_ENTRIES / s;

        for (int c0 = (nb - 1) / width * width; c0 >= 0; c0 -= width) {
            const int64_t outputs = (int64_t)s * (c0 + width < nb ? width : nb - c0);

            /* tmp(r, c) = G(A, C) T(C, C) restricted to the chunk's columns of C. */
            for (int64_t o = threadIdx.x; o < outputs; o += THREADS) {
                const int c = c0 + (int)(o / s), rl = (int)(o % s), p = c / (2 * s) * (2 * s), r = p + rl;
                S v = zero;

                if (c < p + s)
                    continue;
                for (int k = p + s; k <= c; k++)
                    v = startrd_fma(t[(int64_t)k * ld + r], t[(int64_t)c * ld + k], v);
                tmp[o] = v;
            }
            __syncthreads();
            /* T(A, C) = -T(A, A) tmp, over G(A, C), which nobody reads any more. */
            for (int64_t o = threadIdx.x; o < outputs; o += THREADS) {
                const int c = c0 + (int)(o / s), rl = (int)(o % s), p = c / (2 * s) * (2 * s), r = p + rl;
                S v = zero;

                if (c < p + s)
                    continue;
                for (int k = r; k < p + s; k++)
                    v = startrd_fma(t[(int64_t)k * ld + r], tmp[(int64_t)(c - c0) * s + (k - p)], v);
                t[(int64_t)c * ld + r] = startrd_neg(v);
            }
            __syncthreads();
        }
    }

    for (int64_t k = threadIdx.x; k < (int64_t)nb * nb; k += THREADS) {
        const int64_t c = k / nb, r = k % nb;

        if (r > c)
            t[c * ld + r] = zero;
        if (in_shared)
            T[c * ldt + r] = r > c ? zero : t[c * ld + r];
    }
}

} // namespace

template <typename S>
static cudaError_t larft_gram(int64_t nb, int64_t count, const S *tau, int64_t tau_stride, S *T, int64_t ldt,
                              int64_t t_stride, cudaStream_t stream)
{
    /* Queried and set once per device (and scalar type) by each thread that
     * drives one: T is on the chain from one panel to the next. */
    thread_local int dev = -1, most = 0;
    size_t bytes = (size_t)(nb + TMP_ENTRIES + nb * nb) * sizeof(S);
    int current, in_shared;
    cudaError_t st;

    if ((st = cudaGetDevice(&current)) != cudaSuccess)
        return st;
    if (current != dev) {
        if ((st = cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, current)) != cudaSuccess ||
            (st = cudaFuncSetAttribute((const void *)larft_gram_kernel<S>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, most)) != cudaSuccess)
            return st;
        dev = current;
    }
    in_shared = bytes <= (size_t)most;
    if (!in_shared)
        bytes = (size_t)(nb + TMP_ENTRIES) * sizeof(S);
    if (count > 0)
        larft_gram_kernel<S><<<(unsigned)count, THREADS, bytes, stream>>>((int)nb, tau, tau_stride, T, ldt, t_stride,
                                                                          in_shared);
    return cudaGetLastError();
}

#define LARFT_GRAM(p, S)                                                                                         \
    extern "C" cudaError_t startrd_cuda_##p##larft_gram(int64_t nb, int64_t count, const S *tau, int64_t tau_stride, \
                                                        S *T, int64_t ldt, int64_t t_stride, cudaStream_t stream) \
    {                                                                                                            \
        return larft_gram<S>(nb, count, tau, tau_stride, T, ldt, t_stride, stream);                              \
    }
STARTRD_FOR_EACH_PRECISION(LARFT_GRAM)
