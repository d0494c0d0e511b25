#include "descriptor.h"
#include "error.h"
#include "startrd.h"

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

static void register_tile(const startrd_desc_t *A, starpu_data_handle_t *h, const char *name,
                          int64_t row0, int64_t col0, int64_t rows, int64_t cols, int64_t ti, int64_t tj)
{
    double complex *ptr = A->mat + (size_t)col0 * (size_t)A->ld + (size_t)row0;

    starpu_matrix_data_register(h, STARPU_MAIN_RAM, (uintptr_t)ptr, (uint32_t)A->ld,
                                (uint32_t)rows, (uint32_t)cols, sizeof(double complex));
    starpu_data_set_coordinates(*h, 2, (int)ti, (int)tj);
    starpu_data_set_name(*h, name);
}

/* On a GPU, StarPU would give each block column a buffer of its own, and
 * a task over several block columns would then need a few small BLAS calls
 * per column.  Instead each GPU owner gets one allocation in which its block
 * columns lie side by side, as in the host copy: column j at local index l
 * starts at row j*nb of local column l*nb, leading dimension m.  Block
 * columns that are neighbours in the matrix are then neighbours in memory,
 * and tasks update them with a few large calls (column_pieces.h).  If the
 * GPU is short of memory StarPU allocates per column as usual. */
static void place_columns_on_gpus(startrd_desc_t *A)
{
    for (int p = 0; p < A->nowners; p++) {
        unsigned node = starpu_worker_get_memory_node((unsigned)A->owner_worker[p]);
        int64_t owned = 0, l = 0;

        if (starpu_node_get_kind(node) != STARPU_CUDA_RAM)
            continue;
        for (int64_t j = 0; j < A->nt; j++)
            owned += startrd_desc_owner_index(A, j) == p;
        if (owned == 0)
            continue;
        A->gpu_bytes[p] = (size_t)A->m * (size_t)(owned * A->nb) * sizeof(double complex);
        A->gpu_mat[p] = starpu_malloc_on_node(node, A->gpu_bytes[p]);
        if (A->gpu_mat[p] == 0) {
            A->gpu_bytes[p] = 0;
            continue;
        }
        for (int64_t j = 0; j < A->nt; j++) {
            if (startrd_desc_owner_index(A, j) != p)
                continue;
            uintptr_t ptr = A->gpu_mat[p] + ((size_t)(l++ * A->nb) * (size_t)A->m + (size_t)(j * A->nb)) *
                                                sizeof(double complex);
            starpu_matrix_ptr_register(A->handles[j], node, ptr, ptr, 0, (uint32_t)A->m);
        }
    }
}

int startrd_desc_init(startrd_desc_t *A, const char *name, startrd_desc_layout_t layout,
                      double complex *mat, int64_t ld, int64_t m, int64_t n,
                      int64_t mb, int64_t nb, int64_t dist_nb,
                      int nowners, const int *owner_worker)
{
    memset(A, 0, sizeof *A);
    /* StarPU's matrix interface stores ld, rows and columns as uint32_t. */
    if (m < 0 || n < 0 || mb < 1 || nb < 1 || ld < (m > 1 ? m : 1) || ld > UINT32_MAX ||
        dist_nb < nb || dist_nb % nb != 0 || nowners < 0 || nowners > STARPU_NMAXWORKERS ||
        (layout == STARTRD_DESC_LOWER_COLUMNS && mb != nb)) {
        startrd_error("invalid descriptor %s: m=%lld n=%lld ld=%lld tiles %lldx%lld dist %lld",
                      name, (long long)m, (long long)n, (long long)ld, (long long)mb,
                      (long long)nb, (long long)dist_nb);
        return STARTRD_ERR_STATE;
    }
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

    A->mat = mat;
    if (mat == NULL && ld * n > 0) {
        size_t bytes = (size_t)ld * (size_t)n * sizeof(double complex);

        /* Pinned when CUDA workers exist, so host<->GPU copies run
         * asynchronously at full speed.  Not cleared: at n = 32768 that is
         * 16 GiB of single-threaded writes, half of them to a triangle no
         * handle covers; the tasks that fill the tiles clear what they need. */
        if (starpu_malloc_flags((void **)&A->mat, bytes, STARPU_MALLOC_PINNED) != 0) {
            startrd_error("cannot allocate %zu bytes of pinned memory for %s", bytes, name);
            return STARTRD_ERR_MEMORY;
        }
        A->owns_mat = 1;
    }

    A->handles = calloc((size_t)(handle_count(A) > 0 ? handle_count(A) : 1), sizeof *A->handles);
    if (A->handles == NULL) {
        startrd_desc_finish(A);
        startrd_error("cannot allocate the handles of %s", name);
        return STARTRD_ERR_MEMORY;
    }
    for (int64_t j = 0; j < A->nt; j++) {
        int64_t cols = startrd_desc_tile_cols(A, j);

        if (layout == STARTRD_DESC_LOWER_COLUMNS) {
            if (j * nb < m)
                register_tile(A, &A->handles[j], name, j * nb, j * nb, m - j * nb, cols, j, j);
            continue;
        }
        for (int64_t i = 0; i < A->mt; i++)
            register_tile(A, &A->handles[j * A->mt + i], name, i * mb, j * nb,
                          startrd_desc_tile_rows(A, i), cols, i, j);
    }
    if (layout == STARTRD_DESC_LOWER_COLUMNS && A->nt * nb == m)
        place_columns_on_gpus(A);
    return 0;
}

void startrd_desc_finish(startrd_desc_t *A)
{
    if (A->handles != NULL) {
        for (int64_t k = 0; k < handle_count(A); k++)
            if (A->handles[k] != NULL)
                starpu_data_unregister(A->handles[k]);
        free(A->handles);
    }
    for (int p = 0; p < A->nowners; p++)
        if (A->gpu_mat[p] != 0)
            starpu_free_on_node(starpu_worker_get_memory_node((unsigned)A->owner_worker[p]), A->gpu_mat[p],
                                A->gpu_bytes[p]);
    if (A->owns_mat)
        starpu_free_flags(A->mat, (size_t)A->ld * (size_t)A->n * sizeof(double complex),
                          STARPU_MALLOC_PINNED);
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

void startrd_workspace_register(starpu_data_handle_t *h, const char *name, int64_t rows, int64_t cols)
{
    starpu_matrix_data_register(h, -1, 0, (uint32_t)rows, (uint32_t)rows, (uint32_t)cols,
                                sizeof(double complex));
    starpu_data_set_name(*h, name);
}
