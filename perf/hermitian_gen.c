#include "hermitian_gen.h"

/* SplitMix64 of (seed, position): any entry can be drawn on its own, so the
 * matrix does not depend on the order it is filled in. */
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

void perf_hermitian(int64_t n, double complex *a, uint64_t seed)
{
    const int64_t block = 64;
    uint64_t base = mix(seed) * 2 * (uint64_t)n * (uint64_t)n;

    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            uint64_t key = base + 2 * ((uint64_t)j * (uint64_t)n + (uint64_t)i);

            a[j * n + i] = CMPLX(uniform(key), i == j ? 0.0 : uniform(key + 1));
        }
    /* Upper triangle by blocks, so that reads and writes both stay in cache. */
    for (int64_t jb = 0; jb < n; jb += block)
        for (int64_t ib = 0; ib <= jb; ib += block)
            for (int64_t j = jb; j < jb + block && j < n; j++)
                for (int64_t i = ib; i < ib + block && i < j; i++)
                    a[j * n + i] = conj(a[i * n + j]);
}
