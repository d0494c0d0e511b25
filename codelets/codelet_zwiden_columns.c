/* C := columns z0..z0+cols-1 of a real matrix given as column blocks Z_0,
 * Z_1, ... that follow each other, widened to C's type: selected real
 * eigenvectors of the tridiagonal, held on a GPU by the divide and
 * conquer, written straight into the blocks of C that Q is then applied
 * to, so that they cross the bus only once, as the results
 * (zheevd_2stage_mgpu.c).
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"

#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

/* Buffers: C (written), then the blocks of Z. */
enum { C_BUFFER, FIRST_Z_BUFFER };

struct widen_args {
    int64_t z0;
};

/* The columns of Z's block in buffer @p k that C takes: from its column
 * *from, *count of them, into C's column *to; @p zb is the block's first
 * column in Z, updated past it. */
static void block_part(void *buffers[], int k, int64_t z0, int64_t cols, int64_t *zb, int64_t *from, int64_t *count,
                       int64_t *to)
{
    const int64_t width = STARPU_MATRIX_GET_NY(buffers[k]), lo = z0 > *zb ? z0 : *zb,
                  hi = z0 + cols < *zb + width ? z0 + cols : *zb + width;

    *from = lo - *zb;
    *count = hi > lo ? hi - lo : 0;
    *to = lo - z0;
    *zb += width;
}

static void widen_cpu(void *buffers[], void *cl_arg)
{
    const int64_t z0 = ((const struct widen_args *)cl_arg)->z0;
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[C_BUFFER]);
    const int64_t ldc = STARPU_MATRIX_GET_LD(buffers[C_BUFFER]), rows = STARPU_MATRIX_GET_NX(buffers[C_BUFFER]),
                  cols = STARPU_MATRIX_GET_NY(buffers[C_BUFFER]);
    int64_t zb = 0;

    for (int k = FIRST_Z_BUFFER; k < startrd_current_nbuffers(); k++) {
        const double *z = (const double *)STARPU_MATRIX_GET_PTR(buffers[k]);
        const int64_t ldz = STARPU_MATRIX_GET_LD(buffers[k]);
        int64_t from, count, to;

        block_part(buffers, k, z0, cols, &zb, &from, &count, &to);
        for (int64_t j = 0; j < count; j++)
            for (int64_t i = 0; i < rows; i++)
                c[i + (to + j) * ldc] = z[i + (from + j) * ldz];
    }
}

#ifdef STARTRD_USE_CUDA
static void widen_cuda(void *buffers[], void *cl_arg)
{
    const int64_t z0 = ((const struct widen_args *)cl_arg)->z0;
    cuDoubleComplex *c = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[C_BUFFER]);
    const int64_t ldc = STARPU_MATRIX_GET_LD(buffers[C_BUFFER]), rows = STARPU_MATRIX_GET_NX(buffers[C_BUFFER]),
                  cols = STARPU_MATRIX_GET_NY(buffers[C_BUFFER]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    int64_t zb = 0;

    for (int k = FIRST_Z_BUFFER; k < startrd_current_nbuffers(); k++) {
        const double *z = (const double *)STARPU_MATRIX_GET_PTR(buffers[k]);
        const int64_t ldz = STARPU_MATRIX_GET_LD(buffers[k]);
        int64_t from, count, to;
        cudaError_t st;

        block_part(buffers, k, z0, cols, &zb, &from, &count, &to);
        if (count > 0 &&
            (st = startrd_cuda_zwiden(rows, count, z + from * ldz, ldz, c + to * ldc, ldc, stream)) != cudaSuccess) {
            startrd_kernel_failure("zwiden_columns", "widening kernel", st);
            return;
        }
    }
}
#endif

STARTRD_HISTORY_MODEL(widen_model, "startrd_zwiden_columns");

static struct starpu_codelet widen_codelet = {
    .name = "zwiden_columns",
    .cpu_funcs = {widen_cpu},
    STARTRD_CUDA_ASYNC(widen_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &widen_model,
};

int startrd_task_zwiden_columns(unsigned long long where, int worker, int64_t z0, int64_t zwidth, int64_t nz,
                                const starpu_data_handle_t *Z, starpu_data_handle_t C)
{
    const int64_t cols = (int64_t)starpu_matrix_get_ny(C), b0 = z0 / zwidth,
                  b1 = (z0 + cols - 1) / zwidth < nz - 1 ? (z0 + cols - 1) / zwidth : nz - 1;
    struct widen_args *args = malloc(sizeof *args);
    struct starpu_data_descr *descr = malloc((size_t)(FIRST_Z_BUFFER + b1 - b0 + 1) * sizeof *descr);
    int ret;

    if (args == NULL || descr == NULL) {
        free(args);
        free(descr);
        return -ENOMEM;
    }
    /* Only the blocks that hold C's columns. */
    args->z0 = z0 - b0 * zwidth;
    descr[C_BUFFER] = (struct starpu_data_descr){.handle = C, .mode = STARPU_W};
    for (int64_t k = b0; k <= b1; k++)
        descr[FIRST_Z_BUFFER + k - b0] = (struct starpu_data_descr){.handle = Z[k], .mode = STARPU_R};
    ret = starpu_task_insert(&widen_codelet,
                             STARPU_CL_ARGS, args, sizeof *args,
                             STARPU_DATA_MODE_ARRAY, descr, (int)(FIRST_Z_BUFFER + b1 - b0 + 1),
                             STARPU_EXECUTE_WHERE, where, STARPU_EXECUTE_ON_WORKER, worker,
                             0);
    free(descr);
    return ret;
}
