/* The back-transformation as tasks: each block of columns of C goes through
 * Q2 then Q1 (Q C), or Q1^H then Q2^H (Q^H C); blocks are independent, so
 * the CPU workers take them in parallel.  The stage-1 reflectors are read in
 * place for uplo = 'L'; for 'U' they are stored conjugated along rows, and a
 * lower copy puts them in ZGEQRF's layout once for all blocks. */
#include "apply_q.h"

#include "codelets.h"
#include "error.h"
#include "startrd.h"

#include <stdlib.h>

/* Columns of C per task: wide enough for ZUNMQR's GEMMs, narrow enough to
 * keep every CPU worker busy at the sizes that matter. */
enum { BLOCK_COLUMNS = 128, TRANSPOSE_BLOCK = 64 };

int startrd_apply_q(char trans, char uplo, int64_t n, int64_t m, int64_t kd, const double complex *A, int64_t lda,
                    const double complex *tau, const double complex *hous2, double complex *C, int64_t ldc)
{
    const int64_t mq = n - kd, nblocks = (m + BLOCK_COLUMNS - 1) / BLOCK_COLUMNS;
    startrd_bulge_plan_t plan;
    starpu_data_handle_t V = NULL, T = NULL, H = NULL, *blocks;
    double complex *vcopy = NULL;
    const double complex *v = A + kd;
    int64_t ldv = lda;
    int ret = 0;

    if (n <= 1 || m <= 0)
        return 0;
    if (startrd_bulge_plan_init(&plan, 'V', n, kd) != 0) {
        startrd_error("back-transformation: invalid band n=%lld kd=%lld", (long long)n, (long long)kd);
        return STARTRD_ERR_STATE;
    }
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
        return STARTRD_ERR_MEMORY;
    }
    /* Read only: the casts let StarPU register the caller's const arrays. */
    starpu_matrix_data_register(&V, STARPU_MAIN_RAM, (uintptr_t)v, (uint32_t)ldv, (uint32_t)mq, (uint32_t)mq,
                                sizeof *v);
    starpu_vector_data_register(&T, STARPU_MAIN_RAM, (uintptr_t)tau, (uint32_t)mq, sizeof *tau);
    starpu_vector_data_register(&H, STARPU_MAIN_RAM, (uintptr_t)hous2, (uint32_t)startrd_bulge_lhous(&plan),
                                sizeof *hous2);
    for (int64_t b = 0; b < nblocks && ret == 0; b++) {
        int64_t cols = m - b * BLOCK_COLUMNS < BLOCK_COLUMNS ? m - b * BLOCK_COLUMNS : BLOCK_COLUMNS;

        starpu_matrix_data_register(&blocks[b], STARPU_MAIN_RAM, (uintptr_t)(C + b * BLOCK_COLUMNS * ldc),
                                    (uint32_t)ldc, (uint32_t)n, (uint32_t)cols, sizeof *C);
        if (trans == 'N') {
            ret |= startrd_task_zapply_q2(&plan, 'N', H, blocks[b]);
            ret |= mq > 0 ? startrd_task_zunmqr_q1('N', kd, V, T, blocks[b]) : 0;
        } else {
            ret |= mq > 0 ? startrd_task_zunmqr_q1('C', kd, V, T, blocks[b]) : 0;
            ret |= startrd_task_zapply_q2(&plan, 'C', H, blocks[b]);
        }
    }
    if (ret != 0) {
        startrd_error("back-transformation: task submission failed (%d)", ret);
        ret = STARTRD_ERR_RUNTIME;
    }
    /* Unregistering waits for the tasks on each block. */
    for (int64_t b = 0; b < nblocks; b++)
        if (blocks[b] != NULL)
            starpu_data_unregister(blocks[b]);
    starpu_data_unregister(V);
    starpu_data_unregister(T);
    starpu_data_unregister(H);
    if (startrd_kernel_failures_take() > 0 && ret == 0)
        ret = STARTRD_ERR_KERNEL;
    free(blocks);
    free(vcopy);
    return ret;
}
