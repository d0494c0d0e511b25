/* The one-stage reduction of a small Hermitian matrix to tridiagonal form,
 * LAPACK's xHETD2 / xSYTD2, as one cooperative kernel on one GPU: the
 * matrix stays in the GPU's L2 cache and the n-1 steps follow each other
 * with one grid-wide barrier each, where stage 1 and the chase would cost
 * a task hop per block column and about n chase sweeps (docs/architecture.md,
 * "Small orders: one stage in one kernel").
 *
 * The kernel works on a full copy W of the matrix in lower form: for uplo
 * 'U' it is J A J (J the reversal), whose lower triangle is A's upper one,
 * so that xHETD2's upward sweep for 'U' becomes the downward one for 'L'.
 * Step i's update of the trailing matrix and step i+1's product
 * y = tau A v share one pass over the columns; each block recomputes
 * column i+1 after step i's update (the next pivot) itself, so no barrier
 * separates them. */
#include <cooperative_groups.h>
#include <float.h>

#include "kernels_cuda.h"
#include "scalar.cuh"
#include "warp_reduce.cuh"

namespace cg = cooperative_groups;

enum { THREADS = 512, WARPS = THREADS / 32 };

/* Entry (p, q) of the caller's n x n matrix B, seen in lower form. */
template <typename T>
__device__ inline T lower_form(char uplo, int64_t n, const T *B, int64_t ldb, int64_t p, int64_t q)
{
    const bool below = p >= q;
    const int64_t r = below ? p : q, c = below ? q : p;   /* the lower-form triangle's entry */
    const T x = uplo == 'L' ? B[r + c * ldb] : B[(n - 1 - r) + (n - 1 - c) * ldb];

    if (r == c)
        return startrd_make<T>(startrd_real(x));
    return below ? x : startrd_conj(x);
}

/* The largest |x| of the referenced triangle, as the bits of a double,
 * which order as the values do for x >= 0. */
template <typename T>
__global__ void prepare_kernel(char uplo, int64_t n, const T *B, int64_t ldb, T *W, unsigned long long *max_bits)
{
    double m = 0;

    for (int64_t q = blockIdx.y; q < n; q += gridDim.y)
        for (int64_t p = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; p < n; p += (int64_t)gridDim.x * blockDim.x) {
            const T x = lower_form(uplo, n, B, ldb, p, q);

            W[p + q * n] = x;
            m = fmax(m, hypot((double)startrd_real(x), (double)startrd_imag(x)));   /* |x|^2 may overflow */
        }
    m = startrd_warp_max(m);
    if ((threadIdx.x & 31) == 0 && m > 0)
        atomicMax(max_bits, (unsigned long long)__double_as_longlong(m));
}

template <typename T>
__device__ inline T dot_conj(T a, T b)   /* conj(a) b */
{
    return startrd_mul(startrd_conj(a), b);
}

template <typename R>
__device__ inline R block_sum(R s, R *red)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    R t = 0;

    s = startrd_warp_sum(s);
    __syncthreads();   /* red's previous use is over */
    if (lane == 0)
        red[warp] = s;
    __syncthreads();
    for (int q = 0; q < WARPS; q++)
        t += red[q];
    return t;
}

/* The warp-wide sum of a scalar, in lane 0. */
template <typename T>
__device__ inline T warp_sum_scalar(T x)
{
    using R = typename startrd_scalar<T>::real;

    return startrd_make<T>(startrd_warp_sum<R>(startrd_real(x)), startrd_warp_sum<R>(startrd_imag(x)));
}

/* x / s for a power of two s: exact where x / s is representable, where
 * x * (1 / s) would overflow for s below 1 / max. */
template <typename T>
__device__ inline T over(T x, typename startrd_scalar<T>::real s)
{
    return startrd_make<T>(startrd_real(x) / s, startrd_imag(x) / s);
}

/* xLARFG on (alpha, x), with s2 = sum |x_k / s|^2 for a power of two
 * s: beta, tau, and v_k = (f x_k) scal.  Where |beta| is below LAPACK's
 * safe minimum, f is the power of two that lifts it above, as xLARFG's
 * rescaling does: 1 / (alpha - beta) would overflow. */
template <typename T>
__device__ inline void larfg(T alpha, typename startrd_scalar<T>::real s2, typename startrd_scalar<T>::real s,
                             typename startrd_scalar<T>::real &beta, T &tau, typename startrd_scalar<T>::real &f,
                             T &scal)
{
    using R = typename startrd_scalar<T>::real;
    const R ar = startrd_real(alpha), ai = startrd_imag(alpha);
    const R safmin = sizeof(R) == sizeof(float) ? (R)(FLT_MIN / FLT_EPSILON) : (R)(DBL_MIN / DBL_EPSILON);

    f = 1;
    if (s2 == 0 && ai == 0) {
        beta = ar;
        tau = startrd_zero<T>();
        scal = startrd_one<T>();
        return;
    }
    {
        const R as = ar / s, bs = ai / s;

        beta = -copysign(sqrt(as * as + bs * bs + s2) * s, ar);
    }
    if (beta == 0) {   /* an imaginary part below the smallest number: left as the rounding it is */
        beta = ar;
        tau = startrd_zero<T>();
        scal = startrd_one<T>();
        return;
    }
    if (fabs(beta) < safmin)
        f = (R)exp2(ceil(log2((double)safmin / fabs((double)beta))));
    tau = startrd_make<T>((beta - ar) / beta, -ai / beta);
    scal = startrd_div(startrd_one<T>(), startrd_make<T>((ar - beta) * f, ai * f));
}

/* The block's share of y^H v, each warp's in lane 0's @p yv, into
 * partial[blockIdx.x]. */
template <typename T>
__device__ inline void store_share(T yv, T *red_t, T *partial)
{
    if ((threadIdx.x & 31) == 0)
        red_t[threadIdx.x >> 5] = yv;
    __syncthreads();
    if (threadIdx.x == 0) {
        T sum = startrd_zero<T>();

        for (int q = 0; q < WARPS; q++)
            sum = startrd_add(sum, red_t[q]);
        partial[blockIdx.x] = sum;
    }
}

/* Step i+1's y from the columns i+2 on after step i's update, which the
 * same pass writes: y_k = tau' conj(W(:, k))^T v' over the trailing rows,
 * and this block's share of y^H v' into partial. */
template <typename T>
__device__ inline void update_and_multiply(int64_t n, int64_t i, T *W, const T *v, const T *w, const T *vn, T tn,
                                           T *yn, T *partial, T *red_t)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int64_t m = n - 1 - i, gw = (int64_t)blockIdx.x * WARPS + warp, nw = (int64_t)gridDim.x * WARPS;
    T yv = startrd_zero<T>();

    for (int64_t k = 1 + gw; k < m; k += nw) {
        T *col = W + (i + 1 + k) * n + i + 1;
        const T wk = startrd_conj(w[k]), vk = startrd_conj(v[k]);
        T sum = startrd_zero<T>();

#pragma unroll 4
        for (int64_t r = 1 + lane; r < m; r += 32) {
            const T x = startrd_sub(col[r], startrd_add(startrd_mul(v[r], wk), startrd_mul(w[r], vk)));

            col[r] = x;
            sum = startrd_add(sum, dot_conj(x, vn[r]));
        }
        sum = warp_sum_scalar(sum);
        if (lane == 0) {
            const T yk = startrd_mul(tn, sum);

            yn[k - 1] = yk;
            yv = startrd_add(yv, dot_conj(yk, vn[k]));
        }
    }
    store_share(yv, red_t, partial);
}

/*
 * xHETD2 on W (n x n, lower form, both triangles), n >= 2: d, e and tau
 * as LAPACK's, the reflectors below W's subdiagonal and e on it.  ybuf
 * holds 2n scalars, partial 2 gridDim.x.  Shared memory: 3n+2 scalars.
 *
 * Step i's column of W below the diagonal, rows i+1 .. n-1, is x; its
 * reflector v (v[0] = 1) and the trailing matrix's rows are indexed from
 * row i+1, and w = y + alpha v.  The buffer that receives column i+1 holds
 * it from index 0 (row i+1), so that the next reflector, rows i+2 on,
 * starts at index 1: v of step i is base[i & 1] + 1.
 */
template <typename T>
__global__ void __launch_bounds__(THREADS) hetd2_kernel(int64_t n, T *W, typename startrd_scalar<T>::real *d,
                                                       typename startrd_scalar<T>::real *e, T *tau, T *ybuf,
                                                       T *partial, const unsigned long long *max_bits)
{
    using R = typename startrd_scalar<T>::real;
    cg::grid_group grid = cg::this_grid();
    extern __shared__ unsigned char shared_bytes[];
    T *const base[2] = {reinterpret_cast<T *>(shared_bytes), reinterpret_cast<T *>(shared_bytes) + n + 1};
    T *const w = base[1] + n + 1;
    __shared__ R red[WARPS];
    __shared__ T red_t[WARPS];
    const int lane = threadIdx.x & 31;
    /* Sums of squares of entries over a power of two near the largest
     * entry neither overflow nor lose the large entries (xLARFG's scaling). */
    const double amax = __longlong_as_double((long long)*max_bits);
    const R s = amax > 0 ? (R)exp2(ceil(log2(amax))) : (R)1;
    R beta;
    T t;

    /* Step 0's reflector in every block, and its y. */
    {
        const int64_t m = n - 1;
        T *v = base[0] + 1, scal;
        R s2 = 0;

        for (int64_t r = threadIdx.x; r < m; r += THREADS) {
            const T x = W[1 + r];

            v[r] = x;
            if (r >= 1)
                s2 += startrd_abs2(over(x, s));
        }
        s2 = block_sum(s2, red);
        R f;
        larfg(v[0], s2, s, beta, t, f, scal);
        __syncthreads();
        for (int64_t k = threadIdx.x; k < m; k += THREADS)
            v[k] = k == 0 ? startrd_one<T>() : startrd_mul(startrd_scale(f, v[k]), scal);
        if (blockIdx.x == 0 && threadIdx.x == 0)
            d[0] = startrd_real(W[0]);
        __syncthreads();
        const int warp = threadIdx.x >> 5;
        const int64_t gw = (int64_t)blockIdx.x * WARPS + warp, nw = (int64_t)gridDim.x * WARPS;
        T yv = startrd_zero<T>();
        for (int64_t k = gw; k < m; k += nw) {
            const T *a = W + (1 + k) * n + 1;
            T sum = startrd_zero<T>();

#pragma unroll 4
            for (int64_t r = lane; r < m; r += 32)
                sum = startrd_add(sum, dot_conj(a[r], v[r]));
            sum = warp_sum_scalar(sum);
            if (lane == 0) {
                const T y = startrd_mul(t, sum);

                ybuf[k] = y;
                yv = startrd_add(yv, dot_conj(y, v[k]));
            }
        }
        store_share(yv, red_t, partial);
    }
    grid.sync();
    for (int64_t i = 0; i < n - 1; i++) {
        const int64_t m = n - 1 - i, par = i & 1;
        const T *y = ybuf + par * n, *pp = partial + par * gridDim.x, *c1 = W + (i + 1) * n + i + 1;
        const T *v = base[par] + 1;
        T *vn = base[par ^ 1];
        T yv = startrd_zero<T>();

        /* One round of loads: y, column i+1 as step i-1 left it, and the
         * blocks' shares of y^H v. */
        for (int64_t k = threadIdx.x; k < m; k += THREADS) {
            w[k] = y[k];
            vn[k] = c1[k];
        }
        for (int64_t q = lane; q < gridDim.x; q += 32)
            yv = startrd_add(yv, pp[q]);
        yv = warp_sum_scalar(yv);
        yv = startrd_make<T>(__shfl_sync(0xffffffffu, startrd_real(yv), 0),
                             __shfl_sync(0xffffffffu, startrd_imag(yv), 0));
        /* alpha = -tau/2 (y^H v), w = y + alpha v */
        const T alpha = startrd_mul(startrd_scale((R)-0.5, t), yv);
        for (int64_t k = threadIdx.x; k < m; k += THREADS)
            w[k] = startrd_add(w[k], startrd_mul(alpha, v[k]));
        __syncthreads();
        /* Column i's reflector, e and tau. */
        if (blockIdx.x == gridDim.x - 1 && threadIdx.x >= THREADS - 32) {
            T *c = W + i * n + i + 1;

            for (int64_t r = 1 + lane; r < m; r += 32)
                c[r] = v[r];
            if (lane == 0) {
                c[0] = startrd_make<T>(beta);
                e[i] = beta;
                tau[i] = t;
            }
        }
        /* Column i+1 after step i (v[0] = 1): its diagonal entry is
         * d[i+1]; below it lies step i+1's x. */
        const T w0 = startrd_conj(w[0]);
        R s2 = 0;

        for (int64_t r = threadIdx.x; r < m; r += THREADS) {
            const T x = startrd_sub(vn[r], startrd_add(startrd_mul(v[r], w0), w[r]));

            vn[r] = x;
            if (r >= 2)
                s2 += startrd_abs2(over(x, s));
        }
        s2 = block_sum(s2, red);   /* its barriers publish vn */
        if (blockIdx.x == 0 && threadIdx.x == 0)
            d[i + 1] = startrd_real(vn[0]);
        if (m == 1)
            break;
        R beta1, f1;
        T t1, scal1;
        larfg(vn[1], s2, s, beta1, t1, f1, scal1);
        __syncthreads();
        for (int64_t k = 1 + threadIdx.x; k < m; k += THREADS)
            vn[k] = k == 1 ? startrd_one<T>() : startrd_mul(startrd_scale(f1, vn[k]), scal1);
        __syncthreads();
        /* Columns i+2 on: step i's update, then step i+1's y. */
        update_and_multiply(n, i, W, v, w, vn, t1, ybuf + (par ^ 1) * n, partial + (par ^ 1) * gridDim.x, red_t);
        beta = beta1;
        t = t1;
        grid.sync();
    }
}

/* W's lower triangle into B's referenced one (the diagonal from d), and
 * for 'U' d, e and tau reversed into LAPACK's order. */
template <typename T>
__global__ void finish_kernel(char uplo, int64_t n, const T *W, T *B, int64_t ldb,
                              typename startrd_scalar<T>::real *d, typename startrd_scalar<T>::real *e, T *tau)
{
    for (int64_t q = blockIdx.y; q < n; q += gridDim.y)
        for (int64_t p = q + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; p < n;
             p += (int64_t)gridDim.x * blockDim.x) {
            const T x = p == q ? startrd_make<T>(d[p]) : W[p + q * n];

            if (uplo == 'L')
                B[p + q * ldb] = x;
            else
                B[(n - 1 - p) + (n - 1 - q) * ldb] = x;
        }
}

template <typename T>
__global__ void reverse_outputs_kernel(int64_t n, typename startrd_scalar<T>::real *d,
                                       typename startrd_scalar<T>::real *e, T *tau)
{
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < n / 2; k += (int64_t)gridDim.x * blockDim.x) {
        const auto dk = d[k];
        d[k] = d[n - 1 - k];
        d[n - 1 - k] = dk;
        if (k < (n - 1) / 2) {
            const auto ek = e[k];
            const T tk = tau[k];
            e[k] = e[n - 2 - k];
            e[n - 2 - k] = ek;
            tau[k] = tau[n - 2 - k];
            tau[n - 2 - k] = tk;
        }
    }
}

/* Scratch: ybuf (2n), partial (2 x blocks), then the largest entry's bits. */
static size_t scratch_scalars(int64_t n, int blocks)
{
    return (size_t)(2 * n + 2 * blocks);
}

template <typename T>
static int cooperative_blocks(int64_t n, size_t shared)
{
    int dev, sms, per_sm = 0;

    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hetd2_kernel<T>, THREADS, shared) != cudaSuccess)
        return 0;
    /* A warp per column: more blocks only lengthen the barriers. */
    const int64_t wanted = (n - 1 + WARPS - 1) / WARPS, most = (int64_t)sms * (per_sm < 1 ? 1 : per_sm);

    return per_sm < 1 ? 0 : (int)(wanted < most ? wanted : most);
}

template <typename T>
static cudaError_t hetd2_fused(char uplo, int64_t n, T *B, int64_t ldb, T *W, typename startrd_scalar<T>::real *d,
                               typename startrd_scalar<T>::real *e, T *tau, void *scratch, size_t scratch_bytes,
                               cudaStream_t stream)
{
    const size_t shared = (3 * (size_t)n + 2) * sizeof(T);
    const dim3 grid((unsigned)((n + 255) / 256 < 64 ? (n + 255) / 256 : 64), (unsigned)(n < 65535 ? n : 65535));
    T *ybuf = static_cast<T *>(scratch), *partial = ybuf + 2 * n;
    unsigned long long *max_bits;
    int blocks = 1;
    cudaError_t st;

    if (n <= 0)
        return cudaSuccess;
    /* The occupancy query counts the shared memory only once it is allowed. */
    if ((st = cudaFuncSetAttribute(hetd2_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared)) !=
        cudaSuccess)
        return st;
    if (n >= 2)
        blocks = cooperative_blocks<T>(n, shared);
    max_bits = reinterpret_cast<unsigned long long *>(ybuf + scratch_scalars(n, blocks));
    if (blocks < 1 || scratch_bytes < scratch_scalars(n, blocks) * sizeof(T) + sizeof *max_bits)
        return cudaErrorInvalidValue;
    if ((st = cudaMemsetAsync(max_bits, 0, sizeof *max_bits, stream)) != cudaSuccess)
        return st;
    prepare_kernel<T><<<grid, 256, 0, stream>>>(uplo, n, B, ldb, W, max_bits);
    if ((st = cudaGetLastError()) != cudaSuccess)
        return st;
    if (n == 1) {
        finish_kernel<T><<<1, 32, 0, stream>>>(uplo, n, W, B, ldb, d, e, tau);
        return cudaGetLastError();
    }
    {
        void *args[] = {&n, &W, &d, &e, &tau, &ybuf, &partial, &max_bits};

        if ((st = cudaLaunchCooperativeKernel((const void *)hetd2_kernel<T>, blocks, THREADS, args, shared, stream)) !=
            cudaSuccess)
            return st;
    }
    finish_kernel<T><<<grid, 256, 0, stream>>>(uplo, n, W, B, ldb, d, e, tau);
    if ((st = cudaGetLastError()) == cudaSuccess && uplo == 'U')
        reverse_outputs_kernel<T><<<(unsigned)((n / 2 + 255) / 256), 256, 0, stream>>>(n, d, e, tau);
    return st == cudaSuccess ? cudaGetLastError() : st;
}

template <typename T>
static int64_t hetd2_fused_max_n(void)
{
    int dev, most = 0;

    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return 0;
    /* The kernel's static shared memory beside the 3n scalars. */
    return ((int64_t)most - 1024 - 2 * (int64_t)sizeof(T)) / (3 * (int64_t)sizeof(T));
}

size_t startrd_cuda_hetd2_fused_scratch_bytes(int64_t n, size_t entry_bytes)
{
    int sms = 0, dev;

    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
        sms = 1024;
    /* A multiprocessor holds at most four blocks of 512 threads, so the grid never has more. */
    return scratch_scalars(n, 4 * sms) * entry_bytes + sizeof(unsigned long long);
}

#define HETD2_FUSED(name, T, R)                                                                                       \
    cudaError_t startrd_cuda_##name##_fused(char uplo, int64_t n, T *B, int64_t ldb, T *W, R *d, R *e, T *tau,        \
                                            void *scratch, size_t scratch_bytes, cudaStream_t stream)                 \
    {                                                                                                                 \
        return hetd2_fused<T>(uplo, n, B, ldb, W, d, e, tau, scratch, scratch_bytes, stream);                       \
    }                                                                                                                 \
    int64_t startrd_cuda_##name##_fused_max_n(void)                                                                   \
    {                                                                                                                 \
        return hetd2_fused_max_n<T>();                                                                               \
    }

HETD2_FUSED(zhetd2, cuDoubleComplex, double)
HETD2_FUSED(chetd2, cuFloatComplex, float)
HETD2_FUSED(dsytd2, double, double)
HETD2_FUSED(ssytd2, float, float)
