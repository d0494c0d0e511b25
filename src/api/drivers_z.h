/* The drivers' shared entry points, on arrays in host memory or in the
 * memory of one GPU: @p a_devid (z_devid, ...) is the CUDA device that
 * holds the array, -1 for host memory (user_memory.h).  Each returns
 * STARTRD_HOST_ONLY (error.h), before writing anything, where an array in
 * GPU memory cannot be worked on where it is; the public _gpu functions
 * then bring it to the host.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_DRIVERS_Z_H
#define STARTRD_DRIVERS_Z_H

#include <complex.h>
#include <stdint.h>

#include "starpu_include.h"

/** zhetrd_2stage_mgpu_64(), messages naming @p routine.  With @p hous2_on_gpu
 *  not NULL, a chase on one GPU leaves HOUS2 there, in the handle with no
 *  home that *hous2_on_gpu gets, and not in @p hous2 (which the chase
 *  elsewhere fills, *hous2_on_gpu NULL then): the caller's
 *  back-transformation reads it there, and the caller unregisters it
 *  before the context closes. */
int startrd_zhetrd(const char *routine, char vect, char uplo, int64_t n, double _Complex *A, int64_t lda,
                   int a_devid, double *d, double *e, double _Complex *tau, double _Complex *hous2, int64_t lhous2,
                   starpu_data_handle_t *hous2_on_gpu, double _Complex *work, int64_t lwork, int64_t ngpu);

/** zheevd_2stage_mgpu_64(), messages naming @p routine. */
int startrd_zheevd(const char *routine, char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda,
                   int a_devid, double *w, int64_t ngpu);

/** zheevr_2stage_mgpu_64(), messages naming @p routine. */
int startrd_zheevr(const char *routine, char jobz, char range, char uplo, int64_t n, double _Complex *A,
                   int64_t lda, int a_devid, double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                   double _Complex *Z, int64_t ldz, int z_devid, int64_t ngpu);

/** startrd_zheevd() on A wherever it is, in host memory or in one GPU's,
 *  brought to the host where the work cannot run where it is. */
int startrd_zheevd_gpu(const char *routine, char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda,
                       double *w, int64_t ngpu);

/** startrd_zheevr() on A and Z wherever they are, as startrd_zheevd_gpu(). */
int startrd_zheevr_gpu(const char *routine, char jobz, char range, char uplo, int64_t n, double _Complex *A,
                       int64_t lda, double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                       double _Complex *Z, int64_t ldz, int64_t ngpu);

#endif
