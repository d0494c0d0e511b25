/* R := Q Z for Q given as column blocks Q_0, Q_1, ... that follow each
 * other, and a real Z: the eigenvectors of A from Q = Q1 Q2 and the real
 * eigenvectors Z of the tridiagonal.  In the complex precisions, read as a
 * real matrix of twice the rows (real and imaginary parts interleaved, the
 * leading dimension doubled), a complex Q times a real Z is one real GEMM,
 * half the flops of a complex one; in the real ones it is a plain GEMM.
 * Block k multiplies Z's rows from the sum of the earlier blocks' widths.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "codelets_z.h"
#include "error.h"

#include <cblas.h>
#include <stdlib.h>

/* Real entries per entry of Q and R: their real and imaginary parts. */
#ifdef COMPLEX
enum { PARTS = 2 };
#else
enum { PARTS = 1 };
#endif

/* Buffers: R (written), Z, then the blocks of Q. */
enum { R_BUFFER, Z_BUFFER, FIRST_Q_BUFFER };

/* The task's operands as real matrices: R and the blocks of Q with PARTS
 * times their rows and leading dimensions. */
struct gemm_real_view {
    double *R;
    const double *Z;
    int rows, cols, ldr, ldz;
};

static struct gemm_real_view view_of(void *buffers[])
{
    return (struct gemm_real_view){
        .R = (double *)STARPU_MATRIX_GET_PTR(buffers[R_BUFFER]),
        .Z = (const double *)STARPU_MATRIX_GET_PTR(buffers[Z_BUFFER]),
        .rows = (int)(PARTS * STARPU_MATRIX_GET_NX(buffers[R_BUFFER])),
        .cols = (int)STARPU_MATRIX_GET_NY(buffers[R_BUFFER]),
        .ldr = (int)(PARTS * STARPU_MATRIX_GET_LD(buffers[R_BUFFER])),
        .ldz = (int)STARPU_MATRIX_GET_LD(buffers[Z_BUFFER]),
    };
}

static const double *q_block(void *buffers[], int k, int *width, int *ld)
{
    *width = (int)STARPU_MATRIX_GET_NY(buffers[k]);
    *ld = (int)(PARTS * STARPU_MATRIX_GET_LD(buffers[k]));
    return (const double *)STARPU_MATRIX_GET_PTR(buffers[k]);
}

static void gemm_real_cpu(void *buffers[], void *cl_arg)
{
    const struct gemm_real_view v = view_of(buffers);
    int64_t z0 = 0;

    (void)cl_arg;
    for (int k = FIRST_Q_BUFFER; k < startrd_current_nbuffers(); k++) {
        int width, ldq;
        const double *q = q_block(buffers, k, &width, &ldq);

        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, v.rows, v.cols, width, 1.0, q, ldq, v.Z + z0, v.ldz,
                    k == FIRST_Q_BUFFER ? 0.0 : 1.0, v.R, v.ldr);
        z0 += width;
    }
}

#ifdef STARTRD_USE_CUDA
static void gemm_real_cuda(void *buffers[], void *cl_arg)
{
    const struct gemm_real_view v = view_of(buffers);
    cublasHandle_t handle = starpu_cublas_get_local_handle();
    const double one = 1.0, zero = 0.0;
    int64_t z0 = 0;

    (void)cl_arg;
    for (int k = FIRST_Q_BUFFER; k < startrd_current_nbuffers(); k++) {
        int width, ldq;
        const double *q = q_block(buffers, k, &width, &ldq);
        cublasStatus_t st = cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, v.rows, v.cols, width, &one, q, ldq,
                                        v.Z + z0, v.ldz, k == FIRST_Q_BUFFER ? &zero : &one, v.R, v.ldr);

        if (st != CUBLAS_STATUS_SUCCESS) {
            startrd_kernel_failure("zgemm_real", "cublasDgemm", st);
            return;
        }
        z0 += width;
    }
}
#endif

STARTRD_HISTORY_MODEL(gemm_real_model, "startrd_zgemm_real");

static struct starpu_codelet gemm_real_codelet = {
    .name = "zgemm_real",
    .cpu_funcs = {gemm_real_cpu},
    STARTRD_CUDA_ASYNC(gemm_real_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &gemm_real_model,
};

int startrd_task_zgemm_real(unsigned long long where, int worker, int64_t nq, const starpu_data_handle_t *Q,
                            starpu_data_handle_t Z, starpu_data_handle_t R)
{
    struct starpu_data_descr *descr = malloc((size_t)(FIRST_Q_BUFFER + nq) * sizeof *descr);
    double rows = (double)starpu_matrix_get_nx(R), cols = (double)starpu_matrix_get_ny(R);
    int ret;

    if (descr == NULL)
        return -ENOMEM;
    descr[R_BUFFER] = (struct starpu_data_descr){.handle = R, .mode = STARPU_W};
    descr[Z_BUFFER] = (struct starpu_data_descr){.handle = Z, .mode = STARPU_R};
    for (int64_t k = 0; k < nq; k++)
        descr[FIRST_Q_BUFFER + k] = (struct starpu_data_descr){.handle = Q[k], .mode = STARPU_R};
    ret = starpu_task_insert(&gemm_real_codelet,
                             STARPU_DATA_MODE_ARRAY, descr, (int)(FIRST_Q_BUFFER + nq),
                             STARPU_EXECUTE_WHERE, where,
                             STARPU_EXECUTE_ON_WORKER, worker,
                             STARPU_FLOPS, 2.0 * PARTS * rows * cols * (double)starpu_matrix_get_nx(Z),
                             0);
    free(descr);
    return ret;
}
