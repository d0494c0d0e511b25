#include "zgeqr2_panel.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

namespace startrd_zgeqr2 {
namespace {

/* The same factorisation with the panel in registers, for panels of at
 * most 16 * REG_COLS columns whose rows fit REG_ROWS per block: the first
 * kernel (kernel_zgeqr2_panel.cu) reads and writes its rows in memory twice
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

/* f(k, a[k][jt]) for the thread's entries of its warp's column jt, which
 * the loop over every t selects: a run-time index into a would move the
 * panel from registers to local memory. */
template <int REG_COLS, typename F>
__device__ __forceinline__ void in_column(const cuDoubleComplex (&a)[REG_K][REG_COLS], int jt, F f)
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

template <int REG_COLS>
__global__ void __launch_bounds__(REG_THREADS, 1) zgeqr2_panel_regs_kernel(int m, int nb, cuDoubleComplex *A,
                                                                      int64_t lda, cuDoubleComplex *tau,
                                                                      double *part, const int *only_if)
{
    if (only_if != NULL && *only_if == 0)
        return;
    cg::grid_group grid = cg::this_grid();
    const int nblocks = (int)gridDim.x, me = (int)blockIdx.x;
    const int lane = (int)threadIdx.x % 32, warp = (int)threadIdx.x / 32;
    const int r0 = (int)((int64_t)me * m / nblocks), r1 = (int)((int64_t)(me + 1) * m / nblocks);
    const int64_t stride = part_stride(nb);
    __shared__ cuDoubleComplex xs[2][REG_ROWS];   /* x scaled by 2^-e, for the block's rows */
    __shared__ int xe[2];                         /* that e */
    __shared__ reflector rf;
    __shared__ int owner_of[REG_WARPS * REG_COLS];   /* the block holding row j, found once */
    cuDoubleComplex a[REG_K][REG_COLS];

    for (int j = (int)threadIdx.x; j < nb; j += REG_THREADS)
        owner_of[j] = row_owner(m, nblocks, j);

#pragma unroll
    for (int k = 0; k < REG_K; k++)
#pragma unroll
        for (int t = 0; t < REG_COLS; t++) {
            int i = r0 + lane + 32 * k, c = warp + REG_WARPS * t;

            a[k][t] = i < r1 && c < nb ? A[(int64_t)c * lda + i] : make_cuDoubleComplex(0.0, 0.0);
        }
    for (int j = 0; j < nb && j < m; j++) {
        double *mine = part + ((int64_t)(j % 2) * nblocks + me) * stride;
        const double *all = part + (int64_t)(j % 2) * nblocks * stride;
        const int jw = j % REG_WARPS, jt = j / REG_WARPS;

        /* The warp holding column j: its sums, exponent and scaled x. */
        if (warp == jw) {
            double amax = 0.0;
            blue b = {0.0, 0.0, 0.0};
            int e;

            in_column(a, jt, [&](int k, cuDoubleComplex x) {
                int i = r0 + lane + 32 * k;

                if (i > j && i < r1) {
                    double re = fabs(cuCreal(x)), im = fabs(cuCimag(x));

                    amax = fmax(amax, fmax(re, im));
                    blue_add(b, re);
                    blue_add(b, im);
                }
            });
            amax = startrd_warp_max(amax);
            if (blue_outer(b.asml, b.abig)) {
                b.asml = startrd_warp_sum(b.asml);
                b.abig = startrd_warp_sum(b.abig);
            }
            b.amed = startrd_warp_sum(b.amed);
            e = amax > 0.0 ? exponent_of(amax) : 0;
            if (lane == 0) {
                mine[P_ASML] = b.asml;
                mine[P_AMED] = b.amed;
                mine[P_ABIG] = b.abig;
                mine[P_EXP] = amax > 0.0 ? (double)e : NO_ENTRY;
                xe[j % 2] = e;
            }
            in_column(a, jt, [&](int k, cuDoubleComplex x) {
                int i = r0 + lane + 32 * k;

                xs[j % 2][lane + 32 * k] = i > j && i < r1 ? scale2(x, -e) : make_cuDoubleComplex(0.0, 0.0);
            });
        }
        __syncthreads();
        /* d_c for this warp's columns right of j (all its columns summed at
         * once), and the row j where it lies. */
        {
            double d[2 * REG_COLS], sum;
            const int q = lane / (16 / REG_COLS), c = warp + REG_WARPS * (q / 2);

#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                d[2 * t] = d[2 * t + 1] = 0.0;
                if (warp + REG_WARPS * t <= j)
                    continue;   /* not needed: the whole warp skips it */
#pragma unroll
                for (int k = 0; k < REG_K; k++)
                    conj_dot_add(d[2 * t], d[2 * t + 1], xs[j % 2][lane + 32 * k], a[k][t]);
            }
            sum = startrd_warp_sums<2 * REG_COLS>(d, lane);
            if (lane % (16 / REG_COLS) == 0 && c > j && c < nb)
                mine[P_D + 2 * c + q % 2] = sum;
        }
        if (j >= r0 && j < r1 && (j - r0) % 32 == lane) {
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                int c = warp + REG_WARPS * t;
                unsigned long long bre = 0, bim = 0;
                double re, im;

                /* Masks rather than a[(j - r0) / 32][t] or selects, which the
                 * compiler turns into an indexed load from local memory. */
#pragma unroll
                for (int k = 0; k < REG_K; k++) {
                    unsigned long long mask = 0ull - (unsigned long long)(k == (j - r0) / 32);

                    bre |= mask & (unsigned long long)__double_as_longlong(cuCreal(a[k][t]));
                    bim |= mask & (unsigned long long)__double_as_longlong(cuCimag(a[k][t]));
                }
                re = __longlong_as_double((long long)bre);
                im = __longlong_as_double((long long)bim);
                if (c == j) {
                    mine[P_ALPHA] = re;
                    mine[P_ALPHA + 1] = im;
                } else if (c > j && c < nb) {
                    mine[P_D + 2 * (int64_t)nb + 2 * c] = re;
                    mine[P_D + 2 * (int64_t)nb + 2 * c + 1] = im;
                }
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
        const double *ro = all + (int64_t)owner * stride, *r = ro + P_D + 2 * (int64_t)nb;
        double pe[REG_LANE_BLOCKS], sr[REG_COLS], si[REG_COLS];
        lane_sums ls;
        int emax = INT_MIN;

#pragma unroll
        for (int q = 0; q < REG_LANE_BLOCKS; q++) {
            const int k = lane + 32 * q;

            pe[q] = k < nblocks ? all[k * stride + P_EXP] : NO_ENTRY;
            if (warp == 0 && k < nblocks)
                lane_sums_add(ls, all + k * stride);
        }
        /* Lane 2t + i holds part i of A(j, c) for the warp's column c = warp + REG_WARPS t. */
        const int rc = warp + REG_WARPS * (lane / 2);
        const double rj = lane < 2 * REG_COLS && rc > j && rc < nb ? r[2 * rc + lane % 2] : 0.0;

        if (warp == 0)
            reflector_from_lanes(ls, owner, ro[P_ALPHA], ro[P_ALPHA + 1], lane, &rf);
#pragma unroll
        for (int q = 0; q < REG_LANE_BLOCKS; q++)
            emax = fold_exponent(emax, pe[q]);
        emax = warp_max_int(emax);
        emax = emax == INT_MIN ? 0 : emax;
#pragma unroll
        for (int t = 0; t < REG_COLS; t++)
            sr[t] = si[t] = 0.0;
#pragma unroll
        for (int q = 0; q < REG_LANE_BLOCKS; q++) {
            const int k = lane + 32 * q;
            const double *p = all + k * stride;
            const double g = pe[q] == NO_ENTRY ? 0.0 : pow2_nonpositive((int)pe[q] - emax);

            if (k >= nblocks)
                continue;
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                int c = warp + REG_WARPS * t;

                if (c > j && c < nb) {
                    sr[t] += g * p[P_D + 2 * c];
                    si[t] += g * p[P_D + 2 * c + 1];
                }
            }
        }
        {
            double v[2 * REG_COLS], sum;

#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                v[2 * t] = sr[t];
                v[2 * t + 1] = si[t];
            }
            sum = startrd_warp_sums<2 * REG_COLS>(v, lane);
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                sr[t] = __shfl_sync(0xffffffffu, sum, (2 * t) * (16 / REG_COLS));
                si[t] = __shfl_sync(0xffffffffu, sum, (2 * t + 1) * (16 / REG_COLS));
            }
        }
        __syncthreads();
        if (rf.skip) {
            if (me == 0 && threadIdx.x == 0)
                tau[j] = make_cuDoubleComplex(0.0, 0.0);
            continue;
        }
        /* A(j:, c) -= conj(tau) w_c v with w_c = A(j, c) + conj(s) S_c and
         * v = x 2^-emax s below the diagonal, 1 on it. */
        {
            cuDoubleComplex f[REG_COLS];

#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                const int c = warp + REG_WARPS * t;
                const cuDoubleComplex ajc = make_cuDoubleComplex(__shfl_sync(0xffffffffu, rj, 2 * t),
                                                                 __shfl_sync(0xffffffffu, rj, 2 * t + 1));

                f[t] = c > j && c < nb
                           ? cuCmul(cuConj(rf.tau), cuCadd(ajc,
                                                           cuCmul(cuConj(rf.s), make_cuDoubleComplex(sr[t], si[t]))))
                           : make_cuDoubleComplex(0.0, 0.0);
            }
            cuDoubleComplex v[REG_K];

#pragma unroll
            for (int k = 0; k < REG_K; k++)
                v[k] = r0 + lane + 32 * k == j ? make_cuDoubleComplex(1.0, 0.0)
                                               : cuCmul(scale2(xs[j % 2][lane + 32 * k], xe[j % 2] - rf.emax), rf.s);
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
                        a[k][t] = i == j ? make_cuDoubleComplex(rf.beta, 0.0) : v[k];
                    else
                        a[k][t] = cuCsub(a[k][t], cuCmul(f[t], v[k]));
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

const void *regs_kernel(int64_t nb)
{
    if (nb <= REG_WARPS)
        return (const void *)zgeqr2_panel_regs_kernel<1>;
    if (nb <= 2 * REG_WARPS)
        return (const void *)zgeqr2_panel_regs_kernel<2>;
    if (nb <= 4 * REG_WARPS)
        return (const void *)zgeqr2_panel_regs_kernel<4>;
    return NULL;
}

} // namespace startrd_zgeqr2
