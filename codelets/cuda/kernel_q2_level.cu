/* One level of Q2's groups (q2_blocks.h) applied by one fused kernel on the
 * FP64 tensor cores: C_m := C_m - V_m M_m (V_m^H C_m) for each member m,
 * M = T for Q2 C and T^H for Q2^H C.  A thread block keeps an h x 16 tile
 * of C in shared memory through the three products, where two strided
 * batched GEMMs write V^H C out and read it back; it skips the 16 x 8
 * tiles of V and of the triangular M that hold only zeros, which the
 * batched GEMMs multiply (docs/experiments.md, "A fused kernel for Q2's
 * levels").
 *
 * V, T and the factors come from the build (codelet_zapply_q2_blocks.c);
 * startrd_cuda_Xq2_level_fragments() rewrites them once per chunk in the
 * order mma.m16n8k8 reads its A operand, so that each warp loads a
 * fragment in four coalesced accesses.  Built for double and
 * cuDoubleComplex with kd = 64 (h = 128, b = 64) on compute capability 9.0
 * and later; elsewhere startrd_cuda_Xq2_level_fragment_entries() returns
 * 0 and the caller keeps the batched GEMMs. */
#include "kernels_cuda.h"
#include "scalar.cuh"

#include <type_traits>

namespace {

constexpr int KD = 64, B = KD, H = 2 * KD; /* the one shape built: b = kd, h = kd + b - 1 rounded up to 8 */
constexpr int NC = 16;                     /* columns of C per thread block, four blocks per multiprocessor */
constexpr int THREADS = 128;
constexpr int TILE = 4 * 32; /* entries per 16 x 8 fragment tile: four per lane */

/* Fragment tiles of one group: F1 = V^H (b x h), FM = M (b x b), FV = -V
 * (h x b); tile (mt, ks) of an R x K operand at (mt K/8 + ks) TILE. */
constexpr int64_t F1 = 0, FM = (int64_t)(B / 16) * (H / 8) * TILE, FV = FM + (int64_t)(B / 16) * (B / 8) * TILE,
                  GROUP = FV + (int64_t)(H / 16) * (B / 8) * TILE;

template <class T>
constexpr bool fused_scalar = std::is_same<T, double>::value || std::is_same<T, cuDoubleComplex>::value;

/* The A operand of one 16 x 8 slice: lane (g, t) = (lane / 4, lane % 4)
 * holds rows g, g+8 and columns t, t+4; for complex T the imaginary parts
 * and their negatives too. */
struct fragment {
    double re[4], im[4], nim[4];
};

__device__ __forceinline__ void mma16x8x8(double (&d)[4], const double (&a)[4], double b0, double b1)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b0), "d"(b1));
#else
    __trap(); /* never launched: the host side checks the compute capability */
#endif
}

template <class T>
__device__ __forceinline__ void load_fragment(fragment &f, const T *tile, int lane)
{
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const T v = tile[j * 32 + lane];
        f.re[j] = startrd_real(v);
        f.im[j] = startrd_imag(v);
        f.nim[j] = -f.im[j];
    }
}

/* acc += A X for one 16 x 8 slice A and the 8 x 8 block X of planar
 * shared memory at Xr / Xi, x(k, n) at n ld + k. */
template <class T>
__device__ __forceinline__ void slice_product(double (&accr)[4], double (&acci)[4], const fragment &a,
                                              const double *Xr, const double *Xi, int ld, int lane)
{
    const int g = lane >> 2, t = lane & 3;
    const double xr0 = Xr[g * ld + t], xr1 = Xr[g * ld + t + 4];

    mma16x8x8(accr, a.re, xr0, xr1);
    if constexpr (startrd_scalar<T>::is_complex) {
        const double xi0 = Xi[g * ld + t], xi1 = Xi[g * ld + t + 4];

        mma16x8x8(accr, a.nim, xi0, xi1);
        mma16x8x8(acci, a.re, xi0, xi1);
        mma16x8x8(acci, a.im, xr0, xr1);
    }
}

/* acc[n] += sum over slices ks0 .. ks1-1 of tile(ks) X(ks, n), for the
 * warp's NW blocks of 8 columns. */
template <class T, int NW>
__device__ __forceinline__ void row_of_slices(double (&accr)[NW][4], double (&acci)[NW][4], const T *tiles, int ks0,
                                              int ks1, const double *Xr, const double *Xi, int ld, int lane)
{
    for (int ks = ks0; ks < ks1; ks++) {
        fragment a;

        load_fragment(a, tiles + ks * TILE, lane);
#pragma unroll
        for (int n = 0; n < NW; n++)
            slice_product<T>(accr[n], acci[n], a, Xr + 8 * n * ld + 8 * ks, Xi + 8 * n * ld + 8 * ks, ld, lane);
    }
}

/* A 16 x 8 accumulator (rows g, g+8, columns 2t, 2t+1) into planar shared
 * memory, entry (r, c) at c ld + r. */
template <class T>
__device__ __forceinline__ void store_accumulator(double *Sr, double *Si, int ld, const double (&r)[4],
                                                  const double (&i)[4], int lane)
{
    const int g = lane >> 2, t = lane & 3;

#pragma unroll
    for (int j = 0; j < 4; j++) {
        const int at = (2 * t + (j & 1)) * ld + g + 8 * (j >> 1);

        Sr[at] = r[j];
        if constexpr (startrd_scalar<T>::is_complex)
            Si[at] = i[j];
    }
}

template <class T>
constexpr size_t level_shared_bytes()
{
    return sizeof(double) * (startrd_scalar<T>::is_complex ? 2 : 1) * NC * ((H + 4) + (B + 4));
}

/* Block (x, y): columns 16x .. of member y.  Four warps, warp p taking
 * rows 16p .. of W and rows 16p .. and 64 + 16p .. of C, all 16 columns. */
template <class T>
__global__ void __launch_bounds__(THREADS, 4) q2_level_kernel(T *C, int64_t ldc, int64_t cols, int64_t member_rows,
                                                              const T *frags, int upper)
{
    constexpr int LDC = H + 4, LDW = B + 4, NW = NC / 8; /* padded columns: no bank conflicts */
    constexpr int planes = startrd_scalar<T>::is_complex ? 2 : 1;
    extern __shared__ double shared[];
    double *Cr = shared, *Ci = Cr + (planes - 1) * NC * LDC, *Wr = Cr + planes * NC * LDC,
           *Wi = Wr + (planes - 1) * NC * LDW;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, g = lane >> 2, t = lane & 3;
    const int mt = warp;
    const int64_t c0 = (int64_t)blockIdx.x * NC;
    T *Cm = C + (int64_t)blockIdx.y * member_rows + c0 * ldc;
    const T *F = frags + (int64_t)blockIdx.y * GROUP;

    for (int at = tid; at < H * NC; at += THREADS) {
        const int r = at % H, c = at / H;
        const T v = c0 + c < cols ? Cm[c * ldc + r] : startrd_zero<T>();

        Cr[c * LDC + r] = startrd_real(v);
        if constexpr (startrd_scalar<T>::is_complex)
            Ci[c * LDC + r] = startrd_imag(v);
    }
    __syncthreads();
    /* W = V^H C, b x 16: the warp's rows 16 mt .., V^H's row i being nonzero in
     * columns i .. i+kd-1 only. */
    {
        double ar[NW][4] = {}, ai[NW][4] = {};

        row_of_slices<T, NW>(ar, ai, F + F1 + mt * (H / 8) * TILE, 2 * mt, min(H / 8, (16 * mt + 14 + KD) / 8 + 1),
                             Cr, Ci, LDC, lane);
        for (int n = 0; n < NW; n++)
            store_accumulator<T>(Wr + 8 * n * LDW + 16 * mt, Wi + 8 * n * LDW + 16 * mt, LDW, ar[n],
                                 ai[n], lane);
    }
    __syncthreads();
    /* W := M W, M triangular. */
    {
        double ar[NW][4] = {}, ai[NW][4] = {};

        row_of_slices<T, NW>(ar, ai, F + FM + mt * (B / 8) * TILE, upper ? 2 * mt : 0, upper ? B / 8 : 2 * mt + 2,
                             Wr, Wi, LDW, lane);
        __syncthreads();
        for (int n = 0; n < NW; n++)
            store_accumulator<T>(Wr + 8 * n * LDW + 16 * mt, Wi + 8 * n * LDW + 16 * mt, LDW, ar[n],
                                 ai[n], lane);
    }
    __syncthreads();
    /* C := C - V W: the warp's rows 16 mt .. and 16 (mt + 4) .., V's row r
     * being nonzero in columns r-kd+1 .. r only, so the two take ten
     * slices together whatever mt. */
    for (int half = 0; half < 2; half++) {
        const int rt = mt + 4 * half, r = 16 * rt + g;
        double ar[NW][4], ai[NW][4];

        for (int n = 0; n < NW; n++)
            for (int j = 0; j < 4; j++) {
                const int at = (8 * n + 2 * t + (j & 1)) * LDC + r + 8 * (j >> 1);

                ar[n][j] = Cr[at];
                ai[n][j] = startrd_scalar<T>::is_complex ? Ci[at] : 0;
            }
        row_of_slices<T, NW>(ar, ai, F + FV + rt * (B / 8) * TILE, max(0, (16 * rt - KD + 1) / 8),
                             min(B / 8, (16 * rt + 15) / 8 + 1), Wr, Wi, LDW, lane);
        for (int n = 0; n < NW; n++)
            for (int j = 0; j < 4; j++) {
                const int64_t c = 8 * n + 2 * t + (j & 1);

                if (c0 + c < cols)
                    Cm[c * ldc + r + 8 * (j >> 1)] = startrd_make<T>(ar[n][j], ai[n][j]);
            }
    }
}

/* One thread per (group, tile, lane). */
template <class T>
__global__ void q2_fragments_kernel(const T *V, const T *Tf, int64_t count, int upper, T *frags)
{
    constexpr int64_t tiles = GROUP / TILE;
    const int64_t id = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

    if (id >= count * tiles * 32)
        return;
    const int lane = (int)(id & 31), g = lane >> 2, t = lane & 3;
    const int64_t tile = (id >> 5) % tiles, grp = (id >> 5) / tiles;
    const T *Vg = V + grp * H * B, *Tg = Tf + grp * B * B;
    T *out = frags + grp * GROUP + tile * TILE;
    const int which = tile < FM / TILE ? 0 : tile < FV / TILE ? 1 : 2;
    const int64_t local = tile - (which == 0 ? 0 : which == 1 ? FM / TILE : FV / TILE);
    const int K = which == 0 ? H : B, mt = (int)(local / (K / 8)), ks = (int)(local % (K / 8));

    for (int j = 0; j < 4; j++) {
        const int64_t r = 16 * mt + g + 8 * (j & 1), k = 8 * ks + t + 4 * (j >> 1);

        if (which == 0)
            out[j * 32 + lane] = startrd_conj(Vg[r * H + k]);
        else if (which == 1)
            out[j * 32 + lane] = upper ? Tg[k * B + r] : startrd_conj(Tg[r * B + k]);
        else
            out[j * 32 + lane] = startrd_scale(-1.0, Vg[k * H + r]);
    }
}

int fused_device(void)
{
    int device, major;

    return cudaGetDevice(&device) == cudaSuccess &&
           cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9;
}

template <class T>
int64_t q2_level_fragment_entries(int64_t kd, int64_t h, int64_t b)
{
    if constexpr (fused_scalar<T>)
        return kd == KD && h == H && b == B && fused_device() ? GROUP : 0;
    else
        return 0;
}

template <class T>
cudaError_t q2_level_fragments(const T *V, const T *Tf, int64_t count, int upper, T *frags, cudaStream_t stream)
{
    if constexpr (fused_scalar<T>) {
        const int64_t threads = count * (GROUP / TILE) * 32;

        if (threads > 0)
            q2_fragments_kernel<T><<<(unsigned)((threads + 255) / 256), 256, 0, stream>>>(V, Tf, count, upper, frags);
        return cudaGetLastError();
    } else
        return cudaErrorNotSupported;
}

template <class T>
cudaError_t q2_level_apply(T *C, int64_t ldc, int64_t cols, int64_t count, int64_t member_rows, const T *frags,
                           int upper, cudaStream_t stream)
{
    if constexpr (fused_scalar<T>) {
        /* The limit is the current device's: raised once per device by each
         * thread that drives one, as for larft_gram. */
        thread_local int raised_on = -1;
        const size_t bytes = level_shared_bytes<T>();
        int device;
        cudaError_t st;

        if (count <= 0 || cols <= 0)
            return cudaSuccess;
        if ((st = cudaGetDevice(&device)) != cudaSuccess)
            return st;
        if (device != raised_on) {
            if ((st = cudaFuncSetAttribute(q2_level_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           (int)bytes)) != cudaSuccess)
                return st;
            raised_on = device;
        }
        q2_level_kernel<T><<<dim3((unsigned)((cols + NC - 1) / NC), (unsigned)count), THREADS, bytes, stream>>>(
            C, ldc, cols, member_rows, frags, upper);
        return cudaGetLastError();
    } else
        return cudaErrorNotSupported;
}

} // namespace

#define Q2_LEVEL(p, T)                                                                                           \
    extern "C" int64_t startrd_cuda_##p##q2_level_fragment_entries(int64_t kd, int64_t h, int64_t b)            \
    {                                                                                                            \
        return q2_level_fragment_entries<T>(kd, h, b);                                                           \
    }                                                                                                            \
    extern "C" cudaError_t startrd_cuda_##p##q2_level_fragments(const T *V, const T *Tf, int64_t count,          \
                                                                int upper, T *frags, cudaStream_t stream)        \
    {                                                                                                            \
        return q2_level_fragments<T>(V, Tf, count, upper, frags, stream);                                        \
    }                                                                                                            \
    extern "C" cudaError_t startrd_cuda_##p##q2_level_apply(T *C, int64_t ldc, int64_t cols, int64_t count,      \
                                                            int64_t member_rows, const T *frags, int upper,      \
                                                            cudaStream_t stream)                                 \
    {                                                                                                            \
        return q2_level_apply<T>(C, ldc, cols, count, member_rows, frags, upper, stream);                        \
    }
STARTRD_FOR_EACH_PRECISION(Q2_LEVEL)
