/**
 * @file codelets_dstedc.h
 * @brief Task insertion for the real divide and conquer's codelets
 *        (tridiag_dstedc.h): a merge's products, the moves and rotations of
 *        its vectors, the secular equations' vectors.  The single precision
 *        (codelets_sstedc.h) serves the s and c eigensolvers.
 *
 * @precisions normal d -> s
 */
#ifndef STARTRD_CODELETS_DSTEDC_H
#define STARTRD_CODELETS_DSTEDC_H

#include "codelets.h"
#include "merge_moves.h"

/* One divide-and-conquer merge's product (LAPACK's DLAED3), for a block
 * of columns: the geometry, and where it starts in the task's buffers. */
typedef struct startrd_dmerge_gemm {
    int64_t m, n1;           /* the merge's rows, the left subproblem's n1 of them */
    int64_t n12, n23;        /* the packed vectors of each half (Q2: n1 x n12, then (m-n1) x n23) */
    int64_t k, s_bottom;     /* S's rows (its leading dimension), the row the bottom half starts from */
    int64_t cols;            /* columns of the block */
    int64_t q2_offset, s_offset, q_offset;   /* element offsets in the Q2, S and Q buffers */
} startrd_dmerge_gemm_t;

/* Q's block of columns := [Q2top S(0:n12, :); Q2bot S(s_bottom:s_bottom+n23, :)]
 * (codelet_dmerge_gemm.c).  Q2, S and Q are read from g's offsets in
 * their buffers; Q's leading dimension is its handle's.  With @p shared, Q is
 * an array whose other columns stay (mode RW); otherwise the block's own
 * handle, only written.  @p where (STARPU_CPU, STARPU_CUDA) restricts the
 * kinds of workers; @p worker, unless -1, is the one worker that runs the
 * task. */
int startrd_task_dmerge_gemm(unsigned long long where, int worker, const startrd_dmerge_gemm_t *g, int shared,
                             starpu_data_handle_t Q2, starpu_data_handle_t S, starpu_data_handle_t Q);

/* The moves (a vector of startrd_move_t), whose destinations do not
 * overlap, from src into dst; src and dst are matrices read from their
 * first element, the moves' offsets counted with leading dimensions
 * @p src_ld and @p dst_ld (the host's, where a copy elsewhere is packed:
 * merge_moves.h).  With @p clear, dst is zeroed first.  With @p clear or
 * @p write_only, dst is only written (mode W: the moves cover all of it
 * that is read later); otherwise what the moves leave keeps its values.
 * @p longest is the longest move's length (codelet_dcopy_moves.c). */
int startrd_task_dcopy_moves(int worker, int clear, int write_only, int64_t longest, int64_t src_ld, int64_t dst_ld,
                             starpu_data_handle_t moves, starpu_data_handle_t src, starpu_data_handle_t dst);

/* Columns 0..k-1 of S from element s_offset on (leading dimension k): the
 * eigenvectors of a merge's rank-one update from its k > 2 entries
 * (startrd_dsecular_entry_t) from entry @p first on, rows in S's order,
 * with DLAED3's weights recomputed from the roots in @p weights (scratch,
 * at least k doubles).  With @p write_only, the rest of S is left
 * undefined (mode W) (codelet_dsecular_vectors.c). */
int startrd_task_dsecular_vectors(int worker, int write_only, int64_t k, int64_t first, int64_t s_offset,
                                  starpu_data_handle_t entries, starpu_data_handle_t weights, starpu_data_handle_t S);

/* Rows row0..row0+rows-1 of Q, columns col0 + the rotations' p and c:
 * the rotations (a vector of startrd_drotation_t) applied in order
 * (codelet_drot_columns.c). */
int startrd_task_drot_columns(int worker, int64_t row0, int64_t rows, int64_t col0, starpu_data_handle_t rotations,
                              starpu_data_handle_t Q);

#endif
