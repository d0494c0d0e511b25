#include "testing_mpi.h"

#include "testing.h"
#include "testing_z.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);

int tst_mpi_rank(void)
{
    int me;

    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    return me;
}

int tst_local_owns(const tst_local_matrix_t *L, int i, int j, int64_t *at)
{
    int mb = L->desc[4], nb = L->desc[5];

    if ((i / mb + L->desc[6]) % L->nprow != L->myrow || (j / nb + L->desc[7]) % L->npcol != L->mycol)
        return 0;
    *at = (int64_t)(i / (mb * L->nprow) * mb + i % mb) + (int64_t)(j / (nb * L->npcol) * nb + j % nb) * L->desc[8];
    return 1;
}

int tst_local_init(tst_local_matrix_t *L, int context, int m, int mb, int nb, int rsrc, int csrc,
                   const double complex *G)
{
    Cblacs_gridinfo(context, &L->nprow, &L->npcol, &L->myrow, &L->mycol);
    L->rows = numroc_(&m, &mb, &L->myrow, &rsrc, &L->nprow);
    L->cols = numroc_(&m, &nb, &L->mycol, &csrc, &L->npcol);
    int lld = L->rows > 1 ? L->rows : 1, cols = L->cols > 1 ? L->cols : 1;
    int desc[9] = {1, context, m, m, mb, nb, rsrc, csrc, lld};

    memcpy(L->desc, desc, sizeof desc);
    if ((L->a = malloc((size_t)lld * (size_t)cols * sizeof *L->a)) == NULL)
        return -1;
    for (int64_t k = 0; k < (int64_t)lld * cols; k++)
        L->a[k] = TST_MPI_SENTINEL;
    for (int j = 0; j < m && G != NULL; j++)
        for (int i = 0; i < m; i++) {
            int64_t at;

            if (tst_local_owns(L, i, j, &at))
                L->a[at] = G[i + (int64_t)j * m];
        }
    return 0;
}

void tst_local_gather(const tst_local_matrix_t *L, int n, int i0, int j0, double complex *S)
{
    memset(S, 0, (size_t)n * (size_t)n * sizeof *S);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            int64_t at;

            if (tst_local_owns(L, i0 - 1 + i, j0 - 1 + j, &at))
                S[i + (int64_t)j * n] = L->a[at];
        }
    MPI_Allreduce(MPI_IN_PLACE, S, n * n, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
}

int tst_local_unchanged_outside(const tst_local_matrix_t *L, int n, int i0, int j0, const double complex *G)
{
    int ok = 1, m = L->desc[2];

    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++) {
            int64_t at;
            int inside = i >= i0 - 1 && i < i0 - 1 + n && j >= j0 - 1 && j < j0 - 1 + n;

            if (!inside && tst_local_owns(L, i, j, &at) &&
                L->a[at] != (G != NULL ? G[i + (int64_t)j * m] : TST_MPI_SENTINEL))
                ok = 0;
        }
    return tst_mpi_all(ok);
}

int tst_mpi_problem(int context, const tst_mpi_case_t *c, int p, int q, uint64_t seed, double complex *G,
                    double complex *S, tst_local_matrix_t *A)
{
    int n = c->n, m = c->m;

    if (G == NULL || S == NULL || tst_zgen(TST_KIND_RANDOM, m, G, m, seed) != 0 ||
        tst_local_init(A, context, m, c->mb, c->nb, c->rsrc % p, c->csrc % q, G) != 0)
        return -1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            S[i + (int64_t)j * n] = G[(c->off_i + i) + (int64_t)(c->off_j + j) * m];
    return 0;
}

void tst_fill_doubles(double *x, int count, double value)
{
    for (int i = 0; i < count; i++)
        x[i] = value;
}

int tst_all_doubles(const double *x, int count, double value)
{
    int same = 1;

    for (int i = 0; i < count; i++)
        same &= x[i] == value;
    return same;
}

int tst_mpi_all(int ok)
{
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return ok;
}

void tst_mpi_check(int ok, const char *fmt, ...)
{
    char line[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ok = tst_mpi_all(ok);
    if (tst_mpi_rank() == 0)
        tst_check(ok, "%s", line);
}

void tst_mpi_each_grid(int *argc, char ***argv, void (*run)(int context, int p, int q))
{
    int me, np, context;

    MPI_Init(argc, argv);
    Cblacs_pinfo(&me, &np);
    for (int p = 1; p <= np; p++) {
        if (np % p != 0)
            continue;
        Cblacs_get(-1, 0, &context);
        Cblacs_gridinit(&context, "Row", p, np / p);
        run(context, p, np / p);
        Cblacs_gridexit(context);
    }
}

int tst_mpi_finish(void)
{
    int failed = 0;

    if (tst_mpi_rank() == 0)
        failed = tst_summary();
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}

static const tst_mpi_case_t cases[] = {
    {1, 1, 0, 0, 2, 2, 1, 1, 0, 0},
    {37, 37, 0, 0, 3, 5, 4, 4, 1, 1},
    {64, 64, 0, 0, 16, 16, 16, 16, 0, 0},
    {100, 110, 3, 5, 8, 8, 7, 3, 1, 0},
    {90, 97, 7, 7, 32, 32, 5, 5, 0, 1},
};

void tst_mpi_each_case(int context, int p, int q,
                       void (*one)(int context, const tst_mpi_case_t *c, char job, char uplo, int p, int q))
{
    for (int k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++)
        for (int v = 0; v < 2; v++)
            one(context, &cases[k], v ? 'V' : 'N', (k + v) % 2 ? 'U' : 'L', p, q);
}
