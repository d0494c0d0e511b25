/* Cuppen's divide and conquer as LAPACK's DSTEDC and DLAED0 run it, with
 * deflation taking DLAED2's decisions (tridiag_dlaed2.h), LAPACK's secular
 * equations (DLAED4) and merging of the eigenvalues' order (DLAMRG), so
 * that the eigenvalues and vectors are LAPACK's to rounding.  What changes
 * is where the work runs:
 *  - the leaves, blocks of at most DEFAULT_LEAF rows, by LAPACK's DSTEDC,
 *    one per OpenMP thread;
 *  - each merge level's deflation decisions, secular equations and
 *    rank-one vectors (DLAED3's loops, O(k^2) each) spread over the OpenMP
 *    threads across the level's merges;
 *  - the level's O(n^2) moves of Q's columns and its products, the O(n^3)
 *    of the method.
 * The levels run one after the other; a level's merges side by side.
 *
 * Alone, the host holds Q: it moves Q's columns itself, with StarPU's
 * workers paused, and the products go to the GPUs (the CPU workers without
 * any) by blocks of columns, Q's columns there and back at every level.
 * Beside other tasks on the GPUs (Q formed while this runs), the workers
 * are not paused, which would stop those tasks, and Q stays on one worker
 * (a GPU's second stream) from the leaves to the end: each level the host
 * reads the two rows z comes from, lists the deflation's rotations and
 * moves for that worker, and sends the secular equations' roots, from
 * which the worker recomputes the weights and forms S, so that no level
 * waits on copies of O(n^2) over the bus beside the uploads Q's forming
 * makes, and the host writes no O(n^2) array of its own.
 *
 * @precisions normal d -> s
 */
#include "tridiag_dstedc.h"

#include "codelets_dstedc.h"
#include "context.h"
#include "descriptor.h"
#include "device_memory.h"
#include "error.h"
#include "startrd.h"
#include "tridiag_dlaed2.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK's divide-and-conquer steps, which LAPACKE does not wrap. */
void dlaed4_(const int *n, const int *i, const double *d, const double *z, double *delta, const double *rho,
             double *dlam, int *info);
void dlamrg_(const int *n1, const int *n2, const double *a, const int *dtrd1, const int *dtrd2, int *index);

/* Leaves solved whole by LAPACK's DSTEDC; columns of a product task; rows
 * of a thread's slice in the final permutation. */
enum { DEFAULT_LEAF = 1024, MIN_TASK_COLUMNS = 256, ROWS_PER_PERMUTE = 256 };

struct merge {
    int64_t start, m, n1;   /* rows start..start+m-1 of the block, the left subproblem's n1 of them */
    double rho;
    size_t q2, s;           /* offsets of its Q2 (m^2) and S (k^2) in the level's buffers */
    int64_t first;          /* its first item among the level's (columns, rows) */
    startrd_dlaed2_t deflation;  /* its non-deflated count k, column types and moves */
};

/* Where the vectors stay on one worker: Z (n x n, every unreduced block's
 * Q in its place), Q2 and S (up to n x n, each block's in turn) there. */
struct held {
    int worker;
    int64_t n;
    starpu_data_handle_t z, q2, s;
    starpu_data_handle_t weights;  /* scratch of n: a merge's weights recomputed from its roots */
    starpu_data_handle_t *reads;   /* host arrays the tasks read, until the host next waits for them */
    int64_t nreads, max_reads;
};

/* One unreduced block's workspace: arrays of its order, which each merge
 * uses from its first row on, and the level's Q2 and S (on the host unless
 * the vectors are held). */
struct block {
    int64_t m, ldq, leaf;
    int64_t start;              /* the block's first row in the whole matrix */
    struct held *held;
    double *d, *e, *q;
    double *z, *dlamda, *w, *wsave, *q2, *s;
    int *indxq, *indx, *indxc, *indxp, *coltyp, *item;
    size_t s_size;
    const startrd_dstedc_beside_t *beside;
    atomic_int failed;
    /* Where Q is held: the level's rotations (m), moves (3m), secular
     * entries (m), small merges' DLAED4 vectors (2m) and S (4 per merge,
     * moved by small_moves), the leaves as DSTEDC left them, and the
     * handles of host arrays the level's tasks read (held->reads). */
    startrd_drotation_t *rot;
    startrd_move_t *moves, *small_moves;
    startrd_dsecular_entry_t *entries;
    double *small_s;            /* S of the merges with k <= 2, which the host forms */
    double *small_u;            /* their DLAED4 vectors, two rows apart from the merge's first row */
    double *leaves;
};

/* Whether Q stays on one worker (beside other tasks) or on the host. */
static int q_held(const struct block *b)
{
    return b->held != NULL;
}

/* Element (row, col) of the block's Q in the held Z. */
static int64_t held_at(const struct block *b, int64_t row, int64_t col)
{
    return (b->start + row) + (b->start + col) * b->held->n;
}

/* The host steps pause StarPU's workers, unless tasks run beside them. */
static void host_steps(const startrd_dstedc_beside_t *beside, int on)
{
    if (beside == NULL)
        startrd_context_host_parallel(on);
}

/* Boundaries of the subproblems depth levels down: each halving gives the
 * left part the smaller half, as DLAED0. */
static void halve(int64_t *bounds, int64_t count)
{
    for (int64_t i = count; i > 0; i--) {
        int64_t a = bounds[i - 1], b = bounds[i];

        bounds[2 * i] = b;
        bounds[2 * i - 1] = a + (b - a) / 2;
    }
}

static void failed(struct block *b, const char *step, int info)
{
    if (atomic_exchange(&b->failed, 1) == 0)
        startrd_error("tridiagonal eigenvectors: %s returned %d", step, info);
}

/* DLAED1 up to DLAED3's loops: z, the deflation's decisions (its moves of
 * Q's columns are items of their own), and the copy of w the signs come
 * from. */
static void deflate(struct block *b, struct merge *v)
{
    const int64_t a = v->start, ldq = b->ldq;
    const int held = q_held(b);
    double *q = held ? NULL : b->q + a + a * ldq;
    int info;

    /* Where Q is held elsewhere, z came from there (fetch_z()). */
    if (!held) {
        for (int64_t j = 0; j < v->n1; j++)
            b->z[a + j] = q[(v->n1 - 1) + j * ldq];
        for (int64_t j = v->n1; j < v->m; j++)
            b->z[a + j] = q[v->n1 + j * ldq];
    }
    v->rho = b->e[a + v->n1 - 1];
    info = startrd_dlaed2_plan((int)v->m, (int)v->n1, b->d + a, q, (int)(held ? b->held->n : ldq),
                               b->indxq + a, &v->rho, b->z + a, b->dlamda + a, b->w + a, b->indx + a,
                               b->indxc + a, b->indxp + a, b->coltyp + a, held ? b->rot + a : NULL,
                               &v->deflation);
    if (info != 0) {
        failed(b, "DLAED2's deflation", info);
        v->deflation = (startrd_dlaed2_t){0};
    }
    /* The signs of the recomputed weights, where the host recomputes them. */
    if (!held)
        memcpy(b->wsave + a, b->w + a, (size_t)v->deflation.k * sizeof *b->wsave);
}

/* Eigenvalue j of the rank-one update and its DLAED4 vector, the root's
 * distances from the poles, into @p delta (k elements). */
static void secular(struct block *b, struct merge *v, int j, double *delta)
{
    const int64_t a = v->start;
    int info = 0, j1 = j + 1;

    dlaed4_(&v->deflation.k, &j1, b->dlamda + a, b->w + a, delta, &v->rho, b->d + a + j, &info);
    if (info != 0)
        failed(b, "DLAED4", info);
}

/* DLAED3's recomputed z_i, for orthogonal vectors (Gu and Eisenstat), for
 * the rows of one block of W_ROWS, with DLAED3's order of products: column
 * after column of DLAED4's vectors, each read down the block's rows.  Row
 * after row, each across all the columns ldq apart, took several times
 * longer at the top merge.  @p w holds the block's products. */
enum { W_ROWS = 64 };

static void recompute_w(struct block *b, struct merge *v, int64_t block, double *w)
{
    const int64_t a = v->start, ldq = b->ldq, k = v->deflation.k, i0 = block * W_ROWS;
    const int64_t rows = k - i0 < W_ROWS ? k - i0 : W_ROWS;
    const double *u = b->q + a + a * ldq, *dl = b->dlamda + a;

    for (int64_t r = 0; r < rows; r++)
        w[r] = u[i0 + r + (i0 + r) * ldq];
    for (int64_t j = 0; j < k; j++) {
        const double *col = u + j * ldq;

        for (int64_t r = 0; r < rows; r++)
            if (i0 + r != j)
                w[r] *= col[i0 + r] / (dl[i0 + r] - dl[j]);
    }
    for (int64_t r = 0; r < rows; r++)
        b->w[a + i0 + r] = copysign(sqrt(-w[r]), b->wsave[a + i0 + r]);
}

/* A column of S: the normalized vector of the eigenvalue whose DLAED4
 * vector is @p u, rows in the order of Q2's columns (DLAED2's INDXC,
 * DLAED3's INDX); @p tmp holds k doubles. */
static void form_column(const struct block *b, const struct merge *v, const double *u, double *tmp, double *s)
{
    const int64_t a = v->start, k = v->deflation.k;
    const int *indx = b->indxc + a;

    if (k <= 2) {
        for (int64_t i = 0; i < k; i++)
            s[i] = u[k == 1 ? i : indx[i] - 1];
        return;
    }
    for (int64_t i = 0; i < k; i++)
        tmp[i] = b->w[a + i] / u[i];
    double norm = cblas_dnrm2((int)k, tmp, 1);

    for (int64_t i = 0; i < k; i++)
        s[i] = tmp[indx[i] - 1] / norm;
}

static void form_s(struct block *b, struct merge *v, int64_t j, double *tmp)
{
    const int64_t a = v->start;

    form_column(b, v, b->q + a + (a + j) * b->ldq, tmp, b->s + v->s + j * v->deflation.k);
}

/* Where Q is held, of root j's DLAED4 vector @p u only entry j of the merge
 * (merge_moves.h), from which the worker forms S's column j, or where
 * k <= 2 the vector itself, from which the host does.  DLAED4 solved root j
 * from the pole nearer to it, j or j+1 (the last root from the last pole). */
static void keep_root(struct block *b, struct merge *v, int64_t j, const double *u)
{
    const int64_t a = v->start, k = v->deflation.k;
    int64_t origin = j + 1 < k && fabs(u[j + 1]) < fabs(u[j]) ? j + 1 : j;

    if (k > 2)
        b->entries[a + j] = (startrd_dsecular_entry_t){b->dlamda[a + j], b->w[a + j], u[origin], origin,
                                                      b->indxc[a + j] - 1};
    else
        memcpy(b->small_u + 2 * (a + j), u, (size_t)k * sizeof *u);
}

/* The packed vectors a merge's product multiplies: the left subproblem's
 * n12 (types 1 and 2), the right one's n23 (types 2 and 3). */
static int64_t top_columns(const struct merge *v)
{
    return v->deflation.ctot[0] + v->deflation.ctot[1];
}

static int64_t bottom_columns(const struct merge *v)
{
    return v->deflation.ctot[1] + v->deflation.ctot[2];
}

/* The bytes of one merge's products: its Q2's two parts, S (k x k) and
 * the k columns of its m rows of Q. */
static size_t merge_bytes(int64_t n1, int64_t n12, int64_t n2, int64_t n23, int64_t k, int64_t m)
{
    return ((size_t)n1 * (size_t)n12 + (size_t)n2 * (size_t)n23 + (size_t)(k + m) * (size_t)k) * sizeof(double);
}

size_t startrd_dstedc_gpu_bytes(int64_t n)
{
    /* A level's S goes as one host array, whose length StarPU counts in 32 bits. */
    if ((uint64_t)n * (uint64_t)n > UINT32_MAX)
        return SIZE_MAX;
    return (3 * (size_t)n * (size_t)n + (size_t)n * (DEFAULT_LEAF + 1)) * sizeof(double);
}

static startrd_dmerge_gemm_t merge_product(const struct merge *v, int64_t cols)
{
    return (startrd_dmerge_gemm_t){.m = v->m, .n1 = v->n1, .n12 = top_columns(v), .n23 = bottom_columns(v),
                                  .k = v->deflation.k, .s_bottom = v->deflation.ctot[0], .cols = cols};
}

/* The level's products, Q on the host: the merge's first k columns :=
 * [Q2top S(0:n12); Q2bot S(ctot1:ctot1+n23)], in column blocks over the
 * GPUs (CPU workers without them).  Returns once they are back in the
 * host's Q. */
static int products(struct block *b, struct merge *level, int64_t count)
{
    const unsigned ncpu = starpu_cpu_worker_get_count();
    unsigned ncuda = starpu_cuda_worker_get_count();
    size_t largest = 0;
    int64_t workers, per_merge, nhandles = 0, h = 0;
    starpu_data_handle_t *handles;
    unsigned long long where;
    int ret = 0;

    /* A product task holds its merge's Q2 and its columns of S and Q at
     * once; where a GPU cannot, the level goes to the CPU workers. */
    for (int64_t v = 0; v < count; v++) {
        const struct merge *m = &level[v];
        size_t bytes = merge_bytes(m->n1, top_columns(m), m->m - m->n1, bottom_columns(m), m->deflation.k, m->m);

        largest = bytes > largest ? bytes : largest;
    }
    if (ncuda > 0 && !startrd_device_memory_gpus_hold(largest))
        ncuda = 0;
    where = ncuda > 0 ? STARPU_CUDA : STARPU_CPU;
    workers = ncuda > 0 ? ncuda : ncpu > 0 ? ncpu : 1;
    per_merge = workers / count > 1 ? workers / count : 1;
    for (int64_t v = 0; v < count; v++)
        nhandles += level[v].deflation.k > 0 ? 1 + 2 * per_merge : 0;
    if ((handles = calloc((size_t)(nhandles > 0 ? nhandles : 1), sizeof *handles)) == NULL) {
        startrd_error("tridiagonal eigenvectors: cannot allocate the handles of a merge level");
        return STARTRD_ERR_MEMORY;
    }
    host_steps(b->beside, 0);
    for (int64_t i = 0; i < count && ret == 0; i++) {
        const struct merge *v = &level[i];
        const int64_t k = v->deflation.k, packed = v->n1 * top_columns(v) + (v->m - v->n1) * bottom_columns(v);
        int64_t chunks = (k + MIN_TASK_COLUMNS - 1) / MIN_TASK_COLUMNS, q2 = h;

        if (k == 0)
            continue;
        chunks = chunks < per_merge ? chunks : per_merge;
        /* Empty packed vectors are registered one element long: the task skips them. */
        startrd_matrix_register(&handles[h++], STARPU_MAIN_RAM, (uintptr_t)(b->q2 + v->q2), packed > 0 ? packed : 1,
                                packed > 0 ? packed : 1, 1, sizeof(double));
        for (int64_t c = 0; c < chunks && ret == 0; c++) {
            int64_t j0 = k * c / chunks, cols = k * (c + 1) / chunks - j0;
            startrd_dmerge_gemm_t g = merge_product(v, cols);

            startrd_matrix_register(&handles[h], STARPU_MAIN_RAM, (uintptr_t)(b->s + v->s + j0 * k), k, k, cols,
                                    sizeof(double));
            startrd_matrix_register(&handles[h + 1], STARPU_MAIN_RAM,
                                    (uintptr_t)(b->q + v->start + (v->start + j0) * b->ldq), b->ldq, v->m, cols,
                                    sizeof(double));
            ret = startrd_task_dmerge_gemm(where, -1, &g, 0, handles[q2], handles[h], handles[h + 1]);
            h += 2;
        }
    }
    if (ret != 0) {
        startrd_error("tridiagonal eigenvectors: task submission failed");
        ret = STARTRD_ERR_RUNTIME;
    }
    /* Unregistering waits for the tasks and brings Q home. */
    for (int64_t i = 0; i < h; i++)
        starpu_data_unregister(handles[i]);
    host_steps(b->beside, 1);
    free(handles);
    if (ret == 0 && startrd_kernel_failures_take() > 0)
        ret = STARTRD_ERR_KERNEL;
    return ret;
}

/* A host array that the held Q's tasks read, registered until the next
 * time the host waits for them (release_reads()). */
static starpu_data_handle_t host_read(struct held *held, void *ptr, int64_t count, size_t elemsize)
{
    starpu_data_handle_t h;

    startrd_matrix_register(&h, STARPU_MAIN_RAM, (uintptr_t)ptr, count, count, 1, elemsize);
    if (held->nreads == held->max_reads) {
        /* Full: wait for the oldest ones' tasks. */
        for (int64_t i = 0; i < held->nreads; i++)
            starpu_data_unregister(held->reads[i]);
        held->nreads = 0;
    }
    held->reads[held->nreads++] = h;
    return h;
}

static void release_reads(struct held *held)
{
    for (int64_t i = 0; i < held->nreads; i++)
        starpu_data_unregister(held->reads[i]);
    held->nreads = 0;
}

/* A status of task submission as the library's. */
static int submitted(int ret)
{
    if (ret != 0)
        startrd_error("tridiagonal eigenvectors: task submission failed");
    return ret != 0 ? STARTRD_ERR_RUNTIME : 0;
}

/* Once the host waited for the worker's tasks: 0, or how they failed. */
static int held_status(int ret)
{
    return ret == 0 && startrd_kernel_failures_take() > 0 ? STARTRD_ERR_KERNEL : ret;
}

/* @p count moves from src into dst on the worker, counted with leading
 * dimensions src_ld and dst_ld; the list stays unchanged until the host
 * next waits for the worker. */
static int submit_moves(struct held *held, startrd_move_t *moves, int64_t count, int clear, int write_only,
                        int64_t src_ld, starpu_data_handle_t src, int64_t dst_ld, starpu_data_handle_t dst)
{
    int64_t longest = 0;

    if (count == 0)
        return 0;
    for (int64_t t = 0; t < count; t++)
        longest = moves[t].len > longest ? moves[t].len : longest;
    return startrd_task_dcopy_moves(held->worker, clear, write_only, longest, src_ld, dst_ld,
                                    host_read(held, moves, count, sizeof *moves), src, dst);
}

/* The held Q's first and last rows of each half, z of each merge, into
 * b->z: the host waits for the level's tasks before.  Its moves go after
 * the ones the previous level's tasks may still read (at most 2m). */
static int fetch_z(struct block *b, struct merge *level, int64_t count)
{
    const int64_t first = 2 * b->m;
    int64_t t = first;
    starpu_data_handle_t z;
    int ret;

    for (int64_t i = 0; i < count; i++) {
        const int64_t a = level[i].start, n1 = level[i].n1;

        for (int64_t j = 0; j < level[i].m; j++)
            b->moves[t++] = (startrd_move_t){held_at(b, j < n1 ? a + n1 - 1 : a + n1, a + j), a + j, 1};
    }
    startrd_matrix_register(&z, STARPU_MAIN_RAM, (uintptr_t)b->z, b->m, b->m, 1, sizeof *b->z);
    ret = submitted(submit_moves(b->held, b->moves + first, t - first, 0, 1, b->held->n, b->held->z, b->m, z));
    starpu_data_unregister(z);
    release_reads(b->held);
    return held_status(ret);
}

/* The level's rotations, then its gather into Q2 and its returns, as
 * tasks on the worker that holds Q. */
static int held_moves(struct block *b, struct merge *level, int64_t count)
{
    int64_t gathers = 0, returns = 0;
    int ret = 0;

    for (int64_t i = 0; i < count && ret == 0; i++) {
        const struct merge *v = &level[i];

        if (v->deflation.nrot > 0)
            ret = startrd_task_drot_columns(b->held->worker, b->start + v->start, v->m, b->start + v->start,
                                            host_read(b->held, b->rot + v->start, v->deflation.nrot, sizeof *b->rot),
                                            b->held->z);
    }
    for (int64_t i = 0; i < count; i++) {
        const struct merge *v = &level[i];
        const int64_t q0 = held_at(b, v->start, v->start);

        for (int64_t c = 0; c < v->m; c++) {
            startrd_move_t *mv = b->moves + gathers;
            int moves = startrd_dlaed2_gather_moves(&v->deflation, c, mv);

            for (int t = 0; t < moves; t++) {
                mv[t].src += q0;
                mv[t].dst += (int64_t)v->q2;
            }
            gathers += moves;
        }
    }
    for (int64_t i = 0; i < count; i++) {
        const struct merge *v = &level[i];

        for (int64_t j = 0; j < startrd_dlaed2_returns(&v->deflation); j++) {
            startrd_move_t mv = startrd_dlaed2_return_move(&v->deflation, j);

            b->moves[gathers + returns++] = (startrd_move_t){mv.src + (int64_t)v->q2,
                                                             mv.dst + held_at(b, v->start, v->start), mv.len};
        }
    }
    if (ret == 0)
        ret = submit_moves(b->held, b->moves, gathers, 0, 1, b->held->n, b->held->z, b->held->n, b->held->q2);
    if (ret == 0)
        ret = submit_moves(b->held, b->moves + gathers, returns, 0, 0, b->held->n, b->held->q2, b->held->n, b->held->z);
    return submitted(ret);
}

/* The level's products on the worker that holds Q, S sent from the host. */
static int held_products(struct block *b, struct merge *level, int64_t count)
{
    starpu_data_handle_t entries = host_read(b->held, b->entries, b->m, sizeof *b->entries);
    int64_t small = 0, values = 0;
    int ret = 0, written = 0;

    /* S: the host forms the k <= 2 merges', the worker the others' from
     * the entries; the level's first task writes S anew (mode W). */
    for (int64_t i = 0; i < count; i++) {
        const struct merge *v = &level[i];
        const int64_t k = v->deflation.k;

        if (k == 0 || k > 2)
            continue;
        for (int64_t j = 0; j < k; j++)
            form_column(b, v, b->small_u + 2 * (v->start + j), NULL, b->small_s + values + j * k);
        b->small_moves[small++] = (startrd_move_t){values, (int64_t)v->s, k * k};
        values += k * k;
    }
    if (small > 0) {
        ret = submit_moves(b->held, b->small_moves, small, 0, 1, values,
                           host_read(b->held, b->small_s, values, sizeof *b->small_s), b->held->n, b->held->s);
        written = 1;
    }
    for (int64_t i = 0; i < count && ret == 0; i++) {
        const struct merge *v = &level[i];

        if (v->deflation.k <= 2)
            continue;
        ret = startrd_task_dsecular_vectors(b->held->worker, !written, v->deflation.k, v->start, (int64_t)v->s,
                                            entries, b->held->weights, b->held->s);
        written = 1;
    }
    for (int64_t i = 0; i < count && ret == 0; i++) {
        const struct merge *v = &level[i];
        startrd_dmerge_gemm_t g = merge_product(v, v->deflation.k);

        if (g.k == 0)
            continue;
        g.q2_offset = (int64_t)v->q2;
        g.s_offset = (int64_t)v->s;
        g.q_offset = held_at(b, v->start, v->start);
        ret = startrd_task_dmerge_gemm(STARPU_CPU | STARPU_CUDA, b->held->worker, &g, 1, b->held->q2, b->held->s,
                                       b->held->z);
    }
    return submitted(ret);
}

/* Runs @p step on every item of the level (the rows or columns 0..k-1 of
 * each merge), on the OpenMP threads. */
static void for_each_item(struct block *b, struct merge *level, int64_t items,
                          void (*step)(struct block *, struct merge *, int64_t, double *))
{
#pragma omp parallel
    {
        double *tmp = malloc((size_t)b->m * sizeof *tmp);

        if (tmp == NULL)
            failed(b, "malloc", -1);
#pragma omp for schedule(dynamic, 16)
        for (int64_t i = 0; i < items; i++) {
            struct merge *v = &level[b->item[i]];

            if (tmp != NULL)
                step(b, v, i - v->first, tmp);
        }
        free(tmp);
    }
}

static void gather_step(struct block *b, struct merge *v, int64_t i, double *tmp)
{
    (void)tmp;
    startrd_dlaed2_gather(&v->deflation, b->q + v->start + v->start * b->ldq, b->q2 + v->q2, i);
}

static void return_step(struct block *b, struct merge *v, int64_t j, double *tmp)
{
    (void)tmp;
    startrd_dlaed2_return(&v->deflation, b->q + v->start + v->start * b->ldq, b->q2 + v->q2, j);
}

/* Numbers the level's items, @p per_merge(v) of merge v, merge after merge;
 * returns how many. */
static int64_t number_items(struct block *b, struct merge *level, int64_t count,
                            int64_t (*per_merge)(const struct merge *))
{
    int64_t items = 0;

    for (int64_t v = 0; v < count; v++) {
        level[v].first = items;
        for (int64_t i = 0; i < per_merge(&level[v]); i++)
            b->item[items++] = (int)v;
    }
    return items;
}

static int64_t columns_of(const struct merge *v)
{
    return v->m;
}

static int64_t returns_of(const struct merge *v)
{
    return startrd_dlaed2_returns(&v->deflation);
}

static int64_t eigenvalues_of(const struct merge *v)
{
    return v->deflation.k;
}

/* Root j: its DLAED4 vector in column j of the merge's block of Q, as
 * DLAED3 keeps it; where Q is held, in @p tmp, of which the host keeps
 * only what the worker needs (keep_root()). */
static void secular_step(struct block *b, struct merge *v, int64_t j, double *tmp)
{
    const int64_t a = v->start;

    if (!q_held(b)) {
        secular(b, v, (int)j, b->q + a + (a + j) * b->ldq);
        return;
    }
    secular(b, v, (int)j, tmp);
    keep_root(b, v, j, tmp);
}

static int64_t w_blocks_of(const struct merge *v)
{
    return v->deflation.k > 2 ? (v->deflation.k + W_ROWS - 1) / W_ROWS : 0;
}

/* The merged subproblem's order of eigenvalues (DLAED1's last step). */
static void merge_order(struct block *b, struct merge *v)
{
    const int k = v->deflation.k, rest = (int)v->m - v->deflation.k, one = 1, minus_one = -1;

    if (k == 0) {
        for (int64_t i = 0; i < v->m; i++)
            b->indxq[v->start + i] = (int)i + 1;
        return;
    }
    dlamrg_(&k, &rest, b->d + v->start, &one, &minus_one, b->indxq + v->start);
}

/* One merge level: count merges side by side. */
static int merge_level(struct block *b, struct merge *level, int64_t count)
{
    size_t s_size = 0;
    int ret;

    if (q_held(b) && (ret = fetch_z(b, level, count)) != 0)
        return ret;
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t v = 0; v < count; v++)
        deflate(b, &level[v]);
    if (atomic_load(&b->failed))
        return STARTRD_ERR_KERNEL;
    if (q_held(b)) {
        /* The worker moves Q's columns while the host solves. */
        if ((ret = held_moves(b, level, count)) != 0)
            return ret;
    } else {
        /* Every column into Q2 before any deflated one goes back into Q. */
        for_each_item(b, level, number_items(b, level, count, columns_of), gather_step);
        for_each_item(b, level, number_items(b, level, count, returns_of), return_step);
    }
    for (int64_t v = 0; v < count; v++) {
        level[v].s = s_size;
        s_size += (size_t)level[v].deflation.k * (size_t)level[v].deflation.k;
    }
    if (s_size > b->s_size && !q_held(b)) {
        free(b->s);
        if ((b->s = malloc(s_size * sizeof *b->s)) == NULL) {
            b->s_size = 0;
            startrd_error("tridiagonal eigenvectors: cannot allocate %zu bytes", s_size * sizeof *b->s);
            return STARTRD_ERR_MEMORY;
        }
        b->s_size = s_size;
    }
    for_each_item(b, level, number_items(b, level, count, eigenvalues_of), secular_step);
    /* Where Q is held, the worker recomputes the weights and forms S. */
    if (!atomic_load(&b->failed) && !q_held(b))
        for_each_item(b, level, number_items(b, level, count, w_blocks_of), recompute_w);
    if (!atomic_load(&b->failed) && !q_held(b))
        for_each_item(b, level, number_items(b, level, count, eigenvalues_of), form_s);
    if (atomic_load(&b->failed))
        return STARTRD_ERR_KERNEL;
    if ((ret = q_held(b) ? held_products(b, level, count) : products(b, level, count)) != 0)
        return ret;
    for (int64_t v = 0; v < count; v++)
        merge_order(b, &level[v]);
    return 0;
}

static void free_block(struct block *b)
{
    free(b->z);
    free(b->indxq);
    free(b->q2);
    free(b->s);
    free(b->rot);
    free(b->moves);
    free(b->small_moves);
    free(b->small_s);
    free(b->small_u);
    free(b->entries);
    free(b->leaves);
}

/* The leaves into the held Q, zero elsewhere: DSTEDC wrote leaf i (order
 * bounds[i+1] - bounds[i]) compactly into b->leaves. */
static int send_leaves(struct block *b, const int64_t *bounds, int64_t count)
{
    int64_t t = 0, off = 0;

    for (int64_t i = 0; i < count; i++) {
        const int64_t a = bounds[i], size = bounds[i + 1] - a;

        for (int64_t j = 0; j < size; j++)
            b->moves[t++] = (startrd_move_t){off + j * size, held_at(b, a, a + j), size};
        off += size * size;
    }
    return submitted(submit_moves(b->held, b->moves, t, 0, 0, off, host_read(b->held, b->leaves, off, sizeof *b->leaves),
                                  b->held->n, b->held->z));
}

/* The host's lists for the worker that holds Q: a level's gathers and
 * returns take at most 2m moves (two per column), z's m more. */
static int held_lists(struct block *b, const int64_t *bounds, int64_t count)
{
    const int64_t m = b->m;
    size_t leaves = 0;

    b->rot = malloc((size_t)m * sizeof *b->rot);
    b->moves = malloc(3 * (size_t)m * sizeof *b->moves);
    b->small_moves = malloc((size_t)count * sizeof *b->small_moves);
    b->small_s = malloc(4 * (size_t)count * sizeof *b->small_s);
    b->small_u = malloc(2 * (size_t)m * sizeof *b->small_u);
    b->entries = malloc((size_t)m * sizeof *b->entries);
    for (int64_t i = 0; i < count; i++)
        leaves += (size_t)(bounds[i + 1] - bounds[i]) * (size_t)(bounds[i + 1] - bounds[i]);
    b->leaves = malloc(leaves * sizeof *b->leaves);
    return b->rot == NULL || b->moves == NULL || b->small_moves == NULL || b->small_s == NULL ||
                   b->small_u == NULL || b->entries == NULL || b->leaves == NULL
               ? STARTRD_ERR_MEMORY
               : 0;
}


static int short_of_workspace(int64_t m)
{
    startrd_error("tridiagonal eigenvectors: cannot allocate the workspace of order %lld", (long long)m);
    return STARTRD_ERR_MEMORY;
}

/* Divide and conquer on one unreduced block of order m > b->leaf, scaled to
 * norm 1 (DLAED0): on return d is in the order of b->indxq. */
static int divide_and_conquer(struct block *b)
{
    const int64_t m = b->m;
    int depth = 0, ret = 0;
    int64_t *bounds, count = 1;
    struct merge *level;

    while ((m + (((int64_t)1 << depth) - 1)) >> depth > b->leaf)
        depth++;
    bounds = malloc((((size_t)1 << depth) + 1) * sizeof *bounds);
    level = malloc(((size_t)1 << depth) * sizeof *level);
    b->z = malloc(4 * (size_t)m * sizeof *b->z);
    b->indxq = malloc(6 * (size_t)m * sizeof *b->indxq);
    if (bounds == NULL || level == NULL || b->z == NULL || b->indxq == NULL) {
        ret = short_of_workspace(m);
        goto out;
    }
    b->dlamda = b->z + m;
    b->w = b->z + 2 * m;
    b->wsave = b->z + 3 * m;
    b->indx = b->indxq + m;
    b->indxc = b->indxq + 2 * m;
    b->indxp = b->indxq + 3 * m;
    b->coltyp = b->indxq + 4 * m;
    b->item = b->indxq + 5 * m;
    bounds[0] = 0;
    bounds[1] = m;
    for (int t = 0; t < depth; t++, count *= 2)
        halve(bounds, count);
    /* The packed Q2 takes up to m^2 per merge (columns the deflation's
     * rotations mix are dense in both halves), most at the top.  Its pages,
     * and S's, are first touched by the parallel loops that fill them. */
    if (q_held(b))
        ret = held_lists(b, bounds, count);
    else if ((b->q2 = malloc((size_t)m * (size_t)m * sizeof *b->q2)) == NULL)
        ret = STARTRD_ERR_MEMORY;
    if (ret != 0) {
        ret = short_of_workspace(m);
        goto out;
    }
    /* Tear the matrix at the leaves' bounds (rank-one cuts, DLAED0). */
    for (int64_t i = 1; i < count; i++) {
        int64_t p = bounds[i];

        b->d[p - 1] -= fabs(b->e[p - 1]);
        b->d[p] -= fabs(b->e[p - 1]);
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t i = 0; i < count; i++) {
        int64_t a = bounds[i], size = bounds[i + 1] - a, off = 0;
        lapack_int info;

        for (int64_t j = 0; j < i && q_held(b); j++)
            off += (bounds[j + 1] - bounds[j]) * (bounds[j + 1] - bounds[j]);
        info = q_held(b) ? LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', (lapack_int)size, b->d + a, b->e + a,
                                          b->leaves + off, (lapack_int)size)
                         : LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', (lapack_int)size, b->d + a, b->e + a,
                                          b->q + a + a * b->ldq, (lapack_int)b->ldq);
        if (info != 0)
            failed(b, "DSTEDC on a leaf", (int)info);
        for (int64_t j = 0; j < size; j++)
            b->indxq[a + j] = (int)j + 1;
    }
    ret = atomic_load(&b->failed) ? STARTRD_ERR_KERNEL : 0;
    if (ret == 0 && q_held(b))
        ret = send_leaves(b, bounds, count);
    /* Level by level upwards: bounds 2i and 2i+2 enclose merge i, split at 2i+1. */
    for (; count > 1 && ret == 0; count /= 2) {
        size_t q2 = 0;

        for (int64_t i = 0; i < count / 2; i++) {
            int64_t a = bounds[2 * i], n1 = bounds[2 * i + 1] - a, m_i = bounds[2 * i + 2] - a;

            level[i] = (struct merge){.start = a, .m = m_i, .n1 = n1, .q2 = q2};
            q2 += (size_t)m_i * (size_t)m_i;
            bounds[i] = a;
        }
        bounds[count / 2] = m;
        ret = merge_level(b, level, count / 2);
    }
    /* merge_level() reported its own failures. */
out:
    /* The host arrays the tasks read are freed with the block. */
    if (q_held(b))
        release_reads(b->held);
    free(bounds);
    free(level);
    return ret;
}

/* x := x * to / from without overflow, as DSTEDC scales (DLASCL). */
static int scale(double from, double to, int64_t len, double *x)
{
    lapack_int info = LAPACKE_dlascl(LAPACK_COL_MAJOR, 'G', 0, 0, from, to, (lapack_int)len, 1, x, (lapack_int)len);

    if (info != 0)
        startrd_error("tridiagonal eigenvectors: DLASCL returned %d", (int)info);
    return info != 0 ? STARTRD_ERR_KERNEL : 0;
}

/* An unreduced block: LAPACK's DSTEDC up to @p leaf rows, divide and
 * conquer above, scaled as DSTEDC does.  Where Q is held, @p q is NULL
 * and only blocks above @p leaf rows come here. */
static int solve_block(int64_t m, int64_t start, double *d, double *e, double *q, int64_t ldq, int64_t leaf,
                       int *order, const startrd_dstedc_beside_t *beside, struct held *held)
{
    struct block b = {.m = m, .ldq = ldq, .leaf = leaf, .start = start, .held = held, .d = d, .e = e, .q = q,
                      .beside = beside};
    const lapack_int rows = (lapack_int)m;
    double norm;
    int ret;

    if (m <= leaf) {
        lapack_int info = LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', (lapack_int)m, d, e, q, (lapack_int)ldq);

        for (int64_t i = 0; i < m; i++)
            order[i] = (int)i;
        if (info != 0)
            startrd_error("tridiagonal eigenvectors: DSTEDC returned %d", (int)info);
        return info != 0 ? STARTRD_ERR_KERNEL : 0;
    }
    norm = LAPACK_dlanst("M", &rows, d, e);
    if (scale(norm, 1.0, m, d) != 0 || scale(norm, 1.0, m - 1, e) != 0)
        return STARTRD_ERR_KERNEL;
    atomic_init(&b.failed, 0);
    ret = divide_and_conquer(&b);
    if (ret == 0)
        ret = scale(1.0, norm, m, d);
    if (ret == 0)
        for (int64_t i = 0; i < m; i++)
            order[i] = b.indxq[i] - 1;
    free_block(&b);
    return ret;
}

struct ranked {
    double value;
    int64_t column;
};

static int by_value(const void *x, const void *y)
{
    const struct ranked *a = x, *b = y;

    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return (a->column > b->column) - (a->column < b->column);
}

/* Column i of Z := column perm[i], d likewise: by cycles, each thread
 * on its own slice of rows. */
static int permute_values(int64_t n, const int64_t *perm, double *d)
{
    double *dcopy = malloc((size_t)n * sizeof *dcopy);

    if (dcopy == NULL)
        return STARTRD_ERR_MEMORY;
    for (int64_t i = 0; i < n; i++)
        dcopy[i] = d[perm[i]];
    memcpy(d, dcopy, (size_t)n * sizeof *d);
    free(dcopy);
    return 0;
}

static int permute(int64_t n, const int64_t *perm, double *d, double *Z, int64_t ldz)
{
    atomic_int short_of_memory = 0;

    if (permute_values(n, perm, d) != 0)
        return STARTRD_ERR_MEMORY;
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t r0 = 0; r0 < n; r0 += ROWS_PER_PERMUTE) {
        const size_t bytes = (size_t)(n - r0 < ROWS_PER_PERMUTE ? n - r0 : ROWS_PER_PERMUTE) * sizeof *Z;
        double tmp[ROWS_PER_PERMUTE];
        char *done = calloc((size_t)n, 1);

        if (done == NULL)
            atomic_store(&short_of_memory, 1);
        for (int64_t i = 0; done != NULL && i < n; i++) {
            int64_t j = i;

            if (done[i] || perm[i] == i)
                continue;
            memcpy(tmp, Z + r0 + i * ldz, bytes);
            for (; perm[j] != i; j = perm[j]) {
                memcpy(Z + r0 + j * ldz, Z + r0 + perm[j] * ldz, bytes);
                done[j] = 1;
            }
            memcpy(Z + r0 + j * ldz, tmp, bytes);
            done[j] = 1;
        }
        free(done);
    }
    return atomic_load(&short_of_memory) ? STARTRD_ERR_MEMORY : 0;
}

/* Where the vectors are held: Z, Q2 and S on the worker, Z zero but
 * where the blocks go. */
static int hold(struct held *held, int64_t n, const startrd_dstedc_beside_t *beside)
{
    startrd_move_t none = {0, 0, 0};
    double nothing = 0.0;
    int ret;

    *held = (struct held){.worker = beside->worker, .n = n, .max_reads = n + 64};
    if ((held->reads = malloc((size_t)held->max_reads * sizeof *held->reads)) == NULL) {
        startrd_error("tridiagonal eigenvectors: cannot allocate the list of %lld reads", (long long)held->max_reads);
        return STARTRD_ERR_MEMORY;
    }
    startrd_matrix_register(&held->z, -1, 0, n, n, n, sizeof(double));
    startrd_matrix_register(&held->q2, -1, 0, n, n, n, sizeof(double));
    startrd_matrix_register(&held->s, -1, 0, n, n, n, sizeof(double));
    startrd_matrix_register(&held->weights, -1, 0, n, n, 1, sizeof(double));
    ret = submitted(submit_moves(held, &none, 1, 1, 1, 1, host_read(held, &nothing, 1, sizeof nothing), n, held->z));
    release_reads(held);
    return ret;
}

/* The blocks of at most leaf rows: LAPACK's DSTEDC on the host into
 * @p small (compactly), then into the held Z in one task. */
static int small_blocks(struct held *held, int64_t n, double *d, double *e, const int64_t *starts, int64_t count,
                        int64_t leaf, int *order)
{
    startrd_move_t *moves = malloc((size_t)(n > 0 ? n : 1) * sizeof *moves);
    double *small = malloc((size_t)n * (size_t)(leaf < n ? leaf : n) * sizeof *small);
    int64_t t = 0, off = 0;
    int ret = 0;

    if (moves == NULL || small == NULL) {
        free(moves);
        free(small);
        startrd_error("tridiagonal eigenvectors: cannot allocate the blocks of at most %lld rows", (long long)leaf);
        return STARTRD_ERR_MEMORY;
    }
    for (int64_t i = 0; i < count && ret == 0; i++) {
        const int64_t a = starts[2 * i], m = starts[2 * i + 1];
        lapack_int info = LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', (lapack_int)m, d + a, e + a, small + off, (lapack_int)m);

        if (info != 0) {
            startrd_error("tridiagonal eigenvectors: DSTEDC returned %d", (int)info);
            ret = STARTRD_ERR_KERNEL;
        }
        for (int64_t j = 0; j < m; j++) {
            order[a + j] = (int)(a + j);
            moves[t++] = (startrd_move_t){off + j * m, a + (a + j) * n, m};
        }
        off += m * m;
    }
    if (ret == 0 && t > 0)
        ret = submitted(submit_moves(held, moves, t, 0, 0, off, host_read(held, small, off, sizeof *small), n, held->z));
    release_reads(held);
    free(moves);
    free(small);
    return ret;
}

/* The held Z's columns in the order @p perm, into the caller's blocks;
 * then the host waits for every task. */
static int release_held(struct held *held, const int64_t *perm, const startrd_dstedc_beside_t *beside, int ret)
{
    const int64_t n = held->n, width = beside->z_columns;
    startrd_move_t *moves = ret == 0 ? malloc((size_t)(n > 0 ? n : 1) * sizeof *moves) : NULL;

    if (ret == 0 && moves == NULL) {
        startrd_error("tridiagonal eigenvectors: cannot allocate the moves of %lld columns", (long long)n);
        ret = STARTRD_ERR_MEMORY;
    }
    /* Q2 and S go first, so that the worker holds at most Z twice. */
    starpu_data_unregister(held->q2);
    starpu_data_unregister(held->s);
    starpu_data_unregister(held->weights);
    for (int64_t i0 = 0; ret == 0 && i0 < n; i0 += width) {
        const int64_t cols = n - i0 < width ? n - i0 : width;

        for (int64_t i = i0; i < i0 + cols; i++)
            moves[i] = (startrd_move_t){perm[i] * n, (i - i0) * n, n};
        ret = submitted(submit_moves(held, moves + i0, cols, 0, 1, n, held->z, n, beside->z_blocks[i0 / width]));
    }
    release_reads(held);
    starpu_data_unregister(held->z);
    free(held->reads);
    free(moves);
    return held_status(ret);
}

int startrd_dstedc(int64_t n, double *d, double *e, double *Z, int64_t ldz, int64_t leaf,
                   const startrd_dstedc_beside_t *beside)
{
    const double eps = LAPACKE_dlamch('E');
    const int64_t leaf_rows = leaf > 0 ? leaf : DEFAULT_LEAF;
    struct ranked *rank = malloc((size_t)(n > 0 ? n : 1) * sizeof *rank);
    int64_t *perm = malloc((size_t)(n > 0 ? n : 1) * sizeof *perm);
    int64_t *small = malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *small), nsmall = 0;
    int *order = malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    struct held held = {0}, *holding = beside != NULL ? &held : NULL;
    int ret = 0;

    if (rank == NULL || perm == NULL || small == NULL || order == NULL) {
        startrd_error("tridiagonal eigenvectors: cannot allocate the order of %lld eigenvalues", (long long)n);
        ret = STARTRD_ERR_MEMORY;
        goto out;
    }
    host_steps(beside, 1);
    if (holding != NULL && (ret = hold(holding, n, beside)) != 0) {
        holding = NULL;
        goto out;
    }
    if (holding == NULL)
#pragma omp parallel for schedule(static)
        for (int64_t j = 0; j < n; j++) {
            memset(Z + j * ldz, 0, (size_t)n * sizeof *Z);
            Z[j + j * ldz] = 1.0;
        }
    for (int64_t i = 0; i < n; i++)
        order[i] = 0;
    /* Unreduced blocks, split where e is negligible by DSTEDC's test (a
     * zero matrix splits into blocks of one). */
    for (int64_t start = 0, finish; start < n && ret == 0; start = finish + 1) {
        for (finish = start; finish < n - 1; finish++)
            if (fabs(e[finish]) <= eps * sqrt(fabs(d[finish])) * sqrt(fabs(d[finish + 1])))
                break;
        if (holding != NULL && finish - start + 1 <= leaf_rows) {
            small[2 * nsmall] = start;
            small[2 * nsmall++ + 1] = finish - start + 1;
            continue;
        }
        if (finish > start)
            ret = solve_block(finish - start + 1, start, d + start, e + start,
                              holding != NULL ? NULL : Z + start + start * ldz, ldz, leaf_rows, order + start, beside,
                              holding);
        for (int64_t i = start; i <= finish && ret == 0; i++)
            order[i] += (int)start;
    }
    if (ret == 0 && nsmall > 0)
        ret = small_blocks(holding, n, d, e, small, nsmall, leaf_rows, order);
    if (ret == 0) {
        for (int64_t i = 0; i < n; i++)
            rank[i] = (struct ranked){d[order[i]], order[i]};
        qsort(rank, (size_t)n, sizeof *rank, by_value);
        for (int64_t i = 0; i < n; i++)
            perm[i] = rank[i].column;
        ret = holding != NULL ? permute_values(n, perm, d) : permute(n, perm, d, Z, ldz);
        if (ret == STARTRD_ERR_MEMORY)
            startrd_error("tridiagonal eigenvectors: cannot allocate the order of %lld columns", (long long)n);
    }
    host_steps(beside, 0);
out:
    if (holding != NULL)
        ret = release_held(holding, perm, beside, ret);
    free(rank);
    free(perm);
    free(small);
    free(order);
    return ret;
}
