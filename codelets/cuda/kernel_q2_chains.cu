/* A chunk of Q2's groups (q2_blocks.h) applied by one fused kernel on the
 * FP64 tensor cores: C := C - V M (V^H C) group by group, M = T for Q2 C
 * and T^H for Q2^H C.  A thread block takes 16 columns of C and one chain
 * of groups, those of one group of sweeps, each kd rows below the last: it
 * keeps a window of h rows of its columns in shared memory through the
 * three products of a group, where two strided batched GEMMs per level
 * write V^H C out and read it back, and slides it kd rows to the next
 * group, so that only the kd rows entering and leaving cross to global
 * memory.  It skips the 16 x 8 tiles of V and of the triangular M that
 * hold only zeros, which the batched GEMMs multiply (docs/experiments.md,
 * "A fused kernel for Q2's levels" and "Q2's groups chain by chain").
 *
 * V, T and the factors come from the build (codelet_zapply_q2_blocks.c);
 * startrd_cuda_Xq2_fragments() rewrites them once per chunk in the order
 * mma.m16n8k8 reads its A operand, so that each warp loads a fragment in
 * four coalesced accesses.  Built for double and cuDoubleComplex with
 * kd = 64 (h = 128, b = 64) on compute capability 9.0 and later; elsewhere
 * startrd_cuda_Xq2_fragment_entries() returns 0 and the caller keeps the
 * batched GEMMs. */
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
 * warp's NW blocks of 8 columns; X's row k is at (k + off) mod H, where C
 * is a ring of H rows (off = 0 for W). */
template <class T, int NW>
__device__ __forceinline__ void row_of_slices(double (&accr)[NW][4], double (&acci)[NW][4], const T *tiles, int ks0,
                                              int ks1, const double *Xr, const double *Xi, int ld, int off, int lane)
{
    for (int ks = ks0; ks < ks1; ks++) {
        const int k0 = (8 * ks + off) & (H - 1);
        fragment a;

        load_fragment(a, tiles + ks * TILE, lane);
#pragma unroll
        for (int n = 0; n < NW; n++)
            slice_product<T>(accr[n], acci[n], a, Xr + 8 * n * ld + k0, Xi + 8 * n * ld + k0, ld, lane);
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

size_t q2_chains_sync_bytes(int64_t chains, int64_t cols)
{
    return sizeof(unsigned long long) + sizeof(int) * (size_t)chains * (size_t)((cols + NC - 1) / NC);
}

template <class T>
constexpr size_t window_shared_bytes()
{
    return sizeof(double) * (startrd_scalar<T>::is_complex ? 2 : 1) * NC * ((H + 4) + (B + 4));
}

/* The group whose fragments are at F applied to the window of C in shared
 * memory, its H rows a ring from row off of Cr / Ci, its NC columns LDC
 * apart: W = V^H C, W := M W, C := C - V W.  Four warps, warp p taking
 * rows 16p .. of W and rows 16p .. and 64 + 16p .. of C, all 16 columns. */
template <class T>
__device__ __forceinline__ void group_on_window(const T *F, double *Cr, double *Ci, double *Wr, double *Wi, int off,
                                                int upper, int mt, int lane)
{
    constexpr int LDC = H + 4, LDW = B + 4, NW = NC / 8;
    const int g = lane >> 2, t = lane & 3;

    {
        double ar[NW][4] = {}, ai[NW][4] = {};

        row_of_slices<T, NW>(ar, ai, F + F1 + mt * (H / 8) * TILE, 2 * mt, min(H / 8, (16 * mt + 14 + KD) / 8 + 1),
                             Cr, Ci, LDC, off, lane);
        for (int n = 0; n < NW; n++)
            store_accumulator<T>(Wr + 8 * n * LDW + 16 * mt, Wi + 8 * n * LDW + 16 * mt, LDW, ar[n], ai[n], lane);
    }
    __syncthreads();
    {
        double ar[NW][4] = {}, ai[NW][4] = {};

        row_of_slices<T, NW>(ar, ai, F + FM + mt * (B / 8) * TILE, upper ? 2 * mt : 0, upper ? B / 8 : 2 * mt + 2,
                             Wr, Wi, LDW, 0, lane);
        __syncthreads();
        for (int n = 0; n < NW; n++)
            store_accumulator<T>(Wr + 8 * n * LDW + 16 * mt, Wi + 8 * n * LDW + 16 * mt, LDW, ar[n], ai[n], lane);
    }
    __syncthreads();
    for (int half = 0; half < 2; half++) {
        const int rt = mt + 4 * half, r = 16 * rt + g;
        double ar[NW][4], ai[NW][4];

        for (int n = 0; n < NW; n++)
            for (int e = 0; e < 4; e++) {
                const int at = (8 * n + 2 * t + (e & 1)) * LDC + ((r + 8 * (e >> 1) + off) & (H - 1));

                ar[n][e] = Cr[at];
                ai[n][e] = startrd_scalar<T>::is_complex ? Ci[at] : 0;
            }
        row_of_slices<T, NW>(ar, ai, F + FV + rt * (B / 8) * TILE, max(0, (16 * rt - KD + 1) / 8),
                             min(B / 8, (16 * rt + 15) / 8 + 1), Wr, Wi, LDW, 0, lane);
        for (int n = 0; n < NW; n++)
            for (int e = 0; e < 4; e++) {
                const int at = (8 * n + 2 * t + (e & 1)) * LDC + ((r + 8 * (e >> 1) + off) & (H - 1));

                Cr[at] = ar[n][e];
                if constexpr (startrd_scalar<T>::is_complex)
                    Ci[at] = ai[n][e];
            }
    }
    __syncthreads();
}

/* The steps j of chain S (the groups (S, j) of one group of sweeps, each
 * kd rows below the last) whose levels lie in lo_level .. hi_level-1. */
struct chain_steps {
    int lo, hi;
};

__device__ __forceinline__ chain_steps steps_of_chain(const int64_t *table, int nS, int S, int lo_level, int hi_level)
{
    const int shift = 2 * (nS - 1 - S), count = (int)table[2 * (int64_t)S * B + 1]; /* the chain's first sweep's */

    return chain_steps{max(0, lo_level - shift), min(count, hi_level - shift)};
}

/* Rows lo .. lo+rows-1 of the window (from C's row `row`, ring offset off)
 * between global memory and shared memory, past L1: other blocks change C
 * between this block's steps. */
template <class T>
__device__ __forceinline__ void window_in(double *Cr, double *Ci, const T *C, int64_t ldc, int64_t row, int64_t c0,
                                          int64_t cols, int lo, int rows, int off)
{
    constexpr int LDC = H + 4;

    for (int at = threadIdx.x; at < rows * NC; at += THREADS) {
        const int r = lo + at % rows, c = at / rows, slot = (r + off) & (H - 1);
        const T v = c0 + c < cols ? __ldcg(C + c * ldc + row + r) : startrd_zero<T>();

        Cr[c * LDC + slot] = startrd_real(v);
        if constexpr (startrd_scalar<T>::is_complex)
            Ci[c * LDC + slot] = startrd_imag(v);
    }
}

template <class T>
__device__ __forceinline__ void window_out(const double *Cr, const double *Ci, T *C, int64_t ldc, int64_t row,
                                           int64_t c0, int64_t cols, int lo, int rows, int off)
{
    constexpr int LDC = H + 4;

    for (int at = threadIdx.x; at < rows * NC; at += THREADS) {
        const int r = lo + at % rows, c = at / rows, slot = (r + off) & (H - 1);

        if (c0 + c < cols)
            __stcg(C + c * ldc + row + r,
                   startrd_make<T>(Cr[c * LDC + slot], startrd_scalar<T>::is_complex ? Ci[c * LDC + slot] : 0));
    }
}

/* A chunk of Q2's groups on C, chain by chain.  Block (chain S, tile of NC
 * columns) walks S's steps with a window of H rows of its columns in
 * shared memory, which slides kd rows a step: down for Q2 C, up for
 * Q2^H C.  Each step reads the kd rows that enter and writes the kd that
 * leave, where each group on its own would read and write all H rows.
 * Group (S, j) starts at row (S + j) kd + 1, so it shares rows with the
 * groups (S', j') whose S' + j' is within one of S + j; in Q2 C those of
 * chains S' > S, at steps j' <= j, come before it, and those of chains
 * S' < S, at steps j' >= j, after it (q2_blocks.h).  So before step j a
 * block waits until the block of chain S+1 on its columns has published
 * its steps up to j in `progress`; that one waited likewise on chain S+2,
 * and so on.  Q2^H C runs the other way.  Blocks take their (chain, tile)
 * from a ticket, in the order of the chains: a block waits only on one
 * that started before it, which cannot wait on it. */
template <class T>
__global__ void __launch_bounds__(THREADS, 4)
    q2_chains_kernel(T *C, int64_t ldc, int64_t cols, const T *frags, int64_t chunk_g0, const int64_t *table,
                     int64_t nsweeps, int nS, int chain_lo, int chain_hi, int lo_level, int hi_level,
                     int64_t identity_col0, int forward, int *progress, unsigned long long *ticket)
{
    constexpr int LDC = H + 4, LDW = B + 4;
    constexpr int planes = startrd_scalar<T>::is_complex ? 2 : 1;
    extern __shared__ double shared[];
    __shared__ unsigned long long taken;
    double *Cr = shared, *Ci = Cr + (planes - 1) * NC * LDC, *Wr = Cr + planes * NC * LDC,
           *Wi = Wr + (planes - 1) * NC * LDW;
    const int tid = threadIdx.x, lane = tid & 31, mt = tid >> 5;
    const int tiles = (int)((cols + NC - 1) / NC);

    if (tid == 0)
        taken = atomicAdd(ticket, 1ULL);
    __syncthreads();
    const int y = (int)(taken / (unsigned)tiles), tile = (int)(taken % (unsigned)tiles);
    const int S = forward ? chain_hi - 1 - y : chain_lo + y, other = forward ? S + 1 : S - 1;
    const int64_t c0 = (int64_t)tile * NC;
    const chain_steps mine = steps_of_chain(table, nS, S, lo_level, hi_level);
    const int steps = mine.hi - mine.lo;
    int *done = progress + (int64_t)(S - chain_lo) * tiles + tile;

    if (steps <= 0)
        return;
    /* A block of the identity whose columns are all before the chain's first. */
    if (identity_col0 >= 0 && c0 + NC <= (int64_t)S * B + 1 - identity_col0) {
        if (tid == 0)
            atomicExch(done, steps);
        return;
    }
    const chain_steps before = other >= chain_lo && other < chain_hi
                                   ? steps_of_chain(table, nS, other, lo_level, hi_level)
                                   : chain_steps{0, 0};
    const volatile int *their = progress + (int64_t)(other - chain_lo) * tiles + tile;
    T *Ct = C + c0 * ldc;

    for (int k = 0; k < steps; k++) {
        const int j = forward ? mine.lo + k : mine.hi - 1 - k, off = (k * KD) & (H - 1);
        const int64_t row = (int64_t)(S + j) * KD + 1, at = 2 * (nsweeps + j + 2 * (nS - 1 - S));
        const T *F = frags + (table[at] - chunk_g0 + S - table[at + 1]) * GROUP;

        if (tid == 0 && before.hi > before.lo) {
            const int want = min(max(forward ? j + 1 - before.lo : before.hi - j, 0), before.hi - before.lo);

            while (*their < want)
                __nanosleep(64);
            __threadfence();
        }
        __syncthreads();
        if (k == 0)
            window_in(Cr, Ci, Ct, ldc, row, c0, cols, 0, H, off);
        else
            window_in(Cr, Ci, Ct, ldc, row, c0, cols, forward ? H - KD : 0, KD, off);
        __syncthreads();
        group_on_window<T>(F, Cr, Ci, Wr, Wi, off, forward, mt, lane);
        if (k == steps - 1)
            window_out(Cr, Ci, Ct, ldc, row, c0, cols, 0, H, off);
        else
            window_out(Cr, Ci, Ct, ldc, row, c0, cols, forward ? 0 : H - KD, KD, off);
        __threadfence();
        __syncthreads();
        if (tid == 0)
            atomicExch(done, k + 1);
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
int64_t q2_fragment_entries(int64_t kd, int64_t h, int64_t b)
{
    if constexpr (fused_scalar<T>)
        return kd == KD && h == H && b == B && fused_device() ? GROUP : 0;
    else
        return 0;
}

template <class T>
cudaError_t q2_fragments(const T *V, const T *Tf, int64_t count, int upper, T *frags, cudaStream_t stream)
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
cudaError_t q2_chains_apply(T *C, int64_t ldc, int64_t cols, const T *frags, int64_t chunk_g0, const int64_t *table,
                            int64_t nsweeps, int64_t nS, int64_t chain_lo, int64_t chain_hi, int64_t lo_level,
                            int64_t hi_level, int64_t identity_col0, int forward, void *sync, cudaStream_t stream)
{
    if constexpr (fused_scalar<T>) {
        thread_local int raised_on = -1;
        const size_t bytes = window_shared_bytes<T>();
        const int64_t blocks = (chain_hi - chain_lo) * ((cols + NC - 1) / NC);
        unsigned long long *ticket = (unsigned long long *)sync;
        int device;
        cudaError_t st;

        if (blocks <= 0)
            return cudaSuccess;
        if ((st = cudaGetDevice(&device)) != cudaSuccess)
            return st;
        if (device != raised_on) {
            if ((st = cudaFuncSetAttribute(q2_chains_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           (int)bytes)) != cudaSuccess)
                return st;
            raised_on = device;
        }
        if ((st = cudaMemsetAsync(sync, 0, q2_chains_sync_bytes(chain_hi - chain_lo, cols), stream)) != cudaSuccess)
            return st;
        q2_chains_kernel<T><<<(unsigned)blocks, THREADS, bytes, stream>>>(
            C, ldc, cols, frags, chunk_g0, table, nsweeps, (int)nS, (int)chain_lo, (int)chain_hi, (int)lo_level,
            (int)hi_level, identity_col0, forward, (int *)(ticket + 1), ticket);
        return cudaGetLastError();
    } else
        return cudaErrorNotSupported;
}

} // namespace

#define Q2_FRAGMENTS(p, T)                                                                                       \
    extern "C" int64_t startrd_cuda_##p##q2_fragment_entries(int64_t kd, int64_t h, int64_t b)                  \
    {                                                                                                            \
        return q2_fragment_entries<T>(kd, h, b);                                                                 \
    }                                                                                                            \
    extern "C" cudaError_t startrd_cuda_##p##q2_fragments(const T *V, const T *Tf, int64_t count, int upper,     \
                                                          T *frags, cudaStream_t stream)                         \
    {                                                                                                            \
        return q2_fragments<T>(V, Tf, count, upper, frags, stream);                                              \
    }
STARTRD_FOR_EACH_PRECISION(Q2_FRAGMENTS)

#define Q2_CHAINS(p, T)                                                                                          \
    extern "C" cudaError_t startrd_cuda_##p##q2_chains_apply(                                                    \
        T *C, int64_t ldc, int64_t cols, const T *frags, int64_t chunk_g0, const int64_t *table, int64_t nsweeps, \
        int64_t nS, int64_t chain_lo, int64_t chain_hi, int64_t lo_level, int64_t hi_level, int64_t identity_col0, \
        int forward, void *sync, cudaStream_t stream)                                                            \
    {                                                                                                            \
        return q2_chains_apply<T>(C, ldc, cols, frags, chunk_g0, table, nsweeps, nS, chain_lo, chain_hi,         \
                                  lo_level, hi_level, identity_col0, forward, sync, stream);                     \
    }
STARTRD_FOR_EACH_PRECISION(Q2_CHAINS)

extern "C" size_t startrd_cuda_q2_chains_sync_bytes(int64_t chains, int64_t cols)
{
    return q2_chains_sync_bytes(chains, cols);
}
