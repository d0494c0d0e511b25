/* Task insertion, one function per codelet.  Algorithms call these and never
 * touch buffers; each codelet file adapts StarPU buffers to one kernel call. */
#ifndef STARTRD_CODELETS_H
#define STARTRD_CODELETS_H

#include <complex.h>
#include <stdatomic.h>

#include "bulge_plan.h"
#include "cuda_signal.h"
#include "forward.h"
#include "merge_moves.h"
#include "q2_blocks.h"
#include "starpu_include.h"

/* A codelet's CUDA implementation, in builds with CUDA: its kernels are
 * queued on the worker's stream and StarPU waits on the stream, not on the
 * function's return. */
#ifdef STARTRD_USE_CUDA
#define STARTRD_CUDA_ASYNC(func) .cuda_funcs = {func}, .cuda_flags = {STARPU_CUDA_ASYNC},
#else
#define STARTRD_CUDA_ASYNC(func)
#endif

/* A performance model StarPU calibrates from measured runs, per data size. */
#define STARTRD_HISTORY_MODEL(var, symbol_name) \
    static struct starpu_perfmodel var = {.type = STARPU_HISTORY_BASED, .symbol = symbol_name}

/* The same, for tasks whose handles do not tell their work: @p fp gives the
 * footprint the history is kept by. */
#define STARTRD_HISTORY_MODEL_FOOTPRINT(var, symbol_name, fp) \
    static struct starpu_perfmodel var = {.type = STARPU_HISTORY_BASED, .symbol = symbol_name, .footprint = fp}

/* A footprint for tasks whose handles are full-height whatever the step, so
 * that the trailing matrix's first row tells their work: it is the int64_t
 * their arguments start with. */
static inline uint32_t startrd_row0_footprint(struct starpu_task *task)
{
    const int64_t *row0 = task->cl_arg;

    return starpu_hash_crc32c_be((uint32_t)*row0, starpu_task_data_footprint(task));
}

/* Number of buffers of the running task, for codelets with STARPU_VARIABLE_NBUFFERS. */
static inline int startrd_current_nbuffers(void)
{
    return STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
}

/** Where and how urgently a task runs. */
typedef struct startrd_place {
    int worker;      /**< worker id, or -1 to let the scheduler choose */
    int priority;    /**< StarPU priority: higher runs first */
    int cpu_only;    /**< keep the task off the GPUs (a reduction asked for CPU workers) */
    const startrd_forward_t *forward;   /**< outputs sent on at the task's end, or NULL */
} startrd_place_t;

static inline unsigned long long startrd_place_where(startrd_place_t place)
{
    return place.cpu_only ? STARPU_CPU : (unsigned long long)-1;   /* -1: any kind of worker */
}

/* The task_insert arguments that put a task where @p place says. */
#define STARTRD_PLACE_ARGS(place)                                                  \
    STARPU_EXECUTE_ON_WORKER, (place).worker, STARPU_EXECUTE_WHERE,               \
        startrd_place_where(place), STARPU_PRIORITY, (place).priority,            \
        STARPU_EPILOGUE_CALLBACK, (place).forward != NULL ? startrd_forward_callback : NULL, \
        STARPU_EPILOGUE_CALLBACK_ARG, startrd_forward_arg((place).forward)

/** C = alpha * op(A) * op(B) + beta * C on whole handles; op is 'N', 'T' or 'C'. */
int startrd_task_zgemm(startrd_place_t place, char transa, char transb,
                       double complex alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                       double complex beta, starpu_data_handle_t C);

/** B += A on whole handles. */
int startrd_task_zgeadd(startrd_place_t place, starpu_data_handle_t A, starpu_data_handle_t B);

/** A signal (cuda_signal.h) at one step; none where signal is NULL. */
typedef struct startrd_step_signal {
    startrd_cuda_signal_t *signal;
    int64_t step;
} startrd_step_signal_t;

/** Where each of two GPUs' HEMM tasks of a step forms P from both partial
 *  products: each posts @p mine at @p step once its Y is complete, and
 *  reads the other task's Y in place, on its GPU (the two GPUs reach each
 *  other's memory: startrd_cuda_open_peers()), once @p theirs is posted. */
typedef struct startrd_peer_product {
    startrd_cuda_signal_t *mine, *theirs;
    int64_t step;
    int side;             /* 0: this task's Y is the sum's first term, 1: its second */
    uintptr_t peer_y;     /* the other task's Y: the same shape, on the other GPU */
} startrd_peer_product_t;

/** Most GPUs whose HEMM tasks a panel task copies V and T for. */
#define STARTRD_PANEL_MIRRORS 2

/** Where a panel task copies V (rows from vrow down) and T for the HEMM
 *  tasks of its step, which then wait for its signals instead of its end
 *  (cuda_signal.h): copies homed on their GPUs, whose HEMM tasks read them
 *  in place, V in their products and T only where they form P. */
typedef struct startrd_panel_mirrors {
    startrd_step_signal_t v_done;   /* posted once V is in every copy */
    startrd_step_signal_t t_done;   /* posted once T is in every copy too */
    int count;
    uintptr_t v[STARTRD_PANEL_MIRRORS];   /* N x nb, leading dimension N, as V */
    uintptr_t t[STARTRD_PANEL_MIRRORS];   /* nb x nb, leading dimension nb */
} startrd_panel_mirrors_t;

/**
 * QR of the panel below the diagonal tile of a stage-1 block column, in place
 * (the diagonal tile starts at row @p crow of the column's handle); writes
 * the explicit reflectors to V from absolute row @p vrow (zeros above), the
 * compact WY factor to T, and the scalar factors to the vector @p tau (as
 * many as it holds).  With @p P (or NULL), the previous step's [W V W], the
 * task first updates the block column as startrd_task_zher2k_columns()
 * would; the diagonal tile must then start the handle (@p crow = 0).  With
 * @p mirrors (or NULL; on a GPU only) it then copies V and T there and
 * posts their signals.
 */
int startrd_task_zpanel_qr(startrd_place_t place, starpu_data_handle_t column, int64_t crow, int64_t vrow,
                           starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t tau,
                           starpu_data_handle_t P, const startrd_panel_mirrors_t *mirrors);

/** The previous step's update, where it was deferred from row0 (and
 *  column row0) down: its P, and the pair that receives both steps'
 *  operands (kernels_stage1.h); prev NULL where there is none. */
typedef struct startrd_deferred_update {
    starpu_data_handle_t prev, pair;
    int64_t row0;
} startrd_deferred_update_t;

/** The operands of forming P = [W V W] (startrd_task_zform_wvw()); with
 *  @p peer (or NULL) Y is the sum of the task's partial product and the
 *  other GPU's; with @p t_done.signal (or NULL) T is a copy that the panel
 *  task posts there (startrd_panel_mirrors_t). */
typedef struct startrd_wvw_handles {
    int64_t row0;
    starpu_data_handle_t T, ZM, P;
    startrd_deferred_update_t deferred;
    const startrd_peer_product_t *peer;
    startrd_step_signal_t t_done;
} startrd_wvw_handles_t;

/**
 * Y += (the given block columns' share of A22 * V), A22 Hermitian in lower
 * storage; V and Y are full-height and a column of height m starts at row
 * height(V) - m.  With @p zero_y set the task first zeroes all of Y (or,
 * when it also forms P, writes Y from A22's first row down).  With
 * @p form (or NULL) the task then forms P from Y, V and @p form's handles
 * as startrd_task_zform_wvw() does: for the task that computes all of Y,
 * or, with form->peer, for each of two GPUs' tasks of the step (on a GPU
 * only).  With @p after.signal (or NULL; on a GPU only) the task's products
 * wait for that signal: V is then a copy that the panel task wrote and
 * posted behind the runtime's back (startrd_panel_mirrors_t).
 */
int startrd_task_zhemm_columns(startrd_place_t place, starpu_data_handle_t V, starpu_data_handle_t Y,
                               int zero_y, int ncolumns, const starpu_data_handle_t *columns,
                               const startrd_wvw_handles_t *form, startrd_step_signal_t after);

/**
 * P = [W V W] for startrd_task_zher2k_columns(), rows @p row0 and below, with
 * W = Y T - 1/2 V T^H V^H Y T: Y and V are N x nb, T is nb x nb, P is
 * N x 3nb, and @p ZM an nb x 2nb scratch handle.  With @p Y2 (or NULL), a
 * second partial product, Y + Y2 stands for Y.  Where the previous step's
 * update was @p deferred, Y is corrected for it and the pair (N x 6nb)
 * receives both steps' operands (kernels_stage1.h).
 */
int startrd_task_zform_wvw(startrd_place_t place, int64_t row0, starpu_data_handle_t Y, starpu_data_handle_t Y2,
                           starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t ZM,
                           starpu_data_handle_t P, startrd_deferred_update_t deferred);

/**
 * Each block column C -= W * V[C]^H + V * W[C]^H, in the lower triangle of
 * its diagonal tile and below, with P = [W V W] (startrd_task_zform_wvw()),
 * or with two steps' pair [W0 W V0 V W0 W] the updates of both.  With
 * @p narrow, on a GPU, the products leave the multiprocessors kept for a
 * panel factored beside them free (startrd_cuda_fork_narrow()).
 */
int startrd_task_zher2k_columns(startrd_place_t place, starpu_data_handle_t P,
                                int ncolumns, const starpu_data_handle_t *columns, int narrow);

/** A run of rows copied from one source buffer into a full-height one. */
typedef struct startrd_row_segment {
    int source;                 /* index in the task's list of sources */
    int64_t src_row, dst_row, rows;
} startrd_row_segment_t;

/**
 * For block columns that keep both triangles (full height, from row 0):
 * X[xrow ..] = (rows row0.. of the columns)^H * V[row0 ..], the block rows of
 * A22 * V of those columns, stacked in the order given; jcol[i] is the block
 * column of columns[i].
 */
int startrd_task_zhemm_rows(startrd_place_t place, starpu_data_handle_t V, starpu_data_handle_t X, int64_t xrow,
                            int64_t row0, int ncolumns, const starpu_data_handle_t *columns, const int64_t *jcol);

/** Y = zero above row @p row0, and each segment's rows of sources[segment.source]. */
int startrd_task_zgather_rows(startrd_place_t place, starpu_data_handle_t Y, int64_t row0, int nsources,
                              const starpu_data_handle_t *sources, int nsegments, const startrd_row_segment_t *seg);

/**
 * Each block column that keeps both triangles: rows row0.. of C -= W * V[C]^H
 * + V * W[C]^H, with P = [W V W] (startrd_task_zform_wvw()); jcol[i] is the
 * block column of columns[i].
 */
int startrd_task_zher2k_full_columns(startrd_place_t place, starpu_data_handle_t P, int64_t row0,
                                     int ncolumns, const starpu_data_handle_t *columns, const int64_t *jcol);

/**
 * Copy block column starting at column @p col0 between the caller's n x n
 * matrix (@p uplo triangle, leading dimension @p lda) and a column handle,
 * lower storage or, with @p both, both triangles from row 0: into the
 * handle (the handle may be taller than the column: the rows below are
 * zeroed; with @p both the rows above get the other triangle), setting
 * @p nonfinite (if not NULL) when it reads a NaN or Inf; or back to the
 * caller with @p to_user, which does nothing once @p nonfinite (if not
 * NULL) is set; on a CPU worker either way, which reaches a column whose
 * home is a GPU in place, through its pinned buffers (cuda_upload.h), and
 * moves the column's handle nowhere.  Both read the token
 * @p scanned, which startrd_task_copied_in() writes between the copies in
 * and the copies out.  A copy back also writes the band entries it writes
 * to A into @p band (NULL: none), as startrd_kernel_zband_from_dense()
 * would copy them, and zeroes the rest of the band's columns it owns, so
 * that the copies back leave stage 2's band complete.
 */
typedef struct startrd_band_out {
    double complex *ab;
    int64_t kd, ldab;   /* ldab >= 2 kd + 1 */
} startrd_band_out_t;

int startrd_task_zcopy_column(startrd_place_t place, int to_user, char uplo, int64_t n,
                              double complex *a, int64_t lda, int64_t col0, int both,
                              starpu_data_handle_t column, atomic_int *nonfinite,
                              starpu_data_handle_t scanned, const startrd_band_out_t *band);

/** B = the leading rows and columns of A, as many as both have. */
int startrd_task_zlacpy(startrd_place_t place, starpu_data_handle_t A, starpu_data_handle_t B);

/** Orders every copy out after every copy in submitted before it (see above). */
int startrd_task_copied_in(starpu_data_handle_t scanned);

/**
 * A group's progress counter, alone in its 128 bytes (a pair of cache
 * lines, which x86 cores prefetch together): neighbouring groups belong to
 * different ranks, which would otherwise invalidate the line the others
 * spin on at every window.
 */
/* The back-transformation of a block of columns C: by the bulge-chasing
 * reflectors of HOUS2 (codelet_zapply_q2.c), by the stage-1 reflectors of
 * the (n-kd) x (n-kd) matrix V and its factors tau, on rows kd.. of C
 * (codelet_zunmqr_q1.c); V comes as @p npieces handles of its columns, in
 * order, each of all of V's rows.  trans is 'N' or 'C'; @p where (STARPU_CPU,
 * STARPU_CUDA) keeps the wide blocks given to GPUs off single CPU cores;
 * @p worker, unless -1, is the one worker that runs the task. */
int startrd_task_zapply_q2(const startrd_bulge_plan_t *plan, char trans, starpu_data_handle_t hous,
                           starpu_data_handle_t C);

int startrd_task_zunmqr_q1(unsigned long long where, int worker, char trans, int64_t kd, int64_t npieces,
                           const starpu_data_handle_t *V, starpu_data_handle_t tau, starpu_data_handle_t C);

/* @p dst's buffer on memory node @p node, a GPU's, := the host array
 * @p src: a vector's entries, or a matrix's columns read with leading
 * dimension @p lds; copied by a CPU worker through its pinned buffers
 * (codelet_zupload.c).  -EINVAL where @p node is not a GPU's. */
int startrd_task_zupload(int node, const double complex *src, int64_t lds, starpu_data_handle_t dst);

/* One divide-and-conquer merge's product (LAPACK's DLAED3), for a block
 * of columns: the geometry, and where it starts in the task's buffers. */
typedef struct startrd_merge_gemm {
    int64_t m, n1;           /* the merge's rows, the left subproblem's n1 of them */
    int64_t n12, n23;        /* the packed vectors of each half (Q2: n1 x n12, then (m-n1) x n23) */
    int64_t k, s_bottom;     /* S's rows (its leading dimension), the row the bottom half starts from */
    int64_t cols;            /* columns of the block */
    int64_t q2_offset, s_offset, q_offset;   /* element offsets in the Q2, S and Q buffers */
} startrd_merge_gemm_t;

/* Q's block of columns := [Q2top S(0:n12, :); Q2bot S(s_bottom:s_bottom+n23, :)]
 * (codelet_dmerge_gemm.c).  Q2, S and Q are read from g's offsets in
 * their buffers; Q's leading dimension is its handle's.  With @p shared, Q is
 * an array whose other columns stay (mode RW); otherwise the block's own
 * handle, only written.  @p where and @p worker as for
 * startrd_task_zunmqr_q1(). */
int startrd_task_dmerge_gemm(unsigned long long where, int worker, const startrd_merge_gemm_t *g, int shared,
                             starpu_data_handle_t Q2, starpu_data_handle_t S, starpu_data_handle_t Q);

/* The moves (a vector of startrd_move_t), whose destinations do not
 * overlap, from src into dst; src and dst are matrices read from their
 * first element, the moves' offsets counted with leading dimensions
 * @p src_ld and @p dst_ld (the host's, where a copy elsewhere is packed:
 * merge_moves.h).  With @p clear, dst is zeroed first.  With @p clear or
 * @p write_only, dst is only written (mode W: the moves cover all of it
 * that is read later); otherwise what the moves leave keeps its values.
 * @p longest is the longest move's length (codelet_dcopy_moves.c). */
int startrd_task_dcopy_moves(int worker, int clear, int write_only, int64_t longest, int64_t src_ld, int64_t dst_ld,
                             starpu_data_handle_t moves, starpu_data_handle_t src, starpu_data_handle_t dst);

/* Columns 0..k-1 of S from element s_offset on (leading dimension k): the
 * eigenvectors of a merge's rank-one update from its k > 2 entries
 * (startrd_secular_entry_t) from entry @p first on, rows in S's order.
 * With @p write_only, the rest of S is left undefined (mode W)
 * (codelet_dsecular_vectors.c). */
int startrd_task_dsecular_vectors(int worker, int write_only, int64_t k, int64_t first, int64_t s_offset,
                                  starpu_data_handle_t entries, starpu_data_handle_t S);

/* Rows row0..row0+rows-1 of Q, columns col0 + the rotations' p and c:
 * the rotations (a vector of startrd_rotation_t) applied in order
 * (codelet_drot_columns.c). */
int startrd_task_drot_columns(int worker, int64_t row0, int64_t rows, int64_t col0, starpu_data_handle_t rotations,
                              starpu_data_handle_t Q);

/* The blocked Q2 (q2_blocks.h): C := Q2 C or Q2^H C, the groups built
 * chunk by chunk from HOUS2 and the per-sweep table qb->sweeps
 * (2 nsweeps int64_t) in @p sweeps, into @p scratch, a handle with no home
 * of startrd_q2_scratch_entries() complex entries
 * (codelet_zapply_q2_blocks.c).  The sweeps from @p idle_from_sweep on
 * leave C as it is (as they leave the identity's columns before that one:
 * sweep s acts on rows s+1..), and their groups are skipped; qb->plan's
 * sweep count if none.  qb must outlive the task; @p where and @p worker as
 * for startrd_task_zunmqr_q1(). */
int startrd_task_zapply_q2_blocks(unsigned long long where, int worker, const startrd_q2_blocks_t *qb, char trans,
                                  int64_t idle_from_sweep, starpu_data_handle_t hous, starpu_data_handle_t sweeps,
                                  starpu_data_handle_t scratch, starpu_data_handle_t C);

/* A (m x cols) := columns row0..row0+cols-1 of the m x m identity, the
 * block that Q = Q1 Q2 is formed in (codelet_zlaset.c).  @p where and
 * @p worker as for startrd_task_zunmqr_q1(). */
int startrd_task_zlaset_identity(unsigned long long where, int worker, int64_t row0, starpu_data_handle_t A);

/* R := Q Z, Q complex in @p nq column blocks that follow each other
 * (n x n in all), Z real (n x cols), R complex (n x cols); R is only
 * written (codelet_zgemm_real.c).  A leading dimension doubled must fit
 * an int. */
int startrd_task_zgemm_real(unsigned long long where, int64_t nq, const starpu_data_handle_t *Q,
                            starpu_data_handle_t Z, starpu_data_handle_t R);

typedef struct startrd_progress {
    _Alignas(128) _Atomic int64_t windows;   /**< windows completed */
} startrd_progress_t;

/** The bulge chase as the ranks of startrd_task_zhb2st_sweeps() share it. */
typedef struct startrd_zhb2st_schedule {
    const startrd_bulge_plan_t *plan;
    char uplo;
    double complex *AB, *hous;   /* the band and the reflectors, shared by the ranks */
    int64_t ldab;
    int64_t G;                   /* sweeps per group */
    int64_t nsweeps, ngroups;
    double nkernels;             /* over all sweeps: the ranks' flop estimate */
    const int64_t *nwindows;     /* per group: windows of 2G skewed kernel positions */
    startrd_progress_t *done;    /* per group */
    double complex *work;        /* kd per rank */
} startrd_zhb2st_schedule_t;

/** Largest bandwidth the GPU chase takes (kernel_hb2st_chase.cu). */
#define STARTRD_CHASE_GPU_MAX_KD 128

/**
 * The whole bulge chase of @p plan on CUDA worker @p worker
 * (codelet_zhb2st_chase.c): band AB (ldab = 2kd+1, read), d and e
 * (written), scratch vectors work (ldab n entries) and progress
 * (startrd_zhb2st_chase_scratch_ints() int), and the reflectors to HOUS
 * when @p hous is not NULL.
 */
int startrd_task_zhb2st_chase(int worker, const startrd_bulge_plan_t *plan, char uplo, starpu_data_handle_t AB,
                              starpu_data_handle_t d, starpu_data_handle_t e, starpu_data_handle_t work,
                              starpu_data_handle_t progress, starpu_data_handle_t hous);

/** Integers of the progress scratch of startrd_task_zhb2st_chase(). */
int64_t startrd_zhb2st_chase_scratch_ints(const startrd_bulge_plan_t *plan);

/** Most GPUs a bulge chase is split over. */
#define STARTRD_ZHB2ST_MAX_GPUS 8

/** A bulge chase split over several GPUs (codelet_zhb2st_chase_split.c). */
typedef struct startrd_zhb2st_split {
    int ngpu;                                         /**< 2 .. STARTRD_ZHB2ST_MAX_GPUS */
    int workers[STARTRD_ZHB2ST_MAX_GPUS];             /**< each GPU's CUDA worker */
    int devices[STARTRD_ZHB2ST_MAX_GPUS];             /**< its CUDA device */
    void *work[STARTRD_ZHB2ST_MAX_GPUS];              /**< its working band (ldab n entries) then the
                                                           reflectors handed to it (nsweeps (kd+1)), in
                                                           its memory */
    int *progress[STARTRD_ZHB2ST_MAX_GPUS];           /**< its nsweeps counters, in its memory */
    starpu_data_handle_t work_handle[STARTRD_ZHB2ST_MAX_GPUS], progress_handle[STARTRD_ZHB2ST_MAX_GPUS];
} startrd_zhb2st_split_t;

/** On every GPU of @p split: its working band from AB (read), its counters
 *  zeroed, and access to the other GPUs' memory.  All tasks or none. */
int startrd_task_zhb2st_split_prepare(const startrd_zhb2st_split_t *split, const startrd_bulge_plan_t *plan,
                                      char uplo, starpu_data_handle_t AB);

/** On every GPU of @p split, once all have prepared, its share of every
 *  sweep: the tasks wait for one another, so all run at once.  GPU 0's
 *  writes d and e.  All tasks or none. */
int startrd_task_zhb2st_split_chase(const startrd_zhb2st_split_t *split, const startrd_bulge_plan_t *plan,
                                    starpu_data_handle_t d, starpu_data_handle_t e);

/**
 * Rank @p rank of @p nranks of the bulge chase (codelet_zhb2st_sweeps.c), on
 * CPU worker @p worker.  The ranks wait for one another, so all of them must
 * be able to run at the same time: one per CPU worker.
 */
int startrd_task_zhb2st_sweeps(int worker, const startrd_zhb2st_schedule_t *sched, int rank, int nranks);

#endif
