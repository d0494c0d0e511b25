/**
 * @file kernels_stage1.h
 * @brief What the kernels of stage 1 that are the library's own, or that
 *        more than one codelet calls, share in every precision: the pieces
 *        they update and the operands of forming P = [W V W].  The kernels
 *        themselves, one set per precision, are in kernels_stage1_z.h.
 */
#ifndef STARTRD_KERNELS_STAGE1_H
#define STARTRD_KERNELS_STAGE1_H

#include <stdint.h>

/* A piece, and the task's full-height workspaces (its first buffers: V and
 * Y for the HEMM, [W V W] for the update) seen from its first row
 * (column_pieces.h cuts a task's block columns into pieces).  The pointers
 * are to elements of the task's precision. */
typedef struct startrd_piece {
    int m;               /* rows: from the piece's diagonal to the last row */
    int w;               /* columns */
    int below;           /* rows under the diagonal block, m - w */
    int ld;
    void *c;             /* the piece's first diagonal element */
    int nv;              /* columns of the first workspace */
    int ldws[2];
    void *ws[2];
} startrd_piece_t;

/* Forming P = [W V W] (codelet_zform_wvw.c) from a task's operands, for
 * the codelets that form it at the end of other work: with a single partial
 * product, the HEMM task forms W itself (codelet_zhemm_columns.c), which
 * saves the runtime's round trip between two tasks on the critical path. */

/* StarPU matrix interfaces of Y, V (N x nb), T (nb x nb), the nb x 2nb
 * scratch ZM and P (N x 3nb); rows from row0 down are formed.  With y2 (or
 * NULL), a second partial product of the same shape, Y + y2 stands for Y:
 * every copy of W that adds the same two reads them in the same order, so
 * all copies hold the same bits.  With prev (or NULL), the previous step's
 * P = [W0 V0 W0], whose update of the trailing matrix was deferred from
 * row and column prev_row0 on: Y was taken from the matrix before that
 * update there, whose rows and columns from prev_row0 down form a
 * Hermitian block, so Y is corrected first,
 *     Y[r:] -= [W0 V0][r:] * ([V0 W0][r:]^H * V[r:]),  r = prev_row0,
 * and then pair (N x 6nb) receives [W0 W V0 V W0 W] from row r down, whose
 * column ranges [W0 W V0 V] and [V0 V W0 W] are the operands of both
 * steps' update there in one GEMM of rank 4nb (codelet_zher2k_columns.c). */
typedef struct startrd_wvw_operands {
    void *y, *y2, *v, *t, *zm, *p, *prev, *pair;
    int64_t row0, prev_row0;
} startrd_wvw_operands_t;

/* Flops of forming P from m rows of nb columns, and of the correction of
 * @p mc of them (0 without a deferred update); complex double's counts, in
 * every precision. */
static inline double startrd_form_wvw_flops(double m, double mc, double nb)
{
    return 8.0 * nb * nb * (3.0 * m + nb) + 32.0 * mc * nb * nb;
}

#endif
