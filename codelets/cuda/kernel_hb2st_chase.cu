/* Stage 2 on one GPU: the whole bulge chase of bulge_plan.h in a single
 * launch.  A thread block runs one sweep at a time, kernel after kernel
 * (types 1-3 of kernels_stage2.h), and publishes how far it is through the
 * sweep; before kernel m of sweep s it waits until sweep s-1 has finished
 * kernel min(m+2, K(s-1)-1), the plan's dependency.  Of kernel m+2 it needs
 * only the one entry the two blocks share (the corner, below), which that
 * kernel may publish as soon as it is final.  Sweeps go
 * to the blocks round robin, so hundreds of them advance together, each a
 * few kernels behind the previous one.  The last sweeps, fewer than would
 * fill the GPU, run on two blocks each, one generating the reflectors and
 * the other applying them to the diagonal blocks (run_reflectors()).
 * Waiting on another block is only safe if that block runs: the grid never
 * holds more blocks than fit on the GPU at once.
 *
 * The chase works on a copy of the band in lower storage (an upper band is
 * conjugated into it), so that the blocks a kernel touches are dense
 * column-major with leading dimension ldab-1 and a warp reads 32
 * consecutive rows of a column.  A kernel keeps its block in registers: lane
 * l of warp w holds rows l, l+32, ... of columns w, w+W, ...; sums over
 * columns go through shared memory, sums over rows through warp shuffles
 * (all of a warp's columns in one exchange).
 * The arithmetic is that of the CPU kernels (kernel_zhb2st_common.h): same
 * reflectors (ZLARFG), same two-sided update (ZLARFY), same read-out.
 *
 * Split over several GPUs (startrd_cuda_zhb2st_split_chase()), each sweep is
 * cut into as many stretches of equal length, GPU g running stretch g of
 * every sweep on its own copy of the band; see split_owner below.
 *
 * Everything is a template on the scalar type T (scalar.cuh), instantiated
 * for the four precisions: zhb2st, chb2st, and dsb2st, ssb2st on a
 * symmetric band, where the conjugations vanish, the reflectors are
 * DLARFG's and the diagonal and subdiagonal are read out as they are (the
 * subdiagonal's signs included, as DSYTRD_SB2ST leaves them). */
#include "kernels_cuda.h"
#include "scalar.cuh"
#include "warp_reduce.cuh"

#include <cfloat>
#include <cuda/atomic>

namespace {

/* The real type of T's components, and whether T is complex. */
template <class T>
using real_t = typename startrd_scalar<T>::real;
template <class T>
constexpr bool is_complex = startrd_scalar<T>::is_complex;

/* conj(a) b */
template <class T>
__device__ __forceinline__ T mul_conj(T a, T b)
{
    if constexpr (is_complex<T>)
        return startrd_make<T>(a.x * b.x + a.y * b.y, a.x * b.y - a.y * b.x);
    else
        return a * b;
}

/* The sum over the warp, in every lane; a component at a time. */
template <class T>
__device__ __forceinline__ T warp_sum(T x)
{
    if constexpr (is_complex<T>) {
        return startrd_make<T>(warp_sum(x.x), warp_sum(x.y));
    } else {
        for (int o = 16; o > 0; o >>= 1)
            x += __shfl_xor_sync(0xffffffffu, x, o);
        return x;
    }
}

/* x of lane @p src, in every lane. */
template <class T>
__device__ __forceinline__ T warp_broadcast(const T &x, int src)
{
    if constexpr (is_complex<T>)
        return startrd_make<T>(__shfl_sync(0xffffffffu, x.x, src), __shfl_sync(0xffffffffu, x.y, src));
    else
        return __shfl_sync(0xffffffffu, x, src);
}

template <class T>
struct band {
    T *ab;                 /* lower storage; A(i, j) at ab[i + j*ld], j <= i <= j+2kd */
    int64_t n, kd, ld;     /* ld = ldab - 1 */
    T *hous;               /* NULL: the reflectors are not kept */
    int64_t nrefl;
    int64_t nsweeps;
    int *progress;         /* per sweep: 2 x kernels finished, + 1 once the
                            * running kernel's corner is final; paired, the
                            * reflector block's */
    /* Split chase: this GPU's index and count, and every GPU's band copy,
     * counters and reflectors handed over (per sweep, v then tau: kd+1
     * entries); ab and progress are this GPU's.  ngpu = 1 otherwise. */
    int gpu, ngpu;
    T *abs[STARTRD_CUDA_ZHB2ST_MAX_GPUS];
    int *progresses[STARTRD_CUDA_ZHB2ST_MAX_GPUS];
    T *hands[STARTRD_CUDA_ZHB2ST_MAX_GPUS];
    /* Paired chase (run_reflectors() and run_diagonals() below): the
     * diagonal block's counters, as progress, and per pair of blocks a ring
     * of PAIR_SLOTS reflectors (v then tau, KD+1 entries each). */
    int *progress_d;
    T *slots;
    int64_t paired_from;   /* the first sweep run paired, the ones before one block each */
    bool single_early;     /* those release their corners early */
};

/* Reflectors a pair's reflector block may run ahead of its diagonal block,
 * and most pairs a chase runs on. */
constexpr int PAIR_SLOTS = 4;
constexpr int64_t MAX_PAIRS = 128;

/* Counters of a chase at the start of its scratch, rounded up so that the
 * ring of reflectors after them is aligned. */
__host__ __device__ constexpr int64_t counter_ints(int64_t nsweeps) { return (2 * nsweeps + 3) / 4 * 4; }

/* The plan's index arithmetic (bulge_plan.c), on the device. */
template <class T>
__device__ int64_t sweep_nkernels(const band<T> &b, int64_t s)
{
    int64_t rows = b.n - 1 - s, nblk = (rows + b.kd - 1) / b.kd, last = rows - (nblk - 1) * b.kd;

    return 2 * nblk - 1 - (nblk > 1 && last == 1);
}

/*
 * The split chase.  Sweep s has L = n-1-s rows below its first column;
 * kernels 2J and 2J+1 (the diagonal block and the type-2 block below it)
 * work on window J of the sweep, its columns s+1+J kd .. s+(J+1) kd.  Of G
 * GPUs, GPU g runs the windows J with g L <= G J kd < (g+1) L: an equal
 * share of every sweep, so of the work at every moment.  Window 0 (and
 * column s, which type 1 reduces) is GPU 0's.
 *
 * With kd >= 2 the plan has a sweep for every column but the last, so the
 * last write of every d_i and e_i is in window 0 or type 1, on GPU 0.
 *
 * Every GPU reads only its own copy of the band, and holds every column of
 * the windows it runs current.  From sweep s-1 to s, window J's columns but
 * its first become window J's, and its first column window J-1's last; where
 * the owner changes, the kernels of sweep s-1 write those columns to the new
 * owner too: the first column (written whole by the two kernels of the
 * window) as they store it, the others whole, from the GPU's copy, after
 * the window's last kernel.  The kernel that ends a GPU's stretch of a
 * sweep hands the reflector it generated to the next one's first kernel.
 * A kernel publishes its progress to every GPU it wrote to: that is where
 * the kernels waiting for it (bulge_plan.h) run.  Everything else stays on
 * its GPU: per sweep and bound between GPUs, one column, one reflector and
 * a few counters cross, and a window's other columns every 2 kd sweeps or
 * so, as the bounds move left.
 */

/* The GPU of window J of sweep s, or -1 where there is none.  A last
 * window of one column (row n-1) has no kernel (bulge_plan.h): it goes
 * with the window before, whose last kernel hands it over. */
template <class T>
__device__ int split_owner(const band<T> &b, int64_t s, int64_t J)
{
    const int64_t L = b.n - 1 - s;

    if (s < 0 || s >= b.nsweeps || J < 0 || J * b.kd >= L)
        return -1;
    if (J >= 1 && J * b.kd == L - 1)
        J--;
    return (int)((int64_t)b.ngpu * J * b.kd / L);
}

/* This GPU's kernels of sweep s, of K. */
template <class T>
__device__ void split_kernels(const band<T> &b, int64_t s, int64_t K, int64_t &m_begin, int64_t &m_end)
{
    const int64_t L = b.n - 1 - s, per = (int64_t)b.ngpu * b.kd;

    m_begin = min(K, 2 * ((b.gpu * L + per - 1) / per));
    m_end = min(K, 2 * (((b.gpu + 1) * L + per - 1) / per));
}

__device__ int64_t refl_prefix(int64_t len, int64_t kd)
{
    int64_t q = len / kd, r = len % kd;

    return kd * (q * (q + 1) / 2) + r * (q + 1);
}

template <class T>
__device__ int64_t refl_index(const band<T> &b, int64_t s, int64_t j)
{
    return refl_prefix(b.n - 1, b.kd) - refl_prefix(b.n - 1 - s, b.kd) + j;
}

/* sqrt(x^2 + y^2 + z^2) without overflow, as LAPACK's DLAPY3; with y = 0,
 * the value of DLAPY2(x, z) (of x / w and z / w one is 1). */
template <class R>
__device__ R lapy3(R x, R y, R z)
{
    R w = fmax(fabs(x), fmax(fabs(y), fabs(z)));

    if (w == 0)
        return fabs(x) + fabs(y) + fabs(z);
    return w * sqrt((x / w) * (x / w) + (y / w) * (y / w) + (z / w) * (z / w));
}

/* What of a kernel's block was stored early, for a kernel of the next
 * sweep that shares it. */
enum class released { none, corner, column0 };

/*
 * Kernel state of a block of KD x KD: W warps, RA = KD/32 rows and CB = KD/W
 * columns per thread.
 */
template <class T, int KD, int W>
struct chase_block {
    static constexpr int RA = KD / 32, CB = KD / W;

    T c[RA][CB];
    int lane, warp;

    __device__ int row(int a) const { return lane + 32 * a; }
    __device__ int col(int b) const { return warp + W * b; }

    /* Slot (a, b) lies above the diagonal in every thread.  As a constant
     * expression the compiler drops it from a lower block's loads and
     * products, which it did not from the run-time test, and the chase runs
     * faster (docs/experiments.md, "Figures moved from the code"). */
    __host__ __device__ static constexpr bool above(int a, int b) { return 32 * a + 31 < W * b; }

    /* Entry (i, j) of the rows x cols block at (i0, j0) is held. */
    __device__ bool holds(int a, int b, int rows, int cols, bool lower) const
    {
        return row(a) < rows && col(b) < cols && (!lower || (!above(a, b) && row(a) >= col(b)));
    }

    /* Entry (0, 0), held by thread 0. */
    __device__ bool corner(int a, int b) const { return row(a) == 0 && col(b) == 0; }

    /* The block of the band at (i0, j0), zero where not held.  L1 is
     * bypassed: other blocks wrote these entries. */
    __device__ void load(const band<T> &bd, int64_t i0, int64_t j0, int rows, int cols, bool lower)
    {
#pragma unroll
        for (int a = 0; a < RA; a++)
#pragma unroll
            for (int b = 0; b < CB; b++)
                c[a][b] = holds(a, b, rows, cols, lower)
                              ? __ldcg(bd.ab + (i0 + row(a)) + (j0 + col(b)) * bd.ld)
                              : startrd_zero<T>();
    }

    /* Column 0 of the block into the band at @p ab. */
    __device__ void store_column0(T *ab, int64_t ld, int64_t i0, int64_t j0, int rows, int cols, bool lower) const
    {
        if (warp != 0)
            return;
#pragma unroll
        for (int a = 0; a < RA; a++)
            if (holds(a, 0, rows, cols, lower))
                __stcg(ab + (i0 + row(a)) + j0 * ld, c[a][0]);
    }

    /* Into the band at @p ab, without what was stored and released
     * before. */
    __device__ void store(T *ab, int64_t ld, int64_t i0, int64_t j0, int rows, int cols, bool lower, released rel) const
    {
#pragma unroll
        for (int a = 0; a < RA; a++)
#pragma unroll
            for (int b = 0; b < CB; b++)
                if (holds(a, b, rows, cols, lower) && !(rel == released::corner && corner(a, b)) &&
                    !(rel == released::column0 && col(b) == 0))
                    __stcg(ab + (i0 + row(a)) + (j0 + col(b)) * ld, c[a][b]);
    }
};

template <class T, int KD, int W>
struct chase_shared {
    T v[KD];         /* the sweep's current reflector, zero beyond its length */
    T y[KD];         /* the block times v */
    T part[W][KD];   /* per warp: partial sums over its columns */
    T tau, alpha;
};

/* The largest magnitude of x's components. */
template <class T>
__device__ __forceinline__ real_t<T> max_abs(const T &x)
{
    if constexpr (is_complex<T>)
        return fmax(fabs(x.x), fabs(x.y));
    else
        return fabs(x);
}

/* |x|^2 and |x / r|^2, a component at a time.  These helpers take x by
 * reference: given a copy, the compiler fused the other square of |x|^2
 * into the multiply-add in complex double, which rounds differently. */
template <class T>
__device__ __forceinline__ real_t<T> abs2(const T &x)
{
    if constexpr (is_complex<T>)
        return x.x * x.x + x.y * x.y;
    else
        return x * x;
}

template <class T>
__device__ __forceinline__ real_t<T> abs2_over(const T &x, real_t<T> r)
{
    if constexpr (is_complex<T>)
        return (x.x / r) * (x.x / r) + (x.y / r) * (x.y / r);
    else
        return (x / r) * (x / r);
}

/* Per real type: LAPACK's safe minimum over the relative machine precision
 * (xLAMCH('S') / xLAMCH('E')), by which xLARFG rescales, and the range of
 * the largest entry in which warp_larfg() sums plain squares: inside the
 * thresholds beyond which DNRM2 and SNRM2 scale (Blue's: 2^-511 and 2^486
 * in double, 2^-63 and 2^52 in single), so that 2 (KD + 1) squares neither
 * overflow nor lose more than rounding to underflow. */
template <class R>
struct larfg_range;
template <>
struct larfg_range<double> {
    static constexpr double safmin = DBL_MIN / (DBL_EPSILON / 2), tiny = 0x1p-480, huge = 0x1p+480;
};
template <>
struct larfg_range<float> {
    static constexpr float safmin = FLT_MIN / (FLT_EPSILON / 2), tiny = 0x1p-50f, huge = 0x1p+50f;
};

/*
 * ZLARFG (DLARFG for real T) on x = (x_0, ..., x_{len-1}), entry i in
 * xs[a] of lane i mod 32, a = i / 32, run by one warp.  Returns beta (the
 * new x_0, real), sets tau and turns xs into v with v_0 = 1 (zero beyond
 * len).
 */
template <int RA, class T>
__device__ real_t<T> warp_larfg(int len, T (&xs)[RA], T &tau)
{
    using R = real_t<T>;
    using range = larfg_range<R>;
    const R safmin = range::safmin, rsafmn = 1 / safmin;
    int lane = threadIdx.x & 31;
    T alpha = warp_broadcast(xs[0], 0);
    T s;
    R beta, big = 0, ssq = 0;
    int knt = 0;

    /* The largest entry of x_1.. and the plain sum of their squares, in
     * one pass: exact enough unless the squares could overflow or lose
     * every digit to underflow. */
    auto sums = [&]() {
        big = 0;
        ssq = 0;
#pragma unroll
        for (int a = 0; a < RA; a++)
            if (lane + 32 * a >= 1 && lane + 32 * a < len) {
                big = fmax(big, max_abs(xs[a]));
                ssq += abs2(xs[a]);
            }
        big = startrd_warp_max(big);
        ssq = warp_sum(ssq);
    };
    /* The norm of x_1.. from sums(), scaled by the largest entry, as
     * DZNRM2 guards it, where the plain sum is not enough. */
    auto norm = [&]() -> R {
        if (big == 0)
            return 0;
        if (big > range::tiny && big < range::huge)
            return sqrt(ssq);
        ssq = 0;
#pragma unroll
        for (int a = 0; a < RA; a++)
            if (lane + 32 * a >= 1 && lane + 32 * a < len)
                ssq += abs2_over(xs[a], big);
        return big * sqrt(warp_sum(ssq));
    };

    sums();
    if (big == 0 && startrd_imag(alpha) == 0) {
        tau = startrd_zero<T>();
        if (lane == 0)
            xs[0] = startrd_one<T>();
        return startrd_real(alpha);
    }
    if (big > range::tiny && big < range::huge && fabs(startrd_real(alpha)) < range::huge &&
        fabs(startrd_imag(alpha)) < range::huge) {
        /* No square here overflows, nor underflows beside ssq, and
         * |alpha - beta| >= |beta| > tiny: beta from one square root and
         * 1 / (alpha - beta) from one reciprocal, where DLAPY3 and a scaled
         * complex division put four divisions in a row on the chain; the
         * same values to rounding. */
        if constexpr (is_complex<T>) {
            const R zr = alpha.x - (beta = -copysign(sqrt(ssq + alpha.x * alpha.x + alpha.y * alpha.y), alpha.x));
            const R rb = 1 / beta, rz = 1 / (zr * zr + alpha.y * alpha.y);

            tau = startrd_make<T>(-zr * rb, -alpha.y * rb);
            s = startrd_make<T>(zr * rz, -alpha.y * rz);
        } else {
            /* DLARFG's tau = (beta - alpha) / beta and 1 / (alpha - beta). */
            const R zr = alpha - (beta = -copysign(sqrt(ssq + alpha * alpha), alpha));

            tau = -zr / beta;
            s = 1 / zr;
        }
    } else {
        beta = -copysign(lapy3(startrd_real(alpha), startrd_imag(alpha), norm()), startrd_real(alpha));
        while (fabs(beta) < safmin && knt < 20) {
            knt++;
#pragma unroll
            for (int a = 0; a < RA; a++)
                xs[a] = startrd_scale(rsafmn, xs[a]);
            beta *= rsafmn;
            alpha = startrd_scale(rsafmn, alpha);
        }
        if (knt > 0) {
            sums();
            beta = -copysign(lapy3(startrd_real(alpha), startrd_imag(alpha), norm()), startrd_real(alpha));
        }
        tau = startrd_make<T>((beta - startrd_real(alpha)) / beta, -startrd_imag(alpha) / beta);
        s = startrd_div(startrd_one<T>(), startrd_make<T>(startrd_real(alpha) - beta, startrd_imag(alpha)));
    }
#pragma unroll
    for (int a = 0; a < RA; a++) {
        int i = lane + 32 * a;

        xs[a] = i == 0 ? startrd_one<T>() : i < len ? startrd_mul(xs[a], s) : startrd_zero<T>();
    }
    for (int k = 0; k < knt; k++)
        beta *= safmin;
    return beta;
}

/* How a chase's sweeps follow each other. */
enum class schedule {
    finished, /* one block a sweep, kernel m of sweep s after kernels m+1
               * and m+2 of sweep s-1 finished (run()) */
    paired    /* the last sweeps two blocks each (run_reflectors()), the
               * first one block each, the kernels releasing early what the
               * next sweep shares where the band says so */
};

/* Until *@p counter reaches @p need; at system scope where another GPU
 * publishes it. */
__device__ void wait_for(int *counter, int need, bool system)
{
    if (system) {
        cuda::atomic_ref<int, cuda::thread_scope_system> c(*counter);

        while (c.load(cuda::memory_order_acquire) < need)
            __nanosleep(32);
    } else {
        cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);

        while (c.load(cuda::memory_order_acquire) < need)
            __nanosleep(32);
    }
}

template <class T, int KD, int W, schedule C, bool SPLIT>
class sweep_runner {
    static constexpr bool PAIRED = C == schedule::paired;
    /* A split chase's kernels finish before the next sweep's start: a
     * corner released early would have to reach the other copies too. */
    static_assert(!(SPLIT && PAIRED), "split chases wait for finished kernels");
    using R = real_t<T>;
    using blk_t = chase_block<T, KD, W>;
    static constexpr int RA = blk_t::RA, CB = blk_t::CB;
    /* Real components of T, and lanes that share one of the NP CB sums of
     * column_sums(). */
    static constexpr int NP = is_complex<T> ? 2 : 1, SPAN = 32 / (NP * CB);

    const band<T> &bd;
    chase_shared<T, KD, W> &sh;
    blk_t blk;
    int64_t s, m;   /* the sweep and its running kernel (paired: of this block's) */
    int *own;       /* the counter this block publishes its progress on */
    bool handing = false; /* paired: this block hands its reflectors to the diagonal block */
    /* Kernels release their corners early (release_corner()); what a
     * diagonal kernel releases (its first column in run_diagonals()). */
    bool early;
    released diag_rel;
    /* Split: the other GPUs kernel m writes to, or -1: the one that owns
     * its window's first column next sweep, the one that owns its other
     * columns then (written after the window's last kernel), and the one
     * that runs the sweep's next kernel. */
    int col0_to = -1, rest_to = -1, next_to = -1;

public:
    __device__ sweep_runner(const band<T> &b, chase_shared<T, KD, W> &shared, int64_t sweep)
        : bd(b), sh(shared), s(sweep), own(b.progress + sweep), early(PAIRED && b.single_early),
          diag_rel(early ? released::corner : released::none)
    {
        blk.lane = threadIdx.x & 31;
        blk.warp = threadIdx.x >> 5;
    }

    /* Warp 0 keeps reflector j of the sweep, of length len, in HOUS. */
    __device__ void keep(int64_t j, int len, const T (&vs)[RA], T tau)
    {
        if (bd.hous == nullptr)
            return;
        int64_t r = refl_index(bd, s, j);

        if (blk.lane == 0)
            bd.hous[r] = tau;
#pragma unroll
        for (int a = 0; a < RA; a++)
            if (blk.row(a) < len)
                bd.hous[bd.nrefl + r * bd.kd + blk.row(a)] = vs[a];
    }

    /*
     * Thread 0: entry (0, 0) of the kernel's block, A(i, j), is final.  It
     * is the only entry that kernel m-2 of sweep s+1 shares with this one
     * (the last diagonal entry of its block, or its type-2 block's last row
     * and column), so that kernel may start now instead of after this one:
     * the chain from sweep to sweep is about half a kernel shorter.  The
     * entry is stored here and left out of the block's store, which may
     * come after sweep s+1 has changed it.  The release's fence stalls the
     * kernel a little; a release later in the kernel was slower still.
     */
    __device__ void release_corner(int64_t i, int64_t j, T x) const
    {
        __stcg(bd.ab + i + j * bd.ld, x);
        release_half();
    }

    /* What the running kernel shares with the next sweep is stored: the
     * odd count between two kernels finished.  Thread 0, or lane 0 of a
     * warp after the warp's stores and __syncwarp(). */
    __device__ void release_half() const
    {
        cuda::atomic_ref<int, cuda::thread_scope_device>(*own).store(2 * (int)m + 1, cuda::memory_order_release);
    }

    /* Until sweep s-1's progress reaches @p need, published by another GPU
     * if @p remote. */
    __device__ void wait_previous(int need, bool remote = false) const
    {
        wait_for(bd.progress + s - 1, need, remote);
    }

    /* The block to the band, its first column to the GPU that owns it
     * next sweep. */
    __device__ void store(int64_t i0, int64_t j0, int rows, int cols, bool lower, released rel) const
    {
        blk.store(bd.ab, bd.ld, i0, j0, rows, cols, lower, rel);
        if (SPLIT && col0_to >= 0)
            blk.store_column0(bd.abs[col0_to], bd.ld, i0, j0, rows, cols, lower);
    }

    /* Split, every thread, after the barrier that follows kernel m's
     * stores: what other GPUs take over from it (see split_owner). */
    __device__ void hand_over(int64_t st) const
    {
        if (rest_to >= 0) {
            /* Columns st+1 .. st+kd-1, and column n-1 where it is a window
             * of its own, whole: a column's entries lie in one stretch of
             * ldab = ld+1. */
            const int64_t lo = (st + 1) * (bd.ld + 1),
                          hi = (st + bd.kd == bd.n - 1 ? bd.n : min(st + bd.kd, bd.n)) * (bd.ld + 1);

            for (int64_t i = lo + threadIdx.x; i < hi; i += blockDim.x)
                __stcg(bd.abs[rest_to] + i, __ldcg(bd.ab + i));
        }
        if (next_to >= 0) {
            T *h = bd.hands[next_to] + s * (bd.kd + 1);

            for (int i = threadIdx.x; i < bd.kd; i += blockDim.x)
                __stcg(h + i, sh.v[i]);
            if (threadIdx.x == 0)
                __stcg(h + bd.kd, sh.tau);
        }
    }

    /* Split, every thread, before this GPU's first kernel of the sweep:
     * the reflector the previous GPU handed over. */
    __device__ void take_over() const
    {
        const T *h = bd.hands[bd.gpu] + s * (bd.kd + 1);

        for (int i = threadIdx.x; i < KD; i += blockDim.x)
            sh.v[i] = i < bd.kd ? __ldcg(h + i) : startrd_zero<T>();
        if (threadIdx.x == 0)
            sh.tau = __ldcg(h + bd.kd);
        __syncthreads();
    }

    /* Thread 0, after the barrier that follows every store of kernel m:
     * it is finished, on every GPU it wrote to, at system scope there (the
     * barrier orders the block's stores before the release, which is
     * cumulative). */
    __device__ void finish() const
    {
        const int v = 2 * (int)(m + 1);

        if (SPLIT && (col0_to >= 0 || rest_to >= 0 || next_to >= 0)) {
            const int to[] = {bd.gpu, col0_to, rest_to, next_to};

            for (int g : to)
                if (g >= 0)
                    cuda::atomic_ref<int, cuda::thread_scope_system>(bd.progresses[g][s])
                        .store(v, cuda::memory_order_release);
            return;
        }
        cuda::atomic_ref<int, cuda::thread_scope_device>(*own).store(v, cuda::memory_order_release);
    }

    /* Warp 0: v, tau to shared memory. */
    __device__ void publish(const T (&vs)[RA], T tau)
    {
#pragma unroll
        for (int a = 0; a < RA; a++)
            sh.v[blk.row(a)] = vs[a];
        if (blk.lane == 0)
            sh.tau = tau;
    }

    /* Paired: slot j of this pair's ring of reflectors. */
    __device__ T *pair_slot(int64_t j) const
    {
        return bd.slots + ((int64_t)(blockIdx.x / 2) * PAIR_SLOTS + j % PAIR_SLOTS) * (KD + 1);
    }

    /* Paired, warp 0: reflector j (v, zero beyond its length, then tau) to
     * the ring, where the diagonal block takes it (take_reflector()). */
    __device__ void hand_to_diagonal(int64_t j, const T (&vs)[RA], T tau) const
    {
        T *slot = pair_slot(j);

#pragma unroll
        for (int a = 0; a < RA; a++)
            __stcg(slot + blk.row(a), vs[a]);
        if (blk.lane == 0)
            __stcg(slot + KD, tau);
    }

    /* Paired, every thread: reflector j from the ring to shared memory. */
    __device__ void take_reflector(int64_t j)
    {
        const T *slot = pair_slot(j);

        for (int i = threadIdx.x; i <= KD; i += blockDim.x) {
            T x = __ldcg(slot + i);

            if (i < KD)
                sh.v[i] = x;
            else
                sh.tau = x;
        }
        __syncthreads();
    }

    /* The sums over the warp's rows of its columns' q[b] (startrd_warp_sums),
     * a component at a time: lane l returns component l / SPAN % NP of
     * column l / SPAN / NP's. */
    __device__ R column_sums(const T (&q)[CB]) const
    {
        R parts[NP * CB];

#pragma unroll
        for (int b = 0; b < CB; b++) {
            if constexpr (is_complex<T>) {
                parts[2 * b] = q[b].x;
                parts[2 * b + 1] = q[b].y;
            } else {
                parts[b] = q[b];
            }
        }
        return startrd_warp_sums<NP * CB>(parts, blk.lane);
    }

    /* Column b's sum from the @p sum of column_sums(), in every lane. */
    __device__ T column_sum(R sum, int b) const
    {
        if constexpr (is_complex<T>)
            return startrd_make<T>(__shfl_sync(0xffffffffu, sum, 2 * b * SPAN),
                                   __shfl_sync(0xffffffffu, sum, (2 * b + 1) * SPAN));
        else
            return __shfl_sync(0xffffffffu, sum, b * SPAN);
    }

    /* sh.y = (the block) * sh.v over its first len rows, from partial sums. */
    __device__ void sum_rows(T (&p)[RA])
    {
#pragma unroll
        for (int a = 0; a < RA; a++)
            sh.part[blk.warp][blk.row(a)] = p[a];
        __syncthreads();
        for (int i = threadIdx.x; i < KD; i += blockDim.x) {
            T t = sh.y[i];

#pragma unroll
            for (int w = 0; w < W; w++)
                t = startrd_add(t, sh.part[w][i]);
            sh.y[i] = t;
        }
        __syncthreads();
    }

    /*
     * A(st:st+len-1, st:st+len-1) := G A G^H, G = I - g v v^H with g =
     * conj(tau) (the H^H A H of the plan), on the lower triangle; ZLARFY's
     * arithmetic as in kernel_zreflect_hermitian.c, the diagonal kept real.
     */
    __device__ void apply_diag(int64_t st, int len)
    {
        T g = startrd_conj(sh.tau);
        T p[RA];

        if (startrd_real(g) == 0 && startrd_imag(g) == 0) {
            /* The block stays as it is, where the next owner of its first
             * column may not have it. */
            if (SPLIT && col0_to >= 0) {
                blk.load(bd, st, st, len, len, true);
                blk.store_column0(bd.abs[col0_to], bd.ld, st, st, len, len, true);
            }
            return;
        }
        blk.load(bd, st, st, len, len, true);
        /* y = A v from the lower triangle: (i, j), i > j, gives A_ij v_j to
         * y_i (a sum over columns) and conj(A_ij) v_i to y_j (over rows). */
        T q[CB];

#pragma unroll
        for (int a = 0; a < RA; a++)
            p[a] = startrd_zero<T>();
#pragma unroll
        for (int b = 0; b < CB; b++) {
            T vj = sh.v[blk.col(b)];

            q[b] = startrd_zero<T>();
#pragma unroll
            for (int a = 0; a < RA; a++) {
                int i = blk.row(a), j = blk.col(b);

                if (blk_t::above(a, b))
                    continue;
                if (i > j) {
                    p[a] = startrd_add(p[a], startrd_mul(blk.c[a][b], vj));
                    q[b] = startrd_add(q[b], mul_conj(blk.c[a][b], sh.v[i]));
                } else if (i == j) {
                    p[a] = startrd_add(p[a], startrd_scale(startrd_real(blk.c[a][b]), vj));
                }
            }
        }
        {
            R sum = column_sums(q);

            if (blk.lane % SPAN == 0)
                reinterpret_cast<R *>(sh.y)[NP * blk.col(blk.lane / SPAN / NP) + blk.lane / SPAN % NP] = sum;
        }
        sum_rows(p);
        /* w = y + alpha v, alpha = -1/2 g (y^H v). */
        if (blk.warp == 0) {
            T d = startrd_zero<T>();

            for (int i = blk.lane; i < KD; i += 32)
                d = startrd_add(d, mul_conj(sh.y[i], sh.v[i]));
            d = warp_sum(d);
            if (blk.lane == 0)
                sh.alpha = startrd_scale(R(-0.5), startrd_mul(g, d));
        }
        __syncthreads();
        T alpha = sh.alpha, vi[RA], wi[RA];

#pragma unroll
        for (int a = 0; a < RA; a++) {
            vi[a] = sh.v[blk.row(a)];
            wi[a] = startrd_add(sh.y[blk.row(a)], startrd_mul(alpha, vi[a]));
        }
        /* A += -g v w^H - conj(g) w v^H in ZHER2's order: per column,
         * t1 = -g conj(w_j) and t2 = conj(-g v_j), then A_ij += v_i t1 +
         * w_i t2 (the diagonal's real part only). */
        auto column = [&](int b, T &t1, T &t2) {
            T vj = sh.v[blk.col(b)], wj = startrd_add(sh.y[blk.col(b)], startrd_mul(alpha, vj));

            t1 = startrd_mul(startrd_neg(g), startrd_conj(wj));
            t2 = startrd_conj(startrd_mul(startrd_neg(g), vj));
        };
        auto entry = [&](int a, int b, T t1, T t2) {
            int i = blk.row(a), j = blk.col(b);
            T t = startrd_add(startrd_mul(vi[a], t1), startrd_mul(wi[a], t2));

            if (i > j)
                blk.c[a][b] = startrd_add(blk.c[a][b], t);
            else if (i == j)
                blk.c[a][b] = startrd_make<T>(startrd_real(blk.c[a][b]) + startrd_real(t), 0);
        };
        T t1, t2;

        if (diag_rel == released::corner && threadIdx.x == 0) {
            column(0, t1, t2);
            entry(0, 0, t1, t2);
            release_corner(st, st, blk.c[0][0]);
        }
        /* Paired: column 0 is all that type-2 kernel m-1 of the next sweep
         * shares with this block, and warp 0 holds it. */
        if (PAIRED && diag_rel == released::column0 && blk.warp == 0) {
            column(0, t1, t2);
#pragma unroll
            for (int a = 0; a < RA; a++)
                entry(a, 0, t1, t2);
            blk.store_column0(bd.ab, bd.ld, st, st, len, len, true);
            __syncwarp();
            if (blk.lane == 0)
                release_half();
        }
#pragma unroll
        for (int b = 0; b < CB; b++) {
            if (PAIRED && diag_rel == released::column0 && blk.col(b) == 0)
                continue;
            column(b, t1, t2);
#pragma unroll
            for (int a = 0; a < RA; a++)
                if (!(diag_rel == released::corner && blk.corner(a, b)))
                    entry(a, b, t1, t2);
        }
        store(st, st, len, len, true, diag_rel);
    }

    /* Type 1: reflector 0 from column s, then the diagonal block. */
    __device__ void type1(int64_t st, int len)
    {
        first_reflector(st, len);
        __syncthreads();
        apply_diag(st, len);
    }

    /* Reflector 0 from column s, to shared memory (and, paired, to the
     * diagonal block). */
    __device__ void first_reflector(int64_t st, int len)
    {
        if (blk.warp == 0) {
            T xs[RA], tau;
            const int64_t base = st + s * bd.ld;

#pragma unroll
            for (int a = 0; a < RA; a++)
                xs[a] = blk.row(a) < len ? __ldcg(bd.ab + base + blk.row(a)) : startrd_zero<T>();
            R beta = warp_larfg<RA>(len, xs, tau);

#pragma unroll
            for (int a = 0; a < RA; a++)
                if (blk.row(a) < len)
                    __stcg(bd.ab + base + blk.row(a), blk.row(a) == 0 ? startrd_make<T>(beta) : startrd_zero<T>());
            publish(xs, tau);
            keep(0, len, xs, tau);
            if (PAIRED && handing)
                hand_to_diagonal(0, xs, tau);
        }
    }

    /*
     * Type 2 on block (st, st+kd-1), applying reflector j-1 and generating
     * reflector j: C = A(j1:j1+lm-1, st:st+kd-1) := C H, then the new
     * reflector from C's first column and C(:, 1:) := G C(:, 1:) with
     * G = I - conj(tau') v' v'^H.
     */
    __device__ void type2(int64_t st, int64_t j)
    {
        const int64_t j1 = st + bd.kd;
        const int lm = (int)min(bd.kd, bd.n - j1), kd = (int)bd.kd;
        T tau = sh.tau;
        T p[RA];

        blk.load(bd, j1, st, lm, kd, false);
#pragma unroll
        for (int a = 0; a < RA; a++) {
            p[a] = startrd_zero<T>();
#pragma unroll
            for (int b = 0; b < CB; b++)
                p[a] = startrd_add(p[a], startrd_mul(blk.c[a][b], sh.v[blk.col(b)]));
        }
        for (int i = threadIdx.x; i < KD; i += blockDim.x)
            sh.y[i] = startrd_zero<T>();
        sum_rows(p);
        /* C -= tau y v^H */
#pragma unroll
        for (int a = 0; a < RA; a++) {
            T ty = startrd_mul(tau, sh.y[blk.row(a)]);

#pragma unroll
            for (int b = 0; b < CB; b++)
                blk.c[a][b] = startrd_sub(blk.c[a][b], startrd_mul(ty, startrd_conj(sh.v[blk.col(b)])));
        }
        __syncthreads();
        if (blk.warp == 0) {
            T xs[RA], taun;

#pragma unroll
            for (int a = 0; a < RA; a++)
                xs[a] = blk.c[a][0];
            R beta = warp_larfg<RA>(lm, xs, taun);

#pragma unroll
            for (int a = 0; a < RA; a++)
                blk.c[a][0] = blk.row(a) == 0 ? startrd_make<T>(beta) : startrd_zero<T>();
            if (PAIRED && handing) {
                hand_to_diagonal(j, xs, taun);
                __syncwarp();
            }
            if (early && blk.lane == 0)
                release_corner(j1, st, blk.c[0][0]);
            publish(xs, taun);
            keep(j, lm, xs, taun);
        }
        __syncthreads();
        T gc = startrd_conj(sh.tau), z[CB], vr[RA];

        /* z_j = v'^H C(:, j), a sum over rows: within the warp (column 0,
         * the new reflector's, is left as it is). */
#pragma unroll
        for (int a = 0; a < RA; a++)
            vr[a] = sh.v[blk.row(a)];
#pragma unroll
        for (int b = 0; b < CB; b++) {
            z[b] = startrd_zero<T>();
#pragma unroll
            for (int a = 0; a < RA; a++)
                z[b] = startrd_add(z[b], mul_conj(vr[a], blk.c[a][b]));
        }
        R sum = column_sums(z);

#pragma unroll
        for (int b = 0; b < CB; b++) {
            T zb = startrd_mul(gc, column_sum(sum, b));

            if (blk.col(b) == 0)
                continue;
#pragma unroll
            for (int a = 0; a < RA; a++)
                blk.c[a][b] = startrd_sub(blk.c[a][b], startrd_mul(vr[a], zb));
        }
        store(j1, st, lm, kd, false, early ? released::corner : released::none);
    }

    /* Paired: the counts sweep @p t's reflector and diagonal blocks end
     * with. */
    __device__ void paired_ends(int64_t t, int &end_r, int &end_d) const
    {
        const int64_t K = sweep_nkernels(bd, t);

        end_r = 2 * (int)(K / 2 + 1);
        end_d = 2 * (int)((K + 1) / 2);
    }

    /* Paired, thread 0: until sweep s-1's reflector block has published
     * @p need_r and its diagonal block @p need_d, or, where that sweep ran
     * on one block, until it has published @p need_one; or it finished. */
    __device__ void wait_paired_previous(int need_r, int need_d, int need_one) const
    {
        int end_r, end_d;

        if (s == 0)
            return;
        if (s - 1 < bd.paired_from) {
            wait_for(bd.progress + s - 1, min(need_one, 2 * (int)sweep_nkernels(bd, s - 1)), false);
            return;
        }
        paired_ends(s - 1, end_r, end_d);
        wait_for(bd.progress + s - 1, min(need_r, end_r), false);
        wait_for(bd.progress_d + s - 1, min(need_d, end_d), false);
    }

    /*
     * Paired chase: two blocks run sweep s.  This one generates the
     * reflectors: its kernel 0 that of column s (type 1's first half),
     * kernel J+1 the plan's type-2 kernel 2J+1, each handing the reflector
     * it makes to the other block (run_diagonals()), which applies it to
     * the diagonal blocks.  Type-2 kernel 2J+1 and diagonal kernel 2J touch
     * disjoint blocks and need only reflector J, so they run together: a
     * sweep trails the one before by a type-2 kernel and the next one's
     * ZLARFG, not by a diagonal kernel, a type-2 kernel and that.  Of sweep
     * s-1, kernel m waits for this block's kernel m finished and kernel
     * m+1's corner, and for the first column of diagonal kernel m (the
     * plan's kernels m+1 and m+2 of that sweep, released early).
     * @p prev is the pair's previous sweep, or -1.
     */
    __device__ void run_reflectors(int64_t prev)
    {
        const int64_t K = sweep_nkernels(bd, s);

        handing = early = true;
        for (m = 0; m <= K / 2; m++) {
            if (threadIdx.x == 0) {
                /* One block a sweep: the plan's kernel 2m finished (its
                 * first column with it) and 2m+1's corner, or 2m+1
                 * finished where corners wait for their kernel. */
                wait_paired_previous(2 * (int)m + 3, 2 * (int)m + 1, 4 * (int)m + 3 + !bd.single_early);
                /* The ring slot about to be written is free once the
                 * diagonal block has finished with the reflector in it. */
                if (m >= PAIR_SLOTS) {
                    wait_for(bd.progress_d + s, 2 * (int)(m - PAIR_SLOTS + 1), false);
                } else if (m == 0 && prev >= 0) {
                    int end_r, end_d;

                    paired_ends(prev, end_r, end_d);
                    wait_for(bd.progress_d + prev, end_d, false);
                }
            }
            __syncthreads();
            if (m == 0)
                first_reflector(s + 1, (int)min(bd.kd, bd.n - s - 1));
            else
                type2(s + 1 + (m - 1) * bd.kd, m);
            __syncthreads();
            if (threadIdx.x == 0)
                finish();
        }
    }

    /* Paired: the diagonal kernels 2J of sweep s, kernel J of this block,
     * each once reflector J is out and, of sweep s-1, type-2 kernel 2J+1
     * finished, diagonal kernel 2J finished and 2J+2's first column
     * released. */
    __device__ void run_diagonals()
    {
        const int64_t K = sweep_nkernels(bd, s);

        own = bd.progress_d + s;
        early = true;
        diag_rel = released::column0;
        for (m = 0; m < (K + 1) / 2; m++) {
            const int64_t st = s + 1 + m * bd.kd;

            if (threadIdx.x == 0) {
                wait_for(bd.progress + s, 2 * (int)m + 1, false);
                /* One block a sweep: the plan's kernel 2m+1 finished and
                 * 2m+2's corner, or 2m+2 finished. */
                wait_paired_previous(2 * (int)m + 4, 2 * (int)m + 3, 4 * (int)m + 5 + !bd.single_early);
            }
            __syncthreads();
            take_reflector(m);
            apply_diag(st, (int)min(bd.kd, bd.n - st));
            __syncthreads();
            if (threadIdx.x == 0)
                finish();
        }
    }

    __device__ void run()
    {
        const int64_t K = sweep_nkernels(bd, s), Kprev = s > 0 ? sweep_nkernels(bd, s - 1) : 0;
        int64_t m_begin = 0, m_end = K;

        if (SPLIT)
            split_kernels(bd, s, K, m_begin, m_end);
        for (m = m_begin; m < m_end; m++) {
            bool remote = false;

            if (SPLIT) {
                const int64_t J = m / 2;
                auto other = [&](int g) { return g == bd.gpu ? -1 : g; };

                col0_to = J >= 1 ? other(split_owner(bd, s + 1, J - 1)) : -1;
                rest_to = m % 2 == 1 || m == K - 1 ? other(split_owner(bd, s + 1, J)) : -1;
                next_to = m == m_end - 1 && m_end < K ? other(split_owner(bd, s, m_end / 2)) : -1;
                /* Kernel m+2 of sweep s-1, or its last, on another GPU. */
                remote = s > 0 && split_owner(bd, s - 1, min(m + 2, Kprev - 1) / 2) != bd.gpu;
                /* The previous GPU's stretch of this sweep. */
                if (m == m_begin && m > 0 && threadIdx.x == 0)
                    wait_for(bd.progress + s, 2 * (int)m, true);
            }
            if (s > 0 && threadIdx.x == 0) {
                /* Kernel m+1 finished, and m+2's corner final (or m+2
                 * finished); a short sweep before this one finished. */
                int need = m + 2 >= Kprev ? 2 * (int)Kprev
                         : early          ? 2 * (int)(m + 2) + 1
                                          : 2 * (int)(m + 3);

                wait_previous(need, remote);
            }
            __syncthreads();
            int64_t J = m / 2, st = s + 1 + J * bd.kd;
            int len = (int)min(bd.kd, bd.n - st);

            if (SPLIT && m == m_begin && m > 0)
                take_over();

            if (m == 0)
                type1(st, len);
            else if (m % 2 == 1)
                type2(st, J + 1);
            else
                apply_diag(st, len);
            /* The barrier orders every thread's stores before thread 0's
             * release at device scope (causality is transitive), which the
             * next sweep's acquire then sees: no fence per thread. */
            __syncthreads();
            if (SPLIT && (rest_to >= 0 || next_to >= 0)) {
                hand_over(st);
                __syncthreads();
            }
            if (threadIdx.x == 0)
                finish();
        }
    }
};

/* MINB blocks per SM at least: enough sweeps in flight for the registers
 * a block's tile takes. */
template <class T, int KD, int W, int MINB, schedule C, bool SPLIT = false>
__global__ void __launch_bounds__(32 * W, MINB) hb2st_chase_kernel(band<T> bd)
{
    __shared__ chase_shared<T, KD, W> sh;

    /* Paired: the sweeps before the first paired one run one block each. */
    const int64_t singles = C == schedule::paired ? bd.paired_from : bd.nsweeps;

    for (int64_t s = blockIdx.x; s < singles; s += gridDim.x) {
        sweep_runner<T, KD, W, C, SPLIT> r(bd, sh, s);

        r.run();
        __syncthreads();
    }
    if constexpr (C == schedule::paired) {
        const int64_t pairs = gridDim.x / 2;

        for (int64_t s = singles + blockIdx.x / 2; s < bd.nsweeps; s += pairs) {
            sweep_runner<T, KD, W, C, SPLIT> r(bd, sh, s);

            if (blockIdx.x % 2 == 0)
                r.run_reflectors(s - pairs >= singles ? s - pairs : -1);
            else
                r.run_diagonals();
            __syncthreads();
        }
    }
}

/* The user's band (either storage, ldab = 2kd+1) into the working lower
 * band, bulge rows zeroed. */
template <class T>
__global__ void band_to_lower_kernel(char uplo, int64_t n, int64_t kd, const T *in, T *out)
{
    int64_t ldab = 2 * kd + 1, j = blockIdx.x;

    for (int64_t r = threadIdx.x; r < ldab; r += blockDim.x) {
        T x = startrd_zero<T>();

        if (r <= kd && j + r < n)
            x = uplo == 'L' ? in[r + j * ldab] : startrd_conj(in[2 * kd - r + (j + r) * ldab]);
        out[r + j * ldab] = x;
    }
}

/* The diagonal and subdiagonal of the chased band: real in every
 * precision (ZLARFG's beta, the diagonal kept real). */
template <class T>
__global__ void tridiag_kernel(int64_t n, int64_t ldab, const T *ab, real_t<T> *d, real_t<T> *e)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        d[i] = startrd_real(ab[i * ldab]);
        if (i < n - 1)
            e[i] = startrd_real(ab[1 + i * ldab]);
    }
}

/* How many blocks of the chase kernel the GPU holds at once. */
template <class T, int KD, int W, int MINB, schedule C, bool SPLIT = false>
cudaError_t resident_blocks(int64_t *resident)
{
    int device, nsm, per_sm;
    cudaError_t err;

    if ((err = cudaGetDevice(&device)) != cudaSuccess ||
        (err = cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess ||
        (err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hb2st_chase_kernel<T, KD, W, MINB, C, SPLIT>,
                                                             32 * W, 0)) != cudaSuccess)
        return err;
    if (per_sm < 1)
        return cudaErrorInvalidConfiguration;
    *resident = (int64_t)nsm * per_sm;
    return cudaSuccess;
}

/* On at most @p resident blocks, those of this kernel the GPU holds at
 * once: a block may wait for any other. */
template <class T, int KD, int W, int MINB, schedule C, bool SPLIT = false>
cudaError_t launch_chase_on(const band<T> &bd, int64_t resident, cudaStream_t stream)
{
    const int64_t blocks = C == schedule::paired ? 2 * min(min(resident / 2, bd.nsweeps), MAX_PAIRS)
                                                : min(resident, bd.nsweeps);

    hb2st_chase_kernel<T, KD, W, MINB, C, SPLIT><<<(unsigned)blocks, 32 * W, 0, stream>>>(bd);
    return cudaGetLastError();
}

template <int KD, int W, int MINB, schedule C, bool SPLIT = false, class T>
cudaError_t launch_chase(const band<T> &bd, cudaStream_t stream)
{
    int64_t resident;
    cudaError_t err = resident_blocks<T, KD, W, MINB, C, SPLIT>(&resident);

    return err != cudaSuccess ? err : launch_chase_on<T, KD, W, MINB, C, SPLIT>(bd, resident, stream);
}

/*
 * The sweeps within kd x (the blocks the GPU holds) rows of the end run
 * paired: from there on fewer sweeps could run at once than the GPU holds
 * blocks, and the chain from sweep to sweep, which pairs shorten by about
 * a third, bounds the chase.  The sweeps before are long enough to fill the
 * GPU one block each, where a second block would idle beside the first.
 * Their corners are released early while the sweeps that could run at once
 * (about 2n / 3kd) are at most twice the blocks, as the kernels' fences
 * cost more than the chain saves beyond.  With pairs the chase is faster
 * at kd = 48 and 64 at every order measured, and at kd = 128 but for the
 * largest; bounds of the paired rows on either side of this one did no
 * better (docs/experiments.md, "Two blocks a sweep" and "Figures moved
 * from the code").
 */
template <int KD, int W, class T>
cudaError_t launch_chase_by_chain(const band<T> &bd, cudaStream_t stream)
{
    int64_t resident;
    cudaError_t err = resident_blocks<T, KD, W, 1, schedule::paired>(&resident);

    if (err != cudaSuccess)
        return err;
    if (resident < 2)
        return launch_chase<KD, W, 1, schedule::finished>(bd, stream);
    band<T> b = bd;

    b.paired_from = max(bd.n - bd.kd * resident, (int64_t)0);
    b.single_early = bd.n <= 3 * bd.kd * resident;
    return launch_chase_on<T, KD, W, 1, schedule::paired>(b, resident, stream);
}

/* The working lower band from the user's, and the counters zeroed. */
template <class T>
cudaError_t prepare(char uplo, int64_t n, int64_t kd, const T *AB, T *work, int *progress, int64_t nsweeps,
                    int64_t counters, cudaStream_t stream)
{
    band_to_lower_kernel<<<(unsigned)n, 128, 0, stream>>>(uplo, n, kd, AB, work);
    cudaError_t err = cudaGetLastError();

    if (err == cudaSuccess && nsweeps > 0)
        err = cudaMemsetAsync(progress, 0, (size_t)counters * sizeof *progress, stream);
    return err;
}

/* d and e from the chased band. */
template <class T>
cudaError_t launch_tridiag(int64_t n, int64_t ldab, const T *work, real_t<T> *d, real_t<T> *e, cudaStream_t stream)
{
    tridiag_kernel<<<(unsigned)((n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024), 256, 0, stream>>>(n, ldab, work,
                                                                                                  d, e);
    return cudaGetLastError();
}

/* What both halves of a split chase take. */
template <class Split>
bool split_valid(const Split *split, int gpu, int64_t n, int64_t kd)
{
    return kd >= 2 && kd <= STARTRD_CUDA_ZHB2ST_MAX_KD && n >= 1 && split->ngpu >= 2 &&
           split->ngpu <= STARTRD_CUDA_ZHB2ST_MAX_GPUS && gpu >= 0 && gpu < split->ngpu;
}

} // namespace

template <typename T>
static int64_t hb2st_scratch_ints(int64_t nsweeps)
{
    const int64_t ints_per_entry = sizeof(T) / sizeof(int);

    return counter_ints(nsweeps) + MAX_PAIRS * PAIR_SLOTS * (STARTRD_CUDA_ZHB2ST_MAX_KD + 1) * ints_per_entry;
}

template <typename T>
static cudaError_t hb2st(char uplo, int64_t n, int64_t kd, const T *AB, T *work, int *progress, int64_t nsweeps,
                         T *hous, int64_t nrefl, real_t<T> *d, real_t<T> *e, cudaStream_t stream)
{
    const int64_t ldab = 2 * kd + 1;
    band<T> bd = {work, n, kd, ldab - 1, hous, nrefl, nsweeps, progress, 0, 1, {work}, {progress}, {},
                  progress + nsweeps, reinterpret_cast<T *>(progress + counter_ints(nsweeps))};
    cudaError_t err;

    if (kd < 1 || kd > STARTRD_CUDA_ZHB2ST_MAX_KD || n < 1)
        return cudaErrorInvalidValue;
    if ((err = prepare(uplo, n, kd, AB, work, progress, nsweeps, 2 * nsweeps, stream)) != cudaSuccess)
        return err;
    if (nsweeps > 0) {
        if (hous != nullptr &&
            (err = cudaMemsetAsync(hous, 0, (size_t)nrefl * (size_t)(kd + 1) * sizeof *hous, stream)) !=
                cudaSuccess)
            return err;
        /* Warps per block, as measured (docs/experiments.md, "Figures moved
         * from the code"): at kd <= 32 eight beat four and sixteen; at
         * kd <= 64 sixteen, one block per SM, beat eight, two per SM, since a
         * sweep's kernels follow each other on the chain and more threads
         * shorten each; eight with three blocks per SM spill.  Measured in
         * complex double; the other precisions take the same tiles. */
        err = kd <= 32 ? launch_chase<32, 8, 4, schedule::finished>(bd, stream)
            : kd <= 64 ? launch_chase_by_chain<64, 16>(bd, stream)
                       : launch_chase_by_chain<128, 16>(bd, stream);
        if (err != cudaSuccess)
            return err;
    }
    return launch_tridiag(n, ldab, work, d, e, stream);
}

template <typename T, typename Split>
static cudaError_t hb2st_split_prepare(const Split *split, int gpu, char uplo, int64_t n, int64_t kd, const T *AB,
                                       int64_t nsweeps, cudaStream_t stream)
{
    cudaError_t err;

    if (!split_valid(split, gpu, n, kd))
        return cudaErrorInvalidValue;
    for (int g = 0; g < split->ngpu; g++) {
        if (g == gpu)
            continue;
        err = cudaDeviceEnablePeerAccess(split->devices[g], 0);
        if (err == cudaErrorPeerAccessAlreadyEnabled)
            (void)cudaGetLastError();
        else if (err != cudaSuccess)
            return err;
    }
    return prepare(uplo, n, kd, AB, split->work[gpu], split->progress[gpu], nsweeps, nsweeps, stream);
}

template <typename T, typename Split>
static cudaError_t hb2st_split_chase(const Split *split, int gpu, int64_t n, int64_t kd, int64_t nsweeps,
                                     real_t<T> *d, real_t<T> *e, cudaStream_t stream)
{
    const int64_t ldab = 2 * kd + 1;
    band<T> bd = {split->work[gpu], n, kd, ldab - 1, nullptr, 0, nsweeps, split->progress[gpu], gpu, split->ngpu,
                  {}, {}};
    cudaError_t err = cudaSuccess;

    if (!split_valid(split, gpu, n, kd))
        return cudaErrorInvalidValue;
    for (int g = 0; g < split->ngpu; g++) {
        bd.abs[g] = split->work[g];
        bd.progresses[g] = split->progress[g];
        bd.hands[g] = split->work[g] + ldab * n;
    }
    /* The tile sizes of startrd_cuda_zhb2st(), every kernel finished
     * before the next sweep's waits on it. */
    if (nsweeps > 0)
        err = kd <= 32 ? launch_chase<32, 8, 4, schedule::finished, true>(bd, stream)
            : kd <= 64 ? launch_chase<64, 16, 1, schedule::finished, true>(bd, stream)
                       : launch_chase<128, 16, 1, schedule::finished, true>(bd, stream);
    if (err != cudaSuccess || gpu > 0)
        return err;
    return launch_tridiag(n, ldab, split->work[0], d, e, stream);
}

/* The launchers' names, as codegen.py makes them from zhb2st's: the
 * symmetric ssb2st and dsb2st in the real precisions. */
#define HB2ST_s ssb2st
#define HB2ST_d dsb2st
#define HB2ST_c chb2st
#define HB2ST_z zhb2st
#define HB2ST_PASTE(a, b) a##b
#define HB2ST_CAT(a, b) HB2ST_PASTE(a, b)
#define HB2ST_NAME(p, suffix) HB2ST_CAT(startrd_cuda_, HB2ST_CAT(HB2ST_##p, suffix))

#define HB2ST(p, T)                                                                                                \
    extern "C" int64_t HB2ST_NAME(p, _scratch_ints)(int64_t nsweeps) { return hb2st_scratch_ints<T>(nsweeps); }    \
    extern "C" cudaError_t HB2ST_NAME(p, )(char uplo, int64_t n, int64_t kd, const T *AB, T *work, int *progress,  \
                                           int64_t nsweeps, T *hous, int64_t nrefl, real_t<T> *d, real_t<T> *e,    \
                                           cudaStream_t stream)                                                    \
    {                                                                                                              \
        return hb2st<T>(uplo, n, kd, AB, work, progress, nsweeps, hous, nrefl, d, e, stream);                      \
    }                                                                                                              \
    extern "C" cudaError_t HB2ST_NAME(p, _split_prepare)(const HB2ST_NAME(p, _split_t) *split, int gpu, char uplo, \
                                                         int64_t n, int64_t kd, const T *AB, int64_t nsweeps,      \
                                                         cudaStream_t stream)                                      \
    {                                                                                                              \
        return hb2st_split_prepare<T>(split, gpu, uplo, n, kd, AB, nsweeps, stream);                               \
    }                                                                                                              \
    extern "C" cudaError_t HB2ST_NAME(p, _split_chase)(const HB2ST_NAME(p, _split_t) *split, int gpu, int64_t n,   \
                                                       int64_t kd, int64_t nsweeps, real_t<T> *d, real_t<T> *e,    \
                                                       cudaStream_t stream)                                        \
    {                                                                                                              \
        return hb2st_split_chase<T>(split, gpu, n, kd, nsweeps, d, e, stream);                                     \
    }
STARTRD_FOR_EACH_PRECISION(HB2ST)
