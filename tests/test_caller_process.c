/* The library inside an application's process: a query or a wrong argument
 * opens nothing; between calls the library costs no CPU, whether its
 * context was opened by a first call or by startrd_init(); the caller's
 * BLAS threads are what the caller set, before and after calls; options
 * given to startrd_init() take effect or are refused; and the library's
 * calls alternate with the caller's own LAPACK calls, several sizes, lda >
 * n, both triangles, while another caller thread runs BLAS all along.
 *
 * It runs from an empty StarPU home of its own, where StarPU calibrates its
 * performance models and schedules unlike later runs. */
#define _GNU_SOURCE /* mkdtemp */
#include "startrd.h"
#include "testing.h"

#include <cblas.h>
#include <complex.h>
#include <lapacke.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* CPU seconds this process spent, all threads. */
static double cpu_seconds(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
}

/* CPU seconds the process spends while its only thread sleeps 1 s. */
static double idle_cost(void)
{
    struct timespec second = {1, 0};
    double t0 = cpu_seconds();

    nanosleep(&second, NULL);
    return cpu_seconds() - t0;
}

/* Polling workers cost about a core per worker; a paused runtime, nothing. */
static const double IDLE_LIMIT = 0.1;

/* Eigenvalues of the n x n Hermitian matrix in A through the library's
 * reduction and LAPACK's DSTERF; workspaces queried or left to the library. */
static int library_eigenvalues(char uplo, int n, double complex *A, int lda, double *w, int query)
{
    double *e = malloc(sizeof *e * (size_t)(n > 1 ? n : 1));
    double complex *tau = malloc(sizeof *tau * (size_t)n), size_work, size_hous, *work = NULL, *hous2 = NULL;
    int lwork = 0, lhous2 = 0, info = STARTRD_ERR_MEMORY;

    if (e == NULL || tau == NULL)
        goto out;
    if (query) {
        info = zhetrd_2stage_mgpu('N', uplo, n, A, lda, w, e, tau, &size_hous, -1, &size_work, -1, tst_env_ngpu());
        if (info != 0)
            goto out;
        lwork = (int)creal(size_work);
        lhous2 = (int)creal(size_hous);
        work = malloc(sizeof *work * (size_t)lwork);
        hous2 = malloc(sizeof *hous2 * (size_t)lhous2);
        info = STARTRD_ERR_MEMORY;
        if (work == NULL || hous2 == NULL)
            goto out;
    }
    info = zhetrd_2stage_mgpu('N', uplo, n, A, lda, w, e, tau, hous2, lhous2, work, lwork, tst_env_ngpu());
    if (info == 0)
        info = (int)LAPACKE_dsterf(n, w, e);
out:
    free(e);
    free(tau);
    free(work);
    free(hous2);
    return info;
}

/* The caller's other thread: the same ZGEMM over and over, each product
 * compared with the first, until told to stop. */
struct blas_loop {
    atomic_int stop;
    int threads, rounds, wrong;
};

static void *blas_loop_run(void *arg)
{
    struct blas_loop *loop = arg;
    enum { N = 160 };
    double complex *a = malloc(sizeof *a * N * N), *c = malloc(sizeof *c * N * N), *c0 = malloc(sizeof *c0 * N * N);
    const double complex one = 1, zero = 0;

    /* An OpenMP BLAS keeps a count per thread, and OpenBLAS resizes buffers
     * that all threads share whenever a call's count differs from the last
     * one's: threads that call BLAS at once must agree on their count. */
    omp_set_num_threads(loop->threads);
    if (a == NULL || c == NULL || c0 == NULL || tst_zgen(TST_KIND_RANDOM, N, a, N, 99) != 0) {
        loop->wrong = -1;
        goto out;
    }
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, N, N, N, &one, a, N, a, N, &zero, c0, N);
    while (!atomic_load(&loop->stop)) {
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, N, N, N, &one, a, N, a, N, &zero, c, N);
        for (int i = 0; i < N * N; i++)
            if (!(cabs(c[i] - c0[i]) <= 1e-12 * N))
                loop->wrong++;
        loop->rounds++;
    }
out:
    free(a);
    free(c);
    free(c0);
    return NULL;
}

static void check_nothing_opened(void)
{
    double complex size_work = 0, size_hous = 0;
    int info;

    info = zhetrd_2stage_mgpu('N', 'L', 100, NULL, 100, NULL, NULL, NULL, &size_hous, -1, &size_work, -1, -1);
    tst_check(info == 0 && creal(size_work) >= 100 && startrd_gpu_count() == -1,
              "a workspace query answers (lwork %g) without opening a context", creal(size_work));
    info = zhetrd_2stage_mgpu('N', 'X', 100, NULL, 100, NULL, NULL, NULL, NULL, 0, NULL, 0, -1);
    tst_check(info == -2 && startrd_gpu_count() == -1, "a wrong uplo returns -2 (got %d) without opening a context",
              info);
}

/* Sizes queried for every GPU, then a call with one GPU more than there
 * are, whose bandwidth would need other sizes: the wrong ngpu is what is
 * reported, not the workspaces it would have set. */
static void check_ngpu_first(void)
{
    enum { N = 300 };
    double complex size_work = 0, size_hous = 0, *A = calloc(N * N, sizeof *A), *tau = malloc(sizeof *tau * N),
                   *work = NULL, *hous2 = NULL;
    double d[N], e[N];
    int info = zhetrd_2stage_mgpu('V', 'L', N, A, N, d, e, tau, &size_hous, -1, &size_work, -1, -1), too_many;

    /* No context is open yet: more GPUs than a node has. */
    too_many = startrd_gpu_count() < 0 ? 64 : startrd_gpu_count() + 1;
    if (info == 0 && A != NULL && tau != NULL) {
        work = malloc(sizeof *work * (size_t)creal(size_work));
        hous2 = malloc(sizeof *hous2 * (size_t)creal(size_hous));
    }
    if (!tst_check(work != NULL && hous2 != NULL, "query with ngpu = -1: info %d", info))
        goto out;
    info = zhetrd_2stage_mgpu('V', 'L', N, A, N, d, e, tau, hous2, (int)creal(size_hous), work, (int)creal(size_work),
                              too_many);
    tst_check(info == -13, "zhetrd_2stage_mgpu with ngpu = %d and the sizes queried for ngpu = -1: %d (-13)", too_many,
              info);
    info = zunmtr_2stage_mgpu('N', 'L', N, 1, A, N, tau, hous2, 1, work, N, too_many);
    tst_check(info == -12, "zunmtr_2stage_mgpu with ngpu = %d and lhous2 = 1: %d (-12)", too_many, info);
out:
    free(A);
    free(tau);
    free(work);
    free(hous2);
}

/* One reduction of order 200 in the open (or an implicit) context, checked
 * against LAPACK; the bandwidth it used in *nb. */
static void check_one_reduction(const char *what, int *nb)
{
    enum { N = 200 };
    double complex *A = malloc(sizeof *A * N * N);
    double w[N], wref[N];
    startrd_stats_t st;
    int info = A == NULL ? TST_ERR_NOMEM : tst_zgen(TST_KIND_RANDOM, N, A, N, 5);

    if (info == 0)
        info = tst_zeig_hermitian('L', N, A, N, wref);
    if (info == 0)
        info = library_eigenvalues('L', N, A, N, w, 0);
    startrd_last_stats(&st);
    *nb = st.nb;
    tst_check(info == 0 && tst_zeig_ratio(N, w, wref) < 30, "%s: n = %d, info %d, eigenvalue ratio %.2f", what, N,
              info, info == 0 ? tst_zeig_ratio(N, w, wref) : -1.0);
    free(A);
}

static void check_threads_and_idle(void)
{
    int nb = 0, blas_before, omp_before;
    double cost;

    /* The caller's own choice, which the library must leave alone. */
    openblas_set_num_threads(2);
    omp_set_num_threads(2);
    blas_before = openblas_get_num_threads();
    omp_before = omp_get_max_threads();
    check_one_reduction("first call, implicit context", &nb);
    tst_check(openblas_get_num_threads() == blas_before && omp_get_max_threads() == omp_before,
              "the caller's BLAS threads after a call: %d and %d, as set (%d and %d)", openblas_get_num_threads(),
              omp_get_max_threads(), blas_before, omp_before);
    cost = idle_cost();
    tst_check(cost < IDLE_LIMIT, "1 s idle after a call costs %.3f s of CPU (< %.1f)", cost, IDLE_LIMIT);
}

static void check_init_options(void)
{
    startrd_options_t opt, other;
    int nb = 0, info;
    double cost;

    startrd_options_init(&opt);
    opt.ngpu = tst_env_ngpu();
    opt.nb = 16;
    opt.ncpu = 1;
    info = startrd_init(&opt);
    tst_check(info == 0, "startrd_init with nb = 16 after an implicit context: %d", info);
    check_one_reduction("explicit context", &nb);
    tst_check(nb == 16, "the reduction used startrd_init's nb: %d", nb);
    cost = idle_cost();
    tst_check(cost < IDLE_LIMIT, "1 s idle in an explicit context costs %.3f s of CPU (< %.1f)", cost, IDLE_LIMIT);
    other = opt;
    other.nb = 24;
    info = startrd_init(&other);
    tst_check(info == STARTRD_ERR_STATE, "startrd_init with other options while one is open: %d (%d)", info,
              STARTRD_ERR_STATE);
    info = startrd_init(NULL);
    tst_check(info == 0, "startrd_init(NULL) nests in the open context: %d", info);
    tst_check(startrd_finalize() == 0 && startrd_finalize() == 0 && startrd_gpu_count() == -1,
              "two startrd_finalize() close the context");
    tst_check(startrd_finalize() == STARTRD_ERR_STATE, "a third startrd_finalize() returns STARTRD_ERR_STATE");
}

static void check_alternation(void)
{
    static const int sizes[] = {1, 57, 200, 333, 600};
    struct blas_loop loop = {.threads = omp_get_max_threads(), .rounds = 0, .wrong = 0};
    pthread_t thread;
    int round = 0;

    atomic_init(&loop.stop, 0);
    if (!tst_check(pthread_create(&thread, NULL, blas_loop_run, &loop) == 0, "start the caller's BLAS thread"))
        return;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int u = 0; u < 2; u++, round++) {
            char uplo = u ? 'U' : 'L';
            int n = sizes[s], lda = n + 3 + (int)s;
            double complex *A = malloc(sizeof *A * (size_t)lda * (size_t)n),
                           *B = malloc(sizeof *B * (size_t)lda * (size_t)n);
            double *w = malloc(sizeof *w * (size_t)n), *wref = malloc(sizeof *wref * (size_t)n);
            int info = A && B && w && wref ? tst_zgen(TST_KIND_RANDOM, n, A, lda, 31u + (unsigned)round)
                                           : TST_ERR_NOMEM;

            if (info == 0) {
                memcpy(B, A, sizeof *A * (size_t)lda * (size_t)n);
                /* The caller's own solver, then the library's, on copies. */
                info = (int)LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', uplo, n, B, lda, wref);
            }
            if (info == 0)
                info = library_eigenvalues(uplo, n, A, lda, w, round % 2);
            tst_check(info == 0 && tst_zeig_ratio(n, w, wref) < 30,
                      "n = %d, lda = %d, uplo %c, workspace %s, beside the caller's ZHEEVD: info %d, ratio %.2f", n,
                      lda, uplo, round % 2 ? "queried" : "internal", info,
                      info == 0 ? tst_zeig_ratio(n, w, wref) : -1.0);
            free(A);
            free(B);
            free(w);
            free(wref);
        }
    atomic_store(&loop.stop, 1);
    pthread_join(thread, NULL);
    tst_check(loop.rounds > 0 && loop.wrong == 0, "the caller's BLAS thread: %d products, %d wrong entries",
              loop.rounds, loop.wrong);
}

static char home[] = "/tmp/startrd-home-XXXXXX";

/* After the library's own exit handler, which stops StarPU and lets it
 * write its models there. */
static void remove_home(void)
{
    char command[sizeof home + 16];

    snprintf(command, sizeof command, "rm -rf %s", home);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", home);
}

int main(void)
{
    /* Before anything reads it: StarPU's models and bus calibration. */
    if (!tst_check(mkdtemp(home) != NULL && setenv("STARPU_HOME", home, 1) == 0 && atexit(remove_home) == 0,
                   "an empty StarPU home"))
        return tst_summary();
    check_nothing_opened();
    check_ngpu_first();
    check_threads_and_idle();
    check_init_options();
    check_alternation();
    return tst_summary();
}
