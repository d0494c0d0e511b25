/* The two-sided update of one piece of block columns on the host:
 * codelet_zher2k_columns.c says why it takes this form. */
#include "kernels_stage1.h"
#include "wvw_view.h"

#include <cblas.h>

void startrd_her2k_piece_cpu(const startrd_piece_t *u)
{
    const double complex one = 1.0, mone = -1.0;
    struct wvw p = split(u);

    cblas_zher2k(CblasColMajor, CblasLower, CblasNoTrans, u->w, p.nb, &mone, p.w, p.ld, p.v, p.ld, 1.0, u->c,
                 u->ld);
    if (u->below > 0)
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, u->below, u->w, 2 * p.nb, &mone, p.w + u->w, p.ld,
                    p.v, p.ld, &one, u->c + u->w, u->ld);
}
