/**
 * @file startrd.h
 * @brief StarTRD: reduction of a dense complex Hermitian matrix to real
 *        symmetric tridiagonal form on several GPUs and the host cores,
 *        scheduled by the StarPU runtime.
 *
 * The library keeps one process-wide runtime context (StarPU and the
 * library's state on its workers).  An application may open it explicitly
 * with startrd_init() to choose GPUs, CPU workers, bandwidth and tracing,
 * and close it with startrd_finalize(); if it does not, the first call
 * that computes opens it with default options and it closes at process
 * exit.  Workspace queries, n = 0 and wrong arguments open nothing.  When
 * the application has started StarPU itself, the library runs on StarPU's
 * existing workers and never pauses or shuts StarPU down.
 *
 * What the context takes: one CPU worker per core of the process's CPU
 * affinity that drives no GPU, the GPUs CUDA shows the process
 * (CUDA_VISIBLE_DEVICES) or the first ngpu of them.  Between calls a
 * StarPU the library started is paused, so the context costs no CPU.  Each
 * worker sets its own thread's BLAS thread count to one; no other thread's
 * count is ever changed, so the application's BLAS threading is its own
 * during the library's calls and between them.
 *
 * Return values follow LAPACK: 0 on success, -i when the i-th argument is
 * wrong, a positive code (see ::startrd_status) for a run-time failure, with
 * a one-line message on stderr.
 */
#ifndef STARTRD_H
#define STARTRD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Positive run-time error codes returned by the library. */
enum startrd_status {
    STARTRD_SUCCESS = 0,
    STARTRD_ERR_RUNTIME = 1,     /**< StarPU could not be started or refused a call. */
    STARTRD_ERR_NO_GPU = 2,      /**< More GPUs were requested than StarPU can drive. */
    STARTRD_ERR_MEMORY = 3,      /**< A host or device allocation failed, or a GPU has too little free
                                      memory for one task. */
    STARTRD_ERR_KERNEL = 4,      /**< A BLAS, LAPACK, cuBLAS or CUDA call inside a task failed. */
    STARTRD_ERR_STATE = 5,       /**< The call does not fit the library's state (e.g. finalize without init). */
    STARTRD_ERR_NONFINITE = 6,   /**< A holds NaN or Inf; nothing was written. */
    STARTRD_ERR_SIZE = 7         /**< The order needs an array longer than StarPU's 32-bit data sizes
                                      describe (HOUS2 with VECT = 'V' above n of about 90000), or
                                      is above 2^31 - 1.  Nothing was written. */
};

/** How stage 1 combines the GPUs' shares of A*V (the paper's three schemes). */
typedef enum startrd_allreduce {
    STARTRD_ALLREDUCE_HIERARCHICAL = 0, /**< Partial products summed inside each group of GPUs, then
                                             between the groups' first GPUs, GPU to GPU; the sum goes
                                             back the same way.  Two GPUs exchange their products and
                                             each adds both. */
    STARTRD_ALLREDUCE_HOST = 1,         /**< Partial products summed on the host cores: every GPU's
                                             product goes to host memory, the sum back to every GPU. */
    STARTRD_ALLREDUCE_FULL = 2,         /**< No sum: A is kept with both triangles, each GPU forms the
                                             rows of A*V of its own block columns with one GEMM and
                                             sends only those; the update writes both triangles
                                             (twice its flops) and the GPUs hold twice the data. */
    STARTRD_ALLREDUCE_AUTO = 3          /**< The scheme measured fastest: hierarchical at every GPU
                                             count measured (1, 2, 4 H200 with NVLink). */
} startrd_allreduce_t;

/** Where stage 2 (the bulge chase, band -> tridiagonal) runs. */
typedef enum startrd_stage2_where {
    STARTRD_STAGE2_AUTO = 0, /**< On the GPUs of the reduction when it uses GPUs and nb <= 128 (on the
                                  first, or split over several: see stage2_ngpu), on the host cores
                                  otherwise. */
    STARTRD_STAGE2_HOST = 1  /**< On the host cores, as ranks of sweeps on every CPU worker. */
} startrd_stage2_where_t;

/** Options of the runtime context, set by startrd_options_init() then adjusted. */
typedef struct startrd_options {
    int ngpu;               /**< < 0: every visible GPU; 0: CPU workers only; k > 0: the first k GPUs. */
    int ncpu;               /**< CPU workers, at least 1; < 0 chooses: one per core not driving a
                                 GPU, less one left to the calling thread when GPUs are used and
                                 cores are not scarce, unless STARPU_NCPU sets the count. */
    const char *scheduler;  /**< StarPU scheduling policy; NULL selects "dmdas". */
    int nb;                 /**< Bandwidth of the intermediate band (and stage-1 block size), at
                                 most 1024; 0 chooses. */
    int dist_nb;            /**< Columns per block of the block-cyclic distribution over GPUs, a
                                 multiple of nb; 0 chooses (up to 16 nb, at least 4 blocks
                                 per GPU). */
    int check_finite;       /**< Scan A for NaN and Inf while copying it in (no extra pass);
                                 1 by default, 0 when $STARTRD_CHECK_FINITE is 0. */
    const char *trace_dir;  /**< Record an FxT trace of the library's calls and convert it, when the
                                 context closes, into DIR/paje.trace (ViTE) and DIR/tasks.rec;
                                 NULL: no trace.  Defaults to $STARTRD_TRACE_DIR. */
    startrd_allreduce_t allreduce; /**< Automatic by default; $STARTRD_ALLREDUCE = "hierarchical",
                                        "host", "full" or "auto" sets the default. */
    const char *gpu_groups; /**< Groups of the hierarchical sum as GPU indices, e.g. "0,1;2,3";
                                 NULL finds them (NVLink, PCIe switches: startrd-topology prints
                                 them).  Defaults to $STARTRD_GPU_GROUPS. */
    startrd_stage2_where_t stage2; /**< Automatic by default; $STARTRD_STAGE2 = "host" or "auto"
                                        sets the default. */
    int stage2_ngpu;        /**< GPUs the bulge chase is split over, at most the reduction's and 8,
                                 for VECT = 'N' (with 'V' it runs on one): 0 chooses (all of them
                                 from n = 49152 on, 65536 for nb < 64, where the chase is bound by
                                 how many kernels one GPU holds; one below); $STARTRD_STAGE2_NGPU
                                 sets the default. */
    int stage1_ngpu;        /**< GPUs stage 1 spreads the matrix over, at most the reduction's: 0
                                 chooses (all of them from n = 10240 on, or from 6144 on two GPUs
                                 that read each other's memory under the hierarchical scheme;
                                 the first one alone below, where the exchange between GPUs
                                 costs each step more than it shares); $STARTRD_STAGE1_NGPU sets
                                 the default. */
    int panel_sms;          /**< Multiprocessors of a GPU that stage 1's trailing update leaves to
                                 the panel factored beside it, once the trailing matrix has at
                                 most 16384 rows: < 0 chooses (12), 0 keeps none, and so does a
                                 count the GPU cannot spare.  Needs a driver with CUDA green
                                 contexts; $STARTRD_PANEL_SMS sets the default. */
} startrd_options_t;

/**
 * @brief Fill @p opt with the defaults: every GPU, StarPU's choice of CPU
 *        workers, the "dmdas" scheduler, the library's choice of bandwidth,
 *        a distribution block of one band-wide block column, and tracing
 *        into $STARTRD_TRACE_DIR when that variable is set.
 */
void startrd_options_init(startrd_options_t *opt);

/** @brief The scheme named @p name: "hierarchical", "host", "full" or "auto".
 *  @return a startrd_allreduce_t, or -1 for any other name (NULL included). */
int startrd_allreduce_by_name(const char *name);

/** @brief The name of scheme @p scheme, as startrd_allreduce_by_name() reads it, or "?". */
const char *startrd_allreduce_name(startrd_allreduce_t scheme);

/**
 * @brief Open the runtime context.
 *
 * Starts StarPU with @p opt (NULL means defaults) unless the application
 * already did, with two CUDA workers (streams) per GPU unless
 * $STARPU_NWORKER_PER_CUDA says otherwise, and creates a cuBLAS handle for
 * every CUDA worker.  StarPU is then paused until a call needs it.
 *
 * A context the first call opened with the defaults, and not in use, gives
 * way to the one @p opt asks for.  Calls nest: each successful
 * startrd_init() needs one startrd_finalize(); a nested call with NULL
 * joins the open context, and one with other options than the open
 * context's is refused.
 *
 * @return 0; -1 when @p opt holds an invalid value (ngpu or ncpu at
 *         StarPU's worker limit or beyond, ncpu = 0, nb outside 0..1024,
 *         a negative dist_nb or one set with nb = 0 or not a multiple of
 *         nb, an allreduce or stage2 value outside its enumeration, a
 *         negative stage1_ngpu or stage2_ngpu; the library says which on
 *         stderr); ::STARTRD_ERR_STATE when a context with other options is
 *         open (opened by an earlier startrd_init(), or in use by a call);
 *         ::STARTRD_ERR_RUNTIME when StarPU cannot start or the process's
 *         BLAS keeps one thread count for the whole process (OpenBLAS
 *         threaded by pthreads, unless OPENBLAS_NUM_THREADS=1); another
 *         positive ::startrd_status.
 */
int startrd_init(const startrd_options_t *opt);

/**
 * @brief Close the runtime context opened by startrd_init().  The last call
 *        (with no implicit context beside it) shuts StarPU down if, and only
 *        if, the library started it, and then converts the trace if one was
 *        recorded (StarPU writes it at shutdown: an application's own StarPU
 *        keeps its trace to itself).
 * @return 0, ::STARTRD_ERR_STATE when no startrd_init() is left to match,
 *         or ::STARTRD_ERR_RUNTIME when the trace could not be converted.
 */
int startrd_finalize(void);

/** @brief Number of GPUs (CUDA workers) the open context uses, or -1 if none is open. */
int startrd_gpu_count(void);

/**
 * @brief Reduce a complex Hermitian matrix to real symmetric tridiagonal form
 *        T = Q^H A Q, Q = Q1 Q2, with the semantics of LAPACK's ZHETRD_2STAGE.
 *
 * Stage 1 reduces A to a Hermitian band of bandwidth kd on the GPUs (and
 * CPU cores; below the order the stage1_ngpu option names, on the first GPU
 * alone), stage 2 chases the band down to tridiagonal form on the first
 * GPU (or on several, or the CPU cores: see the stage2 and stage2_ngpu
 * options).  kd is the context's nb option (by default 64 with GPUs, 32
 * without, and never more than n-1).
 *
 * Memory: with GPUs, each GPU of stage 1 holds its share of the zero-padded
 * lower triangle stored by block columns (about N^2 * 16 / g bytes on g
 * GPUs, N = n rounded up to kd) plus workspaces of a few N x kd blocks, and the host
 * only two pinned buffers of 8 MiB per CPU worker, through which the
 * matrix goes to the GPUs and back.  When that does not fit on a GPU (or
 * StarPU's STARPU_LIMIT_CUDA_MEM says so) the library keeps a pinned host
 * copy of N^2 * 16 bytes instead and StarPU moves its columns in and out.
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

/**
 * @brief Apply Q = Q1 Q2 of a zhetrd_2stage_mgpu() reduction with VECT = 'V'
 *        to a matrix from the left: C := Q C or C := Q^H C.
 *
 * With C the eigenvectors of the tridiagonal T (d, e), Q C are those of A.
 *
 * @param trans  'N': Q C; 'C': Q^H C.
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

/**
 * @name 64-bit integer interface
 *
 * The same functions with every integer argument an int64_t, as LAPACK's
 * ILP64 interface names them (the _64 suffix): orders, leading dimensions,
 * workspace lengths, index bounds, the count m and ngpu.  Their behaviour,
 * argument numbers and return values are those of the 32-bit functions
 * above; argument errors are reported under the _64 name.
 *
 * Use them when a size does not fit an int: with VECT = 'V' HOUS2 passes
 * INT_MAX entries above n of about 64000, so a caller of
 * zhetrd_2stage_mgpu() cannot pass its length; and for Fortran callers built
 * with 64-bit default integers.  The eigensolver drivers size HOUS2
 * themselves and work in 64 bits inside, so their 32-bit forms reach the
 * same orders.  Either way, the order is bounded by StarPU's 32-bit data
 * sizes: with VECT = 'V', HOUS2 must hold at most 2^32 - 1 entries (n up to
 * about 90000), and any order at most 2^31 - 1, else the call returns
 * ::STARTRD_ERR_SIZE before touching its arrays.
 * @{
 */
int zhetrd_2stage_mgpu_64(char vect, char uplo, int64_t n, double _Complex *A, int64_t lda,
                          double *d, double *e, double _Complex *tau,
                          double _Complex *hous2, int64_t lhous2,
                          double _Complex *work, int64_t lwork, int64_t ngpu);
int zunmtr_2stage_mgpu_64(char trans, char uplo, int64_t n, int64_t m, const double _Complex *A, int64_t lda,
                          const double _Complex *tau, const double _Complex *hous2, int64_t lhous2,
                          double _Complex *C, int64_t ldc, int64_t ngpu);
int zheevd_2stage_mgpu_64(char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda, double *w,
                          int64_t ngpu);
int zheevdx_2stage_mgpu_64(char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda, int64_t il,
                           int64_t iu, int64_t *m, double *w, double _Complex *Z, int64_t ldz, int64_t ngpu);
int zheevr_2stage_mgpu_64(char jobz, char range, char uplo, int64_t n, double _Complex *A, int64_t lda,
                          double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                          double _Complex *Z, int64_t ldz, int64_t ngpu);
/** @} */

/** Timings of the last reduction this process ran. */
typedef struct startrd_stats {
    double stage1_seconds;   /**< dense -> band, copies in and out of A included */
    double stage2_seconds;   /**< band -> tridiagonal */
    int ngpu;                /**< GPUs of the reduction (the call's ngpu, or the context's) */
    int nb;                  /**< bandwidth of the intermediate band */
    startrd_allreduce_t allreduce; /**< stage-1 scheme used (STARTRD_ALLREDUCE_AUTO resolved) */
    double tridiag_seconds;  /**< the eigensolvers with jobz = 'V': eigenvectors of the tridiagonal; else 0 */
    double backtransform_seconds; /**< the eigensolvers with jobz = 'V': Q applied to them; else 0 */
    int stage1_ngpu;         /**< GPUs stage 1 ran on (see the stage1_ngpu option) */
    int stage2_ngpu;         /**< GPUs the bulge chase ran on: 1, the count it was split over (see the
                                  stage2_ngpu option), or 0 for the host cores, where a band too wide
                                  for the GPU kernel or too large for a GPU's memory goes too */
} startrd_stats_t;

/**
 * @brief Copy the timings of the last successful reduction, whether
 *        zhetrd_2stage_mgpu() or an eigensolver ran it, to @p stats.  An
 *        eigensolver call that LAPACK handled whole (no GPU taking part,
 *        n below 2048) sets them all to zero.
 */
void startrd_last_stats(startrd_stats_t *stats);

#ifdef __cplusplus
}
#endif

#endif /* STARTRD_H */
