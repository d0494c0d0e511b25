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
 * a one-line message on stderr (none with the quiet option or
 * $STARTRD_QUIET=1).
 */
#ifndef STARTRD_H
#define STARTRD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Positive run-time error codes returned by the library.  Each comes with one
 * line on stderr, "startrd: <what failed>", unless the quiet option or
 * $STARTRD_QUIET silences it (see startrd_options_t::quiet); the line names
 * the call or phase, the GPU or the size involved.  Argument errors are not
 * among them: they return -i, also with one line.
 */
enum startrd_status {
    STARTRD_SUCCESS = 0,
    /** StarPU could not be started (no worker; tracing asked of a StarPU
     *  built without FxT), refused a task or a data access, a worker could
     *  not set up its CUDA streams, cuBLAS handles or pinned buffers when
     *  the context opened, StarPU has no CPU worker (an application's
     *  StarPU started without them, or STARPU_NCPU=0), or
     *  the process's BLAS keeps one thread count for all its threads
     *  (OpenBLAS threaded by pthreads); at startrd_finalize(), the trace
     *  could not be converted.
     *  When it happens while a call computes, the arrays it writes are
     *  unspecified; when the context opens, nothing was written.  What to
     *  do: read the line; link the OpenMP OpenBLAS or set
     *  OPENBLAS_NUM_THREADS=1 when it names the BLAS; otherwise check
     *  StarPU's installation and its own messages (STARPU_NCPU,
     *  STARPU_NCUDA, a GPU already full). */
    STARTRD_ERR_RUNTIME = 1,
    /** The options ask for more GPUs (ngpu > 0) than StarPU drives: fewer
     *  are visible (CUDA_VISIBLE_DEVICES, STARPU_NCUDA) or the library was
     *  built without CUDA.  Returned when the context opens, before any
     *  array is touched.  What to do: ask fewer GPUs, or -1 for every
     *  visible one, or 0 for the host cores alone.  (A call's own ngpu
     *  argument above the context's GPUs is an argument error instead.) */
    STARTRD_ERR_NO_GPU = 2,
    /** A host allocation failed (workspace, reflectors, eigenvectors), or a
     *  GPU has too little free memory for the least one task holds (the
     *  line names the GPU, its room and the need; memory other programs and
     *  the application hold on it counts against StarPU's share).  When the
     *  failure comes before the reduction starts, A is unchanged; once it
     *  ran (stage 2, the eigenvectors), the arrays the call writes are
     *  unspecified.  What to do: free host or GPU memory held elsewhere,
     *  raise STARPU_LIMIT_CUDA_MEM if it is set, leave out a GPU that others
     *  fill (CUDA_VISIBLE_DEVICES, fewer GPUs), take a narrower band (the
     *  nb option), run on the host cores (ngpu = 0), or a smaller n. */
    STARTRD_ERR_MEMORY = 3,
    /** A BLAS, LAPACK, cuBLAS or CUDA call inside a task failed, or a
     *  tridiagonal solver (DSTERF, DSTEDC, DSTEMR) did not converge; the
     *  line names the kernel, the call and its status (only the first
     *  failure is printed).  The arrays the call writes are unspecified.
     *  What to do: a CUDA error usually means a GPU fault or a driver
     *  problem (check nvidia-smi, retry with fewer GPUs or with ngpu = 0);
     *  a solver's failure, an ill-posed matrix: check its scaling. */
    STARTRD_ERR_KERNEL = 4,
    /** The call does not fit the library's state: startrd_finalize()
     *  without a matching startrd_init(); startrd_init() with other options
     *  than the context open; gpu_groups that do not name each GPU once;
     *  an environment variable that gives an option an invalid default
     *  (STARTRD_STAGE1_NGPU or STARTRD_STAGE2_NGPU below 0).  Nothing was
     *  written.  What to do: match each startrd_init() with one
     *  startrd_finalize(), finalize the open context before asking for
     *  other options, correct the option or variable the line names. */
    STARTRD_ERR_STATE = 5,
    /** The referenced triangle of A holds NaN or Inf (found while copying it
     *  in; the check_finite option or STARTRD_CHECK_FINITE=0 turns the scan
     *  off).  Nothing was written: A and the output arrays are as they
     *  were (the drivers' count m is 0).  What
     *  to do: clean the input (it usually comes from an earlier step that
     *  diverged). */
    STARTRD_ERR_NONFINITE = 6,
    /** The order needs an array longer than StarPU's 32-bit data sizes
     *  describe (HOUS2 with VECT = 'V' above n of about 90000), or is above
     *  2^31 - 1.  Returned before any array is written.  What to do: a
     *  smaller n, or VECT = 'N' / JOBZ = 'N' when the eigenvectors are not
     *  needed.  The _64 interface does not lift this bound (it lifts the
     *  int bound on lhous2, which is an argument error). */
    STARTRD_ERR_SIZE = 7,
    /** The generalized drivers (zhegvd_2stage_mgpu(), zhegvx_2stage_mgpu()):
     *  B is not positive definite, its Cholesky factorisation broke down
     *  (the line names the order of the leading minor that is not
     *  positive, as LAPACK's ZHEGVD returns it in INFO - N).  B's referenced
     *  triangle holds the partial factorisation; A and the outputs were
     *  not written.  What to do: check that B is the overlap or mass
     *  matrix meant, Hermitian and definite; a nearly singular B (linearly
     *  dependent basis functions) needs its null space removed first. */
    STARTRD_ERR_NOT_DEFINITE = 8
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
    int quiet;              /**< 1: the library writes nothing on stderr, its error messages
                                 included (the return values still say what failed); for
                                 applications that keep their own logs.  Applies to the
                                 startrd_init() that passes it and while the context it opens
                                 is open; while no context is open (argument errors, a call
                                 that opens the default context) $STARTRD_QUIET decides, set
                                 and not "0" meaning quiet, and it sets this default too.
                                 StarPU's own messages are StarPU's (STARPU_SILENT=1). */
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
 *         open (opened by an earlier startrd_init(), or in use by a call),
 *         or @p opt is NULL and a $STARTRD_* variable sets an invalid
 *         default;
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

/*
 * The 64-bit integer interface: each computing function of startrd_s.h,
 * startrd_d.h, startrd_c.h and startrd_z.h has a twin with every integer
 * argument an int64_t, as LAPACK's ILP64 interface names them (the _64
 * suffix): orders, leading dimensions, workspace lengths, index bounds,
 * the count m and ngpu.  Their behaviour, argument numbers and return
 * values are those of the 32-bit functions; argument errors are reported
 * under the _64 name.
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
 */

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
                                  for the GPU kernel or too large for a GPU's memory goes too, and
                                  for the one-stage kernel of small orders (nb = 1), which has no
                                  chase */
    double standard_form_seconds;  /**< the generalized drivers: B's factorisation (unless given) and the
                                        reduction to the standard problem; else 0 */
    double backsubstitution_seconds; /**< the generalized drivers with jobz = 'V': the eigenvectors'
                                          back-substitution; else 0 */
    int stage1_out_of_core;  /**< 1 when stage 1's GPUs could not hold the matrix (their free memory or
                                  STARPU_LIMIT_CUDA_MEM): its first block columns, or all, then live in
                                  a pinned host copy that StarPU moves to and from the GPUs, slower;
                                  else 0 */
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

/* The reduction and the eigensolvers in each precision: s, d, c generated
 * from startrd_z.h. */
#include "startrd_s.h"
#include "startrd_d.h"
#include "startrd_c.h"
#include "startrd_z.h"

#endif /* STARTRD_H */
