/* LAPACK's DLAED2, the deflation of one divide-and-conquer merge, cut in
 * two: the decisions, O(n) plus a rotation of two columns of Q for each
 * pair of close eigenvalues, on one thread; and the O(n^2) moves of Q's
 * columns, one column at a time, so that many threads share them.  Where
 * Q is held by a worker, the rotations and the moves are listed for it.
 *
 * @precisions normal d -> s
 */
#ifndef STARTRD_TRIDIAG_DLAED2_H
#define STARTRD_TRIDIAG_DLAED2_H

#include <stdint.h>

#include "merge_moves.h"

/** What the moves of one merge need. */
typedef struct startrd_dlaed2 {
    int64_t n, n1, ldq;
    const int *indx;   /**< the columns of Q in their new order, 1-based (DLAED2's INDX) */
    int ctot[4];       /**< columns of each type (DLAED2's COLTYP on exit) */
    int k;             /**< eigenvalues not deflated */
    int all;           /**< every one deflated at once: Q's columns only reordered */
    int64_t nrot;      /**< rotations listed, where Q was not given */
} startrd_dlaed2_t;

/**
 * DLAED2's arguments and results, with the same meaning, except that Q2
 * is not written, the moves being left to startrd_dlaed2_gather_moves()
 * and startrd_dlaed2_return_move(), and that the counts of each column
 * type are in @p plan, not in COLTYP (which DLAED2 overwrites with them,
 * four entries even where n < 4).  Where @p q is NULL, the rotations of Q's
 * columns are listed in @p rotations (room for n) instead, columns counted
 * from the merge's first, and ldq is only the leading dimension the moves
 * count with.  Returns DLAED2's INFO.
 */
int startrd_dlaed2_plan(int n, int n1, double *d, double *q, int ldq, int *indxq, double *rho, double *z,
                        double *dlamda, double *w, int *indx, int *indxc, int *indxp, int *coltyp,
                        startrd_drotation_t *rotations, startrd_dlaed2_t *plan);

/**
 * The moves of column i, 0 <= i < n, into Q2 as DLAED2 packs it: element
 * offsets from the merge's first element of Q and from Q2's first.
 * Returns how many (at most 2).
 */
int startrd_dlaed2_gather_moves(const startrd_dlaed2_t *plan, int64_t i, startrd_move_t moves[2]);

/** Columns that go back from Q2 to Q once every gather is done. */
int64_t startrd_dlaed2_returns(const startrd_dlaed2_t *plan);

/** The return of column j, 0 <= j < startrd_dlaed2_returns(): from Q2 to Q. */
startrd_move_t startrd_dlaed2_return_move(const startrd_dlaed2_t *plan, int64_t j);

/** Column i's gather done on the host, Q and Q2 at the merge's first element. */
void startrd_dlaed2_gather(const startrd_dlaed2_t *plan, const double *q, double *q2, int64_t i);

/** Column j's return done on the host. */
void startrd_dlaed2_return(const startrd_dlaed2_t *plan, double *q, const double *q2, int64_t j);

#endif
