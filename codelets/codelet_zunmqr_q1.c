/* C(kd:n-1, :) := Q1 C(kd:n-1, :) or Q1^H C(kd:n-1, :) for a block of
 * columns C, Q1 the stage-1 reflectors: reflector j starts at row j of the
 * (n-kd) x (n-kd) matrix V, ZGEQRF's layout, so LAPACK's ZUNMQR applies
 * them on the host, and the same blocked compact-WY scheme on a GPU. */
#include "codelets.h"
#include "error.h"

#include <lapacke.h>
#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct unmqr_args {
    char trans;
    int64_t kd;
};

static void unmqr_cpu(void *buffers[], void *cl_arg)
{
    const struct unmqr_args *a = cl_arg;
    const double complex *v = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const double complex *tau = (const double complex *)STARPU_VECTOR_GET_PTR(buffers[1]);
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[2]);
    lapack_int m = (lapack_int)STARPU_MATRIX_GET_NX(buffers[0]), k = (lapack_int)STARPU_VECTOR_GET_NX(buffers[1]);
    lapack_int info = LAPACKE_zunmqr(LAPACK_COL_MAJOR, 'L', a->trans, m, (lapack_int)STARPU_MATRIX_GET_NY(buffers[2]),
                                     k, v, (lapack_int)STARPU_MATRIX_GET_LD(buffers[0]), tau, c + a->kd,
                                     (lapack_int)STARPU_MATRIX_GET_LD(buffers[2]));

    if (info != 0)
        startrd_kernel_failure("unmqr_q1", "LAPACKE_zunmqr", info);
}

#ifdef STARTRD_USE_CUDA
/* Reflectors per compact-WY block on a GPU: its GEMM with C is of that depth. */
enum { Q1_BLOCK = 128 };

/* Block by block, each as I - Vb T Vb^H: Vb written out explicitly, T from
 * its Gram matrix, then C -= Vb op(T) (Vb^H C).  cuSOLVER's ZUNMQR does the
 * same, but its 32-bit workspace query refuses the largest orders
 * (docs/architecture.md, "Eigenvectors"). */
static void unmqr_cuda(void *buffers[], void *cl_arg)
{
    const struct unmqr_args *a = cl_arg;
    const cuDoubleComplex *v = (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const cuDoubleComplex *tau = (const cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[1]);
    cuDoubleComplex *c = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[2]) + a->kd, *vb = NULL, *t, *w;
    const int64_t m = STARPU_MATRIX_GET_NX(buffers[0]), k = STARPU_VECTOR_GET_NX(buffers[1]);
    const int64_t ldv = STARPU_MATRIX_GET_LD(buffers[0]), ldc = STARPU_MATRIX_GET_LD(buffers[2]);
    const int64_t cols = STARPU_MATRIX_GET_NY(buffers[2]), nblocks = (k + Q1_BLOCK - 1) / Q1_BLOCK;
    const cublasOperation_t op = a->trans == 'N' ? CUBLAS_OP_N : CUBLAS_OP_C;
    const cuDoubleComplex one = {1.0, 0.0}, zero = {0.0, 0.0}, mone = {-1.0, 0.0};
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cublasHandle_t blas = starpu_cublas_get_local_handle();
    long st;

    if ((st = cudaMallocAsync((void **)&vb, (size_t)(m + Q1_BLOCK + cols) * Q1_BLOCK * sizeof *vb, stream)) !=
        cudaSuccess) {
        startrd_kernel_failure("unmqr_q1", "cudaMallocAsync", st);
        return;
    }
    t = vb + m * Q1_BLOCK;
    w = t + Q1_BLOCK * Q1_BLOCK;
    /* Q C takes the blocks from the last, Q^H C from the first. */
    for (int64_t i = 0; i < nblocks; i++) {
        const int64_t j0 = (a->trans == 'N' ? nblocks - 1 - i : i) * Q1_BLOCK;
        const int kb = (int)(k - j0 < Q1_BLOCK ? k - j0 : Q1_BLOCK), rows = (int)(m - j0);

        if ((st = startrd_cuda_zpanel_v(rows, kb, v + j0 * ldv + j0, ldv, vb, rows, 0, rows, stream)) !=
            cudaSuccess) {
            startrd_kernel_failure("unmqr_q1", "zpanel_v kernel", st);
            break;
        }
        if ((st = cublasZgemm(blas, CUBLAS_OP_C, CUBLAS_OP_N, kb, kb, rows, &one, vb, rows, vb, rows, &zero, t, kb)) !=
            CUBLAS_STATUS_SUCCESS) {
            startrd_kernel_failure("unmqr_q1", "cublasZgemm", st);
            break;
        }
        if ((st = startrd_cuda_zlarft_gram(kb, 1, tau + j0, 0, t, kb, 0, stream)) != cudaSuccess) {
            startrd_kernel_failure("unmqr_q1", "zlarft_gram kernel", st);
            break;
        }
        if ((st = cublasZgemm(blas, CUBLAS_OP_C, CUBLAS_OP_N, kb, (int)cols, rows, &one, vb, rows, c + j0, (int)ldc,
                              &zero, w, kb)) != CUBLAS_STATUS_SUCCESS ||
            (st = cublasZtrmm(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, op, CUBLAS_DIAG_NON_UNIT, kb, (int)cols,
                              &one, t, kb, w, kb, w, kb)) != CUBLAS_STATUS_SUCCESS ||
            (st = cublasZgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, rows, (int)cols, kb, &mone, vb, rows, w, kb, &one,
                              c + j0, (int)ldc)) != CUBLAS_STATUS_SUCCESS) {
            startrd_kernel_failure("unmqr_q1", "cuBLAS update", st);
            break;
        }
    }
    if ((st = cudaFreeAsync(vb, stream)) != cudaSuccess)
        startrd_kernel_failure("unmqr_q1", "cudaFreeAsync", st);
}
#endif

STARTRD_HISTORY_MODEL(unmqr_model, "startrd_zunmqr_q1");

static struct starpu_codelet unmqr_codelet = {
    .name = "zunmqr_q1",
    .cpu_funcs = {unmqr_cpu},
    STARTRD_CUDA_ASYNC(unmqr_cuda)
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_R, STARPU_RW},
    .model = &unmqr_model,
};

int startrd_task_zunmqr_q1(unsigned long long where, int worker, char trans, int64_t kd, starpu_data_handle_t V,
                           starpu_data_handle_t tau, starpu_data_handle_t C)
{
    struct unmqr_args *args = malloc(sizeof *args);
    double m = (double)starpu_matrix_get_nx(V);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct unmqr_args){trans, kd};
    return starpu_task_insert(&unmqr_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, V, STARPU_R, tau, STARPU_RW, C,
                              STARPU_EXECUTE_WHERE, where, STARPU_EXECUTE_ON_WORKER, worker,
                              STARPU_FLOPS, 8.0 * m * m * (double)starpu_matrix_get_ny(C),
                              0);
}
