/* P = [W V W], the workspace of the update (codelet_zher2k_columns.c), whose
 * column ranges [W V] and [V W] are the two operands of its rank-2nb GEMM,
 * with
 *     W = Y T - 1/2 V (T^H (V^H (Y T)))
 * formed in P's first third.  One task for the four small GEMMs and the
 * copies: each is tens of microseconds of work on a GPU, and as separate
 * tasks on the critical path their runtime round trips added to every
 * panel's chain (docs/architecture.md, "Where stage 1's time goes").  Only
 * the rows from row0 (the trailing matrix's first) down are formed: V and
 * Y are zero above, and the update reads none of them.  Z and M are the
 * two halves of an nb x 2nb scratch.
 * Given two partial products, the task adds them first, into P's last
 * third: each GPU then forms W once the other's product has arrived, with
 * no sum on one GPU and its result sent back on the critical path.  Where
 * the previous step's update was deferred (kernels_stage1.h), Y is
 * corrected in P's last third too, and the pair of both steps' operands
 * assembled.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "kernels_stage1_z.h"

#include <stdlib.h>

enum { BUF_Y, BUF_V, BUF_T, BUF_ZM, BUF_P, BUF_OPTIONAL };

struct form_wvw_args {
    int64_t row0;   /* first: startrd_row0_footprint() */
    int y2, prev;   /* the buffers of Y2 and of the previous P (the pair's after it), or -1 */
    int64_t prev_row0;
};

static startrd_wvw_operands_t operands(void *buffers[], const struct form_wvw_args *a)
{
    void *y2 = a->y2 >= 0 ? buffers[a->y2] : NULL;
    void *prev = a->prev >= 0 ? buffers[a->prev] : NULL, *pair = a->prev >= 0 ? buffers[a->prev + 1] : NULL;

    return (startrd_wvw_operands_t){buffers[BUF_Y], y2, buffers[BUF_V], buffers[BUF_T], buffers[BUF_ZM],
                                    buffers[BUF_P], prev, pair, a->row0, a->prev_row0};
}

static void form_wvw_cpu(void *buffers[], void *cl_arg)
{
    startrd_wvw_operands_t o = operands(buffers, cl_arg);

    startrd_zform_wvw_cpu(&o);
}

#ifdef STARTRD_USE_CUDA
static void form_wvw_cuda(void *buffers[], void *cl_arg)
{
    startrd_wvw_operands_t o = operands(buffers, cl_arg);

    startrd_zform_wvw_cuda(&o);
}
#endif

STARTRD_HISTORY_MODEL_FOOTPRINT(form_wvw_model, "startrd_zform_wvw", startrd_row0_footprint);
STARTRD_HISTORY_MODEL_FOOTPRINT(form_wvw_sum_model, "startrd_zform_wvw_sum", startrd_row0_footprint);

static struct starpu_codelet form_wvw_codelet = {
    .name = "zform_wvw",
    .cpu_funcs = {form_wvw_cpu},
    STARTRD_CUDA_ASYNC(form_wvw_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &form_wvw_model,
};

static struct starpu_codelet form_wvw_sum_codelet = {
    .name = "zform_wvw_sum",
    .cpu_funcs = {form_wvw_cpu},
    STARTRD_CUDA_ASYNC(form_wvw_cuda)
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &form_wvw_sum_model,
};

int startrd_task_zform_wvw(startrd_place_t place, int64_t row0, starpu_data_handle_t Y, starpu_data_handle_t Y2,
                           starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t ZM,
                           starpu_data_handle_t P, startrd_deferred_update_t deferred)
{
    struct form_wvw_args *args = malloc(sizeof *args);
    double m = (double)starpu_matrix_get_nx(Y) - (double)row0, nb = (double)starpu_matrix_get_ny(Y);
    double mc = (double)starpu_matrix_get_nx(Y) - (double)deferred.row0;
    struct starpu_data_descr descr[BUF_OPTIONAL + 3] = {{Y, STARPU_R}, {V, STARPU_R}, {T, STARPU_R},
                                                        {ZM, STARPU_SCRATCH}, {P, STARPU_W}};
    int nbuffers = BUF_OPTIONAL;

    if (args == NULL)
        return -ENOMEM;
    *args = (struct form_wvw_args){row0, -1, -1, deferred.row0};
    if (Y2 != NULL) {
        args->y2 = nbuffers;
        descr[nbuffers++] = (struct starpu_data_descr){Y2, STARPU_R};
    }
    if (deferred.prev != NULL) {
        args->prev = nbuffers;
        descr[nbuffers++] = (struct starpu_data_descr){deferred.prev, STARPU_R};
        descr[nbuffers++] = (struct starpu_data_descr){deferred.pair, STARPU_W};
    }
    return starpu_task_insert(Y2 != NULL ? &form_wvw_sum_codelet : &form_wvw_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_DATA_MODE_ARRAY, descr, nbuffers,
                              STARTRD_PLACE_ARGS(place),
                              STARPU_FLOPS, startrd_form_wvw_flops(m, deferred.prev != NULL ? mc : 0.0, nb) +
                                                (Y2 != NULL ? 2.0 * m * nb : 0.0),
                              0);
}
