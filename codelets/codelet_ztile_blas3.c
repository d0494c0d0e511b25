/* Level-3 BLAS on whole tiles beside GEMM (codelet_zgemm_tile.c): TRSM and
 * TRMM, B := alpha op(T)^-1 B or alpha op(T) B (side 'L') or the same from
 * the right, T triangular with a non-unit diagonal; and HERK on one
 * triangle of a tile.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "codelets_z.h"
#include "error.h"
#include "scalars.h"

#include <cblas.h>
#include <stdlib.h>

/* op 'C' is the transpose in the real precisions, which BLAS and cuBLAS
 * name so. */
#ifdef COMPLEX
#define STARTRD_CBLAS_ADJOINT CblasConjTrans
#define STARTRD_CUBLAS_ADJOINT CUBLAS_OP_C
#else
#define STARTRD_CBLAS_ADJOINT CblasTrans
#define STARTRD_CUBLAS_ADJOINT CUBLAS_OP_T
#endif

struct ztriangular_args {
    char side, uplo, trans;
    int solve;   /* 1: TRSM, 0: TRMM */
    double complex alpha;
};

static void triangular_cpu(void *buffers[], void *cl_arg)
{
    const struct ztriangular_args *a = cl_arg;
    const CBLAS_SIDE side = a->side == 'L' ? CblasLeft : CblasRight;
    const CBLAS_UPLO uplo = a->uplo == 'L' ? CblasLower : CblasUpper;
    const CBLAS_TRANSPOSE trans = a->trans == 'N' ? CblasNoTrans : STARTRD_CBLAS_ADJOINT;
    const int m = (int)STARPU_MATRIX_GET_NX(buffers[1]), n = (int)STARPU_MATRIX_GET_NY(buffers[1]);
    const void *T = (const void *)STARPU_MATRIX_GET_PTR(buffers[0]);
    void *B = (void *)STARPU_MATRIX_GET_PTR(buffers[1]);
    const int ldt = (int)STARPU_MATRIX_GET_LD(buffers[0]), ldb = (int)STARPU_MATRIX_GET_LD(buffers[1]);

    if (a->solve)
        cblas_ztrsm(CblasColMajor, side, uplo, trans, CblasNonUnit, m, n, STARTRD_Z_CBLAS(a->alpha), T, ldt, B,
                    ldb);
    else
        cblas_ztrmm(CblasColMajor, side, uplo, trans, CblasNonUnit, m, n, STARTRD_Z_CBLAS(a->alpha), T, ldt, B,
                    ldb);
}

#ifdef STARTRD_USE_CUDA
static void triangular_cuda(void *buffers[], void *cl_arg)
{
    const struct ztriangular_args *a = cl_arg;
    const cublasSideMode_t side = a->side == 'L' ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
    const cublasFillMode_t uplo = a->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    const cublasOperation_t trans = a->trans == 'N' ? CUBLAS_OP_N : STARTRD_CUBLAS_ADJOINT;
    const int m = (int)STARPU_MATRIX_GET_NX(buffers[1]), n = (int)STARPU_MATRIX_GET_NY(buffers[1]);
    const cuDoubleComplex *T = (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    cuDoubleComplex *B = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[1]);
    const int ldt = (int)STARPU_MATRIX_GET_LD(buffers[0]), ldb = (int)STARPU_MATRIX_GET_LD(buffers[1]);
    /* A copy aligned for cuBLAS's loads (see codelet_zgemm_tile.c). */
    const cuDoubleComplex alpha = STARTRD_Z_CUDA(a->alpha);
    cublasStatus_t st;

    /* cuBLAS's TRMM writes a third matrix; given B again it works in place. */
    if (a->solve)
        st = cublasZtrsm(starpu_cublas_get_local_handle(), side, uplo, trans, CUBLAS_DIAG_NON_UNIT, m, n, &alpha, T,
                         ldt, B, ldb);
    else
        st = cublasZtrmm(starpu_cublas_get_local_handle(), side, uplo, trans, CUBLAS_DIAG_NON_UNIT, m, n, &alpha, T,
                         ldt, B, ldb, B, ldb);
    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure(a->solve ? "ztrsm" : "ztrmm", a->solve ? "cublasZtrsm" : "cublasZtrmm", st);
}
#endif

STARTRD_HISTORY_MODEL(trsm_model, "startrd_ztrsm");
STARTRD_HISTORY_MODEL(trmm_model, "startrd_ztrmm");

static struct starpu_codelet triangular_codelet[2] = {
    {.name = "ztrmm", .cpu_funcs = {triangular_cpu}, STARTRD_CUDA_ASYNC(triangular_cuda) .nbuffers = 2,
     .modes = {STARPU_R, STARPU_RW}, .model = &trmm_model},
    {.name = "ztrsm", .cpu_funcs = {triangular_cpu}, STARTRD_CUDA_ASYNC(triangular_cuda) .nbuffers = 2,
     .modes = {STARPU_R, STARPU_RW}, .model = &trsm_model},
};

static int insert(int solve, startrd_place_t place, char side, char uplo, char trans, double complex alpha,
                  starpu_data_handle_t T, starpu_data_handle_t B)
{
    struct ztriangular_args *args = malloc(sizeof *args);
    const double m = (double)starpu_matrix_get_nx(B), n = (double)starpu_matrix_get_ny(B);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct ztriangular_args){side, uplo, trans, solve, alpha};
    return starpu_task_insert(&triangular_codelet[solve],
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, T, STARPU_RW, B,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_FLOPS, 4.0 * m * n * (side == 'L' ? m : n),
                              0);
}

int startrd_task_ztrsm(startrd_place_t place, char side, char uplo, char trans, double complex alpha,
                       starpu_data_handle_t T, starpu_data_handle_t B)
{
    return insert(1, place, side, uplo, trans, alpha, T, B);
}

int startrd_task_ztrmm(startrd_place_t place, char side, char uplo, char trans, double complex alpha,
                       starpu_data_handle_t T, starpu_data_handle_t B)
{
    return insert(0, place, side, uplo, trans, alpha, T, B);
}

struct zherk_args {
    char uplo, trans;
    double alpha, beta;
};

static void herk_cpu(void *buffers[], void *cl_arg)
{
    const struct zherk_args *a = cl_arg;
    const int n = (int)STARPU_MATRIX_GET_NX(buffers[1]);
    const int k = a->trans == 'N' ? (int)STARPU_MATRIX_GET_NY(buffers[0]) : (int)STARPU_MATRIX_GET_NX(buffers[0]);

    cblas_zherk(CblasColMajor, a->uplo == 'L' ? CblasLower : CblasUpper,
                a->trans == 'N' ? CblasNoTrans : STARTRD_CBLAS_ADJOINT, n, k, a->alpha,
                (const void *)STARPU_MATRIX_GET_PTR(buffers[0]), (int)STARPU_MATRIX_GET_LD(buffers[0]), a->beta,
                (void *)STARPU_MATRIX_GET_PTR(buffers[1]), (int)STARPU_MATRIX_GET_LD(buffers[1]));
}

#ifdef STARTRD_USE_CUDA
static void herk_cuda(void *buffers[], void *cl_arg)
{
    const struct zherk_args *a = cl_arg;
    const int n = (int)STARPU_MATRIX_GET_NX(buffers[1]);
    const int k = a->trans == 'N' ? (int)STARPU_MATRIX_GET_NY(buffers[0]) : (int)STARPU_MATRIX_GET_NX(buffers[0]);
    cublasStatus_t st = cublasZherk(
        starpu_cublas_get_local_handle(), a->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
        a->trans == 'N' ? CUBLAS_OP_N : STARTRD_CUBLAS_ADJOINT, n, k, &a->alpha,
        (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]), (int)STARPU_MATRIX_GET_LD(buffers[0]), &a->beta,
        (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[1]), (int)STARPU_MATRIX_GET_LD(buffers[1]));

    if (st != CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("zherk", "cublasZherk", st);
}
#endif

STARTRD_HISTORY_MODEL(herk_model, "startrd_zherk");

static struct starpu_codelet herk_codelet = {
    .name = "zherk",
    .cpu_funcs = {herk_cpu},
    STARTRD_CUDA_ASYNC(herk_cuda)
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_RW},
    .model = &herk_model,
};

int startrd_task_zherk(startrd_place_t place, char uplo, char trans, double alpha, starpu_data_handle_t A,
                       double beta, starpu_data_handle_t C)
{
    struct zherk_args *args = malloc(sizeof *args);
    const double n = (double)starpu_matrix_get_nx(C);
    const double k = trans == 'N' ? (double)starpu_matrix_get_ny(A) : (double)starpu_matrix_get_nx(A);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct zherk_args){uplo, trans, alpha, beta};
    return starpu_task_insert(&herk_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, A, STARPU_RW, C,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_FLOPS, 4.0 * n * n * k,
                              0);
}
