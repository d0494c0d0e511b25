/* The GPU panel QR (kernel_zgeqr2_panel.cu) against LAPACK's ZGEQRF on the
 * host: R within 30 m eps of the panel's largest entry, the reflectors and
 * their scalar factors within 30 m eps, and rows between m and lda stay
 * untouched.  Both kernels: the one holding the panel in registers (at most
 * 128 rows per block, nb <= 64) and the one streaming its rows from memory
 * (more rows per block, any nb), on random panels, panels with zero columns
 * and panels scaled by 1e-200 and 1e200.  Needs a GPU: skipped without one. */
#include "config.h"
#include "testing.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"

enum variant { REGISTERS, STREAMING };

static const char *variant_name(enum variant v)
{
    return v == REGISTERS ? "registers" : "streaming";
}

/* Blocks that make the launcher pick @p v, or 0 if it cannot for this shape. */
static int blocks_for(enum variant v, int64_t m, int64_t nb)
{
    if (v == REGISTERS)
        return nb <= 64 && m <= 64 * 128 ? (int)((m + 127) / 128) : 0;
    if (m <= 128)
        return 0;
    return (int)(m / 256 > 32 ? 32 : m / 256 > 0 ? m / 256 : 1);
}

static void panel_case(enum variant var, int64_t m, int64_t nb, int kind, uint64_t seed)
{
    const double scale = kind == 2 ? 1e-200 : kind == 3 ? 1e200 : 1.0;
    int64_t lda = m + 3;
    int nblocks = blocks_for(var, m, nb);
    size_t entries = (size_t)(lda * nb);
    double complex *A = malloc(entries * sizeof *A), *R = malloc(entries * sizeof *R);
    double complex *G = malloc(entries * sizeof *G), *tau = malloc((size_t)nb * sizeof *tau);
    double complex *gtau = malloc((size_t)nb * sizeof *gtau);
    cuDoubleComplex *dA = NULL, *dtau = NULL;
    double *dscratch = NULL, amax = 0.0, rdiff = 0.0, vdiff = 0.0, tdiff = 0.0;
    int64_t touched = 0;
    cudaError_t st = cudaSuccess;

    if (nblocks == 0) {
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

            A[c * lda + i] = kind == 1 && c % 3 == 1 && i < m ? 0.0 : z;
            amax = fmax(amax, cabs(A[c * lda + i]));
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
        (st = startrd_cuda_zgeqr2_panel(m, nb, dA, lda, dtau, dscratch, nblocks, 0)) == cudaSuccess &&
        (st = cudaMemcpy(G, dA, entries * sizeof *G, cudaMemcpyDeviceToHost)) == cudaSuccess)
        st = cudaMemcpy(gtau, dtau, (size_t)nb * sizeof *gtau, cudaMemcpyDeviceToHost);
    cudaFree(dA);
    cudaFree(dtau);
    cudaFree(dscratch);
    if (!tst_check(st == cudaSuccess, "%s m %lld nb %lld kind %d on %d blocks: CUDA %s", variant_name(var),
                   (long long)m, (long long)nb, kind, nblocks, cudaGetErrorString(st))) {
        free(A), free(R), free(G), free(tau), free(gtau);
        return;
    }
    for (int64_t c = 0; c < nb; c++) {
        for (int64_t i = 0; i < m; i++) {
            double d = cabs(G[c * lda + i] - R[c * lda + i]);

            /* R scales with the panel; the reflectors, below, do not. */
            if (i <= c)
                rdiff = fmax(rdiff, d);
            else
                vdiff = fmax(vdiff, d);
        }
        for (int64_t i = m; i < lda; i++)
            touched += G[c * lda + i] != A[c * lda + i];
        tdiff = fmax(tdiff, cabs(gtau[c] - tau[c]));
    }
    tst_check(rdiff <= 30.0 * (double)m * tst_eps() * amax && vdiff <= 30.0 * (double)m * tst_eps() &&
                  tdiff <= 30.0 * (double)m * tst_eps() && touched == 0,
              "%s m %lld nb %lld kind %d on %d blocks: against LAPACK max|dR| / max|A| = %.1e, max|dV| = %.1e, "
              "max|dtau| = %.1e, %lld entries below m changed",
              variant_name(var), (long long)m, (long long)nb, kind, nblocks, rdiff / amax, vdiff, tdiff,
              (long long)touched);
    free(A), free(R), free(G), free(tau), free(gtau);
}

int main(void)
{
    static const int64_t ms[] = {1, 2, 63, 64, 65, 200, 513, 1000, 4099, 8192, 20000};
    static const int64_t nbs[] = {1, 8, 16, 17, 32, 33, 64, 96, 160};
    int ndev = 0;
    uint64_t seed = 5;

    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("# no GPU: nothing to compare\n");
        return 77;
    }
    for (int v = REGISTERS; v <= STREAMING; v++)
        for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
            for (size_t k = 0; k < sizeof nbs / sizeof nbs[0]; k++)
                for (int kind = 0; kind < 4; kind++) {
                    if (nbs[k] > ms[i] || (kind > 0 && ms[i] > 4099))
                        continue;
                    panel_case((enum variant)v, ms[i], nbs[k], kind, seed++);
                }
    return tst_summary();
}
#else
int main(void)
{
    printf("# built without CUDA: nothing to compare\n");
    return 77;
}
#endif
