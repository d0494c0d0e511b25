/* C(kd:n-1, :) := Q1 C(kd:n-1, :) or Q1^H C(kd:n-1, :) for a block of
 * columns C, Q1 the stage-1 reflectors: reflector j starts at row j of the
 * (n-kd) x (n-kd) matrix V, ZGEQRF's layout, so LAPACK's ZUNMQR applies
 * them on the host, and the same blocked compact-WY scheme on a GPU.  V
 * comes in pieces of its columns, which CPU workers upload side by side
 * (codelet_zupload.c): Q1 = Q(piece 0) Q(piece 1) ..., so Q C takes the
 * pieces from the last and Q^H C from the first.  On GPUs the blocks'
 * triangular factors T come from a task of their own, once for all the
 * blocks of columns C, rather than again in each task (docs/experiments.md,
 * "Q1's factors once").
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "codelets_z.h"
#include "error.h"
#include "scalars.h"

#include <lapacke.h>
#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

/* Buffers: tau, C, then V's pieces, then (on GPUs) the blocks' factors T. */
enum { TAU_BUFFER, C_BUFFER, FIRST_V_BUFFER };

/* Reflectors per compact-WY block on a GPU: its GEMMs with C are of that
 * depth (docs/experiments.md, "Q1's factors once"). */
enum { Q1_BLOCK = 256 };

/* Q1^H C as LAPACK names it: ZUNMQR's 'C', DORMQR's 'T'. */
#ifdef COMPLEX
#define TRANS_ADJOINT 'C'
#else
#define TRANS_ADJOINT 'T'
#endif

struct unmqr_args {
    char trans;
    int64_t kd;
    int factors;  /* whether the factors T are the last buffer */
};

static int64_t blocks_of(int64_t k)
{
    return (k + Q1_BLOCK - 1) / Q1_BLOCK;
}

int64_t startrd_zunmqr_q1_factor_entries(int64_t npieces, const starpu_data_handle_t *V)
{
    int64_t count = 0;

    for (int64_t p = 0; p < npieces; p++)
        count += blocks_of((int64_t)starpu_matrix_get_ny(V[p]));
    return count * Q1_BLOCK * Q1_BLOCK;
}

/* The piece applied in turn i of @p npieces. */
static int piece_in_turn(const struct unmqr_args *a, int i, int npieces)
{
    return a->trans == 'N' ? npieces - 1 - i : i;
}

/* V's piece @p p, its pieces' buffers from @p first_v, and its first
 * column in V. */
static const void *v_piece(void *buffers[], int first_v, int p, int64_t *col0)
{
    *col0 = 0;
    for (int q = 0; q < p; q++)
        *col0 += (int64_t)STARPU_MATRIX_GET_NY(buffers[first_v + q]);
    return (const void *)STARPU_MATRIX_GET_PTR(buffers[first_v + p]);
}

static void unmqr_cpu(void *buffers[], void *cl_arg)
{
    const struct unmqr_args *a = cl_arg;
    const double complex *tau = (const double complex *)STARPU_VECTOR_GET_PTR(buffers[TAU_BUFFER]);
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[C_BUFFER]) + a->kd;
    const int64_t ldc = STARPU_MATRIX_GET_LD(buffers[C_BUFFER]), cols = STARPU_MATRIX_GET_NY(buffers[C_BUFFER]);
    const int npieces = startrd_current_nbuffers() - FIRST_V_BUFFER - a->factors;

    for (int i = 0; i < npieces; i++) {
        const int p = piece_in_turn(a, i, npieces);
        int64_t j0;
        const double complex *v = v_piece(buffers, FIRST_V_BUFFER, p, &j0);
        const int64_t m = STARPU_MATRIX_GET_NX(buffers[FIRST_V_BUFFER + p]),
                      ldv = STARPU_MATRIX_GET_LD(buffers[FIRST_V_BUFFER + p]),
                      k = STARPU_MATRIX_GET_NY(buffers[FIRST_V_BUFFER + p]);
        lapack_int info = LAPACKE_zunmqr(LAPACK_COL_MAJOR, 'L', a->trans == 'N' ? 'N' : TRANS_ADJOINT,
                                         (lapack_int)(m - j0), (lapack_int)cols, (lapack_int)k, v + j0,
                                         (lapack_int)ldv, tau + j0, c + j0, (lapack_int)ldc);

        if (info != 0) {
            startrd_kernel_failure("unmqr_q1", "LAPACKE_zunmqr", info);
            return;
        }
    }
}

#ifdef STARTRD_USE_CUDA
/* The blocks in V's pieces before piece @p p (the factors are stored
 * piece by piece, Q1_BLOCK^2 entries each). */
static int64_t blocks_before(void *buffers[], int first_v, int p)
{
    int64_t count = 0;

    for (int q = 0; q < p; q++)
        count += blocks_of((int64_t)STARPU_MATRIX_GET_NY(buffers[first_v + q]));
    return count;
}

/* Block j0.. of V (kb reflectors, rows m - j0) written out explicitly into
 * vb: unit diagonal, zeros above it. */
static cudaError_t block_v(const cuDoubleComplex *v, int64_t ldv, int64_t jj, int64_t j0, int64_t m, int kb,
                           cuDoubleComplex *vb, cudaStream_t stream)
{
    return startrd_cuda_zpanel_v(m - j0, kb, v + jj * ldv + j0, ldv, vb, m - j0, 0, m - j0, stream);
}

/* Each block's T as I - Vb T Vb^H (ZLARFT's), from its Gram matrix. */
static void factors_cuda(void *buffers[], void *cl_arg)
{
    const cuDoubleComplex *tau = (const cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[0]);
    cuDoubleComplex *T = (cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[1]), *vb = NULL;
    const int first_v = 2, npieces = startrd_current_nbuffers() - first_v;
    const int64_t m = STARPU_MATRIX_GET_NX(buffers[first_v]);
    const cuDoubleComplex one = STARTRD_Z_ONE, zero = STARTRD_Z_ZERO;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cublasHandle_t blas = starpu_cublas_get_local_handle();
    int64_t t = 0;
    long st;

    (void)cl_arg;
    if ((st = cudaMallocAsync((void **)&vb, (size_t)m * Q1_BLOCK * sizeof *vb, stream)) != cudaSuccess) {
        startrd_kernel_failure("unmqr_q1_factors", "cudaMallocAsync", st);
        return;
    }
    for (int p = 0; p < npieces && st == cudaSuccess; p++) {
        int64_t c0;
        const cuDoubleComplex *v = v_piece(buffers, first_v, p, &c0);
        const int64_t ldv = STARPU_MATRIX_GET_LD(buffers[first_v + p]), k = STARPU_MATRIX_GET_NY(buffers[first_v + p]);

        for (int64_t jj = 0; jj < k && st == cudaSuccess; jj += Q1_BLOCK, t++) {
            const int64_t j0 = c0 + jj;
            const int kb = (int)(k - jj < Q1_BLOCK ? k - jj : Q1_BLOCK), rows = (int)(m - j0);
            cuDoubleComplex *tb = T + t * Q1_BLOCK * Q1_BLOCK;

            if ((st = block_v(v, ldv, jj, j0, m, kb, vb, stream)) != cudaSuccess)
                startrd_kernel_failure("unmqr_q1_factors", "zpanel_v kernel", st);
            else if ((st = cublasZgemm(blas, CUBLAS_OP_C, CUBLAS_OP_N, kb, kb, rows, &one, vb, rows, vb, rows, &zero,
                                       tb, kb)) != CUBLAS_STATUS_SUCCESS)
                startrd_kernel_failure("unmqr_q1_factors", "cublasZgemm", st);
            else if ((st = startrd_cuda_zlarft_gram(kb, 1, tau + j0, 0, tb, kb, 0, stream)) != cudaSuccess)
                startrd_kernel_failure("unmqr_q1_factors", "zlarft_gram kernel", st);
        }
    }
    if ((st = cudaFreeAsync(vb, stream)) != cudaSuccess)
        startrd_kernel_failure("unmqr_q1_factors", "cudaFreeAsync", st);
}

/* In the complex precisions the blocks' GEMMs take Gauss's three real
 * products per complex one (ZGEMM3M), a quarter fewer flops; on a GPU held
 * at its power cap that is time (docs/experiments.md, "The power cap and
 * Q's forming").  Its error bound is GEMM's normwise, up to a small
 * constant. */
#ifdef COMPLEX
#define Q1_GEMM cublasZgemm3m
#else
#define Q1_GEMM cublasZgemm
#endif

/* Block by block, each as I - Vb T Vb^H: Vb written out explicitly, then
 * C -= Vb op(T) (Vb^H C) by two GEMMs and a TRMM.  cuSOLVER's ZUNMQR does
 * the same, but its 32-bit workspace query refuses the largest orders
 * (docs/architecture.md, "Eigenvectors"). */
static void unmqr_cuda(void *buffers[], void *cl_arg)
{
    const struct unmqr_args *a = cl_arg;
    cuDoubleComplex *c = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[C_BUFFER]) + a->kd, *vb = NULL, *w;
    const int npieces = startrd_current_nbuffers() - FIRST_V_BUFFER - 1;
    const cuDoubleComplex *T = (const cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[FIRST_V_BUFFER + npieces]);
    const int64_t m = STARPU_MATRIX_GET_NX(buffers[FIRST_V_BUFFER]), ldc = STARPU_MATRIX_GET_LD(buffers[C_BUFFER]);
    const int64_t cols = STARPU_MATRIX_GET_NY(buffers[C_BUFFER]);
    const cublasOperation_t op = a->trans == 'N' ? CUBLAS_OP_N : CUBLAS_OP_C;
    const cuDoubleComplex one = STARTRD_Z_ONE, zero = STARTRD_Z_ZERO, mone = STARTRD_Z_MONE;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cublasHandle_t blas = starpu_cublas_get_local_handle();
    long st = cudaSuccess;

    if ((st = cudaMallocAsync((void **)&vb, (size_t)(m + cols) * Q1_BLOCK * sizeof *vb, stream)) != cudaSuccess) {
        startrd_kernel_failure("unmqr_q1", "cudaMallocAsync", st);
        return;
    }
    w = vb + m * Q1_BLOCK;
    for (int i = 0; i < npieces && st == cudaSuccess; i++) {
        const int p = piece_in_turn(a, i, npieces);
        int64_t c0;
        const cuDoubleComplex *v = v_piece(buffers, FIRST_V_BUFFER, p, &c0);
        const int64_t ldv = STARPU_MATRIX_GET_LD(buffers[FIRST_V_BUFFER + p]),
                      k = STARPU_MATRIX_GET_NY(buffers[FIRST_V_BUFFER + p]), nblocks = blocks_of(k),
                      t0 = blocks_before(buffers, FIRST_V_BUFFER, p);

        /* Within a piece, too, Q C takes the blocks from the last. */
        for (int64_t b = 0; b < nblocks && st == cudaSuccess; b++) {
            const int64_t bi = a->trans == 'N' ? nblocks - 1 - b : b, jj = bi * Q1_BLOCK, j0 = c0 + jj;
            const int kb = (int)(k - jj < Q1_BLOCK ? k - jj : Q1_BLOCK), rows = (int)(m - j0);
            const cuDoubleComplex *tb = T + (t0 + bi) * Q1_BLOCK * Q1_BLOCK;

            if ((st = block_v(v, ldv, jj, j0, m, kb, vb, stream)) != cudaSuccess) {
                startrd_kernel_failure("unmqr_q1", "zpanel_v kernel", st);
                break;
            }
            if ((st = Q1_GEMM(blas, CUBLAS_OP_C, CUBLAS_OP_N, kb, (int)cols, rows, &one, vb, rows, c + j0, (int)ldc,
                              &zero, w, kb)) != CUBLAS_STATUS_SUCCESS ||
                (st = cublasZtrmm(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, op, CUBLAS_DIAG_NON_UNIT, kb,
                                  (int)cols, &one, tb, kb, w, kb, w, kb)) != CUBLAS_STATUS_SUCCESS ||
                (st = Q1_GEMM(blas, CUBLAS_OP_N, CUBLAS_OP_N, rows, (int)cols, kb, &mone, vb, rows, w, kb, &one,
                              c + j0, (int)ldc)) != CUBLAS_STATUS_SUCCESS) {
                startrd_kernel_failure("unmqr_q1", "cuBLAS update", st);
                break;
            }
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
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &unmqr_model,
};

int startrd_task_zunmqr_q1(unsigned long long where, int worker, char trans, int64_t kd, int64_t npieces,
                           const starpu_data_handle_t *V, starpu_data_handle_t tau, starpu_data_handle_t factors,
                           starpu_data_handle_t C)
{
    const int nfactors = factors != NULL;
    struct unmqr_args *args = malloc(sizeof *args);
    struct starpu_data_descr *descr = malloc((size_t)(FIRST_V_BUFFER + npieces + nfactors) * sizeof *descr);
    double m = (double)starpu_matrix_get_nx(V[0]);
    int ret;

    if (args == NULL || descr == NULL) {
        free(args);
        free(descr);
        return -ENOMEM;
    }
    /* The GPUs' implementation reads the factors. */
    if (where != STARPU_CPU && factors == NULL) {
        free(args);
        free(descr);
        return -EINVAL;
    }
    *args = (struct unmqr_args){trans, kd, nfactors};
    descr[TAU_BUFFER] = (struct starpu_data_descr){.handle = tau, .mode = STARPU_R};
    descr[C_BUFFER] = (struct starpu_data_descr){.handle = C, .mode = STARPU_RW};
    for (int64_t p = 0; p < npieces; p++)
        descr[FIRST_V_BUFFER + p] = (struct starpu_data_descr){.handle = V[p], .mode = STARPU_R};
    if (nfactors)
        descr[FIRST_V_BUFFER + npieces] = (struct starpu_data_descr){.handle = factors, .mode = STARPU_R};
    ret = starpu_task_insert(&unmqr_codelet,
                             STARPU_CL_ARGS, args, sizeof *args,
                             STARPU_DATA_MODE_ARRAY, descr, (int)(FIRST_V_BUFFER + npieces + nfactors),
                             STARPU_EXECUTE_WHERE, where, STARPU_EXECUTE_ON_WORKER, worker,
                             STARPU_FLOPS, 8.0 * m * m * (double)starpu_matrix_get_ny(C),
                             0);
    free(descr);
    return ret;
}

#ifdef STARTRD_USE_CUDA
STARTRD_HISTORY_MODEL(factors_model, "startrd_zunmqr_q1_factors");

static struct starpu_codelet factors_codelet = {
    .name = "zunmqr_q1_factors",
    STARTRD_CUDA_ASYNC(factors_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &factors_model,
};
#endif

int startrd_task_zunmqr_q1_factors(int worker, int64_t npieces, const starpu_data_handle_t *V,
                                   starpu_data_handle_t tau, starpu_data_handle_t factors)
{
#ifdef STARTRD_USE_CUDA
    struct starpu_data_descr *descr = malloc((size_t)(2 + npieces) * sizeof *descr);
    double m = (double)starpu_matrix_get_nx(V[0]);
    int ret;

    if (descr == NULL)
        return -ENOMEM;
    descr[0] = (struct starpu_data_descr){.handle = tau, .mode = STARPU_R};
    descr[1] = (struct starpu_data_descr){.handle = factors, .mode = STARPU_W};
    for (int64_t p = 0; p < npieces; p++)
        descr[2 + p] = (struct starpu_data_descr){.handle = V[p], .mode = STARPU_R};
    ret = starpu_task_insert(&factors_codelet,
                             STARPU_DATA_MODE_ARRAY, descr, (int)(2 + npieces),
                             STARPU_EXECUTE_WHERE, STARPU_CUDA, STARPU_EXECUTE_ON_WORKER, worker,
                             /* each block's Gram matrix */
                             STARPU_FLOPS, 4.0 * m * m * Q1_BLOCK,
                             0);
    free(descr);
    return ret;
#else
    (void)worker, (void)npieces, (void)V, (void)tau, (void)factors;
    return -ENODEV;
#endif
}
