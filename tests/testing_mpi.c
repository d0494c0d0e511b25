#include "testing_mpi.h"

#include "testing.h"

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
