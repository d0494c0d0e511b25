/* Tracing on demand: a context opened with a trace directory records the
 * reduction and a back-transformation after it and, when it closes, leaves
 * a Paje trace and a tasks.rec that names every kind of task of both
 * stages and of Q's application.  The band is narrow and the CPU
 * workers few, so that a task of stage 1 holds well over a hundred block
 * columns, as one GPU's do from n = 8192 on: StarPU 1.4.10's trace
 * converter overran a stack buffer on such tasks (tools/setup.sh). */
#include "config.h"
#include "startrd.h"
#include "testing.h"

#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef STARTRD_USE_CUDA
#include <cuda_runtime.h>
#endif

static long count_tasks(const char *path, const char *name)
{
    char line[512], wanted[256];
    long count = 0;
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return -1;
    snprintf(wanted, sizeof wanted, "Name: %s\n", name);
    while (fgets(line, sizeof line, f) != NULL)
        count += strcmp(line, wanted) == 0;
    fclose(f);
    return count;
}

/* The HEMM tasks form W themselves, with no task of W: on one GPU, and on
 * two that read each other's memory (the context takes the first ones). */
static int hemm_forms_w(int ngpu)
{
    int forward = 0, back = 0;

    if (ngpu == 1)
        return 1;
#ifdef STARTRD_USE_CUDA
    if (ngpu == 2 && (cudaDeviceCanAccessPeer(&forward, 0, 1) != cudaSuccess ||
                      cudaDeviceCanAccessPeer(&back, 1, 0) != cudaSuccess))
        forward = back = 0;
#endif
    return ngpu == 2 && forward && back;
}

int main(void)
{
    const char *kinds[] = {"startrd_zpanel_qr", "startrd_zhemm_columns", "startrd_zher2k_columns",
                           "startrd_zform_wvw", "copy_in", "copy_out"};
    const char *dir = "tests/trace-test";
    const int n = 2560;
    const int ncols = 3;
    double complex *a = malloc(sizeof *a * n * n), *tau = malloc(sizeof *tau * n), *hous2 = NULL, query = 0;
    double complex *c = calloc((size_t)n * ncols, sizeof *c);
    double *d = malloc(sizeof *d * n), *e = malloc(sizeof *e * n);
    startrd_options_t opt;
    struct stat st;
    char path[256];

    if (a == NULL || tau == NULL || d == NULL || e == NULL || c == NULL || tst_zgen(TST_KIND_RANDOM, n, a, n, 7) != 0) {
        tst_check(false, "allocation");
        return tst_summary();
    }
    startrd_options_init(&opt);
    opt.ngpu = tst_env_ngpu();
    opt.nb = 4;
    opt.ncpu = 2;
    opt.stage1_ngpu = 64; /* over every GPU, so that the sums of several show */
    opt.trace_dir = dir;
    tst_check(startrd_init(&opt) == 0, "startrd_init with trace_dir %s", dir);
    int ngpu = startrd_gpu_count();

    /* On the GPUs the columns are copied straight to and from GPU memory. */
    if (ngpu > 0) {
        kinds[4] = "copy_in_gpu";
        kinds[5] = "copy_out_gpu";
    }
    tst_check(zhetrd_2stage_mgpu('V', 'L', n, a, n, d, e, tau, &query, -1, NULL, 0, -1) == 0 &&
                  (hous2 = malloc((size_t)creal(query) * sizeof *hous2)) != NULL,
              "HOUS2's size for order %d", n);
    tst_check(hous2 != NULL && zhetrd_2stage_mgpu('V', 'L', n, a, n, d, e, tau, hous2, (int)creal(query), NULL, 0,
                                                  -1) == 0,
              "traced reduction of order %d", n);
    for (int j = 0; j < ncols; j++)
        c[(size_t)j * n + (size_t)j] = 1;
    tst_check(hous2 != NULL &&
                  zunmtr_2stage_mgpu('N', 'L', n, ncols, a, n, tau, hous2, (int)creal(query), c, n, -1) == 0,
              "traced back-transformation of %d columns", ncols);
    tst_check(startrd_finalize() == 0, "finalize converts the trace");

    snprintf(path, sizeof path, "%s/paje.trace", dir);
    tst_check(stat(path, &st) == 0 && st.st_size > 0, "%s written (%lld bytes)", path,
              (long long)(stat(path, &st) == 0 ? st.st_size : -1));
    snprintf(path, sizeof path, "%s/tasks.rec", dir);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        long count = count_tasks(path, kinds[k]);

        /* With two partial products, W's tasks add them. */
        if (strcmp(kinds[k], "startrd_zform_wvw") == 0)
            count += count_tasks(path, "startrd_zform_wvw_sum");

        if (hemm_forms_w(ngpu) && strcmp(kinds[k], "startrd_zform_wvw") == 0)
            tst_check(count == 0, "%s lists %ld %s tasks (%d GPU(s), the HEMM tasks form W: none)", path, count,
                      kinds[k], ngpu);
        else
            tst_check(count > 0, "%s lists %ld %s tasks", path, count, kinds[k]);
    }
    /* Stage 2 runs on the first GPU when there is one, as ranks on the CPU workers otherwise. */
    long host = count_tasks(path, "startrd_zhb2st_sweeps"), gpu = count_tasks(path, "startrd_zhb2st_chase");

    tst_check(ngpu > 0 ? gpu == 1 && host == 0 : gpu == 0 && host > 0,
              "%s lists %ld startrd_zhb2st_sweeps and %ld startrd_zhb2st_chase tasks", path, host, gpu);
    /* Q's application, traced by a call of its own after the reduction. */
    long q1 = count_tasks(path, "startrd_zunmqr_q1");

    tst_check(q1 > 0, "%s lists %ld startrd_zunmqr_q1 tasks", path, q1);
    free(a);
    free(c);
    free(hous2);
    free(tau);
    free(d);
    free(e);
    return tst_summary();
}
