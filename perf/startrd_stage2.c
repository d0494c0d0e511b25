/* startrd-stage2: stage 2 alone (Hermitian band -> real tridiagonal) on the
 * host cores and on GPUs (the chase on one, or split over several), on the
 * same random bands, one line per order, bandwidth and place, with the
 * eigenvalue agreement against the host's tridiagonal, the largest
 * difference of d and |e| from the first GPU count's, and how well the
 * tridiagonal keeps the band's norm. */
#include "startrd.h"

#include "bulge_plan.h"
#include "codelets_z.h"
#include "context.h"
#include "hermitian_gen.h"
#include "stage2_zhb2st.h"

#include <float.h>
#include <getopt.h>
#include <lapacke.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A random Hermitian band in the chase's layout (stage2.h), entries uniform
 * in [-1,1] + i[-1,1], real diagonal. */
static void random_band(char uplo, int64_t n, int64_t kd, uint64_t seed, double complex *AB)
{
    int64_t ldab = 2 * kd + 1;

    memset(AB, 0, (size_t)(ldab * n) * sizeof *AB);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n && i <= j + kd; i++) {
            double re, im;

            re = perf_uniform(&seed);
            im = perf_uniform(&seed);
            im = i == j ? 0.0 : im;
            if (uplo == 'L')
                AB[(i - j) + j * ldab] = CMPLX(re, im);
            else
                AB[(2 * kd + j - i) + i * ldab] = CMPLX(re, -im);
        }
}

static int parse_list(const char *s, int64_t *v, int max)
{
    int k = 0;

    for (char *end; *s != '\0' && k < max; s = *end == ',' ? end + 1 : end) {
        v[k++] = strtoll(s, &end, 10);
        if (end == s)
            return 0;
    }
    return k;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* How far (d, e) is from keeping the band's Frobenius norm, which the
 * chase's unitary similarity preserves: |sum d^2 + 2 sum e^2 - ||B||^2| /
 * ||B||^2, a check that costs O(n) where eigenvalues would cost O(n^2). */
static double norm_error(char uplo, int64_t n, int64_t kd, const double complex *AB, const double *d,
                         const double *e)
{
    const int64_t ldab = 2 * kd + 1;
    double band = 0.0, tri = 0.0;

    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n && i <= j + kd; i++) {
            double complex x = uplo == 'L' ? AB[(i - j) + j * ldab] : AB[(2 * kd + j - i) + i * ldab];

            band += (i == j ? 1.0 : 2.0) * (creal(x) * creal(x) + cimag(x) * cimag(x));
        }
    for (int64_t i = 0; i < n; i++)
        tri += d[i] * d[i] + (i < n - 1 ? 2.0 * e[i] * e[i] : 0.0);
    return fabs(tri - band) / band;
}

/* Eigenvalues of (d, e), ascending, into w. */
static int tridiag_eig(int64_t n, const double *d, const double *e, double *w, double *work)
{
    memcpy(w, d, (size_t)n * sizeof *w);
    memcpy(work, e, (size_t)(n - 1) * sizeof *work);
    if (LAPACKE_dsterf((lapack_int)n, w, work) != 0)
        return -1;
    qsort(w, (size_t)n, sizeof *w, cmp_double);
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: startrd-stage2 [--n N1,N2,..] [--nb B1,B2,..] [--gpus G1,G2,..] [--uplo L|U]\n"
               "                      [--vect N|V] [--host-max N] [--seed S]\n"
               "  --n         orders (default 16384,32768)\n"
               "  --nb        bandwidths (default 32,64,128)\n"
               "  --gpus      GPU counts the chase is split over (default 1; VECT = 'N' only beyond 1)\n"
               "  --host-max  chase on the host cores only up to this order (default: all)\n");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"n", required_argument, 0, 'n'},    {"nb", required_argument, 0, 'b'},
        {"uplo", required_argument, 0, 'u'}, {"vect", required_argument, 0, 'v'},
        {"host-max", required_argument, 0, 'H'}, {"seed", required_argument, 0, 's'},
        {"gpus", required_argument, 0, 'g'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int64_t ns[16] = {16384, 32768}, nbs[16] = {32, 64, 128}, gpus[16] = {1}, host_max = INT64_MAX;
    int nn = 2, nnb = 3, ngpus = 1, c, status = 0;
    uint64_t seed = 1;
    char uplo = 'L', vect = 'N';
    startrd_context_t *ctx;

    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'n': nn = parse_list(optarg, ns, 16); break;
        case 'b': nnb = parse_list(optarg, nbs, 16); break;
        case 'g': ngpus = parse_list(optarg, gpus, 15); break;
        case 'u': uplo = optarg[0]; break;
        case 'v': vect = optarg[0]; break;
        case 'H': host_max = atoll(optarg); break;
        case 's': seed = strtoull(optarg, NULL, 10); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (nn < 1 || nnb < 1 || ngpus < 1 || (uplo != 'L' && uplo != 'U') || (vect != 'N' && vect != 'V')) {
        usage(stderr);
        return 2;
    }
    if (startrd_context_acquire(NULL, 0, &ctx) != 0) {
        fprintf(stderr, "cannot open the runtime context\n");
        return 1;
    }
    printf("%8s %5s %-5s %10s %10s %8s %9s %9s\n", "n", "nb", "where", "seconds", "vs host", "eig", "de_diff",
           "norm_err");
    /* Place 0 is the host, place p > 0 the chase on gpus[p-1] GPUs. */
    for (int p = ngpus; p > 0; p--)
        gpus[p] = gpus[p - 1];
    gpus[0] = 0;
    for (int i = 0; i < nn; i++)
        for (int k = 0; k < nnb; k++) {
            int64_t n = ns[i], kd = nbs[k], ldab = 2 * kd + 1;
            startrd_bulge_plan_t plan;

            if (n < 2 || kd < 1 || startrd_bulge_plan_init(&plan, vect, n, kd) != 0)
                continue;
            double complex *AB0 = malloc((size_t)(ldab * n) * sizeof *AB0);
            double complex *AB = malloc((size_t)(ldab * n) * sizeof *AB);
            double complex *hous = malloc((size_t)startrd_bulge_lhous(&plan) * sizeof *hous);
            double *d = malloc((size_t)n * sizeof *d), *e = malloc((size_t)n * sizeof *e);
            double *wh = malloc((size_t)n * sizeof *wh), *wg = malloc((size_t)n * sizeof *wg);
            double *work = malloc((size_t)n * sizeof *work), t_host = NAN;
            double *d1 = malloc((size_t)n * sizeof *d1), *e1 = malloc((size_t)n * sizeof *e1);
            bool have_first = false;

            if (AB0 == NULL || AB == NULL || hous == NULL || d == NULL || e == NULL || wh == NULL || wg == NULL ||
                work == NULL || d1 == NULL || e1 == NULL) {
                fprintf(stderr, "cannot allocate the band n = %lld nb = %lld\n", (long long)n, (long long)kd);
                return 1;
            }
            /* The tridiagonals' eigenvalues cost O(n^2) on one core (16 s at
             * n = 32768): only when there are two to compare. */
            const bool both = n <= host_max && ctx->ncuda > 0 && kd <= STARTRD_CHASE_GPU_MAX_KD;

            random_band(uplo, n, kd, seed, AB0);
            for (int p = 0; p <= ngpus; p++) {
                int g = (int)gpus[p], on = 0;
                double t0, t;

                if ((g == 0 && n > host_max) || g > ctx->ncuda || g < 0 ||
                    (g > 0 && kd > STARTRD_CHASE_GPU_MAX_KD))
                    continue;
                memcpy(AB, AB0, (size_t)(ldab * n) * sizeof *AB);
                t0 = perf_now();
                int info = startrd_stage2_zhb2st(vect, uplo, n, kd, AB, ldab, d, e, hous, ctx->cuda_worker, g, &on);

                t = perf_now() - t0;
                if (info != 0 || (both && tridiag_eig(n, d, e, g == 0 ? wh : wg, work) != 0)) {
                    fprintf(stderr, "stage 2 failed at n = %lld nb = %lld (%d)\n", (long long)n, (long long)kd, info);
                    status = 1;
                    continue;
                }
                if (g == 0) {
                    t_host = t;
                    printf("%8lld %5lld %-5s %10.3f %10s %8s %9s %9.2e\n", (long long)n, (long long)kd, "host", t, "",
                           "", "", norm_error(uplo, n, kd, AB0, d, e));
                } else {
                    double diff = 0.0, scale = DBL_MIN, de = 0.0, de_scale = DBL_MIN;
                    char where[16];

                    for (int64_t l = 0; l < n && both; l++) {
                        diff = fmax(diff, fabs(wh[l] - wg[l]));
                        scale = fmax(scale, fabs(wh[l]));
                    }
                    if (!have_first) {
                        memcpy(d1, d, (size_t)n * sizeof *d);
                        memcpy(e1, e, (size_t)(n - 1) * sizeof *e);
                        have_first = true;
                    }
                    /* e up to sign: where rounding flips the sign of one
                     * reflector's alpha, the signs of the e after it flip
                     * too (the implicit Q theorem keeps d and |e|). */
                    for (int64_t l = 0; l < n; l++) {
                        de = fmax(de, fmax(fabs(d[l] - d1[l]), l < n - 1 ? fabs(fabs(e[l]) - fabs(e1[l])) : 0.0));
                        de_scale = fmax(de_scale, fmax(fabs(d1[l]), l < n - 1 ? fabs(e1[l]) : 0.0));
                    }
                    /* Where the chase ran, which a band too large for a GPU
                     * or GPUs that cannot reach each other change. */
                    if (on == 0)
                        snprintf(where, sizeof where, "host");
                    else if (on == 1)
                        snprintf(where, sizeof where, "gpu");
                    else
                        snprintf(where, sizeof where, "gpu%d", on);
                    printf("%8lld %5lld %-5s %10.3f", (long long)n, (long long)kd, where, t);
                    /* Without a host run at this n there is nothing to compare with. */
                    if (!both)
                        printf(" %10s %8s", "-", "-");
                    else
                        printf(" %9.1fx %8.3f", t_host / t, diff / ((double)n * DBL_EPSILON * scale));
                    printf(" %9.2e %9.2e\n", de / de_scale, norm_error(uplo, n, kd, AB0, d, e));
                }
                fflush(stdout);
            }
            free(AB0);
            free(AB);
            free(hous);
            free(d);
            free(e);
            free(wh);
            free(wg);
            free(work);
            free(d1);
            free(e1);
        }
    startrd_context_release();
    return status;
}
