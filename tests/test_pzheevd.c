/* pzheevd_2stage_mgpu() on every BLACS grid the processes allow (one
 * process alone; tests/test_mpi.sh runs 2 and 4): eigenvalues against
 * LAPACK's ZHEEVD, the eigenvectors' residual and orthogonality, A and what
 * lies outside Z's submatrix untouched, block sizes that differ between A
 * and Z and do not divide n, submatrices off the origin, and the exact
 * error codes, the same on every process, including one that only some
 * processes can see.  Only process 0 prints. */
#include "startrd_mpi.h"
#include "testing.h"
#include "testing_mpi.h"
#include "testing_z.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static void solve(int context, const tst_mpi_case_t *c, char jobz, char uplo, int p, int q)
{
    int n = c->n, m = c->m, ia = 1 + c->off_i, ja = 1 + c->off_j, zm = n + 2, iz = 3, jz = 1, status;
    int rsrc = c->rsrc % p, csrc = c->csrc % q;
    double complex *G = malloc((size_t)m * (size_t)m * sizeof *G), *S = malloc((size_t)n * n * sizeof *S);
    double complex *A1 = malloc((size_t)n * n * sizeof *A1), *Zs = malloc((size_t)n * n * sizeof *Zs);
    double *w = malloc((size_t)n * sizeof *w), *wref = malloc((size_t)n * sizeof *wref);
    double eig = NAN, resid = 0.0, orth = 0.0;
    tst_local_matrix_t A, Z;
    int ok = A1 != NULL && Zs != NULL && w != NULL && wref != NULL &&
             tst_mpi_problem(context, c, p, q, 1000u + (unsigned)(n + m), G, S, &A) == 0 &&
             tst_local_init(&Z, context, zm, c->zmb, c->znb, 0, 0, NULL) == 0;

    if (!tst_mpi_all(ok)) {
        tst_mpi_check(0, "setup of n=%d", n);
        goto out;
    }
    status = pzheevd_2stage_mgpu(jobz, uplo, n, A.a, ia, ja, A.desc, w, Z.a, iz, jz, Z.desc, tst_env_ngpu());
    if (status == 0 && tst_zeig_hermitian(uplo, n, S, n, wref) == 0)
        eig = tst_zeig_ratio(n, w, wref);
    tst_local_gather(&A, n, ia, ja, A1);
    int a_same = memcmp(A1, S, (size_t)n * n * sizeof *S) == 0;
    if (jobz == 'V') {
        tst_local_gather(&Z, n, iz, jz, Zs);
        tst_zeigvec_ratios(uplo, n, n, S, n, Zs, n, w, &resid, &orth);
    }
    int z_outside = tst_local_unchanged_outside(&Z, jobz == 'V' ? n : 0, iz, jz, NULL);

    tst_mpi_check(status == 0 && eig <= 10.0 && resid < 30.0 && orth < 30.0 && a_same && z_outside,
                  "grid %dx%d jobz %c uplo %c n %d in %d (from %d,%d) A blocks %dx%d from (%d,%d), Z blocks %dx%d: "
                  "status %d eig %.2f resid %.2f orth %.2f, A %s, Z outside %s",
                  p, q, jobz, uplo, n, m, ia, ja, c->mb, c->nb, rsrc, csrc, c->zmb, c->znb, status, eig, resid, orth,
                  a_same ? "unchanged" : "CHANGED", z_outside ? "unchanged" : "CHANGED");
    free(A.a);
    free(Z.a);
out:
    free(G);
    free(S);
    free(A1);
    free(Zs);
    free(w);
    free(wref);
}

/* Each bad argument's exact code on every process, w and Z untouched. */
static void errors(int context, int p, int q)
{
    enum { N = 20 };
    double complex G[N * N];
    double w[N];
    tst_local_matrix_t A, Z;
    struct {
        const char *what;
        int arg, entry, value, expect;   /* arg: 0 none, 7 desca, 12 descz; 5/6/10/11/13 scalars */
        char jobz, uplo;
        int n;
    } cases[] = {
        {"jobz", 0, 0, 0, -1, 'X', 'L', N},
        {"uplo", 0, 0, 0, -2, 'V', 'X', N},
        {"n < 0", 0, 0, 0, -3, 'V', 'L', -1},
        {"desca dtype", 7, 0, 2, -701, 'V', 'L', N},
        {"desca mb", 7, 4, 0, -705, 'V', 'L', N},
        {"desca nb", 7, 5, -1, -706, 'V', 'L', N},
        {"desca rsrc", 7, 6, p, -707, 'V', 'L', N},
        {"desca csrc", 7, 7, q, -708, 'V', 'L', N},
        {"ia", 5, 0, 0, -5, 'V', 'L', N},
        {"ja", 6, 0, 2, -6, 'V', 'L', N},
        {"descz context", 12, 1, -12345, -1202, 'V', 'L', N},
        {"descz m", 12, 2, -1, -1203, 'V', 'L', N},
        {"iz", 10, 0, 2, -10, 'V', 'L', N},
        {"jz", 11, 0, 0, -11, 'V', 'L', N},
        {"ngpu", 13, 0, 1000, -13, 'V', 'L', N},
    };

    tst_zgen(TST_KIND_RANDOM, N, G, N, 7);
    if (!tst_mpi_all(tst_local_init(&A, context, N, 4, 4, 0, 0, G) == 0 &&
                     tst_local_init(&Z, context, N, 4, 4, 0, 0, NULL) == 0)) {
        tst_mpi_check(0, "setup of the error cases");
        return;
    }
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int desca[9], descz[9], ia = 1, ja = 1, iz = 1, jz = 1, ngpu = tst_env_ngpu();

        memcpy(desca, A.desc, sizeof desca);
        memcpy(descz, Z.desc, sizeof descz);
        if (cases[k].arg == 7)
            desca[cases[k].entry] = cases[k].value;
        if (cases[k].arg == 12)
            descz[cases[k].entry] = cases[k].value;
        ia = cases[k].arg == 5 ? cases[k].value : ia;
        ja = cases[k].arg == 6 ? cases[k].value : ja;
        iz = cases[k].arg == 10 ? cases[k].value : iz;
        jz = cases[k].arg == 11 ? cases[k].value : jz;
        ngpu = cases[k].arg == 13 ? cases[k].value : ngpu;
        tst_fill_doubles(w, N, -1.0);
        int status = pzheevd_2stage_mgpu(cases[k].jobz, cases[k].uplo, cases[k].n, A.a, ia, ja, desca, w, Z.a, iz,
                                         jz, descz, ngpu);
        int w_same = tst_all_doubles(w, N, -1.0);
        tst_mpi_check(status == cases[k].expect && w_same && tst_local_unchanged_outside(&Z, 0, 1, 1, NULL),
                      "grid %dx%d: %s gives %d (want %d)%s", p, q, cases[k].what, status, cases[k].expect,
                      w_same ? "" : ", w written");
    }
    free(A.a);
    free(Z.a);
    /* Order 5 in blocks of 4 with a leading dimension of 1: too small on
     * the first process row (4 rows), enough on the second (1 row); every
     * process must still return the same. */
    if (!tst_mpi_all(tst_local_init(&A, context, 5, 4, 4, 0, 0, G) == 0 &&
                     tst_local_init(&Z, context, 5, 4, 4, 0, 0, NULL) == 0)) {
        tst_mpi_check(0, "setup of the leading dimension case");
        return;
    }
    A.desc[8] = 1;
    int status = pzheevd_2stage_mgpu('V', 'L', 5, A.a, 1, 1, A.desc, w, Z.a, 1, 1, Z.desc, tst_env_ngpu());
    tst_mpi_check(status == -709,
                  "grid %dx%d: desca lld 1 for 5 rows in blocks of 4 gives %d on every process (want -709)", p, q,
                  status);
    free(A.a);
    free(Z.a);
}

static void on_grid(int context, int p, int q)
{
    tst_mpi_each_case(context, p, q, solve);
    errors(context, p, q);
}

int main(int argc, char **argv)
{
    int me, np, context;

    tst_mpi_each_grid(&argc, &argv, on_grid);
    Cblacs_pinfo(&me, &np);
    /* A grid of process 0 alone: the others are outside it. */
    if (np > 1) {
        double complex G[16 * 16];
        double w[16];
        tst_local_matrix_t A;
        int status;

        Cblacs_get(-1, 0, &context);
        Cblacs_gridinit(&context, "Row", 1, 1);
        tst_zgen(TST_KIND_RANDOM, 16, G, 16, 11);
        if (me == 0) {
            tst_local_init(&A, context, 16, 4, 4, 0, 0, G);
            status = pzheevd_2stage_mgpu('N', 'L', 16, A.a, 1, 1, A.desc, w, NULL, 1, 1, A.desc, tst_env_ngpu());
            free(A.a);
            Cblacs_gridexit(context);
        } else {
            int desc[9] = {1, context, 16, 16, 4, 4, 0, 0, 1};

            status = pzheevd_2stage_mgpu('N', 'L', 16, NULL, 1, 1, desc, w, NULL, 1, 1, desc, tst_env_ngpu());
        }
        tst_mpi_check(status == (me == 0 ? 0 : -702), "grid 1x1 of %d processes: process %d gives %d", np, me, status);
    }
    return tst_mpi_finish();
}
