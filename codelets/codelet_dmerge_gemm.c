/* One divide-and-conquer merge's eigenvectors for a block of columns (the
 * two products of LAPACK's DLAED3): the top n1 rows from the left
 * subproblem's vectors Q2top (n1 x n12) times rows 0..n12-1 of S, the
 * bottom n2 rows from the right one's Q2bot (n2 x n23) times rows
 * s_bottom..s_bottom+n23-1 of S.  With n12 or n23 = 0 that half is zero. */
#include "codelets.h"
#include "error.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

struct merge_gemm_args {
    int64_t n1, n12, n23, s_bottom;
};

/* The task's buffers, as both implementations read them. */
struct merge_gemm_view {
    const double *q2top, *q2bot, *s;
    double *q;
    int64_t lds, ldq, m, cols, n2;
};

static struct merge_gemm_view view_of(void *buffers[], const struct merge_gemm_args *a)
{
    struct merge_gemm_view v = {
        .q2top = (const double *)STARPU_VECTOR_GET_PTR(buffers[0]),
        .q2bot = (const double *)STARPU_VECTOR_GET_PTR(buffers[1]),
        .s = (const double *)STARPU_MATRIX_GET_PTR(buffers[2]),
        .q = (double *)STARPU_MATRIX_GET_PTR(buffers[3]),
        .lds = STARPU_MATRIX_GET_LD(buffers[2]),
        .ldq = STARPU_MATRIX_GET_LD(buffers[3]),
        .m = STARPU_MATRIX_GET_NX(buffers[3]),
        .cols = STARPU_MATRIX_GET_NY(buffers[3]),
    };

    v.n2 = v.m - a->n1;
    return v;
}

static void merge_gemm_cpu(void *buffers[], void *cl_arg)
{
    const struct merge_gemm_args *a = cl_arg;
    const struct merge_gemm_view v = view_of(buffers, a);

    if (a->n12 > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)a->n1, (int)v.cols, (int)a->n12, 1.0, v.q2top,
                    (int)a->n1, v.s, (int)v.lds, 0.0, v.q, (int)v.ldq);
    if (a->n23 > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)v.n2, (int)v.cols, (int)a->n23, 1.0, v.q2bot,
                    (int)v.n2, v.s + a->s_bottom, (int)v.lds, 0.0, v.q + a->n1, (int)v.ldq);
    for (int64_t j = 0; j < v.cols; j++) {
        if (a->n12 == 0)
            memset(v.q + j * v.ldq, 0, (size_t)a->n1 * sizeof *v.q);
        if (a->n23 == 0)
            memset(v.q + j * v.ldq + a->n1, 0, (size_t)v.n2 * sizeof *v.q);
    }
}

#ifdef STARTRD_USE_CUDA
static void merge_gemm_cuda(void *buffers[], void *cl_arg)
{
    const struct merge_gemm_args *a = cl_arg;
    const struct merge_gemm_view v = view_of(buffers, a);
    const double one = 1.0, zero = 0.0;
    cublasHandle_t handle = starpu_cublas_get_local_handle();
    cudaStream_t stream = starpu_cuda_get_local_stream();
    long st = CUBLAS_STATUS_SUCCESS;

    if (a->n12 > 0)
        st = cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)a->n1, (int)v.cols, (int)a->n12, &one, v.q2top,
                         (int)a->n1, v.s, (int)v.lds, &zero, v.q, (int)v.ldq);
    if (st == CUBLAS_STATUS_SUCCESS && a->n23 > 0)
        st = cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)v.n2, (int)v.cols, (int)a->n23, &one, v.q2bot,
                         (int)v.n2, v.s + a->s_bottom, (int)v.lds, &zero, v.q + a->n1, (int)v.ldq);
    if (st != CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure("dmerge_gemm", "cublasDgemm", st);
        return;
    }
    if (a->n12 == 0)
        st = cudaMemset2DAsync(v.q, (size_t)v.ldq * sizeof *v.q, 0, (size_t)a->n1 * sizeof *v.q, (size_t)v.cols,
                               stream);
    if (st == cudaSuccess && a->n23 == 0)
        st = cudaMemset2DAsync(v.q + a->n1, (size_t)v.ldq * sizeof *v.q, 0, (size_t)v.n2 * sizeof *v.q,
                               (size_t)v.cols, stream);
    if (st != cudaSuccess)
        startrd_kernel_failure("dmerge_gemm", "cudaMemset2DAsync", st);
}
#endif

STARTRD_HISTORY_MODEL(merge_gemm_model, "startrd_dmerge_gemm");

/* Q is only written: mode W spares fetching it to the GPU. */
static struct starpu_codelet merge_gemm_codelet = {
    .name = "dmerge_gemm",
    .cpu_funcs = {merge_gemm_cpu},
    STARTRD_CUDA_ASYNC(merge_gemm_cuda)
    .nbuffers = 4,
    .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_W},
    .model = &merge_gemm_model,
};

int startrd_task_dmerge_gemm(unsigned long long where, int worker, int64_t n1, int64_t n12, int64_t n23,
                             int64_t s_bottom, starpu_data_handle_t Q2top, starpu_data_handle_t Q2bot,
                             starpu_data_handle_t S, starpu_data_handle_t Q)
{
    struct merge_gemm_args *args = malloc(sizeof *args);
    double m = (double)starpu_matrix_get_nx(Q), cols = (double)starpu_matrix_get_ny(Q);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct merge_gemm_args){n1, n12, n23, s_bottom};
    return starpu_task_insert(&merge_gemm_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, Q2top, STARPU_R, Q2bot, STARPU_R, S, STARPU_W, Q,
                              STARPU_EXECUTE_WHERE, where, STARPU_EXECUTE_ON_WORKER, worker,
                              STARPU_FLOPS, 2.0 * cols * ((double)n1 * (double)n12 + (m - (double)n1) * (double)n23),
                              0);
}
