/* The tridiagonal solvers.  The divide and conquer against LAPACK's DSTEDC on the same
 * matrix: the eigenvalues, sorted, within a few n eps ||T|| of LAPACK's,
 * the residual ||T Z - Z L|| / (n eps ||T||) and the orthogonality
 * ||I - Z^T Z|| / (n eps), on matrices that deflate little (random), a
 * lot (glued Wilkinson matrices, repeated eigenvalues), that split
 * (zeros in e), that need scaling, and on trees from one merge to seven
 * levels deep, with Q on the host and held on one worker (on a GPU where
 * there is one).  The deflation, LAPACK's DLAED2 cut into its decisions
 * and its column moves, bit for bit against DLAED2 itself, with its
 * rotations applied on the spot or listed for later.  And selected
 * pairs (tridiag_dstemr.h) by index, by value and all, against DSTERF's
 * eigenvalues with the same residual and orthogonality bounds, also where
 * DSTEMR fails and bisection and inverse iteration take over.  The bounds
 * are in units of the precision's eps; the single precision twin
 * (test_sstedc) serves the s and c eigensolvers.
 *
 * @precisions normal d -> s
 */
#include "testing.h"
#include "testing_context.h"
#include "tridiag_dstedc.h"
#include "tridiag_dlaed2.h"
#include "tridiag_dstemr.h"
#include "descriptor.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    RANDOM,
    TOEPLITZ,          /* 2 on the diagonal, -1 beside: distinct but close eigenvalues */
    GLUED_WILKINSON,   /* W21+ blocks glued by 1e-9: pairs of eigenvalues agree to many digits */
    PAIRS,             /* blocks [0 1; 1 0] split by zeros: eigenvalues +-1, n/2 times each */
    SPLIT,             /* random with e zero at a few places, blocks of every size */
    TINY,              /* random scaled by NEAR */
    HUGE_VALUES,       /* random scaled by FAR */
    ZERO,
    NKINDS
} kind_t;

/* Far outside the solvers' safe range, below and above ([sqrt(safmin/eps),
 * safmin^(-1/4)] for DSTEMR), with room left for the residuals' products:
 * about 1e-153 and 1e150 in double precision, 1e-18 and 2e15 in single. */
#define NEAR (sqrt(DBL_MIN) * 10)
#define FAR (sqrt(DBL_MAX) * 1e-4)

static const char *const kind_names[] = {"random", "toeplitz", "glued-wilkinson", "pairs",
                                         "split", "tiny", "huge", "zero"};

static double uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

static void generate(kind_t kind, int64_t n, uint64_t seed, double *d, double *e)
{
    uint64_t state = seed;

    for (int64_t i = 0; i < n; i++) {
        d[i] = uniform(&state);
        e[i] = uniform(&state);
    }
    switch (kind) {
    case TOEPLITZ:
        for (int64_t i = 0; i < n; i++) {
            d[i] = 2.0;
            e[i] = -1.0;
        }
        break;
    case GLUED_WILKINSON:
        for (int64_t i = 0; i < n; i++) {
            d[i] = fabs((double)(i % 21 - 10));
            e[i] = i % 21 == 20 ? 1e-9 : 1.0;
        }
        break;
    case PAIRS:
        for (int64_t i = 0; i < n; i++) {
            d[i] = 0.0;
            e[i] = i % 2 == 0 ? 1.0 : 0.0;
        }
        break;
    case SPLIT:
        for (int64_t i = 37; i < n; i += 37 + i % 400)
            e[i] = 0.0;
        break;
    case TINY:
    case HUGE_VALUES:
        for (int64_t i = 0; i < n; i++) {
            d[i] *= kind == TINY ? NEAR : FAR;
            e[i] *= kind == TINY ? NEAR : FAR;
        }
        break;
    case ZERO:
        memset(d, 0, (size_t)n * sizeof *d);
        memset(e, 0, (size_t)n * sizeof *e);
        break;
    default:
        break;
    }
    if (n > 0)
        e[n - 1] = 0.0;
}

static double norm_t(int64_t n, const double *d, const double *e)
{
    double norm = 0.0;

    for (int64_t i = 0; i < n; i++)
        norm = fmax(norm, fabs(d[i]) + (i > 0 ? fabs(e[i - 1]) : 0.0) + (i < n - 1 ? fabs(e[i]) : 0.0));
    return norm;
}

/* For the m columns of Z: max_j ||T z_j - w_j z_j||_1 / (n eps ||T||), and
 * max |(Z^T Z - I)_ij| / (n eps). */
static void ratios(int64_t n, int64_t m, const double *d, const double *e, const double *w, const double *Z,
                   double *resid, double *orth)
{
    const double eps = DBL_EPSILON, norm = norm_t(n, d, e);
    double *G = malloc((size_t)(m > 0 ? m * m : 1) * sizeof *G), r = 0.0, o = 0.0;

    for (int64_t j = 0; j < m; j++) {
        const double *z = Z + j * n;
        double sum = 0.0;

        for (int64_t i = 0; i < n; i++) {
            double t = d[i] * z[i] - w[j] * z[i];

            if (i > 0)
                t += e[i - 1] * z[i - 1];
            if (i < n - 1)
                t += e[i] * z[i + 1];
            sum += fabs(t);
        }
        r = tst_max_nan(r, sum);
    }
    *resid = norm > 0.0 ? r / ((double)n * eps * norm) : r;
    if (G == NULL) {
        *orth = INFINITY;
        return;
    }
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)m, (int)m, (int)n, 1.0, Z, (int)n, Z, (int)n, 0.0, G,
                (int)m);
    for (int64_t j = 0; j < m; j++)
        for (int64_t i = 0; i < m; i++)
            o = tst_max_nan(o, fabs(G[i + j * m] - (i == j)));
    *orth = o / ((double)n * eps);
    free(G);
}

/* The worker a held Q goes to: a GPU's where there is one. */
static int held_worker(void)
{
    int cuda = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);

    return cuda >= 0 ? cuda : starpu_worker_get_by_type(STARPU_CPU_WORKER, 0);
}

/* A case's tridiagonal (d0, e0) and DSTERF's eigenvalues of it in wref;
 * @p scratch holds n doubles.  Returns DSTERF's INFO. */
static lapack_int reference(kind_t kind, int64_t n, uint64_t seed, double *d0, double *e0, double *wref,
                            double *scratch)
{
    generate(kind, n, seed, d0, e0);
    memcpy(wref, d0, (size_t)n * sizeof *wref);
    memcpy(scratch, e0, (size_t)n * sizeof *scratch);
    return LAPACKE_dsterf((lapack_int)n, wref, scratch);
}

/* max |w_i - wref_i| over the m eigenvalues, in units of n eps ||T||. */
static double eig_diff(int64_t n, int64_t m, const double *d0, const double *e0, const double *w,
                       const double *wref)
{
    double norm = norm_t(n, d0, e0), diff = 0.0;

    for (int64_t i = 0; i < m; i++)
        diff = tst_max_nan(diff, fabs(w[i] - wref[i]));
    return norm > 0.0 ? diff / ((double)n * DBL_EPSILON * norm) : diff;
}

/* Held, the vectors go to blocks of this many columns (the last one
 * narrower) over V, and Z is only the host's workspace. */
enum { HELD_COLUMNS = 96 };

static void run_case(kind_t kind, int64_t n, int64_t leaf, uint64_t seed, int threads, bool held)
{
    const int64_t nblocks = (n + HELD_COLUMNS - 1) / HELD_COLUMNS;
    /* d0, e0, d, e, wref, eref (n each), Z and V (n x n). */
    double *buf = malloc((size_t)(6 * n + 2 * n * n) * sizeof *buf);
    double *d0 = buf, *e0 = buf + n, *d = buf + 2 * n, *e = buf + 3 * n, *wref = buf + 4 * n, *eref = buf + 5 * n,
           *Z = buf + 6 * n, *V = Z + n * n;
    starpu_data_handle_t *blocks = calloc((size_t)nblocks, sizeof *blocks);
    const startrd_dstedc_beside_t beside = {held_worker(), blocks, HELD_COLUMNS};
    double diff = 0.0, resid = INFINITY, orth = INFINITY;
    bool sorted = true;
    int info = -1;
    lapack_int ref = -1;

    if (buf == NULL || blocks == NULL) {
        tst_check(false, "%s n=%lld: allocation", kind_names[kind], (long long)n);
        goto out;
    }
    ref = reference(kind, n, seed, d0, e0, wref, eref);
    memcpy(d, d0, (size_t)n * sizeof *d);
    memcpy(e, e0, (size_t)n * sizeof *e);
    for (int64_t b = 0; held && b < nblocks; b++)
        startrd_matrix_register(&blocks[b], STARPU_MAIN_RAM, (uintptr_t)(V + b * HELD_COLUMNS * n), n, n,
                                n - b * HELD_COLUMNS < HELD_COLUMNS ? n - b * HELD_COLUMNS : HELD_COLUMNS,
                                sizeof *V);
    /* Unless Q is held, StarPU's workers are paused inside the call: the
     * threads are the test's. */
    omp_set_num_threads(threads);
    info = startrd_dstedc(n, d, e, held ? NULL : Z, n, leaf, held ? &beside : NULL);
    omp_set_num_threads(1);
    for (int64_t b = 0; held && b < nblocks; b++)
        starpu_data_unregister(blocks[b]);
    if (info == 0) {
        for (int64_t i = 1; i < n; i++)
            sorted = sorted && d[i - 1] <= d[i];
        diff = eig_diff(n, n, d0, e0, d, wref);
        ratios(n, n, d0, e0, d, held ? V : Z, &resid, &orth);
    }
    tst_check(info == 0 && ref == 0 && sorted && diff <= 10.0 && resid <= 30.0 && orth <= 30.0,
              "%s n=%lld leaf %lld, %d threads, Q %s: info %d, sorted %d, eig/dsterf %.3g, resid %.3g, orth %.3g",
              kind_names[kind], (long long)n, (long long)leaf, threads, held ? "held" : "on the host", info, sorted,
              diff, resid, orth);
out:
    free(buf);
    free(blocks);
}

/* Pairs il..iu (range 'I'), those in (vl, vu] ('V', vl and vu between
 * DSTERF's eigenvalues il-1, il and iu, iu+1, so the same pairs), or all
 * ('A'); the eigenvalues against DSTERF's, DSTEMR's status shown beside.
 * Where DSTEMR fails, the fallback must not. */
static void mrrr_case(kind_t kind, int64_t n, char range, int64_t il, int64_t iu, uint64_t seed)
{
    /* d0, e0, d, e, wref, w (n each), Z (n x n). */
    double *buf = malloc((size_t)(6 * n + n * n) * sizeof *buf);
    double *d0 = buf, *e0 = buf + n, *d = buf + 2 * n, *e = buf + 3 * n, *wref = buf + 4 * n, *w = buf + 5 * n,
           *Z = buf + 6 * n;
    lapack_int *isuppz = malloc((size_t)(2 * n) * sizeof *isuppz), ref = -1, found = 0, tryrac = 1;
    double diff = 0.0, resid = INFINITY, orth = INFINITY, vl = 0.0, vu = 0.0;
    int64_t m = -1;
    lapack_int info = -1;

    if (buf == NULL || isuppz == NULL) {
        tst_check(false, "selected pairs %s n=%lld: allocation", kind_names[kind], (long long)n);
        goto out;
    }
    if (reference(kind, n, seed, d0, e0, wref, e) != 0)
        goto out;
    if (range == 'V') {
        vl = il > 1 ? 0.5 * (wref[il - 2] + wref[il - 1]) : wref[0] - 1.0;
        vu = 0.5 * (wref[iu - 1] + (iu < n ? wref[iu] : wref[iu - 1] + 1.0));
    }
    memcpy(d, d0, (size_t)n * sizeof *d);
    memcpy(e, e0, (size_t)n * sizeof *e);
    ref = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', range, (lapack_int)n, d, e, vl, vu, (lapack_int)il, (lapack_int)iu,
                         &found, w, Z, (lapack_int)n, (lapack_int)n, isuppz, &tryrac);
    memcpy(d, d0, (size_t)n * sizeof *d);
    memcpy(e, e0, (size_t)n * sizeof *e);
    info = startrd_dstemr(range, n, d, e, vl, vu, il, iu, &m, w, Z, n, n, isuppz);
    if (info == 0 && m == iu - il + 1) {
        diff = eig_diff(n, m, d0, e0, w, wref + il - 1);
        ratios(n, m, d0, e0, w, Z, &resid, &orth);
    }
    tst_check(info == 0 && m == iu - il + 1 && diff <= 10.0 && resid <= 30.0 && orth <= 30.0,
              "selected pairs %s n=%lld range %c %lld..%lld: info %d (DSTEMR %d), m %lld, eig/dsterf %.3g, "
              "resid %.3g, orth %.3g",
              kind_names[kind], (long long)n, range, (long long)il, (long long)iu, (int)info, (int)ref,
              (long long)m, diff, resid, orth);
out:
    free(buf);
    free(isuppz);
}

void dlaed2_(int *k, const int *n, const int *n1, double *d, double *q, const int *ldq, int *indxq, double *rho,
             double *z, double *dlamda, double *w, double *q2, int *indx, int *indxc, int *indxp, int *coltyp,
             int *info);

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return (a > b) - (a < b);
}

/* One merge's deflation both ways on the same input: two sorted halves of
 * d, a fraction @p small of z negligible, a fraction @p close of the second
 * half's eigenvalues within 1e-17 of the first's (rotations), rho of sign
 * @p sign; every output compared bit for bit. */
static void deflation_case(int n, int n1, double small, double close, double sign, uint64_t seed)
{
    const int ldq = n + 3, n2 = n - n1;
    size_t qsize = (size_t)ldq * (size_t)n;
    /* DLAED2's, then the plan's with the rotations on the spot, then listed. */
    double *d[3], *q[3], *z[3], *dl[3], *w[3], *q2[3], rho[3];
    int *iq[3], *ix[3], *ixc[3], *ixp[3], *ct[3], k[3] = {-1, -1, -1}, info[3] = {-1, -1, -1};
    uint64_t state = seed;
    bool same = true;
    startrd_dlaed2_t plan[3];
    startrd_drotation_t *rot = malloc((size_t)n * sizeof *rot);

    for (int s = 0; s < 3; s++) {
        d[s] = malloc((size_t)n * sizeof(double));
        z[s] = malloc((size_t)n * sizeof(double));
        dl[s] = calloc((size_t)n, sizeof(double));
        w[s] = calloc((size_t)n, sizeof(double));
        q[s] = malloc(qsize * sizeof(double));
        q2[s] = calloc((size_t)n * (size_t)n, sizeof(double));
        iq[s] = malloc((size_t)n * sizeof(int));
        ix[s] = calloc((size_t)n, sizeof(int));
        ixc[s] = calloc((size_t)n, sizeof(int));
        ixp[s] = calloc((size_t)n, sizeof(int));
        /* DLAED2 writes its four counts into COLTYP whatever n. */
        ct[s] = calloc((size_t)(n > 4 ? n : 4), sizeof(int));
    }
    for (int i = 0; i < n; i++) {
        d[0][i] = uniform(&state);
        z[0][i] = uniform(&state) * (0.5 * (uniform(&state) + 1.0) < small ? 1e-18 : 1.0);
    }
    qsort(d[0], (size_t)n1, sizeof(double), by_value);
    for (int i = 0; i < n2; i++)
        if (0.5 * (uniform(&state) + 1.0) < close)
            d[0][n1 + i] = d[0][(i * 7) % n1] + 1e-17;
    qsort(d[0] + n1, (size_t)n2, sizeof(double), by_value);
    for (size_t i = 0; i < qsize; i++)
        q[0][i] = uniform(&state);
    for (int i = 0; i < n; i++)
        iq[0][i] = i < n1 ? i + 1 : i - n1 + 1;
    rho[0] = sign * (0.5 + 0.5 * fabs(uniform(&state)));
    for (int s = 1; s < 3; s++) {
        memcpy(d[s], d[0], (size_t)n * sizeof(double));
        memcpy(z[s], z[0], (size_t)n * sizeof(double));
        memcpy(q[s], q[0], qsize * sizeof(double));
        memcpy(iq[s], iq[0], (size_t)n * sizeof(int));
        rho[s] = rho[0];
    }

    dlaed2_(&k[0], &n, &n1, d[0], q[0], &ldq, iq[0], &rho[0], z[0], dl[0], w[0], q2[0], ix[0], ixc[0], ixp[0],
            ct[0], &info[0]);
    for (int s = 1; s < 3; s++) {
        info[s] = startrd_dlaed2_plan(n, n1, d[s], s == 1 ? q[s] : NULL, ldq, iq[s], &rho[s], z[s], dl[s], w[s],
                                      ix[s], ixc[s], ixp[s], ct[s], s == 1 ? NULL : rot, &plan[s]);
        k[s] = plan[s].k;
        for (int64_t t = 0; s == 2 && t < plan[s].nrot; t++)
            cblas_drot(n, q[s] + rot[t].p * ldq, 1, q[s] + rot[t].c * ldq, 1, rot[t].cs, rot[t].sn);
        for (int64_t i = 0; i < n; i++)
            startrd_dlaed2_gather(&plan[s], q[s], q2[s], i);
        for (int64_t j = 0; j < startrd_dlaed2_returns(&plan[s]); j++)
            startrd_dlaed2_return(&plan[s], q[s], q2[s], j);
    }
    for (int s = 1; s < 3 && same; s++) {
        same = info[0] == 0 && info[s] == 0 && k[0] == k[s] && rho[0] == rho[s] &&
               memcmp(d[0], d[s], (size_t)n * sizeof(double)) == 0 && memcmp(q[0], q[s], qsize * sizeof(double)) == 0;
        if (same && k[0] > 0) {
            size_t packed = (size_t)n1 * (size_t)(ct[0][0] + ct[0][1]) + (size_t)n2 * (size_t)(ct[0][1] + ct[0][2]);

            same = memcmp(dl[0], dl[s], (size_t)k[0] * sizeof(double)) == 0 &&
                   memcmp(w[0], w[s], (size_t)k[0] * sizeof(double)) == 0 &&
                   memcmp(q2[0], q2[s], packed * sizeof(double)) == 0 &&
                   memcmp(ixc[0], ixc[s], (size_t)n * sizeof(int)) == 0 &&
                   memcmp(ct[0], plan[s].ctot, sizeof plan[s].ctot) == 0;
        }
    }
    tst_check(same, "deflation n=%d n1=%d (negligible z %.2f, close pairs %.2f, rho %+g): info %d/%d, k %d/%d, "
              "types %d %d %d %d, %lld rotations, bit for bit as DLAED2 (rotations on the spot and listed)",
              n, n1, small, close, sign, info[0], info[1], k[0], k[1], k[0] > 0 ? ct[0][0] : 0,
              k[0] > 0 ? ct[0][1] : 0, k[0] > 0 ? ct[0][2] : 0, k[0] > 0 ? ct[0][3] : 0, (long long)plan[2].nrot);
    free(rot);
    for (int s = 0; s < 3; s++) {
        free(d[s]);
        free(z[s]);
        free(dl[s]);
        free(w[s]);
        free(q[s]);
        free(q2[s]);
        free(iq[s]);
        free(ix[s]);
        free(ixc[s]);
        free(ixp[s]);
        free(ct[s]);
    }
}

int main(void)
{
    startrd_context_t *ctx = tst_open_context();
    int threads = omp_get_num_procs() < 4 ? omp_get_num_procs() : 4;

    if (ctx == NULL)
        return tst_summary();
    /* A held Q's bytes, and the orders past which it cannot be held. */
    tst_check(startrd_dstedc_gpu_bytes(65535) == (3 * (size_t)65535 * 65535 + (size_t)65535 * 1025) * sizeof(double) &&
                  startrd_dstedc_gpu_bytes(65536) == SIZE_MAX,
              "held vectors' bytes: %zu at n = 65535, %zu at 65536 (SIZE_MAX: not held)",
              startrd_dstedc_gpu_bytes(65535), startrd_dstedc_gpu_bytes(65536));
    deflation_case(40, 20, 0.0, 0.0, 1.0, 101);
    deflation_case(41, 20, 0.3, 0.0, -1.0, 102);
    deflation_case(64, 32, 0.1, 0.5, 1.0, 103);
    deflation_case(101, 50, 0.2, 0.9, -1.0, 104);
    deflation_case(30, 15, 1.0, 0.0, 1.0, 105);
    deflation_case(2, 1, 0.0, 0.0, 1.0, 106);
    /* Every kind through trees of several levels; orders around the
     * leaves (no merge, one, odd halves, one thread); the library's own
     * leaf (one merge, then two levels).  Q on the host, then held. */
    for (int held = 0; held < 2; held++) {
        for (kind_t kind = 0; kind < NKINDS; kind++)
            run_case(kind, 600, 16, 11 + kind, threads, held);
        run_case(RANDOM, 1, 16, 1, threads, held);
        run_case(RANDOM, 2, 16, 2, threads, held);
        run_case(RANDOM, 16, 16, 3, threads, held);
        run_case(RANDOM, 17, 16, 4, threads, held);
        run_case(RANDOM, 33, 16, 5, threads, held);
        run_case(RANDOM, 257, 8, 6, 1, held);
        run_case(GLUED_WILKINSON, 1001, 8, 7, threads, held);
        run_case(RANDOM, 1500, 0, 8, threads, held);
        run_case(SPLIT, 2600, 0, 9, threads, held);
    }
    /* Selected pairs: every kind (DSTEMR fails on the glued Wilkinson and
     * the huge ones), by value, all pairs, and orders DSTEMR solves
     * directly. */
    for (kind_t kind = 0; kind < NKINDS; kind++)
        mrrr_case(kind, 1100, 'I', 101, 700, 21 + kind);
    mrrr_case(GLUED_WILKINSON, 1050, 'I', 3, 1000, 31);
    mrrr_case(RANDOM, 1500, 'V', 200, 900, 32);
    mrrr_case(TOEPLITZ, 700, 'A', 1, 700, 33);
    mrrr_case(GLUED_WILKINSON, 1050, 'V', 1, 1050, 37);
    mrrr_case(RANDOM, 700, 'I', 1, 70, 35);
    mrrr_case(RANDOM, 2, 'I', 1, 2, 36);
    startrd_context_release();
    return tst_summary();
}
