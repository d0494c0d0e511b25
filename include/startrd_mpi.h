/**
 * @file startrd_mpi.h
 * @brief The distributed entry points, pzhetrd_2stage_mgpu() and
 *        pzheevd_2stage_mgpu(): Hermitian eigenproblems whose matrix
 *        lies in a ScaLAPACK 2-D block-cyclic layout on a BLACS grid, in
 *        the library libstartrd_mpi.
 *
 * The matrices are described as ScaLAPACK describes them: a descriptor of
 * nine integers (DTYPE = 1, the BLACS context, M, N, MB, NB, RSRC, CSRC,
 * LLD), made with ScaLAPACK's DESCINIT, and a submatrix of it from global
 * row IA and column JA (1-based). Any block sizes and grid shape are taken,
 * and A and Z need not share them, only their BLACS context. Every process
 * of the grid calls with the same global arguments; a process outside the
 * grid gets -702, as from PZHEEVD, and touches nothing.
 *
 * How the work is spread today: the matrix is gathered on the grid's
 * process (0, 0), which solves it with the node solver
 * (zhetrd_2stage_mgpu(), zheevd_2stage_mgpu(): its GPUs and cores), and
 * the results are dealt back. That process therefore needs 16 n^2 bytes of host memory beside
 * its share, and the other processes' GPUs do not take part
 * (docs/distributed.md gives the plan for the graph over nodes).
 */
#ifndef STARTRD_MPI_H
#define STARTRD_MPI_H

#include <complex.h>

#include "startrd.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief The two-stage reduction of a distributed Hermitian matrix to real
 *        tridiagonal form, T = Q^H A Q, with the arguments of ScaLAPACK's
 *        PZHETRD where they exist and the layout of zhetrd_2stage_mgpu().
 *
 * @param vect  'N': Q2 is not kept; 'V': its reflectors are returned in
 *              HOUS2 on every process, in zhetrd_2stage_mgpu()'s layout.
 * @param uplo  'U' or 'L': the triangle of A referenced.
 * @param n     order of the submatrix, n >= 0.
 * @param A     the local part of the distributed matrix.  On exit the
 *              submatrix A(ia:ia+n-1, ja:ja+n-1) holds what
 *              zhetrd_2stage_mgpu() leaves in its A: the band of width kd,
 *              and the stage-1 reflectors beyond it.
 * @param ia    its first global row (1-based).
 * @param ja    its first global column (1-based).
 * @param desca A's descriptor.
 * @param d     T's diagonal, tied to A's columns as in PZHETRD: d(j) on
 *              the process column that owns column ja+j-1, at that
 *              column's local index (LOCc(ja+n-1) entries), on every
 *              process row of it.
 * @param e     T's off-diagonal, tied as in PZHETRD: e(j) to column
 *              ja+j-1 with 'L', to column ja+j with 'U'.
 * @param tau   the n-kd scalar factors of the stage-1 reflectors, tau(j)
 *              tied to column ja+j-1.
 * @param hous2 with 'V', lhous2 entries on every process; a query
 *              (lhous2 = -1) writes the size needed into hous2[0]. Not
 *              referenced with 'N' unless a query.
 * @param lhous2 its length with 'V', at least what a query returns; -1
 *              asks for that size (nothing else is done).
 * @param ngpu  for the process that reduces: as for zhetrd_2stage_mgpu().
 *
 * kd is the band the process (0, 0) reduces to (its context's nb option).
 *
 * @return the same on every process of the grid: 0; -i for argument i,
 *         -(100 i + j) for entry j of descriptor i (as for
 *         pzheevd_2stage_mgpu()); lhous2 too small is -12, found by the
 *         process that reduces, and then nothing is written. A positive
 *         ::startrd_status from the reduction.
 */
int pzhetrd_2stage_mgpu(char vect, char uplo, int n, double _Complex *A, int ia, int ja, const int *desca,
                        double *d, double *e, double _Complex *tau, double _Complex *hous2, int lhous2, int ngpu);

/**
 * @brief Eigenvalues and optionally eigenvectors of a distributed Hermitian
 *        matrix, as ScaLAPACK's PZHEEVD without its workspaces.
 *
 * @param jobz  'N': eigenvalues only (PZHEEVD has no such mode); 'V': and
 *              the eigenvectors, into Z.
 * @param uplo  'U' or 'L': the triangle of A referenced.
 * @param n     order of the submatrix, n >= 0.
 * @param A     the caller's local part of the distributed matrix; the
 *              submatrix A(ia:ia+n-1, ja:ja+n-1) is read, not written.
 * @param ia    its first global row (1-based).
 * @param ja    its first global column (1-based).
 * @param desca A's descriptor.
 * @param w     the n eigenvalues, ascending, on every process of the grid.
 * @param Z     with 'V', the local part of Z: its submatrix from iz, jz
 *              gets the eigenvectors (column j for w[j]); not referenced
 *              with 'N'.
 * @param iz    its first global row (1-based), with 'V'.
 * @param jz    its first global column (1-based), with 'V'.
 * @param descz Z's descriptor, in A's BLACS context, with 'V'.
 * @param ngpu  for the process that solves: as for zheevd_2stage_mgpu().
 *
 * Build: mpicc prog.c -lstartrd_mpi $(pkg-config --cflags --libs startrd)
 * -lscalapack-openmpi (Debian's ScaLAPACK; another's name otherwise), and
 * run under mpirun.
 *
 * @return the same on every process of the grid: 0 on success; -i when
 *         argument i is invalid, and -(100 i + j) when entry j (1-based)
 *         of descriptor i is, as ScaLAPACK numbers them: DTYPE not 1, a
 *         context that is not a grid (j = 2), M or N below 0 (3, 4), MB
 *         or NB below 1 (5, 6), RSRC or CSRC outside the grid (7, 8), LLD
 *         below the local rows (9); the submatrix must lie inside its
 *         matrix (ia, ja, iz, jz: -5, -6, -10, -11). Nothing is written
 *         then. A positive ::startrd_status from the solve, explained on
 *         stderr by the process that solved.
 */
int pzheevd_2stage_mgpu(char jobz, char uplo, int n, double _Complex *A, int ia, int ja, const int *desca,
                        double *w, double _Complex *Z, int iz, int jz, const int *descz, int ngpu);

#ifdef __cplusplus
}
#endif

#endif
