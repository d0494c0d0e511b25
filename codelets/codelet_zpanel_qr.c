/* QR factorisation of a stage-1 panel: the tiles below the diagonal tile of
 * block column k.  It leaves R and the reflectors in place, as ZHETRD_HE2HB
 * stores them, and produces what the two-sided update needs: the compact WY
 * factor T and V as an explicit matrix (unit diagonal, zeros above) in a
 * full-height workspace whose rows above the panel are zero, so that products
 * over the whole workspace equal products over the panel's rows.
 * The recursive ZGEQRT3 keeps the factorisation in Level-3 BLAS, and its T has
 * the scalar factors on its diagonal. */
#include "codelets.h"
#include "error.h"

#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

struct panel_qr_args {
    int64_t vrow;          /* absolute row of the panel's first row in V */
    double complex *tau;   /* where the panel's scalar factors go (host memory) */
    int64_t ntau;          /* how many of them lie inside the true matrix */
};

static void panel_qr_cpu(void *buffers[], void *cl_arg)
{
    const struct panel_qr_args *a = cl_arg;
    int64_t nb = STARPU_MATRIX_GET_NY(buffers[0]);
    int64_t m = STARPU_MATRIX_GET_NX(buffers[0]) - nb;
    int64_t ldc = STARPU_MATRIX_GET_LD(buffers[0]), ldv = STARPU_MATRIX_GET_LD(buffers[1]);
    int64_t ldt = STARPU_MATRIX_GET_LD(buffers[2]);
    int64_t vrows = STARPU_MATRIX_GET_NX(buffers[1]);
    double complex *p = (double complex *)STARPU_MATRIX_GET_PTR(buffers[0]) + nb;
    double complex *v = (double complex *)STARPU_MATRIX_GET_PTR(buffers[1]);
    double complex *t = (double complex *)STARPU_MATRIX_GET_PTR(buffers[2]);
    lapack_int info;

    info = LAPACKE_zgeqrt3_work(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)nb, p, (lapack_int)ldc,
                           t, (lapack_int)ldt);
    if (info != 0) {
        startrd_kernel_failure("panel_qr", "zgeqrt3", info);
        return;
    }
    for (int64_t c = 0; c < nb; c++) {
        double complex *vc = v + c * ldv;

        /* ZGEQRT3 sets only the upper triangle of T; the update multiplies by all of it. */
        memset(t + c * ldt + c + 1, 0, (size_t)(nb - c - 1) * sizeof *t);

        memset(vc, 0, (size_t)(a->vrow + c) * sizeof *vc);
        vc[a->vrow + c] = 1.0;
        memcpy(vc + a->vrow + c + 1, p + c * ldc + c + 1, (size_t)(m - c - 1) * sizeof *vc);
        memset(vc + a->vrow + m, 0, (size_t)(vrows - a->vrow - m) * sizeof *vc);
    }
    for (int64_t i = 0; i < a->ntau; i++)
        a->tau[i] = t[i * ldt + i];
}

static struct starpu_perfmodel panel_qr_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "startrd_zpanel_qr",
};

static struct starpu_codelet panel_qr_codelet = {
    .name = "zpanel_qr",
    .cpu_funcs = {panel_qr_cpu},
    .nbuffers = 3,
    .modes = {STARPU_RW, STARPU_W, STARPU_W},
    .model = &panel_qr_model,
};

int startrd_task_zpanel_qr(startrd_place_t place, starpu_data_handle_t column, int64_t vrow,
                           starpu_data_handle_t V, starpu_data_handle_t T,
                           double complex *tau, int64_t ntau)
{
    struct panel_qr_args *args = malloc(sizeof *args);
    double nb = (double)starpu_matrix_get_ny(column), m = (double)starpu_matrix_get_nx(column) - nb;

    if (args == NULL)
        return -ENOMEM;
    *args = (struct panel_qr_args){vrow, tau, ntau};
    return starpu_task_insert(&panel_qr_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_RW, column, STARPU_W, V, STARPU_W, T,
                              STARPU_EXECUTE_ON_WORKER, place.worker,
                              STARPU_PRIORITY, place.priority,
                              STARPU_FLOPS, 8.0 * (m * nb * nb - nb * nb * nb / 3.0),
                              0);
}
