/* P = [W V W] on the host: codelet_zform_wvw.c says what it holds and why
 * one task forms it, kernels_stage1.h what the operands are.
 *
 * @precisions normal z -> s d c
 */
#include "kernels_stage1_z.h"
#include "scalars.h"
#include "wvw_view_z.h"

#include <cblas.h>
#include <string.h>

void startrd_zform_wvw_cpu(const startrd_wvw_operands_t *o)
{
    const double complex one = 1.0, zero = 0.0, mhalf = -0.5, mone = -1.0;
    struct form_view f = form_view(o);

    if (f.y2 != NULL || f.prev != NULL) {
        for (int c = 0; c < f.nb; c++)
            for (int i = 0; i < f.m; i++)
                f.pw[i + (size_t)c * (size_t)f.ldp] = f.y[i + (size_t)c * (size_t)f.ldy] +
                                                      (f.y2 != NULL ? f.y2[i + (size_t)c * (size_t)f.ldy2] : 0.0);
        f.y = f.pw;
        f.ldy = f.ldp;
    }
    /* Z M, as one 2nb x nb matrix, takes [V0 W0]^H V. */
    if (f.prev != NULL) {
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, 2 * f.nb, f.nb, f.m - f.dm, STARTRD_Z_CBLAS(one),
                    f.prev + (size_t)f.nb * (size_t)f.ldprev, f.ldprev, f.v + f.dm, f.ldv, STARTRD_Z_CBLAS(zero),
                    f.z, 2 * f.nb);
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, f.m - f.dm, f.nb, 2 * f.nb, STARTRD_Z_CBLAS(mone),
                    f.prev, f.ldprev, f.z, 2 * f.nb, STARTRD_Z_CBLAS(one), f.y + f.dm, f.ldy);
    }
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, f.m, f.nb, f.nb, STARTRD_Z_CBLAS(one), f.y, f.ldy, f.t,
                f.ldt, STARTRD_Z_CBLAS(zero), f.w, f.ldp);
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, f.nb, f.nb, f.m, STARTRD_Z_CBLAS(one), f.v, f.ldv, f.w,
                f.ldp, STARTRD_Z_CBLAS(zero), f.z, f.ldz);
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, f.nb, f.nb, f.nb, STARTRD_Z_CBLAS(one), f.t, f.ldt, f.z,
                f.ldz, STARTRD_Z_CBLAS(zero), f.mm, f.ldz);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, f.m, f.nb, f.nb, STARTRD_Z_CBLAS(mhalf), f.v, f.ldv, f.mm,
                f.ldz, STARTRD_Z_CBLAS(one), f.w, f.ldp);
    for (int c = 0; c < f.nb; c++) {
        memcpy(f.pv + (size_t)c * (size_t)f.ldp, f.v + (size_t)c * (size_t)f.ldv, (size_t)f.m * sizeof *f.v);
        memcpy(f.pw + (size_t)c * (size_t)f.ldp, f.w + (size_t)c * (size_t)f.ldp, (size_t)f.m * sizeof *f.w);
    }
    if (f.pair != NULL) {
        struct pair_sources ps = pair_sources(&f);

        for (size_t blk = 0; blk < 6; blk++)
            for (size_t c = 0; c < (size_t)f.nb; c++)
                memcpy(f.pair + (blk * (size_t)f.nb + c) * (size_t)f.ldpair, ps.src[blk] + c * (size_t)ps.ld[blk],
                       (size_t)(f.m - f.dm) * sizeof *f.pair);
    }
}
