/* The BLACS and ScaLAPACK routines the distributed entry points call, as
 * ScaLAPACK's C interface and Fortran symbols define them: ScaLAPACK
 * installs no C header of its own. */
#ifndef STARTRD_BLACS_H
#define STARTRD_BLACS_H

#include <complex.h>

/* Entries of a ScaLAPACK array descriptor (0-based here). */
enum { DESC_DTYPE, DESC_CTXT, DESC_M, DESC_N, DESC_MB, DESC_NB, DESC_RSRC, DESC_CSRC, DESC_LLD, DESC_LEN };

void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow, int *mycol);
void Cigebs2d(int context, const char *scope, const char *top, int m, int n, int *a, int lda);
void Cigebr2d(int context, const char *scope, const char *top, int m, int n, int *a, int lda, int rsrc, int csrc);
void Cdgebs2d(int context, const char *scope, const char *top, int m, int n, double *a, int lda);
void Cdgebr2d(int context, const char *scope, const char *top, int m, int n, double *a, int lda, int rsrc,
              int csrc);
void Cigamn2d(int context, const char *scope, const char *top, int m, int n, int *a, int lda, int *ra, int *ca,
              int ldia, int rdest, int cdest);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);
void pzgemr2d_(const int *m, const int *n, const double _Complex *a, const int *ia, const int *ja, const int *desca,
               double _Complex *b, const int *ib, const int *jb, const int *descb, const int *context);

#endif
