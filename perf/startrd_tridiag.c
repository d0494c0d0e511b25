/* startrd-tridiag N...: the tridiagonal eigenproblem with vectors at each
 * order N, LAPACK's DSTEDC on the host cores against the library's divide
 * and conquer (tridiag_dstedc.h, merges' products on the GPUs), on the same
 * random matrix (entries uniform in [-1,1]), best of two runs each, with
 * how far apart their eigenvalues are in units of n eps ||T||. */
#include "startrd.h"

#include "context.h"
#include "hermitian_gen.h"
#include "tridiag_dstedc.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Best of two runs of one solver on copies of d0, e0; 0 on success. */
static int time_solver(int lapack, int64_t n, const double *d0, const double *e0, double *w, double *e, double *Z,
                       double *best)
{
    *best = INFINITY;
    for (int r = 0; r < 2; r++) {
        int info;
        double t0;

        memcpy(w, d0, (size_t)n * sizeof *w);
        memcpy(e, e0, (size_t)n * sizeof *e);
        t0 = perf_now();
        if (lapack) {
            startrd_context_host_parallel(1);
            info = LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', (lapack_int)n, w, e, Z, (lapack_int)n);
            startrd_context_host_parallel(0);
        } else {
            info = startrd_dstedc(n, w, e, Z, n, 0, NULL);
        }
        if (info != 0)
            return info;
        *best = fmin(*best, perf_now() - t0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    startrd_context_t *ctx;

    if (argc < 2) {
        fprintf(stderr, "usage: startrd-tridiag N...\n");
        return 2;
    }
    if (startrd_context_acquire(NULL, 0, &ctx) != 0)
        return 1;
    printf("startrd-tridiag: %d OpenMP threads, %d GPUs; seconds, best of 2\n", omp_get_max_threads(), ctx->ncuda);
    printf("%8s %10s %10s %8s %10s\n", "n", "dstedc_s", "startrd_s", "speedup", "eig");
    for (int a = 1; a < argc; a++) {
        int64_t n = strtoll(argv[a], NULL, 10);
        double *d0 = malloc((size_t)n * sizeof *d0), *e0 = malloc((size_t)n * sizeof *e0);
        double *w1 = malloc((size_t)n * sizeof *w1), *w2 = malloc((size_t)n * sizeof *w2);
        double *e = malloc((size_t)n * sizeof *e), *Z = malloc((size_t)n * (size_t)n * sizeof *Z);
        double t_lapack, t_startrd, diff = 0.0, norm = 0.0;
        uint64_t state = (uint64_t)n;
        int info;

        if (n < 1 || d0 == NULL || e0 == NULL || w1 == NULL || w2 == NULL || e == NULL || Z == NULL) {
            fprintf(stderr, "startrd-tridiag: n = %s: invalid or out of memory\n", argv[a]);
            return 1;
        }
        for (int64_t i = 0; i < n; i++) {
            d0[i] = perf_uniform(&state);
            e0[i] = perf_uniform(&state);
            norm = fmax(norm, fabs(d0[i]) + 2.0 * fabs(e0[i]));
        }
        if ((info = time_solver(1, n, d0, e0, w1, e, Z, &t_lapack)) != 0 ||
            (info = time_solver(0, n, d0, e0, w2, e, Z, &t_startrd)) != 0) {
            fprintf(stderr, "startrd-tridiag: n = %lld failed (%d)\n", (long long)n, info);
            return 1;
        }
        for (int64_t i = 0; i < n; i++)
            diff = fmax(diff, fabs(w1[i] - w2[i]));
        printf("%8lld %10.3f %10.3f %8.2f %10.3g\n", (long long)n, t_lapack, t_startrd, t_lapack / t_startrd,
               diff / ((double)n * DBL_EPSILON * norm));
        fflush(stdout);
        free(d0);
        free(e0);
        free(w1);
        free(w2);
        free(e);
        free(Z);
    }
    startrd_context_release();
    return 0;
}
