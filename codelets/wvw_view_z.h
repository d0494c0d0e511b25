/* How the kernels that form P = [W V W] and apply it to a piece
 * (kernels_stage1_z.h) see their operands, on the host
 * (cpu/kernel_zform_wvw.c, cpu/kernel_zher2k_piece.c) and through cuBLAS
 * (cuda/kernel_zform_wvw_cublas.c, cuda/kernel_zher2k_piece_cublas.c), in
 * one precision.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_WVW_VIEW_Z_H
#define STARTRD_WVW_VIEW_Z_H

#include <complex.h>
#include <stddef.h>

#include "kernels_stage1.h"
#include "starpu_include.h"

/* The operands from row0 down, as BLAS sees them; the correction's and
 * the pair's from row0 + dm down. */
struct form_view {
    int m, nb, ldy, ldy2, ldv, ldt, ldz, ldp, ldprev, ldpair, dm;
    double complex *y, *y2, *v, *t, *z, *mm, *w, *pv, *pw;   /* pv, pw: P's second and last thirds */
    double complex *prev, *pair;
};

/* Where the pair's six blocks [W0 W V0 V W0 W] come from. */
struct pair_sources {
    const double complex *src[6];
    int ld[6];
};

static inline struct form_view form_view(const startrd_wvw_operands_t *o)
{
    struct form_view f;
    size_t r = (size_t)o->row0;

    f.m = (int)((int64_t)STARPU_MATRIX_GET_NX(o->y) - o->row0);
    f.nb = (int)STARPU_MATRIX_GET_NY(o->y);
    f.ldy = (int)STARPU_MATRIX_GET_LD(o->y);
    f.ldv = (int)STARPU_MATRIX_GET_LD(o->v);
    f.ldt = (int)STARPU_MATRIX_GET_LD(o->t);
    f.ldz = (int)STARPU_MATRIX_GET_LD(o->zm);
    f.ldp = (int)STARPU_MATRIX_GET_LD(o->p);
    f.y = (double complex *)STARPU_MATRIX_GET_PTR(o->y) + r;
    f.y2 = o->y2 != NULL ? (double complex *)STARPU_MATRIX_GET_PTR(o->y2) + r : NULL;
    f.ldy2 = o->y2 != NULL ? (int)STARPU_MATRIX_GET_LD(o->y2) : 0;
    f.v = (double complex *)STARPU_MATRIX_GET_PTR(o->v) + r;
    f.t = (double complex *)STARPU_MATRIX_GET_PTR(o->t);
    f.z = (double complex *)STARPU_MATRIX_GET_PTR(o->zm);
    f.mm = f.z + (size_t)f.nb * (size_t)f.ldz;
    f.w = (double complex *)STARPU_MATRIX_GET_PTR(o->p) + r;
    f.pv = f.w + (size_t)f.nb * (size_t)f.ldp;
    f.pw = f.pv + (size_t)f.nb * (size_t)f.ldp;
    f.dm = o->prev != NULL ? (int)(o->prev_row0 - o->row0) : 0;
    f.prev = o->prev != NULL ? (double complex *)STARPU_MATRIX_GET_PTR(o->prev) + o->prev_row0 : NULL;
    f.ldprev = o->prev != NULL ? (int)STARPU_MATRIX_GET_LD(o->prev) : 0;
    f.pair = o->pair != NULL ? (double complex *)STARPU_MATRIX_GET_PTR(o->pair) + o->prev_row0 : NULL;
    f.ldpair = o->pair != NULL ? (int)STARPU_MATRIX_GET_LD(o->pair) : 0;
    return f;
}

static inline struct pair_sources pair_sources(const struct form_view *f)
{
    const double complex *w0 = f->prev, *v0 = f->prev + (size_t)f->nb * (size_t)f->ldprev;
    const double complex *w = f->w + f->dm, *v = f->v + f->dm;

    return (struct pair_sources){{w0, w, v0, v, w0, w}, {f->ldprev, f->ldp, f->ldprev, f->ldv, f->ldprev, f->ldp}};
}

/* Where the piece's W, V and [V W] start in P, the piece's first workspace
 * (startrd_piece_t): columns 0, nb and nb, nb being a third of P's width. */
struct wvw {
    int nb, ld;
    const double complex *w, *v;
};

static inline struct wvw split(const startrd_piece_t *u)
{
    struct wvw p = {u->nv / 3, u->ldws[0], u->ws[0], NULL};

    p.v = p.w + (size_t)p.nb * (size_t)p.ld;
    return p;
}

#endif
