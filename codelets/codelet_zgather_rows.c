/* Y = the full-height X = A22 * V of a stage-1 step, assembled from the
 * compact block rows each worker formed for its own block columns
 * (codelet_zhemm_rows.c): every segment copies a run of rows from one
 * worker's buffer to their place in Y, and the rows above the trailing
 * matrix are zeroed (W multiplies all of Y).  Each buffer is a copy of
 * only the rows its worker owns: the only communication of the scheme.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

enum { BUF_Y, BUF_FIRST_SOURCE };

struct gather_args {
    int64_t row0;                   /* first row of the trailing matrix */
    int nsegments;
    startrd_row_segment_t seg[];
};

static void gather_rows_cpu(void *buffers[], void *cl_arg)
{
    const struct gather_args *a = cl_arg;
    double complex *y = (double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_Y]);
    size_t ldy = STARPU_MATRIX_GET_LD(buffers[BUF_Y]), cols = STARPU_MATRIX_GET_NY(buffers[BUF_Y]);

    for (size_t c = 0; c < cols; c++)
        memset(y + c * ldy, 0, (size_t)a->row0 * sizeof *y);
    for (int s = 0; s < a->nsegments; s++) {
        const startrd_row_segment_t *g = &a->seg[s];
        void *src = buffers[BUF_FIRST_SOURCE + g->source];
        const double complex *x = (const double complex *)STARPU_MATRIX_GET_PTR(src) + g->src_row;
        size_t ldx = STARPU_MATRIX_GET_LD(src);

        for (size_t c = 0; c < cols; c++)
            memcpy(y + c * ldy + g->dst_row, x + c * ldx, (size_t)g->rows * sizeof *y);
    }
}

#ifdef STARTRD_USE_CUDA
static void gather_rows_cuda(void *buffers[], void *cl_arg)
{
    const struct gather_args *a = cl_arg;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    double complex *y = (double complex *)STARPU_MATRIX_GET_PTR(buffers[BUF_Y]);
    size_t z = sizeof *y, ldy = STARPU_MATRIX_GET_LD(buffers[BUF_Y]) * z;
    size_t cols = STARPU_MATRIX_GET_NY(buffers[BUF_Y]);
    cudaError_t st = a->row0 > 0 ? cudaMemset2DAsync(y, ldy, 0, (size_t)a->row0 * z, cols, stream) : cudaSuccess;

    for (int s = 0; s < a->nsegments && st == cudaSuccess; s++) {
        const startrd_row_segment_t *g = &a->seg[s];
        void *src = buffers[BUF_FIRST_SOURCE + g->source];

        st = cudaMemcpy2DAsync(y + g->dst_row, ldy, (const double complex *)STARPU_MATRIX_GET_PTR(src) + g->src_row,
                               STARPU_MATRIX_GET_LD(src) * z, (size_t)g->rows * z, cols, cudaMemcpyDeviceToDevice,
                               stream);
    }
    if (st != cudaSuccess)
        startrd_kernel_failure("gather_rows", "cudaMemcpy2DAsync", st);
}
#endif

STARTRD_HISTORY_MODEL(gather_rows_model, "startrd_zgather_rows");

static struct starpu_codelet gather_rows_codelet = {
    .name = "zgather_rows",
    .cpu_funcs = {gather_rows_cpu},
    STARTRD_CUDA_ASYNC(gather_rows_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &gather_rows_model,
};

int startrd_task_zgather_rows(startrd_place_t place, starpu_data_handle_t Y, int64_t row0, int nsources,
                              const starpu_data_handle_t *sources, int nsegments, const startrd_row_segment_t *seg)
{
    size_t size = sizeof(struct gather_args) + (size_t)nsegments * sizeof *seg;
    struct gather_args *args = malloc(size);
    struct starpu_data_descr *descr = malloc((size_t)(nsources + BUF_FIRST_SOURCE) * sizeof *descr);
    int ret;

    if (args == NULL || descr == NULL) {
        free(args);
        free(descr);
        return -ENOMEM;
    }
    args->row0 = row0;
    args->nsegments = nsegments;
    memcpy(args->seg, seg, (size_t)nsegments * sizeof *seg);
    descr[BUF_Y] = (struct starpu_data_descr){Y, STARPU_W};
    for (int i = 0; i < nsources; i++)
        descr[BUF_FIRST_SOURCE + i] = (struct starpu_data_descr){sources[i], STARPU_R};
    ret = starpu_task_insert(&gather_rows_codelet,
                             STARPU_CL_ARGS, args, size,
                             STARPU_DATA_MODE_ARRAY, descr, nsources + BUF_FIRST_SOURCE,
                             STARTRD_PLACE_ARGS(place),
                             0);
    free(descr);
    return ret;
}
