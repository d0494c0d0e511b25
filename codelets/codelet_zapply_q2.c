/* C := Q2 C or Q2^H C for a block of columns C, Q2 the product of the
 * bulge-chasing reflectors kept in HOUS2 (layout in bulge_plan.h), in
 * generation order: Q2 = H(0,0) H(0,1) ... H(last).  Each reflector acts
 * on at most kd rows of C; they go one by one (grouping those of 32
 * consecutive sweeps into ZLARFB blocks doubled the flops for kd = 32 and
 * was slower on the host).
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "codelets_z.h"
#include "error.h"
#include "kernels_stage2.h"

#include <stdlib.h>

#ifdef COMPLEX
#define CONJ(x) conj(x)
#else
#define CONJ(x) (x)
#endif

struct apply_q2_args {
    startrd_bulge_plan_t plan;
    char trans;   /* 'N': Q2 C, 'C': Q2^H C */
};

/* C(row:row+len-1, :) := (I - tau v v^H) C(row:row+len-1, :), or with
 * conj(tau) for H^H, in the bulge chase's own loops: OpenBLAS's ZGEMV and
 * ZGERC serialise the CPU workers on a scratch-buffer lock. */
static void reflect(const startrd_bulge_plan_t *p, const double complex *hous, int64_t s, int64_t j, int conj_tau,
                    double complex *c, int ldc, int cols)
{
    double complex tau = hous[startrd_bulge_tau_offset(p, s, j)];

    startrd_zreflect_side('L', (int)startrd_bulge_refl_len(p, s, j), cols, hous + startrd_bulge_v_offset(p, s, j),
                          conj_tau ? CONJ(tau) : tau, c + startrd_bulge_refl_row(p, s, j), ldc, NULL);
}

static void apply_q2_cpu(void *buffers[], void *cl_arg)
{
    const struct apply_q2_args *a = cl_arg;
    const startrd_bulge_plan_t *p = &a->plan;
    const double complex *hous = (const double complex *)STARPU_VECTOR_GET_PTR(buffers[0]);
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[1]);
    int ldc = (int)STARPU_MATRIX_GET_LD(buffers[1]), cols = (int)STARPU_MATRIX_GET_NY(buffers[1]);
    int64_t nsweeps = startrd_bulge_nsweeps(p);

    /* Q2 C applies the last reflector first; Q2^H C the first. */
    if (a->trans == 'N') {
        for (int64_t s = nsweeps - 1; s >= 0; s--)
            for (int64_t j = startrd_bulge_nrefl_sweep(p, s) - 1; j >= 0; j--)
                reflect(p, hous, s, j, 0, c, ldc, cols);
    } else {
        for (int64_t s = 0; s < nsweeps; s++)
            for (int64_t j = 0; j < startrd_bulge_nrefl_sweep(p, s); j++)
                reflect(p, hous, s, j, 1, c, ldc, cols);
    }
}

STARTRD_HISTORY_MODEL(apply_q2_model, "startrd_zapply_q2");

static struct starpu_codelet apply_q2_codelet = {
    .name = "zapply_q2",
    .cpu_funcs = {apply_q2_cpu},
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_RW},
    .model = &apply_q2_model,
};

int startrd_task_zapply_q2(const startrd_bulge_plan_t *plan, char trans, starpu_data_handle_t hous,
                           starpu_data_handle_t C)
{
    struct apply_q2_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    *args = (struct apply_q2_args){*plan, trans};
    return starpu_task_insert(&apply_q2_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, hous, STARPU_RW, C,
                              /* 8 flops per entry of each reflector and column */
                              STARPU_FLOPS, 8.0 * (double)startrd_bulge_nrefl(plan) * (double)plan->kd *
                                                (double)starpu_matrix_get_ny(C),
                              0);
}
