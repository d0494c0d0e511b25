/* The generalized Hermitian-definite problem's tile algorithms: B's
 * Cholesky factorisation, the reduction of A to the standard problem and
 * the eigenvectors' back-substitution, as StarPU tasks on square tiles,
 * and the tiles' copies from and to the caller's arrays.  The tiles are
 * workspaces (startrd_desc_init_workspace()) that live where the tasks
 * run.  Each function inserts tasks; startrd_tile_run_wait() (tile_run.h)
 * waits.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_ZHEGST_TILES_H
#define STARTRD_ZHEGST_TILES_H

#include "codelets_z.h"
#include "descriptor.h"
#include "tile_run.h"

#include <stdint.h>

/** T's tiles := the host matrix @p src (leading dimension @p lds): all of
 *  them (@p part 'A') or those of triangle 'L' or 'U', each on the owner
 *  of its block column (@p by_column) or, for a triangle, of the factor's
 *  column (startrd_zpotrf_tiles()).  With @p src_devid >= 0, src is in
 *  that GPU's memory. */
void startrd_ztiles_upload(startrd_tile_run_t *run, char part, int by_column, const double complex *src,
                           int64_t lds, int src_devid, const startrd_desc_t *T);

/** Sets *@p nonfinite where the tiles startrd_ztiles_upload() fills with
 *  the same @p part and @p by_column hold NaN or Inf in that part, each
 *  checked where it was filled. */
void startrd_ztiles_finite(startrd_tile_run_t *run, char part, int by_column, const startrd_desc_t *T,
                           atomic_int *nonfinite);

/** The host matrix @p dst := T's tiles: all of them (@p part 'A'), or the
 *  triangle 'L' or 'U', the rest of dst untouched; each read where its
 *  last task left it (@p last_by_row: the owner of its block row, else of
 *  its block column, for a triangle the factor's column).  With
 *  @p dst_devid >= 0, dst is in that GPU's memory. */
void startrd_ztiles_download(startrd_tile_run_t *run, char part, int last_by_row, const startrd_desc_t *T,
                             double complex *dst, int64_t ldd, int dst_devid);

/** B (square tiles) := its Cholesky factor in triangle @p uplo: B = U^H U
 *  or L L^H; a leading minor that is not positive definite records its
 *  order in *failed, which must outlive the run. */
void startrd_zpotrf_tiles(startrd_tile_run_t *run, char uplo, const startrd_desc_t *B, startrd_minor_t *failed);

/** W, which holds A's triangle @p uplo (as startrd_ztiles_upload() leaves
 *  it), := C, the standard problem's matrix, in the same triangle:
 *  U^-H A U^-1 (itype 1) or U A U^H (itype 2 and 3), with L^-1 A L^-H and
 *  L^H A L for uplo 'L', B holding the factor in the same triangle.  W's
 *  other tiles are its workspace; its triangle's tiles are last written
 *  by their block row's owner. */
void startrd_zhegst_tiles(startrd_tile_run_t *run, int itype, char uplo, const startrd_desc_t *W,
                          const startrd_desc_t *B);

/** Y (n x m, tiles as B's) := the eigenvectors of the generalized problem
 *  from those of the standard one: U^-1 Y (itype 1 and 2) or U^H Y
 *  (itype 3), L^-H Y and L Y for uplo 'L'. */
void startrd_zhegv_vectors_tiles(startrd_tile_run_t *run, int itype, char uplo, const startrd_desc_t *B,
                                 const startrd_desc_t *Y);

#endif
