/* The generalized problem's tile algorithms (zhegst_tiles.h).  They are
 * written once for B = L L^H: with uplo 'U' the factor is stored as
 * U = L^H, and factor_tile() turns each tile of L or L^H that an algorithm
 * names into the stored tile and the transposition that gives it.
 *
 * The reduction C = L^-1 A L^-H (itype 1) runs as two triangular solves
 * on a full copy W of A, L^-1 W and then (L^-1 W) L^-H, the second one for
 * C's lower triangle alone; C = L^H A L (itype 2, 3) likewise with two
 * triangular products.  That is a third more flops than LAPACK's ZHEGST,
 * whose blocked form updates a triangle from both sides, but every task is
 * a tile GEMM, TRSM or TRMM with the tiles of a row or column independent
 * of each other, which spreads over the GPUs without the serial chain of
 * ZHEGST's diagonal blocks.
 *
 * @precisions normal z -> s d c
 */
#include "zhegst_tiles.h"

static void gemm(startrd_tile_run_t *run, startrd_place_t p, char ta, char tb, double complex alpha,
                 starpu_data_handle_t A, starpu_data_handle_t B, starpu_data_handle_t C)
{
    if (run->status == 0)
        run->status = startrd_task_zgemm(p, ta, tb, alpha, A, B, 1.0, C);
}

static void convert(startrd_tile_run_t *run, startrd_place_t p, startrd_tile_conversion_t how,
                    starpu_data_handle_t A, starpu_data_handle_t B)
{
    if (run->status == 0)
        run->status = startrd_task_ztile_convert(p, how, A, B);
}

/* Whether tile (i, j) is in the part: 'A' all, or triangle 'L' or 'U'. */
static int in_part(char part, int64_t i, int64_t j)
{
    return part == 'A' || (part == 'L' ? i >= j : i <= j);
}

/* The host matrix's tile (i, j) of T's tiling. */
static int64_t host_offset(const startrd_desc_t *T, int64_t i, int64_t j, int64_t ld)
{
    return i * T->mb + j * T->nb * ld;
}

void startrd_ztiles_upload(startrd_tile_run_t *run, char part, int by_column, const double complex *src,
                           int64_t lds, int src_devid, const startrd_desc_t *T)
{
    for (int64_t j = 0; j < T->nt; j++)
        for (int64_t i = 0; i < T->mt && run->status == 0; i++)
            if (in_part(part, i, j))
                run->status = startrd_task_zupload(startrd_tile_node(run, by_column || i > j ? j : i), -1,
                                                   src + host_offset(T, i, j, lds), lds, src_devid,
                                                   startrd_desc_tile(T, i, j));
}

void startrd_ztiles_finite(startrd_tile_run_t *run, char part, int by_column, const startrd_desc_t *T,
                           atomic_int *nonfinite)
{
    for (int64_t j = 0; j < T->nt; j++)
        for (int64_t i = 0; i < T->mt && run->status == 0; i++)
            if (in_part(part, i, j))
                run->status = startrd_task_ztile_finite(startrd_tile_place(run, by_column || i > j ? j : i, 0),
                                                        i == j ? part : 'A', startrd_desc_tile(T, i, j), nonfinite);
}

void startrd_ztiles_download(startrd_tile_run_t *run, char part, int last_by_row, const startrd_desc_t *T,
                             double complex *dst, int64_t ldd, int dst_devid)
{
    for (int64_t j = 0; j < T->nt; j++)
        for (int64_t i = 0; i < T->mt && run->status == 0; i++) {
            int64_t owner = part == 'A' ? (last_by_row ? i : j) : last_by_row ? (i > j ? i : j) : (i < j ? i : j);

            if (in_part(part, i, j))
                run->status = startrd_task_zdownload(startrd_tile_node(run, owner), startrd_desc_tile(T, i, j),
                                                     i == j ? part : 'A', dst + host_offset(T, i, j, ldd), ldd,
                                                     dst_devid);
        }
}

/* The factor L of B = L L^H: B's descriptor and the triangle holding it. */
typedef struct factor {
    const startrd_desc_t *B;
    char uplo;
} factor_t;

/* Tile (i, k) of op(L), op 'N' (i >= k) or 'C' (i <= k): the stored tile
 * that gives it, and in *trans the transposition that does. */
static starpu_data_handle_t factor_tile(const factor_t *f, char op, int64_t i, int64_t k, char *trans)
{
    const int64_t r = op == 'N' ? i : k, c = op == 'N' ? k : i;   /* L's tile (r, c), r >= c */

    if (f->uplo == 'L') {
        *trans = op;
        return startrd_desc_tile(f->B, r, c);
    }
    *trans = op == 'N' ? 'C' : 'N';
    return startrd_desc_tile(f->B, c, r);
}

/* Y := op(L_kk)^-1 Y or op(L_kk) Y (side 'L'), or the same from the right. */
static void diagonal_op(startrd_tile_run_t *run, startrd_place_t p, const factor_t *f, int solve, char side, char op,
                        int64_t k, starpu_data_handle_t Y)
{
    char trans;
    starpu_data_handle_t T = factor_tile(f, op, k, k, &trans);

    if (run->status == 0)
        run->status = solve ? startrd_task_ztrsm(p, side, f->uplo, trans, 1.0, T, Y)
                            : startrd_task_ztrmm(p, side, f->uplo, trans, 1.0, T, Y);
}

void startrd_zpotrf_tiles(startrd_tile_run_t *run, char uplo, const startrd_desc_t *B, startrd_minor_t *failed)
{
    const int64_t nt = B->nt;

    /* Right-looking, by block columns of L: the owner of L's column j
     * writes its tiles. */
    for (int64_t k = 0; k < nt && run->status == 0; k++) {
        const int urgent = (int)(2 * (nt - k));

        run->status = startrd_task_zpotrf(startrd_tile_place(run, k, urgent + 1), uplo, k * B->nb,
                                          startrd_desc_tile(B, k, k), failed);
        /* L_ik := L_ik L_kk^-H, or U_ki := U_kk^-H U_ki. */
        for (int64_t i = k + 1; i < nt && run->status == 0; i++)
            run->status = uplo == 'L' ? startrd_task_ztrsm(startrd_tile_place(run, k, urgent), 'R', 'L', 'C', 1.0,
                                                           startrd_desc_tile(B, k, k), startrd_desc_tile(B, i, k))
                                      : startrd_task_ztrsm(startrd_tile_place(run, k, urgent), 'L', 'U', 'C', 1.0,
                                                           startrd_desc_tile(B, k, k), startrd_desc_tile(B, k, i));
        for (int64_t j = k + 1; j < nt; j++) {
            const startrd_place_t p = startrd_tile_place(run, j, j == k + 1 ? urgent : 0);

            /* L_jj -= L_jk L_jk^H, only in the stored triangle. */
            if (run->status == 0)
                run->status = uplo == 'L' ? startrd_task_zherk(p, 'L', 'N', -1.0, startrd_desc_tile(B, j, k), 1.0,
                                                               startrd_desc_tile(B, j, j))
                                          : startrd_task_zherk(p, 'U', 'C', -1.0, startrd_desc_tile(B, k, j), 1.0,
                                                               startrd_desc_tile(B, j, j));
            /* L_ij -= L_ik L_jk^H, or U_ji -= U_kj^H U_ki. */
            for (int64_t i = j + 1; i < nt; i++) {
                if (uplo == 'L')
                    gemm(run, p, 'N', 'C', -1.0, startrd_desc_tile(B, i, k), startrd_desc_tile(B, j, k),
                         startrd_desc_tile(B, i, j));
                else
                    gemm(run, p, 'C', 'N', -1.0, startrd_desc_tile(B, k, j), startrd_desc_tile(B, k, i),
                         startrd_desc_tile(B, j, i));
            }
        }
    }
}

/* Y := op(L)^-1 Y (solve) or op(L) Y, all of Y; the tasks of block column
 * j of Y on its owner.  Row blocks go down for L^-1 and L^H, up for L^-H
 * and L, so that each product reads rows that are final (solve) or not
 * yet overwritten (multiply). */
static void left_triangular(startrd_tile_run_t *run, const factor_t *f, char op, int solve, const startrd_desc_t *Y)
{
    const int64_t nt = Y->mt;
    const int down = (op == 'N') == (solve != 0);

    for (int64_t step = 0; step < nt && run->status == 0; step++) {
        const int64_t k = down ? step : nt - 1 - step;

        for (int64_t j = 0; j < Y->nt; j++) {
            const startrd_place_t p = startrd_tile_place(run, j, (int)(nt - step));

            diagonal_op(run, p, f, solve, 'L', op, k, startrd_desc_tile(Y, k, j));
            for (int64_t other = down ? k + 1 : 0; other < (down ? nt : k); other++) {
                char trans;

                if (solve) {
                    /* Y_other -= op(L)_other,k Y_k */
                    starpu_data_handle_t T = factor_tile(f, op, other, k, &trans);

                    gemm(run, p, trans, 'N', -1.0, T, startrd_desc_tile(Y, k, j), startrd_desc_tile(Y, other, j));
                } else {
                    /* Y_k += op(L)_k,other Y_other */
                    starpu_data_handle_t T = factor_tile(f, op, k, other, &trans);

                    gemm(run, p, trans, 'N', 1.0, T, startrd_desc_tile(Y, other, j), startrd_desc_tile(Y, k, j));
                }
            }
        }
    }
}

/* The lower triangle of W op(L)^-1 (solve, op 'C') or of W op(L) (multiply,
 * op 'N'), in place of W's; the tasks of block row i on its owner.  Both
 * go through the block columns left to right: a solve's column needs the
 * final columns before it, a product's the untouched columns after it. */
static void right_triangular_lower(startrd_tile_run_t *run, const factor_t *f, char op, int solve,
                                   const startrd_desc_t *W)
{
    const int64_t nt = W->nt;

    for (int64_t j = 0; j < nt && run->status == 0; j++)
        for (int64_t i = j; i < nt; i++) {
            const startrd_place_t p = startrd_tile_place(run, i, (int)(nt - j));

            diagonal_op(run, p, f, solve, 'R', op, j, startrd_desc_tile(W, i, j));
            for (int64_t other = j + 1; other < nt; other++) {
                char trans;

                if (solve && other <= i) {
                    /* W_i,other -= W_ij op(L)_j,other */
                    starpu_data_handle_t T = factor_tile(f, op, j, other, &trans);

                    gemm(run, p, 'N', trans, -1.0, startrd_desc_tile(W, i, j), T, startrd_desc_tile(W, i, other));
                } else if (!solve) {
                    /* W_ij += W_i,other op(L)_other,j */
                    starpu_data_handle_t T = factor_tile(f, op, other, j, &trans);

                    gemm(run, p, 'N', trans, 1.0, startrd_desc_tile(W, i, other), T, startrd_desc_tile(W, i, j));
                }
            }
        }
}

void startrd_zhegst_tiles(startrd_tile_run_t *run, int itype, char uplo, const startrd_desc_t *W,
                          const startrd_desc_t *B)
{
    const factor_t f = {B, uplo};
    const int64_t nt = W->nt;

    /* W made whole: each stored tile's adjoint in the other triangle, on
     * the owner of the block column the first solve or product runs on. */
    for (int64_t j = 0; j < nt; j++)
        for (int64_t i = j; i < nt; i++) {
            const int64_t r = uplo == 'L' ? i : j, c = uplo == 'L' ? j : i;   /* the stored tile (r, c) */

            if (i == j)
                convert(run, startrd_tile_place(run, j, 0),
                        uplo == 'L' ? STARTRD_TILE_FROM_LOWER : STARTRD_TILE_FROM_UPPER, startrd_desc_tile(W, j, j),
                        startrd_desc_tile(W, j, j));
            else
                convert(run, startrd_tile_place(run, r, 0), STARTRD_TILE_ADJOINT, startrd_desc_tile(W, r, c),
                        startrd_desc_tile(W, c, r));
        }
    if (itype == 1) {
        left_triangular(run, &f, 'N', 1, W);          /* W := L^-1 A */
        right_triangular_lower(run, &f, 'C', 1, W);   /* C := W L^-H */
    } else {
        left_triangular(run, &f, 'C', 0, W);          /* W := L^H A */
        right_triangular_lower(run, &f, 'N', 0, W);   /* C := W L */
    }
    /* C's upper triangle, for uplo 'U', on the owner of the lower tile's row. */
    for (int64_t j = 0; uplo == 'U' && j < nt; j++)
        for (int64_t i = j + 1; i < nt; i++)
            convert(run, startrd_tile_place(run, i, 0), STARTRD_TILE_ADJOINT, startrd_desc_tile(W, i, j),
                    startrd_desc_tile(W, j, i));
}

void startrd_zhegv_vectors_tiles(startrd_tile_run_t *run, int itype, char uplo, const startrd_desc_t *B,
                                 const startrd_desc_t *Y)
{
    const factor_t f = {B, uplo};

    /* x = L^-H y (itype 1, 2) or L y (itype 3). */
    left_triangular(run, &f, itype == 3 ? 'N' : 'C', itype != 3, Y);
}
