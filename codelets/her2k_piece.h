/* The two-sided update of one piece of block columns by P = [W V W]
 * (codelet_zher2k_columns.c), for codelets that update a block column
 * before their own work: the panel task of step k+1 applies step k's
 * update to its block column first, so that the chain from one panel to
 * the next holds one runtime round trip fewer (codelet_zpanel_qr.c). */
#ifndef STARTRD_HER2K_PIECE_H
#define STARTRD_HER2K_PIECE_H

#include "column_pieces.h"

/* C -= W * V[C]^H + V * W[C]^H on the piece @p u, whose first workspace is
 * P: a HER2K on the diagonal block, a GEMM of rank 2nb below it. */
void startrd_her2k_piece_cpu(const startrd_piece_t *u);

#ifdef STARTRD_USE_CUDA
/* The same on @p h's stream, with one GEMM over the diagonal block too (its
 * diagonal then made real); 0, or -1 once the failure is reported as
 * @p kernel's. */
int startrd_her2k_piece_cuda(cublasHandle_t h, const startrd_piece_t *u, const char *kernel);
#endif

#endif
