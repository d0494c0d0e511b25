/**
 * @file kernel_zhbtype2.c
 * @brief Bulge chasing, type 2 kernel: off-diagonal block, creation and
 *        partial annihilation of the bulge.
 *
 * @precisions normal z -> s d c
 */
#include "kernels_stage2.h"
#include "kernel_zhb2st_common.h"

/*
 * Updates the off-diagonal block L = A(i:i+m-1, j:j+nc-1), i > j+nc-1, of the
 * lower-triangle view: L := L H for side 'R', L := H^H L for side 'L'.  With
 * uplo = 'U' the block is held as L^H, on which the same update reads
 * L^H := H^H L^H, resp. L^H H: the other side, transposed dimensions.
 */
static void offdiag_reflect(char uplo, char side, int64_t kd, double complex *AB, int64_t ldab,
                            int64_t i, int64_t j, int64_t m, int64_t nc,
                            const double complex *v, const double complex *tau,
                            double complex *work)
{
    int ld = zhb2st_int(ldab - 1), rows, cols;
    double complex *c;
    double complex t;

    if (uplo == 'U') {
        side = side == 'L' ? 'R' : 'L';
        rows = zhb2st_int(nc);
        cols = zhb2st_int(m);
        c = zhb2st_elem(uplo, kd, AB, ldab, j, i);
    } else {
        rows = zhb2st_int(m);
        cols = zhb2st_int(nc);
        c = zhb2st_elem(uplo, kd, AB, ldab, i, j);
    }
    /* This applies G = I - tau' v v^H: C G from the right, G C from the left. */
    t = side == 'R' ? *tau : ZHB2ST_CONJ(*tau);
    startrd_zreflect_side(side, rows, cols, v, t, c, ld, work);
}

void startrd_kernel_zhbtype2(char uplo, int64_t n, int64_t kd, int64_t st, int64_t ed,
                             double _Complex *AB, int64_t ldab,
                             const double _Complex *v, const double _Complex *tau,
                             double _Complex *vnew, double _Complex *taunew,
                             double _Complex *work)
{
    /* Rows j1..j2 under the block: its lower neighbour within the band. */
    int64_t j1 = ed + 1;
    int64_t j2 = ed + kd < n - 1 ? ed + kd : n - 1;
    int64_t ln = ed - st + 1, lm = j2 - j1 + 1;

    zhb2st_check(uplo, kd, st, ed, ldab);
    assert(ln == kd && lm >= 1);

    /* Right side of the reflector of the diagonal block above: it fills the
     * whole lm x kd block, whose strictly lower triangle, outside the band,
     * is the bulge. */
    offdiag_reflect(uplo, 'R', kd, AB, ldab, j1, st, lm, ln, v, tau, work);

    /* Bringing column st back into the band takes one new reflector on rows
     * j1..j2, the next one of the sweep.  Its left side goes to the block's
     * other columns now (their bulge entries are for the following sweeps to
     * annihilate); its two-sided update of the diagonal block j1..j2 is the
     * next type 3 kernel. */
    zhb2st_annihilate(uplo, kd, AB, ldab, j1, st, lm, vnew, taunew);
    if (ln > 1)
        offdiag_reflect(uplo, 'L', kd, AB, ldab, j1, st + 1, lm, ln - 1, vnew, taunew, work);
}
