/* DSTEMR's steps with vectors (LAPACK 3.12), DLARRV and DLARRJ spread over
 * the caller's threads.  DSTEMR runs on one core: a tenth of the pairs of
 * an order-32768 tridiagonal took it 8.9 s (docs/measurements.md).  DLARRE
 * builds the root representations and the eigenvalues' approximations
 * once; then each thread calls DLARRV for an index range DOL..DOU of the
 * wanted pairs.  DLARRV was written for this (ScaLAPACK spreads MRRR so):
 * it builds the representation tree of every cluster that meets its range
 * and computes the vectors of the range only, using the columns DOL-1 and
 * DOU+1 of Z beside them, which is why each range works in columns of its
 * own; it may overwrite D and L, and refines W, WERR and WGAP, which each
 * range therefore gets a copy of. */
#include "tridiag_mrrr.h"

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK's MRRR steps, which LAPACKE does not wrap. */
void dlarrr_(const int *n, const double *d, const double *e, int *info);
void dlarre_(const char *range, const int *n, double *vl, double *vu, const int *il, const int *iu, double *d,
             double *e, double *e2, const double *rtol1, const double *rtol2, const double *spltol, int *nsplit,
             int *isplit, int *m, double *w, double *werr, double *wgap, int *iblock, int *indexw, double *gers,
             double *pivmin, double *work, int *iwork, int *info, size_t range_len);
void dlarrv_(const int *n, const double *vl, const double *vu, double *d, double *l, const double *pivmin,
             const int *isplit, const int *m, const int *dol, const int *dou, const double *minrgp,
             const double *rtol1, const double *rtol2, double *w, double *werr, double *wgap, const int *iblock,
             const int *indexw, const double *gers, double *z, const int *ldz, int *isuppz, double *work,
             int *iwork, int *info);
void dlarrj_(const int *n, const double *d, const double *e2, const int *ifirst, const int *ilast,
             const double *rtol, const int *offset, double *w, double *werr, double *work, int *iwork,
             const double *pivmin, const double *spdiam, int *info);

/* Pairs of one index range at least: fewer, and the ranges' repeated work
 * on the clusters at their ends would outweigh the sharing.  And ranges at
 * least, or one: a range's DLARRV bisects its eigenvalues to full accuracy
 * where the whole one refines them by Rayleigh quotient iteration, which
 * made the ranges' work 2.8 to 3.6 times DSTEMR's (docs/measurements.md),
 * so that fewer ranges lose. */
enum { MIN_PAIRS_PER_RANGE = 64, MIN_RANGES = 8 };

/* DLARRE's results, which the vectors' step reads. */
struct roots {
    int n, m, nsplit;
    double wl, wu, pivmin, rtol1, rtol2;
    double *d, *l, *w, *werr, *wgap, *gers;
    int *isplit, *iblock, *indexw;
};

/* The vectors of pairs dol..dou (1-based) by one DLARRV into columns of
 * their own, then into Z, w, werr and isuppz.  Its INFO (negative as well
 * as positive for its failures), or INT_MIN if out of memory. */
static int vectors_of_range(const struct roots *r, int dol, int dou, double *w, double *werr, double *Z,
                            int64_t ldz, lapack_int *isuppz)
{
    const int n = r->n, m = r->m, zl = dol > 1 ? dol - 1 : 1, zu = dou < m ? dou + 1 : m;
    const double minrgp = 1e-3;
    double *d = malloc((size_t)n * 2 * sizeof *d), *wr = malloc((size_t)n * 3 * sizeof *wr),
           *zr = malloc((size_t)n * (size_t)(zu - zl + 1) * sizeof *zr), *work = malloc((size_t)n * 12 * sizeof *work);
    int *iwork = malloc((size_t)n * 7 * sizeof *iwork), *sr = malloc((size_t)m * 2 * sizeof *sr), info = INT_MIN;

    if (d != NULL && wr != NULL && zr != NULL && work != NULL && iwork != NULL && sr != NULL) {
        /* Fortran's Z(1, zl) is the first column of zr. */
        double *zbase = (double *)((uintptr_t)zr - (uintptr_t)((size_t)(zl - 1) * (size_t)n * sizeof *zr));

        memcpy(d, r->d, (size_t)n * sizeof *d);
        memcpy(d + n, r->l, (size_t)n * sizeof *d);
        memcpy(wr, r->w, (size_t)n * sizeof *wr);
        memcpy(wr + n, r->werr, (size_t)n * sizeof *wr);
        memcpy(wr + 2 * n, r->wgap, (size_t)n * sizeof *wr);
        dlarrv_(&r->n, &r->wl, &r->wu, d, d + n, &r->pivmin, r->isplit, &r->m, &dol, &dou, &minrgp, &r->rtol1,
                &r->rtol2, wr, wr + n, wr + 2 * n, r->iblock, r->indexw, r->gers, zbase, &r->n, sr, work, iwork,
                &info);
        for (int j = dol; info == 0 && j <= dou; j++) {
            memcpy(Z + (int64_t)(j - 1) * ldz, zr + (size_t)(j - zl) * (size_t)n, (size_t)n * sizeof *Z);
            w[j - 1] = wr[j - 1];
            werr[j - 1] = wr[n + j - 1];
            isuppz[2 * j - 2] = sr[2 * j - 2];
            isuppz[2 * j - 1] = sr[2 * j - 1];
        }
    }
    free(d);
    free(wr);
    free(zr);
    free(work);
    free(iwork);
    free(sr);
    return info;
}

/* DSTEMR's refinement of the eigenvalues to high relative accuracy
 * (DLARRJ by bisection on the unshifted T), block by block, each block's
 * eigenvalues in ranges over the threads. */
static int refine(const struct roots *r, const double *d0, const double *e2, double tnrm, double *w, double *werr)
{
    const double rtol = 4.0 * LAPACKE_dlamch('P');
    int failed = 0;

    for (int wbegin = 1, ibegin = 1, jblk = 1; wbegin <= r->m && jblk <= r->nsplit; jblk++) {
        int iend = r->isplit[jblk - 1], in = iend - ibegin + 1, wend = wbegin - 1, ranges;

        while (wend < r->m && r->iblock[wend] == jblk)
            wend++;
        ranges = (wend - wbegin + 1) / MIN_PAIRS_PER_RANGE;
        ranges = ranges < 1 ? 1 : ranges > omp_get_max_threads() ? omp_get_max_threads() : ranges;
#pragma omp parallel for schedule(dynamic, 1) reduction(| : failed)
        for (int k = 0; k < ranges; k++) {
            const int count = wend - wbegin + 1, wb = wbegin + count * k / ranges,
                      we = wbegin + count * (k + 1) / ranges - 1;
            double *work = malloc((size_t)in * 2 * sizeof *work);
            int *iwork = malloc((size_t)in * 2 * sizeof *iwork), info = 0;

            if (we >= wb && work != NULL && iwork != NULL) {
                int ifirst = r->indexw[wb - 1], ilast = r->indexw[we - 1], offset = ifirst - 1;

                dlarrj_(&in, d0 + ibegin - 1, e2 + ibegin - 1, &ifirst, &ilast, &rtol, &offset, w + wb - 1,
                        werr + wb - 1, work, iwork, &r->pivmin, &tnrm, &info);
            }
            failed |= we >= wb && (work == NULL || iwork == NULL);
            free(work);
            free(iwork);
        }
        ibegin = iend + 1;
        wbegin = wend + 1;
    }
    return failed;
}

/* Eigenvalues ascending across blocks, vectors and supports with them,
 * as DSTEMR and ZHEEVR order them. */
static void sort_pairs(int64_t n, int m, double *w, double *Z, int64_t ldz, lapack_int *isuppz)
{
    for (int j = 0; j < m - 1; j++) {
        int low = j;

        for (int k = j + 1; k < m; k++)
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

/* DLANST('M'): the largest |d_i| and |e_i|. */
static double max_abs(int64_t n, const double *d, const double *e)
{
    double norm = 0.0;

    for (int64_t i = 0; i < n; i++)
        norm = fmax(norm, fmax(fabs(d[i]), i < n - 1 ? fabs(e[i]) : 0.0));
    return norm;
}

/* T scaled into DSTEMR's safe range [sqrt(smlnum), min(sqrt(bignum),
 * safmin^(-1/4))] where its largest entry lies outside: the factor. */
static double safe_scale(int64_t n, double *d, double *e)
{
    const double eps = LAPACKE_dlamch('P'), safmin = LAPACKE_dlamch('S'), smlnum = safmin / eps,
                 rmin = sqrt(smlnum), rmax = fmin(sqrt(1.0 / smlnum), 1.0 / sqrt(sqrt(safmin)));
    double tnrm = max_abs(n, d, e), scale = 1.0;

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

/* DSTEMR's steps, vectors over the threads: DSTEMR's INFO. */
static lapack_int mrrr(char range, int64_t n, double *d, double *e, double vl, double vu, int64_t il, int64_t iu,
                       int64_t *m, double *w, double *Z, int64_t ldz, int64_t nzc, lapack_int *isuppz)
{
    const double eps = LAPACKE_dlamch('P');
    const int nn = (int)n, iil = (int)il, iiu = (int)iu;
    struct roots r = {.n = nn, .wl = range == 'V' ? vl : 0.0, .wu = range == 'V' ? vu : 0.0};
    double *work = NULL, *d0, *e2, tnrm, scale = 1.0, thresh;
    int *iwork = NULL, *status = NULL, info = 0, tryrac, ranges;

    *m = 0;
    if (n < 3) {
        lapack_int found = 0, tryrac_in = 1;
        lapack_int st = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', range, (lapack_int)n, d, e, vl, vu, (lapack_int)il,
                                       (lapack_int)iu, &found, w, Z, (lapack_int)ldz, (lapack_int)nzc, isuppz,
                                       &tryrac_in);

        *m = found;
        return st;
    }
    /* d0, e2, werr, wgap, gers (2n), DLARRE's work (6n); isplit, iblock,
     * indexw, DLARRE's iwork (5n). */
    work = malloc((size_t)n * 12 * sizeof *work);
    iwork = malloc((size_t)n * 8 * sizeof *iwork);
    if (work == NULL || iwork == NULL) {
        free(work);
        free(iwork);
        return LAPACK_WORK_MEMORY_ERROR;
    }
    d0 = work;
    e2 = work + n;
    r.werr = work + 2 * n;
    r.wgap = work + 3 * n;
    r.gers = work + 4 * n;
    r.isplit = iwork;
    r.iblock = iwork + n;
    r.indexw = iwork + 2 * n;
    r.d = d;
    r.l = e;
    r.w = w;
    scale = safe_scale(n, d, e);
    tnrm = max_abs(n, d, e);
    r.wl *= scale;
    r.wu *= scale;
    dlarrr_(&nn, d, e, &info);
    tryrac = info == 0;
    thresh = tryrac ? eps : -eps;
    memcpy(d0, d, (size_t)n * sizeof *d0);
    for (int64_t j = 0; j < n - 1; j++)
        e2[j] = e[j] * e[j];
    r.rtol1 = sqrt(eps);
    r.rtol2 = fmax(sqrt(eps) * 5e-3, 4.0 * eps);
    dlarre_(&range, &nn, &r.wl, &r.wu, &iil, &iiu, d, e, e2, &r.rtol1, &r.rtol2, &thresh, &r.nsplit, r.isplit,
            &r.m, w, r.werr, r.wgap, r.iblock, r.indexw, r.gers, &r.pivmin, work + 6 * n, iwork + 3 * n, &info, 1);
    if (info != 0) {
        info = 10 + abs(info);
        goto out;
    }
    if (r.m > nzc) {
        info = -14;
        goto out;
    }
    ranges = r.m / MIN_PAIRS_PER_RANGE;
    ranges = ranges > omp_get_max_threads() ? omp_get_max_threads() : ranges;
    ranges = ranges < MIN_RANGES ? 1 : ranges;
    if ((status = malloc((size_t)ranges * sizeof *status)) == NULL) {
        info = LAPACK_WORK_MEMORY_ERROR;
        goto out;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (int k = 0; k < ranges; k++)
        status[k] = vectors_of_range(&r, 1 + (int)((int64_t)r.m * k / ranges),
                                     (int)((int64_t)r.m * (k + 1) / ranges), w, r.werr, Z, ldz, isuppz);
    /* DLARRV's failure as DSTEMR reports it (20 + |INFO|); memory apart. */
    for (int k = 0; k < ranges && info == 0; k++)
        info = status[k] == INT_MIN ? LAPACK_WORK_MEMORY_ERROR : status[k] != 0 ? 20 + abs(status[k]) : 0;
    if (info != 0)
        goto out;
    if (tryrac && refine(&r, d0, e2, tnrm, w, r.werr) != 0) {
        info = LAPACK_WORK_MEMORY_ERROR;
        goto out;
    }
    if (scale != 1.0)
        cblas_dscal(r.m, 1.0 / scale, w, 1);
    if (r.nsplit > 1)
        sort_pairs(n, r.m, w, Z, ldz, isuppz);
    *m = r.m;
out:
    free(work);
    free(iwork);
    free(status);
    return info;
}

/* Bisection and inverse iteration (DSTEBZ by blocks, DSTEIN), LAPACK's
 * ZHEEVR's way where DSTEMR fails, on T (d and e, scaled here as DSTEMR
 * scales it); the supports are whole.  DSTEBZ's tolerance is ZHEEVR's most
 * accurate, twice the safe minimum. */
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

lapack_int startrd_tridiag_mrrr(char range, int64_t n, double *d, double *e, double vl, double vu, int64_t il,
                                int64_t iu, int64_t *m, double *w, double *Z, int64_t ldz, int64_t nzc,
                                lapack_int *isuppz)
{
    double *saved = malloc((size_t)n * 2 * sizeof *saved);
    lapack_int info;

    *m = 0;
    if (saved == NULL)
        return LAPACK_WORK_MEMORY_ERROR;
    memcpy(saved, d, (size_t)n * sizeof *saved);
    memcpy(saved + n, e, (size_t)n * sizeof *saved);
    info = mrrr(range, n, d, e, vl, vu, il, iu, m, w, Z, ldz, nzc, isuppz);
    if (info > 0)
        info = bisect_and_iterate(range, n, saved, saved + n, vl, vu, il, iu, m, w, Z, ldz, nzc, isuppz);
    free(saved);
    return info;
}
