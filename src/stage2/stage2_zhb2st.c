/* Stage 2 as a task graph.  Kernel (s, m) of the plan waits for (s, m-1) and
 * for (s-1, about m+2) (bulge_plan.h).  Writing q = m + 2r for sweep s0 + r of
 * a group of G consecutive sweeps turns both into "same or earlier q, same or
 * earlier sweep", so a task may run all the group's kernels in a q-window of
 * width 2G, sweep by sweep.  Task (S, M) of group S and window M then waits
 * only for (S, M-1) and (S-1, M+1): window M of a group reaches 2G positions
 * further into the previous group's skew.  Each window has a token handle;
 * task (S, M) reads tokens M-1 and M+1 and writes token M, and since tasks
 * are submitted group by group, window by window, the last writers of those
 * tokens are exactly the two tasks it waits for. */
#include "stage2.h"

#include "codelets.h"
#include "error.h"
#include "kernels_stage2.h"
#include "startrd.h"

#include <stdlib.h>
#include <string.h>

/* Sweeps per task, G: a task runs about 2G^2 kernels of some 20 kd^2 flops.
 * A group of sweeps spans about n/(kd G) windows, of which half can run at
 * once (each waits for the next window of the previous group), so G is
 * chosen to give every CPU worker a window, within bounds that keep tasks
 * long enough for the runtime. */
static int64_t sweeps_per_group(int64_t n, int64_t kd)
{
    int64_t workers = (int64_t)starpu_cpu_worker_get_count();
    int64_t g = n / ((kd > 0 ? kd : 1) * 2 * (workers > 0 ? workers : 1));

    return g < 2 ? 2 : g > 8 ? 8 : g;
}

void startrd_stage2_band_from_dense(char uplo, int64_t n, int64_t kd, const double complex *A,
                                    int64_t lda, double complex *AB, int64_t ldab)
{
    for (int64_t j = 0; j < n; j++) {
        double complex *col = AB + j * ldab;

        memset(col, 0, (size_t)ldab * sizeof *col);
        if (uplo == 'L') {
            int64_t rows = n - j < kd + 1 ? n - j : kd + 1;

            memcpy(col, A + j * lda + j, (size_t)rows * sizeof *col);
        } else {
            int64_t i0 = j - kd > 0 ? j - kd : 0;

            memcpy(col + 2 * kd - (j - i0), A + j * lda + i0, (size_t)(j - i0 + 1) * sizeof *col);
        }
    }
}

int startrd_stage2_zhb2st(char vect, char uplo, int64_t n, int64_t kd, double complex *AB,
                          int64_t ldab, double *d, double *e, double complex *hous)
{
    const int64_t G = sweeps_per_group(n, kd), width = 2 * G;
    startrd_bulge_plan_t plan;
    int64_t nsweeps, windows = 0;
    starpu_data_handle_t *token;
    startrd_place_t anywhere = {-1, 0, 1};
    int ret = 0;

    if (startrd_bulge_plan_init(&plan, vect, n, kd) != 0) {
        startrd_error("stage 2: invalid band n=%lld kd=%lld", (long long)n, (long long)kd);
        return STARTRD_ERR_STATE;
    }
    nsweeps = startrd_bulge_nsweeps(&plan);
    /* The first group reaches furthest: its sweeps have the most kernels. */
    for (int64_t s = 0; s < nsweeps && s < G; s++) {
        int64_t last = startrd_bulge_nkernels(&plan, s) - 1 + 2 * s;

        windows = last / width + 1 > windows ? last / width + 1 : windows;
    }
    /* Tokens for windows -1 .. windows, the outer two never written. */
    token = calloc((size_t)(windows + 2), sizeof *token);
    if (token == NULL) {
        startrd_error("stage 2: cannot allocate %lld tokens", (long long)windows + 2);
        return STARTRD_ERR_MEMORY;
    }
    for (int64_t w = 0; w < windows + 2; w++)
        starpu_void_data_register(&token[w]);

    for (int64_t s0 = 0; s0 < nsweeps && ret == 0; s0 += G) {
        int64_t s1 = s0 + G < nsweeps ? s0 + G : nsweeps, reach = 0;

        for (int64_t s = s0; s < s1; s++) {
            int64_t last = startrd_bulge_nkernels(&plan, s) - 1 + 2 * (s - s0);

            reach = last > reach ? last : reach;
        }
        /* Earlier windows first, so that the chain within a group is in order;
         * the priority lets older groups, which unblock the most, go first. */
        anywhere.priority = (int)((nsweeps - s0) / G);
        for (int64_t w = 0; w * width <= reach && ret == 0; w++)
            ret = startrd_task_zhb2st_group(anywhere, &plan, uplo, AB, ldab, hous, s0, s1,
                                            w * width, (w + 1) * width,
                                            token[w], token[w + 1], token[w + 2]);
    }
    if (ret != 0) {
        startrd_error("stage 2: task submission failed (%d)", ret);
        ret = STARTRD_ERR_RUNTIME;
    }
    starpu_task_wait_for_all();
    for (int64_t w = 0; w < windows + 2; w++)
        starpu_data_unregister(token[w]);
    free(token);
    if (startrd_kernel_failures_take() > 0 && ret == 0)
        ret = STARTRD_ERR_KERNEL;
    if (ret == 0)
        startrd_kernel_zhb2st_tridiag(uplo, n, kd, AB, ldab, d, e);
    return ret;
}
