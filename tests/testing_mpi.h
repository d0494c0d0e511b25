/* Helpers of the tests of the distributed entry points: BLACS grids, a
 * process's share of a global matrix in a block-cyclic layout, gathering
 * it back, and checks agreed by every process and printed by process 0. */
#ifndef STARTRD_TESTS_TESTING_MPI_H
#define STARTRD_TESTS_TESTING_MPI_H

#include <complex.h>
#include <stdint.h>

void Cblacs_pinfo(int *me, int *nprocs);
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int context);

/** What the entries of a share hold before a call, outside what it writes. */
#define TST_MPI_SENTINEL (-7.0 + 3.0 * I)

/** A process's share of an m x m matrix: ScaLAPACK's descriptor and array. */
typedef struct tst_local_matrix {
    int desc[9];
    int myrow, mycol, nprow, npcol, rows, cols;
    double complex *a;
} tst_local_matrix_t;

/** This process's rank (after MPI_Init). */
int tst_mpi_rank(void);

/** The share of the m x m matrix G (leading dimension m) in blocks of
 *  mb x nb from process (rsrc, csrc) of @p context's grid; G NULL: every
 *  entry TST_MPI_SENTINEL.  0, or -1 when out of memory. */
int tst_local_init(tst_local_matrix_t *L, int context, int m, int mb, int nb, int rsrc, int csrc,
                   const double complex *G);

/** Whether global entry (i, j) (0-based) is this process's, and where. */
int tst_local_owns(const tst_local_matrix_t *L, int i, int j, int64_t *at);

/** The n x n submatrix from global (i0, j0) (1-based), on every process. */
void tst_local_gather(const tst_local_matrix_t *L, int n, int i0, int j0, double complex *S);

/** Whether every entry outside that submatrix equals G's (G NULL:
 *  TST_MPI_SENTINEL), on every process. */
int tst_local_unchanged_outside(const tst_local_matrix_t *L, int n, int i0, int j0, const double complex *G);

/** @p ok and-ed over every process. */
int tst_mpi_all(int ok);

/** tst_check() of @p ok and-ed over every process, printed by process 0. */
void tst_mpi_check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
