#include "geqr2_panel.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

namespace startrd_geqr2 {
namespace {

/* The same factorisation with the panel in registers, for panels of at
 * most 16 * REG_COLS columns whose rows fit REG_ROWS per block: the first
 * kernel (kernel_geqr2_panel.cu) reads and writes its rows in memory twice
 * per column, at L2's latency, and takes the same time per column
 * whatever m.  Here
 * lane l of warp w holds rows r0 + l + 32k (k < REG_ROWS / 32) of the
 * columns w + 16t (t < REG_COLS): a warp owns whole columns, so the column
 * sums are warp reductions and the update touches registers only.  The
 * scaled x goes through shared memory, double-buffered on j's parity like
 * the partial results, so one block-wide barrier before the grid-wide
 * synchronisation and one after it suffice.  It factors a panel faster than
 * the first kernel, alone or beside a stream of ZGEMMs (docs/experiments.md,
 * "The panel in registers").  A column costs nearly as much on 7 blocks as
 * on 64: its time goes to a chain of short phases (the column's sums, the
 * d_c, the grid-wide synchronisation, the reads of every block's results
 * and the reflector, the update), not to the reads.  scale2() as a
 * product, the reads in two rounds, the reflector on fewer divisions, no
 * d_c or update for columns left of j and Blue's outer sums reduced only
 * when some entry needs them shortened that chain (the same arithmetic, but
 * for the reflector's divisions; docs/architecture.md, "What a column of
 * the register panel costs"). */
const int REG_K = REG_ROWS / 32, REG_WARPS = REG_THREADS / 32;

/* The entry of T whose parts lanes src and src + step hold in v (lane src
 * alone for real T). */
template <typename T>
__device__ __forceinline__ T from_lanes(real_t<T> v, int src, int step)
{
    if constexpr (startrd_scalar<T>::is_complex) {
        const real_t<T> re = __shfl_sync(0xffffffffu, v, src);
        const real_t<T> im = __shfl_sync(0xffffffffu, v, src + step);

        return startrd_make<T>(re, im);
    } else {
        return __shfl_sync(0xffffffffu, v, src);
    }
}

/* f(k, a[k][jt]) for the thread's entries of its warp's column jt, which
 * the loop over every t selects: a run-time index into a would move the
 * panel from registers to local memory. */
template <int REG_COLS, typename T, typename F>
__device__ __forceinline__ void in_column(const T (&a)[REG_K][REG_COLS], int jt, F f)
{
#pragma unroll
    for (int t = 0; t < REG_COLS; t++) {
        if (t != jt)
            continue;
#pragma unroll
        for (int k = 0; k < REG_K; k++)
            f(k, a[k][t]);
    }
}

template <int REG_COLS, typename T>
__global__ void __launch_bounds__(REG_THREADS, 1) geqr2_panel_regs_kernel(int m, int nb, T *A, int64_t lda, T *tau,
                                                                        real_t<T> *part, const int *only_if)
{
    using R = real_t<T>;
    /* Reals per entry, and lanes per value of startrd_warp_sums over the
     * parts of the warp's REG_COLS columns. */
    constexpr bool CPLX = startrd_scalar<T>::is_complex;
    constexpr int K = NREAL<T>, SPREAD = 32 / (K * REG_COLS);

    if (only_if != NULL && *only_if == 0)
        return;
    cg::grid_group grid = cg::this_grid();
    const int nblocks = (int)gridDim.x, me = (int)blockIdx.x;
    const int lane = (int)threadIdx.x % 32, warp = (int)threadIdx.x / 32;
    const int r0 = (int)((int64_t)me * m / nblocks), r1 = (int)((int64_t)(me + 1) * m / nblocks);
    const int64_t stride = part_stride<T>(nb);
    __shared__ T xs[2][REG_ROWS];   /* x scaled by 2^-e, for the block's rows */
    __shared__ int xe[2];           /* that e */
    __shared__ reflector<T> rf;
    __shared__ int owner_of[REG_WARPS * REG_COLS];   /* the block holding row j, found once */
    T a[REG_K][REG_COLS];

    for (int j = (int)threadIdx.x; j < nb; j += REG_THREADS)
        owner_of[j] = row_owner(m, nblocks, j);

#pragma unroll
    for (int k = 0; k < REG_K; k++)
#pragma unroll
        for (int t = 0; t < REG_COLS; t++) {
            int i = r0 + lane + 32 * k, c = warp + REG_WARPS * t;

            a[k][t] = i < r1 && c < nb ? A[(int64_t)c * lda + i] : startrd_zero<T>();
        }
    for (int j = 0; j < nb && j < m; j++) {
        R *mine = part + ((int64_t)(j % 2) * nblocks + me) * stride;
        const R *all = part + (int64_t)(j % 2) * nblocks * stride;
        const int jw = j % REG_WARPS, jt = j / REG_WARPS;

        /* The warp holding column j: its sums, exponent and scaled x. */
        if (warp == jw) {
            R amax = 0;
            blue<R> b = {0, 0, 0};
            int e;

            in_column(a, jt, [&](int k, T x) {
                int i = r0 + lane + 32 * k;

                if (i > j && i < r1)
                    amax = entry_add(amax, b, x);
            });
            amax = startrd_warp_max(amax);
            if (blue_outer(b.asml, b.abig)) {
                b.asml = startrd_warp_sum(b.asml);
                b.abig = startrd_warp_sum(b.abig);
            }
            b.amed = startrd_warp_sum(b.amed);
            e = amax > R(0) ? exponent_of(amax) : 0;
            if (lane == 0) {
                mine[P_ASML] = b.asml;
                mine[P_AMED] = b.amed;
                mine[P_ABIG] = b.abig;
                mine[P_EXP] = amax > R(0) ? (R)e : NO_ENTRY<R>;
                xe[j % 2] = e;
            }
            in_column(a, jt, [&](int k, T x) {
                int i = r0 + lane + 32 * k;

                xs[j % 2][lane + 32 * k] = i > j && i < r1 ? scale2(x, -e) : startrd_zero<T>();
            });
        }
        __syncthreads();
        /* d_c for this warp's columns right of j (all its columns summed at
         * once), and the row j where it lies. */
        {
            R d[K * REG_COLS], sum;
            const int q = lane / SPREAD, c = warp + REG_WARPS * (q / K);

            /* Column t's parts at K t and K t + K - 1 (the same one for real T). */
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                d[K * t] = d[K * t + K - 1] = 0;
                if (warp + REG_WARPS * t <= j)
                    continue;   /* not needed: the whole warp skips it */
#pragma unroll
                for (int k = 0; k < REG_K; k++)
                    conj_dot_add(d[K * t], d[K * t + K - 1], xs[j % 2][lane + 32 * k], a[k][t]);
            }
            sum = startrd_warp_sums<K * REG_COLS>(d, lane);
            if (lane % SPREAD == 0 && c > j && c < nb)
                mine[P_D<T> + K * c + q % K] = sum;
        }
        if (j >= r0 && j < r1 && (j - r0) % 32 == lane) {
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                int c = warp + REG_WARPS * t;
                using B = typename real_facts<R>::bits;
                B bre = 0, bim = 0;
                T ajt;

                /* Masks rather than a[(j - r0) / 32][t] or selects, which the
                 * compiler turns into an indexed load from local memory. */
#pragma unroll
                for (int k = 0; k < REG_K; k++) {
                    B mask = B(0) - (B)(k == (j - r0) / 32);

                    bre |= mask & bits_of(startrd_real(a[k][t]));
                    bim |= mask & bits_of(startrd_imag(a[k][t]));
                }
                ajt = startrd_make<T>(real_of_bits(bre), real_of_bits(bim));
                if (c == j)
                    store_entry(mine, P_ALPHA, ajt);
                else if (c > j && c < nb)
                    store_entry(mine, P_D<T> + K * (int64_t)nb + K * c, ajt);
            }
        }
        grid.sync();

        /* Every block's results in two rounds of loads, each issued at
         * once: the exponents (with, for warp 0, Blue's sums and alpha)
         * and row j of the warp's columns, then the d_c.  A loop over the
         * blocks that loads as it goes waits on L2 once per block and
         * quantity.  Warp 0 derives the reflector; every warp sums, for its
         * columns, S_c = sum_b 2^(e_b - emax) d_c(b) (lanes over blocks,
         * then the warp). */
        const int owner = owner_of[j];
        const R *ro = all + (int64_t)owner * stride, *r = ro + P_D<T> + K * (int64_t)nb;
        R pe[REG_LANE_BLOCKS], sr[REG_COLS], si[REG_COLS];   /* si: complex T only */
        lane_sums<R> ls;
        int emax = INT_MIN;

#pragma unroll
        for (int q = 0; q < REG_LANE_BLOCKS; q++) {
            const int k = lane + 32 * q;

            pe[q] = k < nblocks ? all[k * stride + P_EXP] : NO_ENTRY<R>;
            if (warp == 0 && k < nblocks)
                lane_sums_add(ls, all + k * stride);
        }
        /* Lane K t + i holds part i of A(j, c) for the warp's column c = warp + REG_WARPS t. */
        const int rc = warp + REG_WARPS * (lane / K);
        const R rj = lane < K * REG_COLS && rc > j && rc < nb ? r[K * rc + lane % K] : R(0);

        if (warp == 0)
            reflector_from_lanes(ls, owner, load_entry<T>(ro, P_ALPHA), lane, &rf);
#pragma unroll
        for (int q = 0; q < REG_LANE_BLOCKS; q++)
            emax = fold_exponent(emax, pe[q]);
        emax = warp_max_int(emax);
        emax = emax == INT_MIN ? 0 : emax;
#pragma unroll
        for (int t = 0; t < REG_COLS; t++)
            sr[t] = si[t] = 0;
#pragma unroll
        for (int q = 0; q < REG_LANE_BLOCKS; q++) {
            const int k = lane + 32 * q;
            const R *p = all + k * stride;
            const R g = pe[q] == NO_ENTRY<R> ? R(0) : pow2_nonpositive<R>((int)pe[q] - emax);

            if (k >= nblocks)
                continue;
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                int c = warp + REG_WARPS * t;

                if (c > j && c < nb) {
                    sr[t] += g * p[P_D<T> + K * c];
                    if constexpr (CPLX)
                        si[t] += g * p[P_D<T> + K * c + 1];
                }
            }
        }
        {
            R v[K * REG_COLS], sum;

#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                v[K * t] = sr[t];
                if constexpr (CPLX)
                    v[K * t + 1] = si[t];
            }
            sum = startrd_warp_sums<K * REG_COLS>(v, lane);
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                sr[t] = __shfl_sync(0xffffffffu, sum, (K * t) * SPREAD);
                if constexpr (CPLX)
                    si[t] = __shfl_sync(0xffffffffu, sum, (K * t + 1) * SPREAD);
            }
        }
        __syncthreads();
        if (rf.skip) {
            if (me == 0 && threadIdx.x == 0)
                tau[j] = startrd_zero<T>();
            continue;
        }
        /* A(j:, c) -= conj(tau) w_c v with w_c = A(j, c) + conj(s) S_c and
         * v = x 2^-emax s below the diagonal, 1 on it. */
        {
            T f[REG_COLS];

#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                const int c = warp + REG_WARPS * t;
                const T ajc = from_lanes<T>(rj, K * t, 1);

                f[t] = c > j && c < nb ? startrd_mul(startrd_conj(rf.tau),
                                                     startrd_add(ajc, startrd_mul(startrd_conj(rf.s),
                                                                                  startrd_make<T>(sr[t], si[t]))))
                                       : startrd_zero<T>();
            }
            T v[REG_K];

#pragma unroll
            for (int k = 0; k < REG_K; k++)
                v[k] = r0 + lane + 32 * k == j
                           ? startrd_one<T>()
                           : startrd_mul(scale2(xs[j % 2][lane + 32 * k], xe[j % 2] - rf.emax), rf.s);
            /* Columns left of j, or past nb, skipped by the whole warp. */
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                const int c = warp + REG_WARPS * t;

                if (c < j || c >= nb)
                    continue;
#pragma unroll
                for (int k = 0; k < REG_K; k++) {
                    const int i = r0 + lane + 32 * k;

                    if (i < j)
                        continue;
                    if (c == j)
                        a[k][t] = i == j ? startrd_make<T>(rf.beta) : v[k];
                    else
                        a[k][t] = startrd_sub(a[k][t], startrd_mul(f[t], v[k]));
                }
            }
        }
        if (me == 0 && threadIdx.x == 0)
            tau[j] = rf.tau;
    }
#pragma unroll
    for (int k = 0; k < REG_K; k++)
#pragma unroll
        for (int t = 0; t < REG_COLS; t++) {
            int i = r0 + lane + 32 * k, c = warp + REG_WARPS * t;

            if (i < r1 && c < nb)
                A[(int64_t)c * lda + i] = a[k][t];
        }
}

} // namespace

template <class T>
const void *regs_kernel(int64_t nb)
{
    if (nb <= REG_WARPS)
        return (const void *)geqr2_panel_regs_kernel<1, T>;
    if (nb <= 2 * REG_WARPS)
        return (const void *)geqr2_panel_regs_kernel<2, T>;
    if (nb <= 4 * REG_WARPS)
        return (const void *)geqr2_panel_regs_kernel<4, T>;
    return NULL;
}

#define REGS_KERNEL(p, T) template const void *regs_kernel<T>(int64_t nb);
STARTRD_FOR_EACH_PRECISION(REGS_KERNEL)

} // namespace startrd_geqr2
