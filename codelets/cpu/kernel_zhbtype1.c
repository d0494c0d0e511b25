/**
 * @file kernel_zhbtype1.c
 * @brief Bulge chasing, type 1 kernel: the start of a sweep.
 *
 * @precisions normal z -> s d c
 */
#include "kernels_stage2.h"
#include "kernel_zhb2st_common.h"

void startrd_kernel_zhbtype1(char uplo, int64_t kd, int64_t st, int64_t ed,
                             double _Complex *AB, int64_t ldab,
                             double _Complex *v, double _Complex *tau,
                             double _Complex *work)
{
    int64_t len = ed - st + 1;

    zhb2st_check(uplo, kd, st, ed, ldab);

    /* Column st-1 keeps only its real subdiagonal entry: that is e[st-1],
     * final, as no later kernel touches column st-1 again. */
    zhb2st_annihilate(uplo, kd, AB, ldab, st, st - 1, len, v, tau);
    zhb2st_apply_diag(uplo, kd, AB, ldab, st, len, v, tau, work);
}
