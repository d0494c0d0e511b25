/* A matrix handle's buffer on one memory node into host memory, all of it
 * or one triangle, copied by a CPU worker: from a GPU through the worker's
 * pinned buffers (cuda_upload.h), from main memory directly; into a
 * caller's matrix in GPU memory by copies and kernels there.  The
 * counterpart of codelet_zupload.c, for the same reason: StarPU's own
 * copies to the caller's pageable memory run at a fraction of the rate.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "cuda_upload.h"
#include "error.h"
#include "tile_conversion.h"
#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct download_args {
    double complex *dst;
    int64_t ldd;
    char part;    /* 'A': all; 'L', 'U': that triangle, the rest of dst untouched */
    int dst_devid; /* the GPU whose memory holds dst, or -1: host memory */
};

/* Where columns go: the task's arguments and the tile's height. */
struct unpack_target {
    const struct download_args *a;
    int64_t rows;
};

static void unpack_columns(void *arg, void *packed, int64_t ld, int64_t q0, int64_t q1)
{
    const struct download_args *a = ((const struct unpack_target *)arg)->a;
    const int64_t rows = ((const struct unpack_target *)arg)->rows;
    const double complex *buf = packed;

    for (int64_t q = q0; q < q1; q++) {
        const int64_t first = a->part == 'L' ? (q < rows ? q : rows) : 0;
        const int64_t last = a->part == 'U' ? (q + 1 < rows ? q + 1 : rows) : rows;

        memcpy(a->dst + q * a->ldd + first, buf + (q - q0) * ld + first, (size_t)(last - first) * sizeof *buf);
    }
}

#ifdef STARTRD_USE_CUDA
/* Into a caller's matrix in the memory of GPU a->dst_devid, the tile on
 * GPU @p devid (-1: main memory): a copy between GPUs for all of it; for a
 * triangle, a kernel on the caller's GPU that copies it from the tile, or
 * from a copy of the tile made there.  0 or the CUDA status. */
static cudaError_t download_to_gpu(const struct download_args *a, int devid, const double complex *src, int64_t lds,
                                   int64_t rows, int64_t cols)
{
    const size_t z = sizeof *src;
    const int here = a->part == 'A' || devid == a->dst_devid;
    cudaStream_t stream = startrd_cuda_upload_stream(here && devid >= 0 ? devid : a->dst_devid);
    double complex *scratch = NULL;
    cudaError_t st;

    if (stream == NULL)
        return cudaErrorInvalidDevice;
    if (a->part == 'A')
        st = cudaMemcpy2DAsync(a->dst, (size_t)a->ldd * z, src, (size_t)lds * z, (size_t)rows * z, (size_t)cols,
                               cudaMemcpyDefault, stream);
    else {
        const double complex *from = src;
        int64_t ldf = lds;

        st = cudaSuccess;
        if (!here && (st = cudaMallocAsync((void **)&scratch, (size_t)(rows * cols) * z, stream)) == cudaSuccess) {
            st = cudaMemcpy2DAsync(scratch, (size_t)rows * z, src, (size_t)lds * z, (size_t)rows * z, (size_t)cols,
                                   cudaMemcpyDefault, stream);
            from = scratch;
            ldf = rows;
        }
        if (st == cudaSuccess)
            st = startrd_cuda_ztile_convert(a->part == 'L' ? STARTRD_TILE_LOWER_PART : STARTRD_TILE_UPPER_PART, rows,
                                            cols, (const cuDoubleComplex *)from, ldf, (cuDoubleComplex *)a->dst,
                                            a->ldd, stream);
        if (scratch != NULL) {
            const cudaError_t freed = cudaFreeAsync(scratch, stream);

            st = st != cudaSuccess ? st : freed;
        }
    }
    return st == cudaSuccess ? cudaStreamSynchronize(stream) : st;
}
#endif

static void download_cpu(void *buffers[], void *cl_arg)
{
    const unsigned node = (unsigned)starpu_task_get_current_data_node(0);
    double complex *src = (double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const int64_t lds = (int64_t)STARPU_MATRIX_GET_LD(buffers[0]), rows = (int64_t)STARPU_MATRIX_GET_NX(buffers[0]),
                  cols = (int64_t)STARPU_MATRIX_GET_NY(buffers[0]);
    struct unpack_target target = {cl_arg, rows};
    int st = 0;

    if (rows <= 0 || cols <= 0)
        return;
    if (target.a->dst_devid >= 0) {
#ifdef STARTRD_USE_CUDA
        const int devid = starpu_node_get_kind(node) == STARPU_CUDA_RAM ? starpu_memory_node_get_devid(node) : -1;

        st = download_to_gpu(target.a, devid, src, lds, rows, cols);
        if (st != 0)
            startrd_kernel_failure("download", "a copy to the caller's GPU", st);
#endif
        return;
    }
    if (starpu_node_get_kind(node) != STARPU_CUDA_RAM) {
        unpack_columns(&target, src, lds, 0, cols);
        return;
    }
#ifdef STARTRD_USE_CUDA
    st = startrd_cuda_download(starpu_memory_node_get_devid(node), sizeof *src, src, lds, rows, cols, unpack_columns,
                               &target);
#endif
    if (st != 0)
        startrd_kernel_failure("download", "startrd_cuda_download", st);
}

/* A contiguous range of a vector, seen as columns that fit the pinned
 * buffers several at a time. */
enum { RANGE_ROWS = 1 << 16 };

struct range_args {
    double complex *dst;
    int64_t offset, count;
};

static void unpack_range(void *arg, void *packed, int64_t ld, int64_t q0, int64_t q1)
{
    memcpy((double complex *)arg + q0 * ld, packed, (size_t)((q1 - q0) * ld) * sizeof(double complex));
}

static void download_range_cpu(void *buffers[], void *cl_arg)
{
    const struct range_args *a = cl_arg;
    const unsigned node = (unsigned)starpu_task_get_current_data_node(0);
    double complex *src = (double complex *)STARPU_VECTOR_GET_PTR(buffers[0]) + a->offset;

    if (starpu_node_get_kind(node) != STARPU_CUDA_RAM) {
        memcpy(a->dst, src, (size_t)a->count * sizeof *src);
        return;
    }
#ifdef STARTRD_USE_CUDA
    const int devid = starpu_memory_node_get_devid(node);
    const int64_t rows = a->count < RANGE_ROWS ? a->count : RANGE_ROWS, cols = rows > 0 ? a->count / rows : 0,
                  rest = a->count - rows * cols;
    int st = startrd_cuda_download(devid, sizeof *src, src, rows, rows, cols, unpack_range, a->dst);

    if (st == 0 && rest > 0)
        st = startrd_cuda_download(devid, sizeof *src, src + rows * cols, rest, rest, 1, unpack_range,
                                   a->dst + rows * cols);
    if (st != 0)
        startrd_kernel_failure("download_range", "startrd_cuda_download", st);
#endif
}

STARTRD_HISTORY_MODEL(download_model, "startrd_zdownload");
STARTRD_HISTORY_MODEL(download_range_model, "startrd_zdownload_range");

/* The source's memory node is part of the codelet: one per node. */
static struct starpu_codelet download_codelets[STARPU_MAXNODES], download_range_codelets[STARPU_MAXNODES];
static pthread_once_t download_once = PTHREAD_ONCE_INIT;

static void init_download(void)
{
    for (int node = 0; node < STARPU_MAXNODES; node++) {
        download_codelets[node] = (struct starpu_codelet){
            .name = "zdownload",
            .cpu_funcs = {download_cpu},
            .nbuffers = 1,
            .modes = {STARPU_R},
            .specific_nodes = 1,
            .nodes = {node},
            .model = &download_model,
        };
        download_range_codelets[node] = download_codelets[node];
        download_range_codelets[node].name = "zdownload_range";
        download_range_codelets[node].cpu_funcs[0] = download_range_cpu;
        download_range_codelets[node].model = &download_range_model;
    }
}

/* Whether a download can read from @p node. */
static int downloads_from(int node)
{
    return node >= 0 && node < STARPU_MAXNODES &&
           (starpu_node_get_kind((unsigned)node) == STARPU_CUDA_RAM || node == STARPU_MAIN_RAM);
}

/* A download task of @p codelets' codelet for @p node, reading @p src on
 * that node, its arguments a malloc'ed copy of @p args. */
static int insert(struct starpu_codelet *codelets, int node, starpu_data_handle_t src, const void *args,
                  size_t bytes, const char *name)
{
    void *copy;

    if (!downloads_from(node))
        return -EINVAL;
    if ((copy = malloc(bytes)) == NULL)
        return -ENOMEM;
    memcpy(copy, args, bytes);
    pthread_once(&download_once, init_download);
    return starpu_task_insert(&codelets[node],
                              STARPU_CL_ARGS, copy, bytes,
                              STARPU_R, src,
                              STARPU_EXECUTE_WHERE, STARPU_CPU,
                              STARPU_NAME, name,
                              0);
}

int startrd_task_zdownload(int node, starpu_data_handle_t src, char part, double complex *dst, int64_t ldd,
                           int dst_devid)
{
    const struct download_args args = {dst, ldd, part, dst_devid};

    return insert(download_codelets, node, src, &args, sizeof args, "download");
}

int startrd_task_zdownload_range(int node, starpu_data_handle_t src, int64_t offset, int64_t count,
                                 double complex *dst)
{
    const struct range_args args = {dst, offset, count};

    if (offset < 0 || count < 0)
        return -EINVAL;
    return insert(download_range_codelets, node, src, &args, sizeof args, "download_range");
}
