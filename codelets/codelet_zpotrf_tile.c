/* Cholesky factorisation of a diagonal tile in place: LAPACK's on the
 * host, cuSOLVER's on a GPU.  A tile that is not positive definite records
 * the order of its failing minor counted from the matrix's first row, so
 * that the algorithm reports the leading minor of the whole matrix as
 * LAPACK's ZPOTRF would.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"

#include <lapacke.h>
#include <stdlib.h>

struct zpotrf_args {
    char uplo;
    int64_t row0;
    startrd_minor_t *failed;
};

/* The smallest failing order wins: tiles after a failure factor what the
 * failure left and may fail too, but only the first one is B's. */
static void record_failure(startrd_minor_t *failed, int64_t order)
{
    int64_t seen = atomic_load(failed);

    while ((seen == 0 || order < seen) && !atomic_compare_exchange_weak(failed, &seen, order))
        ;
}

static void potrf_cpu(void *buffers[], void *cl_arg)
{
    const struct zpotrf_args *a = cl_arg;
    lapack_int st = LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, a->uplo, (lapack_int)STARPU_MATRIX_GET_NX(buffers[0]),
                                        (lapack_complex_double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                                        (lapack_int)STARPU_MATRIX_GET_LD(buffers[0]));

    if (st > 0)
        record_failure(a->failed, a->row0 + st);
    else if (st < 0)
        startrd_kernel_failure("zpotrf", "LAPACKE_zpotrf_work", st);
}

#ifdef STARTRD_USE_CUDA
/* Synchronous: the factorisation's status comes back to the host before
 * the task ends, and its workspace is the stream's for that time only. */
static void potrf_cuda(void *buffers[], void *cl_arg)
{
    const struct zpotrf_args *a = cl_arg;
    const cublasFillMode_t fill = a->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    cusolverDnHandle_t solver = starpu_cusolverDn_get_local_handle();
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cuDoubleComplex *A = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]), *work = NULL;
    const int n = (int)STARPU_MATRIX_GET_NX(buffers[0]), lda = (int)STARPU_MATRIX_GET_LD(buffers[0]);
    int lwork = 0, info = 0;
    cusolverStatus_t st = cusolverDnZpotrf_bufferSize(solver, fill, n, A, lda, &lwork);
    cudaError_t ce = cudaSuccess;

    if (st != CUSOLVER_STATUS_SUCCESS) {
        startrd_kernel_failure("zpotrf", "cusolverDnZpotrf_bufferSize", st);
        return;
    }
    /* The status word sits after the workspace. */
    ce = cudaMallocAsync((void **)&work, ((size_t)lwork + 1) * sizeof *work, stream);
    if (ce != cudaSuccess) {
        startrd_kernel_failure("zpotrf", "cudaMallocAsync", ce);
        return;
    }
    st = cusolverDnZpotrf(solver, fill, n, A, lda, work, lwork, (int *)(work + lwork));
    if (st == CUSOLVER_STATUS_SUCCESS)
        ce = cudaMemcpyAsync(&info, work + lwork, sizeof info, cudaMemcpyDeviceToHost, stream);
    cudaFreeAsync(work, stream);
    if (ce == cudaSuccess)
        ce = cudaStreamSynchronize(stream);
    if (st != CUSOLVER_STATUS_SUCCESS)
        startrd_kernel_failure("zpotrf", "cusolverDnZpotrf", st);
    else if (ce != cudaSuccess)
        startrd_kernel_failure("zpotrf", "cudaStreamSynchronize", ce);
    else if (info > 0)
        record_failure(a->failed, a->row0 + info);
}
#endif

STARTRD_HISTORY_MODEL(potrf_model, "startrd_zpotrf");

static struct starpu_codelet potrf_codelet = {
    .name = "zpotrf",
    .cpu_funcs = {potrf_cpu},
#ifdef STARTRD_USE_CUDA
    .cuda_funcs = {potrf_cuda},
#endif
    .nbuffers = 1,
    .modes = {STARPU_RW},
    .model = &potrf_model,
};

int startrd_task_zpotrf(startrd_place_t place, char uplo, int64_t row0, starpu_data_handle_t A,
                        startrd_minor_t *failed)
{
    struct zpotrf_args *args = malloc(sizeof *args);
    const double n = (double)starpu_matrix_get_nx(A);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct zpotrf_args){uplo, row0, failed};
    return starpu_task_insert(&potrf_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_RW, A,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_FLOPS, 4.0 * n * n * n / 3.0,
                              0);
}
