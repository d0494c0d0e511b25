#include "kernels_cuda.h"

#include <cfloat>

/* Householder QR of a tall panel without a grid-wide chain of columns.
 * The Householder kernels (zgeqr2_panel.cuh) synchronise the grid once per
 * column; on a panel too tall for registers the one that streams its rows
 * takes 1.2-1.8 ms on 32 multiprocessors (m = 16384-32768, nb = 64, one
 * H200), which the trailing update beside it loses.  Here the panel A
 * (m x nb, m >= nb) goes through
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
 * single-block kernels on nb x nb matrices: 0.47-0.54 ms at m = 16384-32768
 * on about one multiprocessor.  The two kernels (99 and 291 us at nb = 64)
 * are most of it: their nb steps each issue every thread's instructions
 * whether its entries are still active or not, so at m <= 8448, where the
 * register kernel takes 0.40-0.47 ms, this is no faster.
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

/* Thread t works on row t % MAXNB of a matrix and on its columns
 * t / MAXNB + GROUPS k: the lanes of a warp hold consecutive rows of one
 * column (contiguous in shared memory) and read the same entries of a
 * pivot row (a broadcast). */
const int MAXNB = STARTRD_CUDA_CHOLQR_MAX_NB, THREADS = 1024, GROUPS = THREADS / MAXNB, PER = MAXNB / GROUPS;

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

__device__ inline int my_row()
{
    return (int)threadIdx.x % MAXNB;
}

__device__ inline int my_column(int k)
{
    return (int)threadIdx.x / MAXNB + GROUPS * k;
}

/* The entries of an nb x nb matrix a thread holds in registers: row
 * my_row(), columns my_column(k).  The factorisations below work on
 * these; only pivot rows and columns go through shared memory. */
struct tile {
    cuDoubleComplex v[PER];
};

/* The thread's entries of X (leading dimension ld), zeros outside nb x nb. */
__device__ inline void tile_load(tile &t, const cuDoubleComplex *X, int64_t ld, int nb)
{
    const int i = my_row();

#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int c = my_column(k);

        t.v[k] = i < nb && c < nb ? X[i + c * ld] : czero();
    }
}

/* The thread's entries to X; with @p upper, zeros below the diagonal. */
__device__ inline void tile_store(const tile &t, cuDoubleComplex *X, int64_t ld, int nb, bool upper)
{
    const int i = my_row();

#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int c = my_column(k);

        if (i < nb && c < nb)
            X[i + c * ld] = upper && i > c ? czero() : t.v[k];
    }
}

/* The thread's entries of X Y, for Y upper triangular (leading dimension
 * nb) and X (leading dimension ldx) upper triangular too where
 * @p x_upper: the sum over the rows of Y that can be nonzero, in order. */
__device__ inline void tile_times_upper(tile &t, const cuDoubleComplex *X, int64_t ldx, bool x_upper,
                                        const cuDoubleComplex *Y, int nb)
{
    const int i = my_row();

#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int c = my_column(k);
        cuDoubleComplex s = czero();

        for (int q = x_upper ? i : 0; q <= c && c < nb && i < nb; q++)
            s = cuCfma(X[i + q * ldx], Y[q + c * nb], s);
        t.v[k] = s;
    }
}

/* Upper Cholesky factor of the Hermitian matrix whose upper triangle x
 * holds, in place: X = R^H R.  Every thread calls; one barrier per column:
 * the thread that updates the next pivot row copies it to shared memory
 * and publishes the pivot with its reciprocals.  False (the same in every
 * thread) if pivot j is not above nb eps X_jj (NaN and Inf included); x
 * is then meaningless. */
__device__ bool chol_upper(tile &x, int nb)
{
    __shared__ cuDoubleComplex rows[2][MAXNB];
    __shared__ double least[MAXNB], pivot[2][3];   /* d, 1/d, 1/sqrt(d) */
    const int i = my_row();
    bool ok = true;

#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int c = my_column(k);

        if (i < nb && c == i)
            least[i] = (double)nb * DBL_EPSILON * cuCreal(x.v[k]);
        if (i == 0 && c < nb)
            rows[0][c] = x.v[k];
        if (i == 0 && c == 0) {
            const double d = cuCreal(x.v[k]), rs = 1.0 / sqrt(d);

            pivot[0][0] = d;
            pivot[0][1] = rs * rs;
            pivot[0][2] = rs;
        }
    }
    __syncthreads();
    for (int j = 0; j < nb; j++) {
        const cuDoubleComplex *r = rows[j % 2];
        cuDoubleComplex *next = rows[(j + 1) % 2];
        const double d = pivot[j % 2][0];

        ok = ok && d > least[j];
        if (i > j && i < nb) {
            const cuDoubleComplex a = cscale(cuConj(r[i]), pivot[j % 2][1]);

#pragma unroll
            for (int k = 0; k < PER; k++) {
                const int c = my_column(k);

                if (c >= i && c < nb) {
                    x.v[k] = cuCsub(x.v[k], cuCmul(a, r[c]));
                    if (i == j + 1)
                        next[c] = x.v[k];
                    if (i == j + 1 && c == i) {
                        const double dn = cuCreal(x.v[k]), rs = 1.0 / sqrt(dn);

                        pivot[(j + 1) % 2][0] = dn;
                        pivot[(j + 1) % 2][1] = rs * rs;
                        pivot[(j + 1) % 2][2] = rs;
                    }
                }
            }
        } else if (i == j) {
            const double rs = pivot[j % 2][2];

#pragma unroll
            for (int k = 0; k < PER; k++) {
                const int c = my_column(k);

                if (c >= j && c < nb)
                    x.v[k] = c == j ? make_cuDoubleComplex(d * rs, 0.0) : cscale(x.v[k], rs);
            }
        }
        __syncthreads();
    }
    return ok;
}

/* y = X^-1 for the upper triangular X (leading dimension nb, read only),
 * eliminating from the last row up: row k of the inverse is final once
 * step k+1 has updated it, and its holder then scales it and copies it to
 * shared memory for step k.  The diagonal's reciprocals first, at once. */
__device__ void inverse_upper(const cuDoubleComplex *X, tile &y, int nb)
{
    __shared__ cuDoubleComplex rows[2][MAXNB], dinv[MAXNB];
    const int i = my_row();

    if (threadIdx.x < (unsigned)nb)
        dinv[threadIdx.x] = crecip(X[threadIdx.x * (nb + 1)]);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int c = my_column(k);

        y.v[k] = c == i ? dinv[i] : czero();
        if (i == nb - 1 && c == i)
            rows[(nb - 1) % 2][i] = y.v[k];
    }
    __syncthreads();
    for (int k = nb - 1; k >= 1; k--) {
        const cuDoubleComplex *r = rows[k % 2];
        cuDoubleComplex *next = rows[(k - 1) % 2];

        if (i < k) {
            const cuDoubleComplex xik = X[i + k * nb];

#pragma unroll
            for (int q = 0; q < PER; q++) {
                const int c = my_column(q);

                if (c >= k && c < nb)
                    y.v[q] = cuCsub(y.v[q], cuCmul(xik, r[c]));
                if (i == k - 1 && c >= k && c < nb)
                    y.v[q] = cuCmul(y.v[q], dinv[i]);
                if (i == k - 1 && c >= i && c < nb)
                    next[c] = y.v[q];
            }
        }
        __syncthreads();
    }
}

/* C = X Y for upper triangular X and Y in shared memory (C upper, its
 * strictly lower triangle zero), C anywhere with leading dimension ldc. */
__device__ void product_upper(const cuDoubleComplex *X, const cuDoubleComplex *Y, int nb, cuDoubleComplex *C,
                              int64_t ldc)
{
    for (int q = (int)threadIdx.x; q < nb * nb; q += THREADS) {
        const int i = q % nb, c = q / nb;
        cuDoubleComplex s = czero();

        for (int k = i; k <= c; k++)
            s = cuCfma(X[i + k * nb], Y[k + c * nb], s);
        C[i + c * ldc] = s;
    }
}

/* Q - S = L U in place in z, S_j chosen at step j against cancellation.
 * The threads that update the next pivot row and column copy them to
 * shared memory, and the one holding the next diagonal entry publishes its
 * sign, pivot and reciprocal: one barrier per column. */
__device__ void lu_minus_signs(tile &z, int nb, double *sign, cuDoubleComplex *piv)
{
    __shared__ cuDoubleComplex rowb[2][MAXNB], colb[2][MAXNB], pinv[MAXNB];
    const int i = my_row();

#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int c = my_column(k);

        if (i == 0 && c < nb)
            rowb[0][c] = z.v[k];
        if (c == 0 && i < nb)
            colb[0][i] = z.v[k];
        if (i == 0 && c == 0) {
            const double s = cuCreal(z.v[k]) >= 0.0 ? -1.0 : 1.0;

            sign[0] = s;
            piv[0] = make_cuDoubleComplex(cuCreal(z.v[k]) - s, cuCimag(z.v[k]));
            pinv[0] = crecip(piv[0]);
        }
    }
    __syncthreads();
    for (int j = 0; j < nb; j++) {
        const cuDoubleComplex *rb = rowb[j % 2], *cb = colb[j % 2];
        cuDoubleComplex *nr = rowb[(j + 1) % 2], *nc = colb[(j + 1) % 2];

        if (i > j && i < nb) {
            const cuDoubleComplex l = cuCmul(cb[i], pinv[j]);

#pragma unroll
            for (int k = 0; k < PER; k++) {
                const int c = my_column(k);

                if (c > j && c < nb) {
                    z.v[k] = cuCsub(z.v[k], cuCmul(l, rb[c]));
                    if (i == j + 1)
                        nr[c] = z.v[k];
                    if (c == j + 1)
                        nc[i] = z.v[k];
                    if (i == j + 1 && c == i) {
                        const double s = cuCreal(z.v[k]) >= 0.0 ? -1.0 : 1.0;

                        sign[i] = s;
                        piv[i] = make_cuDoubleComplex(cuCreal(z.v[k]) - s, cuCimag(z.v[k]));
                        pinv[i] = crecip(piv[i]);
                    }
                } else if (c == j) {
                    z.v[k] = l;
                }
            }
        } else if (i == j) {
#pragma unroll
            for (int k = 0; k < PER; k++)
                if (my_column(k) == j)
                    z.v[k] = piv[j];
        }
        __syncthreads();
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

/* First pass: R1 and R1^-1 from G = A^H A, or R1^-1 = 0 and the flag. */
__global__ void __launch_bounds__(THREADS) cholqr_first_kernel(int nb, cuDoubleComplex *work)
{
    extern __shared__ cuDoubleComplex sh[];
    const work_layout w = layout(work, nb);
    tile x;
    bool ok;

    tile_load(x, w.g, nb, nb);
    ok = chol_upper(x, nb);
    tile_store(x, w.r1, nb, nb, true);
    tile_store(x, sh, nb, nb, true);
    __syncthreads();
    inverse_upper(sh, x, nb);
    if (!ok)
        x = tile{};
    tile_store(x, w.rinv, nb, nb, true);
    if (threadIdx.x == 0)
        *w.failed = !ok;
}

/* Second pass and reconstruction: from G = Q1^H Q1, Q1's first nb rows and
 * R1, the first nb rows of A (R above the diagonal, L below), tau, and
 * M = R2^-1 U^-1 with alpha = 1, beta = 0, so that the rows of A below
 * become Q1 M; or, refused, M = 0 with beta = 1, which leaves them as
 * they are, and the flag. */
__global__ void __launch_bounds__(THREADS) cholqr_second_kernel(int nb, const cuDoubleComplex *Q1, int64_t ldq,
                                                               cuDoubleComplex *A, int64_t lda,
                                                               cuDoubleComplex *tau, cuDoubleComplex *work)
{
    extern __shared__ cuDoubleComplex sh[];
    cuDoubleComplex *X = sh, *Y = sh + nb * nb, *Z = sh + 2 * nb * nb;
    __shared__ double sign[MAXNB], offset;
    __shared__ cuDoubleComplex piv[MAXNB];
    const work_layout w = layout(work, nb);
    const int i = my_row();
    bool ok = *w.failed == 0;
    tile x;

    if (threadIdx.x == 0)
        offset = 0.0;
    tile_load(x, w.g, nb, nb);
    __syncthreads();
    if (ok) {
        double local = 0.0;

#pragma unroll
        for (int k = 0; k < PER; k++) {
            const double re = cuCreal(x.v[k]) - (my_column(k) == i ? 1.0 : 0.0), im = cuCimag(x.v[k]);

            if (i < nb && my_column(k) < nb)
                local += re * re + im * im;
        }
        atomicAdd(&offset, local);
        ok = chol_upper(x, nb) && offset <= 1.0 / 64.0;
    }
    if (!ok) {
        tile_store(tile{}, w.rinv, nb, nb, false);
        if (threadIdx.x == 0) {
            w.scal[0] = make_cuDoubleComplex(1.0, 0.0);
            w.scal[1] = make_cuDoubleComplex(1.0, 0.0);
            *w.failed = 1;
        }
        return;
    }

    /* R2 R1, kept for R; R2^-1 in Y; the first rows of Q = Q1 R2^-1. */
    tile_store(x, X, nb, nb, true);
    __syncthreads();
    tile_times_upper(x, X, nb, true, w.r1, nb);
    tile_store(x, w.r12, nb, nb, true);
    inverse_upper(X, x, nb);
    tile_store(x, Y, nb, nb, true);
    __syncthreads();
    tile_times_upper(x, Q1, ldq, false, Y, nb);

    lu_minus_signs(x, nb, sign, piv);

    /* U^-1 into Z, M = R2^-1 U^-1. */
    tile_store(x, X, nb, nb, false);
    __syncthreads();
    {
        tile u;

        inverse_upper(X, u, nb);
        tile_store(u, Z, nb, nb, true);
    }
    __syncthreads();
    product_upper(Y, Z, nb, w.rinv, nb);
#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int c = my_column(k);

        if (i < nb && c < nb)
            A[i + c * lda] = i <= c ? cscale(w.r12[i + c * nb], sign[i]) : x.v[k];
    }
    for (int q = (int)threadIdx.x; q < nb; q += THREADS)
        tau[q] = cscale(piv[q], -sign[q]);
    if (threadIdx.x == 0) {
        w.scal[0] = make_cuDoubleComplex(1.0, 0.0);
        w.scal[1] = make_cuDoubleComplex(0.0, 0.0);
        *w.failed = 0;
    }
}

/* Dynamic shared memory of a kernel holding @p mats nb x nb matrices,
 * opted in where it passes the default 48 KiB. */
cudaError_t prepare(const void *kernel, int64_t nb, int mats, size_t *bytes)
{
    *bytes = (size_t)mats * (size_t)(nb * nb) * sizeof(cuDoubleComplex);
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)*bytes);
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
    size_t first_bytes, second_bytes;
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
    STARTRD_CHOLQR_TRY(prepare((const void *)cholqr_first_kernel, nb, 1, &first_bytes), "cudaFuncSetAttribute",
                       cudaSuccess);
    STARTRD_CHOLQR_TRY(prepare((const void *)cholqr_second_kernel, nb, 3, &second_bytes), "cudaFuncSetAttribute",
                       cudaSuccess);
    STARTRD_CHOLQR_TRY(cublasSetStream(handle, stream), "cublasSetStream", CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(cublasZgemm(handle, CUBLAS_OP_C, CUBLAS_OP_N, inb, inb, im, &one, A, ia, A, ia, &zero, w.g,
                                   inb),
                       "cublasZgemm (A^H A)", CUBLAS_STATUS_SUCCESS);
    cholqr_first_kernel<<<1, THREADS, first_bytes, stream>>>(inb, work);
    STARTRD_CHOLQR_TRY(cudaGetLastError(), "cholqr_first kernel", cudaSuccess);
    STARTRD_CHOLQR_TRY(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, im, inb, inb, &one, A, ia, w.rinv, inb, &zero,
                                   Q, iq),
                       "cublasZgemm (A R1^-1)", CUBLAS_STATUS_SUCCESS);
    STARTRD_CHOLQR_TRY(cublasZgemm(handle, CUBLAS_OP_C, CUBLAS_OP_N, inb, inb, im, &one, Q, iq, Q, iq, &zero, w.g,
                                   inb),
                       "cublasZgemm (Q1^H Q1)", CUBLAS_STATUS_SUCCESS);
    cholqr_second_kernel<<<1, THREADS, second_bytes, stream>>>(inb, Q, ldq, A, lda, tau, work);
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
