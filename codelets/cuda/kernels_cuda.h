/* Launchers of the library's own CUDA kernels: plain functions on device
 * pointers and a stream, callable from C codelets. */
#ifndef STARTRD_KERNELS_CUDA_H
#define STARTRD_KERNELS_CUDA_H

#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "merge_moves.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Write the explicit reflectors of an m x nb QR factorisation stored in A
 * (LAPACK layout: unit diagonal implicit, R above) to rows vrow .. vrow+m-1
 * of V (vrows x nb, leading dimension ldv): unit diagonal, zeros above it,
 * and zeros in every other row of V.  The s, d and c variants do the same
 * in float, double and cuFloatComplex.
 */
cudaError_t startrd_cuda_zpanel_v(int64_t m, int64_t nb, const cuDoubleComplex *A, int64_t lda,
                                  cuDoubleComplex *V, int64_t ldv, int64_t vrow, int64_t vrows,
                                  cudaStream_t stream);
cudaError_t startrd_cuda_spanel_v(int64_t m, int64_t nb, const float *A, int64_t lda, float *V, int64_t ldv,
                                  int64_t vrow, int64_t vrows, cudaStream_t stream);
cudaError_t startrd_cuda_dpanel_v(int64_t m, int64_t nb, const double *A, int64_t lda, double *V, int64_t ldv,
                                  int64_t vrow, int64_t vrows, cudaStream_t stream);
cudaError_t startrd_cuda_cpanel_v(int64_t m, int64_t nb, const cuFloatComplex *A, int64_t lda, cuFloatComplex *V,
                                  int64_t ldv, int64_t vrow, int64_t vrows, cudaStream_t stream);

/**
 * Turn the Gram matrix G = V^H V of nb explicit reflectors, stored in T,
 * into the upper triangular factor T of their compact WY form
 * I - V T V^H (as LAPACK's ZLARFT, forward, columnwise), in place; tau holds
 * the nb scalar factors.  The strictly lower triangle of T is zeroed.
 * For a batch of @p count such factors, factor i has its tau at
 * tau + i tau_stride and its T at T + i t_stride.  The s, d and c variants
 * do the same in float, double and cuFloatComplex (G = V^T V and I - V T V^T
 * in the real ones, as LAPACK's SLARFT and DLARFT).
 */
cudaError_t startrd_cuda_zlarft_gram(int64_t nb, int64_t count, const cuDoubleComplex *tau, int64_t tau_stride,
                                     cuDoubleComplex *T, int64_t ldt, int64_t t_stride, cudaStream_t stream);
cudaError_t startrd_cuda_slarft_gram(int64_t nb, int64_t count, const float *tau, int64_t tau_stride, float *T,
                                     int64_t ldt, int64_t t_stride, cudaStream_t stream);
cudaError_t startrd_cuda_dlarft_gram(int64_t nb, int64_t count, const double *tau, int64_t tau_stride, double *T,
                                     int64_t ldt, int64_t t_stride, cudaStream_t stream);
cudaError_t startrd_cuda_clarft_gram(int64_t nb, int64_t count, const cuFloatComplex *tau, int64_t tau_stride,
                                     cuFloatComplex *T, int64_t ldt, int64_t t_stride, cudaStream_t stream);

/**
 * The reflector groups of the blocked Q2 (q2_blocks.h) that make up one
 * level, from HOUS2 (bulge_plan.h, VECT = 'V'): member m, of sweeps
 * (S+m) b .. (S+m) b + b-1 and reflector j + 2m, goes to V + m h b as an
 * h x b unit lower trapezoidal block (reflector k from row k, zeros
 * elsewhere) and its scalar factors to tau + m b; reflectors that do not
 * exist, past the last sweep or the end of the band, read as zero.
 * @p sweeps holds, per sweep s, the generation index r(s, 0) of its first
 * reflector and the number of its reflectors, at 2s and 2s+1.  The s, d
 * and c variants do the same in float, double and cuFloatComplex.
 */
cudaError_t startrd_cuda_zq2_gather(int64_t n, int64_t kd, int64_t nsweeps, int64_t nrefl, const int64_t *sweeps,
                                    const cuDoubleComplex *hous, int64_t b, int64_t h, int64_t S, int64_t j,
                                    int64_t count, cuDoubleComplex *V, cuDoubleComplex *tau, cudaStream_t stream);
cudaError_t startrd_cuda_sq2_gather(int64_t n, int64_t kd, int64_t nsweeps, int64_t nrefl, const int64_t *sweeps,
                                    const float *hous, int64_t b, int64_t h, int64_t S, int64_t j, int64_t count,
                                    float *V, float *tau, cudaStream_t stream);
cudaError_t startrd_cuda_dq2_gather(int64_t n, int64_t kd, int64_t nsweeps, int64_t nrefl, const int64_t *sweeps,
                                    const double *hous, int64_t b, int64_t h, int64_t S, int64_t j, int64_t count,
                                    double *V, double *tau, cudaStream_t stream);
cudaError_t startrd_cuda_cq2_gather(int64_t n, int64_t kd, int64_t nsweeps, int64_t nrefl, const int64_t *sweeps,
                                    const cuFloatComplex *hous, int64_t b, int64_t h, int64_t S, int64_t j,
                                    int64_t count, cuFloatComplex *V, cuFloatComplex *tau, cudaStream_t stream);

/**
 * The operands of the fused kernel of kernel_q2_chains.cu, for Q2's groups
 * (q2_blocks.h) of h x b = 128 x 64 (kd = 64).
 * startrd_cuda_zq2_fragment_entries() gives their entries per group, or 0
 * where the kernel does not exist (another shape, single precision, or a
 * GPU of compute capability below 9.0).  startrd_cuda_zq2_fragments()
 * writes them for @p count groups from their V (h x b, group i at
 * V + i h b) and T (b x b, at T + i b b), with M = T if @p upper (for
 * Q2 C) and T^H otherwise (Q2^H C); group i's at frags + i entries.  The
 * d variants do the same in double; the s and c variants have no kernel
 * (0 entries, cudaErrorNotSupported).
 */
int64_t startrd_cuda_zq2_fragment_entries(int64_t kd, int64_t h, int64_t b);
int64_t startrd_cuda_sq2_fragment_entries(int64_t kd, int64_t h, int64_t b);
int64_t startrd_cuda_dq2_fragment_entries(int64_t kd, int64_t h, int64_t b);
int64_t startrd_cuda_cq2_fragment_entries(int64_t kd, int64_t h, int64_t b);
cudaError_t startrd_cuda_zq2_fragments(const cuDoubleComplex *V, const cuDoubleComplex *T, int64_t count, int upper,
                                       cuDoubleComplex *frags, cudaStream_t stream);
cudaError_t startrd_cuda_sq2_fragments(const float *V, const float *T, int64_t count, int upper, float *frags,
                                       cudaStream_t stream);
cudaError_t startrd_cuda_dq2_fragments(const double *V, const double *T, int64_t count, int upper, double *frags,
                                       cudaStream_t stream);
cudaError_t startrd_cuda_cq2_fragments(const cuFloatComplex *V, const cuFloatComplex *T, int64_t count, int upper,
                                       cuFloatComplex *frags, cudaStream_t stream);

/**
 * A chunk of Q2's groups (q2_blocks.h) applied chain by chain by the fused
 * kernel of kernel_q2_chains.cu, its groups' operands written by
 * startrd_cuda_zq2_fragments() (chunk-local group i at frags + i
 * entries; the chunk's first group is @p chunk_g0): the groups (S, j) of
 * the chains @p chain_lo <= S < @p chain_hi at the level numbers
 * @p lo_level .. @p hi_level-1, in the order Q2 C takes them if
 * @p forward, Q2^H C otherwise.  C (padded with h zero rows past row n)
 * has @p cols columns; @p table is qb->table on the device.  With
 * @p identity_col0 >= 0, C is the block of the identity from that column
 * and each chain skips the columns it leaves as they are.  @p sync is
 * startrd_cuda_q2_chains_sync_bytes() of device memory that the blocks
 * order themselves through, rewritten on @p stream.  The d variant does
 * the same in double; the s and c variants have no kernel
 * (cudaErrorNotSupported).
 */
cudaError_t startrd_cuda_zq2_chains_apply(cuDoubleComplex *C, int64_t ldc, int64_t cols, const cuDoubleComplex *frags,
                                          int64_t chunk_g0, const int64_t *table, int64_t nsweeps, int64_t nS,
                                          int64_t chain_lo, int64_t chain_hi, int64_t lo_level, int64_t hi_level,
                                          int64_t identity_col0, int forward, void *sync, cudaStream_t stream);
cudaError_t startrd_cuda_sq2_chains_apply(float *C, int64_t ldc, int64_t cols, const float *frags, int64_t chunk_g0,
                                          const int64_t *table, int64_t nsweeps, int64_t nS, int64_t chain_lo,
                                          int64_t chain_hi, int64_t lo_level, int64_t hi_level, int64_t identity_col0,
                                          int forward, void *sync, cudaStream_t stream);
cudaError_t startrd_cuda_dq2_chains_apply(double *C, int64_t ldc, int64_t cols, const double *frags, int64_t chunk_g0,
                                          const int64_t *table, int64_t nsweeps, int64_t nS, int64_t chain_lo,
                                          int64_t chain_hi, int64_t lo_level, int64_t hi_level, int64_t identity_col0,
                                          int forward, void *sync, cudaStream_t stream);
cudaError_t startrd_cuda_cq2_chains_apply(cuFloatComplex *C, int64_t ldc, int64_t cols, const cuFloatComplex *frags,
                                          int64_t chunk_g0, const int64_t *table, int64_t nsweeps, int64_t nS,
                                          int64_t chain_lo, int64_t chain_hi, int64_t lo_level, int64_t hi_level,
                                          int64_t identity_col0, int forward, void *sync, cudaStream_t stream);
/** Bytes of startrd_cuda_zq2_chains_apply()'s @p sync for @p chains chains on @p cols columns. */
size_t startrd_cuda_q2_chains_sync_bytes(int64_t chains, int64_t cols);

/**
 * LAPACK's xHETD2 (uplo 'L' or 'U') on the n x n Hermitian matrix B in this
 * GPU's memory (leading dimension ldb, its triangle @p uplo referenced), as
 * one cooperative kernel (kernel_hetd2_fused.cu): on return B's triangle
 * holds the tridiagonal matrix and the reflectors as xHETRD leaves them,
 * and d (n), e (n-1) and tau (n-1), in this GPU's memory, xHETRD's outputs.
 * @p W is an n x n workspace (leading dimension n), @p scratch one of
 * startrd_cuda_hetd2_fused_scratch_bytes() bytes.  Needs n <=
 * startrd_cuda_zhetd2_fused_max_n() (the shared memory of a block); returns
 * cudaErrorInvalidValue otherwise.  The s, d and c variants (xSYTD2 in the
 * real precisions) do the same in float, double and cuFloatComplex.
 */
cudaError_t startrd_cuda_zhetd2_fused(char uplo, int64_t n, cuDoubleComplex *B, int64_t ldb, cuDoubleComplex *W,
                                      double *d, double *e, cuDoubleComplex *tau, void *scratch, size_t scratch_bytes,
                                      cudaStream_t stream);
cudaError_t startrd_cuda_chetd2_fused(char uplo, int64_t n, cuFloatComplex *B, int64_t ldb, cuFloatComplex *W,
                                      float *d, float *e, cuFloatComplex *tau, void *scratch, size_t scratch_bytes,
                                      cudaStream_t stream);
cudaError_t startrd_cuda_dsytd2_fused(char uplo, int64_t n, double *B, int64_t ldb, double *W, double *d, double *e,
                                      double *tau, void *scratch, size_t scratch_bytes, cudaStream_t stream);
cudaError_t startrd_cuda_ssytd2_fused(char uplo, int64_t n, float *B, int64_t ldb, float *W, float *d, float *e,
                                      float *tau, void *scratch, size_t scratch_bytes, cudaStream_t stream);
/** The largest order startrd_cuda_zhetd2_fused() takes on the current GPU (0: none). */
int64_t startrd_cuda_zhetd2_fused_max_n(void);
int64_t startrd_cuda_chetd2_fused_max_n(void);
int64_t startrd_cuda_dsytd2_fused_max_n(void);
int64_t startrd_cuda_ssytd2_fused_max_n(void);
/** Bytes of the scratch of startrd_cuda_zhetd2_fused() and its variants at order n, for entries of @p entry_bytes. */
size_t startrd_cuda_hetd2_fused_scratch_bytes(int64_t n, size_t entry_bytes);

/**
 * The m x n tile B := A converted as @p how (a startrd_tile_conversion_t,
 * tile_conversion.h) says.  The s, d and c variants do the same in float,
 * double and cuFloatComplex.
 */
cudaError_t startrd_cuda_ztile_convert(int how, int64_t m, int64_t n, const cuDoubleComplex *A, int64_t lda,
                                       cuDoubleComplex *B, int64_t ldb, cudaStream_t stream);
cudaError_t startrd_cuda_stile_convert(int how, int64_t m, int64_t n, const float *A, int64_t lda, float *B,
                                       int64_t ldb, cudaStream_t stream);
cudaError_t startrd_cuda_dtile_convert(int how, int64_t m, int64_t n, const double *A, int64_t lda, double *B,
                                       int64_t ldb, cudaStream_t stream);
cudaError_t startrd_cuda_ctile_convert(int how, int64_t m, int64_t n, const cuFloatComplex *A, int64_t lda,
                                       cuFloatComplex *B, int64_t ldb, cudaStream_t stream);

/**
 * Block column @p col0 of stage 1's lower-storage copy (@p height x
 * @p width, leading dimension ldc) from a caller's n x n matrix in this
 * GPU's memory, as codelet_zcopy_column.c fills it from host memory:
 * @p r1 is the caller's A(col0:n-1, col0:col0+width-1) for uplo 'L',
 * A(col0:col0+width-1, col0:n-1) for 'U' (leading dimension ld1); with
 * @p both (the handle keeps both triangles from row 0), @p r2 is
 * A(col0:col0+width-1, 0:col0-1) for 'L', A(0:col0-1, col0:col0+width-1)
 * for 'U' (ld2), each clipped to the matrix.  Entries of the referenced
 * triangle that are NaN or Inf set *@p nonfinite (NULL: no check).  The s,
 * d and c variants do the same in their types.
 */
cudaError_t startrd_cuda_zcolumn_from_user(char uplo, int both, int64_t n, int64_t col0, int64_t height,
                                           int64_t width, const cuDoubleComplex *r1, int64_t ld1,
                                           const cuDoubleComplex *r2, int64_t ld2, cuDoubleComplex *column,
                                           int64_t ldc, int *nonfinite, cudaStream_t stream);
cudaError_t startrd_cuda_scolumn_from_user(char uplo, int both, int64_t n, int64_t col0, int64_t height,
                                           int64_t width, const float *r1, int64_t ld1, const float *r2,
                                           int64_t ld2, float *column, int64_t ldc, int *nonfinite,
                                           cudaStream_t stream);
cudaError_t startrd_cuda_dcolumn_from_user(char uplo, int both, int64_t n, int64_t col0, int64_t height,
                                           int64_t width, const double *r1, int64_t ld1, const double *r2,
                                           int64_t ld2, double *column, int64_t ldc, int *nonfinite,
                                           cudaStream_t stream);
cudaError_t startrd_cuda_ccolumn_from_user(char uplo, int both, int64_t n, int64_t col0, int64_t height,
                                           int64_t width, const cuFloatComplex *r1, int64_t ld1,
                                           const cuFloatComplex *r2, int64_t ld2, cuFloatComplex *column,
                                           int64_t ldc, int *nonfinite, cudaStream_t stream);

/**
 * The inverse of startrd_cuda_zcolumn_from_user() for the referenced
 * triangle only: the caller's r1 (as there) from the column, @p diag
 * pointing at its diagonal tile's first row (leading dimension ldc).  The
 * s, d and c variants do the same in their types.
 */
cudaError_t startrd_cuda_zcolumn_to_user(char uplo, int64_t n, int64_t col0, int64_t width,
                                         const cuDoubleComplex *diag, int64_t ldc, cuDoubleComplex *r1, int64_t ld1,
                                         cudaStream_t stream);
cudaError_t startrd_cuda_scolumn_to_user(char uplo, int64_t n, int64_t col0, int64_t width, const float *diag,
                                         int64_t ldc, float *r1, int64_t ld1, cudaStream_t stream);
cudaError_t startrd_cuda_dcolumn_to_user(char uplo, int64_t n, int64_t col0, int64_t width, const double *diag,
                                         int64_t ldc, double *r1, int64_t ld1, cudaStream_t stream);
cudaError_t startrd_cuda_ccolumn_to_user(char uplo, int64_t n, int64_t col0, int64_t width,
                                         const cuFloatComplex *diag, int64_t ldc, cuFloatComplex *r1, int64_t ld1,
                                         cudaStream_t stream);

/** Sets *@p flag when the m x n tile A (all of it, @p part 'A', or its
 *  triangle 'L' or 'U') holds NaN or Inf; the s, d and c variants do the
 *  same in their types. */
cudaError_t startrd_cuda_ztile_finite(char part, int64_t m, int64_t n, const cuDoubleComplex *A, int64_t lda,
                                      int *flag, cudaStream_t stream);
cudaError_t startrd_cuda_stile_finite(char part, int64_t m, int64_t n, const float *A, int64_t lda, int *flag,
                                      cudaStream_t stream);
cudaError_t startrd_cuda_dtile_finite(char part, int64_t m, int64_t n, const double *A, int64_t lda, int *flag,
                                      cudaStream_t stream);
cudaError_t startrd_cuda_ctile_finite(char part, int64_t m, int64_t n, const cuFloatComplex *A, int64_t lda,
                                      int *flag, cudaStream_t stream);

/**
 * The m x cols matrix A (leading dimension lda) := @p offdiag everywhere
 * but at (row0 + j, j), which gets @p diag: with 0 and 1, columns row0..
 * of the identity (LAPACK's ZLASET, the diagonal shifted by row0).  The s,
 * d and c variants do the same in float, double and cuFloatComplex.
 */
cudaError_t startrd_cuda_zlaset(int64_t m, int64_t cols, int64_t row0, cuDoubleComplex offdiag,
                                cuDoubleComplex diag, cuDoubleComplex *A, int64_t lda, cudaStream_t stream);
cudaError_t startrd_cuda_slaset(int64_t m, int64_t cols, int64_t row0, float offdiag, float diag, float *A,
                                int64_t lda, cudaStream_t stream);
cudaError_t startrd_cuda_dlaset(int64_t m, int64_t cols, int64_t row0, double offdiag, double diag, double *A,
                                int64_t lda, cudaStream_t stream);
cudaError_t startrd_cuda_claset(int64_t m, int64_t cols, int64_t row0, cuFloatComplex offdiag,
                                cuFloatComplex diag, cuFloatComplex *A, int64_t lda, cudaStream_t stream);

/** Most blocks startrd_cuda_zgeqr2_panel_blocks() chooses, and its s, d and
 *  c variants. */
#define STARTRD_CUDA_ZGEQR2_BLOCKS 32
#define STARTRD_CUDA_SGEQR2_BLOCKS STARTRD_CUDA_ZGEQR2_BLOCKS
#define STARTRD_CUDA_DGEQR2_BLOCKS STARTRD_CUDA_ZGEQR2_BLOCKS
#define STARTRD_CUDA_CGEQR2_BLOCKS STARTRD_CUDA_ZGEQR2_BLOCKS

/**
 * Householder QR of the m x nb panel A (m >= nb), as LAPACK's ZGEQR2 leaves
 * it: R on and above the diagonal, the reflectors below, their scalar
 * factors in tau (nb entries on the device).  One cooperative kernel on
 * @p nblocks blocks (startrd_cuda_zgeqr2_panel_blocks()), with @p scratch
 * holding startrd_cuda_zgeqr2_panel_scratch() doubles.  With @p only_if
 * (a device flag, or NULL) the kernel does nothing unless it is nonzero
 * when the kernel starts.  The s, d and c variants do the same in float,
 * double and cuFloatComplex, as SGEQR2, DGEQR2 and CGEQR2; their scratch
 * holds reals of their precision (float in s and c, double in d), as many
 * as their startrd_cuda_?geqr2_panel_scratch() says.
 */
cudaError_t startrd_cuda_zgeqr2_panel(int64_t m, int64_t nb, cuDoubleComplex *A, int64_t lda,
                                      cuDoubleComplex *tau, double *scratch, int nblocks, const int *only_if,
                                      cudaStream_t stream);
cudaError_t startrd_cuda_sgeqr2_panel(int64_t m, int64_t nb, float *A, int64_t lda, float *tau, float *scratch,
                                      int nblocks, const int *only_if, cudaStream_t stream);
cudaError_t startrd_cuda_dgeqr2_panel(int64_t m, int64_t nb, double *A, int64_t lda, double *tau, double *scratch,
                                      int nblocks, const int *only_if, cudaStream_t stream);
cudaError_t startrd_cuda_cgeqr2_panel(int64_t m, int64_t nb, cuFloatComplex *A, int64_t lda, cuFloatComplex *tau,
                                      float *scratch, int nblocks, const int *only_if, cudaStream_t stream);

/** Widest panel startrd_cuda_zgeqrf_cholqr() (and its s, d and c variants) factors. */
#define STARTRD_CUDA_CHOLQR_MAX_NB 64

/**
 * The same factorisation as startrd_cuda_zgeqr2_panel() (the same R,
 * reflectors and scalar factors in exact arithmetic) by CholeskyQR2 and
 * Householder reconstruction: four GEMMs through @p handle, which it binds
 * to @p stream, and two single-block kernels; nb <= STARTRD_CUDA_CHOLQR_MAX_NB,
 * m >= nb.  Q (m x nb, leading dimension ldq) is scratch, @p work holds
 * startrd_cuda_zgeqrf_cholqr_work(nb) entries.  A panel too ill-conditioned
 * for it is left as it was and raises the flag at
 * startrd_cuda_zgeqrf_cholqr_flag(work, nb), which the stream clears
 * otherwise: give that flag to startrd_cuda_zgeqr2_panel() as @p only_if.
 * Returns 0, or the status (cudaError_t or cublasStatus_t) of the first
 * call that failed, named in *call.  The s, d and c variants do the same in
 * float, double and cuFloatComplex (cublasSgemm, cublasDgemm, cublasCgemm;
 * A^T A in the real ones), their work in entries of their type.
 */
long startrd_cuda_zgeqrf_cholqr(cublasHandle_t handle, int64_t m, int64_t nb, cuDoubleComplex *A, int64_t lda,
                                cuDoubleComplex *Q, int64_t ldq, cuDoubleComplex *tau, cuDoubleComplex *work,
                                cudaStream_t stream, const char **call);
long startrd_cuda_sgeqrf_cholqr(cublasHandle_t handle, int64_t m, int64_t nb, float *A, int64_t lda, float *Q,
                                int64_t ldq, float *tau, float *work, cudaStream_t stream, const char **call);
long startrd_cuda_dgeqrf_cholqr(cublasHandle_t handle, int64_t m, int64_t nb, double *A, int64_t lda, double *Q,
                                int64_t ldq, double *tau, double *work, cudaStream_t stream, const char **call);
long startrd_cuda_cgeqrf_cholqr(cublasHandle_t handle, int64_t m, int64_t nb, cuFloatComplex *A, int64_t lda,
                                cuFloatComplex *Q, int64_t ldq, cuFloatComplex *tau, cuFloatComplex *work,
                                cudaStream_t stream, const char **call);

/** Entries of work startrd_cuda_zgeqrf_cholqr() needs (and each of its variants, in its type). */
int64_t startrd_cuda_zgeqrf_cholqr_work(int64_t nb);
int64_t startrd_cuda_sgeqrf_cholqr_work(int64_t nb);
int64_t startrd_cuda_dgeqrf_cholqr_work(int64_t nb);
int64_t startrd_cuda_cgeqrf_cholqr_work(int64_t nb);

/** The device flag a refused panel raises, inside @p work. */
const int *startrd_cuda_zgeqrf_cholqr_flag(const cuDoubleComplex *work, int64_t nb);
const int *startrd_cuda_sgeqrf_cholqr_flag(const float *work, int64_t nb);
const int *startrd_cuda_dgeqrf_cholqr_flag(const double *work, int64_t nb);
const int *startrd_cuda_cgeqrf_cholqr_flag(const cuFloatComplex *work, int64_t nb);

/** Blocks for startrd_cuda_zgeqr2_panel() (or its variant) on the current GPU; 0 if none fits. */
int startrd_cuda_zgeqr2_panel_blocks(int64_t m, int64_t nb);
int startrd_cuda_sgeqr2_panel_blocks(int64_t m, int64_t nb);
int startrd_cuda_dgeqr2_panel_blocks(int64_t m, int64_t nb);
int startrd_cuda_cgeqr2_panel_blocks(int64_t m, int64_t nb);

/** Doubles of scratch startrd_cuda_zgeqr2_panel() needs; for the s, d and c
 *  variants, reals of their precision. */
int64_t startrd_cuda_zgeqr2_panel_scratch(int64_t nb, int nblocks);
int64_t startrd_cuda_sgeqr2_panel_scratch(int64_t nb, int nblocks);
int64_t startrd_cuda_dgeqr2_panel_scratch(int64_t nb, int nblocks);
int64_t startrd_cuda_cgeqr2_panel_scratch(int64_t nb, int nblocks);

/** Largest bandwidth startrd_cuda_zhb2st() handles; the same for its
 *  s, d and c variants. */
#define STARTRD_CUDA_ZHB2ST_MAX_KD 128
#define STARTRD_CUDA_SSB2ST_MAX_KD STARTRD_CUDA_ZHB2ST_MAX_KD
#define STARTRD_CUDA_DSB2ST_MAX_KD STARTRD_CUDA_ZHB2ST_MAX_KD
#define STARTRD_CUDA_CHB2ST_MAX_KD STARTRD_CUDA_ZHB2ST_MAX_KD

/** Integers of the scratch startrd_cuda_zhb2st() takes: the chase's
 *  counters and what its blocks hand each other.  The s, d and c variants
 *  give those of startrd_cuda_ssb2st(), startrd_cuda_dsb2st() and
 *  startrd_cuda_chb2st(). */
int64_t startrd_cuda_zhb2st_scratch_ints(int64_t nsweeps);
int64_t startrd_cuda_ssb2st_scratch_ints(int64_t nsweeps);
int64_t startrd_cuda_dsb2st_scratch_ints(int64_t nsweeps);
int64_t startrd_cuda_chb2st_scratch_ints(int64_t nsweeps);

/**
 * The whole bulge chase of bulge_plan.h (band -> real tridiagonal) on the
 * current GPU, queued on @p stream.  AB is the n x n Hermitian band of
 * bandwidth kd, 1 <= kd <= STARTRD_CUDA_ZHB2ST_MAX_KD, in the layout of
 * kernels_stage2.h for @p uplo (ldab = 2kd+1), read only; the chase runs on
 * @p work (ldab x n entries).  @p progress holds
 * startrd_cuda_zhb2st_scratch_ints(nsweeps) integers of scratch.
 * When @p hous is not NULL it receives the reflectors in the VECT = 'V'
 * layout of bulge_plan.h (nrefl (kd+1) entries, zero where not written).
 * d (n) and e (n-1) receive the tridiagonal.  The s, d and c variants do
 * the same in float, double and cuFloatComplex (a symmetric band in the
 * real ones, whose e keeps the signs of the subdiagonal, as DSYTRD_SB2ST's
 * does), with d and e in float in s and c, and their own scratch_ints.
 */
cudaError_t startrd_cuda_zhb2st(char uplo, int64_t n, int64_t kd, const cuDoubleComplex *AB,
                                cuDoubleComplex *work, int *progress, int64_t nsweeps,
                                cuDoubleComplex *hous, int64_t nrefl, double *d, double *e,
                                cudaStream_t stream);
cudaError_t startrd_cuda_ssb2st(char uplo, int64_t n, int64_t kd, const float *AB, float *work, int *progress,
                                int64_t nsweeps, float *hous, int64_t nrefl, float *d, float *e,
                                cudaStream_t stream);
cudaError_t startrd_cuda_dsb2st(char uplo, int64_t n, int64_t kd, const double *AB, double *work, int *progress,
                                int64_t nsweeps, double *hous, int64_t nrefl, double *d, double *e,
                                cudaStream_t stream);
cudaError_t startrd_cuda_chb2st(char uplo, int64_t n, int64_t kd, const cuFloatComplex *AB, cuFloatComplex *work,
                                int *progress, int64_t nsweeps, cuFloatComplex *hous, int64_t nrefl, float *d,
                                float *e, cudaStream_t stream);

/** Most GPUs a split chase runs on; the same for the s, d and c variants. */
#define STARTRD_CUDA_ZHB2ST_MAX_GPUS 8
#define STARTRD_CUDA_SSB2ST_MAX_GPUS STARTRD_CUDA_ZHB2ST_MAX_GPUS
#define STARTRD_CUDA_DSB2ST_MAX_GPUS STARTRD_CUDA_ZHB2ST_MAX_GPUS
#define STARTRD_CUDA_CHB2ST_MAX_GPUS STARTRD_CUDA_ZHB2ST_MAX_GPUS

/*
 * The chase of startrd_cuda_zhb2st() split over several GPUs (kd >= 2), one
 * precision's type and two functions, which STARTRD_CUDA_HB2ST_SPLIT(name,
 * T, R) writes for name = zhb2st, ssb2st, dsb2st and chb2st:
 *
 * startrd_cuda_zhb2st_split_t: the GPUs, with each one's work (a copy of
 * the band, ldab x n entries of T, then nsweeps (kd+1) entries for the
 * reflectors handed over to it) and its nsweeps counters, in its memory.
 *
 * startrd_cuda_zhb2st_split_prepare(), the first half, on GPU @p gpu of
 * @p split (the current one): access to the other GPUs' memory, its
 * working copy of the band from AB, its counters zeroed.
 *
 * startrd_cuda_zhb2st_split_chase(), the second half, once every GPU of
 * @p split has prepared: GPU @p gpu's share of every sweep
 * (kernel_hb2st_chase.cu), which waits for the others' and writes to their
 * copies, so all of them must run at once.  GPU 0 then writes d (n) and e
 * (n-1), of the real type R.  Without HOUS: the reflectors are not kept.
 *
 * The s, d and c ones (startrd_cuda_ssb2st_split_t and _split_prepare(),
 * _split_chase() likewise, dsb2st, chb2st) take float, double and
 * cuFloatComplex, d and e in float in s and c.
 */
#define STARTRD_CUDA_HB2ST_SPLIT(name, T, R)                                                                        \
    typedef struct startrd_cuda_##name##_split {                                                                    \
        int ngpu;                                  /* 2 .. STARTRD_CUDA_ZHB2ST_MAX_GPUS */                          \
        int devices[STARTRD_CUDA_ZHB2ST_MAX_GPUS]; /* CUDA device numbers */                                        \
        T *work[STARTRD_CUDA_ZHB2ST_MAX_GPUS];                                                                      \
        int *progress[STARTRD_CUDA_ZHB2ST_MAX_GPUS];                                                                \
    } startrd_cuda_##name##_split_t;                                                                                \
    cudaError_t startrd_cuda_##name##_split_prepare(const startrd_cuda_##name##_split_t *split, int gpu, char uplo, \
                                                    int64_t n, int64_t kd, const T *AB, int64_t nsweeps,            \
                                                    cudaStream_t stream);                                           \
    cudaError_t startrd_cuda_##name##_split_chase(const startrd_cuda_##name##_split_t *split, int gpu, int64_t n,   \
                                                  int64_t kd, int64_t nsweeps, R *d, R *e, cudaStream_t stream);
STARTRD_CUDA_HB2ST_SPLIT(zhb2st, cuDoubleComplex, double)
STARTRD_CUDA_HB2ST_SPLIT(ssb2st, float, float)
STARTRD_CUDA_HB2ST_SPLIT(dsb2st, double, double)
STARTRD_CUDA_HB2ST_SPLIT(chb2st, cuFloatComplex, float)

/**
 * The @p count moves (device memory), whose destinations do not overlap,
 * from src into dst, their offsets counted with @p lds (merge_moves.h);
 * @p longest is the longest move's length.  The s variant does the same in
 * float.
 */
cudaError_t startrd_cuda_dcopy_moves(int64_t count, int64_t longest, const startrd_move_t *moves,
                                     startrd_move_lds_t lds, const double *src, double *dst, cudaStream_t stream);
cudaError_t startrd_cuda_scopy_moves(int64_t count, int64_t longest, const startrd_move_t *moves,
                                     startrd_move_lds_t lds, const float *src, float *dst, cudaStream_t stream);

/**
 * Rows 0..rows-1 of Q (leading dimension ldq): the @p count rotations
 * (device memory) applied in order, their columns counted from Q's first.
 * The s variant does the same in float.
 */
cudaError_t startrd_cuda_drot_columns(int64_t rows, int64_t count, const startrd_drotation_t *rot, double *Q,
                                      int64_t ldq, cudaStream_t stream);
cudaError_t startrd_cuda_srot_columns(int64_t rows, int64_t count, const startrd_srotation_t *rot, float *Q,
                                      int64_t ldq, cudaStream_t stream);

/**
 * Columns 0..k-1 of S (leading dimension lds): the normalized eigenvectors
 * of a merge's rank-one update from its @p k entries (device memory,
 * merge_moves.h), rows in S's order, with the weights recomputed from the
 * roots into @p weight (k elements of device memory) first.  The s variant
 * does the same in float.
 */
cudaError_t startrd_cuda_dsecular_vectors(int64_t k, const startrd_dsecular_entry_t *entries, double *weight,
                                          double *S, int64_t lds, cudaStream_t stream);
cudaError_t startrd_cuda_ssecular_vectors(int64_t k, const startrd_ssecular_entry_t *entries, float *weight,
                                          float *S, int64_t lds, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
