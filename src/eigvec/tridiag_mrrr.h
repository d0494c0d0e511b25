/* Selected eigenpairs of a real symmetric tridiagonal matrix by MRRR, as
 * LAPACK's DSTEMR computes them, with the eigenvectors over the host's
 * threads, and LAPACK's ZHEEVR's fallback where MRRR fails. */
#ifndef STARTRD_TRIDIAG_MRRR_H
#define STARTRD_TRIDIAG_MRRR_H

#include <lapacke.h>
#include <stdint.h>

/**
 * LAPACK's DSTEMR with JOBZ = 'V' and TRYRAC = true, its arguments and
 * results (@p range 'A', 'V' or 'I'; the pairs in (vl, vu] or il..iu; m,
 * w, the n x m eigenvectors Z, isuppz), but its step that computes the
 * vectors, DLARRV, split by index ranges over the caller's OpenMP threads.
 * Each range is one DLARRV call with its DOL..DOU on the representation
 * tree DLARRE built once, ScaLAPACK's way of spreading MRRR, into columns
 * of its own; so are the refinements of DLARRJ.  With fewer than 8
 * threads, or 512 pairs, one DLARRV computes them all, as in DSTEMR.
 * @p nzc is the room of Z in columns.  For n < 3 it calls DSTEMR itself.
 * Where MRRR fails (DSTEMR's INFO 22 where DLARRF finds no representation
 * for a tight cluster: glued Wilkinson matrices), it falls back, as LAPACK's
 * ZHEEVR does, to bisection and inverse iteration (DSTEBZ, DSTEIN), whose
 * supports it reports whole.  d and e are destroyed.  @return 0, the
 * failing step's INFO (DSTEBZ's or DSTEIN's after MRRR's failure), or
 * LAPACK_WORK_MEMORY_ERROR.
 */
lapack_int startrd_tridiag_mrrr(char range, int64_t n, double *d, double *e, double vl, double vu, int64_t il,
                                int64_t iu, int64_t *m, double *w, double *Z, int64_t ldz, int64_t nzc,
                                lapack_int *isuppz);

#endif
