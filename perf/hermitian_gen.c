#include "hermitian_gen.h"

#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { BLOCK = 64, MAX_THREADS = 256 };

/* SplitMix64 of (seed, position): any entry can be drawn on its own, so the
 * matrix does not depend on the order it is filled in, nor on the threads. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static double uniform(uint64_t key)
{
    return (double)(mix(key) >> 11) * 0x1.0p-52 - 1.0;
}

/* Entry (i, j), i >= j, of the matrix whose draws start at key base. */
static double complex lower_entry(uint64_t base, int64_t n, int64_t i, int64_t j)
{
    uint64_t key = base + 2 * ((uint64_t)j * (uint64_t)n + (uint64_t)i);

    return CMPLX(uniform(key), i == j ? 0.0 : uniform(key + 1));
}

static uint64_t first_key(int64_t n, uint64_t seed)
{
    return mix(seed) * 2 * (uint64_t)n * (uint64_t)n;
}

struct fill {
    int64_t n;
    double complex *a;
    const double complex *src;   /* perf_copy's source */
    uint64_t base;
    int rank, nthreads;
};

/* Block columns rank, rank + nthreads, ...: their lower part, and (once
 * every rank has drawn its lower part) their upper part by blocks, so that
 * reads and writes both stay in cache. */
static void fill_lower(const struct fill *f)
{
    const int64_t n = f->n;

    for (int64_t jb = (int64_t)f->rank * BLOCK; jb < n; jb += (int64_t)f->nthreads * BLOCK)
        for (int64_t j = jb; j < jb + BLOCK && j < n; j++)
            for (int64_t i = j; i < n; i++)
                f->a[j * n + i] = lower_entry(f->base, n, i, j);
}

static void fill_upper(const struct fill *f)
{
    const int64_t n = f->n;

    for (int64_t jb = (int64_t)f->rank * BLOCK; jb < n; jb += (int64_t)f->nthreads * BLOCK)
        for (int64_t ib = 0; ib <= jb; ib += BLOCK)
            for (int64_t j = jb; j < jb + BLOCK && j < n; j++)
                for (int64_t i = ib; i < ib + BLOCK && i < j; i++)
                    f->a[j * n + i] = conj(f->a[i * n + j]);
}

/* Block columns rank, rank + nthreads, ...: all their rows. */
static void copy_columns(const struct fill *f)
{
    const int64_t n = f->n;

    for (int64_t jb = (int64_t)f->rank * BLOCK; jb < n; jb += (int64_t)f->nthreads * BLOCK) {
        int64_t width = n - jb < BLOCK ? n - jb : BLOCK;

        memcpy(f->a + jb * n, f->src + jb * n, (size_t)(width * n) * sizeof *f->a);
    }
}

static void *copy_thread(void *arg)
{
    copy_columns(arg);
    return NULL;
}

static void *lower_thread(void *arg)
{
    fill_lower(arg);
    return NULL;
}

static void *upper_thread(void *arg)
{
    fill_upper(arg);
    return NULL;
}

/* Every rank's share of one phase; a rank whose thread cannot start runs here. */
static void run_phase(void *(*phase)(void *), struct fill *f, int nthreads)
{
    pthread_t tid[MAX_THREADS];
    int started[MAX_THREADS];

    for (int t = 1; t < nthreads; t++)
        started[t] = pthread_create(&tid[t], NULL, phase, &f[t]) == 0;
    phase(&f[0]);
    for (int t = 1; t < nthreads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            phase(&f[t]);
    }
}

/* One thread per core, and at least a block column each. */
static int threads_for(int64_t n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nthreads = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int)cores;

    if ((int64_t)nthreads * BLOCK > n)
        nthreads = n > 0 ? (int)((n + BLOCK - 1) / BLOCK) : 1;
    return nthreads;
}

void perf_hermitian(int64_t n, double complex *a, uint64_t seed)
{
    int nthreads = threads_for(n);
    struct fill f[MAX_THREADS];

    for (int t = 0; t < nthreads; t++)
        f[t] = (struct fill){n, a, NULL, first_key(n, seed), t, nthreads};
    /* The upper part mirrors the lower one: all of it must be drawn first. */
    run_phase(lower_thread, f, nthreads);
    run_phase(upper_thread, f, nthreads);
}

double complex perf_hermitian_entry(int64_t n, uint64_t seed, int64_t i, int64_t j)
{
    return i >= j ? lower_entry(first_key(n, seed), n, i, j) : conj(lower_entry(first_key(n, seed), n, j, i));
}

void perf_copy(int64_t n, double complex *a, const double complex *src)
{
    int nthreads = threads_for(n);
    struct fill f[MAX_THREADS];

    for (int t = 0; t < nthreads; t++)
        f[t] = (struct fill){n, a, src, 0, t, nthreads};
    run_phase(copy_thread, f, nthreads);
}

double perf_uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) * 0x1.0p-52 - 1.0;
}

double perf_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
