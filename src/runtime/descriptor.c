#include "descriptor.h"

#include "device_memory.h"
#include "error.h"
#include "startrd.h"
#include "tuning.h"

#include <stdlib.h>
#include <string.h>

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static int64_t handle_count(const startrd_desc_t *A)
{
    return A->layout == STARTRD_DESC_TILES ? A->mt * A->nt : A->nt;
}

static int pinned(const startrd_desc_t *A)
{
    return A->layout == STARTRD_DESC_TILES || A->nowners > 0;
}

static void register_tile(const startrd_desc_t *A, starpu_data_handle_t *h, const char *name,
                          int64_t row0, int64_t col0, int64_t rows, int64_t cols, int64_t ti, int64_t tj)
{
    char *ptr = (char *)A->mat + ((size_t)col0 * (size_t)A->ld + (size_t)row0) * A->eltsize;

    startrd_matrix_register(h, STARPU_MAIN_RAM, (uintptr_t)ptr, A->ld, rows, cols, A->eltsize);
    starpu_data_set_coordinates(*h, 2, (int)ti, (int)tj);
    starpu_data_set_name(*h, name);
}

/* Room each GPU keeps beside its block columns for the stage-1 workspaces
 * StarPU allocates there, in block columns' worth (m x nb): V, W and the
 * partial products, double buffered, with copies of the other GPUs'
 * partial products; the update's [W V W], double buffered, and the pair of
 * two steps' operands (six); scratch (with the four columns the copies
 * out's staging buffers took before those copies went through CPU workers'
 * pinned buffers, kept as headroom), and the panel factorisation's
 * workspace. */
static size_t workspace_margin(const startrd_desc_t *A)
{
    size_t column = (size_t)A->m * (size_t)A->nb * A->eltsize;

    return (size_t)(26 + 4 * A->nowners) * column + ((size_t)512 << 20);
}

/* Whether every owner GPU has room for the least a task there holds at
 * once: a few block columns with V, W, T and a partial product beside them
 * (eight columns' worth), beside cuBLAS's own buffers.  Below that no task
 * could start and the reduction would wait without end; above it StarPU
 * evicts what the tasks no longer need.  Says which GPU cannot. */
static int gpus_hold_working_set(const startrd_desc_t *A, const char *name)
{
    size_t least = 8 * (size_t)A->m * (size_t)A->nb * A->eltsize;

    for (int p = 0; p < A->nowners; p++) {
        unsigned node = starpu_worker_get_memory_node((unsigned)A->owner_worker[p]);

        if (!startrd_device_memory_holds(node, least)) {
            startrd_error("%s: GPU %d has %zu MiB for this call (StarPU's limit less what others hold); "
                          "the reduction needs %zu", name, starpu_memory_node_get_devid(node),
                          (size_t)startrd_device_memory_room(node) >> 20, (least >> 20) + 32);
            return 0;
        }
    }
    return 1;
}

static void free_gpu_columns(startrd_desc_t *A)
{
    for (int p = 0; p < A->nowners; p++)
        startrd_device_memory_free(starpu_worker_get_memory_node((unsigned)A->owner_worker[p]), &A->gpu_mem[p]);
}

/* Whether block column j starts a group: the first, the first on the GPUs
 * after the host copy's, the first of a distribution block where several
 * GPUs own columns (the owner's previous block column is not its
 * neighbour in the matrix), or the first after a multiple of
 * STARTRD_DESC_GROUP_COLS columns, except within the last group_tail
 * columns, which stay one group. */
static int starts_group(const startrd_desc_t *A, int64_t j)
{
    int64_t col = j * A->nb;

    return j == 0 || j == A->host_columns || (A->nowners > 1 && col % A->dist_nb == 0) ||
           (col % STARTRD_DESC_GROUP_COLS == 0 && A->m - col >= A->group_tail);
}

static int64_t group_first(const startrd_desc_t *A, int64_t j)
{
    while (!starts_group(A, j))
        j--;
    return j;
}

/* A group's leading dimension: the height of its first block column. */
static int64_t group_ld(const startrd_desc_t *A, int64_t j)
{
    return A->m - startrd_desc_column_row0(A, group_first(A, j));
}

/* Bytes of the groups of owner @p p's block columns j0 .. j1-1 (p < 0: of
 * all of them, for a host copy), with each of those block columns' offset
 * from the start of that allocation in @p offset.  A group's leading
 * dimension is the height of its first block column; j0 starts a group. */
static size_t group_bytes(const startrd_desc_t *A, int p, int64_t j0, int64_t j1, size_t *offset)
{
    size_t bytes = 0, first = 0;

    for (int64_t j = j0; j < j1; j++) {
        int64_t g;
        size_t ld;

        if (p >= 0 && startrd_desc_owner_index(A, j) != p)
            continue;
        g = group_first(A, j);
        ld = (size_t)(A->m - startrd_desc_column_row0(A, g));
        if (g == j)
            first = bytes;
        offset[j] = first + ((size_t)((j - g) * A->nb) * ld +
                             (size_t)(startrd_desc_column_row0(A, j) - startrd_desc_column_row0(A, g))) *
                                A->eltsize;
        bytes += ld * (size_t)A->nb * A->eltsize;
    }
    return bytes;
}

static void register_column(startrd_desc_t *A, int64_t j, const char *name, int node, uintptr_t ptr)
{
    startrd_matrix_register(&A->handles[j], node, ptr, group_ld(A, j), A->m - startrd_desc_column_row0(A, j), A->nb,
                            A->eltsize);
    starpu_data_set_coordinates(A->handles[j], 2, (int)j, (int)j);
    starpu_data_set_name(A->handles[j], name);
}

/* Block columns 0 .. j1-1 in a host copy allocated here, in the groups the
 * GPUs use: about the triangle's memory for the lower layout.  Pinned when
 * CUDA workers own them, so that host<->GPU copies run asynchronously at
 * full speed; block columns without GPU owners stay on the CPU workers, and
 * pinning them would only cost time (docs/experiments.md, "Figures moved
 * from the code").  Not cleared: single-threaded writes of gigabytes; the
 * tasks that fill the columns write all of them.  0 or
 * STARTRD_ERR_MEMORY. */
static int host_copy(startrd_desc_t *A, const char *name, int64_t j1, size_t *offset)
{
    A->mat_bytes = group_bytes(A, -1, 0, j1, offset);
    if (A->mat_bytes > 0 && starpu_malloc_flags(&A->mat, A->mat_bytes, pinned(A) ? STARPU_MALLOC_PINNED : 0) != 0) {
        startrd_error("cannot allocate %zu bytes of host memory for %s", A->mat_bytes, name);
        A->mat_bytes = 0;
        return STARTRD_ERR_MEMORY;
    }
    A->owns_mat = A->mat_bytes > 0;
    for (int64_t j = 0; j < j1; j++)
        register_column(A, j, name, STARPU_MAIN_RAM, (uintptr_t)A->mat + offset[j]);
    return 0;
}

/* Whether every owner GPU takes its block columns from @p j0 on, in
 * groups, beside the workspaces and, with j0 > 0, @p visit bytes for the
 * host copy's columns to visit; their sizes in @p bytes.  The trailing
 * matrices that one ZHEMM takes (codelet_zhemm_columns.c) must be one
 * trapezoid, so the last columns stay one group; not beside visitors,
 * where the GPUs had better hold more of the triangle. */
static int gpus_take_columns_from(startrd_desc_t *A, int64_t j0, size_t visit, size_t *bytes, size_t *offset)
{
    A->host_columns = j0;
    A->group_tail = j0 > 0 ? 0 : startrd_tuning()->whole_hemm_max_rows;
    for (int p = 0; p < A->nowners; p++) {
        unsigned node = starpu_worker_get_memory_node((unsigned)A->owner_worker[p]);
        starpu_ssize_t room = startrd_device_memory_room(node),
                       available = room < 0 ? -1 : room - (starpu_ssize_t)starpu_memory_get_used(node);

        bytes[p] = group_bytes(A, p, j0, A->nt, offset);
        if (bytes[p] > 0 && room >= 0 &&
            (available < 0 || (size_t)available < bytes[p] + workspace_margin(A) + (j0 > 0 ? visit : 0)))
            return 0;
    }
    return 1;
}

/* Block columns whose home is their owner GPU: no host copy of the matrix
 * at all.  A host copy of an n x n matrix, pinned or pageable, costs more
 * than the whole reduction on the GPUs (docs/architecture.md, "The matrix
 * lives on the GPUs"; docs/experiments.md, "Figures moved from the code"),
 * while the copy tasks move the caller's triangle straight to the GPUs.
 * Each owner's block columns lie in one allocation as groups of
 * consecutive block columns, each group with the leading dimension of its
 * first block column's height: within a group, column j starts nb rows and
 * nb columns after column j - 1, so that neighbouring block columns form
 * pieces that tasks update with a few large calls (column_pieces.h), and
 * the lower layout takes about half of the square's memory.
 * Where they do not all fit, the fewest leading block columns (whole
 * groups) go to a pinned host copy, from which they visit the GPUs, and the
 * rest stay on the GPUs for good: stage 1 reads the whole trailing matrix
 * at every step, so only what does not fit should cross the link
 * (docs/architecture.md, "The block columns in groups").
 * Returns 0 when some GPU lacks the room for even the last group (StarPU's
 * limit included), and the caller then puts every block column in a host
 * copy, which StarPU can evict to; else 1, or a negative status when the
 * host copy cannot be allocated. */
static int home_columns_on_gpus(startrd_desc_t *A, const char *name)
{
    size_t bytes[STARPU_NMAXWORKERS], visit = SIZE_MAX, *offset;
    int64_t step = STARTRD_DESC_GROUP_COLS / A->nb > 0 ? STARTRD_DESC_GROUP_COLS / A->nb : 1, j0 = 0;

    if (A->nowners == 0 || A->nt * A->nb != A->m)
        return 0;
    if ((offset = calloc((size_t)A->nt, sizeof *offset)) == NULL)
        return 0;
    /* The host copy's columns visit in tasks of at most half of this
     * (startrd_desc_t's host_task_bytes).  Every step moves all of them,
     * whatever the room they have, unless it holds them all: StarPU evicts
     * the least recently used, and the steps walk the columns in the same
     * order.  So they get little room, and the GPUs keep the more. */
    for (int p = 0; p < A->nowners; p++) {
        unsigned node = starpu_worker_get_memory_node((unsigned)A->owner_worker[p]);
        starpu_ssize_t room = startrd_device_memory_room(node);

        if (starpu_node_get_kind(node) != STARPU_CUDA_RAM)
            goto fail;
        if (room >= 0 && (size_t)room / 8 < visit)
            visit = (size_t)room / 8;
    }
    while (j0 < A->nt && !gpus_take_columns_from(A, j0, visit, bytes, offset))
        j0 = (j0 / step + 1) * step;
    if (j0 >= A->nt)
        goto fail;
    for (int p = 0; p < A->nowners; p++)
        if (bytes[p] > 0 &&
            startrd_device_memory_alloc(starpu_worker_get_memory_node((unsigned)A->owner_worker[p]), bytes[p],
                                        &A->gpu_mem[p]) != 0)
            goto fail;
    for (int64_t j = j0; j < A->nt; j++) {
        int p = startrd_desc_owner_index(A, j);

        register_column(A, j, name, (int)starpu_worker_get_memory_node((unsigned)A->owner_worker[p]),
                        A->gpu_mem[p].ptr + offset[j]);
    }
    A->gpu_home = j0 == 0;
    A->host_task_bytes = j0 > 0 ? visit / 2 : 0;
    if (j0 > 0 && host_copy(A, name, j0, offset) != 0) {
        free(offset);
        return -STARTRD_ERR_MEMORY;
    }
    free(offset);
    return 1;
fail:
    A->group_tail = 0;
    A->host_columns = 0;
    free(offset);
    free_gpu_columns(A);
    return 0;
}

int startrd_desc_init(startrd_desc_t *A, const char *name, startrd_desc_layout_t layout, size_t eltsize,
                      void *mat, int64_t ld, int64_t m, int64_t n,
                      int64_t mb, int64_t nb, int64_t dist_nb,
                      int nowners, const int *owner_worker)
{
    memset(A, 0, sizeof *A);
    /* StarPU's matrix interface stores ld, rows and columns as uint32_t. */
    if (m < 0 || n < 0 || mb < 1 || nb < 1 || ld < (m > 1 ? m : 1) || ld > UINT32_MAX ||
        dist_nb < nb || dist_nb % nb != 0 || nowners < 0 || nowners > STARPU_NMAXWORKERS ||
        (layout != STARTRD_DESC_TILES && mb != nb) || eltsize == 0) {
        startrd_error("invalid descriptor %s: m=%lld n=%lld ld=%lld tiles %lldx%lld dist %lld",
                      name, (long long)m, (long long)n, (long long)ld, (long long)mb,
                      (long long)nb, (long long)dist_nb);
        return STARTRD_ERR_STATE;
    }
    A->eltsize = eltsize;
    A->ld = ld;
    A->m = m;
    A->n = n;
    A->mb = mb;
    A->nb = nb;
    A->mt = ceil_div(m, mb);
    A->nt = ceil_div(n, nb);
    A->dist_nb = dist_nb;
    A->layout = layout;
    A->nowners = nowners;
    if (nowners > 0)
        memcpy(A->owner_worker, owner_worker, (size_t)nowners * sizeof *owner_worker);

    A->handles = calloc((size_t)(handle_count(A) > 0 ? handle_count(A) : 1), sizeof *A->handles);
    if (A->handles == NULL) {
        startrd_error("cannot allocate the handles of %s", name);
        return STARTRD_ERR_MEMORY;
    }
    if (mat == NULL && layout != STARTRD_DESC_TILES) {
        int home = home_columns_on_gpus(A, name);

        if (home != 0) {
            if (home < 0)
                startrd_desc_finish(A);
            return home < 0 ? -home : 0;
        }
    }
    if (!gpus_hold_working_set(A, name)) {
        startrd_desc_finish(A);
        return STARTRD_ERR_MEMORY;
    }

    A->mat = mat;
    A->mat_bytes = (size_t)ld * (size_t)n * eltsize;
    if (mat == NULL && layout != STARTRD_DESC_TILES && A->nt * nb == m && n == m) {
        size_t *offset = calloc((size_t)(A->nt > 0 ? A->nt : 1), sizeof *offset);
        int ret = STARTRD_ERR_MEMORY;

        if (offset == NULL)
            startrd_error("cannot allocate the layout of %s", name);
        else
            ret = host_copy(A, name, A->nt, offset);
        free(offset);
        if (ret != 0)
            startrd_desc_finish(A);
        return ret;
    }
    if (mat == NULL && ld * n > 0) {
        /* Pinned: these tiles may go to a GPU (see host_copy()). */
        if (starpu_malloc_flags((void **)&A->mat, A->mat_bytes, pinned(A) ? STARPU_MALLOC_PINNED : 0) != 0) {
            startrd_desc_finish(A);
            startrd_error("cannot allocate %zu bytes of host memory for %s", A->mat_bytes, name);
            return STARTRD_ERR_MEMORY;
        }
        A->owns_mat = 1;
    }
    for (int64_t j = 0; j < A->nt; j++) {
        int64_t cols = startrd_desc_tile_cols(A, j);

        if (layout != STARTRD_DESC_TILES) {
            int64_t row0 = startrd_desc_column_row0(A, j);

            if (row0 < m)
                register_tile(A, &A->handles[j], name, row0, j * nb, m - row0, cols, j, j);
            continue;
        }
        for (int64_t i = 0; i < A->mt; i++)
            register_tile(A, &A->handles[j * A->mt + i], name, i * mb, j * nb,
                          startrd_desc_tile_rows(A, i), cols, i, j);
    }
    return 0;
}

int startrd_desc_init_workspace(startrd_desc_t *A, const char *name, size_t eltsize, int64_t m, int64_t n,
                                int64_t mb, int64_t nb)
{
    memset(A, 0, sizeof *A);
    if (m < 0 || n < 0 || mb < 1 || nb < 1 || mb > UINT32_MAX || nb > UINT32_MAX || eltsize == 0) {
        startrd_error("invalid descriptor %s: m=%lld n=%lld tiles %lldx%lld", name, (long long)m, (long long)n,
                      (long long)mb, (long long)nb);
        return STARTRD_ERR_STATE;
    }
    *A = (startrd_desc_t){.eltsize = eltsize, .ld = mb, .m = m, .n = n, .mb = mb, .nb = nb,
                          .mt = ceil_div(m, mb), .nt = ceil_div(n, nb), .dist_nb = nb,
                          .layout = STARTRD_DESC_TILES, .workspace = 1};
    A->handles = calloc((size_t)(handle_count(A) > 0 ? handle_count(A) : 1), sizeof *A->handles);
    if (A->handles == NULL) {
        startrd_error("cannot allocate the handles of %s", name);
        return STARTRD_ERR_MEMORY;
    }
    for (int64_t j = 0; j < A->nt; j++)
        for (int64_t i = 0; i < A->mt; i++) {
            starpu_data_handle_t *h = &A->handles[j * A->mt + i];

            startrd_workspace_register(h, name, eltsize, startrd_desc_tile_rows(A, i), startrd_desc_tile_cols(A, j));
            starpu_data_set_coordinates(*h, 2, (int)i, (int)j);
        }
    return 0;
}

void startrd_desc_finish(startrd_desc_t *A)
{
    if (A->handles != NULL) {
        /* Memory allocated here is discarded: nothing to bring home. */
        int discard = A->owns_mat || A->gpu_home || A->workspace;

        for (int64_t k = 0; k < handle_count(A); k++) {
            if (A->handles[k] == NULL)
                continue;
            if (discard)
                starpu_data_unregister_no_coherency(A->handles[k]);
            else
                starpu_data_unregister(A->handles[k]);
        }
        free(A->handles);
    }
    free_gpu_columns(A);
    if (A->owns_mat)
        starpu_free_flags(A->mat, A->mat_bytes, pinned(A) ? STARPU_MALLOC_PINNED : 0);
    memset(A, 0, sizeof *A);
}

starpu_data_handle_t startrd_desc_tile(const startrd_desc_t *A, int64_t i, int64_t j)
{
    return A->handles[j * A->mt + i];
}

starpu_data_handle_t startrd_desc_column(const startrd_desc_t *A, int64_t j)
{
    return A->handles[j];
}

int startrd_desc_owner_index(const startrd_desc_t *A, int64_t j)
{
    return (int)((j * A->nb / A->dist_nb) % A->nowners);
}

int startrd_desc_owner(const startrd_desc_t *A, int64_t j)
{
    return A->nowners == 0 ? -1 : A->owner_worker[startrd_desc_owner_index(A, j)];
}

void startrd_workspace_register(starpu_data_handle_t *h, const char *name, size_t eltsize, int64_t rows,
                                int64_t cols)
{
    startrd_matrix_register(h, -1, 0, rows, rows, cols, eltsize);
    starpu_data_set_name(*h, name);
}

uintptr_t startrd_workspace_register_on(starpu_data_handle_t *h, const char *name, size_t eltsize, int64_t rows,
                                        int64_t cols, unsigned node)
{
    uintptr_t ptr = starpu_malloc_on_node(node, (size_t)rows * (size_t)cols * eltsize);

    if (ptr == 0)
        return 0;
    startrd_matrix_register(h, (int)node, ptr, rows, rows, cols, eltsize);
    starpu_data_set_name(*h, name);
    return ptr;
}

void startrd_workspace_unregister_on(starpu_data_handle_t h, unsigned node, uintptr_t ptr)
{
    size_t bytes = (size_t)starpu_matrix_get_nx(h) * (size_t)starpu_matrix_get_ny(h) *
                   starpu_matrix_get_elemsize(h);

    starpu_data_unregister_no_coherency(h);
    starpu_free_on_node(node, ptr, bytes);
}

void startrd_matrix_register(starpu_data_handle_t *handle, int home_node, uintptr_t ptr, int64_t ld, int64_t nx,
                             int64_t ny, size_t elemsize)
{
    starpu_matrix_data_register_allocsize(handle, home_node, ptr, (uint32_t)ld, (uint32_t)nx, (uint32_t)ny, elemsize,
                                          (size_t)nx * (size_t)ny * elemsize);
}
