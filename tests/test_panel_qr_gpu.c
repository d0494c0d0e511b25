/* The GPU panel QR against LAPACK's ZGEQRF on the host: R within 30 m eps
 * of the panel's largest entry, the reflectors and their scalar factors
 * within 30 m eps, and rows between m and lda stay untouched.  Both
 * Householder kernels (kernel_geqr2_panel.cu): the one holding the panel in
 * registers (at most 128 rows per block, nb <= 64) and the one streaming its
 * rows from memory (more rows per block, any nb); and CholeskyQR2 with
 * Householder reconstruction (kernel_geqrf_cholqr.cu) followed by the
 * Householder kernel it falls back to, as the panel codelet runs them, which
 * must accept the random panels and refuse the others.  On random panels,
 * panels with zero columns, panels scaled by 1e-200 and 1e200, and panels
 * whose columns are nearly dependent (kappa about 1e9); up to panels of
 * 100000 rows, whose streaming blocks need more shared memory than a kernel
 * gets unless it asks.  Needs a GPU: skipped without one. */
#include "config.h"
#include "testing.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"

enum variant { REGISTERS, STREAMING, CHOLQR };

enum kind { RANDOM, ZERO_COLUMNS, TINY, HUGE, DEPENDENT, NKINDS };

/* As tall as stage 1's first panels from n = 96000 or so on, where the
 * streaming kernel's blocks need more than the 48 KiB of shared memory any
 * kernel may take. */
enum { TALL = 100000 };

static const char *variant_name(enum variant v)
{
    return v == REGISTERS ? "registers" : v == STREAMING ? "streaming" : "cholqr";
}

/* Blocks that make the launcher pick @p v, or 0 if it cannot for this shape. */
static int blocks_for(enum variant v, int64_t m, int64_t nb)
{
    if (v == CHOLQR)
        return nb <= STARTRD_CUDA_CHOLQR_MAX_NB ? startrd_cuda_zgeqr2_panel_blocks(m, nb) : 0;
    if (v == REGISTERS)
        return nb <= 64 && m <= 64 * 128 ? (int)((m + 127) / 128) : 0;
    if (m <= 128)
        return 0;
    return (int)(m / 256 > 32 ? 32 : m / 256 > 0 ? m / 256 : 1);
}

/* The panel codelet's pair: CholeskyQR2, then the Householder kernel on a
 * refused panel.  *refused: whether CholeskyQR2 refused it. */
static cudaError_t cholqr_pair(int64_t m, int64_t nb, cuDoubleComplex *dA, int64_t lda, cuDoubleComplex *dtau,
                               double *dscratch, int nblocks, int *refused)
{
    cuDoubleComplex *dq = NULL, *dwork = NULL;
    cublasHandle_t handle = NULL;
    const char *call = NULL;
    cudaError_t st;
    long bs = 0;

    if ((st = cudaMalloc((void **)&dq, (size_t)(m * nb) * sizeof *dq)) == cudaSuccess &&
        (st = cudaMalloc((void **)&dwork, (size_t)startrd_cuda_zgeqrf_cholqr_work(nb) * sizeof *dwork)) ==
            cudaSuccess &&
        (bs = cublasCreate(&handle)) == CUBLAS_STATUS_SUCCESS &&
        (bs = startrd_cuda_zgeqrf_cholqr(handle, m, nb, dA, lda, dq, m, dtau, dwork, 0, &call)) == 0 &&
        (st = startrd_cuda_zgeqr2_panel(m, nb, dA, lda, dtau, dscratch, nblocks,
                                        startrd_cuda_zgeqrf_cholqr_flag(dwork, nb), 0)) == cudaSuccess)
        st = cudaMemcpy(refused, startrd_cuda_zgeqrf_cholqr_flag(dwork, nb), sizeof *refused,
                        cudaMemcpyDeviceToHost);
    if (bs != 0) {
        fprintf(stderr, "# %s failed with status %ld\n", call != NULL ? call : "cublasCreate", bs);
        st = cudaErrorUnknown;
    }
    if (handle != NULL)
        cublasDestroy(handle);
    cudaFree(dq);
    cudaFree(dwork);
    return st;
}

static void panel_case(enum variant var, int64_t m, int64_t nb, enum kind kind, uint64_t seed)
{
    const double scale = kind == TINY ? 1e-200 : kind == HUGE ? 1e200 : 1.0;
    int64_t lda = m + 3;
    int nblocks = blocks_for(var, m, nb);
    size_t entries = (size_t)(lda * nb);
    double complex *A = malloc(entries * sizeof *A), *R = malloc(entries * sizeof *R);
    double complex *G = malloc(entries * sizeof *G), *tau = malloc((size_t)nb * sizeof *tau);
    double complex *gtau = malloc((size_t)nb * sizeof *gtau), *H = NULL;
    cuDoubleComplex *dA = NULL, *dtau = NULL;
    double *dscratch = NULL, amax = 0.0, rdiff = 0.0, vdiff = 0.0, tdiff = 0.0;
    int64_t touched = 0;
    int refused = -1, expected;
    cudaError_t st = cudaSuccess;

    if (nblocks == 0) {
        /* The launcher must find blocks for every panel the codelet has. */
        if (var == CHOLQR && nb <= STARTRD_CUDA_CHOLQR_MAX_NB)
            tst_check(false, "cholqr m %lld nb %lld: the launcher found no blocks", (long long)m, (long long)nb);
        free(A), free(R), free(G), free(tau), free(gtau);
        return;
    }
    if (A == NULL || R == NULL || G == NULL || tau == NULL || gtau == NULL) {
        tst_check(false, "%s m %lld nb %lld: out of memory", variant_name(var), (long long)m, (long long)nb);
        free(A), free(R), free(G), free(tau), free(gtau);
        return;
    }
    srand48((long)seed);
    for (int64_t c = 0; c < nb; c++)
        for (int64_t i = 0; i < lda; i++) {
            double complex z = ((drand48() - 0.5) + I * (drand48() - 0.5)) * scale;

            A[c * lda + i] = kind == ZERO_COLUMNS && c % 3 == 1 && i < m ? 0.0 : z;
            /* Column 1 a multiple of column 0 plus 1e-9 of noise. */
            if (kind == DEPENDENT && c == 1 && i < m)
                A[lda + i] = 3.0 * A[i] + 1e-9 * z;
            amax = tst_max_nan(amax, cabs(A[c * lda + i]));
        }
    memcpy(R, A, entries * sizeof *A);
    if (LAPACKE_zgeqrf(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)nb, R, (lapack_int)lda, tau) != 0) {
        tst_check(false, "%s m %lld nb %lld: LAPACKE_zgeqrf failed", variant_name(var), (long long)m,
                  (long long)nb);
        free(A), free(R), free(G), free(tau), free(gtau);
        return;
    }
    if ((st = cudaMalloc((void **)&dA, entries * sizeof *dA)) == cudaSuccess &&
        (st = cudaMalloc((void **)&dtau, (size_t)nb * sizeof *dtau)) == cudaSuccess &&
        (st = cudaMalloc((void **)&dscratch,
                         (size_t)startrd_cuda_zgeqr2_panel_scratch(nb, nblocks) * sizeof *dscratch)) == cudaSuccess &&
        (st = cudaMemcpy(dA, A, entries * sizeof *A, cudaMemcpyHostToDevice)) == cudaSuccess &&
        (st = var == CHOLQR ? cholqr_pair(m, nb, dA, lda, dtau, dscratch, nblocks, &refused)
                            : startrd_cuda_zgeqr2_panel(m, nb, dA, lda, dtau, dscratch, nblocks, NULL, 0)) ==
            cudaSuccess &&
        (st = cudaMemcpy(G, dA, entries * sizeof *G, cudaMemcpyDeviceToHost)) == cudaSuccess &&
        (st = cudaMemcpy(gtau, dtau, (size_t)nb * sizeof *gtau, cudaMemcpyDeviceToHost)) == cudaSuccess &&
        var == CHOLQR && kind == DEPENDENT) {
        /* A refused panel must reach the Householder kernel as it was. */
        if ((H = malloc(entries * sizeof *H)) == NULL)
            st = cudaErrorMemoryAllocation;
        else if ((st = cudaMemcpy(dA, A, entries * sizeof *A, cudaMemcpyHostToDevice)) == cudaSuccess &&
                 (st = startrd_cuda_zgeqr2_panel(m, nb, dA, lda, dtau, dscratch, nblocks, NULL, 0)) == cudaSuccess)
            st = cudaMemcpy(H, dA, entries * sizeof *H, cudaMemcpyDeviceToHost);
    }
    cudaFree(dA);
    cudaFree(dtau);
    cudaFree(dscratch);
    if (!tst_check(st == cudaSuccess, "%s m %lld nb %lld kind %d on %d blocks: CUDA %s", variant_name(var),
                   (long long)m, (long long)nb, kind, nblocks, cudaGetErrorString(st))) {
        free(A), free(R), free(G), free(tau), free(gtau), free(H);
        return;
    }
    /* Nearly dependent columns leave R and the reflectors of the second
     * column to rounding (any two Householder codes differ there by about
     * kappa eps): that case checks the refusal only. */
    if (kind == DEPENDENT) {
        tst_check(refused == 1 && memcmp(G, H, entries * sizeof *G) == 0,
                  "cholqr m %lld nb %lld, dependent columns: %s, %s the Householder kernel's result", (long long)m,
                  (long long)nb, refused == 1 ? "refused" : "accepted",
                  memcmp(G, H, entries * sizeof *G) == 0 ? "the same bits as" : "differs from");
        free(A), free(R), free(G), free(tau), free(gtau), free(H);
        return;
    }
    for (int64_t c = 0; c < nb; c++) {
        for (int64_t i = 0; i < m; i++) {
            double d = cabs(G[c * lda + i] - R[c * lda + i]);

            /* R scales with the panel; the reflectors, below, do not. */
            if (i <= c)
                rdiff = tst_max_nan(rdiff, d);
            else
                vdiff = tst_max_nan(vdiff, d);
        }
        for (int64_t i = m; i < lda; i++)
            touched += G[c * lda + i] != A[c * lda + i];
        tdiff = tst_max_nan(tdiff, cabs(gtau[c] - tau[c]));
    }
    tst_check(rdiff <= 30.0 * (double)m * tst_zeps() * amax && vdiff <= 30.0 * (double)m * tst_zeps() &&
                  tdiff <= 30.0 * (double)m * tst_zeps() && touched == 0,
              "%s m %lld nb %lld kind %d on %d blocks: against LAPACK max|dR| / max|A| = %.1e, max|dV| = %.1e, "
              "max|dtau| = %.1e, %lld entries below m changed",
              variant_name(var), (long long)m, (long long)nb, kind, nblocks, rdiff / amax, vdiff, tdiff,
              (long long)touched);
    /* A square random panel may be too ill-conditioned by chance; a tall
     * one (m >= 4 nb) is not, and one column never is.  A single column
     * has no zero column here (every third column from the second is). */
    expected = kind != RANDOM && !(kind == ZERO_COLUMNS && nb == 1);
    if (var == CHOLQR && (expected || m >= 4 * nb || nb == 1))
        tst_check(refused == expected, "cholqr m %lld nb %lld kind %d: %s by CholeskyQR2", (long long)m,
                  (long long)nb, kind, refused ? "refused" : "accepted");
    free(A), free(R), free(G), free(tau), free(gtau);
}

/* Every kind up to 4099 rows, random panels above; at TALL rows the
 * bandwidth stage 1 uses, random panels and, through the launcher's blocks,
 * the Householder kernel on a panel CholeskyQR2 refuses. */
static bool wanted(enum variant v, int64_t m, int64_t nb, enum kind kind)
{
    if (nb > m || (kind == DEPENDENT && (v != CHOLQR || nb < 2)))
        return false;
    if (m == TALL)
        return nb == 64 && (kind == RANDOM || kind == DEPENDENT);
    return kind == RANDOM || m <= 4099;
}

int main(void)
{
    static const int64_t ms[] = {1, 2, 63, 64, 65, 200, 513, 1000, 4099, 8192, 20000, TALL};
    static const int64_t nbs[] = {1, 8, 16, 17, 32, 33, 64, 96, 160};
    int ndev = 0;
    uint64_t seed = 5;

    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("# no GPU: nothing to compare\n");
        return 77;
    }
    for (int v = REGISTERS; v <= CHOLQR; v++)
        for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
            for (size_t k = 0; k < sizeof nbs / sizeof nbs[0]; k++)
                for (int kind = RANDOM; kind < NKINDS; kind++)
                    if (wanted((enum variant)v, ms[i], nbs[k], (enum kind)kind))
                        panel_case((enum variant)v, ms[i], nbs[k], (enum kind)kind, seed++);
    return tst_summary();
}
#else
int main(void)
{
    printf("# built without CUDA: nothing to compare\n");
    return 77;
}
#endif
