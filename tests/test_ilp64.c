/* The 64-bit integer interface (the _64 functions).
 *
 * - Arguments past 32 bits are checked in full, numbered as the 32-bit
 *   functions number them: an ngpu of 2^32 is not taken for 0.
 * - Queries answer sizes past INT_MAX; a 32-bit caller cannot pass them and
 *   gets the argument error; past StarPU's 32-bit data sizes, or past the
 *   largest order, the call returns STARTRD_ERR_SIZE.  None of these touch
 *   the arrays.
 * - Selected eigenpairs by index through zheevr_2stage_mgpu_64, checked
 *   without a copy of A: its entries are drawn one by one (the benchmarks'
 *   perf_hermitian_entry()), so
 *   the residuals are formed from regenerated entries, and the check holds
 *   at orders where A alone fills most of the host's memory.
 *
 * - All eigenpairs through zheevd_2stage_mgpu_64, checked the same way.
 *
 * STARTRD_TEST_ORDER chooses the order of those cases, STARTRD_TEST_PAIRS
 * the number of selected pairs, 0 for only the case of all pairs.  By
 * default 2100, and both cases with 21 selected pairs: above the order at
 * which calls without GPUs go to LAPACK, so the library's own path runs,
 * and small enough for LAPACK's reference eigenvalues and for the 32-bit
 * call to be compared with the 64-bit one. */
#include "hermitian_gen.h"
#include "startrd.h"
#include "testing.h"

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLED_COLUMNS = 8 };

static int64_t env_size(const char *name, int64_t fallback)
{
    const char *text = getenv(name);
    char *end;
    long long v;

    if (text == NULL || *text == '\0')
        return fallback;
    v = strtoll(text, &end, 10);
    if (*end != '\0' || v < 0) {
        fprintf(stderr, "test_ilp64: %s=%s is not a size; using %lld\n", name, text,
                (long long)fallback);
        return fallback;
    }
    return v;
}

/* The test matrix: the benchmarks' random Hermitian matrix, whose entries
 * can be drawn one by one. */
enum { SEED = 7 };

static double complex entry(int64_t n, int64_t i, int64_t j)
{
    return perf_hermitian_entry(n, SEED, i, j);
}

static void fill(int64_t n, double complex *A, int64_t lda)
{
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            A[i + j * lda] = entry(n, i, j);
}

/* The largest ||A z - w z||_1 / (n ||A||_1 eps) over up to SAMPLED_COLUMNS
 * of the m pairs (w, Z), spread over them, with A regenerated row by row. */
static double sampled_residual(int64_t n, int64_t m, const double *w, const double complex *Z, int64_t ldz)
{
    int64_t cols[SAMPLED_COLUMNS], ns = m < SAMPLED_COLUMNS ? m : SAMPLED_COLUMNS;
    double norm_a = 0.0, resid[SAMPLED_COLUMNS] = {0}, worst = 0.0;

    for (int64_t c = 0; c < ns; c++)
        cols[c] = ns > 1 ? c * (m - 1) / (ns - 1) : 0;
#pragma omp parallel
    {
        double my_resid[SAMPLED_COLUMNS] = {0}, my_norm = 0.0;

#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; i++) {
            double complex acc[SAMPLED_COLUMNS] = {0};
            double row = 0.0;

            for (int64_t j = 0; j < n; j++) {
                double complex a = entry(n, i, j);

                row += cabs(a);
                for (int64_t c = 0; c < ns; c++)
                    acc[c] += a * Z[j + cols[c] * ldz];
            }
            for (int64_t c = 0; c < ns; c++)
                my_resid[c] += cabs(acc[c] - w[cols[c]] * Z[i + cols[c] * ldz]);
            my_norm = tst_max_nan(my_norm, row);
        }
#pragma omp critical
        {
            for (int64_t c = 0; c < ns; c++)
                resid[c] += my_resid[c];
            norm_a = tst_max_nan(norm_a, my_norm);
        }
    }
    for (int64_t c = 0; c < ns; c++)
        worst = tst_max_nan(worst, resid[c] / (norm_a * ((double)n * tst_zeps())));
    return worst;
}

/* ||I - Z^H Z||_1 / (n eps) for the n x m matrix Z. */
static double orthogonality(int64_t n, int64_t m, const double complex *Z, int64_t ldz)
{
    double complex *G = malloc((size_t)(m * m) * sizeof *G);
    const double complex one = 1.0, zero = 0.0;
    double worst = NAN;

    if (G == NULL)
        return NAN;
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, (int)m, (int)m, (int)n, &one, Z, (int)ldz, Z, (int)ldz,
                &zero, G, (int)m);
    worst = 0.0;
    for (int64_t j = 0; j < m; j++) {
        double col = 0.0;

        for (int64_t i = 0; i < m; i++)
            col += cabs((i == j ? 1.0 : 0.0) - G[i + j * m]);
        worst = tst_max_nan(worst, col);
    }
    free(G);
    return worst / ((double)n * tst_zeps());
}

static bool ascending(int64_t m, const double *w)
{
    for (int64_t j = 1; j < m; j++)
        if (!(w[j - 1] <= w[j]))
            return false;
    return true;
}

/* Pairs 1..k of the order-n test matrix by zheevr_2stage_mgpu_64, or all
 * of them (k = 0) by zheevd_2stage_mgpu_64, their vectors then in A, with
 * a leading dimension past n; below the reference limit, against LAPACK's
 * eigenvalues and the 32-bit call's. */
static void pairs_case(int64_t n, int64_t k, int ngpu)
{
    const int64_t lda = n + 3, reference_below = 4096, want = k > 0 ? k : n, ldz = k > 0 ? n : lda;
    double complex *A = malloc((size_t)lda * (size_t)n * sizeof *A);
    double complex *Z = k > 0 ? malloc((size_t)n * (size_t)k * sizeof *Z) : A;
    double *w = malloc((size_t)n * sizeof *w);
    int64_t m = -1;
    double t0, seconds, resid, orth;
    startrd_stats_t st;
    int info;

    if (!tst_check(A != NULL && Z != NULL && w != NULL, "n = %lld: memory for A and %lld vectors", (long long)n,
                   (long long)want))
        goto out;
    fill(n, A, lda);
    t0 = omp_get_wtime();
    if (k > 0) {
        info = zheevr_2stage_mgpu_64('V', 'I', 'L', n, A, lda, 0.0, 0.0, 1, k, &m, w, Z, ldz, ngpu);
    } else {
        info = zheevd_2stage_mgpu_64('V', 'L', n, A, lda, w, ngpu);
        m = n;
    }
    seconds = omp_get_wtime() - t0;
    startrd_last_stats(&st);
    printf("# n = %lld, pairs 1..%lld: %.2f s (reduction %.2f + %.2f, tridiagonal %.2f, back-transformation %.2f)\n",
           (long long)n, (long long)want, seconds, st.stage1_seconds, st.stage2_seconds, st.tridiag_seconds,
           st.backtransform_seconds);
    if (!tst_check(info == 0 && m == want, "%s n = %lld: info %d, m %lld (want 0, %lld)",
                   k > 0 ? "zheevr_2stage_mgpu_64" : "zheevd_2stage_mgpu_64", (long long)n, info, (long long)m,
                   (long long)want))
        goto out;
    resid = sampled_residual(n, m, w, Z, ldz);
    orth = orthogonality(n, m, Z, ldz);
    tst_check(ascending(m, w), "n = %lld: eigenvalues ascending", (long long)n);
    tst_check(resid <= 30.0, "n = %lld: sampled residual ||Az - wz||/(n||A||eps) = %.2f <= 30", (long long)n, resid);
    tst_check(orth <= 30.0, "n = %lld: ||I - Z^H Z||/(n eps) = %.2f <= 30", (long long)n, orth);
    if (k > 0 && n < reference_below) {
        double *ref = malloc((size_t)n * sizeof *ref), *w32 = malloc((size_t)n * sizeof *w32), norm = 0.0,
               err = NAN, err32 = NAN;
        int m32 = -1;

        fill(n, A, lda);
        if (ref != NULL && w32 != NULL && tst_zeig_hermitian('L', n, A, lda, ref) == 0 &&
            zheevr_2stage_mgpu('V', 'I', 'L', (int)n, A, (int)lda, 0.0, 0.0, 1, (int)k, &m32, w32, Z, (int)n,
                               ngpu) == 0) {
            err = err32 = 0.0;
            for (int64_t j = 0; j < n; j++)
                norm = tst_max_nan(norm, fabs(ref[j]));
            for (int64_t j = 0; j < k; j++) {
                err = tst_max_nan(err, fabs(w[j] - ref[j]));
                err32 = tst_max_nan(err32, fabs(w32[j] - w[j]));
            }
            err /= (double)n * norm * tst_zeps();
            err32 /= (double)n * norm * tst_zeps();
        }
        tst_check(err <= 10.0, "n = %lld: eigenvalues against LAPACK's, %.3f n eps ||A|| <= 10", (long long)n, err);
        tst_check(m32 == k && err32 <= 10.0, "n = %lld: the 32-bit call finds %d pairs, %.3f n eps ||A|| from the "
                  "64-bit call's", (long long)n, m32, err32);
        free(ref);
        free(w32);
    }
out:
    if (Z != A)
        free(Z);
    free(A);
    free(w);
}

/* Sizes and bounds past 32 bits, none of which may touch the arrays. */
static void argument_cases(int ngpu)
{
    const int64_t big = (int64_t)5 << 30, past_int = 66000, past_handle = 100000;
    double complex hous_query = 0.0, work_query = 0.0, cdummy[4] = {0};
    double rdummy[4] = {0};
    int64_t m = -1, lhous;
    int info;

    info = zhetrd_2stage_mgpu_64('V', 'L', past_int, NULL, past_int, NULL, NULL, NULL, &hous_query, -1, &work_query,
                                 -1, ngpu);
    lhous = (int64_t)creal(hous_query);
    tst_check(info == 0 && lhous > INT_MAX && creal(work_query) > 0,
              "query of HOUS2 at n = %lld: %lld entries, past INT_MAX", (long long)past_int, (long long)lhous);
    info = zhetrd_2stage_mgpu('V', 'L', (int)past_int, cdummy, (int)past_int, rdummy, rdummy, cdummy, cdummy, INT_MAX,
                              NULL, 0, ngpu);
    tst_check(info == -10, "32-bit zhetrd at n = %lld with lhous2 = INT_MAX: info %d (want -10)", (long long)past_int,
              info);
    info = zhetrd_2stage_mgpu_64('V', 'L', past_handle, NULL, past_handle, NULL, NULL, NULL, &hous_query, -1, NULL, 0,
                                 ngpu);
    lhous = (int64_t)creal(hous_query);
    info = info != 0 ? info
                     : zhetrd_2stage_mgpu_64('V', 'L', past_handle, cdummy, past_handle, rdummy, rdummy, cdummy,
                                             cdummy, lhous, NULL, 0, ngpu);
    tst_check(info == STARTRD_ERR_SIZE, "zhetrd_64 at n = %lld (HOUS2 %lld entries): info %d (want %d)",
              (long long)past_handle, (long long)lhous, info, STARTRD_ERR_SIZE);
    info = zhetrd_2stage_mgpu_64('N', 'L', big, cdummy, big - 1, rdummy, rdummy, cdummy, NULL, 0, NULL, 0, ngpu);
    tst_check(info == -5, "zhetrd_64 lda = n - 1 at n = %lld: info %d (want -5)", (long long)big, info);
    /* Valid arguments, but an order whose sizes would overflow. */
    info = zhetrd_2stage_mgpu_64('N', 'L', big, cdummy, big, rdummy, rdummy, cdummy, NULL, 0, NULL, 0, ngpu);
    tst_check(info == STARTRD_ERR_SIZE, "zhetrd_64 at n = %lld: info %d (want %d)", (long long)big, info,
              STARTRD_ERR_SIZE);
    info = zunmtr_2stage_mgpu_64('N', 'L', big, 1, cdummy, big, cdummy, cdummy, INT64_MAX, cdummy, big, ngpu);
    tst_check(info == STARTRD_ERR_SIZE, "zunmtr_64 at n = %lld: info %d (want %d)", (long long)big, info,
              STARTRD_ERR_SIZE);
    info = zheevr_2stage_mgpu_64('V', 'I', 'L', big, cdummy, big, 0.0, 0.0, big - 10, big + 1, &m, rdummy, cdummy, big,
                                 ngpu);
    tst_check(info == -10, "zheevr_64 iu = n + 1 at n = %lld: info %d (want -10)", (long long)big, info);
    info = zheevr_2stage_mgpu_64('V', 'I', 'L', big, cdummy, big, 0.0, 0.0, big + 1, big + 1, &m, rdummy, cdummy, big,
                                 ngpu);
    tst_check(info == -9, "zheevr_64 il = n + 1 at n = %lld: info %d (want -9)", (long long)big, info);
    info = zheevr_2stage_mgpu_64('V', 'A', 'L', big, cdummy, big, 0.0, 0.0, 1, 1, &m, rdummy, cdummy, big - 1, ngpu);
    tst_check(info == -14, "zheevr_64 ldz = n - 1 at n = %lld: info %d (want -14)", (long long)big, info);
    info = zheevdx_2stage_mgpu_64('V', 'L', big, cdummy, big, 1, 2, NULL, rdummy, cdummy, big, ngpu);
    tst_check(info == -8, "zheevdx_64 m = NULL: info %d (want -8)", info);
    info = zunmtr_2stage_mgpu_64('N', 'L', big, 1, cdummy, big, cdummy, cdummy, INT64_MAX, cdummy, big - 1, ngpu);
    tst_check(info == -11, "zunmtr_64 ldc = n - 1 at n = %lld: info %d (want -11)", (long long)big, info);
    /* Taken as an int, 2^32 would be 0 GPUs, a valid count. */
    info = zheevd_2stage_mgpu_64('N', 'L', 4, cdummy, 4, rdummy, (int64_t)1 << 32);
    tst_check(info == -7, "zheevd_64 ngpu = 2^32: info %d (want -7)", info);
    tst_check(m == -1, "the count m is not written on an argument error");
    {
        int m32 = -1;

        info = zheevr_2stage_mgpu('V', 'I', 'L', 10, cdummy, 10, 0.0, 0.0, 0, 1, &m32, rdummy, cdummy, 10, ngpu);
        tst_check(info == -9 && m32 == -1, "32-bit zheevr il = 0: info %d (want -9), m %d left as it was", info,
                  m32);
    }
    for (int i = 0; i < 4; i++)
        tst_check(cdummy[i] == 0.0 && rdummy[i] == 0.0, "array entry %d untouched by the calls above", i);
}

int main(void)
{
    int ngpu = tst_env_ngpu();

    int64_t n = env_size("STARTRD_TEST_ORDER", 2100), k = env_size("STARTRD_TEST_PAIRS", -1);

    argument_cases(ngpu);
    if (k != 0)
        pairs_case(n, k > 0 ? k : 21, ngpu);
    if (k <= 0)
        pairs_case(n, 0, ngpu);
    return tst_summary();
}
