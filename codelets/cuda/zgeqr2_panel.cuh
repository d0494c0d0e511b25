/* The one-kernel ZGEQR2 of a stage-1 panel: what its two kernels share.
 *
 * Householder QR of a tall panel (LAPACK's ZGEQR2: the same reflectors,
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
 * Two kernels follow this scheme: kernel_zgeqr2_panel.cu reads its rows
 * from memory and takes panels of any size; kernel_zgeqr2_panel_regs.cu
 * holds them in registers. */
#ifndef STARTRD_ZGEQR2_PANEL_CUH
#define STARTRD_ZGEQR2_PANEL_CUH

#include "kernels_cuda.h"
#include "warp_reduce.cuh"

#include <cfloat>
#include <climits>

namespace startrd_zgeqr2 {

/* LAPACK 3.10's constants for Blue's scaled sum of squares in double. */
const double tsml = 0x1p-511, tbig = 0x1p486, ssml = 0x1p537, sbig = 0x1p-538;
/* ZLARFG's safe minimum, DLAMCH('S') / DLAMCH('E') = 2^-1022 / 2^-53, and
 * its reciprocal's exponent. */
const double safmin = 0x1p-969;
const int safmin_exp = 969;

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

/* Some lane of the warp holds a sum of entries out of Blue's middle range:
 * rare, so those sums are reduced only then (zeros otherwise). */
__device__ inline bool blue_outer(double asml, double abig)
{
    return __any_sync(0xffffffffu, asml != 0.0 || abig != 0.0);
}

/* ilogb(x) for x > 0, from the bits where x is normal. */
__device__ inline int exponent_of(double x)
{
    return x >= DBL_MIN ? (int)((__double_as_longlong(x) >> 52) & 0x7ff) - 1023 : ilogb(x);
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

/* z 2^e.  Where 2^e is a normal number, a product by it, which rounds as
 * scalbn() does (the same bits) at a fraction of its cost: every column
 * scales its rows twice. */
__device__ inline cuDoubleComplex scale2(cuDoubleComplex z, int e)
{
    if (e >= -1022 && e <= 1023) {
        const double f = __longlong_as_double((long long)(e + 1023) << 52);

        return make_cuDoubleComplex(cuCreal(z) * f, cuCimag(z) * f);
    }
    return make_cuDoubleComplex(scalbn(cuCreal(z), e), scalbn(cuCimag(z), e));
}

/* 2^e for e <= 0, flushed to 0 below the normal range: a factor that
 * small scales a block whose entries are negligible beside the largest. */
__device__ inline double pow2_nonpositive(int e)
{
    return e < -1022 ? 0.0 : __longlong_as_double((long long)(e + 1023) << 52);
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

/* |x| is zero or in Blue's middle range, where its square neither
 * overflows nor underflows. */
__device__ inline bool medium(double x)
{
    return x == 0.0 || (fabs(x) >= tsml && fabs(x) <= tbig);
}

/* ZLARFG on the column whose part below the diagonal has Blue's sums
 * asml, amed, abig and whose diagonal entry is alr + i ali, with x to be
 * scaled by 2^-emax; its rescaling of tiny columns by 2^969 included. */
__device__ inline reflector reflector_from_sums(double asml, double amed, double abig, int emax, double alr,
                                                double ali)
{
    double xnorm, bt;
    int knt = 0;
    reflector rf;

    rf.skip = asml == 0.0 && amed == 0.0 && abig == 0.0 && ali == 0.0;
    rf.owner = 0;
    rf.emax = emax;
    if (rf.skip)
        return rf;
    if (asml == 0.0 && abig == 0.0 && medium(alr) && medium(ali)) {
        /* Every square in range: beta from one square root and s from one
         * reciprocal, where DLAPY3 and a scaled complex division put four
         * divisions in a row on the chain of every column (the same values
         * to rounding); |alpha - beta| >= |beta| >= 2^-511. */
        const double zr = alr - (bt = -copysign(sqrt(amed + alr * alr + ali * ali), alr));
        const double rb = 1.0 / bt, rz = 1.0 / (zr * zr + ali * ali);

        rf.tau = make_cuDoubleComplex(-zr * rb, -ali * rb);
        rf.s = scale2(make_cuDoubleComplex(zr * rz, -ali * rz), emax);
        rf.beta = bt;
        return rf;
    }
    xnorm = blue_norm(asml, amed, abig);
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

/* One lane's share of the blocks' results for a column: Blue's sums and
 * the largest exponent of the blocks it reads. */
struct lane_sums {
    double asml = 0.0, amed = 0.0, abig = 0.0;
    int emax = INT_MIN;
};

/* The larger of @p emax and a block's published exponent @p pe. */
__device__ inline int fold_exponent(int emax, double pe)
{
    return pe != NO_ENTRY && (int)pe > emax ? (int)pe : emax;
}

__device__ inline void lane_sums_add(lane_sums &l, const double *p)
{
    l.asml += p[P_ASML];
    l.amed += p[P_AMED];
    l.abig += p[P_ABIG];
    l.emax = fold_exponent(l.emax, p[P_EXP]);
}

/* The reflector from the lanes' shares, reduced over the warp in the same
 * order in every block, hence the same bits everywhere; lane 0 writes it
 * to @p rf.  The diagonal entry alr + i ali is the owner's. */
__device__ inline void reflector_from_lanes(lane_sums l, int owner, double alr, double ali, int lane, reflector *rf)
{
    double asml = 0.0, amed = startrd_warp_sum(l.amed), abig = 0.0;
    int emax = warp_max_int(l.emax);

    if (blue_outer(l.asml, l.abig)) {
        asml = startrd_warp_sum(l.asml);
        abig = startrd_warp_sum(l.abig);
    }

    if (lane == 0) {
        *rf = reflector_from_sums(asml, amed, abig, emax == INT_MIN ? 0 : emax, alr, ali);
        rf->owner = owner;
    }
}

/* Called by one warp of every block after the grid-wide synchronisation of
 * column j: the reflector from all blocks' partial results, lanes over
 * blocks. */
__device__ inline void derive_reflector(const double *all, int nblocks, int64_t stride, int64_t m, int j, int lane,
                                        reflector *rf)
{
    const int o = row_owner(m, nblocks, j);
    lane_sums l;

    for (int k = lane; k < nblocks; k += 32)
        lane_sums_add(l, all + k * stride);
    reflector_from_lanes(l, o, all[o * stride + P_ALPHA], all[o * stride + P_ALPHA + 1], lane, rf);
}

/* The register kernel's shape: rows per block, threads per block, and at
 * most REG_LANE_BLOCKS blocks per lane when lanes go over the blocks. */
const int REG_ROWS = 128, REG_THREADS = 512, REG_LANE_BLOCKS = 3, REG_MAX_BLOCKS = 32 * REG_LANE_BLOCKS;

/* The register kernel for nb columns (kernel_zgeqr2_panel_regs.cu); NULL
 * if they do not fit it. */
const void *regs_kernel(int64_t nb);

} // namespace startrd_zgeqr2

#endif
