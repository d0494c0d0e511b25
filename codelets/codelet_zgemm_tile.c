/* C = alpha * op(A) * op(B) + beta * C on whole handles.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "cuda_zgemm.h"
#include "error.h"
#include "scalars.h"

#include <cblas.h>
#include <stdlib.h>

struct zgemm_args {
    char transa, transb;
    double complex alpha, beta;
};

static int inner_dim(char trans, void *buffer)
{
    return trans == 'N' ? (int)STARPU_MATRIX_GET_NY(buffer) : (int)STARPU_MATRIX_GET_NX(buffer);
}

static CBLAS_TRANSPOSE cblas_trans(char t)
{
    return t == 'N' ? CblasNoTrans : t == 'T' ? CblasTrans : CblasConjTrans;
}

static void zgemm_cpu(void *buffers[], void *cl_arg)
{
    const struct zgemm_args *a = cl_arg;

    cblas_zgemm(CblasColMajor, cblas_trans(a->transa), cblas_trans(a->transb),
                (int)STARPU_MATRIX_GET_NX(buffers[2]), (int)STARPU_MATRIX_GET_NY(buffers[2]),
                inner_dim(a->transa, buffers[0]), STARTRD_Z_CBLAS(a->alpha),
                (const void *)STARPU_MATRIX_GET_PTR(buffers[0]), (int)STARPU_MATRIX_GET_LD(buffers[0]),
                (const void *)STARPU_MATRIX_GET_PTR(buffers[1]), (int)STARPU_MATRIX_GET_LD(buffers[1]),
                STARTRD_Z_CBLAS(a->beta),
                (void *)STARPU_MATRIX_GET_PTR(buffers[2]), (int)STARPU_MATRIX_GET_LD(buffers[2]));
}

#ifdef STARTRD_USE_CUDA
static cublasOperation_t cublas_trans(char t)
{
    return t == 'N' ? CUBLAS_OP_N : t == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
}

static void zgemm_cuda(void *buffers[], void *cl_arg)
{
    const struct zgemm_args *a = cl_arg;
    /* cuBLAS reads host scalars with loads aligned to their type, which the
     * argument block does not promise for complex ones: it aligns them to
     * 8 bytes, cuBLAS's loads want 16 (a misaligned alpha crashed the
     * complex GEMM on small products). */
    const cuDoubleComplex alpha = STARTRD_Z_CUDA(a->alpha);
    const cuDoubleComplex beta = STARTRD_Z_CUDA(a->beta);
    cublasStatus_t st = startrd_cuda_zgemm(
        starpu_cublas_get_local_handle(), cublas_trans(a->transa), cublas_trans(a->transb),
        (int)STARPU_MATRIX_GET_NX(buffers[2]), (int)STARPU_MATRIX_GET_NY(buffers[2]),
        inner_dim(a->transa, buffers[0]), &alpha,
        (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]), (int)STARPU_MATRIX_GET_LD(buffers[0]),
        (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[1]), (int)STARPU_MATRIX_GET_LD(buffers[1]),
        &beta,
        (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[2]), (int)STARPU_MATRIX_GET_LD(buffers[2]));

    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("zgemm", "startrd_cuda_zgemm", st);
}
#endif

STARTRD_HISTORY_MODEL(zgemm_model, "startrd_zgemm");

/* With beta = 0 the task only writes C: mode W spares fetching it and lets C
 * be a workspace nothing wrote before. */
static struct starpu_codelet zgemm_codelet[2] = {
    {.name = "zgemm", .cpu_funcs = {zgemm_cpu}, STARTRD_CUDA_ASYNC(zgemm_cuda) .nbuffers = 3,
     .modes = {STARPU_R, STARPU_R, STARPU_RW}, .model = &zgemm_model},
    {.name = "zgemm", .cpu_funcs = {zgemm_cpu}, STARTRD_CUDA_ASYNC(zgemm_cuda) .nbuffers = 3,
     .modes = {STARPU_R, STARPU_R, STARPU_W}, .model = &zgemm_model},
};

int startrd_task_zgemm(startrd_place_t place, char transa, char transb,
                       double complex alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                       double complex beta, starpu_data_handle_t C)
{
    struct zgemm_args *args = malloc(sizeof *args);
    double m = (double)starpu_matrix_get_nx(C), n = (double)starpu_matrix_get_ny(C);
    double k = transa == 'N' ? (double)starpu_matrix_get_ny(A) : (double)starpu_matrix_get_nx(A);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct zgemm_args){transa, transb, alpha, beta};
    /* StarPU frees args once the task has run. */
    return starpu_task_insert(&zgemm_codelet[beta == 0.0],
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, A, STARPU_R, B, beta == 0.0 ? STARPU_W : STARPU_RW, C,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_FLOPS, 8.0 * m * n * k,
                              0);
}
