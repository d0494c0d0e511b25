/* P = [W V W], the workspace of the update (codelet_zher2k_columns.c), whose
 * column ranges [W V] and [V W] are the two operands of its rank-2nb GEMM.
 * Once per panel and copy of W, on the worker that then updates. */
#include "codelets.h"
#include "error.h"

#include <string.h>

enum { BUF_W, BUF_V, BUF_P };

/* The buffer each third of P is copied from. */
static const int source[3] = {BUF_W, BUF_V, BUF_W};

/* P, in bytes: where it starts, its leading dimension, the bytes of a
 * column (all its rows), and nb. */
struct packed {
    char *p;
    size_t ldp, rows, nb;
};

static struct packed packed_view(void *buffers[])
{
    const size_t z = sizeof(double complex);

    return (struct packed){(char *)STARPU_MATRIX_GET_PTR(buffers[BUF_P]), STARPU_MATRIX_GET_LD(buffers[BUF_P]) * z,
                           STARPU_MATRIX_GET_NX(buffers[BUF_P]) * z, STARPU_MATRIX_GET_NY(buffers[BUF_W])};
}

static void pack_wvw_cpu(void *buffers[], void *cl_arg)
{
    struct packed p = packed_view(buffers);

    (void)cl_arg;
    for (size_t b = 0; b < 3; b++) {
        const char *src = (const char *)STARPU_MATRIX_GET_PTR(buffers[source[b]]);
        size_t lds = STARPU_MATRIX_GET_LD(buffers[source[b]]) * sizeof(double complex);

        for (size_t c = 0; c < p.nb; c++)
            memcpy(p.p + (b * p.nb + c) * p.ldp, src + c * lds, p.rows);
    }
}

#ifdef STARTRD_USE_CUDA
static void pack_wvw_cuda(void *buffers[], void *cl_arg)
{
    struct packed p = packed_view(buffers);

    (void)cl_arg;
    for (size_t b = 0; b < 3; b++) {
        cudaError_t st = cudaMemcpy2DAsync(p.p + b * p.nb * p.ldp, p.ldp,
                                           (const void *)STARPU_MATRIX_GET_PTR(buffers[source[b]]),
                                           STARPU_MATRIX_GET_LD(buffers[source[b]]) * sizeof(double complex), p.rows,
                                           p.nb, cudaMemcpyDeviceToDevice, starpu_cuda_get_local_stream());

        if (st != cudaSuccess) {
            startrd_kernel_failure("pack_wvw", "cudaMemcpy2DAsync", st);
            return;
        }
    }
}
#endif

STARTRD_HISTORY_MODEL(pack_wvw_model, "startrd_zpack_wvw");

static struct starpu_codelet pack_wvw_codelet = {
    .name = "zpack_wvw",
    .cpu_funcs = {pack_wvw_cpu},
    STARTRD_CUDA_ASYNC(pack_wvw_cuda)
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_R, STARPU_W},
    .model = &pack_wvw_model,
};

int startrd_task_zpack_wvw(startrd_place_t place, starpu_data_handle_t W, starpu_data_handle_t V,
                           starpu_data_handle_t P)
{
    return starpu_task_insert(&pack_wvw_codelet,
                              STARPU_R, W, STARPU_R, V, STARPU_W, P,
                              STARTRD_PLACE_ARGS(place),
                              0);
}
