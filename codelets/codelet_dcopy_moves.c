/* Pieces of one array copied into another by a list of moves: the column
 * moves of a divide-and-conquer merge whose vectors stay on one worker
 * (its deflation's gather and return, the rows z is read from, the leaves
 * in and the eigenvectors out).
 *
 * @precisions normal d -> s
 */
#include "codelets_dstedc.h"
#include "cuda_lanes.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct copy_moves_args {
    int clear;
    int64_t longest;
    int64_t src_ld, dst_ld;   /* the leading dimensions the moves were counted with */
};

/* Those and the buffers' own: a host matrix's copy elsewhere is packed. */
static startrd_move_lds_t lds_of(void *buffers[], const struct copy_moves_args *a)
{
    return (startrd_move_lds_t){a->src_ld, STARPU_MATRIX_GET_LD(buffers[1]), a->dst_ld,
                                STARPU_MATRIX_GET_LD(buffers[2])};
}

/* The destination's extent, from its first element to its last. */
static size_t extent(void *buffer)
{
    return ((size_t)STARPU_MATRIX_GET_LD(buffer) * (STARPU_MATRIX_GET_NY(buffer) - 1) +
            STARPU_MATRIX_GET_NX(buffer)) * sizeof(double);
}

static void copy_moves_cpu(void *buffers[], void *cl_arg)
{
    const struct copy_moves_args *a = cl_arg;
    const startrd_move_t *moves = (const startrd_move_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const int64_t count = STARPU_VECTOR_GET_NX(buffers[0]);
    const double *src = (const double *)STARPU_MATRIX_GET_PTR(buffers[1]);
    double *dst = (double *)STARPU_MATRIX_GET_PTR(buffers[2]);
    const startrd_move_lds_t lds = lds_of(buffers, a);

    if (a->clear)
        memset(dst, 0, extent(buffers[2]));
    for (int64_t t = 0; t < count; t++)
        memcpy(dst + startrd_move_offset(moves[t].dst, lds.dst_listed, lds.dst),
               src + startrd_move_offset(moves[t].src, lds.src_listed, lds.src), (size_t)moves[t].len * sizeof *dst);
}

#ifdef STARTRD_USE_CUDA
static void copy_moves_cuda(void *buffers[], void *cl_arg)
{
    const struct copy_moves_args *a = cl_arg;
    const startrd_cuda_lanes_t *lane = startrd_cuda_fork_urgent();
    double *dst = (double *)STARPU_MATRIX_GET_PTR(buffers[2]);
    cudaError_t st;

    if (lane == NULL)
        return;
    st = a->clear ? cudaMemsetAsync(dst, 0, extent(buffers[2]), lane->stream[0]) : cudaSuccess;
    if (st == cudaSuccess)
        st = startrd_cuda_dcopy_moves(STARPU_VECTOR_GET_NX(buffers[0]), a->longest,
                                      (const startrd_move_t *)STARPU_VECTOR_GET_PTR(buffers[0]), lds_of(buffers, a),
                                      (const double *)STARPU_MATRIX_GET_PTR(buffers[1]), dst, lane->stream[0]);
    if (st != cudaSuccess)
        startrd_kernel_failure("dcopy_moves", "copy kernel", st);
    startrd_cuda_join(lane);
}
#endif

static struct starpu_codelet copy_moves_write_codelet = {
    .name = "dcopy_moves",
    .cpu_funcs = {copy_moves_cpu},
    STARTRD_CUDA_ASYNC(copy_moves_cuda)
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_R, STARPU_W},
};

static struct starpu_codelet copy_moves_update_codelet = {
    .name = "dcopy_moves_update",
    .cpu_funcs = {copy_moves_cpu},
    STARTRD_CUDA_ASYNC(copy_moves_cuda)
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_R, STARPU_RW},
};

int startrd_task_dcopy_moves(int worker, int clear, int write_only, int64_t longest, int64_t src_ld, int64_t dst_ld,
                             starpu_data_handle_t moves, starpu_data_handle_t src, starpu_data_handle_t dst)
{
    const int w = clear || write_only;
    struct copy_moves_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct copy_moves_args){clear, longest, src_ld, dst_ld};
    return starpu_task_insert(w ? &copy_moves_write_codelet : &copy_moves_update_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, moves, STARPU_R, src, w ? STARPU_W : STARPU_RW, dst,
                              STARPU_EXECUTE_ON_WORKER, worker,
                              0);
}
