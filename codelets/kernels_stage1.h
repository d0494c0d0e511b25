/**
 * @file kernels_stage1.h
 * @brief Kernels of stage 1 that are the library's own, or that more than
 *        one codelet calls: on the host (cpu/kernel_*.c) and, in builds
 *        with CUDA, through cuBLAS on a worker's stream
 *        (cuda/kernel_*_cublas.c).  The panel factorisation and the other
 *        products call BLAS and LAPACK from their codelets directly.
 */
#ifndef STARTRD_KERNELS_STAGE1_H
#define STARTRD_KERNELS_STAGE1_H

#include <complex.h>
#include <stdint.h>

#include "config.h"

#ifdef STARTRD_USE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#endif

/**
 * 0 if every entry of x[0 .. count-1] is finite, NaN otherwise; sums of
 * such results tell the same for many vectors at once.
 */
double startrd_znan_sum(const double complex *x, int64_t count);

/* A piece, and the task's full-height workspaces (its first buffers: V and
 * Y for the HEMM, [W V W] for the update) seen from its first row
 * (column_pieces.h cuts a task's block columns into pieces). */
typedef struct startrd_piece {
    int m;               /* rows: from the piece's diagonal to the last row */
    int w;               /* columns */
    int below;           /* rows under the diagonal block, m - w */
    int ld;
    double complex *c;   /* the piece's first diagonal element */
    int nv;              /* columns of the first workspace */
    int ldws[2];
    double complex *ws[2];
} startrd_piece_t;

/* Forming P = [W V W] (codelet_zform_wvw.c) from a task's operands, for
 * the codelets that form it at the end of other work: with a single partial
 * product, the HEMM task forms W itself (codelet_zhemm_columns.c), which
 * saves the runtime's round trip between two tasks on the critical path. */

/* StarPU matrix interfaces of Y, V (N x nb), T (nb x nb), the nb x 2nb
 * scratch ZM and P (N x 3nb); rows from row0 down are formed.  With y2 (or
 * NULL), a second partial product of the same shape, Y + y2 stands for Y:
 * every copy of W that adds the same two reads them in the same order, so
 * all copies hold the same bits.  With prev (or NULL), the previous step's
 * P = [W0 V0 W0], whose update of the trailing matrix was deferred from
 * row and column prev_row0 on: Y was taken from the matrix before that
 * update there, whose rows and columns from prev_row0 down form a
 * Hermitian block, so Y is corrected first,
 *     Y[r:] -= [W0 V0][r:] * ([V0 W0][r:]^H * V[r:]),  r = prev_row0,
 * and then pair (N x 6nb) receives [W0 W V0 V W0 W] from row r down, whose
 * column ranges [W0 W V0 V] and [V0 V W0 W] are the operands of both
 * steps' update there in one GEMM of rank 4nb (codelet_zher2k_columns.c). */
typedef struct startrd_wvw_operands {
    void *y, *y2, *v, *t, *zm, *p, *prev, *pair;
    int64_t row0, prev_row0;
} startrd_wvw_operands_t;

/* Flops of forming P from m rows of nb columns, and of the correction of
 * @p mc of them (0 without a deferred update). */
static inline double startrd_form_wvw_flops(double m, double mc, double nb)
{
    return 8.0 * nb * nb * (3.0 * m + nb) + 32.0 * mc * nb * nb;
}

void startrd_form_wvw_cpu(const startrd_wvw_operands_t *o);
#ifdef STARTRD_USE_CUDA
/* On the calling worker's stream, with its cuBLAS handle. */
void startrd_form_wvw_cuda(const startrd_wvw_operands_t *o);
#endif

/* The two-sided update of one piece of block columns by P = [W V W]
 * (codelet_zher2k_columns.c), for codelets that update a block column
 * before their own work: the panel task of step k+1 applies step k's
 * update to its block column first, so that the chain from one panel to
 * the next holds one runtime round trip fewer (codelet_zpanel_qr.c). */

/* C -= W * V[C]^H + V * W[C]^H on the piece @p u, whose first workspace is
 * P: a HER2K on the diagonal block, a GEMM of rank 2nb below it. */
void startrd_her2k_piece_cpu(const startrd_piece_t *u);

#ifdef STARTRD_USE_CUDA
/* The same on @p h's stream, with one GEMM over the diagonal block too (its
 * diagonal then made real); 0, or -1 once the failure is reported as
 * @p kernel's. */
int startrd_her2k_piece_cuda(cublasHandle_t h, const startrd_piece_t *u, const char *kernel);
#endif

/* GEMM updates of a diagonal block leave rounding errors in the imaginary
 * parts of its diagonal, where ZHER2K sets them to zero: a Hermitian band
 * has a real diagonal, and it goes back to the caller.  The w x w block
 * at @p c, leading dimension @p ld. */
static inline void startrd_real_diagonal(double complex *c, int64_t ld, int64_t w)
{
    for (int64_t q = 0; q < w; q++)
        c[q * (ld + 1)] = creal(c[q * (ld + 1)]);
}

#ifdef STARTRD_USE_CUDA
/* The same on a GPU: the second 8 bytes of every (ld + 1)-th entry. */
static inline cudaError_t startrd_cuda_real_diagonal(cuDoubleComplex *c, int64_t ld, int64_t w, cudaStream_t stream)
{
    const size_t z = sizeof *c;

    return cudaMemset2DAsync((char *)c + z / 2, ((size_t)ld + 1) * z, 0, z / 2, (size_t)w, stream);
}
#endif

#endif
