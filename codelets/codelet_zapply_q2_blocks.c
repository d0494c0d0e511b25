/* C := Q2 C or Q2^H C for a block of columns C by the reflector groups of
 * the blocked Q2 (q2_blocks.h): level by level, two GEMMs per group.  On a
 * GPU the groups of a level are one strided batch, their rows in C being
 * equally spaced; C is worked on in a copy padded with h zero rows, so that
 * the groups at the end of the band, whose V and Y are zero past row n,
 * need no shorter shape. */
#include "codelets.h"
#include "error.h"

#include <cblas.h>
#include <stdlib.h>

struct apply_q2_blocks_args {
    const startrd_q2_blocks_t *qb;
    char trans;   /* 'N': Q2 C, 'C': Q2^H C */
};

/* The groups of a level, in the chunk's buffers (V and Y of chunk c are
 * buffers 1+2c and 2+2c, C is buffer 0).  Q2 C multiplies by V^H then
 * subtracts Y times the product; Q2^H C the other way round. */
struct level_view {
    const startrd_q2_level_t *lv;
    const void *first, *second;
};

static struct level_view level_view(void *buffers[], const startrd_q2_blocks_t *qb, char trans, int64_t L)
{
    int c = startrd_q2_level_chunk(qb, L);
    const startrd_q2_level_t *lv = &qb->levels[L];
    size_t off = (size_t)((lv->g0 - qb->levels[qb->chunk_level[c]].g0) * qb->h * qb->b) * sizeof(double complex);
    const char *V = (const char *)STARPU_VECTOR_GET_PTR(buffers[1 + 2 * c]) + off;
    const char *Y = (const char *)STARPU_VECTOR_GET_PTR(buffers[2 + 2 * c]) + off;

    return (struct level_view){lv, trans == 'N' ? V : Y, trans == 'N' ? Y : V};
}

static void apply_q2_blocks_cpu(void *buffers[], void *cl_arg)
{
    const struct apply_q2_blocks_args *a = cl_arg;
    const startrd_q2_blocks_t *qb = a->qb;
    const int h = (int)qb->h, b = (int)qb->b;
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const int64_t n = STARPU_MATRIX_GET_NX(buffers[0]);
    const int ldc = (int)STARPU_MATRIX_GET_LD(buffers[0]), cols = (int)STARPU_MATRIX_GET_NY(buffers[0]);
    double complex *w = malloc((size_t)b * (size_t)cols * sizeof *w);
    const double complex one = 1.0, zero = 0.0, mone = -1.0;

    if (w == NULL) {
        startrd_kernel_failure("apply_q2_blocks", "malloc", ENOMEM);
        return;
    }
    for (int64_t i = 0; i < qb->nlevels; i++) {
        struct level_view lv = level_view(buffers, qb, a->trans, a->trans == 'N' ? i : qb->nlevels - 1 - i);

        for (int64_t m = 0; m < lv.lv->count; m++) {
            int64_t row = startrd_q2_member_row(qb, lv.lv, m);
            /* V and Y are zero past row n. */
            int rows = (int)(n - row < h ? n - row : h);
            const double complex *first = (const double complex *)lv.first + m * h * b;
            const double complex *second = (const double complex *)lv.second + m * h * b;

            cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, b, cols, rows, &one, first, h, c + row, ldc,
                        &zero, w, b);
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, rows, cols, b, &mone, second, h, w, b, &one,
                        c + row, ldc);
        }
    }
    free(w);
}

#ifdef STARTRD_USE_CUDA
static void apply_q2_blocks_cuda(void *buffers[], void *cl_arg)
{
    const struct apply_q2_blocks_args *a = cl_arg;
    const startrd_q2_blocks_t *qb = a->qb;
    const int h = (int)qb->h, b = (int)qb->b;
    const long long stride = (long long)(qb->b + 2 * qb->plan.kd), hb = (long long)h * b;
    cuDoubleComplex *c = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const int64_t n = STARPU_MATRIX_GET_NX(buffers[0]), ldc = STARPU_MATRIX_GET_LD(buffers[0]);
    const int cols = (int)STARPU_MATRIX_GET_NY(buffers[0]), ldp = (int)(n + h);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cublasHandle_t blas = starpu_cublas_get_local_handle();
    const cuDoubleComplex one = {1.0, 0.0}, zero = {0.0, 0.0}, mone = {-1.0, 0.0};
    cuDoubleComplex *pad = NULL, *w;
    const size_t bytes = ((size_t)ldp + (size_t)qb->maxcount * (size_t)b) * (size_t)cols * sizeof *pad;
    long st;

    if ((st = cudaMallocAsync((void **)&pad, bytes, stream)) != cudaSuccess) {
        startrd_kernel_failure("apply_q2_blocks", "cudaMallocAsync", st);
        return;
    }
    w = pad + (size_t)ldp * (size_t)cols;
    if ((st = cudaMemcpy2DAsync(pad, (size_t)ldp * sizeof *pad, c, (size_t)ldc * sizeof *c, (size_t)n * sizeof *c,
                                (size_t)cols, cudaMemcpyDeviceToDevice, stream)) != cudaSuccess ||
        (st = cudaMemset2DAsync(pad + n, (size_t)ldp * sizeof *pad, 0, (size_t)h * sizeof *pad, (size_t)cols,
                                stream)) != cudaSuccess) {
        startrd_kernel_failure("apply_q2_blocks", "padded copy of C", st);
        goto out;
    }
    for (int64_t i = 0; i < qb->nlevels; i++) {
        struct level_view lv = level_view(buffers, qb, a->trans, a->trans == 'N' ? i : qb->nlevels - 1 - i);
        cuDoubleComplex *rows = pad + lv.lv->row0;
        int count = (int)lv.lv->count;

        if ((st = cublasZgemmStridedBatched(blas, CUBLAS_OP_C, CUBLAS_OP_N, b, cols, h, &one, lv.first, h, hb, rows,
                                            ldp, stride, &zero, w, b, (long long)b * cols, count)) !=
                CUBLAS_STATUS_SUCCESS ||
            (st = cublasZgemmStridedBatched(blas, CUBLAS_OP_N, CUBLAS_OP_N, h, cols, b, &mone, lv.second, h, hb, w, b,
                                            (long long)b * cols, &one, rows, ldp, stride, count)) !=
                CUBLAS_STATUS_SUCCESS) {
            startrd_kernel_failure("apply_q2_blocks", "cublasZgemmStridedBatched", st);
            goto out;
        }
    }
    if ((st = cudaMemcpy2DAsync(c, (size_t)ldc * sizeof *c, pad, (size_t)ldp * sizeof *pad, (size_t)n * sizeof *c,
                                (size_t)cols, cudaMemcpyDeviceToDevice, stream)) != cudaSuccess)
        startrd_kernel_failure("apply_q2_blocks", "cudaMemcpy2DAsync", st);
out:
    if ((st = cudaFreeAsync(pad, stream)) != cudaSuccess)
        startrd_kernel_failure("apply_q2_blocks", "cudaFreeAsync", st);
}
#endif

STARTRD_HISTORY_MODEL(apply_q2_blocks_model, "startrd_zapply_q2_blocks");

static struct starpu_codelet apply_q2_blocks_codelet = {
    .name = "zapply_q2_blocks",
    .cpu_funcs = {apply_q2_blocks_cpu},
    STARTRD_CUDA_ASYNC(apply_q2_blocks_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &apply_q2_blocks_model,
};

int startrd_task_zapply_q2_blocks(unsigned long long where, const startrd_q2_blocks_t *qb, char trans,
                                  const starpu_data_handle_t *V, const starpu_data_handle_t *Y,
                                  starpu_data_handle_t C)
{
    struct apply_q2_blocks_args *args = malloc(sizeof *args);
    struct starpu_data_descr *descr = malloc((size_t)(1 + 2 * qb->nchunks) * sizeof *descr);
    int ret;

    if (args == NULL || descr == NULL) {
        free(args);
        free(descr);
        return -ENOMEM;
    }
    *args = (struct apply_q2_blocks_args){qb, trans};
    descr[0] = (struct starpu_data_descr){.handle = C, .mode = STARPU_RW};
    for (int c = 0; c < qb->nchunks; c++) {
        descr[1 + 2 * c] = (struct starpu_data_descr){.handle = V[c], .mode = STARPU_R};
        descr[2 + 2 * c] = (struct starpu_data_descr){.handle = Y[c], .mode = STARPU_R};
    }
    ret = starpu_task_insert(&apply_q2_blocks_codelet,
                             STARPU_CL_ARGS, args, sizeof *args,
                             STARPU_DATA_MODE_ARRAY, descr, 1 + 2 * qb->nchunks,
                             STARPU_EXECUTE_WHERE, where,
                             /* two GEMMs of h x b x cols per group */
                             STARPU_FLOPS, 16.0 * (double)qb->ngroups * (double)qb->h * (double)qb->b *
                                               (double)starpu_matrix_get_ny(C),
                             0);
    free(descr);
    return ret;
}
