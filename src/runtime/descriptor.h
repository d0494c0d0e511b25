/* Tile descriptors: a column-major matrix in main memory whose tiles are
 * registered as StarPU matrix handles, with the 1-D block-column cyclic map
 * that says which CUDA worker owns (and alone writes) each block column.
 * The descriptors serve every precision: they know their elements' size,
 * not their type. */
#ifndef STARTRD_DESCRIPTOR_H
#define STARTRD_DESCRIPTOR_H

#include <stddef.h>
#include <stdint.h>

#include "device_memory.h"
#include "starpu_include.h"

/**
 * Registers a StarPU matrix handle (ld, nx, ny each below 2^32) with its
 * allocation size computed in 64 bits.  StarPU 1.4's
 * starpu_matrix_data_register() multiplies nx by ny in 32 bits, so from
 * 2^32 entries (Q1's reflectors above n = 65536) it allocated replicas too
 * short, and the copy into them failed.
 */
void startrd_matrix_register(starpu_data_handle_t *handle, int home_node, uintptr_t ptr, int64_t ld, int64_t nx,
                             int64_t ny, size_t elemsize);

/** The largest order the library takes: StarPU describes a matrix's rows
 *  and columns in 32 bits, and up to this order n^2 and the sizes derived
 *  from it fit int64_t. */
#define STARTRD_ORDER_MAX INT32_MAX

/** Whether @p count elements fit StarPU's 32-bit handle sizes. */
static inline int startrd_fits_handle(int64_t count)
{
    return count >= 0 && (uint64_t)count <= UINT32_MAX;
}

/** Most columns in one group of block columns allocated by the descriptor,
 *  but for the last group on a GPU (descriptor.c): a group is stored from
 *  its first column's diagonal row down, with one leading dimension, so
 *  that its block columns form one trapezoid for the tasks' calls
 *  (codelets/column_pieces.h), while the groups together hold little more
 *  than the triangle. */
#define STARTRD_DESC_GROUP_COLS 1024

typedef enum startrd_desc_layout {
    /** mt x nt tiles of mb x nb (the last row/column of tiles may be smaller). */
    STARTRD_DESC_TILES,
    /** One handle per block column j: rows j*nb .. m-1, i.e. its diagonal tile
     *  and everything below it.  Stage 1 updates whole block columns of the
     *  lower triangle, so one contiguous buffer per column lets a single
     *  tall GEMM do what nb x nb tiles would need hundreds of calls for. */
    STARTRD_DESC_LOWER_COLUMNS,
    /** One handle per block column j holding all its rows 0 .. m-1: both
     *  triangles of a Hermitian matrix, for the stage-1 scheme that forms
     *  block rows of A*V with plain GEMMs and updates both triangles. */
    STARTRD_DESC_FULL_COLUMNS
} startrd_desc_layout_t;

typedef struct startrd_desc {
    void *mat;                /* home copy: column-major with leading dimension ld, or for block
                                 columns allocated here, in groups (descriptor.c) */
    size_t mat_bytes;         /* its size */
    size_t eltsize;           /* bytes per element */
    int64_t ld;
    int64_t m, n;             /* matrix size */
    int64_t mb, nb;           /* tile size */
    int64_t mt, nt;           /* tile rows and columns */
    int64_t dist_nb;          /* columns per distribution block, a multiple of nb */
    startrd_desc_layout_t layout;
    int nowners;              /* 0: tasks may run anywhere */
    int owner_worker[STARPU_NMAXWORKERS];
    starpu_data_handle_t *handles;
    int owns_mat;             /* mat was allocated here */
    /* Block columns (either layout) with GPU owners and room on them: each
     * owner's block columns live on its GPU only, in groups of consecutive
     * block columns side by side (STARTRD_DESC_GROUP_COLS), and mat is NULL
     * (see descriptor.c).  0 where some or all live in a host copy. */
    int gpu_home;
    /* Where the GPUs hold only the last block columns: the first
     * host_columns live in a host copy (mat) and visit the GPUs in tasks
     * that take at most host_task_bytes of them; else 0. */
    int64_t host_columns;
    size_t host_task_bytes;
    int64_t group_tail;       /* the last columns that stay one group: 0 in host copies */
    startrd_device_memory_t gpu_mem[STARPU_NMAXWORKERS];
    int workspace;            /* tiles with no home (startrd_desc_init_workspace) */
} startrd_desc_t;

/**
 * Describe an m x n matrix of @p eltsize-byte elements stored at @p mat (or, if @p mat is NULL, in
 * uninitialised memory allocated here: for block columns owned by GPUs,
 * on those GPUs as far as they have room for them and the first ones in a
 * host buffer; for tiles, a host buffer with leading dimension @p ld;
 * host buffers pinned unless they hold block columns without GPU owners)
 * and register its tiles under @p name.
 * Block column j belongs to owner_worker[(j*nb / dist_nb) % nowners]; with
 * nowners = 0 no tile has an owner.  @return 0, or a positive startrd_status.
 */
int startrd_desc_init(startrd_desc_t *A, const char *name, startrd_desc_layout_t layout, size_t eltsize,
                      void *mat, int64_t ld, int64_t m, int64_t n,
                      int64_t mb, int64_t nb, int64_t dist_nb,
                      int nowners, const int *owner_worker);

/**
 * Describe an m x n matrix of @p eltsize-byte tiles of mb x nb that has no
 * memory of its own: each tile is a workspace (startrd_workspace_register())
 * that StarPU allocates where it is first written, so that a matrix that
 * only tasks on the GPUs touch never takes room in host memory.
 * @return 0, or a positive startrd_status.
 */
int startrd_desc_init_workspace(startrd_desc_t *A, const char *name, size_t eltsize, int64_t m, int64_t n,
                                int64_t mb, int64_t nb);

/** Unregister every tile and free what init allocated; tiles of a caller's
 *  @p mat are brought back to it first, memory allocated here is discarded. */
void startrd_desc_finish(startrd_desc_t *A);

/** Tile (i, j) of a STARTRD_DESC_TILES descriptor. */
starpu_data_handle_t startrd_desc_tile(const startrd_desc_t *A, int64_t i, int64_t j);

/** Block column j of a block-column descriptor. */
starpu_data_handle_t startrd_desc_column(const startrd_desc_t *A, int64_t j);

/** Row of the matrix where block column j's handle starts: j*nb for
 *  STARTRD_DESC_LOWER_COLUMNS, 0 for STARTRD_DESC_FULL_COLUMNS. */
static inline int64_t startrd_desc_column_row0(const startrd_desc_t *A, int64_t j)
{
    return A->layout == STARTRD_DESC_FULL_COLUMNS ? 0 : j * A->nb;
}

/** Index in owner_worker[] of the owner of block column j (nowners > 0). */
int startrd_desc_owner_index(const startrd_desc_t *A, int64_t j);

/** Worker that owns block column j, or -1 when tasks on it may run anywhere. */
int startrd_desc_owner(const startrd_desc_t *A, int64_t j);

/** Register a rows x cols scratch matrix of @p eltsize-byte elements with no
 *  home copy: StarPU allocates it on whichever memory node first writes it. */
void startrd_workspace_register(starpu_data_handle_t *h, const char *name, size_t eltsize, int64_t rows,
                                int64_t cols);

/** A rows x cols scratch matrix (as above) whose home is memory node @p node, allocated
 *  there now, so that its address is known before any task runs (for tasks
 *  of another GPU that read it in place).  Returns that address, or 0 when
 *  the node lacks the room (nothing registered). */
uintptr_t startrd_workspace_register_on(starpu_data_handle_t *h, const char *name, size_t eltsize, int64_t rows,
                                        int64_t cols, unsigned node);

/** Unregister, discarding its contents, and free a workspace of
 *  startrd_workspace_register_on() at @p ptr. */
void startrd_workspace_unregister_on(starpu_data_handle_t h, unsigned node, uintptr_t ptr);

/** Rows of tile row i (the last one may be short). */
static inline int64_t startrd_desc_tile_rows(const startrd_desc_t *A, int64_t i)
{
    return (i + 1) * A->mb <= A->m ? A->mb : A->m - i * A->mb;
}

/** Columns of tile column j (the last one may be narrow). */
static inline int64_t startrd_desc_tile_cols(const startrd_desc_t *A, int64_t j)
{
    return (j + 1) * A->nb <= A->n ? A->nb : A->n - j * A->nb;
}

#endif
