/* What the distributed entry points share: the checks of ScaLAPACK
 * descriptors, a verdict agreed by the whole grid, and the submatrix
 * gathered on the grid's process (0, 0), where the node solvers run, then
 * dealt back. */
#ifndef STARTRD_GATHERED_H
#define STARTRD_GATHERED_H

#include <complex.h>
#include <stdint.h>

/* This process's place in the BLACS grid of a descriptor's context. */
typedef struct startrd_grid {
    int context, nprow, npcol, myrow, mycol;
} startrd_grid_t;

/* 0, or the code of a process outside any grid of @p desc's context
 * (argument @p arg): -(100 arg + 2), as ScaLAPACK says. */
int startrd_grid_of(const int *desc, int arg, startrd_grid_t *grid);

/* 0, or -(100 arg + j) for the first bad entry j (1-based) of descriptor
 * @p desc (argument @p arg) on this process. */
int startrd_check_descriptor(const startrd_grid_t *grid, const int *desc, int arg);

/* 0, or -arg_i / -(arg_i + 1): the submatrix of order n from global
 * (i0, j0), arguments arg_i and arg_i + 1, lies outside @p desc's matrix. */
int startrd_check_submatrix(int n, int i0, int j0, const int *desc, int arg_i);

/* 0, or the code of the first bad one of the arguments the distributed
 * entry points share: 1 job ('N' or 'V'), 2 uplo, 3 n, 7 the descriptor,
 * 5 and 6 the submatrix's first row and column. */
int startrd_check_leading(const startrd_grid_t *grid, char job, char uplo, int n, int ia, int ja, const int *desca);

/* The first error any process found (the one of the lowest argument
 * number), on every process of the grid. */
int startrd_first_error(const startrd_grid_t *grid, int info);

/* Process (0, 0)'s @p status, on every process. */
int startrd_from_root(const startrd_grid_t *grid, int status);

/* Process (0, 0)'s @p count doubles, on every process. */
void startrd_broadcast_doubles(const startrd_grid_t *grid, double *x, int64_t count);

static inline int startrd_grid_root(const startrd_grid_t *grid)
{
    return grid->myrow == 0 && grid->mycol == 0;
}

/* The n x n submatrix from (ia, ja) of a distributed matrix, whole on
 * process (0, 0): one block there, in the caller's own context, so that
 * no new grid (collective over every process of the system) is made. */
typedef struct startrd_gathered {
    startrd_grid_t grid;
    int n, desc[9];
    double _Complex *a;    /* on process (0, 0), leading dimension n; NULL elsewhere */
} startrd_gathered_t;

/* Gather; 0, or STARTRD_ERR_MEMORY on every process when process (0, 0)
 * lacks the room. */
int startrd_gather(const startrd_grid_t *grid, int n, const double _Complex *A, int ia, int ja, const int *desca,
                   startrd_gathered_t *g);

/* Deal the gathered matrix into the submatrix from (ib, jb) of B. */
void startrd_scatter(const startrd_gathered_t *g, double _Complex *B, int ib, int jb, const int *descb);

void startrd_gathered_free(startrd_gathered_t *g);

/* Local index of global column @p j (0-based) in a layout of @p nb-wide
 * blocks over @p npcol process columns, on the process that owns it. */
static inline int startrd_local_index(int j, int nb, int npcol)
{
    return j / (nb * npcol) * nb + j % nb;
}

/* The process column that owns global column @p j (0-based). */
static inline int startrd_owner(int j, int nb, int csrc, int npcol)
{
    return (j / nb + csrc) % npcol;
}

#endif
