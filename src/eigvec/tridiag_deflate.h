/* LAPACK's DLAED2, the deflation of one divide-and-conquer merge, cut in
 * two: the decisions, O(n) plus a rotation of two columns of Q for each
 * pair of close eigenvalues, on one thread; and the O(n^2) moves of Q's
 * columns, one column at a time, so that many threads share them. */
#ifndef STARTRD_TRIDIAG_DEFLATE_H
#define STARTRD_TRIDIAG_DEFLATE_H

#include <stdint.h>

/** What the moves of one merge need. */
typedef struct startrd_deflation {
    int64_t n, n1, ldq;
    const int *indx;   /**< the columns of Q in their new order, 1-based (DLAED2's INDX) */
    int ctot[4];       /**< columns of each type (DLAED2's COLTYP on exit) */
    int k;             /**< eigenvalues not deflated */
    int all;           /**< every one deflated at once: Q's columns only reordered */
} startrd_deflation_t;

/**
 * DLAED2's arguments and results, with the same meaning, except that Q2
 * is not written, the moves being left to startrd_deflation_gather() and
 * startrd_deflation_return(), and that the counts of each column type are
 * in @p plan, not in COLTYP (which DLAED2 overwrites with them, four
 * entries even where n < 4).  Returns DLAED2's INFO.
 */
int startrd_deflation_plan(int n, int n1, double *d, double *q, int ldq, int *indxq, double *rho, double *z,
                           double *dlamda, double *w, int *indx, int *indxc, int *indxp, int *coltyp,
                           startrd_deflation_t *plan);

/** Columns the gather moves (n): column i, 0 <= i < n, into Q2 as DLAED2 packs it. */
void startrd_deflation_gather(const startrd_deflation_t *plan, const double *q, double *q2, int64_t i);

/** Columns that go back from Q2 to Q once every gather is done. */
int64_t startrd_deflation_returns(const startrd_deflation_t *plan);

/** The return of column j, 0 <= j < startrd_deflation_returns(). */
void startrd_deflation_return(const startrd_deflation_t *plan, double *q, const double *q2, int64_t j);

#endif
