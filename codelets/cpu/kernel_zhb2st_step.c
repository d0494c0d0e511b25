/* One kernel of the bulge-chasing plan, with its reflectors located in HOUS,
 * and the read-out of the chased band: shared by the StarPU codelet and the
 * sequential driver of the kernel tests.
 * @precisions normal z -> s d c */
#include "kernels_stage2.h"

void startrd_kernel_zhb2st_step(const startrd_bulge_plan_t *p, char uplo, int64_t s, int64_t m,
                                double _Complex *AB, int64_t ldab, double _Complex *hous,
                                double _Complex *work)
{
    startrd_bulge_task_t t = startrd_bulge_task(p, s, m);

    switch (t.type) {
    case STARTRD_BULGE_TYPE1:
        startrd_kernel_zhbtype1(uplo, p->kd, t.st, t.ed, AB, ldab,
                                hous + startrd_bulge_v_offset(p, s, t.refl_out),
                                hous + startrd_bulge_tau_offset(p, s, t.refl_out), work);
        break;
    case STARTRD_BULGE_TYPE2:
        startrd_kernel_zhbtype2(uplo, p->n, p->kd, t.st, t.ed, AB, ldab,
                                hous + startrd_bulge_v_offset(p, s, t.refl_in),
                                hous + startrd_bulge_tau_offset(p, s, t.refl_in),
                                hous + startrd_bulge_v_offset(p, s, t.refl_out),
                                hous + startrd_bulge_tau_offset(p, s, t.refl_out), work);
        break;
    case STARTRD_BULGE_TYPE3:
        startrd_kernel_zhbtype3(uplo, p->kd, t.st, t.ed, AB, ldab,
                                hous + startrd_bulge_v_offset(p, s, t.refl_in),
                                hous + startrd_bulge_tau_offset(p, s, t.refl_in), work);
        break;
    }
}

void startrd_kernel_zhb2st_tridiag(char uplo, int64_t n, int64_t kd, const double _Complex *AB,
                                   int64_t ldab, double *d, double *e)
{
    int64_t diag = uplo == 'L' ? 0 : 2 * kd;

    for (int64_t i = 0; i < n; i++) {
        d[i] = __real__ AB[diag + i * ldab];
        if (i < n - 1)
            e[i] = uplo == 'L' ? __real__ AB[1 + i * ldab] : __real__ AB[diag - 1 + (i + 1) * ldab];
    }
}
