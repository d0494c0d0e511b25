/* The two-sided update of one piece of block columns on the host:
 * codelet_zher2k_columns.c says why it takes this form.
 *
 * @precisions normal z -> s d c
 */
#include "kernels_stage1_z.h"
#include "scalars.h"
#include "wvw_view_z.h"

#include <cblas.h>

void startrd_zher2k_piece_cpu(const startrd_piece_t *u)
{
    const double complex one = 1.0, mone = -1.0;
    struct wvw p = split(u);
    double complex *c = u->c;

    cblas_zher2k(CblasColMajor, CblasLower, CblasNoTrans, u->w, p.nb, STARTRD_Z_CBLAS(mone), p.w, p.ld, p.v, p.ld,
                 1.0, c, u->ld);
    if (u->below > 0)
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, u->below, u->w, 2 * p.nb, STARTRD_Z_CBLAS(mone),
                    p.w + u->w, p.ld, p.v, p.ld, STARTRD_Z_CBLAS(one), c + u->w, u->ld);
}
