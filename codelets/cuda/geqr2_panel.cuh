/* The one-kernel xGEQR2 of a stage-1 panel: what its two kernels share,
 * templates on the scalar type T (float, double, cuFloatComplex or
 * cuDoubleComplex) whose real type is R.
 *
 * Householder QR of a tall panel (LAPACK's xGEQR2: the same reflectors,
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
 * Two kernels follow this scheme: kernel_geqr2_panel.cu reads its rows
 * from memory and takes panels of any size; kernel_geqr2_panel_regs.cu
 * holds them in registers.  For real T the conjugations vanish and the
 * reflector is DLARFG's (SLARFG's): beta = -sign(alpha) norm,
 * tau = (beta - alpha) / beta, x scaled by 1 / (alpha - beta). */
#ifndef STARTRD_GEQR2_PANEL_CUH
#define STARTRD_GEQR2_PANEL_CUH

#include "kernels_cuda.h"
#include "scalar.cuh"
#include "warp_reduce.cuh"

#include <cfloat>
#include <climits>

namespace startrd_geqr2 {

template <class T>
using real_t = typename startrd_scalar<T>::real;

/* 2^e, exactly, at compile time. */
template <class R>
constexpr R exp2_exact(int e)
{
    R f = 1;

    for (; e > 0; e--)
        f *= 2;
    for (; e < 0; e++)
        f /= 2;
    return f;
}

/* floor(n / 2) and ceil(n / 2). */
constexpr int floor_half(int n)
{
    return n >= 0 ? n / 2 : -((1 - n) / 2);
}
constexpr int ceil_half(int n)
{
    return -floor_half(-n);
}

/* What the scheme needs to know of a real type R with C's R_MANT_DIG,
 * R_MIN_EXP and R_MAX_EXP (Fortran's digits, minexponent, maxexponent):
 * its bits as an unsigned integer B, the explicit bits of its significand
 * and its exponent bias, the normal powers of 2 (2^min_exp .. 2^max_exp),
 * LAPACK 3.10's constants for Blue's scaled sum of squares (la_constants:
 * tsml, tbig, ssml, sbig; 2^-511, 2^486, 2^537, 2^-538 in double), and
 * xLARFG's safe minimum xLAMCH('S') / xLAMCH('E') (2^-1022 / 2^-53 in
 * double) with its reciprocal's exponent. */
template <class R, class B, int DIGITS, int MIN_EXP, int MAX_EXP>
struct real_facts_of {
    using bits = B;
    static constexpr int mantissa = DIGITS - 1, bias = MAX_EXP - 1, min_exp = MIN_EXP - 1, max_exp = MAX_EXP - 1;
    static constexpr R min_normal = exp2_exact<R>(MIN_EXP - 1);
    static constexpr R tsml = exp2_exact<R>(ceil_half(MIN_EXP - 1));
    static constexpr R tbig = exp2_exact<R>(floor_half(MAX_EXP - DIGITS + 1));
    static constexpr R ssml = exp2_exact<R>(-floor_half(MIN_EXP - DIGITS));
    static constexpr R sbig = exp2_exact<R>(-ceil_half(MAX_EXP + DIGITS - 1));
    static constexpr int safmin_exp = -(MIN_EXP - 1 + DIGITS);
    static constexpr R safmin = exp2_exact<R>(-safmin_exp);
};

/* The same, and no_entry: the P_EXP of a block with no nonzero entry below
 * the diagonal. */
template <class R>
struct real_facts;

template <>
struct real_facts<double> : real_facts_of<double, unsigned long long, DBL_MANT_DIG, DBL_MIN_EXP, DBL_MAX_EXP> {
    static constexpr double no_entry = -1e300;
};

template <>
struct real_facts<float> : real_facts_of<float, unsigned int, FLT_MANT_DIG, FLT_MIN_EXP, FLT_MAX_EXP> {
    static constexpr float no_entry = -1e30f;
};

static_assert(real_facts<double>::tsml == 0x1p-511 && real_facts<double>::tbig == 0x1p486 &&
                  real_facts<double>::ssml == 0x1p537 && real_facts<double>::sbig == 0x1p-538 &&
                  real_facts<double>::safmin == 0x1p-969 && real_facts<double>::min_normal == DBL_MIN,
              "LAPACK's constants in double");
static_assert(real_facts<float>::tsml == 0x1p-63f && real_facts<float>::tbig == 0x1p52f &&
                  real_facts<float>::ssml == 0x1p75f && real_facts<float>::sbig == 0x1p-76f &&
                  real_facts<float>::safmin == 0x1p-102f && real_facts<float>::min_normal == FLT_MIN,
              "LAPACK's constants in single precision");

template <class R>
constexpr R NO_ENTRY = real_facts<R>::no_entry;

/* x's bits, and back. */
__device__ inline unsigned long long bits_of(double x)
{
    return (unsigned long long)__double_as_longlong(x);
}
__device__ inline unsigned int bits_of(float x)
{
    return (unsigned int)__float_as_int(x);
}
__device__ inline double real_of_bits(unsigned long long b)
{
    return __longlong_as_double((long long)b);
}
__device__ inline float real_of_bits(unsigned int b)
{
    return __int_as_float((int)b);
}

/* 2^e for min_exp <= e <= max_exp, from its bits. */
template <class R>
__device__ inline R pow2(int e)
{
    using F = real_facts<R>;

    return real_of_bits((typename F::bits)(e + F::bias) << F::mantissa);
}

/* ilogb(x) for x > 0, from the bits where x is normal. */
template <class R>
__device__ inline int exponent_of(R x)
{
    using F = real_facts<R>;

    return x >= F::min_normal ? (int)((bits_of(x) >> F::mantissa) & (2 * F::bias + 1)) - F::bias : ilogb(x);
}

/* Reals per entry of T. */
template <class T>
constexpr int NREAL = startrd_scalar<T>::is_complex ? 2 : 1;

/* A block's published results for one column, in reals of T: Blue's sums,
 * the exponent, alpha, then from P_D<T> the d_c and the row j, an entry
 * each (NREAL<T> reals). */
enum { P_ASML, P_AMED, P_ABIG, P_EXP, P_ALPHA };

template <class T>
constexpr int P_D = P_ALPHA + NREAL<T>;

template <class T>
__host__ __device__ inline int64_t part_stride(int nb)
{
    return P_D<T> + 2 * NREAL<T> * (int64_t)nb;   /* d_c, then the row j: r_c */
}

/* The entry of T at p[i] (i and i + 1 for complex T), and back. */
template <class T, class R, class I>
__device__ inline T load_entry(const R *p, I i)
{
    if constexpr (startrd_scalar<T>::is_complex)
        return startrd_make<T>(p[i], p[i + 1]);
    else
        return p[i];
}

template <class T, class R, class I>
__device__ inline void store_entry(R *p, I i, T a)
{
    p[i] = startrd_real(a);
    if constexpr (startrd_scalar<T>::is_complex)
        p[i + 1] = startrd_imag(a);
}

/* The sums over the warp of the parts re and im of an entry of T, in
 * lane 0; im is left alone for real T. */
template <class T>
__device__ inline void warp_sum_parts(real_t<T> &re, real_t<T> &im)
{
    re = startrd_warp_sum(re);
    if constexpr (startrd_scalar<T>::is_complex)
        im = startrd_warp_sum(im);
}

template <class R>
struct blue {
    R asml, amed, abig;
};

/* DZNRM2 drops the small entries once it has seen a big one; blue_norm()
 * ignores them then, so they may be counted here regardless. */
template <class R>
__device__ inline void blue_add(blue<R> &b, R ax)
{
    using F = real_facts<R>;

    if (ax > F::tbig)
        b.abig += (ax * F::sbig) * (ax * F::sbig);
    else if (ax < F::tsml)
        b.asml += (ax * F::ssml) * (ax * F::ssml);
    else
        b.amed += ax * ax;
}

/* x's parts into Blue's sums; the larger of @p amax and their magnitudes. */
template <class T>
__device__ inline real_t<T> entry_add(real_t<T> amax, blue<real_t<T>> &b, T x)
{
    const real_t<T> re = fabs(startrd_real(x));

    if constexpr (startrd_scalar<T>::is_complex) {
        const real_t<T> im = fabs(startrd_imag(x)), most = fmax(amax, fmax(re, im));

        blue_add(b, re);
        blue_add(b, im);
        return most;
    } else {
        const real_t<T> most = fmax(amax, re);

        blue_add(b, re);
        return most;
    }
}

/* Some lane of the warp holds a sum of entries out of Blue's middle range:
 * rare, so those sums are reduced only then (zeros otherwise). */
template <class R>
__device__ inline bool blue_outer(R asml, R abig)
{
    return __any_sync(0xffffffffu, asml != R(0) || abig != R(0));
}

/* DZNRM2's combination of the accumulators. */
template <class R>
__device__ inline R blue_norm(R asml, R amed, R abig)
{
    using F = real_facts<R>;

    if (abig > 0) {
        if (amed > 0 || isnan(amed))
            abig += (amed * F::sbig) * F::sbig;
        return sqrt(abig) / F::sbig;
    }
    if (asml > 0) {
        if (amed > 0 || isnan(amed)) {
            R lo = sqrt(amed), hi = sqrt(asml) / F::ssml;

            if (lo > hi) {
                R t = lo;
                lo = hi;
                hi = t;
            }
            return sqrt(hi * hi * (R(1) + (lo / hi) * (lo / hi)));
        }
        return sqrt(asml) / F::ssml;
    }
    return sqrt(amed);
}

template <class R>
__device__ inline R lapy3(R x, R y, R z)
{
    R w = fmax(fabs(x), fmax(fabs(y), fabs(z)));

    if (w == R(0))
        return fabs(x) + fabs(y) + fabs(z);
    return w * sqrt((x / w) * (x / w) + (y / w) * (y / w) + (z / w) * (z / w));
}

/* z 2^e.  Where 2^e is a normal number, a product by it, which rounds as
 * scalbn() does (the same bits) at a fraction of its cost: every column
 * scales its rows twice. */
template <class T>
__device__ inline T scale2(T z, int e)
{
    using F = real_facts<real_t<T>>;

    if (e >= F::min_exp && e <= F::max_exp) {
        const real_t<T> f = pow2<real_t<T>>(e);

        return startrd_make<T>(startrd_real(z) * f, startrd_imag(z) * f);
    }
    return startrd_make<T>(scalbn(startrd_real(z), e), scalbn(startrd_imag(z), e));
}

/* 2^e for e <= 0, flushed to 0 below the normal range: a factor that
 * small scales a block whose entries are negligible beside the largest. */
template <class R>
__device__ inline R pow2_nonpositive(int e)
{
    using F = real_facts<R>;

    return e < F::min_exp ? R(0) : pow2<R>(e);
}

/* The scalars of column j, the same in every block. */
template <class T>
struct reflector {
    int skip;                 /* tau = 0: H = I */
    int owner;                /* the block holding row j */
    int emax;
    real_t<T> beta;
    T tau, s;                 /* s = 2^emax / (alpha - beta) */
};

__device__ inline int warp_max_int(int v)
{
    return __reduce_max_sync(0xffffffffu, v);
}

/* d += x^H a, in parts: dr + i di (dr += x a for real T, di left alone). */
template <class T>
__device__ inline void conj_dot_add(real_t<T> &dr, real_t<T> &di, T x, T a)
{
    if constexpr (startrd_scalar<T>::is_complex) {
        dr += startrd_real(x) * startrd_real(a) + startrd_imag(x) * startrd_imag(a);
        di += startrd_real(x) * startrd_imag(a) - startrd_imag(x) * startrd_real(a);
    } else {
        dr += x * a;
    }
}

/* A warp's d_c: its lanes' parts summed, published by lane 0. */
template <class T>
__device__ inline void publish_d(real_t<T> *mine, int c, int lane, real_t<T> dr, real_t<T> di)
{
    warp_sum_parts<T>(dr, di);
    if (lane == 0)
        store_entry(mine, P_D<T> + NREAL<T> * c, startrd_make<T>(dr, di));
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
template <class R>
__device__ inline bool medium(R x)
{
    return x == R(0) || (fabs(x) >= real_facts<R>::tsml && fabs(x) <= real_facts<R>::tbig);
}

/* xLARFG on the column whose part below the diagonal has Blue's sums
 * asml, amed, abig and whose diagonal entry is alpha, with x to be scaled
 * by 2^-emax; its rescaling of tiny columns by 1 / safmin included.  For
 * real T the imaginary parts are zero and this is DLARFG: with ali = 0,
 * tau = (beta - alr) / beta and s = 2^emax / (alr - beta). */
template <class T>
__device__ inline reflector<T> reflector_from_sums(real_t<T> asml, real_t<T> amed, real_t<T> abig, int emax,
                                                   T alpha)
{
    using R = real_t<T>;
    using F = real_facts<R>;
    R alr = startrd_real(alpha), ali = startrd_imag(alpha);
    R xnorm, bt;
    int knt = 0;
    reflector<T> rf;

    rf.skip = asml == R(0) && amed == R(0) && abig == R(0) && ali == R(0);
    rf.owner = 0;
    rf.emax = emax;
    if (rf.skip)
        return rf;
    if (asml == R(0) && abig == R(0) && medium(alr) && medium(ali)) {
        /* Every square in range: beta from one square root and s from one
         * reciprocal, where DLAPY3 and a scaled complex division put four
         * divisions in a row on the chain of every column (the same values
         * to rounding); |alpha - beta| >= |beta| >= tsml. */
        if constexpr (startrd_scalar<T>::is_complex) {
            const R zr = alr - (bt = -copysign(sqrt(amed + alr * alr + ali * ali), alr));
            const R rb = R(1) / bt, rz = R(1) / (zr * zr + ali * ali);

            rf.tau = startrd_make<T>(-zr * rb, -ali * rb);
            rf.s = scale2(startrd_make<T>(zr * rz, -ali * rz), emax);
        } else {
            /* DLARFG's two divisions, side by side on the chain. */
            const R zr = alr - (bt = -copysign(sqrt(amed + alr * alr), alr));

            rf.tau = -zr / bt;
            rf.s = scale2(R(1) / zr, emax);
        }
        rf.beta = bt;
        return rf;
    }
    xnorm = blue_norm(asml, amed, abig);
    bt = -copysign(lapy3(alr, ali, xnorm), alr);
    while (fabs(bt) < F::safmin && knt < 20) {
        knt++;
        bt = scalbn(bt, F::safmin_exp);
        xnorm = scalbn(xnorm, F::safmin_exp);
        alr = scalbn(alr, F::safmin_exp);
        ali = scalbn(ali, F::safmin_exp);
    }
    if (knt > 0)
        bt = -copysign(lapy3(alr, ali, xnorm), alr);
    rf.tau = startrd_make<T>((bt - alr) / bt, -ali / bt);
    rf.s = startrd_div(startrd_make<T>(scalbn(R(1), F::safmin_exp * knt + emax)), startrd_make<T>(alr - bt, ali));
    rf.beta = scalbn(bt, -F::safmin_exp * knt);
    return rf;
}

/* One lane's share of the blocks' results for a column: Blue's sums and
 * the largest exponent of the blocks it reads. */
template <class R>
struct lane_sums {
    R asml = 0, amed = 0, abig = 0;
    int emax = INT_MIN;
};

/* The larger of @p emax and a block's published exponent @p pe. */
template <class R>
__device__ inline int fold_exponent(int emax, R pe)
{
    return pe != NO_ENTRY<R> && (int)pe > emax ? (int)pe : emax;
}

template <class R>
__device__ inline void lane_sums_add(lane_sums<R> &l, const R *p)
{
    l.asml += p[P_ASML];
    l.amed += p[P_AMED];
    l.abig += p[P_ABIG];
    l.emax = fold_exponent(l.emax, p[P_EXP]);
}

/* The reflector from the lanes' shares, reduced over the warp in the same
 * order in every block, hence the same bits everywhere; lane 0 writes it
 * to @p rf.  The diagonal entry alpha is the owner's. */
template <class T>
__device__ inline void reflector_from_lanes(lane_sums<real_t<T>> l, int owner, T alpha, int lane, reflector<T> *rf)
{
    real_t<T> asml = 0, amed = startrd_warp_sum(l.amed), abig = 0;
    int emax = warp_max_int(l.emax);

    if (blue_outer(l.asml, l.abig)) {
        asml = startrd_warp_sum(l.asml);
        abig = startrd_warp_sum(l.abig);
    }

    if (lane == 0) {
        *rf = reflector_from_sums(asml, amed, abig, emax == INT_MIN ? 0 : emax, alpha);
        rf->owner = owner;
    }
}

/* Called by one warp of every block after the grid-wide synchronisation of
 * column j: the reflector from all blocks' partial results, lanes over
 * blocks. */
template <class T>
__device__ inline void derive_reflector(const real_t<T> *all, int nblocks, int64_t stride, int64_t m, int j, int lane,
                                        reflector<T> *rf)
{
    const int o = row_owner(m, nblocks, j);
    lane_sums<real_t<T>> l;

    for (int k = lane; k < nblocks; k += 32)
        lane_sums_add(l, all + k * stride);
    reflector_from_lanes(l, o, load_entry<T>(all, o * stride + P_ALPHA), lane, rf);
}

/* The register kernel's shape: rows per block, threads per block, and at
 * most REG_LANE_BLOCKS blocks per lane when lanes go over the blocks. */
const int REG_ROWS = 128, REG_THREADS = 512, REG_LANE_BLOCKS = 3, REG_MAX_BLOCKS = 32 * REG_LANE_BLOCKS;

/* The register kernel for nb columns of T (kernel_geqr2_panel_regs.cu);
 * NULL if they do not fit it. */
template <class T>
const void *regs_kernel(int64_t nb);

} // namespace startrd_geqr2

#endif
