/* The eigenvectors of a divide-and-conquer merge's rank-one update (S, the
 * right factor of its product) formed from the secular equations' roots
 * on the worker that holds the merge's vectors, so that only O(k) values
 * go there instead of S's k^2, and the host keeps no k x k array of the
 * roots' distances from the poles: the weights that DLAED3 recomputes
 * from them are recomputed here.
 *
 * @precisions normal d -> s
 */
#include "codelets_dstedc.h"
#include "cuda_lanes.h"
#include "error.h"

#include <math.h>
#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct secular_args {
    int64_t k, first, s_offset;   /* the merge's entries from first on; its S from s_offset on (leading dimension k) */
};

/* Root j's distance from pole p, dlamda_p - lambda_j, counted from the
 * root's own pole (kernel_secular_vectors.cu). */
static double distance(const startrd_dsecular_entry_t *e, int64_t p, double pole, double delta)
{
    return (e[p].dlamda - pole) + delta;
}

static double component(const startrd_dsecular_entry_t *e, const double *weight, int64_t p, double pole,
                        double delta)
{
    return weight[p] / distance(e, p, pole, delta);
}

/* DLAED3's weights recomputed from the roots, in its order. */
static void secular_weights_cpu(int64_t k, const startrd_dsecular_entry_t *e, double *weight)
{
    for (int64_t i = 0; i < k; i++) {
        double w = distance(e, i, e[e[i].origin].dlamda, e[i].delta);

        for (int64_t j = 0; j < k; j++)
            if (j != i)
                w *= distance(e, i, e[e[j].origin].dlamda, e[j].delta) / (e[i].dlamda - e[j].dlamda);
        weight[i] = copysign(sqrt(-w), e[i].w);
    }
}

static void secular_vectors_cpu(void *buffers[], void *cl_arg)
{
    const struct secular_args *a = cl_arg;
    const startrd_dsecular_entry_t *e = (const startrd_dsecular_entry_t *)STARPU_MATRIX_GET_PTR(buffers[0]) + a->first;
    double *weight = (double *)STARPU_MATRIX_GET_PTR(buffers[1]);
    double *s = (double *)STARPU_MATRIX_GET_PTR(buffers[2]) + a->s_offset;

    secular_weights_cpu(a->k, e, weight);
    for (int64_t j = 0; j < a->k; j++) {
        const double pole = e[e[j].origin].dlamda, delta = e[j].delta;
        double largest = 0.0, sum = 0.0;

        for (int64_t p = 0; p < a->k; p++)
            largest = fmax(largest, fabs(component(e, weight, p, pole, delta)));
        for (int64_t p = 0; p < a->k; p++) {
            double t = component(e, weight, p, pole, delta) / largest;

            sum += t * t;
        }
        for (int64_t i = 0; i < a->k; i++)
            s[i + j * a->k] = component(e, weight, e[i].source, pole, delta) / (largest * sqrt(sum));
    }
}

#ifdef STARTRD_USE_CUDA
static void secular_vectors_cuda(void *buffers[], void *cl_arg)
{
    const struct secular_args *a = cl_arg;
    const startrd_cuda_lanes_t *lane = startrd_cuda_fork_urgent();
    cudaError_t st;

    if (lane == NULL)
        return;
    st = startrd_cuda_dsecular_vectors(a->k,
                                       (const startrd_dsecular_entry_t *)STARPU_MATRIX_GET_PTR(buffers[0]) + a->first,
                                       (double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                                       (double *)STARPU_MATRIX_GET_PTR(buffers[2]) + a->s_offset, a->k,
                                       lane->stream[0]);
    if (st != cudaSuccess)
        startrd_kernel_failure("dsecular_vectors", "secular vectors kernel", st);
    startrd_cuda_join(lane);
}
#endif

/* S holds a level's merges side by side: the level's first task writes
 * it anew, the others keep what came before them. */
static struct starpu_codelet secular_vectors_write_codelet = {
    .name = "dsecular_vectors",
    .cpu_funcs = {secular_vectors_cpu},
    STARTRD_CUDA_ASYNC(secular_vectors_cuda)
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_SCRATCH, STARPU_W},
};

static struct starpu_codelet secular_vectors_update_codelet = {
    .name = "dsecular_vectors_update",
    .cpu_funcs = {secular_vectors_cpu},
    STARTRD_CUDA_ASYNC(secular_vectors_cuda)
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_SCRATCH, STARPU_RW},
};

int startrd_task_dsecular_vectors(int worker, int write_only, int64_t k, int64_t first, int64_t s_offset,
                                  starpu_data_handle_t entries, starpu_data_handle_t weights, starpu_data_handle_t S)
{
    struct secular_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct secular_args){k, first, s_offset};
    return starpu_task_insert(write_only ? &secular_vectors_write_codelet : &secular_vectors_update_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, entries, STARPU_SCRATCH, weights, write_only ? STARPU_W : STARPU_RW, S,
                              STARPU_EXECUTE_ON_WORKER, worker,
                              0);
}
