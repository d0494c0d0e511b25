#include "gathered.h"

#include "blacs.h"
#include "error.h"
#include "startrd.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int startrd_grid_of(const int *desc, int arg, startrd_grid_t *grid)
{
    grid->context = desc[DESC_CTXT];
    Cblacs_gridinfo(grid->context, &grid->nprow, &grid->npcol, &grid->myrow, &grid->mycol);
    /* No grid, or not in it: no process to agree with. */
    return grid->nprow < 1 || grid->myrow < 0 ? -(100 * arg + DESC_CTXT + 1) : 0;
}

int startrd_check_descriptor(const startrd_grid_t *grid, const int *desc, int arg)
{
    int bad = 0;

    if (desc[DESC_DTYPE] != 1)
        bad = DESC_DTYPE + 1;
    else if (desc[DESC_CTXT] != grid->context)
        bad = DESC_CTXT + 1;
    else if (desc[DESC_M] < 0)
        bad = DESC_M + 1;
    else if (desc[DESC_N] < 0)
        bad = DESC_N + 1;
    else if (desc[DESC_MB] < 1)
        bad = DESC_MB + 1;
    else if (desc[DESC_NB] < 1)
        bad = DESC_NB + 1;
    else if (desc[DESC_RSRC] < 0 || desc[DESC_RSRC] >= grid->nprow)
        bad = DESC_RSRC + 1;
    else if (desc[DESC_CSRC] < 0 || desc[DESC_CSRC] >= grid->npcol)
        bad = DESC_CSRC + 1;
    else {
        int rows = numroc_(&desc[DESC_M], &desc[DESC_MB], &grid->myrow, &desc[DESC_RSRC], &grid->nprow);

        if (desc[DESC_LLD] < (rows > 1 ? rows : 1))
            bad = DESC_LLD + 1;
    }
    return bad == 0 ? 0 : -(100 * arg + bad);
}

int startrd_check_submatrix(int n, int i0, int j0, const int *desc, int arg_i)
{
    if (i0 < 1 || (int64_t)i0 + n - 1 > desc[DESC_M])
        return -arg_i;
    if (j0 < 1 || (int64_t)j0 + n - 1 > desc[DESC_N])
        return -(arg_i + 1);
    return 0;
}

int startrd_check_leading(const startrd_grid_t *grid, char job, char uplo, int n, int ia, int ja, const int *desca)
{
    int info;

    if (job != 'N' && job != 'V')
        return -1;
    if (uplo != 'U' && uplo != 'L')
        return -2;
    if (n < 0)
        return -3;
    if ((info = startrd_check_descriptor(grid, desca, 7)) != 0)
        return info;
    return startrd_check_submatrix(n, ia, ja, desca, 5);
}

int startrd_first_error(const startrd_grid_t *grid, int info)
{
    int key = info == 0 ? INT_MAX : -info;

    Cigamn2d(grid->context, "All", " ", 1, 1, &key, 1, NULL, NULL, -1, -1, -1);
    return key == INT_MAX ? 0 : -key;
}

int startrd_from_root(const startrd_grid_t *grid, int status)
{
    if (startrd_grid_root(grid))
        Cigebs2d(grid->context, "All", " ", 1, 1, &status, 1);
    else
        Cigebr2d(grid->context, "All", " ", 1, 1, &status, 1, 0, 0);
    return status;
}

void startrd_broadcast_doubles(const startrd_grid_t *grid, double *x, int64_t count)
{
    /* BLACS counts in int: in pieces of at most 2^30. */
    for (int64_t done = 0; done < count; done += (int64_t)1 << 30) {
        int piece = (int)(count - done < ((int64_t)1 << 30) ? count - done : (int64_t)1 << 30);

        if (startrd_grid_root(grid))
            Cdgebs2d(grid->context, "All", " ", piece, 1, x + done, piece);
        else
            Cdgebr2d(grid->context, "All", " ", piece, 1, x + done, piece, 0, 0);
    }
}

int startrd_gather(const startrd_grid_t *grid, int n, const double _Complex *A, int ia, int ja, const int *desca,
                   startrd_gathered_t *g)
{
    double _Complex none = 0;
    int one = 1, status = 0;

    /* Process row 0 holds the n rows (no column but on (0, 0)), and
     * PZGEMR2D wants a leading dimension of n there. */
    const int desc[DESC_LEN] = {1, grid->context, n, n, n, n, 0, 0, grid->myrow == 0 ? n : 1};

    *g = (startrd_gathered_t){.grid = *grid, .n = n};
    memcpy(g->desc, desc, sizeof desc);
    if (startrd_grid_root(grid) && (g->a = malloc((size_t)n * (size_t)n * sizeof *g->a)) == NULL) {
        startrd_error("cannot allocate the gathered %d x %d matrix", n, n);
        status = STARTRD_ERR_MEMORY;
    }
    if ((status = startrd_from_root(grid, status)) != 0)
        return status;
    pzgemr2d_(&n, &n, A, &ia, &ja, desca, g->a != NULL ? g->a : &none, &one, &one, g->desc,
              &g->grid.context);
    return 0;
}

void startrd_scatter(const startrd_gathered_t *g, double _Complex *B, int ib, int jb, const int *descb)
{
    const double _Complex none = 0;
    int one = 1;

    pzgemr2d_(&g->n, &g->n, g->a != NULL ? g->a : &none, &one, &one, g->desc, B, &ib, &jb, descb,
              &g->grid.context);
}

void startrd_gathered_free(startrd_gathered_t *g)
{
    free(g->a);
    g->a = NULL;
}
