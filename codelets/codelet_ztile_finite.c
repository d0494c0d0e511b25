/* Whether a tile of a caller's matrix holds NaN or Inf: the check the
 * drivers make on host arrays before anything is written, made where the
 * tiles of an array in GPU memory arrive.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"
#include "kernels_stage1_z.h"

#include <math.h>
#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct finite_args {
    char part;              /* 'A', or the triangle 'L' or 'U' */
    atomic_int *nonfinite;
};

static void finite_cpu(void *buffers[], void *cl_arg)
{
    const struct finite_args *a = cl_arg;
    const double complex *A = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const int64_t m = STARPU_MATRIX_GET_NX(buffers[0]), n = STARPU_MATRIX_GET_NY(buffers[0]),
                  lda = STARPU_MATRIX_GET_LD(buffers[0]);
    double sum = 0.0;

    for (int64_t j = 0; j < n; j++) {
        const int64_t first = a->part == 'L' ? (j < m ? j : m) : 0, last = a->part == 'U' ? (j < m ? j + 1 : m) : m;

        sum += startrd_znan_sum(A + j * lda + first, last - first);
    }
    if (isnan(sum))
        atomic_store(a->nonfinite, 1);
}

#ifdef STARTRD_USE_CUDA
/* The verdict comes back to the host within the task: the flag is the
 * task's own, on the stream, and read once the stream has run. */
static void finite_cuda(void *buffers[], void *cl_arg)
{
    const struct finite_args *a = cl_arg;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    int *flag = NULL, found = 0;
    const char *call = "cudaMallocAsync";
    cudaError_t st = cudaMallocAsync((void **)&flag, sizeof *flag, stream);

    if (st == cudaSuccess && (st = cudaMemsetAsync(flag, 0, sizeof *flag, stream)) == cudaSuccess) {
        call = "startrd_cuda_ztile_finite";
        st = startrd_cuda_ztile_finite(a->part, STARPU_MATRIX_GET_NX(buffers[0]), STARPU_MATRIX_GET_NY(buffers[0]),
                                       (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]),
                                       STARPU_MATRIX_GET_LD(buffers[0]), flag, stream);
        if (st == cudaSuccess)
            st = cudaMemcpyAsync(&found, flag, sizeof found, cudaMemcpyDeviceToHost, stream);
    }
    if (flag != NULL) {
        const cudaError_t freed = cudaFreeAsync(flag, stream);

        st = st != cudaSuccess ? st : freed;
    }
    if (st == cudaSuccess && (st = cudaStreamSynchronize(stream)) == cudaSuccess && found)
        atomic_store(a->nonfinite, 1);
    if (st != cudaSuccess)
        startrd_kernel_failure("ztile_finite", call, st);
}
#endif

STARTRD_HISTORY_MODEL(finite_model, "startrd_ztile_finite");

static struct starpu_codelet finite_codelet = {
    .name = "ztile_finite",
    .cpu_funcs = {finite_cpu},
#ifdef STARTRD_USE_CUDA
    .cuda_funcs = {finite_cuda},
#endif
    .nbuffers = 1,
    .modes = {STARPU_R},
    .model = &finite_model,
};

int startrd_task_ztile_finite(startrd_place_t place, char part, starpu_data_handle_t A, atomic_int *nonfinite)
{
    struct finite_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct finite_args){part, nonfinite};
    return starpu_task_insert(&finite_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, A,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_NAME, "tile_finite",
                              0);
}
