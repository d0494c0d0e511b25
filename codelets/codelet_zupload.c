/* Host memory into a handle's buffer on one memory node, copied by a CPU
 * worker: onto a GPU through the worker's pinned buffers (cuda_upload.h),
 * or by one DMA copy where the source is pinned; into main memory
 * directly; a caller's matrix in GPU memory by a copy from that GPU.
 * StarPU copies a handle registered on the caller's pageable memory
 * itself, from the GPU's worker, at a fraction of that rate, and the GPU's
 * tasks wait for it (docs/architecture.md, "Q's uploads"); split into
 * pieces, several CPU workers copy side by side.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "cuda_upload.h"
#include "error.h"
#include "user_memory.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A vector goes as columns of this many entries (a pinned buffer holds two
 * of them), its remainder as one shorter column. */
#define VECTOR_COLUMN ((int64_t)1 << 18)

struct upload_args {
    const double complex *src;
    int64_t lds;            /* the source's leading dimension (matrices) */
    int src_devid;          /* the GPU whose memory holds src, or -1: host memory */
};

/* Columns q0 .. q1-1 of rows entries each, from src with leading dimension lds. */
struct pack_source {
    const double complex *src;
    int64_t lds, rows;
};

static void pack_columns(void *arg, void *packed, int64_t ld, int64_t q0, int64_t q1)
{
    const struct pack_source *s = arg;
    double complex *buf = packed;

    for (int64_t q = q0; q < q1; q++)
        memcpy(buf + (q - q0) * ld, s->src + q * s->lds, (size_t)s->rows * sizeof *buf);
}

/* devid < 0: dst is in main memory. */
static int upload_columns(int devid, double complex *dst, int64_t ldd, const double complex *src, int64_t lds,
                          int64_t rows, int64_t cols)
{
    struct pack_source s = {src, lds, rows};

    if (rows <= 0 || cols <= 0)
        return 0;
    if (devid < 0) {
        pack_columns(&s, dst, ldd, 0, cols);
        return 0;
    }
#ifdef STARTRD_USE_CUDA
    return startrd_cuda_upload(devid, sizeof *dst, dst, ldd, rows, cols, pack_columns, &s);
#else
    return -1;
#endif
}

#ifdef STARTRD_USE_CUDA
/* A source that a GPU reads by DMA, a caller's matrix in GPU memory or
 * pinned host memory: one copy on the worker's stream of the destination's
 * GPU (or into main memory).  0 or the CUDA status. */
static cudaError_t copy_by_dma(int devid, double complex *dst, int64_t ldd, const double complex *src, int64_t lds,
                                 int64_t rows, int64_t cols)
{
    const size_t z = sizeof *dst;
    cudaStream_t stream = devid >= 0 ? startrd_cuda_upload_stream(devid) : NULL;
    cudaError_t st;

    if (rows <= 0 || cols <= 0)
        return cudaSuccess;
    if (devid < 0)
        return cudaMemcpy2D(dst, (size_t)ldd * z, src, (size_t)lds * z, (size_t)rows * z, (size_t)cols,
                            cudaMemcpyDefault);
    if (stream == NULL)
        return cudaErrorInvalidDevice;
    st = cudaMemcpy2DAsync(dst, (size_t)ldd * z, src, (size_t)lds * z, (size_t)rows * z, (size_t)cols,
                           cudaMemcpyDefault, stream);
    return st == cudaSuccess ? cudaStreamSynchronize(stream) : st;
}
#endif

static void upload_cpu(void *buffers[], void *cl_arg)
{
    const struct upload_args *a = cl_arg;
    const unsigned node = (unsigned)starpu_task_get_current_data_node(0);
    const int devid = starpu_node_get_kind(node) == STARPU_CUDA_RAM ? starpu_memory_node_get_devid(node) : -1;
    const struct starpu_vector_interface *iface = buffers[0];
    const int vector = iface->id == STARPU_VECTOR_INTERFACE_ID;
    /* A vector as one column. */
    double complex *dst =
        (double complex *)(vector ? STARPU_VECTOR_GET_PTR(buffers[0]) : STARPU_MATRIX_GET_PTR(buffers[0]));
    const int64_t rows = vector ? (int64_t)STARPU_VECTOR_GET_NX(buffers[0]) : (int64_t)STARPU_MATRIX_GET_NX(buffers[0]),
                  cols = vector ? 1 : (int64_t)STARPU_MATRIX_GET_NY(buffers[0]),
                  ldd = vector ? rows : (int64_t)STARPU_MATRIX_GET_LD(buffers[0]), lds = vector ? rows : a->lds;
    int st;

#ifdef STARTRD_USE_CUDA
    if (a->src_devid >= 0 || (devid >= 0 && startrd_user_pinned(a->src))) {
        if ((st = copy_by_dma(devid, dst, ldd, a->src, lds, rows, cols)) != 0)
            startrd_kernel_failure("upload", "cudaMemcpy2DAsync", st);
        return;
    }
#endif
    if (vector) {
        /* Through the pinned buffers in columns of VECTOR_COLUMN entries. */
        const int64_t len = rows, col = len < VECTOR_COLUMN ? len : VECTOR_COLUMN, ncol = col > 0 ? len / col : 0;

        st = upload_columns(devid, dst, col, a->src, col, col, ncol);
        if (st == 0)
            st = upload_columns(devid, dst + col * ncol, len - col * ncol, a->src + col * ncol, len - col * ncol,
                                len - col * ncol, 1);
    } else {
        st = upload_columns(devid, dst, ldd, a->src, lds, rows, cols);
    }
    if (st != 0)
        startrd_kernel_failure("upload", "startrd_cuda_upload", st);
}

STARTRD_HISTORY_MODEL(upload_model, "startrd_zupload");

/* The destination's memory node is part of the codelet: one per node. */
static struct starpu_codelet upload_codelets[STARPU_MAXNODES];
static pthread_once_t upload_once = PTHREAD_ONCE_INIT;

static void init_upload(void)
{
    for (int node = 0; node < STARPU_MAXNODES; node++)
        upload_codelets[node] = (struct starpu_codelet){
            .name = "zupload",
            .cpu_funcs = {upload_cpu},
            .nbuffers = 1,
            .modes = {STARPU_W},
            .specific_nodes = 1,
            .nodes = {node},
            .model = &upload_model,
        };
}

int startrd_task_zupload(int node, int worker, const double complex *src, int64_t lds, int src_devid,
                         starpu_data_handle_t dst)
{
    struct upload_args *args;

    if (node < 0 || node >= STARPU_MAXNODES ||
        (starpu_node_get_kind((unsigned)node) != STARPU_CUDA_RAM && node != STARPU_MAIN_RAM))
        return -EINVAL;
    if ((args = malloc(sizeof *args)) == NULL)
        return -ENOMEM;
    pthread_once(&upload_once, init_upload);
    *args = (struct upload_args){src, lds, src_devid};
    return starpu_task_insert(&upload_codelets[node],
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_W, dst,
                              STARPU_EXECUTE_WHERE, STARPU_CPU,
                              STARPU_EXECUTE_ON_WORKER, worker,
                              STARPU_PRIORITY, STARPU_MAX_PRIO,
                              STARPU_NAME, "upload",
                              0);
}
