/* Whether a Hermitian matrix's stored triangle holds only finite numbers:
 * the drivers' check of their input where no copy-in task scans it.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_ZTRIANGLE_FINITE_H
#define STARTRD_ZTRIANGLE_FINITE_H

#include <complex.h>
#include <math.h>
#include <stdint.h>

/** Triangle @p uplo of the n x n matrix at M (leading dimension ld), read
 *  by the calling thread's OpenMP team.  The includer defines COMPLEX in
 *  the complex precisions, as the drivers' sources do. */
static inline int startrd_ztriangle_finite(char uplo, int64_t n, const double _Complex *M, int64_t ld)
{
    int finite = 1;

#pragma omp parallel for schedule(dynamic, 64) reduction(&& : finite)
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? n : j + 1); i++)
#ifdef COMPLEX
            finite = finite && isfinite(creal(M[i + j * ld])) && isfinite(cimag(M[i + j * ld]));
#else
            finite = finite && isfinite(M[i + j * ld]);
#endif
    return finite;
}

#endif
