/* startrd-reduce: reduce a generated Hermitian matrix and report the time
 * per stage, the rate, and optionally the agreement of the eigenvalues with
 * LAPACK's ZHEEVD. */
#include "startrd.h"

#include "hermitian_gen.h"

#include "config.h"
#ifdef STARTRD_USE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#endif

#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef STARTRD_USE_CUDA
/* cuBLAS ZGEMM on GPU 0 at the matrix's own order (at most 8192), the rate
 * stage 1 is measured against: the best of three after a warm-up. */
static double zgemm_tflops(int64_t n)
{
    int m = (int)(n < 8192 ? n : 8192);
    size_t bytes = (size_t)m * (size_t)m * sizeof(cuDoubleComplex);
    cuDoubleComplex *a = NULL, *b = NULL, *c = NULL, one = {1.0, 0.0}, zero = {0.0, 0.0};
    cublasHandle_t h;
    cudaEvent_t e0, e1;
    float ms, best = 0.0f;

    if (cudaSetDevice(0) != cudaSuccess || cudaMalloc((void **)&a, bytes) != cudaSuccess ||
        cudaMalloc((void **)&b, bytes) != cudaSuccess || cudaMalloc((void **)&c, bytes) != cudaSuccess ||
        cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return 0.0;
    cudaMemset(a, 0, bytes);
    cudaMemset(b, 0, bytes);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int r = 0; r < 4; r++) {
        cudaEventRecord(e0, 0);
        cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, a, m, b, m, &zero, c, m);
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        if (r > 0 && (best == 0.0f || ms < best))
            best = ms;
    }
    cublasDestroy(h);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return best > 0.0f ? 8.0 * (double)m * m * m / (best * 1e-3) * 1e-12 : 0.0;
}
#endif

static void usage(FILE *f)
{
    fprintf(f, "usage: startrd-reduce [--n N] [--ngpu K] [--nb NB] [--dist D] [--uplo L|U]\n"
               "                      [--vect N|V] [--seed S] [--check] [--zgemm] [--trace DIR]\n"
               "                      [--stage2 auto|host]\n"
               "  --n      order of the random Hermitian matrix (default 4096)\n"
               "  --ngpu   GPUs: -1 every GPU (default), 0 CPU workers only, k the first k\n"
               "  --nb     bandwidth (default: the library's choice)\n"
               "  --dist   columns per distribution block, a multiple of nb\n"
               "  --check  compare the eigenvalues with LAPACK ZHEEVD\n"
               "  --zgemm  also measure cuBLAS ZGEMM's rate on GPU 0\n"
               "  --trace  DIR: record the reduction's trace into DIR (paje.trace, tasks.rec)\n"
               "  --stage2 where the bulge chase runs: auto (a GPU when there is one) or host\n");
}


static int compare(const double *x, const double *y)
{
    return *x < *y ? -1 : *x > *y;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"n", required_argument, 0, 'n'},    {"ngpu", required_argument, 0, 'g'},
        {"nb", required_argument, 0, 'b'},   {"dist", required_argument, 0, 'D'},
        {"uplo", required_argument, 0, 'u'}, {"vect", required_argument, 0, 'v'},
        {"seed", required_argument, 0, 's'}, {"check", no_argument, 0, 'c'},
        {"zgemm", no_argument, 0, 'z'},      {"trace", required_argument, 0, 't'},
        {"stage2", required_argument, 0, 'S'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int64_t n = 4096;
    int ngpu = -1, seed = 1, check = 0, zgemm = 0, c, info;
    char uplo = 'L', vect = 'N';
    startrd_options_t opt;
    startrd_stats_t st;

    startrd_options_init(&opt);
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'n': n = atoll(optarg); break;
        case 'g': ngpu = atoi(optarg); break;
        case 'b': opt.nb = atoi(optarg); break;
        case 'D': opt.dist_nb = atoi(optarg); break;
        case 'u': uplo = optarg[0]; break;
        case 'v': vect = optarg[0]; break;
        case 's': seed = atoi(optarg); break;
        case 'c': check = 1; break;
        case 'z': zgemm = 1; break;
        case 't': opt.trace_dir = optarg; break;
        case 'S': opt.stage2 = strcmp(optarg, "host") == 0 ? STARTRD_STAGE2_HOST : STARTRD_STAGE2_AUTO; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (n < 1 || n > 1 << 20) {
        usage(stderr);
        return 2;
    }
#ifdef STARTRD_USE_CUDA
    if (zgemm)
        printf("cuBLAS ZGEMM, order %lld at most 8192, GPU 0: %.1f TFLOP/s\n", (long long)n, zgemm_tflops(n));
#else
    if (zgemm)
        fprintf(stderr, "--zgemm: built without CUDA\n");
#endif
    opt.ngpu = ngpu;
    if ((info = startrd_init(&opt)) != 0) {
        fprintf(stderr, "startrd_init failed (%d)\n", info);
        return 1;
    }

    size_t nn = (size_t)n * (size_t)n;
    double complex *a = malloc(nn * sizeof *a), *a0 = check ? malloc(nn * sizeof *a0) : NULL;
    double complex *tau = malloc((size_t)n * sizeof *tau), q;
    double *d = malloc((size_t)n * sizeof *d), *e = malloc((size_t)n * sizeof *e);
    int lhous2 = -1;

    if (a == NULL || tau == NULL || d == NULL || e == NULL || (check && a0 == NULL)) {
        fprintf(stderr, "cannot allocate a matrix of order %lld\n", (long long)n);
        return 1;
    }
    perf_hermitian(n, a, (uint64_t)seed);
    if (check)
        memcpy(a0, a, nn * sizeof *a);
    if (zhetrd_2stage_mgpu(vect, uplo, (int)n, a, (int)n, d, e, tau, &q, lhous2, NULL, 0, ngpu) != 0)
        return 1;
    if (creal(q) > INT_MAX) {
        fprintf(stderr, "VECT = 'V' at n = %lld needs %.0f entries of HOUS2, more than an int counts\n",
                (long long)n, creal(q));
        return 1;
    }
    lhous2 = (int)creal(q);
    double complex *hous2 = malloc((size_t)lhous2 * sizeof *hous2);
    if (hous2 == NULL) {
        fprintf(stderr, "cannot allocate HOUS2 (%d entries)\n", lhous2);
        return 1;
    }
    double t0 = perf_now();

    info = zhetrd_2stage_mgpu(vect, uplo, (int)n, a, (int)n, d, e, tau, hous2, lhous2, NULL, 0, ngpu);
    double t = perf_now() - t0;
    if (info != 0) {
        fprintf(stderr, "zhetrd_2stage_mgpu returned %d\n", info);
        return 1;
    }
    startrd_last_stats(&st);
    double flops = 16.0 / 3.0 * (double)n * (double)n * (double)n;
    printf("n %lld  uplo %c  vect %c  gpus %d (stage 1 on %d%s, stage 2 on %d)  nb %d  allreduce %s  "
           "stage1 %.3f s (%.2f TFLOP/s)  "
           "stage2 %.3f s  total %.3f s  %.2f TFLOP/s\n",
           (long long)n, uplo, vect, st.ngpu, st.stage1_ngpu, st.stage1_out_of_core ? ", out of core" : "",
           st.stage2_ngpu, st.nb, startrd_allreduce_name(st.allreduce), st.stage1_seconds,
           flops / st.stage1_seconds * 1e-12, st.stage2_seconds, t, flops / t * 1e-12);

    int status = 0;
    if (check) {
        double *w = malloc((size_t)n * sizeof *w), diff = 0.0, scale = 0.0;

        /* a0 holds both triangles; ZHEEVD's 'L' path also avoids an
         * intermittent crash of OpenBLAS 0.3.21's 'U' path next to StarPU. */
        if (w == NULL || LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, a0,
                                        (lapack_int)n, w) != 0 ||
            LAPACKE_dsterf((lapack_int)n, d, e) != 0) {
            fprintf(stderr, "LAPACK reference failed\n");
            return 1;
        }
        qsort(d, (size_t)n, sizeof *d, (int (*)(const void *, const void *))compare);
        for (int64_t i = 0; i < n; i++) {
            diff = fmax(diff, fabs(d[i] - w[i]));
            scale = fmax(scale, fabs(w[i]));
        }
        double ratio = diff / ((double)n * DBL_EPSILON * fmax(scale, DBL_MIN));
        status = ratio <= 10.0 ? 0 : 1;
        printf("eigenvalues vs LAPACK zheevd: max|dlambda| %.3e = %.3f n*eps*max|lambda|  %s\n",
               diff, ratio, status ? "FAIL" : "ok");
        free(w);
    }
    free(a);
    free(a0);
    free(tau);
    free(d);
    free(e);
    free(hous2);
    /* The trace is converted when the context closes. */
    if (startrd_finalize() != 0)
        status = 1;
    return status;
}
