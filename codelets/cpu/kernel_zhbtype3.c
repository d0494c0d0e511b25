/**
 * @file kernel_zhbtype3.c
 * @brief Bulge chasing, type 3 kernel: a diagonal block from both sides.
 *
 * @precisions normal z -> s d c
 */
#include "kernels_stage2.h"
#include "kernel_zhb2st_common.h"

void startrd_kernel_zhbtype3(char uplo, int64_t kd, int64_t st, int64_t ed,
                             double _Complex *AB, int64_t ldab,
                             const double _Complex *v, const double _Complex *tau,
                             double _Complex *work)
{
    zhb2st_check(uplo, kd, st, ed, ldab);

    /* The type 2 kernel that generated the reflector applied it to the bulge
     * only: the diagonal block it spans is a task of its own, the grain at
     * which successive sweeps pipeline (see the plan's dependencies). */
    zhb2st_apply_diag(uplo, kd, AB, ldab, st, ed - st + 1, v, tau, work);
}
