#include "kernels_cuda.h"
#include "warp_reduce.cuh"

#include <cfloat>

/* Householder QR of a panel without a grid-wide chain of columns.  The
 * Householder kernels (zgeqr2_panel.cuh) synchronise the grid once per
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
 * scalar factors and R of ZGEQRF, whose ZLARFG makes the same choice of
 * sign (beta = -sign(Re alpha) norm).  Four GEMMs of m x nb and two
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
 * conditioned (kappa(A) below about 1e7).  Both Cholesky factorisations
 * refuse a pivot below nb eps times its column's diagonal entry (a column
 * numerically dependent on those before; the test is blind to the
 * columns' scales, as the factorisation is), the second also requires
 * ||Q1^H Q1 - I||_F <= 1/8 (then Q1 is near orthonormal and the second pass
 * leaves Q orthogonal to rounding); a refused panel, a panel with a zero
 * or tiny column, or one whose Gram matrix overflows, raises the flag and
 * leaves A as it was, for the Householder kernel that runs only then. */

namespace {

/* nb is padded to a multiple of LEAF: a Gram matrix with the identity,
 * Q's first rows with zeros, whose LU then has pivots 1 there. */
const int MAXNB = STARTRD_CUDA_CHOLQR_MAX_NB, LEAF = 16, THREADS = 512;
/* Matrices in shared memory, one padding entry per column so that a row's
 * entries fall in different banks. */
const int LDS = MAXNB + 1, LDD = LEAF + 1;

static_assert(MAXNB % LEAF == 0 && 2 * LEAF == 32, "LEAF: a divisor of MAXNB, a warp two lanes per row");

__device__ inline cuDoubleComplex czero()
{
    return make_cuDoubleComplex(0.0, 0.0);
}

__device__ inline cuDoubleComplex cscale(cuDoubleComplex z, double s)
{
    return make_cuDoubleComplex(cuCreal(z) * s, cuCimag(z) * s);
}

/* 1/z as conj(z) / |z|^2: every divisor here is a pivot of modulus near 1
 * or above it, or one the caller has already refused. */
__device__ inline cuDoubleComplex crecip(cuDoubleComplex z)
{
    return cscale(cuConj(z), 1.0 / (cuCreal(z) * cuCreal(z) + cuCimag(z) * cuCimag(z)));
}

__device__ inline int lane_id()
{
    return (int)threadIdx.x % 32;
}

/* Shared memory of both kernels, in cuDoubleComplex: X and Z (MAXNB x
 * MAXNB, leading dimension LDS), the diagonal blocks' inverses D (of the
 * Cholesky factor, then of U), and the scratch that holds a step's block
 * row, or a level's products (LEAF x MAXNB at most). */
struct smem {
    cuDoubleComplex *x, *z, *d, *scratch;
};

const int SMEM_ENTRIES = 2 * MAXNB * LDS + MAXNB * LDD + LEAF * MAXNB;

__device__ inline smem carve(cuDoubleComplex *sh)
{
    smem s;

    s.x = sh;
    s.z = s.x + MAXNB * LDS;
    s.d = s.z + MAXNB * LDS;
    s.scratch = s.d + MAXNB * LDD;
    return s;
}

/* The nb x nb matrix at src (leading dimension ld) into X, padded to np x np
 * with the identity or with zeros. */
__device__ void load_padded(cuDoubleComplex *X, const cuDoubleComplex *src, int64_t ld, int nb, int np,
                            bool identity)
{
    for (int o = (int)threadIdx.x; o < np * np; o += THREADS) {
        const int i = o % np, c = o / np;

        X[i + c * LDS] = i < nb && c < nb ? src[i + c * ld]
                                          : make_cuDoubleComplex(identity && i == c ? 1.0 : 0.0, 0.0);
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
template <int S, typename BF, typename YF>
__device__ inline void leaf_inverse_level(BF b, YF y, cuDoubleComplex *tmp)
{
    leaf_level_outputs<S>([&](int q, int p, int r, int c) {
        cuDoubleComplex v = czero();

#pragma unroll
        for (int k = 0; k < S; k++)
            if (p + S + k <= c)
                v = cuCfma(b(r, p + S + k), y(p + S + k, c), v);
        tmp[q] = v;
    });
    __syncwarp();
    leaf_level_outputs<S>([&](int q, int p, int r, int c) {
        cuDoubleComplex v = czero();

#pragma unroll
        for (int k = 0; k < S; k++)
            if (p + k >= r)
                v = cuCfma(y(r, p + k), tmp[q - q % S + k], v);
        y(r, c) = make_cuDoubleComplex(-cuCreal(v), -cuCimag(v));
    });
    __syncwarp();
}

/* The inverse of the LEAF x LEAF upper triangle at B (leading dimension
 * LDS) to Y (leading dimension LDD).  The warp doubles the
 * inverted width at each level as inverse_upper_blocked() does, through
 * tmp (LEAF * LEAF / 2 entries): LEAF steps' chain in log2(LEAF) levels.
 * Only the triangle is written.  Every lane of the warp calls. */
__device__ void leaf_inverse(const cuDoubleComplex *B, cuDoubleComplex *Y, cuDoubleComplex *tmp)
{
    const int lane = lane_id();
    auto b = [=](int i, int k) { return B[i + k * LDS]; };
    auto y = [=](int i, int k) -> cuDoubleComplex & { return Y[i + k * LDD]; };

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

__device__ inline void leaf_load(const cuDoubleComplex *B, cuDoubleComplex (&v)[HALF])
{
#pragma unroll
    for (int t = 0; t < HALF; t++)
        v[t] = B[lane_id() % LEAF + leaf_column(t) * LDS];
}

/* Row j of the block in the lane's columns, loaded together, before the
 * branches that use them. */
__device__ inline void leaf_row(const cuDoubleComplex *B, int j, cuDoubleComplex (&r)[HALF])
{
#pragma unroll
    for (int t = 0; t < HALF; t++)
        r[t] = B[j + leaf_column(t) * LDS];
}

__device__ inline void leaf_store(cuDoubleComplex *B, const cuDoubleComplex (&v)[HALF], int from_column)
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
__device__ bool leaf_cholesky(cuDoubleComplex *B, const double *least, int live, cuDoubleComplex *D,
                              cuDoubleComplex *tmp)
{
    __shared__ double rsd[LEAF];
    const int i = lane_id() % LEAF;
    cuDoubleComplex v[HALF];
    bool ok = true;

    leaf_load(B, v);
#pragma unroll 1
    for (int j = 0; j < LEAF; j++) {
        cuDoubleComplex rj[HALF];

        leaf_row(B, j, rj);
        const double d = cuCreal(B[j + j * LDS]), rs = rsqrt(d);
        const cuDoubleComplex a = cscale(cuConj(B[j + i * LDS]), rs * rs);

        ok = ok && (j >= live || d > least[j]);
#pragma unroll
        for (int t = 0; t < HALF; t++)
            if (i > j && leaf_column(t) >= i)
                v[t] = cuCsub(v[t], cuCmul(a, rj[t]));
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
            v[t] = make_cuDoubleComplex(cuCreal(v[t]) * rsd[i], 0.0);
    }
    leaf_store(B, v, 0);
    __syncwarp();
    leaf_inverse(B, D, tmp);
    return ok;
}

/* Upper Cholesky factor of the Hermitian np x np matrix whose upper
 * triangle X holds, in place: X = R^H R, and the inverses of its diagonal
 * blocks in D.  Per block of LEAF columns: warp 0 factors the diagonal
 * block, every thread solves for the block row (R_JJ^-H X_JC, into the
 * scratch, row by row), then updates the trailing triangle and copies the
 * row back.  False (the same in every thread) if pivot j < nb is not
 * above nb eps X_jj. */
__device__ bool cholesky_blocked(cuDoubleComplex *X, cuDoubleComplex *D, cuDoubleComplex *Rp, int nb, int np)
{
    __shared__ double least[MAXNB];
    __shared__ int refused;

    for (int i = (int)threadIdx.x; i < nb; i += THREADS)
        least[i] = (double)nb * DBL_EPSILON * cuCreal(X[i + i * LDS]);
    if (threadIdx.x == 0)
        refused = 0;
    __syncthreads();
    for (int j0 = 0; j0 < np; j0 += LEAF) {
        const int w = np - j0 - LEAF, e = j0 + LEAF;
        const cuDoubleComplex *DJ = D + j0 * LDD;

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
            cuDoubleComplex s = czero();

#pragma unroll
            for (int k = 0; k < LEAF; k++)
                if (k <= r)
                    s = cuCfma(cuConj(DJ[k + r * LDD]), X[j0 + k + c * LDS], s);
            Rp[o] = s;
        }
        __syncthreads();
        for (int o = (int)threadIdx.x; o < w * w; o += THREADS) {
            const int r = o % w, c = o / w;
            cuDoubleComplex s = X[e + r + (e + c) * LDS];

            if (r > c)
                continue;
#pragma unroll
            for (int k = 0; k < LEAF; k++)
                s = cuCsub(s, cuCmul(cuConj(Rp[r + k * w]), Rp[c + k * w]));
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
__device__ inline cuDoubleComplex rows_pick(const cuDoubleComplex (&v)[PER], int j)
{
    const int k = j / RT;
    double re = cuCreal(v[0]), im = cuCimag(v[0]);

#pragma unroll
    for (int u = 1; u < PER; u++) {
        re = u == k ? cuCreal(v[u]) : re;
        im = u == k ? cuCimag(v[u]) : im;
    }
    return make_cuDoubleComplex(re, im);
}

/* Entry (row, j) of the thread's row, from the thread of that row that
 * holds column j.  Every thread of the warp calls. */
__device__ inline cuDoubleComplex rows_column(const cuDoubleComplex (&v)[PER], int j)
{
    const cuDoubleComplex x = rows_pick(v, j);
    const int holder = lane_id() / RT * RT + j % RT;

    return make_cuDoubleComplex(__shfl_sync(0xffffffffu, cuCreal(x), holder),
                                __shfl_sync(0xffffffffu, cuCimag(x), holder));
}

/* Z - S R = L U in place (L unit lower, U upper) for the upper triangular
 * R in X, without pivoting: S_j = -sign(Re) of the entry (j, j) it is
 * subtracted from, chosen at step j, so that for R near the identity every
 * pivot has modulus near 1 or above.  sign[j] = S_j, and piv[j] the pivot
 * over R_jj. */
__device__ void lu_rows_minus_sr(cuDoubleComplex *Z, const cuDoubleComplex *X, double *sign, cuDoubleComplex *piv)
{
    __shared__ cuDoubleComplex pivot_row[2][MAXNB];
    const int r = row_of_thread();
    cuDoubleComplex v[PER];

#pragma unroll
    for (int u = 0; u < PER; u++)
        v[u] = Z[r + column_of(u) * LDS];
#pragma unroll 1
    for (int j = 0; j < MAXNB; j++) {
        cuDoubleComplex *p = pivot_row[j % 2];
        const cuDoubleComplex zj = rows_column(v, j);

        if (r == j) {
            const double s = cuCreal(zj) >= 0.0 ? -1.0 : 1.0;

#pragma unroll
            for (int u = 0; u < PER; u++) {
                if (column_of(u) >= j)
                    v[u] = cuCsub(v[u], cscale(X[j + column_of(u) * LDS], s));
                p[column_of(u)] = v[u];
            }
            if (threadIdx.x % RT == 0)
                sign[j] = s;
        }
        __syncthreads();
        if (threadIdx.x == 0)
            piv[j] = cscale(p[j], 1.0 / cuCreal(X[j + j * LDS]));
        if (r > j) {
            const cuDoubleComplex l = cuCmul(zj, crecip(p[j]));

#pragma unroll
            for (int u = 0; u < PER; u++) {
                if (RT * u + RT - 1 < j)
                    continue;
                if (column_of(u) > j)
                    v[u] = cuCsub(v[u], cuCmul(l, p[column_of(u)]));
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
__device__ void diagonal_inverses(const cuDoubleComplex *X, cuDoubleComplex *D, int np, cuDoubleComplex *tmp)
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
__device__ void inverse_upper_blocked(cuDoubleComplex *X, const cuDoubleComplex *D, int np, cuDoubleComplex *tmp)
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
            cuDoubleComplex v = czero();

#pragma unroll 4
            for (int k = p + s; k <= c; k++)
                v = cuCfma(X[r + k * LDS], X[k + c * LDS], v);
            tmp[o] = v;
        }
        __syncthreads();
        for (int o = (int)threadIdx.x; o < s * cols; o += THREADS) {
            const int q = o / s, p = q / s * 2 * s, r = p + o % s, c = p + s + q % s;
            cuDoubleComplex v = czero();

#pragma unroll 4
            for (int k = r; k < p + s; k++)
                v = cuCfma(X[r + k * LDS], tmp[(int64_t)q * s + (k - p)], v);
            X[r + c * LDS] = make_cuDoubleComplex(-cuCreal(v), -cuCimag(v));
        }
        __syncthreads();
    }
}

/* C (nb x nb, leading dimension ldc) = X Y for upper triangular X and Y in
 * shared memory, zeros below the diagonal. */
__device__ void product_upper(const cuDoubleComplex *X, const cuDoubleComplex *Y, int nb, cuDoubleComplex *C,
                              int64_t ldc)
{
    for (int o = (int)threadIdx.x; o < nb * nb; o += THREADS) {
        const int i = o % nb, c = o / nb;
        cuDoubleComplex s = czero();

#pragma unroll 4
        for (int k = i; k <= c; k++)
            s = cuCfma(X[i + k * LDS], Y[k + c * LDS], s);
        C[i + c * ldc] = s;
    }
}

/* Scratch layout (cuDoubleComplex): G, R1, R1^-1 (then M), R12 = R2 R1,
 * the GEMM's alpha and beta, the flag. */
struct work_layout {
    cuDoubleComplex *g, *r1, *rinv, *r12, *scal;
    int *failed;
};

__host__ __device__ inline work_layout layout(cuDoubleComplex *work, int64_t nb)
{
    work_layout w;

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
__device__ void store_upper(const cuDoubleComplex *X, int nb, cuDoubleComplex *C, bool zero)
{
    for (int o = (int)threadIdx.x; o < nb * nb; o += THREADS) {
        const int i = o % nb, c = o / nb;

        C[o] = zero || i > c ? czero() : X[i + c * LDS];
    }
}

/* First pass: R1 and R1^-1 from G = A^H A, or R1^-1 = 0 and the flag. */
__global__ void __launch_bounds__(THREADS) cholqr_first_kernel(int nb, cuDoubleComplex *work)
{
    extern __shared__ cuDoubleComplex sh[];
    const smem s = carve(sh);
    const work_layout w = layout(work, nb);
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
__global__ void __launch_bounds__(THREADS) cholqr_second_kernel(int nb, const cuDoubleComplex *Q1, int64_t ldq,
                                                               cuDoubleComplex *A, int64_t lda,
                                                               cuDoubleComplex *tau, cuDoubleComplex *work)
{
    extern __shared__ cuDoubleComplex sh[];
    const smem s = carve(sh);
    __shared__ double sign[MAXNB], warp_sums[THREADS / 32];
    __shared__ cuDoubleComplex piv[MAXNB];
    const work_layout w = layout(work, nb);
    bool ok = *w.failed == 0;

    if (ok) {
        double local = 0.0, sum = 0.0;

        load_padded(s.x, w.g, nb, nb, MAXNB, true);
        load_padded(s.z, w.r1, nb, nb, MAXNB, true);
        __syncthreads();
        for (int o = (int)threadIdx.x; o < nb * nb; o += THREADS) {
            const int i = o % nb, c = o / nb;
            const double re = cuCreal(s.x[i + c * LDS]) - (i == c ? 1.0 : 0.0), im = cuCimag(s.x[i + c * LDS]);

            local += re * re + im * im;
        }
        /* ||G - I||_F^2 summed in a fixed order, so that a panel near the
         * threshold is accepted or refused alike in every run. */
        local = startrd_warp_sum(local);
        if (lane_id() == 0)
            warp_sums[threadIdx.x / 32] = local;
        __syncthreads();
        for (int k = 0; k < THREADS / 32; k++)
            sum += warp_sums[k];
        ok = cholesky_blocked(s.x, s.d, s.scratch, nb, MAXNB) && sum <= 1.0 / 64.0;
    }
    if (!ok) {
        store_upper(s.x, nb, w.rinv, true);
        if (threadIdx.x == 0) {
            w.scal[0] = make_cuDoubleComplex(1.0, 0.0);
            w.scal[1] = make_cuDoubleComplex(1.0, 0.0);
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
        w.scal[0] = make_cuDoubleComplex(1.0, 0.0);
        w.scal[1] = make_cuDoubleComplex(0.0, 0.0);
        *w.failed = 0;
    }
}

/* The kernels' shared memory, opted in past the default 48 KiB once per
 * device by each thread that drives one: a panel is on the chain from one
 * step to the next. */
cudaError_t prepare(size_t bytes)
{
    thread_local int dev = -1;
    int current;
    cudaError_t st;

    if ((st = cudaGetDevice(&current)) != cudaSuccess || current == dev)
        return st;
    if ((st = cudaFuncSetAttribute((const void *)cholqr_first_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)bytes)) != cudaSuccess ||
        (st = cudaFuncSetAttribute((const void *)cholqr_second_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)bytes)) != cudaSuccess)
        return st;
    dev = current;
    return cudaSuccess;
}

} // namespace

extern "C" int64_t startrd_cuda_zgeqrf_cholqr_work(int64_t nb)
{
    return 4 * nb * nb + 3;
}

extern "C" const int *startrd_cuda_zgeqrf_cholqr_flag(const cuDoubleComplex *work, int64_t nb)
{
    return layout((cuDoubleComplex *)work, nb).failed;
}

extern "C" long startrd_cuda_zgeqrf_cholqr(cublasHandle_t handle, int64_t m, int64_t nb, cuDoubleComplex *A,
                                           int64_t lda, cuDoubleComplex *Q, int64_t ldq, cuDoubleComplex *tau,
                                           cuDoubleComplex *work, cudaStream_t stream, const char **call)
{
    const cuDoubleComplex one = make_cuDoubleComplex(1.0, 0.0), zero = make_cuDoubleComplex(0.0, 0.0);
    const work_layout w = layout(work, nb);
    const int im = (int)m, inb = (int)nb, ia = (int)lda, iq = (int)ldq;
    cublasPointerMode_t mode;
    const size_t bytes = SMEM_ENTRIES * sizeof(cuDoubleComplex);
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
        *call = "zgeqrf_cholqr shape";
        return (long)cudaErrorInvalidValue;
    }
    STARTRD_CHOLQR_TRY(prepare(bytes), "cudaFuncSetAttribute", cudaSuccess);
    STARTRD_CHOLQR_TRY(cublasSetStream(handle, stream), "cublasSetStream", CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(cublasZgemm(handle, CUBLAS_OP_C, CUBLAS_OP_N, inb, inb, im, &one, A, ia, A, ia, &zero, w.g,
                                   inb),
                       "cublasZgemm (A^H A)", CUBLAS_STATUS_SUCCESS);
    cholqr_first_kernel<<<1, THREADS, bytes, stream>>>(inb, work);
    STARTRD_CHOLQR_TRY(cudaGetLastError(), "cholqr_first kernel", cudaSuccess);
    STARTRD_CHOLQR_TRY(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, im, inb, inb, &one, A, ia, w.rinv, inb, &zero,
                                   Q, iq),
                       "cublasZgemm (A R1^-1)", CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(cublasZgemm(handle, CUBLAS_OP_C, CUBLAS_OP_N, inb, inb, im, &one, Q, iq, Q, iq, &zero, w.g,
                                   inb),
                       "cublasZgemm (Q1^H Q1)", CUBLAS_STATUS_SUCCESS);
    cholqr_second_kernel<<<1, THREADS, bytes, stream>>>(inb, Q, ldq, A, lda, tau, work);
    STARTRD_CHOLQR_TRY(cudaGetLastError(), "cholqr_second kernel", cudaSuccess);
    if (m == nb)
        return 0;
    /* alpha and beta from the device: the rows below become Q1 M only
     * where the panel was accepted. */
    STARTRD_CHOLQR_TRY(cublasGetPointerMode(handle, &mode), "cublasGetPointerMode", CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode",
                       CUBLAS_STATUS_SUCCESS);
    bs = cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, im - inb, inb, inb, w.scal, Q + nb, iq, w.rinv, inb,
                     w.scal + 1, A + nb, ia);
    restore = cublasSetPointerMode(handle, mode);
    STARTRD_CHOLQR_TRY(bs, "cublasZgemm (Q1 M)", CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(restore, "cublasSetPointerMode", CUBLAS_STATUS_SUCCESS);
#undef STARTRD_CHOLQR_TRY
    return 0;
}
