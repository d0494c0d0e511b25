/* An application that started StarPU itself: the library runs on its
 * workers, and StarPU is still running, and usable, after the library is
 * done with it; a StarPU without CPU workers is refused. */
#include "starpu_include.h"
#include "startrd.h"
#include "testing.h"

#include <complex.h>
#include <stdio.h>
#include <stdlib.h>

static void touch(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    *(int *)STARPU_VARIABLE_GET_PTR(buffers[0]) += 1;
}

static struct starpu_codelet touch_codelet = {
    .cpu_funcs = {touch},
    .nbuffers = 1,
    .modes = {STARPU_RW},
};

int main(void)
{
    const int n = 150;
    double complex *a = malloc(sizeof *a * n * n), *tau = malloc(sizeof *tau * n);
    double *d = malloc(sizeof *d * n), *e = malloc(sizeof *e * n);
    double *w0 = malloc(sizeof *w0 * n), *w = malloc(sizeof *w * n);
    starpu_data_handle_t h;
    int value = 0;

    if (a == NULL || tau == NULL || d == NULL || e == NULL || w0 == NULL || w == NULL ||
        tst_zgen(TST_KIND_RANDOM, n, a, n, 2) != 0 || tst_zeig_hermitian('L', n, a, n, w0) != 0 ||
        starpu_init(NULL) != 0) {
        tst_check(false, "setup and starpu_init");
        return tst_summary();
    }
    tst_check(startrd_init(NULL) == 0, "startrd_init on the application's StarPU");
    tst_check(zhetrd_2stage_mgpu('N', 'L', n, a, n, d, e, tau, NULL, 0, NULL, 0, 0) == 0 &&
                  tst_zeig_tridiagonal(n, d, e, w) == 0 && tst_zeig_ratio(n, w0, w) <= 10.0,
              "reduction on the application's workers");
    tst_check(startrd_finalize() == 0, "startrd_finalize");
    tst_check(starpu_is_initialized(), "StarPU still running after finalize");

    starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&value, sizeof value);
    tst_check(starpu_task_insert(&touch_codelet, STARPU_RW, h, 0) == 0, "task submitted afterwards");
    starpu_task_wait_for_all();
    starpu_data_unregister(h);
    tst_check(value == 1, "and it ran: %d", value);
    starpu_shutdown();

    /* An application's StarPU with GPU workers only is refused when the
     * library's context opens; without GPUs such a StarPU cannot start. */
    struct starpu_conf conf;
    int configured = starpu_conf_init(&conf) == 0;

    conf.ncpus = 0;
    if (configured && starpu_init(&conf) == 0) {
        tst_check(startrd_init(NULL) == STARTRD_ERR_RUNTIME && starpu_is_initialized(),
                  "startrd_init on a StarPU without CPU workers: refused, StarPU left running");
        starpu_shutdown();
    } else {
        printf("# StarPU without CPU workers cannot start here (no GPU): not tried\n");
    }
    free(a);
    free(tau);
    free(d);
    free(e);
    free(w0);
    free(w);
    return tst_summary();
}
