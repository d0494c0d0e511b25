#include "hermitian_gen.h"

#include <math.h>
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

size_t perf_scalar_size(perf_scalar_t t)
{
    switch (t) {
    case PERF_FLOAT: return sizeof(float);
    case PERF_DOUBLE: return sizeof(double);
    case PERF_FLOAT_COMPLEX: return sizeof(float complex);
    case PERF_DOUBLE_COMPLEX: return sizeof(double complex);
    }
    return sizeof(double complex);
}

/* a[k] = v in type t: the real types keep the real part.  A switch per
 * element costs little beside the draw (mix) it stores. */
static void store(perf_scalar_t t, void *a, size_t k, double complex v)
{
    switch (t) {
    case PERF_FLOAT: ((float *)a)[k] = (float)creal(v); break;
    case PERF_DOUBLE: ((double *)a)[k] = creal(v); break;
    case PERF_FLOAT_COMPLEX: ((float complex *)a)[k] = (float complex)v; break;
    case PERF_DOUBLE_COMPLEX: ((double complex *)a)[k] = v; break;
    }
}

/* a[to] = conj(a[from]) in type t (a copy in the real types). */
static void mirror(perf_scalar_t t, void *a, size_t to, size_t from)
{
    switch (t) {
    case PERF_FLOAT: ((float *)a)[to] = ((float *)a)[from]; break;
    case PERF_DOUBLE: ((double *)a)[to] = ((double *)a)[from]; break;
    case PERF_FLOAT_COMPLEX: ((float complex *)a)[to] = conjf(((float complex *)a)[from]); break;
    case PERF_DOUBLE_COMPLEX: ((double complex *)a)[to] = conj(((double complex *)a)[from]); break;
    }
}

struct fill {
    int64_t n;
    perf_scalar_t type;
    void *a;
    const void *src;   /* perf_copy's source */
    uint64_t base;
    int rank, nthreads;
    double scale, shift; /* entry (i, j) is scale h_ij + shift [i == j], h perf_hermitian's */
};

/* Entry (i, j), i >= j, of the matrix f fills: perf_matrix's as drawn, so
 * that its matrices stay those of before. */
static double complex fill_entry(const struct fill *f, int64_t i, int64_t j)
{
    double complex v = lower_entry(f->base, f->n, i, j);

    if (f->scale == 1.0 && f->shift == 0.0)
        return v;
    return CMPLX(f->scale * creal(v) + (i == j ? f->shift : 0.0), f->scale * cimag(v));
}

/* Block columns rank, rank + nthreads, ...: their lower part, and (once
 * every rank has drawn its lower part) their upper part by blocks, so that
 * reads and writes both stay in cache. */
static void fill_lower(const struct fill *f)
{
    const int64_t n = f->n;

    for (int64_t jb = (int64_t)f->rank * BLOCK; jb < n; jb += (int64_t)f->nthreads * BLOCK)
        for (int64_t j = jb; j < jb + BLOCK && j < n; j++)
            for (int64_t i = j; i < n; i++)
                store(f->type, f->a, (size_t)(j * n + i), fill_entry(f, i, j));
}

static void fill_upper(const struct fill *f)
{
    const int64_t n = f->n;

    for (int64_t jb = (int64_t)f->rank * BLOCK; jb < n; jb += (int64_t)f->nthreads * BLOCK)
        for (int64_t ib = 0; ib <= jb; ib += BLOCK)
            for (int64_t j = jb; j < jb + BLOCK && j < n; j++)
                for (int64_t i = ib; i < ib + BLOCK && i < j; i++)
                    mirror(f->type, f->a, (size_t)(j * n + i), (size_t)(i * n + j));
}

/* Block columns rank, rank + nthreads, ...: all their rows. */
static void copy_columns(const struct fill *f)
{
    const int64_t n = f->n;
    const size_t size = perf_scalar_size(f->type);

    for (int64_t jb = (int64_t)f->rank * BLOCK; jb < n; jb += (int64_t)f->nthreads * BLOCK) {
        int64_t width = n - jb < BLOCK ? n - jb : BLOCK;

        memcpy((char *)f->a + (size_t)(jb * n) * size, (const char *)f->src + (size_t)(jb * n) * size,
               (size_t)(width * n) * size);
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
    perf_matrix(n, PERF_DOUBLE_COMPLEX, a, seed);
}

/* perf_matrix's matrix, each entry scaled and the diagonal shifted. */
static void fill_matrix(int64_t n, perf_scalar_t type, void *a, uint64_t seed, double scale, double shift)
{
    int nthreads = threads_for(n);
    struct fill f[MAX_THREADS];

    for (int t = 0; t < nthreads; t++)
        f[t] = (struct fill){n, type, a, NULL, first_key(n, seed), t, nthreads, scale, shift};
    /* The upper part mirrors the lower one: all of it must be drawn first. */
    run_phase(lower_thread, f, nthreads);
    run_phase(upper_thread, f, nthreads);
}

void perf_matrix(int64_t n, perf_scalar_t type, void *a, uint64_t seed)
{
    fill_matrix(n, type, a, seed, 1.0, 0.0);
}

/* r bounds H's spectral radius two ways.  Its row sums do so for certain:
 * |h_ii| <= 1 and |h_ij| <= sqrt(2).  They are far too loose past the
 * smallest orders, where r would squeeze B's spectrum to its middle, so r
 * is also a margin over the edge of Wigner's semicircle, 2 sqrt(n s2) with
 * s2 = 2/3 the variance of an off-diagonal entry, around which the extreme
 * eigenvalues of independent entries gather, past it by a fraction that
 * shrinks as n grows.  That bound is not certain; where an eigenvalue
 * still passed r, B would stay definite up to (hi + lo) / (hi - lo) r, and
 * a B that is not would make every method report it. */
void perf_hermitian_definite(int64_t n, double complex *a, uint64_t seed, double lo, double hi)
{
    const double rows = 1.0 + sqrt(2.0) * (double)(n > 0 ? n - 1 : 0);
    const double edge = 1.25 * 2.0 * sqrt(2.0 * (double)n / 3.0);
    const double r = rows < edge ? rows : edge;

    fill_matrix(n, PERF_DOUBLE_COMPLEX, a, seed, 0.5 * (hi - lo) / r, 0.5 * (lo + hi));
}

double complex perf_hermitian_entry(int64_t n, uint64_t seed, int64_t i, int64_t j)
{
    return i >= j ? lower_entry(first_key(n, seed), n, i, j) : conj(lower_entry(first_key(n, seed), n, j, i));
}

void perf_copy(int64_t n, double complex *a, const double complex *src)
{
    perf_copy_matrix(n, PERF_DOUBLE_COMPLEX, a, src);
}

void perf_copy_matrix(int64_t n, perf_scalar_t type, void *a, const void *src)
{
    int nthreads = threads_for(n);
    struct fill f[MAX_THREADS];

    for (int t = 0; t < nthreads; t++)
        f[t] = (struct fill){n, type, a, src, 0, t, nthreads, 1.0, 0.0};
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
