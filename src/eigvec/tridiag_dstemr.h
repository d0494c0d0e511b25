/* Selected eigenpairs of a real symmetric tridiagonal matrix as LAPACK's
 * ZHEEVR computes them: MRRR (DSTEMR), and bisection and inverse iteration
 * where MRRR fails.
 *
 * @precisions normal d -> s
 */
#ifndef STARTRD_TRIDIAG_DSTEMR_H
#define STARTRD_TRIDIAG_DSTEMR_H

#include <lapacke.h>
#include <stdint.h>

/**
 * LAPACK's DSTEMR with JOBZ = 'V' and TRYRAC = true, its arguments and
 * results (@p range 'A', 'V' or 'I'; the pairs in (vl, vu] or il..iu; m,
 * w, the n x m eigenvectors Z, isuppz; @p nzc the room of Z in columns).
 * Where DSTEMR fails (INFO 22 where DLARRF finds no representation for a
 * tight cluster: glued Wilkinson matrices), it falls back, as LAPACK's
 * ZHEEVR does, to bisection and inverse iteration (DSTEBZ, DSTEIN), whose
 * supports it reports whole.  d and e are destroyed.  @return 0, the
 * failing step's INFO (DSTEBZ's or DSTEIN's after DSTEMR's failure), or
 * LAPACK_WORK_MEMORY_ERROR.
 */
lapack_int startrd_dstemr(char range, int64_t n, double *d, double *e, double vl, double vu, int64_t il,
                          int64_t iu, int64_t *m, double *w, double *Z, int64_t ldz, int64_t nzc,
                          lapack_int *isuppz);

#endif
