/* pzhetrd_2stage_mgpu() on every BLACS grid the processes allow (one
 * process alone; tests/test_mpi.sh runs 2 and 4), against
 * zhetrd_2stage_mgpu() on the same submatrix: the band and reflectors left
 * in A, D, E and TAU where PZHETRD ties them to A's columns, HOUS2 on every
 * process, the size query, A outside the submatrix untouched, and the exact
 * error codes, the same on every process.  Only process 0 prints. */
#include "startrd_mpi.h"
#include "testing.h"
#include "testing_mpi.h"
#include "testing_z.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* The node solver's outputs on the submatrix, from process 0. */
struct reference {
    double complex *a, *tau, *hous2;
    double *d, *e;
    int lhous2, kd, status;
};

static double max_abs(int64_t count, const double complex *x)
{
    double big = 0.0;

    for (int64_t k = 0; k < count; k++)
        big = tst_max_nan(big, cabs(x[k]));
    return big;
}

/* max |x - y| / max |y| over count entries; 0 when y is 0. */
static double relative_diff(int64_t count, const double complex *x, const double complex *y)
{
    double diff = 0.0, big = max_abs(count, y);

    for (int64_t k = 0; k < count; k++)
        diff = tst_max_nan(diff, cabs(x[k] - y[k]));
    return big > 0.0 ? diff / big : diff;
}

static int reference_of(char vect, char uplo, int n, const double complex *S, struct reference *r)
{
    double complex size = 0;

    memset(r, 0, sizeof *r);
    if (tst_mpi_rank() == 0) {
        r->status = zhetrd_2stage_mgpu(vect, uplo, n, NULL, n, NULL, NULL, NULL, &size, -1, NULL, 0,
                                       tst_env_ngpu());
        r->lhous2 = (int)creal(size);
    }
    MPI_Bcast(&r->lhous2, 1, MPI_INT, 0, MPI_COMM_WORLD);
    r->a = malloc((size_t)n * n * sizeof *r->a);
    r->tau = malloc((size_t)n * sizeof *r->tau);
    r->hous2 = malloc((size_t)r->lhous2 * sizeof *r->hous2);
    r->d = malloc((size_t)n * sizeof *r->d);
    r->e = malloc((size_t)n * sizeof *r->e);
    if (!tst_mpi_all(r->a != NULL && r->tau != NULL && r->hous2 != NULL && r->d != NULL && r->e != NULL))
        return -1;
    memcpy(r->a, S, (size_t)n * n * sizeof *r->a);
    if (tst_mpi_rank() == 0) {
        startrd_stats_t stats;

        r->status |= zhetrd_2stage_mgpu(vect, uplo, n, r->a, n, r->d, r->e, r->tau, r->hous2, r->lhous2, NULL, 0,
                                        tst_env_ngpu());
        startrd_last_stats(&stats);
        r->kd = stats.nb;
    }
    MPI_Bcast(&r->status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&r->kd, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(r->a, n * n, MPI_C_DOUBLE_COMPLEX, 0, MPI_COMM_WORLD);
    MPI_Bcast(r->tau, n, MPI_C_DOUBLE_COMPLEX, 0, MPI_COMM_WORLD);
    MPI_Bcast(r->hous2, r->lhous2, MPI_C_DOUBLE_COMPLEX, 0, MPI_COMM_WORLD);
    MPI_Bcast(r->d, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(r->e, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return r->status;
}

static void reference_free(struct reference *r)
{
    free(r->a);
    free(r->tau);
    free(r->hous2);
    free(r->d);
    free(r->e);
}

/* Whether the entries of the column-tied array x (LOCc entries) that this
 * process holds, x(j) for column ja0 + j + shift (0-based), j < count,
 * are want's within 1e-12 scale. */
static int tied_matches(const tst_local_matrix_t *A, int ja0, int shift, int count, const void *x, const void *want,
                        int complex_entries, double scale)
{
    int ok = 1, nb = A->desc[5];

    for (int j = 0; j < count; j++) {
        int col = ja0 + j + shift;

        if ((col / nb + A->desc[7]) % A->npcol != A->mycol)
            continue;
        int local = col / (nb * A->npcol) * nb + col % nb;
        double diff = complex_entries ? cabs(((const double complex *)x)[local] - ((const double complex *)want)[j])
                                      : fabs(((const double *)x)[local] - ((const double *)want)[j]);

        ok &= diff <= 1e-12 * scale;
    }
    return ok;
}

static void reduce(int context, const tst_mpi_case_t *c, char vect, char uplo, int p, int q)
{
    int n = c->n, m = c->m, ia = 1 + c->off_i, ja = 1 + c->off_j, status;
    double complex *G = malloc((size_t)m * m * sizeof *G), *S = malloc((size_t)n * n * sizeof *S);
    double complex *A1 = malloc((size_t)n * n * sizeof *A1), query = 0;
    tst_local_matrix_t A;
    struct reference r;
    int ok = A1 != NULL && tst_mpi_problem(context, c, p, q, 2000u + (unsigned)(n + m), G, S, &A) == 0;

    if (!tst_mpi_all(ok)) {
        tst_mpi_check(0, "setup of n=%d", n);
        goto out;
    }
    if (reference_of(vect, uplo, n, S, &r) != 0) {
        tst_mpi_check(0, "reference of n=%d: status %d", n, r.status);
        reference_free(&r);
        free(A.a);
        goto out;
    }
    /* Arrays tied to columns: LOCc of the whole matrix is enough. */
    int locc = A.cols > 0 ? A.cols : 1;
    double *d = malloc((size_t)locc * sizeof *d), *e = malloc((size_t)locc * sizeof *e);
    double complex *tau = malloc((size_t)locc * sizeof *tau), *hous2 = malloc((size_t)r.lhous2 * sizeof *hous2);

    status = pzhetrd_2stage_mgpu(vect, uplo, n, A.a, ia, ja, A.desc, d, e, tau, &query, -1, tst_env_ngpu());
    tst_mpi_check(status == 0 && (int)creal(query) == r.lhous2, "grid %dx%d vect %c n %d: query gives %d, %d (want %d)",
                  p, q, vect, n, status, (int)creal(query), r.lhous2);
    status = pzhetrd_2stage_mgpu(vect, uplo, n, A.a, ia, ja, A.desc, d, e, tau, hous2, r.lhous2, tst_env_ngpu());
    tst_local_gather(&A, n, ia, ja, A1);
    double scale = tst_max_nan(max_abs((int64_t)n * n, S), 1.0);
    double diff_a = relative_diff((int64_t)n * n, A1, r.a);
    double diff_h = vect == 'V' ? relative_diff(r.lhous2, hous2, r.hous2) : 0.0;
    int tied = tied_matches(&A, ja - 1, 0, n, d, r.d, 0, scale) &&
               tied_matches(&A, ja - 1, uplo == 'U' ? 1 : 0, n - 1, e, r.e, 0, scale) &&
               tied_matches(&A, ja - 1, 0, n > 1 && n > r.kd ? n - (r.kd > 1 ? r.kd : 1) : 0, tau, r.tau, 1, 1.0);

    tst_mpi_check(status == 0 && diff_a <= 1e-12 && diff_h <= 1e-12 && tied &&
                      tst_local_unchanged_outside(&A, n, ia, ja, G),
                  "grid %dx%d vect %c uplo %c n %d in %d (from %d,%d) blocks %dx%d from (%d,%d), kd %d: status %d, "
                  "A %.1e, HOUS2 %.1e, D E TAU %s",
                  p, q, vect, uplo, n, m, ia, ja, c->mb, c->nb, c->rsrc % p, c->csrc % q, r.kd, status, diff_a,
                  diff_h, tied ? "as the node's" : "DIFFER");
    free(d);
    free(e);
    free(tau);
    free(hous2);
    reference_free(&r);
    free(A.a);
out:
    free(G);
    free(S);
    free(A1);
}

/* Each bad argument's exact code on every process, nothing written. */
static void errors(int context, int p, int q)
{
    enum { N = 24 };
    double complex G[N * N], tau[N], hous2[8];
    double d[N], e[N];
    tst_local_matrix_t A;
    struct {
        const char *what;
        int arg, value, expect;   /* arg: 6 desca nb, 5 ia, 11 hous2 NULL, 12 lhous2, 13 ngpu */
        char vect, uplo;
        int n;
    } cases[] = {
        {"vect", 0, 0, -1, 'X', 'L', N},
        {"uplo", 0, 0, -2, 'N', 'X', N},
        {"n < 0", 0, 0, -3, 'N', 'L', -1},
        {"desca nb", 6, 0, -706, 'N', 'L', N},
        {"ia", 5, 0, -5, 'N', 'L', N},
        {"hous2 NULL", 11, 4, -11, 'V', 'L', N},
        {"lhous2 below -1", 12, -2, -12, 'V', 'L', N},
        {"lhous2 too small", 12, 1, -12, 'V', 'L', N},
        {"ngpu", 13, 1000, -13, 'N', 'L', N},
    };

    tst_zgen(TST_KIND_RANDOM, N, G, N, 9);
    if (!tst_mpi_all(tst_local_init(&A, context, N, 4, 4, 0, 0, G) == 0)) {
        tst_mpi_check(0, "setup of the error cases");
        return;
    }
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int desca[9], ia = cases[k].arg == 5 ? cases[k].value : 1;
        int lhous2 = cases[k].arg == 11 || cases[k].arg == 12 ? cases[k].value : 8;
        int ngpu = cases[k].arg == 13 ? cases[k].value : tst_env_ngpu();

        memcpy(desca, A.desc, sizeof desca);
        if (cases[k].arg == 6)
            desca[5] = cases[k].value;
        tst_fill_doubles(d, N, -1.0);
        int status = pzhetrd_2stage_mgpu(cases[k].vect, cases[k].uplo, cases[k].n, A.a, ia, 1, desca, d, e, tau,
                                         cases[k].arg == 11 ? NULL : hous2, lhous2, ngpu);
        int d_same = tst_all_doubles(d, N, -1.0);
        tst_mpi_check(status == cases[k].expect && d_same && tst_local_unchanged_outside(&A, 0, 1, 1, G),
                      "grid %dx%d: %s gives %d (want %d)%s", p, q, cases[k].what, status, cases[k].expect,
                      d_same ? "" : ", d written");
    }
    free(A.a);
}

static void on_grid(int context, int p, int q)
{
    tst_mpi_each_case(context, p, q, reduce);
    errors(context, p, q);
}

int main(int argc, char **argv)
{
    tst_mpi_each_grid(&argc, &argv, on_grid);
    return tst_mpi_finish();
}
