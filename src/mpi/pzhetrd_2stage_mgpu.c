/* pzhetrd_2stage_mgpu(): the two-stage reduction of a matrix in a
 * ScaLAPACK layout, run by zhetrd_2stage_mgpu() on the grid's process
 * (0, 0) (gathered.h).  The band and the stage-1 reflectors go back into
 * A's layout; D, E and TAU are dealt to the process columns that own their
 * columns, as PZHETRD ties them to A; HOUS2 reaches every process. */
#include "startrd_mpi.h"

#include "blacs.h"
#include "gathered.h"

#include <stdlib.h>
#include <string.h>

/* zhetrd_2stage_mgpu()'s arguments that differ from this call's: its
 * lhous2 and ngpu are -10 and -13, here -12 and -13. */
enum { NODE_ARG_LHOUS2 = 10, ARG_LHOUS2 = 12 };

static int check_arguments(const startrd_grid_t *grid, char vect, char uplo, int n, int ia, int ja,
                           const int *desca, const double _Complex *hous2, int lhous2)
{
    int info = startrd_check_leading(grid, vect, uplo, n, ia, ja, desca);

    if (info != 0)
        return info;
    if (hous2 == NULL && lhous2 != 0)
        return -11;
    if (lhous2 < -1)
        return -12;
    return 0;
}

/* x[j] of the n-entry global array goes to @p local, at the local index of
 * column ja + j + shift (0-based ja) on the process column that owns it. */
static void deal(const startrd_grid_t *grid, const int *desca, int ja, int shift, const void *x, size_t size, int n,
                 void *local)
{
    int nb = desca[DESC_NB], csrc = desca[DESC_CSRC];

    for (int j = 0; j < n; j++) {
        int col = ja + j + shift;

        if (startrd_owner(col, nb, csrc, grid->npcol) == grid->mycol)
            memcpy((char *)local + (size_t)startrd_local_index(col, nb, grid->npcol) * size,
                   (const char *)x + (size_t)j * size, size);
    }
}

int pzhetrd_2stage_mgpu(char vect, char uplo, int n, double _Complex *A, int ia, int ja, const int *desca,
                        double *d, double *e, double _Complex *tau, double _Complex *hous2, int lhous2, int ngpu)
{
    startrd_grid_t grid;
    startrd_gathered_t g;
    int status = startrd_grid_of(desca, 7, &grid), kd = 0;
    double *out = NULL;   /* D, E, TAU and the bandwidth, on every process */
    double _Complex size = 0;

    if (status != 0)
        return status;
    status = startrd_first_error(&grid, check_arguments(&grid, vect, uplo, n, ia, ja, desca, hous2, lhous2));
    if (status != 0)
        return status;
    if (lhous2 == -1) {
        /* The size HOUS2 needs, as process (0, 0)'s context sets the band. */
        if (startrd_grid_root(&grid))
            status = zhetrd_2stage_mgpu(vect, uplo, n, NULL, n > 1 ? n : 1, NULL, NULL, NULL, &size, -1, NULL, 0, ngpu);
        if ((status = startrd_from_root(&grid, status)) == 0) {
            double entries = creal(size);

            startrd_broadcast_doubles(&grid, &entries, 1);
            hous2[0] = entries;
        }
        return status;
    }
    if (n == 0)
        return 0;
    out = calloc((size_t)4 * (size_t)n + 1, sizeof *out);
    status = startrd_first_error(&grid, out == NULL ? STARTRD_ERR_MEMORY : 0);
    if (status != 0 || (status = startrd_gather(&grid, n, A, ia, ja, desca, &g)) != 0) {
        free(out);
        return status;
    }
    double *D = out, *E = out + n, *bandwidth = out + 4 * n;
    double _Complex *TAU = (double _Complex *)(out + 2 * n);

    if (startrd_grid_root(&grid)) {
        status = zhetrd_2stage_mgpu(vect, uplo, n, g.a, n, D, E, TAU, vect == 'V' ? hous2 : NULL,
                                    vect == 'V' ? lhous2 : 0, NULL, 0, ngpu);
        if (status == -NODE_ARG_LHOUS2)
            status = -ARG_LHOUS2;
        if (status == 0) {
            startrd_stats_t stats;

            startrd_last_stats(&stats);
            *bandwidth = stats.nb;
        }
    }
    if ((status = startrd_from_root(&grid, status)) == 0) {
        startrd_broadcast_doubles(&grid, out, 4 * (int64_t)n + 1);
        kd = (int)*bandwidth;
        if (vect == 'V')
            startrd_broadcast_doubles(&grid, (double *)hous2, 2 * (int64_t)lhous2);
        startrd_scatter(&g, A, ia, ja, desca);
        deal(&grid, desca, ja - 1, 0, D, sizeof *d, n, d);
        deal(&grid, desca, ja - 1, uplo == 'U' ? 1 : 0, E, sizeof *e, n - 1, e);
        /* n - kd reflectors, none below n = 2 (where the band is 0 wide). */
        deal(&grid, desca, ja - 1, 0, TAU, sizeof *tau, n > 1 && n > kd ? n - (kd > 1 ? kd : 1) : 0, tau);
    }
    free(out);
    startrd_gathered_free(&g);
    return status;
}
