/* What long scientific runs rely on: NaN and Inf are reported, not chased;
 * repeated calls and init/finalize cycles do not grow memory; concurrent
 * calls from two threads both succeed; the same input gives bitwise the
 * same d and e; host and GPU memory that runs out is reported, or worked
 * around, and never waited for. */
#include "starpu_include.h"
#include "startrd.h"
#include "testing.h"

#include <complex.h>
#include <math.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* AddressSanitizer replaces malloc, so its own statistics say nothing
 * there; LeakSanitizer checks for leaks in that build instead. */
#ifdef __SANITIZE_ADDRESS__
static const long growth_limit_kib = -1;
#else
static const long growth_limit_kib = 2048;
#endif

static bool bounded_growth(long before, long after)
{
    return growth_limit_kib < 0 || (before > 0 && after - before < growth_limit_kib);
}

struct problem {
    char uplo;
    int n, lda;
    double complex *a0, *a, *tau;
    double *d, *e, *w0, *w;
    int info;
};

static int problem_init(struct problem *p, char uplo, int n, uint64_t seed)
{
    size_t size = (size_t)n * (size_t)n;

    memset(p, 0, sizeof *p);
    p->uplo = uplo;
    p->n = p->lda = n;
    p->a0 = malloc(size * sizeof *p->a0);
    p->a = malloc(size * sizeof *p->a);
    p->tau = malloc((size_t)n * sizeof *p->tau);
    p->d = malloc((size_t)n * sizeof *p->d);
    p->e = malloc((size_t)n * sizeof *p->e);
    p->w0 = malloc((size_t)n * sizeof *p->w0);
    p->w = malloc((size_t)n * sizeof *p->w);
    if (p->a0 == NULL || p->a == NULL || p->tau == NULL || p->d == NULL || p->e == NULL ||
        p->w0 == NULL || p->w == NULL || tst_zgen(TST_KIND_RANDOM, n, p->a0, n, seed) != 0)
        return -1;
    memcpy(p->a, p->a0, size * sizeof *p->a);
    return tst_zeig_hermitian(uplo, n, p->a0, n, p->w0);
}

static void problem_free(struct problem *p)
{
    free(p->a0);
    free(p->a);
    free(p->tau);
    free(p->d);
    free(p->e);
    free(p->w0);
    free(p->w);
}

static int reduce(struct problem *p)
{
    memcpy(p->a, p->a0, (size_t)p->n * (size_t)p->n * sizeof *p->a);
    p->info = zhetrd_2stage_mgpu('N', p->uplo, p->n, p->a, p->lda, p->d, p->e, p->tau, NULL, 0,
                                 NULL, 0, -1);
    return p->info;
}

static double eig_ratio(struct problem *p)
{
    if (p->info != 0 || tst_zeig_tridiagonal(p->n, p->d, p->e, p->w) != 0)
        return INFINITY;
    return tst_zeig_ratio(p->n, p->w0, p->w);
}

/* A NaN or Inf anywhere in the referenced triangle: positive info, and A,
 * d, e, tau exactly as they were. */
static void nonfinite(char uplo, int n, double complex bad, int64_t row, int64_t col, const char *what)
{
    struct problem p;
    const double sentinel = 31.25;
    int untouched = 1;

    if (problem_init(&p, uplo, n, 11) != 0) {
        tst_check(false, "non-finite: setup");
        return;
    }
    p.a0[row + col * (int64_t)n] = bad;
    for (int i = 0; i < n; i++) {
        p.d[i] = p.e[i] = sentinel;
        p.tau[i] = sentinel;
    }
    reduce(&p);
    for (int i = 0; i < n; i++)
        untouched &= p.d[i] == sentinel && p.e[i] == sentinel && p.tau[i] == sentinel;
    /* memcmp, since NaN != NaN */
    untouched &= memcmp(p.a, p.a0, (size_t)n * (size_t)n * sizeof *p.a) == 0;
    tst_check(p.info == STARTRD_ERR_NONFINITE && untouched,
              "%s at (%lld,%lld), uplo=%c n=%d: info %d (want %d), A d e tau untouched %d",
              what, (long long)row, (long long)col, uplo, n, p.info, STARTRD_ERR_NONFINITE, untouched);
    problem_free(&p);
}

/* Bytes the program holds from malloc, over all arenas, in KiB.  Resident
 * memory would also count the arenas that StarPU's new threads open and the
 * pages freed chunks keep: measured with GPUs, it moved between +0.05 and
 * +2.3 MiB over the same ten cycles, too noisy to tell a leak by. */
static long heap_kib(void)
{
    struct mallinfo2 m = mallinfo2();

    return (long)((m.uordblks + m.hblkhd) / 1024);
}

#ifndef __SANITIZE_ADDRESS__
/* Address space the process has mapped, in bytes. */
static size_t mapped_bytes(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");

    if (f == NULL || fscanf(f, "%lu", &pages) != 1)
        pages = 0;
    if (f != NULL)
        fclose(f);
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* A host allocation that fails: with the address space capped 32 MiB above
 * what is mapped, a CPU reduction of n = 2000 cannot allocate its 62 MiB
 * copy of the matrix.  It must say so, leave A as it was and keep nothing;
 * the same call without the cap works before and after.  (AddressSanitizer
 * maps terabytes of shadow memory, so no cap fits there.) */
static void host_allocation_failure(void)
{
    const int n = 2000;
    size_t size = (size_t)n * n;
    double complex *a0 = malloc(size * sizeof *a0), *a = malloc(size * sizeof *a), *tau = malloc(n * sizeof *tau);
    double *d = malloc(n * sizeof *d), *e = malloc(n * sizeof *e);
    struct rlimit old, cap;
    int info = -99, again = -99;
    long heap = 0;

    if (a0 == NULL || a == NULL || tau == NULL || d == NULL || e == NULL ||
        tst_zgen(TST_KIND_RANDOM, n, a0, n, 14) != 0 || getrlimit(RLIMIT_AS, &old) != 0) {
        tst_check(false, "host allocation failure: setup");
    } else {
        /* First without the cap, so that the runtime is up before the heap is measured. */
        again = zhetrd_2stage_mgpu('N', 'L', n, a, n, d, e, tau, NULL, 0, NULL, 0, 0);
        memcpy(a, a0, size * sizeof *a);
        /* With GPUs the CUDA driver maps memory of its own at any time; the
         * path tested is host code, the same with or without them. */
        if (starpu_cuda_worker_get_count() > 0) {
            printf("# host allocation failure: not run beside CUDA workers\n");
            goto out;
        }
        heap = heap_kib();
        cap = old;
        cap.rlim_cur = mapped_bytes() + ((size_t)32 << 20);
        if (setrlimit(RLIMIT_AS, &cap) == 0) {
            info = zhetrd_2stage_mgpu('N', 'L', n, a, n, d, e, tau, NULL, 0, NULL, 0, 0);
            setrlimit(RLIMIT_AS, &old);
        }
        heap = heap_kib() - heap;
        tst_check(info == STARTRD_ERR_MEMORY && memcmp(a, a0, size * sizeof *a) == 0 && heap < 64,
                  "n=%d with the address space capped: info %d (want %d), A untouched, heap %+ld KiB", n, info,
                  STARTRD_ERR_MEMORY, heap);
        if (again == 0)
            again = zhetrd_2stage_mgpu('N', 'L', n, a, n, d, e, tau, NULL, 0, NULL, 0, 0);
        tst_check(again == 0, "the same reduction without the cap, before and after: info %d", again);
    }
out:
    free(a0);
    free(a);
    free(tau);
    free(d);
    free(e);
}
#endif

#ifdef STARTRD_USE_CUDA
/* Take all but about @p leave bytes of GPU 0's free memory, as another
 * program or the caller's own arrays would: NULL where it cannot. */
static void *hold_gpu_memory(size_t leave, size_t *taken, size_t *total)
{
    size_t free_bytes = 0;
    void *hog = NULL;

    *taken = 0;
    if (cudaSetDevice(0) != cudaSuccess || cudaMemGetInfo(&free_bytes, total) != cudaSuccess ||
        free_bytes < leave + ((size_t)128 << 20))
        return NULL;
    /* From what is free less @p leave down, by 16 MiB, to the largest block
     * that can still be had. */
    for (size_t ask = free_bytes - leave; ask > ((size_t)64 << 20) && hog == NULL; ask -= (size_t)16 << 20)
        if (cudaMalloc(&hog, ask) == cudaSuccess)
            *taken = ask;
        else
            (void)cudaGetLastError();
    return hog;
}

/* GPU memory that others hold: with all but @p leave bytes of the first
 * GPU taken, a reduction of order @p n must end, and either be right or
 * return STARTRD_ERR_MEMORY with A as it was (with @p must_run, be right:
 * the block columns then visit the GPU a few at a time).  Once the memory
 * is back, the same call works.  A call that never ends is stopped by the
 * alarm, which fails the test. */
static void gpu_memory_held_by_others(size_t leave, int n, bool must_run)
{
    struct problem p = {0};
    size_t taken = 0, total = 0;
    void *hog;
    bool unchanged;

    if (starpu_cuda_worker_get_count() == 0) {
        printf("# GPU memory held by others: no CUDA worker\n");
        return;
    }
    if (problem_init(&p, 'L', n, 17) != 0 || (hog = hold_gpu_memory(leave, &taken, &total)) == NULL) {
        tst_check(false, "GPU memory held by others: setup");
        problem_free(&p);
        return;
    }
    alarm(600);
    reduce(&p);
    alarm(0);
    unchanged = p.info == STARTRD_ERR_MEMORY && memcmp(p.a, p.a0, sizeof *p.a * (size_t)n * (size_t)n) == 0;
    tst_check((p.info == 0 && eig_ratio(&p) <= 30.0) || (!must_run && unchanged),
              "n = %d with %zu of %zu MiB of GPU 0 held by the caller: info %d (0 and right%s)", n,
              taken >> 20, total >> 20, p.info, must_run ? "" : ", or STARTRD_ERR_MEMORY with A unchanged");
    cudaFree(hog);
    reduce(&p);
    tst_check(p.info == 0 && eig_ratio(&p) <= 30.0, "the same reduction once the memory is back: info %d", p.info);
    problem_free(&p);
}
#endif

#ifdef STARTRD_USE_CUDA
/* The block columns on a GPU take about the lower triangle's room, not the
 * square's: n = 12288 with nb = 64 needs about 2570 MiB of one GPU this way
 * (workspaces included) and 3180 MiB as a square, so under a limit of
 * 2900 MiB stage 1 must run in core, and be right.  Under less, the GPU
 * keeps what fits and the rest visits. */
static void in_core_under_limit(const startrd_options_t *opt)
{
    startrd_options_t wide = *opt;
    startrd_stats_t st = {0};
    struct problem p = {0};
    int inited;

    if (opt->ngpu == 0 || problem_init(&p, 'L', 12288, 23) != 0 || setenv("STARPU_LIMIT_CUDA_MEM", "2900", 1) != 0) {
        tst_check(opt->ngpu == 0, "in core under a 2900 MiB limit: setup");
        problem_free(&p);
        return;
    }
    wide.nb = 64;
    inited = startrd_init(&wide) == 0;
    if (inited && starpu_cuda_worker_get_count() == 0) {
        printf("# in core under a limit: no CUDA worker\n");
        (void)startrd_finalize();
        unsetenv("STARPU_LIMIT_CUDA_MEM");
        problem_free(&p);
        return;
    }
    if (inited && reduce(&p) == 0)
        startrd_last_stats(&st);
    inited = inited && startrd_finalize() == 0;
    tst_check(inited && p.info == 0 && eig_ratio(&p) <= 10.0 && st.stage1_ngpu > 0 && !st.stage1_out_of_core,
              "n = 12288 under a 2900 MiB GPU memory limit: info %d, stage 1 on %d GPUs, out of core %d", p.info,
              st.stage1_ngpu, st.stage1_out_of_core);
    /* Under 2400 MiB one GPU holds the last block columns and the first
     * visit from the host: out of core, and right. */
    if (setenv("STARPU_LIMIT_CUDA_MEM", "2400", 1) == 0) {
        st = (startrd_stats_t){0};
        wide.stage1_ngpu = 1;
        inited = startrd_init(&wide) == 0;
        if (inited && reduce(&p) == 0)
            startrd_last_stats(&st);
        inited = inited && startrd_finalize() == 0;
        tst_check(inited && p.info == 0 && eig_ratio(&p) <= 10.0 && st.stage1_ngpu == 1 && st.stage1_out_of_core,
                  "n = 12288 under a 2400 MiB GPU memory limit, stage 1 on one GPU: info %d, out of core %d",
                  p.info, st.stage1_out_of_core);
    }
    unsetenv("STARPU_LIMIT_CUDA_MEM");
    problem_free(&p);
}
#endif

static void *reduce_thread(void *arg)
{
    reduce(arg);
    return NULL;
}

int main(void)
{
    startrd_options_t opt;
    struct problem p = {0}, q = {0};

    startrd_options_init(&opt);
    opt.ngpu = tst_env_ngpu();
    opt.nb = 16;
    tst_check(startrd_init(&opt) == 0, "startrd_init");

    for (int u = 0; u < 2; u++) {
        char uplo = u ? 'U' : 'L';
        int n = 150;
        /* The last row and column, the diagonal, the first subdiagonal entry. */
        int64_t where[][2] = {{n - 1, 0}, {n - 1, n - 1}, {40, 40}, {1, 0}, {90, 33}};

        for (size_t k = 0; k < sizeof where / sizeof where[0]; k++) {
            int64_t i = where[k][0], j = where[k][1];

            nonfinite(uplo, n, NAN, uplo == 'L' ? i : j, uplo == 'L' ? j : i, "NaN");
            nonfinite(uplo, n, CMPLX(0.0, INFINITY), uplo == 'L' ? i : j, uplo == 'L' ? j : i, "Inf");
        }
        nonfinite(uplo, 1, NAN, 0, 0, "NaN");
    }
    /* Outside the referenced triangle a NaN is none of the library's business. */
    if (problem_init(&p, 'L', 120, 5) != 0) {
        tst_check(false, "NaN in the other triangle: setup");
    } else {
        p.a0[3 + 77 * 120] = NAN;
        reduce(&p);
        tst_check(p.info == 0 && eig_ratio(&p) <= 10.0, "NaN in the other triangle ignored: info %d", p.info);
    }
    problem_free(&p);

    /* Same input, same machine, same workers: bitwise the same d and e. */
    if (problem_init(&p, 'L', 300, 21) != 0 || reduce(&p) != 0) {
        tst_check(false, "reproducibility: setup or first reduction (info %d)", p.info);
    } else {
        double *d1 = malloc(300 * sizeof *d1), *e1 = malloc(300 * sizeof *e1);

        if (d1 != NULL && e1 != NULL) {
            memcpy(d1, p.d, 300 * sizeof *d1);
            memcpy(e1, p.e, 299 * sizeof *e1);
            reduce(&p);
            tst_check(p.info == 0 && memcmp(d1, p.d, 300 * sizeof *d1) == 0 &&
                          memcmp(e1, p.e, 299 * sizeof *e1) == 0,
                      "two runs on the same input give bitwise identical d and e");
        }
        free(d1);
        free(e1);
    }
    problem_free(&p);

    /* 100 calls: the heap after the first 10 must stay put. */
    if (problem_init(&p, 'U', 64, 3) != 0) {
        tst_check(false, "100 calls: setup");
    } else {
        long before = 0, after;
        int failures = 0;

        for (int k = 0; k < 100; k++) {
            if (k == 10)
                before = heap_kib();
            failures += reduce(&p) != 0 || !(eig_ratio(&p) <= 10.0);
        }
        after = heap_kib();
        tst_check(failures == 0 && bounded_growth(before, after),
                  "100 calls of order 64: %d failures, heap in use %ld -> %ld KiB", failures, before, after);
    }
    problem_free(&p);
    tst_check(startrd_finalize() == 0, "startrd_finalize");

    /* init/finalize cycles, each with a reduction. */
    if (problem_init(&p, 'L', 64, 4) != 0) {
        tst_check(false, "init/finalize cycles: setup");
    } else {
        long before = 0, after;
        int failures = 0;

        for (int k = 0; k < 12; k++) {
            if (k == 2)
                before = heap_kib();
            failures += startrd_init(&opt) != 0;
            failures += reduce(&p) != 0 || !(eig_ratio(&p) <= 10.0);
            failures += startrd_finalize() != 0;
        }
        after = heap_kib();
        tst_check(failures == 0 && bounded_growth(before, after),
                  "12 init/reduce/finalize cycles: %d failures, heap in use %ld -> %ld KiB",
                  failures, before, after);
    }
    problem_free(&p);

    /* The panel_sms option moves stage 1's trailing update to other
     * multiprocessors, not its arithmetic: bitwise the same d and e without
     * it, by default and with more multiprocessors than a GPU has (which
     * keeps none). */
    if (problem_init(&p, 'L', 600, 7) != 0) {
        tst_check(false, "panel_sms: setup");
    } else {
        static const int counts[] = {0, -1, 100000};
        double *d0 = malloc(600 * sizeof *d0), *e0 = malloc(599 * sizeof *e0);
        int ok = d0 != NULL && e0 != NULL, same = 1;

        for (int k = 0; k < 3 && ok; k++) {
            startrd_options_t o = opt;

            o.panel_sms = counts[k];
            ok = startrd_init(&o) == 0;
            ok = ok && reduce(&p) == 0 && eig_ratio(&p) <= 10.0;
            ok = startrd_finalize() == 0 && ok;
            if (k == 0 && ok) {
                memcpy(d0, p.d, 600 * sizeof *d0);
                memcpy(e0, p.e, 599 * sizeof *e0);
            } else if (ok) {
                same &= memcmp(d0, p.d, 600 * sizeof *d0) == 0 && memcmp(e0, p.e, 599 * sizeof *e0) == 0;
            }
        }
        tst_check(ok && same, "panel_sms 0, default and 100000: info %d, bitwise the same d and e: %d", p.info,
                  same);
        free(d0);
        free(e0);
    }
    problem_free(&p);

    /* Memory pressure: with StarPU's limits below the matrix (64 MiB against
     * n = 2000), the block columns only visit the GPUs and each task must
     * take few enough of them to fit; one task over all of a GPU's columns
     * would never start.  On CPU workers the columns stay home, and the
     * tasks split under the limit must still give the right eigenvalues. */
    if (problem_init(&p, 'U', 2000, 12) != 0 || setenv("STARPU_LIMIT_CUDA_MEM", "64", 1) != 0 ||
        setenv("STARPU_LIMIT_CPU_MEM", "64", 1) != 0) {
        tst_check(false, "memory pressure: setup");
    } else {
        startrd_options_t full = opt;
        startrd_stats_t st = {0};
        int inited = startrd_init(&opt) == 0;

        /* Finalized whatever the call gave, so that the next init can open. */
        if (inited && reduce(&p) == 0)
            startrd_last_stats(&st);
        inited = inited && startrd_finalize() == 0;
        tst_check(inited && p.info == 0 && eig_ratio(&p) <= 10.0 && st.stage1_out_of_core == (st.stage1_ngpu > 0),
                  "n=2000 under a 64 MiB memory limit: info %d, stage 1 on %d GPUs, out of core %d", p.info,
                  st.stage1_ngpu, st.stage1_out_of_core);
        /* Block columns with both triangles weigh twice as much. */
        full.allreduce = STARTRD_ALLREDUCE_FULL;
        inited = startrd_init(&full) == 0;
        if (inited)
            reduce(&p);
        inited = inited && startrd_finalize() == 0;
        tst_check(inited && p.info == 0 && eig_ratio(&p) <= 10.0,
                  "n=2000 under a 64 MiB memory limit, both triangles kept: info %d", p.info);
    }
    unsetenv("STARPU_LIMIT_CUDA_MEM");
    unsetenv("STARPU_LIMIT_CPU_MEM");
    problem_free(&p);
#ifdef STARTRD_USE_CUDA
    in_core_under_limit(&opt);
#endif

    /* The stage-1 schemes by name, and an option naming none of them. */
    {
        startrd_options_t bad = opt;

        bad.allreduce = (startrd_allreduce_t)(STARTRD_ALLREDUCE_AUTO + 1);
        tst_check(startrd_allreduce_by_name("hierarchical") == STARTRD_ALLREDUCE_HIERARCHICAL &&
                      startrd_allreduce_by_name("host") == STARTRD_ALLREDUCE_HOST &&
                      startrd_allreduce_by_name("full") == STARTRD_ALLREDUCE_FULL &&
                      startrd_allreduce_by_name("auto") == STARTRD_ALLREDUCE_AUTO &&
                      startrd_allreduce_by_name("Full") == -1 && startrd_allreduce_by_name(NULL) == -1 &&
                      strcmp(startrd_allreduce_name(STARTRD_ALLREDUCE_FULL), "full") == 0 &&
                      strcmp(startrd_allreduce_name(bad.allreduce), "?") == 0,
                  "allreduce scheme names");
        tst_check(startrd_init(&bad) == -1 && startrd_finalize() == STARTRD_ERR_STATE,
                  "startrd_init with allreduce %d: -1, no context opened", (int)bad.allreduce);
        /* Each option out of its range on its own (dist_nb needs nb set). */
        const struct {
            int *field;
            int value;
            const char *name;
        } out_of_range[] = {
            {&bad.stage1_ngpu, -1, "stage1_ngpu"}, {&bad.stage2_ngpu, -1, "stage2_ngpu"},
            {&bad.ncpu, 0, "ncpu"},                {&bad.nb, 1025, "nb"},
            {&bad.nb, -1, "nb"},                   {&bad.dist_nb, 128, "dist_nb (nb chosen)"},
            {&bad.dist_nb, -64, "dist_nb"},
        };
        for (size_t k = 0; k < sizeof out_of_range / sizeof out_of_range[0]; k++) {
            bad = opt;
            bad.nb = 0;
            *out_of_range[k].field = out_of_range[k].value;
            tst_check(startrd_init(&bad) == -1 && startrd_finalize() == STARTRD_ERR_STATE,
                      "startrd_init with %s %d: -1, no context opened", out_of_range[k].name,
                      out_of_range[k].value);
        }
        bad = opt;
        bad.nb = 32;
        bad.dist_nb = 96;
        tst_check(startrd_init(&bad) == 0 && startrd_finalize() == 0,
                  "startrd_init with nb 32 and dist_nb 96 (a multiple): opens and closes");
    }

#ifndef __SANITIZE_ADDRESS__
    host_allocation_failure();
#endif
#ifdef STARTRD_USE_CUDA
    gpu_memory_held_by_others((size_t)8 << 20, 4096, false);
    gpu_memory_held_by_others((size_t)640 << 20, 4096, true);
#endif

    /* Two threads at once, on the context opened implicitly by the first call. */
    if (problem_init(&p, 'L', 200, 8) != 0 || problem_init(&q, 'U', 170, 9) != 0) {
        tst_check(false, "two threads: setup");
    } else {
        pthread_t t1, t2;
        int started = pthread_create(&t1, NULL, reduce_thread, &p) == 0;

        started &= pthread_create(&t2, NULL, reduce_thread, &q) == 0;
        pthread_join(t1, NULL);
        pthread_join(t2, NULL);
        tst_check(started && eig_ratio(&p) <= 10.0 && eig_ratio(&q) <= 10.0,
                  "two threads reducing at once: info %d and %d", p.info, q.info);
    }
    problem_free(&p);
    problem_free(&q);
    return tst_summary();
}
