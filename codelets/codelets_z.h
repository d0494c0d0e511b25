/**
 * @file codelets_z.h
 * @brief Task insertion for the codelets of one precision: the stage-1
 *        operations, the bulge chase and the back-transformation.  What all
 *        precisions share (places, signals) is in codelets.h, the divide and
 *        conquer's real tasks in codelets_dstedc.h.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_CODELETS_Z_H
#define STARTRD_CODELETS_Z_H

#include <complex.h>
#include <stdatomic.h>

#include "codelets.h"

/** C = alpha * op(A) * op(B) + beta * C on whole handles; op is 'N', 'T' or 'C'. */
int startrd_task_zgemm(startrd_place_t place, char transa, char transb,
                       double complex alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                       double complex beta, starpu_data_handle_t C);

/** B += A on whole handles. */
int startrd_task_zgeadd(startrd_place_t place, starpu_data_handle_t A, starpu_data_handle_t B);

/**
 * QR of the panel below the diagonal tile of a stage-1 block column, in place
 * (the diagonal tile starts at row @p crow of the column's handle); writes
 * the explicit reflectors to V from absolute row @p vrow (zeros above), the
 * compact WY factor to T, and the scalar factors to the vector @p tau (as
 * many as it holds).  With @p P (or NULL), the previous step's [W V W], the
 * task first updates the block column as startrd_task_zher2k_columns()
 * would; the diagonal tile must then start the handle (@p crow = 0).  With
 * @p mirrors (or NULL; on a GPU only) it then copies V and T there and
 * posts their signals.
 */
int startrd_task_zpanel_qr(startrd_place_t place, starpu_data_handle_t column, int64_t crow, int64_t vrow,
                           starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t tau,
                           starpu_data_handle_t P, const startrd_panel_mirrors_t *mirrors);

/**
 * Y += (the given block columns' share of A22 * V), A22 Hermitian in lower
 * storage; V and Y are full-height and a column of height m starts at row
 * height(V) - m.  With @p zero_y set the task first zeroes all of Y (or,
 * when it also forms P, writes Y from A22's first row down).  With
 * @p form (or NULL) the task then forms P from Y, V and @p form's handles
 * as startrd_task_zform_wvw() does: for the task that computes all of Y,
 * or, with form->peer, for each of two GPUs' tasks of the step (on a GPU
 * only).  With @p after.signal (or NULL; on a GPU only) the task's products
 * wait for that signal: V is then a copy that the panel task wrote and
 * posted behind the runtime's back (startrd_panel_mirrors_t).
 */
int startrd_task_zhemm_columns(startrd_place_t place, starpu_data_handle_t V, starpu_data_handle_t Y,
                               int zero_y, int ncolumns, const starpu_data_handle_t *columns,
                               const startrd_wvw_handles_t *form, startrd_step_signal_t after);

/**
 * P = [W V W] for startrd_task_zher2k_columns(), rows @p row0 and below, with
 * W = Y T - 1/2 V T^H V^H Y T: Y and V are N x nb, T is nb x nb, P is
 * N x 3nb, and @p ZM an nb x 2nb scratch handle.  With @p Y2 (or NULL), a
 * second partial product, Y + Y2 stands for Y.  Where the previous step's
 * update was @p deferred, Y is corrected for it and the pair (N x 6nb)
 * receives both steps' operands (kernels_stage1.h).
 */
int startrd_task_zform_wvw(startrd_place_t place, int64_t row0, starpu_data_handle_t Y, starpu_data_handle_t Y2,
                           starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t ZM,
                           starpu_data_handle_t P, startrd_deferred_update_t deferred);

/**
 * Each block column C -= W * V[C]^H + V * W[C]^H, in the lower triangle of
 * its diagonal tile and below, with P = [W V W] (startrd_task_zform_wvw()),
 * or with two steps' pair [W0 W V0 V W0 W] the updates of both.  With
 * @p narrow, on a GPU, the products leave the multiprocessors kept for a
 * panel factored beside them free (startrd_cuda_fork_narrow()).
 */
int startrd_task_zher2k_columns(startrd_place_t place, starpu_data_handle_t P,
                                int ncolumns, const starpu_data_handle_t *columns, int narrow);

/**
 * For block columns that keep both triangles (full height, from row 0):
 * X[xrow ..] = (rows row0.. of the columns)^H * V[row0 ..], the block rows of
 * A22 * V of those columns, stacked in the order given; jcol[i] is the block
 * column of columns[i].
 */
int startrd_task_zhemm_rows(startrd_place_t place, starpu_data_handle_t V, starpu_data_handle_t X, int64_t xrow,
                            int64_t row0, int ncolumns, const starpu_data_handle_t *columns, const int64_t *jcol);

/** Y = zero above row @p row0, and each segment's rows of sources[segment.source]. */
int startrd_task_zgather_rows(startrd_place_t place, starpu_data_handle_t Y, int64_t row0, int nsources,
                              const starpu_data_handle_t *sources, int nsegments, const startrd_row_segment_t *seg);

/**
 * Each block column that keeps both triangles: rows row0.. of C -= W * V[C]^H
 * + V * W[C]^H, with P = [W V W] (startrd_task_zform_wvw()); jcol[i] is the
 * block column of columns[i].
 */
int startrd_task_zher2k_full_columns(startrd_place_t place, starpu_data_handle_t P, int64_t row0,
                                     int ncolumns, const starpu_data_handle_t *columns, const int64_t *jcol);

/**
 * Copy block column starting at column @p col0 between the caller's n x n
 * matrix (@p uplo triangle, leading dimension @p lda) and a column handle,
 * lower storage or, with @p both, both triangles from row 0: into the
 * handle (the handle may be taller than the column: the rows below are
 * zeroed; with @p both the rows above get the other triangle), setting
 * @p nonfinite (if not NULL) when it reads a NaN or Inf; or back to the
 * caller with @p to_user, which does nothing once @p nonfinite (if not
 * NULL) is set; on a CPU worker either way, which reaches a column whose
 * home is a GPU in place, through its pinned buffers (cuda_upload.h), and
 * moves the column's handle nowhere.  Both read the token
 * @p scanned, which startrd_task_copied_in() writes between the copies in
 * and the copies out.  A copy back also writes the band entries it writes
 * to A into @p band (NULL: none), as startrd_kernel_zband_from_dense()
 * would copy them, and zeroes the rest of the band's columns it owns, so
 * that the copies back leave stage 2's band complete.  With @p user_devid
 * >= 0 the caller's matrix is in that GPU's memory, and the column must be
 * on a GPU: the copies go between the GPUs, with kernels in place of the
 * host's loops (startrd_cuda_zcolumn_from_user()).
 */
typedef struct startrd_zband_out {
    double complex *ab;
    int64_t kd, ldab;   /* ldab >= 2 kd + 1 */
} startrd_zband_out_t;

int startrd_task_zcopy_column(startrd_place_t place, int to_user, char uplo, int64_t n,
                              double complex *a, int64_t lda, int user_devid, int64_t col0, int both,
                              starpu_data_handle_t column, atomic_int *nonfinite,
                              starpu_data_handle_t scanned, const startrd_zband_out_t *band);

/** B = the leading rows and columns of A, as many as both have. */
int startrd_task_zlacpy(startrd_place_t place, starpu_data_handle_t A, starpu_data_handle_t B);

/** The bulge chase as the ranks of startrd_task_zhb2st_sweeps() share it. */
typedef struct startrd_zhb2st_schedule {
    const startrd_bulge_plan_t *plan;
    char uplo;
    double complex *AB, *hous;   /* the band and the reflectors, shared by the ranks */
    int64_t ldab;
    int64_t G;                   /* sweeps per group */
    int64_t nsweeps, ngroups;
    double nkernels;             /* over all sweeps: the ranks' flop estimate */
    const int64_t *nwindows;     /* per group: windows of 2G skewed kernel positions */
    startrd_progress_t *done;    /* per group */
    double complex *work;        /* kd per rank */
} startrd_zhb2st_schedule_t;

/**
 * The whole bulge chase of @p plan on CUDA worker @p worker
 * (codelet_zhb2st_chase.c): band AB (ldab = 2kd+1, read), d and e
 * (written), scratch vectors work (ldab n entries) and progress
 * (startrd_zhb2st_chase_scratch_ints() int), and the reflectors to HOUS
 * when @p hous is not NULL.
 */
int startrd_task_zhb2st_chase(int worker, const startrd_bulge_plan_t *plan, char uplo, starpu_data_handle_t AB,
                              starpu_data_handle_t d, starpu_data_handle_t e, starpu_data_handle_t work,
                              starpu_data_handle_t progress, starpu_data_handle_t hous);

/** Integers of the progress scratch of startrd_task_zhb2st_chase(). */
int64_t startrd_zhb2st_chase_scratch_ints(const startrd_bulge_plan_t *plan);

/** A bulge chase split over several GPUs (codelet_zhb2st_chase_split.c). */
typedef struct startrd_zhb2st_split {
    int ngpu;                                         /**< 2 .. STARTRD_CHASE_MAX_GPUS */
    int workers[STARTRD_CHASE_MAX_GPUS];             /**< each GPU's CUDA worker */
    int devices[STARTRD_CHASE_MAX_GPUS];             /**< its CUDA device */
    void *work[STARTRD_CHASE_MAX_GPUS];              /**< its working band (ldab n entries) then the
                                                           reflectors handed to it (nsweeps (kd+1)), in
                                                           its memory */
    int *progress[STARTRD_CHASE_MAX_GPUS];           /**< its nsweeps counters, in its memory */
    starpu_data_handle_t work_handle[STARTRD_CHASE_MAX_GPUS], progress_handle[STARTRD_CHASE_MAX_GPUS];
} startrd_zhb2st_split_t;

/** On every GPU of @p split: its working band from AB (read), its counters
 *  zeroed, and access to the other GPUs' memory.  All tasks or none. */
int startrd_task_zhb2st_split_prepare(const startrd_zhb2st_split_t *split, const startrd_bulge_plan_t *plan,
                                      char uplo, starpu_data_handle_t AB);

/** On every GPU of @p split, once all have prepared, its share of every
 *  sweep: the tasks wait for one another, so all run at once.  GPU 0's
 *  writes d and e.  All tasks or none. */
int startrd_task_zhb2st_split_chase(const startrd_zhb2st_split_t *split, const startrd_bulge_plan_t *plan,
                                    starpu_data_handle_t d, starpu_data_handle_t e);

/**
 * Rank @p rank of @p nranks of the bulge chase (codelet_zhb2st_sweeps.c), on
 * CPU worker @p worker.  The ranks wait for one another, so all of them must
 * be able to run at the same time: one per CPU worker.
 */
int startrd_task_zhb2st_sweeps(int worker, const startrd_zhb2st_schedule_t *sched, int rank, int nranks);

/*
 * The back-transformation's tasks: Q = Q1 Q2 applied to blocks of vectors,
 * or formed and multiplied into the real eigenvectors of the tridiagonal.
 */

/* The back-transformation of a block of columns C: by the bulge-chasing
 * reflectors of HOUS2 (codelet_zapply_q2.c), by the stage-1 reflectors of
 * the (n-kd) x (n-kd) matrix V and its factors tau, on rows kd.. of C
 * (codelet_zunmqr_q1.c); V comes as @p npieces handles of its columns, in
 * order, each of all of V's rows.  trans is 'N' or 'C'; @p where (STARPU_CPU,
 * STARPU_CUDA) keeps the wide blocks given to GPUs off single CPU cores;
 * @p worker, unless -1, is the one worker that runs the task.  On GPUs
 * Q1's blocks take their triangular factors from @p factors, a vector of
 * startrd_zunmqr_q1_factor_entries() entries that
 * startrd_task_zunmqr_q1_factors() fills (NULL, and -EINVAL, only with
 * @p where STARPU_CPU). */
int startrd_task_zapply_q2(const startrd_bulge_plan_t *plan, char trans, starpu_data_handle_t hous,
                           starpu_data_handle_t C);

int startrd_task_zunmqr_q1(unsigned long long where, int worker, char trans, int64_t kd, int64_t npieces,
                           const starpu_data_handle_t *V, starpu_data_handle_t tau, starpu_data_handle_t factors,
                           starpu_data_handle_t C);

/* Entries of Q1's factors on GPUs for V's @p npieces pieces. */
int64_t startrd_zunmqr_q1_factor_entries(int64_t npieces, const starpu_data_handle_t *V);

/* @p factors := the triangular factors of Q1's blocks on GPUs, on a CUDA
 * worker (@p worker unless -1); -ENODEV without CUDA. */
int startrd_task_zunmqr_q1_factors(int worker, int64_t npieces, const starpu_data_handle_t *V,
                                   starpu_data_handle_t tau, starpu_data_handle_t factors);

/* @p dst's buffer on memory node @p node, a GPU's or main memory, := the
 * host array @p src: a vector's entries, or a matrix's columns read with
 * leading dimension @p lds; copied by a CPU worker (@p worker, unless -1),
 * through its pinned buffers to a GPU, or by DMA where src is pinned
 * (codelet_zupload.c).  With @p src_devid >= 0, src is a matrix in that
 * GPU's memory, copied from there.  -EINVAL for another kind of node. */
int startrd_task_zupload(int node, int worker, const double complex *src, int64_t lds, int src_devid,
                         starpu_data_handle_t dst);

/* The host array @p dst (leading dimension @p ldd) := @p src's buffer on
 * memory node @p node (a GPU's, or main memory): all of it (part 'A') or
 * its triangle 'L' or 'U', the rest of dst untouched; copied by a CPU
 * worker (codelet_zdownload.c).  With @p dst_devid >= 0, dst is in that
 * GPU's memory.  -EINVAL for another kind of node. */
int startrd_task_zdownload(int node, starpu_data_handle_t src, char part, double complex *dst, int64_t ldd,
                           int dst_devid);

/* LAPACK's xHETD2 on the n x n matrix B (triangle @p uplo) on @p worker's
 * GPU: B's triangle := the tridiagonal matrix and the reflectors, and the
 * vectors d (n), e and tau (n-1) := xHETRD's outputs; W (n x n, leading
 * dimension n) and scratch (startrd_cuda_hetd2_fused_scratch_bytes()) are
 * scratch handles (codelet_zhetd2_fused.c). */
int startrd_task_zhetd2_fused(int worker, char uplo, starpu_data_handle_t B, starpu_data_handle_t W,
                              starpu_data_handle_t d, starpu_data_handle_t e, starpu_data_handle_t tau,
                              starpu_data_handle_t scratch);

/* The host array @p dst := entries @p offset .. @p offset + @p count - 1
 * of the vector @p src's buffer on memory node @p node (a GPU's, or main
 * memory), copied by a CPU worker as startrd_task_zdownload() copies.
 * -EINVAL for another kind of node or a negative range. */
int startrd_task_zdownload_range(int node, starpu_data_handle_t src, int64_t offset, int64_t count,
                                 double complex *dst);

/* The blocked Q2 (q2_blocks.h): C := Q2 C or Q2^H C, the groups built
 * chunk by chunk from HOUS2 and the table qb->table
 * (startrd_q2_table_entries() int64_t) in @p table, into @p scratch, a handle with no home
 * of startrd_q2_scratch_entries() entries of the scalar type
 * (codelet_zapply_q2_blocks.c).  When C is the block of the identity from
 * its column @p identity_col0 (-1 if C is not one; trans 'N' only), each
 * group skips the columns it leaves as they are
 * (startrd_q2_member_first_column()), and the groups that leave all of
 * them are not built.  qb must outlive the
 * task; @p where and @p worker as for startrd_task_zunmqr_q1(). */
int startrd_task_zapply_q2_blocks(unsigned long long where, int worker, const startrd_q2_blocks_t *qb, char trans,
                                  int64_t identity_col0, starpu_data_handle_t hous, starpu_data_handle_t table,
                                  starpu_data_handle_t scratch, starpu_data_handle_t C);

/* A (m x cols) := columns row0..row0+cols-1 of the m x m identity, the
 * block that Q = Q1 Q2 is formed in (codelet_zlaset.c).  @p where and
 * @p worker as for startrd_task_zunmqr_q1(). */
int startrd_task_zlaset_identity(unsigned long long where, int worker, int64_t row0, starpu_data_handle_t A);

/* R := Q Z, Q in @p nq column blocks that follow each other (n x n in
 * all), Z real (n x cols), R (n x cols) of Q's type; R is only written
 * (codelet_zgemm_real.c).  In the complex precisions a leading dimension
 * doubled must fit an int.  @p where and @p worker as for
 * startrd_task_zunmqr_q1(). */
int startrd_task_zgemm_real(unsigned long long where, int worker, int64_t nq, const starpu_data_handle_t *Q,
                            starpu_data_handle_t Z, starpu_data_handle_t R);

/* The square tile A := its Cholesky factor in triangle @p uplo ('L' or
 * 'U'; the other one is not touched); a tile that is not positive definite
 * records row0 plus the order of its failing minor in *failed, which must
 * outlive the task (codelet_zpotrf_tile.c). */
int startrd_task_zpotrf(startrd_place_t place, char uplo, int64_t row0, starpu_data_handle_t A,
                        startrd_minor_t *failed);

/* B := alpha op(T)^-1 B (side 'L') or alpha B op(T)^-1 (side 'R'), T triangular
 * in @p uplo with a non-unit diagonal, op 'N' or 'C' (codelet_ztile_blas3.c). */
int startrd_task_ztrsm(startrd_place_t place, char side, char uplo, char trans, double complex alpha,
                       starpu_data_handle_t T, starpu_data_handle_t B);

/* The same with op(T) itself in place of its inverse: BLAS's TRMM. */
int startrd_task_ztrmm(startrd_place_t place, char side, char uplo, char trans, double complex alpha,
                       starpu_data_handle_t T, starpu_data_handle_t B);

/* C's triangle @p uplo := alpha op(A) op(A)^H + beta C, op 'N' or 'C':
 * BLAS's HERK (codelet_ztile_blas3.c). */
int startrd_task_zherk(startrd_place_t place, char uplo, char trans, double alpha, starpu_data_handle_t A,
                       double beta, starpu_data_handle_t C);

/* Sets *@p nonfinite when tile A holds NaN or Inf: all of it (@p part
 * 'A') or its triangle 'L' or 'U' (codelet_ztile_finite.c). */
int startrd_task_ztile_finite(startrd_place_t place, char part, starpu_data_handle_t A, atomic_int *nonfinite);

/* B := A converted as @p how says (tile_conversion.h; codelet_ztile_convert.c);
 * A == B converts in place, which STARTRD_TILE_FROM_LOWER and _UPPER allow. */
int startrd_task_ztile_convert(startrd_place_t place, startrd_tile_conversion_t how, starpu_data_handle_t A,
                               starpu_data_handle_t B);

#endif
