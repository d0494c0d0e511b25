/* Each CPU worker's pinned buffers, and its stream and events on every GPU
 * that StarPU drives, made on the worker itself; the copies both ways go
 * through them. */
#include "cuda_upload.h"

#include "workers.h"
#include "error.h"

#ifdef STARTRD_USE_CUDA
#include <string.h>

/* Per buffer.  A column of up to 2^19 rows fits; a quarter of a 64-wide
 * block column of a 32768 matrix fills one, so the packing (or unpacking)
 * of a quarter overlaps the transfer of the next. */
#define BUFFER_BYTES ((size_t)8 << 20)

struct upload {
    void *buf[2];
    cudaStream_t stream[STARPU_MAXCUDADEVS];
    cudaEvent_t moved[STARPU_MAXCUDADEVS][2];    /* the transfer to or from buf[i] has ended */
};

static struct upload uploads[STARPU_NMAXWORKERS];
static int used_device[STARPU_MAXCUDADEVS];

static void destroy(void *arg)
{
    struct upload *u = &uploads[starpu_worker_get_id_check()];

    (void)arg;
    for (int d = 0; d < STARPU_MAXCUDADEVS; d++) {
        if (u->stream[d] == NULL)
            continue;
        cudaSetDevice(d);
        cudaEventDestroy(u->moved[d][0]);
        cudaEventDestroy(u->moved[d][1]);
        cudaStreamDestroy(u->stream[d]);
    }
    cudaFreeHost(u->buf[0]);
    cudaFreeHost(u->buf[1]);
    memset(u, 0, sizeof *u);
}

static int create(void)
{
    struct upload *u = &uploads[starpu_worker_get_id_check()];
    cudaError_t st = cudaSuccess;

    for (int i = 0; i < 2 && st == cudaSuccess; i++)
        st = cudaHostAlloc(&u->buf[i], BUFFER_BYTES, cudaHostAllocPortable);
    for (int d = 0; d < STARPU_MAXCUDADEVS && st == cudaSuccess; d++) {
        cudaStream_t stream;

        if (!used_device[d])
            continue;
        if ((st = cudaSetDevice(d)) != cudaSuccess ||
            (st = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) != cudaSuccess)
            break;
        if ((st = cudaEventCreateWithFlags(&u->moved[d][0], cudaEventDisableTiming)) != cudaSuccess) {
            cudaStreamDestroy(stream);
            break;
        }
        if ((st = cudaEventCreateWithFlags(&u->moved[d][1], cudaEventDisableTiming)) != cudaSuccess) {
            cudaEventDestroy(u->moved[d][0]);
            cudaStreamDestroy(stream);
            break;
        }
        u->stream[d] = stream;
    }
    if (st == cudaSuccess)
        return 0;
    destroy(NULL);
    startrd_error("CPU worker %d: pinned buffers or streams for the copies in failed (%d)",
                  starpu_worker_get_id_check(), (int)st);
    return -1;
}

int startrd_cuda_upload_open(void)
{
    int workers[STARPU_NMAXWORKERS];
    int n = (int)starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, workers, STARPU_NMAXWORKERS);

    if (n == 0)
        return 0;
    memset(used_device, 0, sizeof used_device);
    for (int i = 0; i < n; i++)
        used_device[starpu_worker_get_devid(workers[i])] = 1;
    return startrd_on_each_worker(create, STARPU_CPU, startrd_cuda_upload_close);
}

void startrd_cuda_upload_close(void)
{
    if (starpu_worker_get_count_by_type(STARPU_CUDA_WORKER) > 0)
        starpu_execute_on_each_worker(destroy, NULL, STARPU_CPU);
}

cudaStream_t startrd_cuda_upload_stream(int devid)
{
    const struct upload *u = &uploads[starpu_worker_get_id_check()];

    if (devid < 0 || devid >= STARPU_MAXCUDADEVS || u->stream[devid] == NULL || cudaSetDevice(devid) != cudaSuccess)
        return NULL;
    return u->stream[devid];
}

/* Columns per buffer into *per, for columns of @p rows entries on device
 * @p devid, which it selects. */
static cudaError_t columns_per_buffer(const struct upload *u, int devid, size_t entry_bytes, int64_t rows,
                                      int64_t cols, int64_t *per)
{
    *per = rows > 0 ? (int64_t)(BUFFER_BYTES / ((size_t)rows * entry_bytes)) : cols;
    if (devid < 0 || devid >= STARPU_MAXCUDADEVS || u->stream[devid] == NULL || *per < 1)
        return cudaErrorInvalidValue;
    return cudaSetDevice(devid);
}

/* Columns q0 .. q1-1 between buf[i] and the device, on the worker's stream
 * for that device, and the event that marks their end. */
static cudaError_t move(struct upload *u, int devid, int i, int to_device, size_t z, void *dev, int64_t ldd,
                        int64_t rows, int64_t q0, int64_t q1)
{
    const size_t width = (size_t)rows * z;
    char *d = (char *)dev + (size_t)(q0 * ldd) * z;
    cudaError_t st = to_device ? cudaMemcpy2DAsync(d, (size_t)ldd * z, u->buf[i], width, width, (size_t)(q1 - q0),
                                                   cudaMemcpyHostToDevice, u->stream[devid])
                               : cudaMemcpy2DAsync(u->buf[i], width, d, (size_t)ldd * z, width, (size_t)(q1 - q0),
                                                   cudaMemcpyDeviceToHost, u->stream[devid]);

    return st == cudaSuccess ? cudaEventRecord(u->moved[devid][i], u->stream[devid]) : st;
}

/* Even after a failure the buffers must be idle when a copy returns. */
static cudaError_t drain(const struct upload *u, int devid, cudaError_t st)
{
    cudaError_t sync = cudaStreamSynchronize(u->stream[devid]);

    return st != cudaSuccess ? st : sync;
}

int startrd_cuda_upload(int devid, size_t entry_bytes, void *dst, int64_t ldd, int64_t rows, int64_t cols,
                        startrd_cuda_columns_t pack, void *arg)
{
    struct upload *u = &uploads[starpu_worker_get_id_check()];
    int64_t per;
    int filled[2] = {0, 0};
    cudaError_t st = columns_per_buffer(u, devid, entry_bytes, rows, cols, &per);

    if (st != cudaSuccess)
        return st;
    for (int64_t q0 = 0, i = 0; q0 < cols && st == cudaSuccess; q0 += per, i ^= 1) {
        int64_t q1 = q0 + per < cols ? q0 + per : cols;

        if (filled[i] && (st = cudaEventSynchronize(u->moved[devid][i])) != cudaSuccess)
            break;
        pack(arg, u->buf[i], rows, q0, q1);
        st = move(u, devid, (int)i, 1, entry_bytes, dst, ldd, rows, q0, q1);
        filled[i] = 1;
    }
    return drain(u, devid, st);
}

int startrd_cuda_download(int devid, size_t entry_bytes, void *src, int64_t lds, int64_t rows, int64_t cols,
                          startrd_cuda_columns_t unpack, void *arg)
{
    struct upload *u = &uploads[starpu_worker_get_id_check()];
    int64_t per;
    cudaError_t st = columns_per_buffer(u, devid, entry_bytes, rows, cols, &per);

    if (st != cudaSuccess)
        return st;
    if (cols > 0)
        st = move(u, devid, 0, 0, entry_bytes, src, lds, rows, 0, per < cols ? per : cols);
    /* The next columns come into the other buffer while these are unpacked;
     * that buffer was unpacked in the turn before. */
    for (int64_t q0 = 0, i = 0; q0 < cols && st == cudaSuccess; q0 += per, i ^= 1) {
        int64_t q1 = q0 + per < cols ? q0 + per : cols;

        if (q1 < cols)
            st = move(u, devid, (int)(i ^ 1), 0, entry_bytes, src, lds, rows, q1, q1 + per < cols ? q1 + per : cols);
        if (st == cudaSuccess && (st = cudaEventSynchronize(u->moved[devid][i])) == cudaSuccess)
            unpack(arg, u->buf[i], rows, q0, q1);
    }
    return drain(u, devid, st);
}
#else
int startrd_cuda_upload_open(void)
{
    return 0;
}

void startrd_cuda_upload_close(void)
{
}
#endif
