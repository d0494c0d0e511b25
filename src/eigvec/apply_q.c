/* The back-transformation as tasks: each block of columns of C goes through
 * Q2 then Q1 (Q C), or Q1^H then Q2^H (Q^H C); blocks are independent, so
 * the workers take them in parallel.  The stage-1 reflectors are read in
 * place for uplo = 'L'; for 'U' they are stored conjugated along rows, and a
 * lower copy puts them in ZGEQRF's layout once for all blocks.  Q2 goes
 * reflector by reflector on the host, or, where GPUs take part, in the
 * GEMM-sized groups of q2_blocks.h, which each task builds from HOUS2 a
 * chunk at a time. */
#include "apply_q.h"

#include "codelets.h"
#include "descriptor.h"
#include "device_memory.h"
#include "error.h"
#include "startrd.h"

#include <stdlib.h>

/* Columns of C per task: wide enough for ZUNMQR's GEMMs, narrow enough to
 * keep every CPU worker busy at the sizes that matter, and narrower still
 * (down to MIN_CPU_COLUMNS) when there are fewer columns than workers
 * times BLOCK_COLUMNS; on GPUs, a few blocks per GPU, which still pipeline
 * the copies with the work. */
enum { BLOCK_COLUMNS = 128, MIN_CPU_COLUMNS = 8, GPU_BLOCKS_PER_WORKER = 4, TRANSPOSE_BLOCK = 64 };

/* V and Y of one chunk of the blocked Q2, the scratch each task that
 * applies it builds them in: big enough for batches of some thousand
 * groups. */
#define Q2_CHUNK_BYTES ((size_t)256 << 20)

/* The blocked Q2: its plan, the per-sweep table the GPUs read, and the
 * scratch the tasks build the groups in. */
struct q2_groups {
    startrd_q2_blocks_t qb;
    starpu_data_handle_t sweeps, scratch;
};

static int q2_groups_register(struct q2_groups *g)
{
    int64_t len = startrd_q2_scratch_entries(&g->qb);

    if (!startrd_fits_handle(len)) {
        startrd_error("back-transformation: a chunk of Q2's groups is longer than StarPU's 32-bit data sizes");
        return STARTRD_ERR_SIZE;
    }
    starpu_vector_data_register(&g->sweeps, STARPU_MAIN_RAM, (uintptr_t)g->qb.sweeps,
                                (uint32_t)(2 * g->qb.plan.nsweeps), sizeof *g->qb.sweeps);
    starpu_vector_data_register(&g->scratch, -1, 0, (uint32_t)len, sizeof(double complex));
    return 0;
}

/* After the tasks that read them. */
static void q2_groups_release(struct q2_groups *g)
{
    if (g->sweeps != NULL)
        starpu_data_unregister(g->sweeps);
    if (g->scratch != NULL)
        starpu_data_unregister(g->scratch);
    startrd_q2_blocks_free(&g->qb);
}

static int64_t cpu_block_columns(int64_t m)
{
    int64_t ncpu = starpu_cpu_worker_get_count() > 0 ? starpu_cpu_worker_get_count() : 1,
            share = (m + ncpu - 1) / ncpu;

    return share < MIN_CPU_COLUMNS ? MIN_CPU_COLUMNS : share > BLOCK_COLUMNS ? BLOCK_COLUMNS : share;
}

/* The bytes a GPU holds at once: V, a block, and for the blocked Q2
 * HOUS2, the scratch that builds a chunk's groups, and the task's padded
 * copy of its block and product of a level (codelet_zapply_q2_blocks.c). */
static size_t working_set(const struct q2_groups *g, int blocked, int64_t mq, int64_t n, int64_t width)
{
    size_t bytes = ((size_t)mq * (size_t)mq + (size_t)n * (size_t)width) * sizeof(double complex);

    if (blocked)
        bytes += ((size_t)startrd_bulge_lhous(&g->qb.plan) + (size_t)startrd_q2_scratch_entries(&g->qb) +
                  (size_t)(n + g->qb.h + g->qb.maxcount * g->qb.b) * (size_t)width) * sizeof(double complex);
    return bytes;
}

int startrd_apply_q(char trans, char uplo, int64_t n, int64_t m, int64_t kd, const double complex *A, int64_t lda,
                    const double complex *tau, const double complex *hous2, double complex *C, int64_t ldc,
                    startrd_q2_method_t method, size_t q2_chunk_bytes)
{
    const int64_t mq = n - kd;
    const unsigned ncuda = starpu_cuda_worker_get_count();
    unsigned long long where = STARPU_CPU;
    int64_t width = BLOCK_COLUMNS, nblocks;
    startrd_bulge_plan_t plan;
    struct q2_groups groups = {0};
    starpu_data_handle_t V = NULL, T = NULL, H = NULL, *blocks;
    double complex *vcopy = NULL;
    const double complex *v = A + kd;
    int64_t ldv = lda;
    int ret = 0, blocked;

    if (n <= 1 || m <= 0)
        return 0;
    if (startrd_bulge_plan_init(&plan, 'V', n, kd) != 0) {
        startrd_error("back-transformation: invalid band n=%lld kd=%lld", (long long)n, (long long)kd);
        return STARTRD_ERR_STATE;
    }
    if (!startrd_fits_handle(startrd_bulge_lhous(&plan))) {
        startrd_error("back-transformation: HOUS2 of order %lld is longer than StarPU's 32-bit data sizes",
                      (long long)n);
        return STARTRD_ERR_SIZE;
    }
    blocked = plan.nsweeps > 0 && (method == STARTRD_Q2_BLOCKS || (method == STARTRD_Q2_AUTO && ncuda > 0));
    if (q2_chunk_bytes == 0)
        q2_chunk_bytes = Q2_CHUNK_BYTES;
    if (blocked && startrd_q2_blocks_init(&groups.qb, &plan, q2_chunk_bytes) != 0) {
        startrd_error("back-transformation: cannot allocate the plan of Q2's blocks");
        return STARTRD_ERR_MEMORY;
    }
    if (ncuda > 0) {
        int64_t share = (m + GPU_BLOCKS_PER_WORKER * ncuda - 1) / (GPU_BLOCKS_PER_WORKER * ncuda),
                gpu_width = share > width ? (share + 63) / 64 * 64 : width;

        /* A block sized for a GPU would hold one CPU core for a minute; but
         * a GPU task holds all of V, HOUS2, a chunk of Q2's groups and its
         * block at once, and where a GPU cannot, the blocks go to the CPU
         * workers. */
        if (startrd_device_memory_gpus_hold(working_set(&groups, blocked, mq, n, gpu_width))) {
            where = STARPU_CUDA;
            width = gpu_width;
        }
    }
    /* On the CPU workers the reflectors one by one beat the groups, whose
     * padding doubles the flops (codelet_zapply_q2.c). */
    if (where == STARPU_CPU && blocked && method == STARTRD_Q2_AUTO) {
        startrd_q2_blocks_free(&groups.qb);
        blocked = 0;
    }
    if (where == STARPU_CPU)
        width = cpu_block_columns(m);
    nblocks = (m + width - 1) / width;
    blocks = calloc((size_t)nblocks, sizeof *blocks);
    if (uplo == 'U' && mq > 0) {
        vcopy = calloc((size_t)mq * (size_t)mq, sizeof *vcopy);
        /* By square blocks, so that neither side is walked with a stride
         * of a whole column for long. */
        for (int64_t j0 = 0; vcopy != NULL && j0 < mq; j0 += TRANSPOSE_BLOCK)
            for (int64_t r0 = j0; r0 < mq; r0 += TRANSPOSE_BLOCK)
                for (int64_t r = r0; r < r0 + TRANSPOSE_BLOCK && r < mq; r++)
                    for (int64_t j = j0; j < j0 + TRANSPOSE_BLOCK && j < r; j++)
                        vcopy[j * mq + r] = conj(A[(kd + r) * lda + j]);
        v = vcopy;
        ldv = mq;
    }
    if (blocks == NULL || (uplo == 'U' && mq > 0 && vcopy == NULL)) {
        startrd_error("back-transformation: cannot allocate %lld bytes", (long long)(mq * mq * 16));
        free(blocks);
        free(vcopy);
        if (blocked)
            startrd_q2_blocks_free(&groups.qb);
        return STARTRD_ERR_MEMORY;
    }
    /* Read only: the casts let StarPU register the caller's const arrays. */
    startrd_matrix_register(&V, STARPU_MAIN_RAM, (uintptr_t)v, ldv, mq, mq, sizeof *v);
    starpu_vector_data_register(&T, STARPU_MAIN_RAM, (uintptr_t)tau, (uint32_t)mq, sizeof *tau);
    starpu_vector_data_register(&H, STARPU_MAIN_RAM, (uintptr_t)hous2, (uint32_t)startrd_bulge_lhous(&plan),
                                sizeof *hous2);
    if (blocked)
        ret = q2_groups_register(&groups);
    for (int64_t b = 0; b < nblocks && ret == 0; b++) {
        int64_t cols = m - b * width < width ? m - b * width : width;
        int q2 = 0, q1 = 0;

        startrd_matrix_register(&blocks[b], STARPU_MAIN_RAM, (uintptr_t)(C + b * width * ldc), ldc, n, cols,
                                sizeof *C);
        if (trans == 'C')
            q1 = mq > 0 ? startrd_task_zunmqr_q1(where, 'C', kd, V, T, blocks[b]) : 0;
        if (blocked)
            q2 = startrd_task_zapply_q2_blocks(where, &groups.qb, trans, H, groups.sweeps, groups.scratch,
                                               blocks[b]);
        else if (plan.nsweeps > 0)
            q2 = startrd_task_zapply_q2(&plan, trans, H, blocks[b]);
        if (trans == 'N')
            q1 = mq > 0 ? startrd_task_zunmqr_q1(where, 'N', kd, V, T, blocks[b]) : 0;
        ret = q1 != 0 || q2 != 0 ? STARTRD_ERR_RUNTIME : 0;
    }
    if (ret == STARTRD_ERR_RUNTIME)
        startrd_error("back-transformation: task submission failed");
    /* Unregistering waits for the tasks on each handle. */
    for (int64_t b = 0; b < nblocks; b++)
        if (blocks[b] != NULL)
            starpu_data_unregister(blocks[b]);
    if (blocked)
        q2_groups_release(&groups);
    starpu_data_unregister(V);
    starpu_data_unregister(T);
    starpu_data_unregister(H);
    if (startrd_kernel_failures_take() > 0 && ret == 0)
        ret = STARTRD_ERR_KERNEL;
    free(blocks);
    free(vcopy);
    return ret;
}
