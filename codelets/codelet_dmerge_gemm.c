/* One divide-and-conquer merge's eigenvectors for a block of columns (the
 * two products of LAPACK's DLAED3): the top n1 rows from the left
 * subproblem's vectors (n1 x n12, packed in Q2) times rows 0..n12-1 of S,
 * the bottom m-n1 rows from the right one's ((m-n1) x n23, after them)
 * times rows s_bottom..s_bottom+n23-1 of S.  With n12 or n23 = 0 that half
 * is zero.  The buffers are seen from the offsets in startrd_dmerge_gemm_t,
 * so that a task may take a merge's own handles or whole arrays that a
 * level's merges share.
 *
 * @precisions normal d -> s
 */
#include "codelets_dstedc.h"
#include "cuda_lanes.h"
#include "error.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

/* The task's buffers, as both implementations read them. */
struct merge_gemm_view {
    const double *q2top, *q2bot, *s;
    double *q;
    int64_t ldq, n2;
};

static struct merge_gemm_view view_of(void *buffers[], const startrd_dmerge_gemm_t *g)
{
    const double *q2 = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]) + g->q2_offset;

    return (struct merge_gemm_view){
        .q2top = q2,
        .q2bot = q2 + g->n1 * g->n12,
        .s = (const double *)STARPU_MATRIX_GET_PTR(buffers[1]) + g->s_offset,
        .q = (double *)STARPU_MATRIX_GET_PTR(buffers[2]) + g->q_offset,
        .ldq = STARPU_MATRIX_GET_LD(buffers[2]),
        .n2 = g->m - g->n1,
    };
}

static void merge_gemm_cpu(void *buffers[], void *cl_arg)
{
    const startrd_dmerge_gemm_t *g = cl_arg;
    const struct merge_gemm_view v = view_of(buffers, g);

    if (g->n12 > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)g->n1, (int)g->cols, (int)g->n12, 1.0, v.q2top,
                    (int)g->n1, v.s, (int)g->k, 0.0, v.q, (int)v.ldq);
    if (g->n23 > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)v.n2, (int)g->cols, (int)g->n23, 1.0, v.q2bot,
                    (int)v.n2, v.s + g->s_bottom, (int)g->k, 0.0, v.q + g->n1, (int)v.ldq);
    for (int64_t j = 0; j < g->cols; j++) {
        if (g->n12 == 0)
            memset(v.q + j * v.ldq, 0, (size_t)g->n1 * sizeof *v.q);
        if (g->n23 == 0)
            memset(v.q + j * v.ldq + g->n1, 0, (size_t)v.n2 * sizeof *v.q);
    }
}

#ifdef STARTRD_USE_CUDA
static void merge_gemm_cuda(void *buffers[], void *cl_arg)
{
    const startrd_dmerge_gemm_t *g = cl_arg;
    const struct merge_gemm_view v = view_of(buffers, g);
    const double one = 1.0, zero = 0.0;
    const startrd_cuda_lanes_t *lane = startrd_cuda_fork_urgent();
    long st = CUBLAS_STATUS_SUCCESS;

    if (lane == NULL)
        return;
    if (g->n12 > 0)
        st = cublasDgemm(lane->blas[0], CUBLAS_OP_N, CUBLAS_OP_N, (int)g->n1, (int)g->cols, (int)g->n12, &one,
                         v.q2top, (int)g->n1, v.s, (int)g->k, &zero, v.q, (int)v.ldq);
    if (st == CUBLAS_STATUS_SUCCESS && g->n23 > 0)
        st = cublasDgemm(lane->blas[0], CUBLAS_OP_N, CUBLAS_OP_N, (int)v.n2, (int)g->cols, (int)g->n23, &one,
                         v.q2bot, (int)v.n2, v.s + g->s_bottom, (int)g->k, &zero, v.q + g->n1, (int)v.ldq);
    if (st != CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure("dmerge_gemm", "cublasDgemm", st);
    } else {
        if (g->n12 == 0)
            st = cudaMemset2DAsync(v.q, (size_t)v.ldq * sizeof *v.q, 0, (size_t)g->n1 * sizeof *v.q,
                                   (size_t)g->cols, lane->stream[0]);
        if (st == cudaSuccess && g->n23 == 0)
            st = cudaMemset2DAsync(v.q + g->n1, (size_t)v.ldq * sizeof *v.q, 0, (size_t)v.n2 * sizeof *v.q,
                                   (size_t)g->cols, lane->stream[0]);
        if (st != cudaSuccess)
            startrd_kernel_failure("dmerge_gemm", "cudaMemset2DAsync", st);
    }
    startrd_cuda_join(lane);
}
#endif

STARTRD_HISTORY_MODEL(merge_gemm_model, "startrd_dmerge_gemm");

/* A merge's own block of Q is only written: mode W spares fetching it to
 * the GPU.  An array the level's merges share keeps its other columns. */
static struct starpu_codelet merge_gemm_codelet = {
    .name = "dmerge_gemm",
    .cpu_funcs = {merge_gemm_cpu},
    STARTRD_CUDA_ASYNC(merge_gemm_cuda)
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_R, STARPU_W},
    .model = &merge_gemm_model,
};

static struct starpu_codelet merge_gemm_shared_codelet = {
    .name = "dmerge_gemm_shared",
    .cpu_funcs = {merge_gemm_cpu},
    STARTRD_CUDA_ASYNC(merge_gemm_cuda)
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_R, STARPU_RW},
};

int startrd_task_dmerge_gemm(unsigned long long where, int worker, const startrd_dmerge_gemm_t *g, int shared,
                             starpu_data_handle_t Q2, starpu_data_handle_t S, starpu_data_handle_t Q)
{
    startrd_dmerge_gemm_t *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = *g;
    return starpu_task_insert(shared ? &merge_gemm_shared_codelet : &merge_gemm_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, Q2, STARPU_R, S, shared ? STARPU_RW : STARPU_W, Q,
                              STARPU_EXECUTE_WHERE, where, STARPU_EXECUTE_ON_WORKER, worker,
                              STARPU_FLOPS,
                              2.0 * (double)g->cols * ((double)g->n1 * (double)g->n12 +
                                                       (double)(g->m - g->n1) * (double)g->n23),
                              0);
}
