/* Selected pairs of the tridiagonal: LAPACK's DSTEMR, and where it fails,
 * LAPACK's ZHEEVR's fallback, bisection and inverse iteration.  DSTEMR
 * returns INFO 22 where DLARRF finds no representation for a tight
 * cluster (glued Wilkinson matrices, random ones scaled by 1e150), where
 * ZHEEVR goes on with DSTEBZ and ZSTEIN; the library used to stop with an
 * error there.
 *
 * @precisions normal d -> s
 */
#include "tridiag_dstemr.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* T scaled into DSTEMR's safe range [sqrt(smlnum), min(sqrt(bignum),
 * safmin^(-1/4))] where its largest entry lies outside: the factor. */
static double safe_scale(int64_t n, double *d, double *e)
{
    const double eps = LAPACKE_dlamch('P'), safmin = LAPACKE_dlamch('S'), smlnum = safmin / eps,
                 rmin = sqrt(smlnum), rmax = fmin(sqrt(1.0 / smlnum), 1.0 / sqrt(sqrt(safmin)));
    const lapack_int order = (lapack_int)n;
    double tnrm = LAPACK_dlanst("M", &order, d, e), scale = 1.0;

    if (tnrm > 0.0 && tnrm < rmin)
        scale = rmin / tnrm;
    else if (tnrm > rmax)
        scale = rmax / tnrm;
    if (scale != 1.0) {
        cblas_dscal((int)n, scale, d, 1);
        cblas_dscal((int)n - 1, scale, e, 1);
    }
    return scale;
}

/* Eigenvalues ascending across blocks, vectors and supports with them,
 * as ZHEEVR orders them after DSTEBZ's order by blocks. */
static void sort_pairs(int64_t n, lapack_int m, double *w, double *Z, int64_t ldz, lapack_int *isuppz)
{
    for (lapack_int j = 0; j < m - 1; j++) {
        lapack_int low = j;

        for (lapack_int k = j + 1; k < m; k++)
            low = w[k] < w[low] ? k : low;
        if (low != j) {
            double t = w[low];
            lapack_int s0 = isuppz[2 * low], s1 = isuppz[2 * low + 1];

            w[low] = w[j];
            w[j] = t;
            cblas_dswap((int)n, Z + (int64_t)low * ldz, 1, Z + (int64_t)j * ldz, 1);
            isuppz[2 * low] = isuppz[2 * j];
            isuppz[2 * low + 1] = isuppz[2 * j + 1];
            isuppz[2 * j] = s0;
            isuppz[2 * j + 1] = s1;
        }
    }
}

/* Bisection and inverse iteration (DSTEBZ by blocks, DSTEIN) on T (d and
 * e, scaled here as DSTEMR scales it); the supports are whole.  DSTEBZ's
 * tolerance is ZHEEVR's most accurate, twice the safe minimum. */
static lapack_int bisect_and_iterate(char range, int64_t n, double *d, double *e, double vl, double vu, int64_t il,
                                     int64_t iu, int64_t *m, double *w, double *Z, int64_t ldz, int64_t nzc,
                                     lapack_int *isuppz)
{
    lapack_int *iblock = malloc((size_t)n * 3 * sizeof *iblock), found = 0, nsplit = 0, info;
    double scale = safe_scale(n, d, e);

    if (iblock == NULL)
        return LAPACK_WORK_MEMORY_ERROR;
    info = LAPACKE_dstebz(range, 'B', (lapack_int)n, vl * scale, vu * scale, (lapack_int)il, (lapack_int)iu,
                          2.0 * LAPACKE_dlamch('S'), d, e, &found, &nsplit, w, iblock, iblock + n);
    if (info == 0 && found > nzc)
        info = -14;
    if (info == 0)
        info = LAPACKE_dstein(LAPACK_COL_MAJOR, (lapack_int)n, d, e, found, w, iblock, iblock + n, Z,
                              (lapack_int)ldz, iblock + 2 * n);
    if (info == 0) {
        for (lapack_int j = 0; j < found; j++) {
            isuppz[2 * j] = 1;
            isuppz[2 * j + 1] = (lapack_int)n;
        }
        if (scale != 1.0)
            cblas_dscal(found, 1.0 / scale, w, 1);
        sort_pairs(n, found, w, Z, ldz, isuppz);
        *m = found;
    }
    free(iblock);
    return info;
}

lapack_int startrd_dstemr(char range, int64_t n, double *d, double *e, double vl, double vu, int64_t il,
                          int64_t iu, int64_t *m, double *w, double *Z, int64_t ldz, int64_t nzc,
                          lapack_int *isuppz)
{
    double *saved = malloc((size_t)(n > 0 ? 2 * n : 1) * sizeof *saved);
    lapack_int info, found = 0, tryrac = 1;

    *m = 0;
    if (saved == NULL)
        return LAPACK_WORK_MEMORY_ERROR;
    memcpy(saved, d, (size_t)n * sizeof *saved);
    memcpy(saved + n, e, (size_t)n * sizeof *saved);
    info = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', range, (lapack_int)n, d, e, vl, vu, (lapack_int)il, (lapack_int)iu,
                          &found, w, Z, (lapack_int)ldz, (lapack_int)nzc, isuppz, &tryrac);
    if (info == 0)
        *m = found;
    else if (info > 0)
        info = bisect_and_iterate(range, n, saved, saved + n, vl, vu, il, iu, m, w, Z, ldz, nzc, isuppz);
    free(saved);
    return info;
}
