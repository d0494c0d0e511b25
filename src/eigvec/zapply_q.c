/* The back-transformation as tasks: each block of columns of C goes through
 * Q2 then Q1 (Q C), or Q1^H then Q2^H (Q^H C); blocks are independent, so
 * the workers take them in parallel.  The stage-1 reflectors are read in
 * place for uplo = 'L'; for 'U' they are stored conjugated along rows, and a
 * lower copy puts them in ZGEQRF's layout once for all blocks.  Q2 goes
 * reflector by reflector on the host, or, where GPUs take part, in the
 * GEMM-sized groups of q2_blocks.h, which each task builds from HOUS2 a
 * chunk at a time.
 *
 * Q can also be formed, by the same tasks on blocks of the identity, and
 * multiplied into real vectors later: the tasks then run while the caller
 * computes those vectors.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "zapply_q.h"

#include "codelets_z.h"
#include "context.h"
#include "descriptor.h"
#include "device_memory.h"
#include "error.h"
#include "startrd.h"
#include "workers.h"

#include <limits.h>
#include <stdlib.h>

/* Columns of C per task: wide enough for ZUNMQR's GEMMs, narrow enough to
 * keep every CPU worker busy at the sizes that matter, and narrower still
 * (down to MIN_CPU_COLUMNS) when there are fewer columns than workers
 * times BLOCK_COLUMNS; on GPUs, a few blocks per GPU, which still pipeline
 * the copies with the work.  Q formed on the GPUs goes into the vectors in
 * PRODUCT_BLOCKS_PER_GPU blocks, so that their copies in and out overlap
 * the products. */
enum {
    BLOCK_COLUMNS = 128,
    MIN_CPU_COLUMNS = 8,
    GPU_BLOCKS_PER_WORKER = 4,
    PRODUCT_BLOCKS_PER_GPU = 16,
    TRANSPOSE_BLOCK = 64
};

#ifdef COMPLEX
#define CONJ(x) conj(x)
/* The products R = Q Z read Q and R as real matrices of twice their rows
 * and leading dimensions (codelet_zgemm_real.c). */
enum { REAL_PER_ENTRY = 2 };
#else
#define CONJ(x) (x)
enum { REAL_PER_ENTRY = 1 };
#endif

/* V's pieces (codelet_zunmqr_q1.c) are a whole number of the GPUs'
 * blocks of reflectors wide. */
enum { V_PIECE_ALIGN = 128 };

/* V and Y of one chunk of the blocked Q2, the scratch each task that
 * applies it builds them in: big enough for batches of some thousand
 * groups. */
#define Q2_CHUNK_BYTES ((size_t)256 << 20)

/* The blocked Q2: its plan, the table of sweeps and levels the GPUs read,
 * and the scratch the tasks build the groups in. */
struct q2_groups {
    startrd_q2_blocks_t qb;
    starpu_data_handle_t table, scratch;
};

/* Q1 and Q2 as the tasks read them: V (or its lower copy) in pieces of its
 * columns, tau, HOUS2, and Q2's groups where it goes blocked. */
struct q_factors {
    startrd_bulge_plan_t plan;
    int64_t kd, mq, npieces;
    int blocked;
    int hous2_borrowed;   /* H is the reduction's, on a GPU: not ours to unregister */
    struct q2_groups groups;
    double complex *vcopy;
    uintptr_t vcopy_on_gpu;   /* for uplo 'U' with A in a GPU's memory: the lower copy there */
    int vcopy_node;
    starpu_data_handle_t *V, T, H;
    starpu_data_handle_t q1_factors; /* on GPUs: Q1's blocks' T (codelet_zunmqr_q1.c) */
};

static int64_t cpu_block_columns(int64_t m)
{
    int64_t ncpu = starpu_cpu_worker_get_count() > 0 ? starpu_cpu_worker_get_count() : 1,
            share = (m + ncpu - 1) / ncpu;

    return share < MIN_CPU_COLUMNS ? MIN_CPU_COLUMNS : share > BLOCK_COLUMNS ? BLOCK_COLUMNS : share;
}

/* Columns per block for @p parts blocks of m columns, a multiple of 64 and
 * at least BLOCK_COLUMNS. */
static int64_t gpu_block_columns(int64_t m, int64_t parts)
{
    int64_t share = (m + parts - 1) / parts;

    return share > BLOCK_COLUMNS ? (share + 63) / 64 * 64 : BLOCK_COLUMNS;
}

/* Plans Q2, in groups where @p blocked and there are sweeps. */
static int q_factors_plan(struct q_factors *f, int64_t n, int64_t kd, int blocked, size_t q2_chunk_bytes)
{
    *f = (struct q_factors){.kd = kd, .mq = n - kd};
    if (startrd_bulge_plan_init(&f->plan, 'V', n, kd) != 0) {
        startrd_error("back-transformation: invalid band n=%lld kd=%lld", (long long)n, (long long)kd);
        return STARTRD_ERR_STATE;
    }
    if (!startrd_fits_handle(startrd_bulge_lhous(&f->plan))) {
        startrd_error("back-transformation: HOUS2 of order %lld is longer than StarPU's 32-bit data sizes",
                      (long long)n);
        return STARTRD_ERR_SIZE;
    }
    f->blocked = blocked && f->plan.nsweeps > 0;
    if (f->blocked && startrd_q2_blocks_init(&f->groups.qb, &f->plan,
                                             q2_chunk_bytes > 0 ? q2_chunk_bytes : Q2_CHUNK_BYTES,
                                             sizeof(double complex)) != 0) {
        f->blocked = 0;
        startrd_error("back-transformation: cannot allocate the plan of Q2's blocks");
        return STARTRD_ERR_MEMORY;
    }
    if (f->blocked && !startrd_fits_handle(startrd_q2_scratch_entries(&f->groups.qb))) {
        startrd_error("back-transformation: a chunk of Q2's groups is longer than StarPU's 32-bit data sizes");
        return STARTRD_ERR_SIZE;
    }
    return 0;
}

/* Q2 one reflector at a time from now on. */
static void q_factors_unblock(struct q_factors *f)
{
    if (f->blocked)
        startrd_q2_blocks_free(&f->groups.qb);
    f->blocked = 0;
}

/* The bytes a GPU holds at once to apply Q to a block of @p width columns:
 * V, the block, and for the blocked Q2 HOUS2, the scratch that builds a
 * chunk's groups, and the task's padded copy of its block and product of
 * a level (codelet_zapply_q2_blocks.c). */
static size_t working_set(const struct q_factors *f, int64_t width)
{
    const int64_t n = f->plan.n;
    size_t bytes = ((size_t)f->mq * (size_t)f->mq + (size_t)n * (size_t)width) * sizeof(double complex);

    if (f->blocked) {
        const startrd_q2_blocks_t *qb = &f->groups.qb;

        bytes += ((size_t)startrd_bulge_lhous(&f->plan) + (size_t)startrd_q2_scratch_entries(qb) +
                  (size_t)(n + qb->h + qb->maxcount * qb->b) * (size_t)width) * sizeof(double complex);
    }
    return bytes;
}

/* Columns per piece of V: one piece per CPU worker but one, which takes
 * HOUS2, so that every upload starts at once.  An upload that waited for a
 * worker queued behind the tasks that hold the CPU workers during the
 * divide and conquer (startrd_context_cpu_workers_hold()), and Q's tasks
 * waited with it (docs/architecture.md, "Q's uploads"); so each upload is
 * given its own worker, ahead of that worker's hold. */
static int64_t v_piece_columns(int64_t mq)
{
    const int64_t ncpu = starpu_cpu_worker_get_count(), pieces = ncpu > 2 ? ncpu - 1 : 1,
                  share = (mq + pieces - 1) / pieces;

    return share > V_PIECE_ALIGN ? (share + V_PIECE_ALIGN - 1) / V_PIECE_ALIGN * V_PIECE_ALIGN : V_PIECE_ALIGN;
}

/* Registers V's pieces and HOUS2: on the host, or where @p node is a GPU's
 * memory node, with no home, uploaded to that GPU by CPU workers (StarPU
 * copies them on from there where other GPUs read them).  HOUS2 goes
 * first: Q2 is applied first.  V in a GPU's memory (@p v_node not the
 * host's) stays there, its home; HOUS2 that the reduction left on a GPU
 * (@p hous2_on_gpu) is read there, through the reduction's handle. */
static int register_reflectors(struct q_factors *f, const double complex *v, int64_t ldv, int v_node,
                               const double complex *hous2, starpu_data_handle_t hous2_on_gpu, int node)
{
    const int64_t lhous = startrd_bulge_lhous(&f->plan), width = v_piece_columns(f->mq);
    const int uploaded = node >= 0, home = uploaded ? -1 : STARPU_MAIN_RAM;
    const int v_uploaded = uploaded && v_node == STARPU_MAIN_RAM, v_home = v_node == STARPU_MAIN_RAM ? home : v_node;
    int cpu[STARPU_NMAXWORKERS];
    const int ncpu = (int)starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, cpu, STARPU_NMAXWORKERS);
    int ret = 0;

    f->hous2_borrowed = hous2_on_gpu != NULL;
    if (f->hous2_borrowed) {
        f->H = hous2_on_gpu;
    } else {
        starpu_vector_data_register(&f->H, home, uploaded ? 0 : (uintptr_t)hous2, (uint32_t)lhous, sizeof *hous2);
        if (uploaded)
            ret = startrd_task_zupload(node, ncpu > 0 ? cpu[0] : -1, hous2, lhous, -1, f->H);
    }
    f->npieces = (f->mq + width - 1) / width;
    if ((f->V = calloc((size_t)(f->npieces > 0 ? f->npieces : 1), sizeof *f->V)) == NULL) {
        startrd_error("back-transformation: cannot allocate %lld handles", (long long)f->npieces);
        return STARTRD_ERR_MEMORY;
    }
    /* Read only: the casts let StarPU register the caller's const arrays. */
    for (int64_t p = 0; p < f->npieces && ret == 0; p++) {
        const int64_t c0 = p * width, cols = f->mq - c0 < width ? f->mq - c0 : width;

        startrd_matrix_register(&f->V[p], v_home, v_uploaded ? 0 : (uintptr_t)(v + c0 * ldv),
                                v_uploaded ? f->mq : ldv, f->mq, cols, sizeof *v);
        if (v_uploaded)
            ret = startrd_task_zupload(node, ncpu > 0 ? cpu[(p + 1) % ncpu] : -1, v + c0 * ldv, ldv, -1, f->V[p]);
    }
    if (ret != 0) {
        startrd_error("back-transformation: the reflectors' upload could not be submitted (%d)", ret);
        return STARTRD_ERR_RUNTIME;
    }
    return 0;
}

/* A worker of memory node @p node, a GPU's: -1 where none. */
static int worker_of_node(int node)
{
    int workers[STARPU_NMAXWORKERS];
    const int count = (int)starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, workers, STARPU_NMAXWORKERS);

    for (int i = 0; i < count; i++)
        if ((int)starpu_worker_get_memory_node((unsigned)workers[i]) == node)
            return workers[i];
    return -1;
}

/* For uplo 'U' with A in the memory of GPU node @p node: V's lower copy
 * made there by a task, into f->vcopy_on_gpu. */
static int lower_copy_on_gpu(struct q_factors *f, const double complex *A, int64_t lda, int node)
{
    const int64_t mq = f->mq;
    const size_t bytes = (size_t)mq * (size_t)mq * sizeof *A;
    const startrd_place_t place = {.worker = worker_of_node(node)};
    starpu_data_handle_t rows, copy;
    int ret;

    if (place.worker < 0 || (f->vcopy_on_gpu = starpu_malloc_on_node((unsigned)node, bytes)) == 0) {
        startrd_error("back-transformation: cannot allocate %lld bytes on memory node %d", (long long)bytes, node);
        return STARTRD_ERR_MEMORY;
    }
    f->vcopy_node = node;
    /* Rows 0..mq-1 of A's columns kd.., whose adjoint's strict lower part is V. */
    startrd_matrix_register(&rows, node, (uintptr_t)(A + f->kd * lda), lda, mq, mq, sizeof *A);
    startrd_matrix_register(&copy, node, f->vcopy_on_gpu, mq, mq, mq, sizeof *A);
    ret = startrd_task_ztile_convert(place, STARTRD_TILE_ADJOINT_LOWER, rows, copy);
    /* Unregistering waits for the task; the copy is then home. */
    starpu_data_unregister(rows);
    starpu_data_unregister(copy);
    if (ret != 0) {
        startrd_error("back-transformation: the reflectors' copy could not be submitted (%d)", ret);
        return STARTRD_ERR_RUNTIME;
    }
    return 0;
}

/* Registers the factors, making V's lower copy for uplo = 'U'; V and
 * HOUS2 as register_reflectors() says for @p node and @p hous2_on_gpu; A
 * is in the memory of node @p a_node. */
static int q_factors_register(struct q_factors *f, char uplo, const double complex *A, int64_t lda, int a_node,
                              const double complex *tau, const double complex *hous2,
                              starpu_data_handle_t hous2_on_gpu, int node)
{
    const double complex *v = A + f->kd;
    const int64_t mq = f->mq;
    int64_t ldv = lda;
    int ret;

    if (uplo == 'U' && mq > 0 && a_node != STARPU_MAIN_RAM) {
        if ((ret = lower_copy_on_gpu(f, A, lda, a_node)) != 0)
            return ret;
        v = (const double complex *)f->vcopy_on_gpu;
        ldv = mq;
    } else if (uplo == 'U' && mq > 0) {
        if ((f->vcopy = calloc((size_t)mq * (size_t)mq, sizeof *f->vcopy)) == NULL) {
            startrd_error("back-transformation: cannot allocate %lld bytes",
                          (long long)(mq * mq * (int64_t)sizeof *f->vcopy));
            return STARTRD_ERR_MEMORY;
        }
        /* By square blocks, so that neither side is walked with a stride
         * of a whole column for long; block columns on the host's threads,
         * StarPU's workers paused meanwhile (no task of this call runs yet). */
        startrd_context_host_parallel(1);
#pragma omp parallel for schedule(dynamic, 1)
        for (int64_t j0 = 0; j0 < mq; j0 += TRANSPOSE_BLOCK)
            for (int64_t r0 = j0; r0 < mq; r0 += TRANSPOSE_BLOCK)
                for (int64_t r = r0; r < r0 + TRANSPOSE_BLOCK && r < mq; r++)
                    for (int64_t j = j0; j < j0 + TRANSPOSE_BLOCK && j < r; j++)
                        f->vcopy[j * mq + r] = CONJ(A[(f->kd + r) * lda + j]);
        startrd_context_host_parallel(0);
        v = f->vcopy;
        ldv = mq;
    }
    starpu_vector_data_register(&f->T, STARPU_MAIN_RAM, (uintptr_t)tau, (uint32_t)mq, sizeof *tau);
    if ((ret = register_reflectors(f, v, ldv, a_node, hous2, hous2_on_gpu, node)) != 0)
        return ret;
    if (node >= 0 && mq > 0) {
        starpu_vector_data_register(&f->q1_factors, -1, 0,
                                    (uint32_t)startrd_zunmqr_q1_factor_entries(f->npieces, f->V),
                                    sizeof(double complex));
        if ((ret = startrd_task_zunmqr_q1_factors(-1, f->npieces, f->V, f->T, f->q1_factors)) != 0) {
            startrd_error("back-transformation: task submission failed (%d)", ret);
            return STARTRD_ERR_RUNTIME;
        }
    }
    if (f->blocked) {
        struct q2_groups *g = &f->groups;

        starpu_vector_data_register(&g->table, STARPU_MAIN_RAM, (uintptr_t)g->qb.table,
                                    (uint32_t)startrd_q2_table_entries(&g->qb), sizeof *g->qb.table);
        starpu_vector_data_register(&g->scratch, -1, 0, (uint32_t)startrd_q2_scratch_entries(&g->qb),
                                    sizeof(double complex));
    }
    return 0;
}

/* Unregisters the handles (waiting for their tasks) and frees the array. */
static void release_blocks(starpu_data_handle_t *blocks, int64_t count)
{
    for (int64_t b = 0; blocks != NULL && b < count; b++)
        if (blocks[b] != NULL)
            starpu_data_unregister(blocks[b]);
    free(blocks);
}

/* After the tasks that read them: unregistering waits for them. */
static void q_factors_release(struct q_factors *f)
{
    starpu_data_handle_t handles[] = {f->T, f->hous2_borrowed ? NULL : f->H, f->q1_factors, f->groups.table,
                                      f->groups.scratch};

    for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++)
        if (handles[i] != NULL)
            starpu_data_unregister(handles[i]);
    release_blocks(f->V, f->npieces);
    q_factors_unblock(f);
    free(f->vcopy);
    if (f->vcopy_on_gpu != 0)
        starpu_free_on_node((unsigned)f->vcopy_node, f->vcopy_on_gpu, (size_t)f->mq * (size_t)f->mq * sizeof *f->vcopy);
}

/* C := Q C or Q^H C for one block, the block of the identity from its
 * column @p identity_col0 (or -1), whose columns Q2's groups skip where
 * they leave them as they are (q2_blocks.h). */
static int q_tasks(const struct q_factors *f, unsigned long long where, int worker, char trans,
                   int64_t identity_col0, starpu_data_handle_t C)
{
    int q1 = 0, q2 = 0;

    if (trans == 'C' && f->mq > 0)
        q1 = startrd_task_zunmqr_q1(where, worker, 'C', f->kd, f->npieces, f->V, f->T, f->q1_factors, C);
    if (f->blocked)
        q2 = startrd_task_zapply_q2_blocks(where, worker, &f->groups.qb, trans, identity_col0, f->H,
                                           f->groups.table, f->groups.scratch, C);
    else if (f->plan.nsweeps > 0)
        q2 = startrd_task_zapply_q2(&f->plan, trans, f->H, C);
    if (trans == 'N' && f->mq > 0)
        q1 = startrd_task_zunmqr_q1(where, worker, 'N', f->kd, f->npieces, f->V, f->T, f->q1_factors, C);
    if (q1 != 0 || q2 != 0) {
        startrd_error("back-transformation: task submission failed");
        return STARTRD_ERR_RUNTIME;
    }
    return 0;
}

/* The memory node of the first GPU StarPU drives. */
static int first_gpu_node(void)
{
    const int worker = startrd_first_cuda_worker();

    return worker >= 0 ? (int)starpu_worker_get_memory_node((unsigned)worker) : -1;
}

/* The task error, or a kernel's failure reported meanwhile. */
static int status_after_tasks(int ret)
{
    return startrd_kernel_failures_take() > 0 && ret == 0 ? STARTRD_ERR_KERNEL : ret;
}

int startrd_zapply_q(char trans, char uplo, int64_t n, int64_t m, int64_t kd, const double complex *A, int64_t lda,
                     int a_node, const double complex *tau, const double complex *hous2,
                     starpu_data_handle_t hous2_on_gpu, double complex *C, int64_t ldc, int c_node,
                     startrd_q2_method_t method, size_t q2_chunk_bytes)
{
    const unsigned ncuda = starpu_cuda_worker_get_count();
    unsigned long long where = STARPU_CPU;
    int64_t width = BLOCK_COLUMNS, nblocks;
    struct q_factors f;
    starpu_data_handle_t *blocks;
    int ret;

    if (n <= 1 || m <= 0)
        return 0;
    ret = q_factors_plan(&f, n, kd, method == STARTRD_Q2_BLOCKS || (method == STARTRD_Q2_AUTO && ncuda > 0),
                         q2_chunk_bytes);
    if (ret != 0) {
        q_factors_unblock(&f);
        return ret;
    }
    if (ncuda > 0) {
        int64_t gpu_width = gpu_block_columns(m, GPU_BLOCKS_PER_WORKER * (int64_t)ncuda);

        /* A block sized for a GPU would hold one CPU core for a minute; but
         * a GPU task holds all of V, HOUS2, a chunk of Q2's groups and its
         * block at once, and where a GPU cannot, the blocks go to the CPU
         * workers. */
        if (startrd_device_memory_gpus_hold(working_set(&f, gpu_width))) {
            where = STARPU_CUDA;
            width = gpu_width;
        }
    }
    /* On the CPU workers the reflectors one by one beat the groups, whose
     * padding doubles the flops (codelet_zapply_q2.c). */
    if (where == STARPU_CPU && method == STARTRD_Q2_AUTO)
        q_factors_unblock(&f);
    if (where == STARPU_CPU)
        width = cpu_block_columns(m);
    nblocks = (m + width - 1) / width;
    if ((blocks = calloc((size_t)nblocks, sizeof *blocks)) == NULL) {
        startrd_error("back-transformation: cannot allocate %lld handles", (long long)nblocks);
        q_factors_unblock(&f);
        return STARTRD_ERR_MEMORY;
    }
    ret = q_factors_register(&f, uplo, A, lda, a_node, tau, hous2, hous2_on_gpu,
                             where == STARPU_CUDA ? first_gpu_node() : -1);
    for (int64_t b = 0; b < nblocks && ret == 0; b++) {
        int64_t cols = m - b * width < width ? m - b * width : width;

        startrd_matrix_register(&blocks[b], c_node, (uintptr_t)(C + b * width * ldc), ldc, n, cols, sizeof *C);
        ret = q_tasks(&f, where, -1, trans, -1, blocks[b]);
    }
    release_blocks(blocks, nblocks);
    q_factors_release(&f);
    return status_after_tasks(ret);
}

struct startrd_zq_former {
    struct q_factors f;
    unsigned long long where;
    int ngpu;                      /* GPUs Q is formed on, or 0 */
    int workers[STARPU_NMAXWORKERS]; /* their workers */
    int64_t nblocks;
    starpu_data_handle_t *blocks;  /* Q's columns, no home: they live on the workers */
};

/* The blocked Q2's groups of the sweeps before @p sweep, which is what a
 * block of the identity that starts there costs. */
static int64_t groups_before(const startrd_q2_blocks_t *qb, int64_t sweep)
{
    const int64_t nS = startrd_q2_groups_before(qb, sweep);
    int64_t groups = 0;

    for (int64_t L = 0; L < qb->nlevels; L++)
        groups += startrd_q2_members_before(&qb->levels[L], nS);
    return groups;
}

/* Block b's worker: blocks from the costliest down, each to the GPU with
 * the least work so far (Q2's groups padded, Q1's reflectors). */
static void assign_workers(const struct q_factors *f, int64_t width, int64_t nblocks, const int *workers,
                           int nworkers, int *block_worker)
{
    double load[STARPU_NMAXWORKERS] = {0};

    for (int64_t b = nblocks - 1; b >= 0; b--) {
        const int64_t n = f->plan.n, cols = n - b * width < width ? n - b * width : width;
        double cost = 8.0 * (double)f->mq * (double)f->mq * (double)cols;
        int best = 0;

        if (f->blocked)
            cost += 16.0 * (double)(f->groups.qb.h * f->groups.qb.b) * (double)cols *
                    (double)groups_before(&f->groups.qb, b * width + cols - 1);
        for (int g = 1; g < nworkers; g++)
            best = load[g] < load[best] ? g : best;
        load[best] += cost;
        block_worker[b] = workers[best];
    }
}

int startrd_zform_q_begin(char uplo, int64_t n, int64_t kd, const double complex *A, int64_t lda, int a_node,
                          const double complex *tau, const double complex *hous2, starpu_data_handle_t hous2_on_gpu,
                          const int *workers, int nworkers, size_t beside_bytes, startrd_zq_former_t **former)
{
    const int on_gpus = workers != NULL && nworkers > 0;
    startrd_zq_former_t *q;
    int64_t width;
    int *block_worker;
    int ret;

    *former = NULL;
    if (n <= 1 || REAL_PER_ENTRY * (n > lda ? n : lda) > INT_MAX || nworkers > STARPU_NMAXWORKERS)
        return 0;
    if ((q = calloc(1, sizeof *q)) == NULL) {
        startrd_error("back-transformation: cannot allocate the state of Q's forming");
        return STARTRD_ERR_MEMORY;
    }
    if ((ret = q_factors_plan(&q->f, n, kd, 1, 0)) != 0) {
        q_factors_unblock(&q->f);
        free(q);
        return ret;
    }
    width = on_gpus ? gpu_block_columns(n, GPU_BLOCKS_PER_WORKER * (int64_t)nworkers) : cpu_block_columns(n);
    /* A GPU holds the factors, its blocks of Q and the caller's work beside
     * them (SIZE_MAX: it cannot); then all of Q, for the products. */
    if (on_gpus && (beside_bytes == SIZE_MAX || !startrd_device_memory_gpus_hold(working_set(&q->f, width) + beside_bytes +
                                                    (size_t)n * (size_t)n * sizeof(double complex) /
                                                        (size_t)nworkers))) {
        q_factors_unblock(&q->f);
        free(q);
        return 0;
    }
    q->where = on_gpus ? STARPU_CUDA : STARPU_CPU;
    q->ngpu = on_gpus ? nworkers : 0;
    for (int g = 0; g < q->ngpu; g++)
        q->workers[g] = workers[g];
    q->nblocks = (n + width - 1) / width;
    q->blocks = calloc((size_t)q->nblocks, sizeof *q->blocks);
    block_worker = malloc((size_t)q->nblocks * sizeof *block_worker);
    ret = q->blocks == NULL || block_worker == NULL ? STARTRD_ERR_MEMORY : 0;
    if (ret != 0)
        startrd_error("back-transformation: cannot allocate %lld handles", (long long)q->nblocks);
    else
        ret = q_factors_register(&q->f, uplo, A, lda, a_node, tau, hous2, hous2_on_gpu,
                                 on_gpus ? (int)starpu_worker_get_memory_node((unsigned)workers[0]) : -1);
    if (ret == 0 && on_gpus)
        assign_workers(&q->f, width, q->nblocks, workers, nworkers, block_worker);
    for (int64_t b = 0; b < q->nblocks && ret == 0; b++) {
        int64_t c0 = b * width, cols = n - c0 < width ? n - c0 : width;
        int worker = on_gpus ? block_worker[b] : -1;

        startrd_matrix_register(&q->blocks[b], -1, 0, n, n, cols, sizeof(double complex));
        if (startrd_task_zlaset_identity(q->where, worker, c0, q->blocks[b]) != 0) {
            startrd_error("back-transformation: task submission failed");
            ret = STARTRD_ERR_RUNTIME;
        } else {
            ret = q_tasks(&q->f, q->where, worker, 'N', c0, q->blocks[b]);
        }
    }
    free(block_worker);
    if (ret != 0) {
        /* Waits for what was submitted. */
        startrd_zform_q_end(q, 0, NULL, 0, NULL, NULL, 0, STARPU_MAIN_RAM);
        return ret;
    }
    *former = q;
    return 0;
}

int64_t startrd_zform_q_block_columns(const startrd_zq_former_t *former, int64_t m)
{
    return former->ngpu > 0 ? gpu_block_columns(m, PRODUCT_BLOCKS_PER_GPU * former->ngpu) : cpu_block_columns(m);
}

int startrd_zform_q_end(startrd_zq_former_t *former, int64_t m, const double *Z, int64_t ldz,
                        const starpu_data_handle_t *z_blocks, double complex *R, int64_t ldr, int r_node)
{
    const int64_t n = former->f.plan.n, width = startrd_zform_q_block_columns(former, m),
                  nblocks = m > 0 ? (m + width - 1) / width : 0;
    /* R's blocks for the host come from the GPUs by CPU workers side by
     * side, not by StarPU's copies from the GPUs' workers, which ran behind
     * the products (docs/experiments.md, "Q's downloads"). */
    const int download = former->ngpu > 0 && r_node == STARPU_MAIN_RAM;
    /* Per block of columns, its Z (registered here unless given) then its R. */
    starpu_data_handle_t *zr = calloc((size_t)(nblocks > 0 ? 2 * nblocks : 1), sizeof *zr);
    int ret = 0;

    if (zr == NULL) {
        startrd_error("back-transformation: cannot allocate %lld handles", 2 * (long long)nblocks);
        ret = STARTRD_ERR_MEMORY;
    } else if (m > 0 && (REAL_PER_ENTRY * ldr > INT_MAX || ldz > INT_MAX)) {
        startrd_error("back-transformation: leading dimensions %lld and %lld are too large for Q's products",
                      (long long)ldr, (long long)ldz);
        ret = STARTRD_ERR_SIZE;
    }
    for (int64_t b = 0; b < nblocks && ret == 0; b++) {
        int64_t cols = m - b * width < width ? m - b * width : width;
        starpu_data_handle_t z = z_blocks != NULL ? z_blocks[b] : NULL;

        if (z == NULL)
            startrd_matrix_register(&zr[2 * b], STARPU_MAIN_RAM, (uintptr_t)(Z + b * width * ldz), ldz, n, cols,
                                    sizeof *Z);
        /* The GPUs take the blocks in turn. */
        int worker = former->ngpu > 0 ? former->workers[b % former->ngpu] : -1;
        double complex *r = R + b * width * ldr;

        if (download)
            startrd_matrix_register(&zr[2 * b + 1], -1, 0, n, n, cols, sizeof *R);
        else
            startrd_matrix_register(&zr[2 * b + 1], r_node, (uintptr_t)r, ldr, n, cols, sizeof *R);
        if (startrd_task_zgemm_real(former->where, worker, former->nblocks, former->blocks,
                                    z != NULL ? z : zr[2 * b], zr[2 * b + 1]) != 0 ||
            (download && startrd_task_zdownload((int)starpu_worker_get_memory_node((unsigned)worker), zr[2 * b + 1],
                                                'A', r, ldr, -1) != 0)) {
            startrd_error("back-transformation: task submission failed");
            ret = STARTRD_ERR_RUNTIME;
        }
    }
    /* R may be the array V is read from (A, for uplo = 'L'): the products
     * come after all of Q's tasks, so V is no longer read once R's blocks
     * are written back. */
    release_blocks(zr, 2 * nblocks);
    release_blocks(former->blocks, former->nblocks);
    q_factors_release(&former->f);
    free(former);
    return status_after_tasks(ret);
}
