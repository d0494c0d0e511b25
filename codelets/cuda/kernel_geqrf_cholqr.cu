#include "kernels_cuda.h"
#include "scalar.cuh"
#include "warp_reduce.cuh"

#include <cfloat>

/* Householder QR of a panel without a grid-wide chain of columns.  The
 * Householder kernels (geqr2_panel.cuh) synchronise the grid once per
 * column, and a panel's QR is on stage 1's chain from one step to the next.
 * Here the panel A (m x nb, m >= nb) goes through
 *     CholeskyQR2:  R1 = chol(A^H A), Q1 = A R1^-1, R2 = chol(Q1^H Q1),
 *                   Q = Q1 R2^-1, R = R2 R1,
 * then Householder reconstruction (Ballard et al., "Reconstructing
 * Householder vectors from tall-skinny QR", 2015): Q - [S; 0] = L U, an LU
 * without pivoting whose diagonal S = diag(+-1) is chosen column by column
 * as -sign(Re) of the entry it is subtracted from, so that every pivot has
 * modulus at least 1.  Then the reflectors are L (unit lower trapezoidal),
 * tau_i = -S_i U_ii, and R_i. = S_i R_i.: in exact arithmetic the reflectors,
 * scalar factors and R of xGEQRF, whose xLARFG makes the same choice of
 * sign (beta = -sign(Re alpha) norm).  The kernels and the launchers are
 * templates on the scalar type T (float, double, cuFloatComplex or
 * cuDoubleComplex) whose real type is R; for real T, ^H reads ^T, the
 * conjugations vanish, and the reflectors are DGEQRF's.  Four GEMMs of m x nb and two
 * single-block kernels on nb x nb matrices.
 *
 * The two kernels are the part of the chain that does not shrink with m.
 * The Cholesky factorisations work in blocks of LEAF columns: warp 0
 * factors each diagonal block, a lane's entries in registers and one
 * __syncwarp a column, and inverts it; then the whole block of threads
 * solves for the block row and updates the rest, three block-wide barriers
 * per LEAF columns.  The LU holds the matrix in registers a row per few
 * threads, one barrier a column (lu_rows_minus_sr()).  The triangular
 * inverses double the inverted width at each level from the diagonal
 * blocks' inverses, two barriers a level.  The shared-memory layouts keep
 * a warp's accesses free of bank conflicts or broadcast.  Blocked, the
 * kernels take far less time than column by column, one block-wide barrier
 * each, and the second less again since it forms neither R2^-1 nor Q's
 * first rows (below).  The whole factorisation then takes less time than
 * either Householder kernel at every m measured, so it factors every panel
 * it can, not only the tallest (docs/experiments.md, "Figures moved from
 * the code").
 *
 * CholeskyQR2 gives reflectors orthogonal to rounding only while A is well
 * conditioned (kappa(A) below about 1e7 in double precision, about 1e3 in
 * single).  Both Cholesky factorisations
 * refuse a pivot below nb eps times its column's diagonal entry (a column
 * numerically dependent on those before; the test is blind to the
 * columns' scales, as the factorisation is), the second also requires
 * ||Q1^H Q1 - I||_F <= 1/8 (then Q1 is near orthonormal and the second pass
 * leaves Q orthogonal to rounding); a refused panel, a panel with a zero
 * or tiny column, or one whose Gram matrix overflows, raises the flag and
 * leaves A as it was, for the Householder kernel that runs only then. */

namespace {

template <typename T>
using real_t = typename startrd_scalar<T>::real;

/* nb is padded to a multiple of LEAF: a Gram matrix with the identity,
 * Q's first rows with zeros, whose LU then has pivots 1 there. */
const int MAXNB = STARTRD_CUDA_CHOLQR_MAX_NB, LEAF = 16, THREADS = 512;
/* Matrices in shared memory, one padding entry per column so that a row's
 * entries fall in different banks. */
const int LDS = MAXNB + 1, LDD = LEAF + 1;

static_assert(MAXNB % LEAF == 0 && 2 * LEAF == 32, "LEAF: a divisor of MAXNB, a warp two lanes per row");

/* The machine epsilon of R, for the Cholesky factorisations' test. */
template <typename R>
constexpr R EPS = sizeof(R) == sizeof(double) ? DBL_EPSILON : FLT_EPSILON;

template <typename T>
__device__ inline T cscale(T z, real_t<T> s)
{
    return startrd_make<T>(startrd_real(z) * s, startrd_imag(z) * s);
}

/* 1/z, as conj(z) / |z|^2 for complex z: every divisor here is a pivot of
 * modulus near 1 or above it, or one the caller has already refused. */
template <typename T>
__device__ inline T crecip(T z)
{
    if constexpr (startrd_scalar<T>::is_complex)
        return cscale(startrd_conj(z),
                      real_t<T>(1) / (startrd_real(z) * startrd_real(z) + startrd_imag(z) * startrd_imag(z)));
    else
        return real_t<T>(1) / z;
}

__device__ inline int lane_id()
{
    return (int)threadIdx.x % 32;
}

/* Shared memory of both kernels, in entries of T: X and Z (MAXNB x
 * MAXNB, leading dimension LDS), the diagonal blocks' inverses D (of the
 * Cholesky factor, then of U), and the scratch that holds a step's block
 * row, or a level's products (LEAF x MAXNB at most). */
template <typename T>
struct smem {
    T *x, *z, *d, *scratch;
};

const int SMEM_ENTRIES = 2 * MAXNB * LDS + MAXNB * LDD + LEAF * MAXNB;

/* The dynamic shared memory as entries of T: an array of T, a name per
 * type, as an extern array's type cannot vary (bytes cast to T, as in
 * kernel_larft_gram.cu, change the z kernels' code). */
template <typename T>
__device__ T *dynamic_shared();

#define DYNAMIC_SHARED(p, T)                                                                                     \
    template <>                                                                                                  \
    __device__ inline T *dynamic_shared<T>()                                                                     \
    {                                                                                                            \
        extern __shared__ T sh_##p[];                                                                            \
        return sh_##p;                                                                                           \
    }
STARTRD_FOR_EACH_PRECISION(DYNAMIC_SHARED)
#undef DYNAMIC_SHARED

template <typename T>
__device__ inline smem<T> carve(T *sh)
{
    smem<T> s;

    s.x = sh;
    s.z = s.x + MAXNB * LDS;
    s.d = s.z + MAXNB * LDS;
    s.scratch = s.d + MAXNB * LDD;
    return s;
}

/* The nb x nb matrix at src (leading dimension ld) into X, padded to np x np
 * with the identity or with zeros. */
template <typename T>
__device__ void load_padded(T *X, const T *src, int64_t ld, int nb, int np, bool identity)
{
    for (int o = (int)threadIdx.x; o < np * np; o += THREADS) {
        const int i = o % np, c = o / np;

        X[i + c * LDS] = i < nb && c < nb ? src[i + c * ld]
                                          : startrd_make<T>(identity && i == c ? real_t<T>(1) : real_t<T>(0));
    }
}

/* f(q, p, r, c) for the lane's outputs q of a level of leaf_inverse():
 * row r of block A = [p, p+S), column c of C = [p+S, p+2S). */
template <int S, typename F>
__device__ inline void leaf_level_outputs(F f)
{
#pragma unroll
    for (int q = lane_id(); q < LEAF / 2 * S; q += 32) {
        const int p = q / (S * S) * 2 * S;

        f(q, p, p + q % S, p + S + q / S % S);
    }
}

/* One level of leaf_inverse(), S at compile time so that the loads of a
 * sum go out together. */
template <int S, typename T, typename BF, typename YF>
__device__ inline void leaf_inverse_level(BF b, YF y, T *tmp)
{
    leaf_level_outputs<S>([&](int q, int p, int r, int c) {
        T v = startrd_zero<T>();

#pragma unroll
        for (int k = 0; k < S; k++)
            if (p + S + k <= c)
                v = startrd_fma(b(r, p + S + k), y(p + S + k, c), v);
        tmp[q] = v;
    });
    __syncwarp();
    leaf_level_outputs<S>([&](int q, int p, int r, int c) {
        T v = startrd_zero<T>();

#pragma unroll
        for (int k = 0; k < S; k++)
            if (p + k >= r)
                v = startrd_fma(y(r, p + k), tmp[q - q % S + k], v);
        y(r, c) = startrd_neg(v);
    });
    __syncwarp();
}

/* The inverse of the LEAF x LEAF upper triangle at B (leading dimension
 * LDS) to Y (leading dimension LDD).  The warp doubles the
 * inverted width at each level as inverse_upper_blocked() does, through
 * tmp (LEAF * LEAF / 2 entries): LEAF steps' chain in log2(LEAF) levels.
 * Only the triangle is written.  Every lane of the warp calls. */
template <typename T>
__device__ void leaf_inverse(const T *B, T *Y, T *tmp)
{
    const int lane = lane_id();
    auto b = [=](int i, int k) { return B[i + k * LDS]; };
    auto y = [=](int i, int k) -> T & { return Y[i + k * LDD]; };

    static_assert(LEAF == 16, "the levels below");
    if (lane < LEAF)
        y(lane, lane) = crecip(b(lane, lane));
    __syncwarp();
    leaf_inverse_level<1>(b, y, tmp);
    leaf_inverse_level<2>(b, y, tmp);
    leaf_inverse_level<4>(b, y, tmp);
    leaf_inverse_level<8>(b, y, tmp);
}

/* The LEAF x LEAF Cholesky factorisation below: lane l holds row l % LEAF
 * of the block, every other column from l / LEAF, in registers, and reads
 * the pivot row of step j from shared memory, where their holders
 * published them at the end of step j - 1: one __syncwarp a step and no
 * shared-memory round trip on the chain. */
const int HALF = LEAF / 2;

__device__ inline int leaf_column(int t)
{
    return lane_id() / LEAF + 2 * t;
}

template <typename T>
__device__ inline void leaf_load(const T *B, T (&v)[HALF])
{
#pragma unroll
    for (int t = 0; t < HALF; t++)
        v[t] = B[lane_id() % LEAF + leaf_column(t) * LDS];
}

/* Row j of the block in the lane's columns, loaded together, before the
 * branches that use them. */
template <typename T>
__device__ inline void leaf_row(const T *B, int j, T (&r)[HALF])
{
#pragma unroll
    for (int t = 0; t < HALF; t++)
        r[t] = B[j + leaf_column(t) * LDS];
}

template <typename T>
__device__ inline void leaf_store(T *B, const T (&v)[HALF], int from_column)
{
#pragma unroll
    for (int t = 0; t < HALF; t++)
        if (leaf_column(t) >= from_column)
            B[lane_id() % LEAF + leaf_column(t) * LDS] = v[t];
}

/* Upper Cholesky factor of the LEAF x LEAF diagonal block at B, in place,
 * then its inverse in D.  Step j subtracts row j's outer product scaled by
 * 1/d_j and leaves row j unscaled; the rows are scaled at the end.  False
 * if one of the first @p live pivots is not above least[j] (NaN and Inf
 * included).  Every lane of the warp calls; the result is the same in
 * each. */
template <typename T>
__device__ bool leaf_cholesky(T *B, const real_t<T> *least, int live, T *D, T *tmp)
{
    using R = real_t<T>;
    __shared__ R rsd[LEAF];
    const int i = lane_id() % LEAF;
    T v[HALF];
    bool ok = true;

    leaf_load(B, v);
#pragma unroll 1
    for (int j = 0; j < LEAF; j++) {
        T rj[HALF];

        leaf_row(B, j, rj);
        const R d = startrd_real(B[j + j * LDS]), rs = rsqrt(d);
        const T a = cscale(startrd_conj(B[j + i * LDS]), rs * rs);

        ok = ok && (j >= live || d > least[j]);
#pragma unroll
        for (int t = 0; t < HALF; t++)
            if (i > j && leaf_column(t) >= i)
                v[t] = startrd_sub(v[t], startrd_mul(a, rj[t]));
        if (i == j + 1)
            leaf_store(B, v, i);
        if (lane_id() == 0)
            rsd[j] = rs;
        __syncwarp();
    }
#pragma unroll
    for (int t = 0; t < HALF; t++) {
        const int c = leaf_column(t);

        if (c > i)
            v[t] = cscale(v[t], rsd[i]);
        else if (c == i)
            v[t] = startrd_make<T>(startrd_real(v[t]) * rsd[i]);
    }
    leaf_store(B, v, 0);
    __syncwarp();
    leaf_inverse(B, D, tmp);
    return ok;
}

/* Upper Cholesky factor of the Hermitian (symmetric) np x np matrix whose upper
 * triangle X holds, in place: X = R^H R, and the inverses of its diagonal
 * blocks in D.  Per block of LEAF columns: warp 0 factors the diagonal
 * block, every thread solves for the block row (R_JJ^-H X_JC, into the
 * scratch, row by row), then updates the trailing triangle and copies the
 * row back.  False (the same in every thread) if pivot j < nb is not
 * above nb eps X_jj. */
template <typename T>
__device__ bool cholesky_blocked(T *X, T *D, T *Rp, int nb, int np)
{
    using R = real_t<T>;
    __shared__ R least[MAXNB];
    __shared__ int refused;

    for (int i = (int)threadIdx.x; i < nb; i += THREADS)
        least[i] = (R)nb * EPS<R> * startrd_real(X[i + i * LDS]);
    if (threadIdx.x == 0)
        refused = 0;
    __syncthreads();
    for (int j0 = 0; j0 < np; j0 += LEAF) {
        const int w = np - j0 - LEAF, e = j0 + LEAF;
        const T *DJ = D + j0 * LDD;

        if (threadIdx.x < 32) {
            const bool ok = leaf_cholesky(X + j0 + j0 * LDS, least + j0, nb - j0, D + j0 * LDD, Rp);

            if (threadIdx.x == 0 && !ok)
                refused = 1;
        }
        if (w == 0)
            break;
        __syncthreads();
        for (int o = (int)threadIdx.x; o < LEAF * w; o += THREADS) {
            const int c = e + o % w, r = o / w;
            T s = startrd_zero<T>();

#pragma unroll
            for (int k = 0; k < LEAF; k++)
                if (k <= r)
                    s = startrd_fma(startrd_conj(DJ[k + r * LDD]), X[j0 + k + c * LDS], s);
            Rp[o] = s;
        }
        __syncthreads();
        for (int o = (int)threadIdx.x; o < w * w; o += THREADS) {
            const int r = o % w, c = o / w;
            T s = X[e + r + (e + c) * LDS];

            if (r > c)
                continue;
#pragma unroll
            for (int k = 0; k < LEAF; k++)
                s = startrd_sub(s, startrd_mul(startrd_conj(Rp[r + k * w]), Rp[c + k * w]));
            X[e + r + (e + c) * LDS] = s;
        }
        for (int o = (int)threadIdx.x; o < LEAF * w; o += THREADS)
            X[j0 + o / w + (e + o % w) * LDS] = Rp[o];
        __syncthreads();
    }
    __syncthreads();
    return refused == 0;
}

/* The LU below holds the MAXNB x MAXNB matrix in registers, a row per RT
 * threads: thread t holds row t / RT, columns t % RT + RT u.  Step j
 * publishes row j through shared memory (two buffers, one barrier a step)
 * and every row below it updates its entries right of column j; a warp's
 * rows are consecutive, so once they are all above the step it only
 * passes the barriers.  The blocked LU of warp-factored diagonal blocks
 * (three block-wide barriers per LEAF columns and the inverses of both
 * diagonal triangles) took longer in the second kernel than this one does
 * (docs/experiments.md, "Figures moved from the code"). */
const int RT = THREADS / MAXNB, PER = MAXNB / RT;

static_assert(THREADS == RT * MAXNB && MAXNB == RT * PER && 32 % RT == 0, "a row's threads in one warp");

__device__ inline int row_of_thread()
{
    return (int)threadIdx.x / RT;
}

__device__ inline int column_of(int u)
{
    return (int)threadIdx.x % RT + RT * u;
}

/* v[j / RT], by selects: an indexed register array would go to memory. */
template <typename T>
__device__ inline T rows_pick(const T (&v)[PER], int j)
{
    const int k = j / RT;
    real_t<T> re = startrd_real(v[0]), im = startrd_imag(v[0]);

#pragma unroll
    for (int u = 1; u < PER; u++) {
        re = u == k ? startrd_real(v[u]) : re;
        im = u == k ? startrd_imag(v[u]) : im;
    }
    return startrd_make<T>(re, im);
}

/* Entry (row, j) of the thread's row, from the thread of that row that
 * holds column j.  Every thread of the warp calls. */
template <typename T>
__device__ inline T rows_column(const T (&v)[PER], int j)
{
    const T x = rows_pick(v, j);
    const int holder = lane_id() / RT * RT + j % RT;

    if constexpr (startrd_scalar<T>::is_complex)
        return startrd_make<T>(__shfl_sync(0xffffffffu, startrd_real(x), holder),
                               __shfl_sync(0xffffffffu, startrd_imag(x), holder));
    else
        return __shfl_sync(0xffffffffu, x, holder);
}

/* Z - S R = L U in place (L unit lower, U upper) for the upper triangular
 * R in X, without pivoting: S_j = -sign(Re) of the entry (j, j) it is
 * subtracted from, chosen at step j, so that for R near the identity every
 * pivot has modulus near 1 or above.  sign[j] = S_j, and piv[j] the pivot
 * over R_jj. */
template <typename T>
__device__ void lu_rows_minus_sr(T *Z, const T *X, real_t<T> *sign, T *piv)
{
    using R = real_t<T>;
    __shared__ T pivot_row[2][MAXNB];
    const int r = row_of_thread();
    T v[PER];

#pragma unroll
    for (int u = 0; u < PER; u++)
        v[u] = Z[r + column_of(u) * LDS];
#pragma unroll 1
    for (int j = 0; j < MAXNB; j++) {
        T *p = pivot_row[j % 2];
        const T zj = rows_column(v, j);

        if (r == j) {
            const R s = startrd_real(zj) >= R(0) ? R(-1) : R(1);

#pragma unroll
            for (int u = 0; u < PER; u++) {
                if (column_of(u) >= j)
                    v[u] = startrd_sub(v[u], cscale(X[j + column_of(u) * LDS], s));
                p[column_of(u)] = v[u];
            }
            if (threadIdx.x % RT == 0)
                sign[j] = s;
        }
        __syncthreads();
        if (threadIdx.x == 0)
            piv[j] = cscale(p[j], R(1) / startrd_real(X[j + j * LDS]));
        if (r > j) {
            const T l = startrd_mul(zj, crecip(p[j]));

#pragma unroll
            for (int u = 0; u < PER; u++) {
                if (RT * u + RT - 1 < j)
                    continue;
                if (column_of(u) > j)
                    v[u] = startrd_sub(v[u], startrd_mul(l, p[column_of(u)]));
                else if (column_of(u) == j)
                    v[u] = l;
            }
        }
    }
#pragma unroll
    for (int u = 0; u < PER; u++)
        Z[r + column_of(u) * LDS] = v[u];
    __syncthreads();
}

/* The inverses of the upper triangle's LEAF x LEAF diagonal blocks of X
 * (np x np) into D, a warp each. */
template <typename T>
__device__ void diagonal_inverses(const T *X, T *D, int np, T *tmp)
{
    const int w = (int)threadIdx.x / 32, j0 = w * LEAF;

    if (j0 < np)
        leaf_inverse(X + j0 + j0 * LDS, D + j0 * LDD, tmp + w * (LEAF * LEAF / 2));
    __syncthreads();
}

/* The inverse of the upper triangle of X (np x np) in place, from the
 * inverses of its diagonal blocks in D: for blocks A and C side by side on
 * the diagonal, twice as wide at each level,
 *     X^-1(A, C) = -X^-1(A, A) X(A, C) X^-1(C, C),
 * through tmp (np / 2 times the level's width at most).  X's strictly
 * lower triangle is left as it is. */
template <typename T>
__device__ void inverse_upper_blocked(T *X, const T *D, int np, T *tmp)
{
    for (int o = (int)threadIdx.x; o < LEAF * np; o += THREADS) {
        const int r = o % LEAF, c = o / LEAF, j0 = c / LEAF * LEAF;

        if (j0 + r <= c)
            X[j0 + r + c * LDS] = D[j0 * LDD + r + (c - j0) * LDD];
    }
    __syncthreads();
    for (int s = LEAF; s < np; s *= 2) {
        /* Column q of the level's C blocks, side by side, in tmp(., q). */
        const int cols = np / (2 * s) * s + (np % (2 * s) > s ? np % (2 * s) - s : 0);

        for (int o = (int)threadIdx.x; o < s * cols; o += THREADS) {
            const int q = o / s, p = q / s * 2 * s, r = p + o % s, c = p + s + q % s;
            T v = startrd_zero<T>();

#pragma unroll 4
            for (int k = p + s; k <= c; k++)
                v = startrd_fma(X[r + k * LDS], X[k + c * LDS], v);
            tmp[o] = v;
        }
        __syncthreads();
        for (int o = (int)threadIdx.x; o < s * cols; o += THREADS) {
            const int q = o / s, p = q / s * 2 * s, r = p + o % s, c = p + s + q % s;
            T v = startrd_zero<T>();

#pragma unroll 4
            for (int k = r; k < p + s; k++)
                v = startrd_fma(X[r + k * LDS], tmp[(int64_t)q * s + (k - p)], v);
            X[r + c * LDS] = startrd_neg(v);
        }
        __syncthreads();
    }
}

/* C (nb x nb, leading dimension ldc) = X Y for upper triangular X and Y in
 * shared memory, zeros below the diagonal. */
template <typename T>
__device__ void product_upper(const T *X, const T *Y, int nb, T *C, int64_t ldc)
{
    for (int o = (int)threadIdx.x; o < nb * nb; o += THREADS) {
        const int i = o % nb, c = o / nb;
        T s = startrd_zero<T>();

#pragma unroll 4
        for (int k = i; k <= c; k++)
            s = startrd_fma(X[i + k * LDS], Y[k + c * LDS], s);
        C[i + c * ldc] = s;
    }
}

/* Scratch layout (entries of T): G, R1, R1^-1 (then M), R12 = R2 R1,
 * the GEMM's alpha and beta, the flag. */
template <typename T>
struct work_layout {
    T *g, *r1, *rinv, *r12, *scal;
    int *failed;
};

template <typename T>
__host__ __device__ inline work_layout<T> layout(T *work, int64_t nb)
{
    work_layout<T> w;

    w.g = work;
    w.r1 = work + nb * nb;
    w.rinv = work + 2 * nb * nb;
    w.r12 = work + 3 * nb * nb;
    w.scal = work + 4 * nb * nb;
    w.failed = (int *)(work + 4 * nb * nb + 2);
    return w;
}

/* The np x np matrix X to C (nb x nb, leading dimension nb): its upper
 * triangle, zeros below, or zeros everywhere where @p zero. */
template <typename T>
__device__ void store_upper(const T *X, int nb, T *C, bool zero)
{
    for (int o = (int)threadIdx.x; o < nb * nb; o += THREADS) {
        const int i = o % nb, c = o / nb;

        C[o] = zero || i > c ? startrd_zero<T>() : X[i + c * LDS];
    }
}

/* First pass: R1 and R1^-1 from G = A^H A, or R1^-1 = 0 and the flag. */
template <typename T>
__global__ void __launch_bounds__(THREADS) cholqr_first_kernel(int nb, T *work)
{
    const smem<T> s = carve(dynamic_shared<T>());
    const work_layout<T> w = layout(work, nb);
    const int np = (nb + LEAF - 1) / LEAF * LEAF;
    bool ok;

    load_padded(s.x, w.g, nb, nb, np, true);
    __syncthreads();
    ok = cholesky_blocked(s.x, s.d, s.scratch, nb, np);
    store_upper(s.x, nb, w.r1, false);
    __syncthreads();
    inverse_upper_blocked(s.x, s.d, np, s.scratch);
    store_upper(s.x, nb, w.rinv, !ok);
    if (threadIdx.x == 0)
        *w.failed = !ok;
}

/* Second pass and reconstruction: from G = Q1^H Q1, Q1's first nb rows and
 * R1, the first nb rows of A (R above the diagonal, L below), tau, and
 * M = R2^-1 U^-1 with alpha = 1, beta = 0, so that the rows of A below
 * become Q1 M; or, refused, M = 0 with beta = 1, which leaves them as
 * they are, and the flag.  With Q = Q1 R2^-1, the LU of Q's first rows
 * minus S is taken as that of Q1's first rows minus S R2, whose factors are
 * L and U R2: M is then one triangle's inverse, and neither R2^-1 nor Q's
 * first rows are formed, which shortens the kernel (docs/architecture.md,
 * "The second kernel without R2^-1"). */
template <typename T>
__global__ void __launch_bounds__(THREADS) cholqr_second_kernel(int nb, const T *Q1, int64_t ldq, T *A, int64_t lda,
                                                               T *tau, T *work)
{
    using R = real_t<T>;
    const smem<T> s = carve(dynamic_shared<T>());
    __shared__ R sign[MAXNB], warp_sums[THREADS / 32];
    __shared__ T piv[MAXNB];
    const work_layout<T> w = layout(work, nb);
    bool ok = *w.failed == 0;

    if (ok) {
        R local = 0, sum = 0;

        load_padded(s.x, w.g, nb, nb, MAXNB, true);
        load_padded(s.z, w.r1, nb, nb, MAXNB, true);
        __syncthreads();
        for (int o = (int)threadIdx.x; o < nb * nb; o += THREADS) {
            const int i = o % nb, c = o / nb;
            const R re = startrd_real(s.x[i + c * LDS]) - (i == c ? R(1) : R(0));

            if constexpr (startrd_scalar<T>::is_complex) {
                const R im = startrd_imag(s.x[i + c * LDS]);

                local += re * re + im * im;
            } else {
                local += re * re;
            }
        }
        /* ||G - I||_F^2 summed in a fixed order, so that a panel near the
         * threshold is accepted or refused alike in every run. */
        local = startrd_warp_sum(local);
        if (lane_id() == 0)
            warp_sums[threadIdx.x / 32] = local;
        __syncthreads();
        for (int k = 0; k < THREADS / 32; k++)
            sum += warp_sums[k];
        ok = cholesky_blocked(s.x, s.d, s.scratch, nb, MAXNB) && sum <= R(1) / 64;
    }
    if (!ok) {
        store_upper(s.x, nb, w.rinv, true);
        if (threadIdx.x == 0) {
            w.scal[0] = startrd_one<T>();
            w.scal[1] = startrd_one<T>();
            *w.failed = 1;
        }
        return;
    }

    /* R2 R1, kept for R; then Q1's first rows in Z, over R1. */
    product_upper(s.x, s.z, nb, w.r12, nb);
    __syncthreads();
    load_padded(s.z, Q1, ldq, nb, MAXNB, false);
    __syncthreads();

    /* L and U R2 in Z, then M = (U R2)^-1 over U R2. */
    lu_rows_minus_sr(s.z, s.x, sign, piv);
    diagonal_inverses(s.z, s.d, MAXNB, s.scratch);
    inverse_upper_blocked(s.z, s.d, MAXNB, s.scratch);
    store_upper(s.z, nb, w.rinv, false);
    for (int o = (int)threadIdx.x; o < nb * nb; o += THREADS) {
        const int i = o % nb, c = o / nb;

        A[i + c * lda] = i <= c ? cscale(w.r12[o], sign[i]) : s.z[i + c * LDS];
    }
    for (int q = (int)threadIdx.x; q < nb; q += THREADS)
        tau[q] = cscale(piv[q], -sign[q]);
    if (threadIdx.x == 0) {
        w.scal[0] = startrd_one<T>();
        w.scal[1] = startrd_zero<T>();
        *w.failed = 0;
    }
}

/* The kernels' shared memory, opted in past the default 48 KiB once per
 * device by each thread that drives one: a panel is on the chain from one
 * step to the next. */
template <typename T>
cudaError_t prepare(size_t bytes)
{
    thread_local int dev = -1;
    int current;
    cudaError_t st;

    if ((st = cudaGetDevice(&current)) != cudaSuccess || current == dev)
        return st;
    if ((st = cudaFuncSetAttribute((const void *)cholqr_first_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)bytes)) != cudaSuccess ||
        (st = cudaFuncSetAttribute((const void *)cholqr_second_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)bytes)) != cudaSuccess)
        return st;
    dev = current;
    return cudaSuccess;
}

/* cuBLAS's GEMM for T (for real T, CUBLAS_OP_C is CUBLAS_OP_T), and the
 * names of the calls the launcher reports. */
template <typename T>
struct blas;

#define BLAS(T, p, P)                                                                                            \
    template <>                                                                                                  \
    struct blas<T> {                                                                                             \
        static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,   \
                                   int k, const T *alpha, const T *A, int lda, const T *B, int ldb,              \
                                   const T *beta, T *C, int ldc)                                                 \
        {                                                                                                        \
            return cublas##P##gemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                     \
        }                                                                                                        \
        static constexpr const char *shape = #p "geqrf_cholqr shape", *gram_a = "cublas" #P "gemm (A^H A)",      \
                                    *a_rinv = "cublas" #P "gemm (A R1^-1)",                                      \
                                    *gram_q = "cublas" #P "gemm (Q1^H Q1)", *q_m = "cublas" #P "gemm (Q1 M)";    \
    };
BLAS(float, s, S)
BLAS(double, d, D)
BLAS(cuFloatComplex, c, C)
BLAS(cuDoubleComplex, z, Z)
#undef BLAS

/* Entries of T in the launcher's work, whatever T: the flag takes one. */
inline int64_t work_entries(int64_t nb)
{
    return 4 * nb * nb + 3;
}

template <typename T>
long geqrf_cholqr(cublasHandle_t handle, int64_t m, int64_t nb, T *A, int64_t lda, T *Q, int64_t ldq, T *tau, T *work,
                  cudaStream_t stream, const char **call)
{
    const T one = startrd_one<T>(), zero = startrd_zero<T>();
    const work_layout<T> w = layout(work, nb);
    const int im = (int)m, inb = (int)nb, ia = (int)lda, iq = (int)ldq;
    cublasPointerMode_t mode;
    const size_t bytes = SMEM_ENTRIES * sizeof(T);
    cublasStatus_t bs, restore;

#define STARTRD_CHOLQR_TRY(expr, name, okval)                                                                      \
    do {                                                                                                           \
        long st_ = (long)(expr);                                                                                   \
        if (st_ != (long)(okval)) {                                                                                \
            *call = name;                                                                                          \
            return st_;                                                                                            \
        }                                                                                                          \
    } while (0)

    if (m < nb || nb < 1 || nb > STARTRD_CUDA_CHOLQR_MAX_NB) {
        *call = blas<T>::shape;
        return (long)cudaErrorInvalidValue;
    }
    STARTRD_CHOLQR_TRY(prepare<T>(bytes), "cudaFuncSetAttribute", cudaSuccess);
    STARTRD_CHOLQR_TRY(cublasSetStream(handle, stream), "cublasSetStream", CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(blas<T>::gemm(handle, CUBLAS_OP_C, CUBLAS_OP_N, inb, inb, im, &one, A, ia, A, ia, &zero, w.g,
                                     inb),
                       blas<T>::gram_a, CUBLAS_STATUS_SUCCESS);
    cholqr_first_kernel<T><<<1, THREADS, bytes, stream>>>(inb, work);
    STARTRD_CHOLQR_TRY(cudaGetLastError(), "cholqr_first kernel", cudaSuccess);
    STARTRD_CHOLQR_TRY(blas<T>::gemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, im, inb, inb, &one, A, ia, w.rinv, inb, &zero,
                                     Q, iq),
                       blas<T>::a_rinv, CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(blas<T>::gemm(handle, CUBLAS_OP_C, CUBLAS_OP_N, inb, inb, im, &one, Q, iq, Q, iq, &zero, w.g,
                                     inb),
                       blas<T>::gram_q, CUBLAS_STATUS_SUCCESS);
    cholqr_second_kernel<T><<<1, THREADS, bytes, stream>>>(inb, Q, ldq, A, lda, tau, work);
    STARTRD_CHOLQR_TRY(cudaGetLastError(), "cholqr_second kernel", cudaSuccess);
    if (m == nb)
        return 0;
    /* alpha and beta from the device: the rows below become Q1 M only
     * where the panel was accepted. */
    STARTRD_CHOLQR_TRY(cublasGetPointerMode(handle, &mode), "cublasGetPointerMode", CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode",
                       CUBLAS_STATUS_SUCCESS);
    bs = blas<T>::gemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, im - inb, inb, inb, w.scal, Q + nb, iq, w.rinv, inb,
                       w.scal + 1, A + nb, ia);
    restore = cublasSetPointerMode(handle, mode);
    STARTRD_CHOLQR_TRY(bs, blas<T>::q_m, CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(restore, "cublasSetPointerMode", CUBLAS_STATUS_SUCCESS);
#undef STARTRD_CHOLQR_TRY
    return 0;
}

} // namespace

#define GEQRF_CHOLQR(p, T)                                                                                       \
    extern "C" int64_t startrd_cuda_##p##geqrf_cholqr_work(int64_t nb)                                           \
    {                                                                                                            \
        return work_entries(nb);                                                                                 \
    }                                                                                                            \
    extern "C" const int *startrd_cuda_##p##geqrf_cholqr_flag(const T *work, int64_t nb)                        \
    {                                                                                                            \
        return layout((T *)work, nb).failed;                                                                     \
    }                                                                                                            \
    extern "C" long startrd_cuda_##p##geqrf_cholqr(cublasHandle_t handle, int64_t m, int64_t nb, T *A,           \
                                                   int64_t lda, T *Q, int64_t ldq, T *tau, T *work,              \
                                                   cudaStream_t stream, const char **call)                      \
    {                                                                                                            \
        return geqrf_cholqr<T>(handle, m, nb, A, lda, Q, ldq, tau, work, stream, call);                          \
    }
STARTRD_FOR_EACH_PRECISION(GEQRF_CHOLQR)
