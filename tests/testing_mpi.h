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

/** x[0..count) := value. */
void tst_fill_doubles(double *x, int count, double value);

/** Whether x[0..count) all equal value (an output left unwritten). */
int tst_all_doubles(const double *x, int count, double value);

/** @p ok and-ed over every process. */
int tst_mpi_all(int ok);

/** tst_check() of @p ok and-ed over every process, printed by process 0. */
void tst_mpi_check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** A distributed problem: order n inside an m x m matrix from global
 *  (1 + off_i, 1 + off_j), A in blocks mb x nb from process (rsrc, csrc)
 *  (modulo the grid), the output matrix, if any, in blocks zmb x znb. */
typedef struct tst_mpi_case {
    int n, m, off_i, off_j, mb, nb, zmb, znb, rsrc, csrc;
} tst_mpi_case_t;

/** Case @p c's random Hermitian m x m matrix G (seeded by @p seed), its
 *  share A in c's layout on the p x q grid of @p context, and S, its n x n
 *  submatrix.  0, or -1 when out of memory. */
int tst_mpi_problem(int context, const tst_mpi_case_t *c, int p, int q, uint64_t seed, double complex *G,
                    double complex *S, tst_local_matrix_t *A);

/** @p one on each of the tests' layouts (orders 1 to 100, blocks that
 *  do not divide them, non-square blocks, submatrices off the origin, first
 *  process rows and columns other than 0), with job 'N' then 'V', and uplo
 *  alternating between them. */
void tst_mpi_each_case(int context, int p, int q,
                       void (*one)(int context, const tst_mpi_case_t *c, char job, char uplo, int p, int q));

/** MPI_Init, then @p run on every p x q grid of all the processes, one
 *  after the other (a BLACS context made and freed for each). */
void tst_mpi_each_grid(int *argc, char ***argv, void (*run)(int context, int p, int q));

/** The summary on process 0, MPI_Finalize; what main returns, on every process. */
int tst_mpi_finish(void);

#endif
