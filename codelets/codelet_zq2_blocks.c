/* V and Y = V T of the reflector groups of one chunk of the blocked Q2
 * (q2_blocks.h), from HOUS2, built once for every column the
 * back-transformation then multiplies.  On the host: a ZLARFT and a ZTRMM
 * of h x b per group.  On a GPU, for all groups of the chunk at once: the
 * gather, the Gram matrices V^H V in one batched GEMM, T from them, and
 * Y = V T in one more batched GEMM. */
#include "codelets.h"
#include "error.h"

#include <cblas.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct q2_blocks_args {
    const startrd_q2_blocks_t *qb;
    int chunk;
};

/* Group (S, j) into v (zeroed here) and its factors into tau; returns how
 * many of its b reflectors exist (the missing ones, at the end of the band,
 * are the last). */
static int64_t gather_group(const startrd_q2_blocks_t *qb, const double complex *hous, int64_t S, int64_t j,
                            double complex *v, double complex *tau)
{
    const startrd_bulge_plan_t *p = &qb->plan;
    int64_t k = 0;

    memset(v, 0, (size_t)(qb->h * qb->b) * sizeof *v);
    for (int64_t s = S * qb->b; k < qb->b && s < p->nsweeps && j < startrd_bulge_nrefl_sweep(p, s); s++, k++) {
        memcpy(v + k * qb->h + k, hous + startrd_bulge_v_offset(p, s, j),
               (size_t)startrd_bulge_refl_len(p, s, j) * sizeof *v);
        tau[k] = hous[startrd_bulge_tau_offset(p, s, j)];
    }
    return k;
}

static void q2_blocks_cpu(void *buffers[], void *cl_arg)
{
    const struct q2_blocks_args *a = cl_arg;
    const startrd_q2_blocks_t *qb = a->qb;
    const int64_t h = qb->h, b = qb->b, first = qb->chunk_level[a->chunk];
    const double complex *hous = (const double complex *)STARPU_VECTOR_GET_PTR(buffers[0]);
    double complex *V = (double complex *)STARPU_VECTOR_GET_PTR(buffers[1]);
    double complex *Y = (double complex *)STARPU_VECTOR_GET_PTR(buffers[2]);
    double complex *tau = malloc((size_t)(b + b * b) * sizeof *tau), *T = tau + b;
    const double complex one = 1.0;

    if (tau == NULL) {
        startrd_kernel_failure("q2_blocks", "malloc", ENOMEM);
        return;
    }
    for (int64_t L = first; L < qb->chunk_level[a->chunk + 1]; L++) {
        const startrd_q2_level_t *lv = &qb->levels[L];

        for (int64_t m = 0; m < lv->count; m++) {
            int64_t off = (lv->g0 + m - qb->levels[first].g0) * h * b;
            int64_t k = gather_group(qb, hous, lv->S + m, lv->j + 2 * m, V + off, tau);
            lapack_int info = LAPACKE_zlarft_work(LAPACK_COL_MAJOR, 'F', 'C', (lapack_int)h, (lapack_int)k,
                                                  V + off, (lapack_int)h, tau, T, (lapack_int)b);

            if (info != 0) {
                startrd_kernel_failure("q2_blocks", "LAPACKE_zlarft_work", info);
                break;
            }
            memcpy(Y + off, V + off, (size_t)(h * b) * sizeof *Y);
            cblas_ztrmm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)h, (int)k, &one, T,
                        (int)b, Y + off, (int)h);
        }
    }
    free(tau);
}

#ifdef STARTRD_USE_CUDA
static void q2_blocks_cuda(void *buffers[], void *cl_arg)
{
    const struct q2_blocks_args *a = cl_arg;
    const startrd_q2_blocks_t *qb = a->qb;
    const startrd_bulge_plan_t *p = &qb->plan;
    const int64_t h = qb->h, b = qb->b, first = qb->chunk_level[a->chunk];
    const int64_t groups = startrd_q2_chunk_groups(qb, a->chunk), hb = h * b;
    const cuDoubleComplex *hous = (const cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[0]);
    cuDoubleComplex *V = (cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[1]);
    cuDoubleComplex *Y = (cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[2]);
    const int64_t *sweeps = (const int64_t *)STARPU_VECTOR_GET_PTR(buffers[3]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cublasHandle_t blas = starpu_cublas_get_local_handle();
    const cuDoubleComplex one = {1.0, 0.0}, zero = {0.0, 0.0};
    cuDoubleComplex *tau = NULL, *T;
    long st;

    if ((st = cudaMallocAsync((void **)&tau, (size_t)(groups * (b + b * b)) * sizeof *tau, stream)) != cudaSuccess) {
        startrd_kernel_failure("q2_blocks", "cudaMallocAsync", st);
        return;
    }
    T = tau + groups * b;
    for (int64_t L = first; L < qb->chunk_level[a->chunk + 1]; L++) {
        const startrd_q2_level_t *lv = &qb->levels[L];
        const int64_t g = lv->g0 - qb->levels[first].g0;

        if ((st = startrd_cuda_zq2_gather(p->n, p->kd, p->nsweeps, p->nrefl, sweeps, hous, b, h, lv->S, lv->j,
                                          lv->count, V + g * hb, tau + g * b, stream)) != cudaSuccess) {
            startrd_kernel_failure("q2_blocks", "zq2_gather kernel", st);
            goto out;
        }
    }
    if ((st = cublasZgemmStridedBatched(blas, CUBLAS_OP_C, CUBLAS_OP_N, (int)b, (int)b, (int)h, &one, V, (int)h, hb,
                                        V, (int)h, hb, &zero, T, (int)b, b * b, (int)groups)) !=
        CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure("q2_blocks", "cublasZgemmStridedBatched", st);
        goto out;
    }
    if ((st = startrd_cuda_zlarft_gram(b, groups, tau, b, T, b, b * b, stream)) != cudaSuccess) {
        startrd_kernel_failure("q2_blocks", "zlarft_gram kernel", st);
        goto out;
    }
    if ((st = cublasZgemmStridedBatched(blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)h, (int)b, (int)b, &one, V, (int)h, hb,
                                        T, (int)b, b * b, &zero, Y, (int)h, hb, (int)groups)) !=
        CUBLAS_STATUS_SUCCESS)
        startrd_kernel_failure("q2_blocks", "cublasZgemmStridedBatched", st);
out:
    if ((st = cudaFreeAsync(tau, stream)) != cudaSuccess)
        startrd_kernel_failure("q2_blocks", "cudaFreeAsync", st);
}
#endif

STARTRD_HISTORY_MODEL(q2_blocks_model, "startrd_zq2_blocks");

static struct starpu_codelet q2_blocks_codelet = {
    .name = "zq2_blocks",
    .cpu_funcs = {q2_blocks_cpu},
    STARTRD_CUDA_ASYNC(q2_blocks_cuda)
    .nbuffers = 4,
    .modes = {STARPU_R, STARPU_W, STARPU_W, STARPU_R},
    .model = &q2_blocks_model,
};

int startrd_task_zq2_blocks(unsigned long long where, const startrd_q2_blocks_t *qb, int chunk,
                            starpu_data_handle_t hous, starpu_data_handle_t sweeps, starpu_data_handle_t V,
                            starpu_data_handle_t Y)
{
    struct q2_blocks_args *args = malloc(sizeof *args);
    double groups = (double)startrd_q2_chunk_groups(qb, chunk), h = (double)qb->h, b = (double)qb->b;

    if (args == NULL)
        return -ENOMEM;
    *args = (struct q2_blocks_args){qb, chunk};
    return starpu_task_insert(&q2_blocks_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, hous, STARPU_W, V, STARPU_W, Y, STARPU_R, sweeps,
                              STARPU_EXECUTE_WHERE, where,
                              /* ZLARFT and ZTRMM, h b^2 complex multiply-adds each */
                              STARPU_FLOPS, groups * 16.0 * h * b * b,
                              0);
}
