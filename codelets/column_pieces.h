/* Stage-1 tasks take a list of block-column handles.  Where consecutive
 * block columns lie side by side in memory (same leading dimension, each
 * starting nb rows and nb columns after the previous one) they form one
 * trapezoid, and a task updates it piece by piece with a few large BLAS
 * calls instead of a few small ones per block column: on a GPU the small
 * calls run far below the device's rate.  The descriptor lays block columns
 * out this way on the host and on each GPU (descriptor.c).  Pieces know
 * their elements' size from the handles, not their type: every precision
 * cuts them the same way. */
#ifndef STARTRD_COLUMN_PIECES_H
#define STARTRD_COLUMN_PIECES_H

#include <stdint.h>
#include <stdlib.h>

#include "codelets.h"
#include "kernels_stage1.h"
#include "starpu_include.h"

/* Widest piece: its diagonal block goes to one HEMM or HER2K call, the rows
 * below it to GEMMs.  Wider GEMMs run faster but move flops to the diagonal
 * calls; in stage 1, 1024 columns beat 512 and 2048 was no better
 * (docs/experiments.md, "Block columns, not tiles" and "Figures moved
 * from the code"). */
#define STARTRD_PIECE_COLS 1024

/* Whether block column buffer @p j continues buffer j - 1: it starts nb
 * rows and nb columns after it, with the same leading dimension and width. */
static inline int startrd_continues(void *buffers[], int j)
{
    int64_t nb = STARPU_MATRIX_GET_NY(buffers[j - 1]), ld = STARPU_MATRIX_GET_LD(buffers[j - 1]);
    uintptr_t step = (uintptr_t)((ld + 1) * nb) * STARPU_MATRIX_GET_ELEMSIZE(buffers[j - 1]);

    return STARPU_MATRIX_GET_PTR(buffers[j]) == STARPU_MATRIX_GET_PTR(buffers[j - 1]) + step &&
           (int64_t)STARPU_MATRIX_GET_LD(buffers[j]) == ld && (int64_t)STARPU_MATRIX_GET_NY(buffers[j]) == nb;
}

/* The piece that starts at buffer @p i of a task whose first @p nws (1 or
 * 2) buffers are workspaces and whose block columns are buffers nws..end-1;
 * returns the index of the buffer after it. */
static inline int startrd_next_piece(void *buffers[], int nws, int i, int end, startrd_piece_t *p)
{
    int64_t nb = STARPU_MATRIX_GET_NY(buffers[i]);
    int64_t row;
    int j = i + 1;

    p->m = (int)STARPU_MATRIX_GET_NX(buffers[i]);
    p->ld = (int)STARPU_MATRIX_GET_LD(buffers[i]);
    p->c = (void *)STARPU_MATRIX_GET_PTR(buffers[i]);
    while (j < end && (j - i + 1) * nb <= STARTRD_PIECE_COLS && startrd_continues(buffers, j))
        j++;
    p->w = (int)((j - i) * nb);
    p->below = p->m - p->w;
    /* Workspaces are indexed by absolute row; the piece ends at their last. */
    row = (int64_t)STARPU_MATRIX_GET_NX(buffers[0]) - p->m;
    p->nv = (int)STARPU_MATRIX_GET_NY(buffers[0]);
    for (int k = 0; k < nws; k++) {
        p->ldws[k] = (int)STARPU_MATRIX_GET_LD(buffers[k]);
        p->ws[k] = (char *)STARPU_MATRIX_GET_PTR(buffers[k]) + (size_t)row * STARPU_MATRIX_GET_ELEMSIZE(buffers[k]);
    }
    return j;
}

/* Block columns that keep both triangles (STARTRD_DESC_FULL_COLUMNS) have
 * no diagonal block to treat apart: a piece is a run of them side by side in
 * memory (each nb columns after the previous one, same leading dimension)
 * that are also consecutive in the matrix (jcol[] gives the block column of
 * each buffer from @p first), seen from absolute row @p row0 down. */
typedef struct startrd_full_piece {
    int m;               /* rows from row0 to the last */
    int w;               /* columns */
    int ld;
    void *c;             /* the piece's element (row0, first column), of the task's precision */
    int64_t j0;          /* block column of its first column */
} startrd_full_piece_t;

/* The full piece that starts at buffer @p i; returns the buffer after it. */
static inline int startrd_next_full_piece(void *buffers[], int first, int i, int end, const int64_t *jcol,
                                          int64_t row0, startrd_full_piece_t *p)
{
    int64_t nb = STARPU_MATRIX_GET_NY(buffers[i]), ld = STARPU_MATRIX_GET_LD(buffers[i]);
    size_t elemsize = STARPU_MATRIX_GET_ELEMSIZE(buffers[i]);
    uintptr_t next = STARPU_MATRIX_GET_PTR(buffers[i]);
    int j = i;

    p->m = (int)((int64_t)STARPU_MATRIX_GET_NX(buffers[i]) - row0);
    p->ld = (int)ld;
    p->c = (char *)STARPU_MATRIX_GET_PTR(buffers[i]) + (size_t)row0 * elemsize;
    p->j0 = jcol[i - first];
    do {
        next += (uintptr_t)(ld * nb) * elemsize;
        j++;
    } while (j < end && STARPU_MATRIX_GET_PTR(buffers[j]) == next && jcol[j - first] == jcol[j - first - 1] + 1 &&
             (int64_t)STARPU_MATRIX_GET_LD(buffers[j]) == ld && (int64_t)STARPU_MATRIX_GET_NY(buffers[j]) == nb);
    p->w = (int)((j - i) * nb);
    return j;
}

/* The arguments of a task over full block columns: the first row of the
 * trailing matrix (first, for startrd_row0_footprint(): full block columns
 * all have one size), where its output starts (if it has one), and the block
 * column of each buffer.  NULL when out of memory; StarPU frees it. */
typedef struct startrd_full_args {
    int64_t row0, xrow;
    int ncolumns;
    int64_t jcol[];
} startrd_full_args_t;

static inline startrd_full_args_t *startrd_full_args(int64_t row0, int64_t xrow, int ncolumns,
                                                     const int64_t *jcol, size_t *size)
{
    startrd_full_args_t *a;

    *size = sizeof *a + (size_t)ncolumns * sizeof *jcol;
    a = malloc(*size);
    if (a == NULL)
        return NULL;
    a->row0 = row0;
    a->xrow = xrow;
    a->ncolumns = ncolumns;
    for (int i = 0; i < ncolumns; i++)
        a->jcol[i] = jcol[i];
    return a;
}

/* The buffers of a task that takes pieces: the @p nws workspaces, then the
 * block columns, all in mode @p column_mode.  NULL when out of memory; the
 * caller frees it once the task is inserted. */
static inline struct starpu_data_descr *startrd_pieces_descr(int nws, const struct starpu_data_descr *ws,
                                                             int ncolumns, const starpu_data_handle_t *columns,
                                                             enum starpu_data_access_mode column_mode)
{
    struct starpu_data_descr *descr = malloc((size_t)(ncolumns + nws) * sizeof *descr);

    if (descr == NULL)
        return NULL;
    for (int k = 0; k < nws; k++)
        descr[k] = ws[k];
    for (int i = 0; i < ncolumns; i++)
        descr[nws + i] = (struct starpu_data_descr){columns[i], column_mode};
    return descr;
}

/* Insert a task of @p codelet over full block columns: the @p nws
 * workspaces, then the columns in @p column_mode, with startrd_full_args. */
static inline int startrd_insert_full_columns_task(struct starpu_codelet *codelet, int nws,
                                                   const struct starpu_data_descr *ws, int64_t row0, int64_t xrow,
                                                   int ncolumns, const starpu_data_handle_t *columns,
                                                   const int64_t *jcol, enum starpu_data_access_mode column_mode,
                                                   startrd_place_t place, double flops)
{
    size_t size;
    startrd_full_args_t *args = startrd_full_args(row0, xrow, ncolumns, jcol, &size);
    struct starpu_data_descr *descr = startrd_pieces_descr(nws, ws, ncolumns, columns, column_mode);
    int ret;

    if (args == NULL || descr == NULL) {
        free(args);
        free(descr);
        return -ENOMEM;
    }
    ret = starpu_task_insert(codelet,
                             STARPU_CL_ARGS, args, size,
                             STARPU_DATA_MODE_ARRAY, descr, ncolumns + nws,
                             STARTRD_PLACE_ARGS(place),
                             STARPU_FLOPS, flops,
                             0);
    free(descr);
    return ret;
}

#endif
