/* startrd-tridiag [--subset F] N...: the tridiagonal eigenproblem with
 * vectors at each order N, LAPACK's DSTEDC on the host cores against the
 * library's divide and conquer (tridiag_dc.h, merges' products on the
 * GPUs), or with --subset the lowest ceil(F n) pairs, LAPACK's DSTEMR
 * against the library's MRRR (tridiag_mrrr.h, vectors over the host's
 * threads), on the same random matrix (entries uniform in [-1,1]), best of
 * two runs each, with how far apart their eigenvalues are in units of
 * n eps ||T||. */
#include "startrd.h"

#include "context.h"
#include "hermitian_gen.h"
#include "tridiag_dc.h"
#include "tridiag_mrrr.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { LAPACK_DSTEDC, LIBRARY_DC, LAPACK_DSTEMR, LIBRARY_MRRR } solver_t;

/* One run of @p solver on d (holding T's diagonal, the eigenvalues on
 * return) and e, the lowest @p pairs for the MRRR ones; 0 on success. */
static int solve(solver_t solver, int64_t n, int64_t pairs, double *w, double *e, double *Z, lapack_int *isuppz)
{
    double *d = w + n;

    lapack_int info, found = 0, tryrac = 1;
    int64_t m = 0;

    switch (solver) {
    case LAPACK_DSTEDC:
        startrd_context_host_parallel(1);
        info = LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', (lapack_int)n, w, e, Z, (lapack_int)n);
        startrd_context_host_parallel(0);
        return info;
    case LIBRARY_DC:
        return startrd_tridiag_dc(n, w, e, Z, n, 0, NULL);
    case LAPACK_DSTEMR:
        startrd_context_host_parallel(1);
        memcpy(d, w, (size_t)n * sizeof *d);
        info = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', (lapack_int)n, d, e, 0.0, 0.0, 1, (lapack_int)pairs,
                              &found, w, Z, (lapack_int)n, (lapack_int)pairs, isuppz, &tryrac);
        startrd_context_host_parallel(0);
        return info;
    default:
        startrd_context_host_parallel(1);
        memcpy(d, w, (size_t)n * sizeof *d);
        info = startrd_tridiag_mrrr('I', n, d, e, 0.0, 0.0, 1, pairs, &m, w, Z, n, pairs, isuppz);
        startrd_context_host_parallel(0);
        return info;
    }
}

/* Best of two runs of one solver on copies of d0, e0; 0 on success. */
static int time_solver(solver_t solver, int64_t n, int64_t pairs, const double *d0, const double *e0, double *w,
                       double *e, double *Z, lapack_int *isuppz, double *best)
{
    *best = INFINITY;
    for (int r = 0; r < 2; r++) {
        int info;
        double t0;

        memcpy(w, d0, (size_t)n * sizeof *w);
        memcpy(e, e0, (size_t)n * sizeof *e);
        t0 = perf_now();
        if ((info = solve(solver, n, pairs, w, e, Z, isuppz)) != 0)
            return info;
        *best = fmin(*best, perf_now() - t0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    startrd_context_t *ctx;
    double subset = 0.0;
    int first = 1;

    if (argc > 2 && strcmp(argv[1], "--subset") == 0) {
        subset = strtod(argv[2], NULL);
        first = 3;
    }
    if (argc <= first || (first == 3 && !(subset > 0.0 && subset <= 1.0))) {
        fprintf(stderr, "usage: startrd-tridiag [--subset F, 0 < F <= 1] N...\n");
        return 2;
    }
    if (startrd_context_acquire(NULL, 0, &ctx) != 0)
        return 1;
    printf("startrd-tridiag: %d OpenMP threads, %d GPUs; seconds, best of 2\n", omp_get_max_threads(), ctx->ncuda);
    printf("%8s %8s %10s %10s %8s %10s\n", "n", "pairs", subset > 0.0 ? "dstemr_s" : "dstedc_s", "startrd_s",
           "speedup", "eig");
    for (int a = first; a < argc; a++) {
        int64_t n = strtoll(argv[a], NULL, 10), pairs = subset > 0.0 ? (int64_t)ceil(subset * (double)n) : n;
        double *d0 = malloc((size_t)n * sizeof *d0), *e0 = malloc((size_t)n * sizeof *e0);
        /* Eigenvalues, then room for the diagonal the MRRR solvers destroy. */
        double *w1 = malloc((size_t)(2 * n) * sizeof *w1), *w2 = malloc((size_t)(2 * n) * sizeof *w2);
        double *e = malloc((size_t)n * sizeof *e), *Z = malloc((size_t)n * (size_t)n * sizeof *Z);
        lapack_int *isuppz = malloc((size_t)(2 * n) * sizeof *isuppz);
        double t_lapack, t_startrd, diff = 0.0, norm = 0.0;
        uint64_t state = (uint64_t)n;
        int info;

        if (n < 1 || d0 == NULL || e0 == NULL || w1 == NULL || w2 == NULL || e == NULL || Z == NULL ||
            isuppz == NULL) {
            fprintf(stderr, "startrd-tridiag: n = %s: invalid or out of memory\n", argv[a]);
            return 1;
        }
        for (int64_t i = 0; i < n; i++) {
            d0[i] = perf_uniform(&state);
            e0[i] = perf_uniform(&state);
            norm = fmax(norm, fabs(d0[i]) + 2.0 * fabs(e0[i]));
        }
        if ((info = time_solver(subset > 0.0 ? LAPACK_DSTEMR : LAPACK_DSTEDC, n, pairs, d0, e0, w1, e, Z, isuppz,
                                &t_lapack)) != 0 ||
            (info = time_solver(subset > 0.0 ? LIBRARY_MRRR : LIBRARY_DC, n, pairs, d0, e0, w2, e, Z, isuppz,
                                &t_startrd)) != 0) {
            fprintf(stderr, "startrd-tridiag: n = %lld failed (%d)\n", (long long)n, info);
            return 1;
        }
        for (int64_t i = 0; i < pairs; i++)
            diff = fmax(diff, fabs(w1[i] - w2[i]));
        printf("%8lld %8lld %10.3f %10.3f %8.2f %10.3g\n", (long long)n, (long long)pairs, t_lapack, t_startrd,
               t_lapack / t_startrd, diff / ((double)n * DBL_EPSILON * norm));
        fflush(stdout);
        free(d0);
        free(e0);
        free(w1);
        free(w2);
        free(e);
        free(Z);
        free(isuppz);
    }
    startrd_context_release();
    return 0;
}
