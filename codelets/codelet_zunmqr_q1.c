/* C(kd:n-1, :) := Q1 C(kd:n-1, :) or Q1^H C(kd:n-1, :) for a block of
 * columns C, Q1 the stage-1 reflectors: reflector j starts at row j of the
 * (n-kd) x (n-kd) matrix V, ZGEQRF's layout, so LAPACK's ZUNMQR applies
 * them, blocked, on the host and, through cuSOLVER, on a GPU. */
#include "codelets.h"
#include "error.h"

#include <lapacke.h>
#include <stdlib.h>

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
static void unmqr_cuda(void *buffers[], void *cl_arg)
{
    const struct unmqr_args *a = cl_arg;
    const cuDoubleComplex *v = (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const cuDoubleComplex *tau = (const cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[1]);
    cuDoubleComplex *c = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[2]) + a->kd, *work = NULL;
    int m = (int)STARPU_MATRIX_GET_NX(buffers[0]), k = (int)STARPU_VECTOR_GET_NX(buffers[1]);
    int ldv = (int)STARPU_MATRIX_GET_LD(buffers[0]), ldc = (int)STARPU_MATRIX_GET_LD(buffers[2]);
    int cols = (int)STARPU_MATRIX_GET_NY(buffers[2]), lwork = 0;
    cublasOperation_t op = a->trans == 'N' ? CUBLAS_OP_N : CUBLAS_OP_C;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cusolverDnHandle_t solver = starpu_cusolverDn_get_local_handle();
    long st;

    if ((st = cusolverDnSetStream(solver, stream)) != CUSOLVER_STATUS_SUCCESS ||
        (st = cusolverDnZunmqr_bufferSize(solver, CUBLAS_SIDE_LEFT, op, m, cols, k, v, ldv, tau, c, ldc, &lwork)) !=
            CUSOLVER_STATUS_SUCCESS) {
        startrd_kernel_failure("unmqr_q1", "cusolverDnZunmqr_bufferSize", st);
        return;
    }
    /* Stream-ordered scratch: the workspace and unmqr's info, which only
     * reports invalid arguments and is not read. */
    if ((st = cudaMallocAsync((void **)&work, ((size_t)lwork + 1) * sizeof *work, stream)) != cudaSuccess) {
        startrd_kernel_failure("unmqr_q1", "cudaMallocAsync", st);
        return;
    }
    if ((st = cusolverDnZunmqr(solver, CUBLAS_SIDE_LEFT, op, m, cols, k, v, ldv, tau, c, ldc, work, lwork,
                               (int *)(work + lwork))) != CUSOLVER_STATUS_SUCCESS)
        startrd_kernel_failure("unmqr_q1", "cusolverDnZunmqr", st);
    if ((st = cudaFreeAsync(work, stream)) != cudaSuccess)
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

int startrd_task_zunmqr_q1(unsigned long long where, char trans, int64_t kd, starpu_data_handle_t V,
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
                              STARPU_EXECUTE_WHERE, where,
                              STARPU_FLOPS, 8.0 * m * m * (double)starpu_matrix_get_ny(C),
                              0);
}
