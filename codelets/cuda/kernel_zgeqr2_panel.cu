#include "kernels_cuda.h"
#include "warp_reduce.cuh"

#include <climits>
#include <cooperative_groups.h>

/* Householder QR of a tall panel (LAPACK's ZGEQR2: the same reflectors,
 * scalar factors and R) in one cooperative kernel with one grid-wide
 * synchronisation per column.  Each block owns a range of rows.  For column
 * j every block publishes, from its rows below the diagonal: the column's
 * sum of squares in the three accumulators of Blue's norm (LAPACK's DZNRM2),
 * the exponent e of its largest entry, and d_c = (2^-e x)^H A(:, c) for the
 * columns c to the right; the block owning row j also publishes that row.
 * After the synchronisation every block derives beta, tau and
 * s = 2^emax / (alpha - beta) from those in the same order, hence the same
 * values, and applies H^H to its own rows, with
 *     v = (2^-emax x) s,   w_c = v^H A(j:m, c) = A(j, c) + sum_b conj(s 2^(e_b - emax)) d_c(b),
 * where every factor stays near 1 whatever the panel's scale.  Partial
 * results are double-buffered on j's parity: a block reuses a buffer only
 * after the next synchronisation, which every block reaches after reading it.
 * Two kernels follow this scheme: the first reads its rows from memory and
 * takes panels of any size; the second holds them in registers. */

namespace cg = cooperative_groups;

namespace {

/* LAPACK 3.10's constants for Blue's scaled sum of squares in double. */
const double tsml = 0x1p-511, tbig = 0x1p486, ssml = 0x1p537, sbig = 0x1p-538;
/* ZLARFG's safe minimum, DLAMCH('S') / DLAMCH('E') = 2^-1022 / 2^-53, and
 * its reciprocal's exponent. */
const double safmin = 0x1p-969;
const int safmin_exp = 969;

const int THREADS = 1024, WARPS = THREADS / 32;

/* A block's published results for one column, in doubles. */
enum { P_ASML, P_AMED, P_ABIG, P_EXP, P_ALPHA, P_D = P_ALPHA + 2 };

/* P_EXP of a block with no nonzero entry below the diagonal. */
const double NO_ENTRY = -1e300;

__host__ __device__ inline int64_t part_stride(int nb)
{
    return P_D + 4 * (int64_t)nb;   /* d_c, then the row j: r_c */
}

struct blue {
    double asml, amed, abig;
};

/* DZNRM2 drops the small entries once it has seen a big one; blue_norm()
 * ignores them then, so they may be counted here regardless. */
__device__ inline void blue_add(blue &b, double ax)
{
    if (ax > tbig)
        b.abig += (ax * sbig) * (ax * sbig);
    else if (ax < tsml)
        b.asml += (ax * ssml) * (ax * ssml);
    else
        b.amed += ax * ax;
}

/* DZNRM2's combination of the accumulators. */
__device__ inline double blue_norm(double asml, double amed, double abig)
{
    if (abig > 0) {
        if (amed > 0 || isnan(amed))
            abig += (amed * sbig) * sbig;
        return sqrt(abig) / sbig;
    }
    if (asml > 0) {
        if (amed > 0 || isnan(amed)) {
            double lo = sqrt(amed), hi = sqrt(asml) / ssml;

            if (lo > hi) {
                double t = lo;
                lo = hi;
                hi = t;
            }
            return sqrt(hi * hi * (1.0 + (lo / hi) * (lo / hi)));
        }
        return sqrt(asml) / ssml;
    }
    return sqrt(amed);
}

__device__ inline double lapy3(double x, double y, double z)
{
    double w = fmax(fabs(x), fmax(fabs(y), fabs(z)));

    if (w == 0.0)
        return fabs(x) + fabs(y) + fabs(z);
    return w * sqrt((x / w) * (x / w) + (y / w) * (y / w) + (z / w) * (z / w));
}

__device__ inline cuDoubleComplex scale2(cuDoubleComplex z, int e)
{
    return make_cuDoubleComplex(scalbn(cuCreal(z), e), scalbn(cuCimag(z), e));
}

/* 2^e for e <= 0, flushed to 0 below the normal range: a factor that
 * small scales a block whose entries are negligible beside the largest. */
__device__ inline double pow2_nonpositive(int e)
{
    return e < -1022 ? 0.0 : __longlong_as_double((long long)(e + 1023) << 52);
}

__device__ inline double warp_max(double v)
{
    for (int o = 16; o > 0; o /= 2)
        v = fmax(v, __shfl_down_sync(0xffffffffu, v, o));
    return v;
}

/* The scalars of column j, the same in every block. */
struct reflector {
    int skip;                 /* tau = 0: H = I */
    int owner;                /* the block holding row j */
    int emax;
    double beta;
    cuDoubleComplex tau, s;   /* s = 2^emax / (alpha - beta) */
};

__device__ inline int warp_max_int(int v)
{
    return __reduce_max_sync(0xffffffffu, v);
}

/* d += x^H a. */
__device__ inline void conj_dot_add(double &dr, double &di, cuDoubleComplex x, cuDoubleComplex a)
{
    dr += cuCreal(x) * cuCreal(a) + cuCimag(x) * cuCimag(a);
    di += cuCreal(x) * cuCimag(a) - cuCimag(x) * cuCreal(a);
}

/* A warp's d_c: its lanes' parts summed, published by lane 0. */
__device__ inline void publish_d(double *mine, int c, int lane, double dr, double di)
{
    dr = startrd_warp_sum(dr);
    di = startrd_warp_sum(di);
    if (lane == 0) {
        mine[P_D + 2 * c] = dr;
        mine[P_D + 2 * c + 1] = di;
    }
}

/* The block owning row j when m rows are split over nblocks as r0 = b m / nblocks. */
__device__ inline int row_owner(int64_t m, int nblocks, int j)
{
    int o = (int)((int64_t)j * nblocks / m);

    while (o > 0 && (int64_t)o * m / nblocks > j)
        o--;
    while ((int64_t)(o + 1) * m / nblocks <= j)
        o++;
    return o;
}

/* The largest exponent any block published, reduced over the lanes of a
 * warp (every lane gets it); 0 if no block had a nonzero entry. */
__device__ inline int parts_emax(const double *all, int nblocks, int64_t stride, int lane)
{
    int emax = INT_MIN;

    for (int k = lane; k < nblocks; k += 32) {
        const double *p = all + k * stride;

        if (p[P_EXP] != NO_ENTRY && (int)p[P_EXP] > emax)
            emax = (int)p[P_EXP];
    }
    emax = warp_max_int(emax);
    return emax == INT_MIN ? 0 : emax;
}

/* ZLARFG on the column whose part below the diagonal has Blue's sums
 * asml, amed, abig and whose diagonal entry is alr + i ali, with x to be
 * scaled by 2^-emax; its rescaling of tiny columns by 2^969 included. */
__device__ inline reflector reflector_from_sums(double asml, double amed, double abig, int emax, double alr,
                                                double ali)
{
    double xnorm = blue_norm(asml, amed, abig), bt;
    int knt = 0;
    reflector rf;

    rf.skip = xnorm == 0.0 && ali == 0.0;
    rf.owner = 0;
    rf.emax = emax;
    if (rf.skip)
        return rf;
    bt = -copysign(lapy3(alr, ali, xnorm), alr);
    while (fabs(bt) < safmin && knt < 20) {
        knt++;
        bt = scalbn(bt, safmin_exp);
        xnorm = scalbn(xnorm, safmin_exp);
        alr = scalbn(alr, safmin_exp);
        ali = scalbn(ali, safmin_exp);
    }
    if (knt > 0)
        bt = -copysign(lapy3(alr, ali, xnorm), alr);
    rf.tau = make_cuDoubleComplex((bt - alr) / bt, -ali / bt);
    rf.s = cuCdiv(make_cuDoubleComplex(scalbn(1.0, safmin_exp * knt + emax), 0.0), make_cuDoubleComplex(alr - bt, ali));
    rf.beta = scalbn(bt, -safmin_exp * knt);
    return rf;
}

/* Called by one warp of every block after the grid-wide synchronisation of
 * column j: the reflector from all blocks' partial results, reduced in the
 * same order everywhere (lanes over blocks, then the warp), hence the same
 * bits in every block; lane 0 writes it to @p rf. */
__device__ inline void derive_reflector(const double *all, int nblocks, int64_t stride, int64_t m, int j, int lane,
                                        reflector *rf)
{
    const int o = row_owner(m, nblocks, j);
    const double alr = all[o * stride + P_ALPHA], ali = all[o * stride + P_ALPHA + 1];
    double asml = 0.0, amed = 0.0, abig = 0.0;
    int emax = INT_MIN;

    for (int k = lane; k < nblocks; k += 32) {
        const double *p = all + k * stride;

        asml += p[P_ASML];
        amed += p[P_AMED];
        abig += p[P_ABIG];
        if (p[P_EXP] != NO_ENTRY && (int)p[P_EXP] > emax)
            emax = (int)p[P_EXP];
    }
    asml = startrd_warp_sum(asml);
    amed = startrd_warp_sum(amed);
    abig = startrd_warp_sum(abig);
    emax = warp_max_int(emax);
    if (lane == 0) {
        *rf = reflector_from_sums(asml, amed, abig, emax == INT_MIN ? 0 : emax, alr, ali);
        rf->owner = o;
    }
}

/* Dynamic shared memory: w (nb entries), then a column of the block's rows
 * (x scaled by the block's exponent, then v). */
__global__ void __launch_bounds__(THREADS) zgeqr2_panel_kernel(int m, int nb, cuDoubleComplex *A, int64_t lda,
                                                             cuDoubleComplex *tau, double *part)
{
    cg::grid_group grid = cg::this_grid();
    const int nblocks = (int)gridDim.x, me = (int)blockIdx.x;
    const int lane = (int)threadIdx.x % 32, warp = (int)threadIdx.x / 32;
    const int64_t r0 = (int64_t)me * m / nblocks, r1 = (int64_t)(me + 1) * m / nblocks;
    const int64_t stride = part_stride(nb);
    __shared__ double red[4][WARPS];
    __shared__ reflector rf;
    extern __shared__ cuDoubleComplex sh[];
    cuDoubleComplex *w = sh, *col = sh + nb;   /* col[i - r0] */

    for (int j = 0; j < nb && j < m; j++) {
        double *mine = part + ((int64_t)(j % 2) * nblocks + me) * stride;
        cuDoubleComplex *x = A + (int64_t)j * lda;
        const int64_t first = r0 > j + 1 ? r0 : j + 1;   /* this block's rows below the diagonal */
        double amax = 0.0;
        blue b = {0.0, 0.0, 0.0};
        int e;

        /* The block's largest entry of x, and Blue's sums. */
        for (int64_t i = first + threadIdx.x; i < r1; i += THREADS) {
            double re = fabs(cuCreal(x[i])), im = fabs(cuCimag(x[i]));

            amax = fmax(amax, fmax(re, im));
            blue_add(b, re);
            blue_add(b, im);
        }
        amax = warp_max(amax);
        b.asml = startrd_warp_sum(b.asml);
        b.amed = startrd_warp_sum(b.amed);
        b.abig = startrd_warp_sum(b.abig);
        if (lane == 0) {
            red[0][warp] = amax;
            red[1][warp] = b.asml;
            red[2][warp] = b.amed;
            red[3][warp] = b.abig;
        }
        __syncthreads();
        amax = 0.0;
        for (int k = 0; k < WARPS; k++)
            amax = fmax(amax, red[0][k]);
        e = amax > 0.0 ? ilogb(amax) : 0;
        if (threadIdx.x < 3) {
            double sum = 0.0;

            for (int k = 0; k < WARPS; k++)
                sum += red[1 + threadIdx.x][k];
            mine[P_ASML + threadIdx.x] = sum;
        } else if (threadIdx.x == 3) {
            mine[P_EXP] = amax > 0.0 ? (double)e : NO_ENTRY;
        }
        for (int64_t i = first + threadIdx.x; i < r1; i += THREADS)
            col[i - r0] = scale2(x[i], -e);
        __syncthreads();
        /* d_c: a warp per column, its lanes down the rows. */
        for (int c = j + 1 + warp; c < nb; c += WARPS) {
            const cuDoubleComplex *ac = A + (int64_t)c * lda;
            double dr = 0.0, di = 0.0;

#pragma unroll 4
            for (int64_t i = first + lane; i < r1; i += 32)
                conj_dot_add(dr, di, col[i - r0], ac[i]);
            publish_d(mine, c, lane, dr, di);
        }
        /* The owner of row j publishes it. */
        if (j >= r0 && j < r1) {
            for (int c = j + (int)threadIdx.x; c < nb; c += THREADS) {
                cuDoubleComplex a = A[(int64_t)c * lda + j];

                if (c == j) {
                    mine[P_ALPHA] = cuCreal(a);
                    mine[P_ALPHA + 1] = cuCimag(a);
                } else {
                    mine[P_D + 2 * (int64_t)nb + 2 * c] = cuCreal(a);
                    mine[P_D + 2 * (int64_t)nb + 2 * c + 1] = cuCimag(a);
                }
            }
        }
        grid.sync();

        const double *all = part + (int64_t)(j % 2) * nblocks * stride;
        if (warp == 0)
            derive_reflector(all, nblocks, stride, m, j, lane, &rf);
        __syncthreads();
        if (rf.skip) {
            if (me == 0 && threadIdx.x == 0)
                tau[j] = make_cuDoubleComplex(0.0, 0.0);
            continue;
        }
        /* w_c = A(j, c) + sum_b conj(s 2^(e_b - emax)) d_c(b): a warp per
         * column, its lanes over the blocks. */
        for (int c = j + 1 + warp; c < nb; c += WARPS) {
            double wr = 0.0, wi = 0.0;

            for (int k = lane; k < nblocks; k += 32) {
                const double *p = all + k * stride;

                if (p[P_EXP] != NO_ENTRY) {
                    cuDoubleComplex t = cuCmul(cuConj(scale2(rf.s, (int)p[P_EXP] - rf.emax)),
                                               make_cuDoubleComplex(p[P_D + 2 * c], p[P_D + 2 * c + 1]));

                    wr += cuCreal(t);
                    wi += cuCimag(t);
                }
            }
            wr = startrd_warp_sum(wr);
            wi = startrd_warp_sum(wi);
            if (lane == 0) {
                const double *r = all + rf.owner * stride + P_D + 2 * (int64_t)nb + 2 * c;

                w[c] = make_cuDoubleComplex(r[0] + wr, r[1] + wi);
            }
        }
        /* v, in place of x and in shared memory. */
        for (int64_t i = first + threadIdx.x; i < r1; i += THREADS) {
            cuDoubleComplex v = cuCmul(scale2(x[i], -rf.emax), rf.s);

            x[i] = v;
            col[i - r0] = v;
        }
        __syncthreads();
        /* A(j:, c) -= conj(tau) w_c v, a warp per column. */
        {
            const cuDoubleComplex ct = cuConj(rf.tau);

            for (int c = j + 1 + warp; c < nb; c += WARPS) {
                cuDoubleComplex *ac = A + (int64_t)c * lda, f = cuCmul(ct, w[c]);

#pragma unroll 4
                for (int64_t i = first + lane; i < r1; i += 32)
                    ac[i] = cuCsub(ac[i], cuCmul(f, col[i - r0]));
                if (me == rf.owner && lane == 0) {
                    const double *r = all + rf.owner * stride + P_D + 2 * (int64_t)nb + 2 * c;

                    ac[j] = cuCsub(make_cuDoubleComplex(r[0], r[1]), f);
                }
            }
        }
        if (me == rf.owner && threadIdx.x == 0)
            x[j] = make_cuDoubleComplex(rf.beta, 0.0);
        if (me == 0 && threadIdx.x == 0)
            tau[j] = rf.tau;
        __syncthreads();
    }
}

/* The same factorisation with the panel in registers, for panels of at
 * most 16 * REG_COLS columns whose rows fit REG_ROWS per block: the
 * kernel above reads and writes its rows in memory twice per column, at
 * L2's latency, and takes 14 us per column whatever m (one H200).  Here
 * lane l of warp w holds rows r0 + l + 32k (k < REG_ROWS / 32) of the
 * columns w + 16t (t < REG_COLS): a warp owns whole columns, so the column
 * sums are warp reductions and the update touches registers only.  The
 * scaled x goes through shared memory, double-buffered on j's parity like
 * the partial results, so one block-wide barrier before the grid-wide
 * synchronisation and one after it suffice.  One H200, nb = 64, alone /
 * beside a stream of ZGEMMs: m = 8192 (64 blocks) 0.55 / 0.63 ms against
 * 0.92 / 1.00 for the kernel above, m = 16384 (128 blocks) 0.70 / 0.83
 * against 0.98 / 1.08; 8-9 us per column at m = 8192, most of it the grid-wide
 * synchronisation and the reads of every block's partial results after it. */
const int REG_ROWS = 128, REG_K = REG_ROWS / 32, REG_THREADS = 512, REG_WARPS = REG_THREADS / 32;

template <int REG_COLS>
__global__ void __launch_bounds__(REG_THREADS, 1) zgeqr2_panel_regs_kernel(int m, int nb, cuDoubleComplex *A,
                                                                      int64_t lda, cuDoubleComplex *tau,
                                                                      double *part)
{
    cg::grid_group grid = cg::this_grid();
    const int nblocks = (int)gridDim.x, me = (int)blockIdx.x;
    const int lane = (int)threadIdx.x % 32, warp = (int)threadIdx.x / 32;
    const int r0 = (int)((int64_t)me * m / nblocks), r1 = (int)((int64_t)(me + 1) * m / nblocks);
    const int64_t stride = part_stride(nb);
    __shared__ cuDoubleComplex xs[2][REG_ROWS];   /* x scaled by 2^-e, for the block's rows */
    __shared__ int xe[2];                         /* that e */
    __shared__ reflector rf;
    cuDoubleComplex a[REG_K][REG_COLS];

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

#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                if (t != jt)
                    continue;
#pragma unroll
                for (int k = 0; k < REG_K; k++) {
                    int i = r0 + lane + 32 * k;

                    if (i > j && i < r1) {
                        double re = fabs(cuCreal(a[k][t])), im = fabs(cuCimag(a[k][t]));

                        amax = fmax(amax, fmax(re, im));
                        blue_add(b, re);
                        blue_add(b, im);
                    }
                }
            }
            amax = __shfl_sync(0xffffffffu, warp_max(amax), 0);
            b.asml = startrd_warp_sum(b.asml);
            b.amed = startrd_warp_sum(b.amed);
            b.abig = startrd_warp_sum(b.abig);
            e = amax > 0.0 ? ilogb(amax) : 0;
            if (lane == 0) {
                mine[P_ASML] = b.asml;
                mine[P_AMED] = b.amed;
                mine[P_ABIG] = b.abig;
                mine[P_EXP] = amax > 0.0 ? (double)e : NO_ENTRY;
                xe[j % 2] = e;
            }
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                if (t != jt)
                    continue;
#pragma unroll
                for (int k = 0; k < REG_K; k++) {
                    int i = r0 + lane + 32 * k;

                    xs[j % 2][lane + 32 * k] = i > j && i < r1 ? scale2(a[k][t], -e) : make_cuDoubleComplex(0.0, 0.0);
                }
            }
        }
        __syncthreads();
        /* d_c for this warp's columns right of j, and the row j where it lies. */
#pragma unroll
        for (int t = 0; t < REG_COLS; t++) {
            int c = warp + REG_WARPS * t;
            double dr = 0.0, di = 0.0;

            if (c <= j || c >= nb)
                continue;
#pragma unroll
            for (int k = 0; k < REG_K; k++)
                conj_dot_add(dr, di, xs[j % 2][lane + 32 * k], a[k][t]);
            publish_d(mine, c, lane, dr, di);
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

        /* Warp 0 derives the reflector; every warp sums, for its columns,
         * S_c = sum_b 2^(e_b - emax) d_c(b) (lanes over blocks, then the warp). */
        const double *ro = all + (int64_t)row_owner(m, nblocks, j) * stride;
        double sr[REG_COLS], si[REG_COLS];

        if (warp == 0)
            derive_reflector(all, nblocks, stride, m, j, lane, &rf);
        {
            const int emax = parts_emax(all, nblocks, stride, lane);

#pragma unroll
            for (int t = 0; t < REG_COLS; t++)
                sr[t] = si[t] = 0.0;
            for (int k = lane; k < nblocks; k += 32) {
                const double *p = all + k * stride;
                const double pe = p[P_EXP], g = pe == NO_ENTRY ? 0.0 : pow2_nonpositive((int)pe - emax);

#pragma unroll
                for (int t = 0; t < REG_COLS; t++) {
                    int c = warp + REG_WARPS * t;

                    if (c > j && c < nb) {
                        sr[t] += g * p[P_D + 2 * c];
                        si[t] += g * p[P_D + 2 * c + 1];
                    }
                }
            }
#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                sr[t] = __shfl_sync(0xffffffffu, startrd_warp_sum(sr[t]), 0);
                si[t] = __shfl_sync(0xffffffffu, startrd_warp_sum(si[t]), 0);
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
            const double *r = ro + P_D + 2 * (int64_t)nb;
            cuDoubleComplex f[REG_COLS];

#pragma unroll
            for (int t = 0; t < REG_COLS; t++) {
                int c = warp + REG_WARPS * t;

                f[t] = c > j && c < nb
                           ? cuCmul(cuConj(rf.tau), cuCadd(make_cuDoubleComplex(r[2 * c], r[2 * c + 1]),
                                                           cuCmul(cuConj(rf.s), make_cuDoubleComplex(sr[t], si[t]))))
                           : make_cuDoubleComplex(0.0, 0.0);
            }
#pragma unroll
            for (int k = 0; k < REG_K; k++) {
                int i = r0 + lane + 32 * k;
                cuDoubleComplex v;

                if (i < j)
                    continue;
                v = i == j ? make_cuDoubleComplex(1.0, 0.0)
                           : cuCmul(scale2(xs[j % 2][lane + 32 * k], xe[j % 2] - rf.emax), rf.s);
#pragma unroll
                for (int t = 0; t < REG_COLS; t++) {
                    int c = warp + REG_WARPS * t;

                    if (c == j)
                        a[k][t] = i == j ? make_cuDoubleComplex(rf.beta, 0.0) : v;
                    else if (c > j)
                        a[k][t] = cuCsub(a[k][t], cuCmul(f[t], v));
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

/* Shared memory of a launch of the first kernel on nblocks blocks. */
inline size_t shared_bytes(int64_t m, int64_t nb, int nblocks)
{
    return (size_t)(nb + (m + nblocks - 1) / nblocks + 1) * sizeof(cuDoubleComplex);
}

/* The register kernel for nb columns; NULL if they do not fit it. */
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

/* Whether @p nblocks blocks run the register kernel: each then holds at most REG_ROWS rows. */
inline bool use_regs(int64_t m, int64_t nb, int nblocks)
{
    return regs_kernel(nb) != NULL && (m + nblocks - 1) / nblocks <= REG_ROWS;
}

/* Blocks of @p kernel that can be resident at once on the current GPU. */
int resident_blocks(const void *kernel, int threads, size_t smem)
{
    int dev, sms, per_sm;

    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem) != cudaSuccess)
        return 0;
    return sms * per_sm;
}

} // namespace

extern "C" int64_t startrd_cuda_zgeqr2_panel_scratch(int64_t nb, int nblocks)
{
    return 2 * (int64_t)nblocks * part_stride((int)nb);
}

extern "C" int startrd_cuda_zgeqr2_panel_blocks(int64_t m, int64_t nb)
{
    int smem_max, dev;
    /* The panel in registers where it takes at most half the GPU's
     * multiprocessors (m <= 8448 on an H200): the trailing update runs
     * beside it.  Stage 1 on one H200, two runs each, the register kernel
     * up to that / up to the whole GPU / never: n = 8192 0.293, 0.318 /
     * 0.297, 0.314 / 0.379, 0.343 s; n = 16384 1.005, 1.013 / 1.062, 1.017 /
     * 1.027, 1.022.
     * Beyond that the first kernel, on a block per 128 rows, at most
     * STARTRD_CUDA_ZGEQR2_BLOCKS: a block takes a whole multiprocessor's
     * registers, which the update then lacks.  Alone / beside a stream of
     * ZGEMMs, nb = 64, m = 32768: 64 blocks 1.31 / 1.77 ms, 128 blocks
     * 1.19 / 1.32 (cuSOLVER 1.92 / 3.53); but stage 1 at n = 32768 took
     * 5.76-5.85 s with at most 32 blocks against 5.96-6.10 with 128, and
     * n = 8192 and 16384 did not change.  More only where a block's column
     * would not fit in shared memory. */
    int64_t want = (m + REG_ROWS - 1) / REG_ROWS;

    if (regs_kernel(nb) != NULL && 2 * want <= resident_blocks(regs_kernel(nb), REG_THREADS, 0))
        return (int)(want < 1 ? 1 : want);
    if (want > STARTRD_CUDA_ZGEQR2_BLOCKS)
        want = STARTRD_CUDA_ZGEQR2_BLOCKS;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return 0;
    while (want < m && shared_bytes(m, nb, (int)want) + 1024 > (size_t)smem_max)
        want *= 2;
    if (shared_bytes(m, nb, (int)want) > 48 * 1024 &&
        cudaFuncSetAttribute((const void *)zgeqr2_panel_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)shared_bytes(m, nb, (int)want)) != cudaSuccess)
        return 0;
    if (want > resident_blocks((const void *)zgeqr2_panel_kernel, THREADS, shared_bytes(m, nb, (int)want)))
        return 0;
    return (int)(want < 1 ? 1 : want);
}

extern "C" cudaError_t startrd_cuda_zgeqr2_panel(int64_t m, int64_t nb, cuDoubleComplex *A, int64_t lda,
                                                 cuDoubleComplex *tau, double *scratch, int nblocks,
                                                 cudaStream_t stream)
{
    int im = (int)m, inb = (int)nb;
    void *args[] = {&im, &inb, &A, &lda, &tau, &scratch};

    if (nblocks < 1)
        return cudaErrorInvalidConfiguration;
    if (use_regs(m, nb, nblocks))
        return cudaLaunchCooperativeKernel(regs_kernel(nb), dim3((unsigned)nblocks), dim3(REG_THREADS), args, 0,
                                           stream);
    return cudaLaunchCooperativeKernel((const void *)zgeqr2_panel_kernel, dim3((unsigned)nblocks), dim3(THREADS),
                                       args, shared_bytes(m, nb, nblocks), stream);
}
