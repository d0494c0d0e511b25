/**
 * @file startrd_z.h
 * @brief The solvers of double complex matrices: the reduction
 *        zhetrd_2stage_mgpu(), the back-transformation zunmtr_2stage_mgpu()
 *        and the eigensolver drivers.  Included by startrd.h, which declares
 *        what all precisions share (the context, its options, the status
 *        codes, the 64-bit interface's conventions).
 *
 * In the real precisions (ssytrd_2stage_mgpu(), dsyevd_2stage_mgpu(), ...)
 * the matrix is symmetric, Q orthogonal, and ^H reads ^T; the
 * back-transformation, dormtr_2stage_mgpu(), takes 'N' or 'T' as LAPACK's
 * DORMTR does.  The arguments and the layout of the reflectors are the
 * same, as in LAPACK.
 *
 * @precisions normal z -> s d c
 */
#ifndef STARTRD_Z_H
#define STARTRD_Z_H

#include <complex.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Reduce a Hermitian matrix to real symmetric tridiagonal form
 *        T = Q^H A Q, Q = Q1 Q2, with the semantics of LAPACK's ZHETRD_2STAGE.
 *
 * Stage 1 reduces A to a Hermitian band of bandwidth kd on the GPUs (and
 * CPU cores; below the order the stage1_ngpu option names, on the first GPU
 * alone), stage 2 chases the band down to tridiagonal form on the first
 * GPU (or on several, or the CPU cores: see the stage2 and stage2_ngpu
 * options).  kd is the context's nb option (by default 64 with GPUs, 32
 * without, and never more than n-1).  With GPUs and VECT = 'N', the
 * default below n = 1536 is kd = 1: one GPU then runs LAPACK's one-stage
 * ZHETD2 as a single kernel, and A, d, e and tau come back as ZHETRD
 * leaves them (the band is the tridiagonal matrix, stage 2 does nothing);
 * any call with VECT = 'N' and kd = 1 on GPUs takes that path, up to the
 * order a block's shared memory holds (3n entries: n <= 4730 in complex
 * double on an H100 or H200).
 *
 * Memory: with GPUs, each GPU of stage 1 holds its share of the zero-padded
 * lower triangle stored by block columns (about N^2 / g elements on g
 * GPUs, N = n rounded up to kd) plus workspaces of a few N x kd blocks, and the host
 * only two pinned buffers of 8 MiB per CPU worker, through which the
 * matrix goes to the GPUs and back.  When that does not fit on a GPU (or
 * StarPU's STARPU_LIMIT_CUDA_MEM says so) the library keeps a pinned host
 * copy of N^2 elements instead and StarPU moves its columns in and out.
 * Without GPUs the host copy is the working storage.
 *
 * @param vect   'N': Q2 is not kept; 'V': its reflectors are kept in HOUS2
 *               so that Q can be applied later: reflectors r = 0..R-1 in
 *               generation order (sweep by sweep), HOUS2 = [TAU2 (R) | V2
 *               (kd x R, leading 1 stored)], Q2 = H(0) H(1) ... H(R-1),
 *               H(r) = I - TAU2[r] v_r v_r^H (details in the README).
 * @param uplo   'U' or 'L': which triangle of A is stored and referenced.
 * @param n      order of A, n >= 0.
 * @param A      n x n, leading dimension lda.  On exit the kd+1 diagonals of
 *               the band are overwritten by the band, the stage-1 reflectors
 *               are stored beyond it as by ZHETRD_HE2HB; the other triangle
 *               is neither read nor written.
 * @param lda    leading dimension of A, lda >= max(1, n).
 * @param d      real diagonal of T, n entries.
 * @param e      real off-diagonal of T, n-1 entries.
 * @param tau    scalar factors of the stage-1 reflectors, n-kd entries.
 * @param hous2  stage-2 reflectors (VECT = 'V') or scratch (VECT = 'N'), or NULL
 *               with lhous2 = 0 to let the library allocate it (with 'V' the
 *               reflectors are then discarded).  With 'V' its size grows as
 *               n^2/2 and must fit an int: n up to about 64000; beyond,
 *               use zhetrd_2stage_mgpu_64().
 * @param lhous2 its length: at least max(1, 4n) for 'N', the size a query
 *               returns for 'V'; -1 asks for that size in hous2[0].
 * @param work   workspace (it holds the band during stage 2), or NULL with
 *               lwork = 0 to let the library allocate it.
 * @param lwork  its length, at least max(1, (2kd+1) n); -1 asks for that size
 *               in work[0].  A query (lwork = -1 or lhous2 = -1) writes both
 *               sizes, into whichever of work and hous2 is not NULL.
 * @param ngpu   < 0: every GPU of the context; 0: CPU workers only; k > 0: the
 *               first k GPUs of the context (more is an error).  Each stage
 *               runs on as many of them as its option (stage1_ngpu,
 *               stage2_ngpu) says; startrd_last_stats() reports how many.
 *
 * Without an open context (startrd_init), one is opened with default options
 * on first use and closed at exit; a query or a wrong argument opens none.
 * Concurrent calls from several threads are serialised.
 *
 * @return 0 on success; -i when argument i is invalid, in which case nothing
 *         is written (the arguments are checked in order, except that
 *         lhous2 and lwork, whose minimum follows from ngpu, are checked
 *         only once ngpu is valid); ::STARTRD_ERR_NONFINITE when the referenced triangle
 *         holds NaN or Inf (unless the check is off), in which case A, d, e and
 *         tau are left unchanged; another positive ::startrd_status for a
 *         run-time failure, explained by one line on stderr, after which the
 *         contents of A, d, e, tau and hous2 are unspecified.
 */
int zhetrd_2stage_mgpu(char vect, char uplo, int n, double _Complex *A, int lda,
                       double *d, double *e, double _Complex *tau,
                       double _Complex *hous2, int lhous2,
                       double _Complex *work, int lwork, int ngpu);

/** zhetrd_2stage_mgpu() with 64-bit integers (see the 64-bit integer
 *  interface in startrd.h). */
int zhetrd_2stage_mgpu_64(char vect, char uplo, int64_t n, double _Complex *A, int64_t lda,
                          double *d, double *e, double _Complex *tau,
                          double _Complex *hous2, int64_t lhous2,
                          double _Complex *work, int64_t lwork, int64_t ngpu);

/**
 * @brief Apply Q = Q1 Q2 of a zhetrd_2stage_mgpu() reduction with VECT = 'V'
 *        to a matrix from the left: C := Q C or C := Q^H C.
 *
 * With C the eigenvectors of the tridiagonal T (d, e), Q C are those of A.
 *
 * @param trans  'N': Q C; Q^H C is 'C' in the complex precisions, 'T' in
 *               the real ones, as LAPACK says.
 * @param uplo   the uplo of the reduction.
 * @param n      order of A and rows of C, n >= 0.
 * @param m      columns of C, m >= 0.
 * @param A      the reduction's A on exit (its stage-1 reflectors), lda.
 * @param lda    lda >= max(1, n).
 * @param tau    the reduction's tau.
 * @param hous2  the reduction's HOUS2 (VECT = 'V'), lhous2 entries.
 * @param lhous2 at least the size a query of zhetrd_2stage_mgpu() with 'V' returns.
 * @param C      n x m, leading dimension ldc; overwritten.
 * @param ldc    ldc >= max(1, n).
 * @param ngpu   the ngpu given to the reduction: with the same context
 *               options it gives the same bandwidth, which the layout of
 *               the reflectors depends on.
 *
 * The blocks of columns of C are processed in parallel on the CPU workers.
 * @return 0; -i when argument i is invalid (nothing written; lhous2, whose
 *         minimum follows from ngpu, is checked once ngpu is valid); a positive
 *         ::startrd_status for a run-time failure, explained on stderr.
 */
int zunmtr_2stage_mgpu(char trans, char uplo, int n, int m, const double _Complex *A, int lda,
                       const double _Complex *tau, const double _Complex *hous2, int lhous2,
                       double _Complex *C, int ldc, int ngpu);

/** zunmtr_2stage_mgpu() with 64-bit integers (see the 64-bit integer interface in
 *  startrd.h). */
int zunmtr_2stage_mgpu_64(char trans, char uplo, int64_t n, int64_t m, const double _Complex *A, int64_t lda,
                          const double _Complex *tau, const double _Complex *hous2, int64_t lhous2,
                          double _Complex *C, int64_t ldc, int64_t ngpu);

/**
 * @brief Eigenvalues and optionally eigenvectors of a Hermitian matrix, as
 *        LAPACK's ZHEEVD: the two-stage reduction, the tridiagonal solver
 *        (DSTEDC divide and conquer, DSTERF without vectors), then
 *        zunmtr_2stage_mgpu().
 *
 * @param jobz  'N': eigenvalues; 'V': and eigenvectors, which overwrite A
 *              (column j for w[j]).
 * @param uplo  'U' or 'L': the triangle of A stored and referenced.
 * @param n     order of A, n >= 0.
 * @param A     n x n, leading dimension lda; destroyed with 'N'.
 * @param lda   lda >= max(1, n).
 * @param w     the n eigenvalues, ascending.
 * @param ngpu  as for zhetrd_2stage_mgpu().
 * @return as zhetrd_2stage_mgpu(): 0; -i for argument i; a positive
 *         ::startrd_status, or ::STARTRD_ERR_KERNEL when the tridiagonal
 *         solver fails to converge.
 */
int zheevd_2stage_mgpu(char jobz, char uplo, int n, double _Complex *A, int lda, double *w, int ngpu);

/** zheevd_2stage_mgpu() with 64-bit integers (see the 64-bit integer interface in
 *  startrd.h). */
int zheevd_2stage_mgpu_64(char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda, double *w,
                          int64_t ngpu);

/**
 * @brief Eigenvalues il..iu (1-based, ascending) and optionally their
 *        eigenvectors: as zheevr_2stage_mgpu() with range 'I'.
 *
 * @param jobz  'N' or 'V'.
 * @param uplo  'U' or 'L'.
 * @param n     order of A, n >= 0.
 * @param A     n x n, leading dimension lda; destroyed.
 * @param lda   lda >= max(1, n).
 * @param il    1 <= il <= max(1, n).
 * @param iu    min(il, n) <= iu <= n.
 * @param m     set to the number of eigenvalues found, iu - il + 1 (0 for n = 0).
 * @param w     at least n entries; the first m hold the eigenvalues.
 * @param Z     with 'V', n x m eigenvectors, leading dimension ldz; not
 *              referenced with 'N'.
 * @param ldz   ldz >= max(1, n) with 'V', >= 1 otherwise.
 * @param ngpu  as for zhetrd_2stage_mgpu().
 * @return as zheevd_2stage_mgpu().
 */
int zheevdx_2stage_mgpu(char jobz, char uplo, int n, double _Complex *A, int lda, int il, int iu, int *m,
                        double *w, double _Complex *Z, int ldz, int ngpu);

/** zheevdx_2stage_mgpu() with 64-bit integers (see the 64-bit integer interface in
 *  startrd.h). */
int zheevdx_2stage_mgpu_64(char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda, int64_t il,
                           int64_t iu, int64_t *m, double *w, double _Complex *Z, int64_t ldz, int64_t ngpu);

/**
 * @brief Selected eigenvalues and optionally their eigenvectors, by index
 *        or by value: LAPACK's ZHEEVR_2STAGE without its workspaces,
 *        tolerance and support arrays, plus ngpu.  For ranges 'V' and 'I'
 *        DSTEMR solves the tridiagonal problem, or, with GPUs and at least
 *        n/64 pairs wanted, the divide and conquer for all pairs, which is
 *        then faster; either way only the vectors asked for are
 *        back-transformed.  Range 'A' is zheevd_2stage_mgpu()'s divide and
 *        conquer, its vectors then copied to Z.
 *
 * @param jobz  'N' or 'V'.
 * @param range 'A': all eigenvalues; 'V': those in (vl, vu]; 'I': the
 *              il-th through the iu-th, ascending (1-based).
 * @param uplo  'U' or 'L'.
 * @param n     order of A, n >= 0.
 * @param A     n x n, leading dimension lda; destroyed.
 * @param lda   lda >= max(1, n).
 * @param vl,vu with range 'V', vl < vu (n > 0); not referenced otherwise.
 * @param il,iu with range 'I', 1 <= il <= iu <= n (il = 1, iu = 0 for
 *              n = 0); not referenced otherwise.
 * @param m     set to the number of eigenvalues found: n for 'A',
 *              iu - il + 1 for 'I', those in (vl, vu] for 'V'.
 * @param w     at least n entries; the first m hold the eigenvalues,
 *              ascending.
 * @param Z     with 'V', the n x m eigenvectors, leading dimension ldz: room
 *              for n columns with range 'A' or 'V' (unless the caller knows
 *              m), for iu - il + 1 with 'I'; not referenced with 'N'.
 * @param ldz   ldz >= max(1, n) with 'V', >= 1 otherwise.
 * @param ngpu  as for zhetrd_2stage_mgpu().
 * @return as zheevd_2stage_mgpu(); -i for argument i, numbered as above.
 */
int zheevr_2stage_mgpu(char jobz, char range, char uplo, int n, double _Complex *A, int lda, double vl,
                       double vu, int il, int iu, int *m, double *w, double _Complex *Z, int ldz, int ngpu);

/** zheevr_2stage_mgpu() with 64-bit integers (see the 64-bit integer interface in
 *  startrd.h). */
int zheevr_2stage_mgpu_64(char jobz, char range, char uplo, int64_t n, double _Complex *A, int64_t lda,
                          double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                          double _Complex *Z, int64_t ldz, int64_t ngpu);

/**
 * @brief Eigenvalues and optionally eigenvectors of the generalized
 *        Hermitian-definite problem, as LAPACK's ZHEGVD: A x = lambda B x
 *        (itype 1), A B x = lambda x (itype 2) or B A x = lambda x (itype 3).
 *
 * B = U^H U (uplo 'U') or L L^H ('L') is factored by Cholesky, the problem
 * is reduced to the standard one C y = lambda y (C = U^-H A U^-1 for itype
 * 1, U A U^H for 2 and 3, and the same with L), which
 * zheevd_2stage_mgpu() solves, and the eigenvectors are back-substituted:
 * x = U^-1 y (itype 1 and 2) or U^H y (itype 3).  The factorisation, the
 * reduction to C and the back-substitution run as tile tasks on the GPUs
 * (and CPU workers).  To keep B's factor from one call to the next, as in
 * a self-consistent loop where B stays fixed, call zhegvx_2stage_mgpu()
 * with fact = 'F' on the B this call returns.
 *
 * @param itype 1, 2 or 3: the problem, as above.
 * @param jobz  'N': eigenvalues; 'V': and eigenvectors, which overwrite A
 *              (column j for w[j]), normalised as LAPACK's: Z^H B Z = I for
 *              itype 1 and 2, Z^H B^-1 Z = I for itype 3.
 * @param uplo  'U' or 'L': the triangle of A and of B stored and referenced.
 * @param n     order of A and B, n >= 0.
 * @param A     n x n, leading dimension lda; destroyed with 'N' (its
 *              referenced triangle).
 * @param lda   lda >= max(1, n).
 * @param B     n x n Hermitian positive definite, leading dimension ldb; on
 *              exit its referenced triangle holds the Cholesky factor U or
 *              L, as ZPOTRF leaves it; the other triangle is not touched.
 * @param ldb   ldb >= max(1, n).
 * @param w     the n eigenvalues, ascending.
 * @param ngpu  as for zhetrd_2stage_mgpu().
 * @return as zheevd_2stage_mgpu(): 0; -i for argument i; a positive
 *         ::startrd_status, ::STARTRD_ERR_NOT_DEFINITE when B is not
 *         positive definite.
 */
int zhegvd_2stage_mgpu(int itype, char jobz, char uplo, int n, double _Complex *A, int lda, double _Complex *B,
                       int ldb, double *w, int ngpu);

/** zhegvd_2stage_mgpu() with 64-bit integers (see the 64-bit integer interface in
 *  startrd.h). */
int zhegvd_2stage_mgpu_64(int64_t itype, char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda,
                          double _Complex *B, int64_t ldb, double *w, int64_t ngpu);

/**
 * @brief Selected eigenvalues and optionally their eigenvectors of the
 *        generalized Hermitian-definite problem, by index or by value, B
 *        factored here or by the caller: LAPACK's ZHEGVX without its
 *        workspaces, tolerance and failure indices, plus fact (as LAPACK's
 *        expert drivers name it) and ngpu.
 *
 * The reduction to the standard problem is zhegvd_2stage_mgpu()'s; the
 * standard problem is solved by zheevr_2stage_mgpu() with the same range.
 *
 * @param itype 1, 2 or 3, as for zhegvd_2stage_mgpu().
 * @param jobz  'N' or 'V'.
 * @param range 'A': all eigenvalues; 'V': those in (vl, vu]; 'I': the
 *              il-th through the iu-th, ascending (1-based).
 * @param uplo  'U' or 'L': the triangle of A and of B stored and referenced.
 * @param fact  'N': B is the matrix, factored here and overwritten by its
 *              factor; 'F': B's referenced triangle already holds the
 *              Cholesky factor (from ZPOTRF, or from an earlier call of
 *              this function or of zhegvd_2stage_mgpu() with the same
 *              uplo), which is used as it is and not written.
 * @param n     order of A and B, n >= 0.
 * @param A     n x n, leading dimension lda; destroyed: its referenced
 *              triangle, and with range 'A' all of it, through which the
 *              eigenvectors pass (as zheevr_2stage_mgpu()'s).
 * @param lda   lda >= max(1, n).
 * @param B     n x n, leading dimension ldb, as fact says.
 * @param ldb   ldb >= max(1, n).
 * @param vl,vu with range 'V', vl < vu (n > 0); not referenced otherwise.
 * @param il,iu with range 'I', 1 <= il <= iu <= n (il = 1, iu = 0 for
 *              n = 0); not referenced otherwise.
 * @param m     set to the number of eigenvalues found.
 * @param w     at least n entries; the first m hold the eigenvalues,
 *              ascending.
 * @param Z     with 'V', the n x m eigenvectors, leading dimension ldz,
 *              normalised as zhegvd_2stage_mgpu()'s: room for n columns with
 *              range 'A' or 'V', for iu - il + 1 with 'I'; not referenced
 *              with 'N'.
 * @param ldz   ldz >= max(1, n) with 'V', >= 1 otherwise.
 * @param ngpu  as for zhetrd_2stage_mgpu().
 * @return as zhegvd_2stage_mgpu(); -i for argument i, numbered as above.
 */
int zhegvx_2stage_mgpu(int itype, char jobz, char range, char uplo, char fact, int n, double _Complex *A, int lda,
                       double _Complex *B, int ldb, double vl, double vu, int il, int iu, int *m, double *w,
                       double _Complex *Z, int ldz, int ngpu);

/** zhegvx_2stage_mgpu() with 64-bit integers (see the 64-bit integer interface in
 *  startrd.h). */
int zhegvx_2stage_mgpu_64(int64_t itype, char jobz, char range, char uplo, char fact, int64_t n,
                          double _Complex *A, int64_t lda, double _Complex *B, int64_t ldb, double vl, double vu,
                          int64_t il, int64_t iu, int64_t *m, double *w, double _Complex *Z, int64_t ldz,
                          int64_t ngpu);

/**
 * @name Data in GPU memory
 *
 * The same solvers on matrices that already live in a GPU's memory, as
 * MAGMA's _gpu routines and cuSOLVER take them: each of dA, dB, dZ and dC
 * is a device pointer of one GPU (from cudaMalloc), which the call reads
 * and writes there: the caller's matrices do not go through host memory.
 * The library's GPUs copy from and to the caller's GPU directly (NVLink or
 * PCIe peer copies), so the matrix may be on any GPU the context drives,
 * and ngpu GPUs share the work as for the host interface.  The small
 * outputs (w, m, d, e, tau, HOUS2) are host arrays, as in MAGMA.
 *
 * Where the work runs on the host cores (ngpu = 0, a context without GPUs,
 * the orders the host interface gives to LAPACK, or a matrix on a GPU the
 * context does not drive), the matrices are copied to host memory and the
 * results back, once each.  A pointer to host or managed memory is taken
 * too, and then the call is the host interface's.
 *
 * The arguments, their numbering, the results and the status codes are
 * those of the host function each is named after; the leading dimensions
 * are ldda, lddb, lddz and lddc.  Each returns when its results are in
 * place; it synchronises the devices it uses, not the caller's streams:
 * work the caller queued on dA must be finished (cudaStreamSynchronize)
 * before the call.
 * @{
 */

/** zhetrd_2stage_mgpu() on dA in GPU memory: the band and the stage-1
 *  reflectors are left in dA; d, e, tau and HOUS2 are host arrays. */
int zhetrd_2stage_mgpu_gpu(char vect, char uplo, int n, double _Complex *dA, int ldda, double *d, double *e,
                           double _Complex *tau, double _Complex *hous2, int lhous2, double _Complex *work, int lwork,
                           int ngpu);

/** zhetrd_2stage_mgpu_gpu() with 64-bit integers. */
int zhetrd_2stage_mgpu_gpu_64(char vect, char uplo, int64_t n, double _Complex *dA, int64_t ldda, double *d,
                              double *e, double _Complex *tau, double _Complex *hous2, int64_t lhous2,
                              double _Complex *work, int64_t lwork, int64_t ngpu);

/** zunmtr_2stage_mgpu() with dA (the reflectors zhetrd_2stage_mgpu_gpu()
 *  left) and dC in GPU memory; tau and HOUS2 are host arrays. */
int zunmtr_2stage_mgpu_gpu(char trans, char uplo, int n, int m, const double _Complex *dA, int ldda,
                           const double _Complex *tau, const double _Complex *hous2, int lhous2, double _Complex *dC,
                           int lddc, int ngpu);

/** zunmtr_2stage_mgpu_gpu() with 64-bit integers. */
int zunmtr_2stage_mgpu_gpu_64(char trans, char uplo, int64_t n, int64_t m, const double _Complex *dA, int64_t ldda,
                              const double _Complex *tau, const double _Complex *hous2, int64_t lhous2,
                              double _Complex *dC, int64_t lddc, int64_t ngpu);

/** zheevd_2stage_mgpu() on dA in GPU memory: the eigenvectors overwrite
 *  dA there; w is a host array. */
int zheevd_2stage_mgpu_gpu(char jobz, char uplo, int n, double _Complex *dA, int ldda, double *w, int ngpu);

/** zheevd_2stage_mgpu_gpu() with 64-bit integers. */
int zheevd_2stage_mgpu_gpu_64(char jobz, char uplo, int64_t n, double _Complex *dA, int64_t ldda, double *w,
                              int64_t ngpu);

/** zheevr_2stage_mgpu() on dA in GPU memory, the eigenvectors into dZ in
 *  GPU memory; m and w are host variables. */
int zheevr_2stage_mgpu_gpu(char jobz, char range, char uplo, int n, double _Complex *dA, int ldda, double vl,
                           double vu, int il, int iu, int *m, double *w, double _Complex *dZ, int lddz, int ngpu);

/** zheevr_2stage_mgpu_gpu() with 64-bit integers. */
int zheevr_2stage_mgpu_gpu_64(char jobz, char range, char uplo, int64_t n, double _Complex *dA, int64_t ldda,
                              double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                              double _Complex *dZ, int64_t lddz, int64_t ngpu);

/** zhegvd_2stage_mgpu() on dA and dB in GPU memory: the eigenvectors
 *  overwrite dA and B's factor dB's referenced triangle there; w is a
 *  host array. */
int zhegvd_2stage_mgpu_gpu(int itype, char jobz, char uplo, int n, double _Complex *dA, int ldda,
                           double _Complex *dB, int lddb, double *w, int ngpu);

/** zhegvd_2stage_mgpu_gpu() with 64-bit integers. */
int zhegvd_2stage_mgpu_gpu_64(int64_t itype, char jobz, char uplo, int64_t n, double _Complex *dA, int64_t ldda,
                              double _Complex *dB, int64_t lddb, double *w, int64_t ngpu);

/** zhegvx_2stage_mgpu() on dA, dB and dZ in GPU memory (with fact = 'F',
 *  dB holds the factor a previous call left there); m and w are host
 *  variables. */
int zhegvx_2stage_mgpu_gpu(int itype, char jobz, char range, char uplo, char fact, int n, double _Complex *dA,
                           int ldda, double _Complex *dB, int lddb, double vl, double vu, int il, int iu, int *m,
                           double *w, double _Complex *dZ, int lddz, int ngpu);

/** zhegvx_2stage_mgpu_gpu() with 64-bit integers. */
int zhegvx_2stage_mgpu_gpu_64(int64_t itype, char jobz, char range, char uplo, char fact, int64_t n,
                              double _Complex *dA, int64_t ldda, double _Complex *dB, int64_t lddb, double vl,
                              double vu, int64_t il, int64_t iu, int64_t *m, double *w, double _Complex *dZ,
                              int64_t lddz, int64_t ngpu);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* STARTRD_Z_H */
