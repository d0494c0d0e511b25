/* Eigenvectors: the back-transformation entry point and the drivers that
 * chain the reduction, LAPACK's tridiagonal solvers and the
 * back-transformation.  The tridiagonal is real in every precision: its
 * solvers are double precision's for z and d, single precision's for c
 * and s.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "startrd.h"

#include "arguments.h"
#include "zapply_q.h"
#include "bulge_plan.h"
#include "context.h"
#include "descriptor.h"
#include "device_memory.h"
#include "error.h"
#include "stats.h"
#include "tridiag_dstedc.h"
#include "trace.h"
#include "tuning.h"
#include "tridiag_dstemr.h"
#include "user_memory.h"
#include "drivers_z.h"
#include "release_later.h"
#include "ztriangle_finite.h"

#include <ctype.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Q^H C as LAPACK names it: ZUNMTR's 'C', DORMTR's 'T'.  The library's
 * own routines say 'C' in every precision. */
#ifdef COMPLEX
#define TRANS_ADJOINT 'C'
#else
#define TRANS_ADJOINT 'T'
#endif

/* The back-transformation, A and C in host memory or in the memory of
 * GPUs a_devid and c_devid (drivers_z.h). */
static int unmtr(const char *routine, char trans, char uplo, int64_t n, int64_t m, const double _Complex *A,
                 int64_t lda, int a_devid, const double _Complex *tau, const double _Complex *hous2, int64_t lhous2,
                 starpu_data_handle_t hous2_on_gpu, double _Complex *C, int64_t ldc, int c_devid, int64_t ngpu)
{
    static const char *const names[] = {"trans", "uplo", "n", "m", "A", "lda", "tau",
                                        "hous2", "lhous2", "C", "ldc", "ngpu"};
    startrd_context_t *ctx, view;
    startrd_bulge_plan_t plan;
    int info = 0, a_node, c_node;
    int64_t kd, lhmin = INT64_MAX;

    trans = (char)toupper((unsigned char)trans);
    uplo = (char)toupper((unsigned char)uplo);
    /* Arguments are checked without opening a context; HOUS2's size follows
     * from the bandwidth, which follows from ngpu, checked before it. */
    startrd_context_preview(&view);
    kd = startrd_context_bandwidth(&view, n, ngpu < 0 || ngpu > view.ncuda ? view.ncuda : (int)ngpu, 'V');
    /* Past the largest order the size would overflow: none is enough. */
    if (n >= 0 && n <= STARTRD_ORDER_MAX && startrd_bulge_plan_init(&plan, 'V', n, kd) == 0)
        lhmin = startrd_bulge_lhous(&plan);
    if (trans != 'N' && trans != TRANS_ADJOINT)
        info = -1;
    else if (uplo != 'U' && uplo != 'L')
        info = -2;
    else if (n < 0)
        info = -3;
    else if (m < 0)
        info = -4;
    else if (A == NULL && n > 0)
        info = -5;
    else if (lda < (n > 1 ? n : 1))
        info = -6;
    else if (tau == NULL && n > 1)
        info = -7;
    else if (hous2 == NULL && n > 1)
        info = -8;
    else if (ngpu > view.ncuda)
        info = -12;
    else if (lhous2 < lhmin)
        info = -9;
    else if (C == NULL && n > 0 && m > 0)
        info = -10;
    else if (ldc < (n > 1 ? n : 1))
        info = -11;
    if (info != 0) {
        startrd_report_argument(routine, info, names);
        return info;
    }
    if (n == 0 || m == 0)
        return 0;
    if (n > STARTRD_ORDER_MAX) {
        startrd_error("%s: order %lld is above the largest the library takes, %d", routine, (long long)n,
                      STARTRD_ORDER_MAX);
        return STARTRD_ERR_SIZE;
    }
    if ((info = startrd_context_acquire(NULL, 1, &ctx)) != 0)
        return info;
    a_node = a_devid < 0 ? STARPU_MAIN_RAM : startrd_user_node(a_devid);
    c_node = c_devid < 0 ? STARPU_MAIN_RAM : startrd_user_node(c_devid);
    if (a_node < 0 || c_node < 0) {
        startrd_context_release();
        return STARTRD_HOST_ONLY;
    }
    kd = startrd_context_bandwidth(ctx, n, ngpu < 0 ? ctx->ncuda : (int)ngpu, 'V');
    startrd_trace_begin();
    info = startrd_zapply_q(trans == 'N' ? 'N' : 'C', uplo, n, m, kd, A, lda, a_node, tau, hous2, hous2_on_gpu, C,
                            ldc, c_node, STARTRD_Q2_AUTO, 0);
    startrd_trace_end();
    startrd_context_release();
    return info;
}

int zunmtr_2stage_mgpu(char trans, char uplo, int n, int m, const double _Complex *A, int lda,
                       const double _Complex *tau, const double _Complex *hous2, int lhous2,
                       double _Complex *C, int ldc, int ngpu)
{
    return unmtr("zunmtr_2stage_mgpu", trans, uplo, n, m, A, lda, -1, tau, hous2, lhous2, NULL, C, ldc, -1, ngpu);
}

int zunmtr_2stage_mgpu_64(char trans, char uplo, int64_t n, int64_t m, const double _Complex *A, int64_t lda,
                          const double _Complex *tau, const double _Complex *hous2, int64_t lhous2,
                          double _Complex *C, int64_t ldc, int64_t ngpu)
{
    return unmtr("zunmtr_2stage_mgpu_64", trans, uplo, n, m, A, lda, -1, tau, hous2, lhous2, NULL, C, ldc, -1, ngpu);
}

/* A and C in GPU memory, brought to the host where the back-transformation
 * cannot take them there (a GPU the context does not drive). */
static int unmtr_gpu(const char *routine, char trans, char uplo, int64_t n, int64_t m, const double _Complex *A,
                     int64_t lda, const double _Complex *tau, const double _Complex *hous2, int64_t lhous2,
                     double _Complex *C, int64_t ldc, int64_t ngpu)
{
    const int live = n > 0 && m > 0;
    double _Complex *host_a, *host_c;
    int info = unmtr(routine, trans, uplo, n, m, A, lda, live ? startrd_user_device(A) : -1, tau, hous2, lhous2, NULL,
                     C, ldc, live ? startrd_user_device(C) : -1, ngpu);

    if (info != STARTRD_HOST_ONLY)
        return info;
    info = 0;
    host_a = startrd_user_host_copy(routine, sizeof *host_a, n, n, A, lda, &info);
    host_c = startrd_user_host_copy(routine, sizeof *host_c, n, m, C, ldc, &info);
    if (info == 0 &&
        (info = unmtr(routine, trans, uplo, n, m, host_a, n, -1, tau, hous2, lhous2, NULL, host_c, n, -1, ngpu)) == 0)
        info = startrd_user_copy(routine, sizeof *host_c, n, m, C, ldc, host_c, n);
    free(host_a);
    free(host_c);
    return info;
}

int zunmtr_2stage_mgpu_gpu(char trans, char uplo, int n, int m, const double _Complex *dA, int ldda,
                           const double _Complex *tau, const double _Complex *hous2, int lhous2, double _Complex *dC,
                           int lddc, int ngpu)
{
    return unmtr_gpu("zunmtr_2stage_mgpu_gpu", trans, uplo, n, m, dA, ldda, tau, hous2, lhous2, dC, lddc, ngpu);
}

int zunmtr_2stage_mgpu_gpu_64(char trans, char uplo, int64_t n, int64_t m, const double _Complex *dA, int64_t ldda,
                              const double _Complex *tau, const double _Complex *hous2, int64_t lhous2,
                              double _Complex *dC, int64_t lddc, int64_t ngpu)
{
    return unmtr_gpu("zunmtr_2stage_mgpu_gpu_64", trans, uplo, n, m, dA, ldda, tau, hous2, lhous2, dC, lddc, ngpu);
}

/* The reduction with VECT = jobz into arrays allocated here, so that with
 * 'V' the reflectors are kept for the back-transformation.  HOUS2 stays on
 * the GPU that chased the band, where Q2's tasks read it: before, it went
 * to the host, pinned for the copy, and came back up for them
 * (docs/experiments.md, "HOUS2 left on the GPU"). */
struct reduction {
    double *e;
    double _Complex *tau, *hous2;
    int64_t lhous2;
    starpu_data_handle_t hous2_on_gpu;   /* NULL: HOUS2 is in hous2 */
};

static int reduce(const char *routine, char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda, int a_devid,
                  double *d, int64_t ngpu, struct reduction *r)
{
    double _Complex query;
    int info;

    memset(r, 0, sizeof *r);
    info = startrd_zhetrd(routine, jobz, uplo, n, A, lda, -1, d, NULL, NULL, &query, -1, NULL, NULL, 0, ngpu);
    if (info != 0)
        return info;
    /* In single precision the size comes back rounded up to a float. */
    r->lhous2 = (int64_t)creal(query);
    /* dstemr uses e[n-1] as workspace. */
    r->e = malloc((size_t)(n > 0 ? n : 1) * sizeof *r->e);
    r->tau = malloc((size_t)(n > 0 ? n : 1) * sizeof *r->tau);
    r->hous2 = malloc((size_t)r->lhous2 * sizeof *r->hous2);
    if (r->e == NULL || r->tau == NULL || r->hous2 == NULL) {
        startrd_error("%s: cannot allocate the reflectors of a matrix of order %lld", routine, (long long)n);
        return STARTRD_ERR_MEMORY;
    }
    return startrd_zhetrd(routine, jobz, uplo, n, A, lda, a_devid, d, r->e, r->tau, r->hous2, r->lhous2,
                          jobz == 'V' ? &r->hous2_on_gpu : NULL, NULL, 0, ngpu);
}

static void reduction_free(struct reduction *r)
{
    free(r->e);
    free(r->tau);
    free(r->hous2);
}

static void reduction_release(void *later)
{
    reduction_free(later);
    free(later);
}

/* The reflectors given back once the results are final, after the call
 * (release_later.h), or now where no copy of @p r can be made for later. */
static void reduction_free_later(struct reduction *r)
{
    struct reduction *later = malloc(sizeof *later);

    /* Once the tasks that read it are done; it has no home to go back to. */
    if (r->hous2_on_gpu != NULL)
        starpu_data_unregister_submit(r->hous2_on_gpu);
    r->hous2_on_gpu = NULL;
    if (later == NULL) {
        reduction_free(r);
        return;
    }
    *later = *r;
    startrd_release_later(reduction_release, later);
}

/* The real eigenvectors of T that the back-transformation widens, column j
 * at col[j] (n entries), and what holds them until then: the host array
 * they were solved into, or blocks of the held divide and conquer
 * (tridiag_dstedc.h) acquired on the host. */
struct real_vectors {
    const double **col;
    double *array;
    starpu_data_handle_t *blocks;
    int64_t nblocks;
};

/* Lets go of the vectors; again, nothing more. */
static void real_vectors_free(struct real_vectors *z)
{
    for (int64_t b = 0; b < z->nblocks; b++) {
        starpu_data_release(z->blocks[b]);
        starpu_data_unregister(z->blocks[b]);
    }
    free(z->blocks);
    free(z->array);
    free(z->col);
    *z = (struct real_vectors){0};
}

/* Columns first..first+m-1 of z->array (leading dimension n) as the
 * vectors to widen. */
static int array_columns(const char *routine, struct real_vectors *z, int64_t n, int64_t first, int64_t m)
{
    if ((z->col = malloc((size_t)(m > 0 ? m : 1) * sizeof *z->col)) == NULL) {
        startrd_error("%s: cannot allocate the addresses of %lld eigenvectors", routine, (long long)m);
        return STARTRD_ERR_MEMORY;
    }
    for (int64_t j = 0; j < m; j++)
        z->col[j] = z->array + (first + j) * n;
    return 0;
}

/* C := Q Z for the real n x m matrix Z of @p z, which is let go once copied
 * into C, before Q is applied: at the largest orders the host holds A,
 * HOUS2 and C but not Z besides.  The copy runs on the caller's threads: on
 * one thread it was a good part of the back-transformation's time
 * (docs/experiments.md, "The back-transformation's time").  A and C may be
 * in GPU memory (drivers_z.h): C then gets Z from a host copy, the one
 * crossing of the bus that vectors computed on the host need. */
static int back_transform(const char *routine, char uplo, int64_t n, int64_t m, struct real_vectors *z,
                          const double _Complex *A, int64_t lda, int a_devid, const struct reduction *r,
                          double _Complex *C, int64_t ldc, int c_devid, int64_t ngpu)
{
    double _Complex *fill = c_devid < 0 ? C : malloc((size_t)n * (size_t)m * sizeof *C);
    const int64_t ldf = c_devid < 0 ? ldc : n;
    int info = 0;

    if (fill == NULL) {
        startrd_error("%s: cannot allocate %lld eigenvectors of order %lld", routine, (long long)m, (long long)n);
        return STARTRD_ERR_MEMORY;
    }
    startrd_context_host_parallel(1);
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < m; j++) {
        const double *col = z->col[j];

        for (int64_t i = 0; i < n; i++)
            fill[i + j * ldf] = col[i];
    }
    startrd_context_host_parallel(0);
    real_vectors_free(z);
    if (fill != C) {
        info = startrd_user_copy(routine, sizeof *C, n, m, C, ldc, fill, ldf);
        free(fill);
    }
    return info != 0 ? info
                     : unmtr(routine, 'N', uplo, n, m, A, lda, a_devid, r->tau, r->hous2, r->lhous2, r->hous2_on_gpu, C,
                             ldc, c_devid, ngpu);
}

static int tridiagonal_failed(const char *solver, lapack_int info)
{
    startrd_error("eigensolver: %s returned %d", solver, (int)info);
    return STARTRD_ERR_KERNEL;
}

/* Whether a call with vectors goes to LAPACK on the caller's thread and
 * BLAS threads, no context opened: no GPU takes part and n is below
 * host_lapack_below.  If so, *info is 0 after the library's check of A for
 * NaN and Inf, or its error.  Without GPUs, LAPACK's one-stage drivers beat
 * the two stages with vectors below that order (tuning.h). */
static int on_host_lapack(char uplo, int64_t n, const double _Complex *A, int64_t lda, int64_t ldz, int64_t ngpu,
                          int *info)
{
    startrd_context_t view;

    startrd_context_preview(&view);
    /* Leading dimensions LAPACK's integers cannot hold stay with the library. */
    if (n >= startrd_tuning()->host_lapack_below || (ngpu != 0 && view.ncuda > 0) || lda > INT_MAX ||
        ldz > INT_MAX)
        return 0;
    *info = 0;
    startrd_stats_record_host();
    if (view.opt.check_finite && !startrd_ztriangle_finite(uplo, n, A, lda)) {
        startrd_error("the matrix holds NaN or Inf; A is left unchanged");
        *info = STARTRD_ERR_NONFINITE;
    }
    return 1;
}

/* LAPACK's status as the library's. */
static int lapack_status(const char *routine, int64_t n, lapack_int st)
{
    if (st == LAPACK_WORK_MEMORY_ERROR) {
        startrd_error("%s: cannot allocate LAPACK's workspace for order %lld", routine, (long long)n);
        return STARTRD_ERR_MEMORY;
    }
    return st != 0 ? tridiagonal_failed(routine, st) : 0;
}

/* The drivers' first five arguments, as LAPACK's ZHEEVD checks them. */
static int check_matrix(char jobz, char uplo, int64_t n, const double _Complex *A, int64_t lda)
{
    int info;

    if (jobz != 'N' && jobz != 'V')
        return -1;
    if (uplo != 'U' && uplo != 'L')
        return -2;
    info = startrd_check_square(n, A, lda);
    return info != 0 ? -(2 + info) : 0;
}

/* Whether the library's divide and conquer runs, its merges' products on
 * the GPUs (tridiag_dstedc.h): the call asks for GPUs and the context has. */
static int dc_on_gpus(int64_t ngpu)
{
    return ngpu != 0 && starpu_cuda_worker_get_count() > 0;
}

/* Divide and conquer, Q on the host.  With GPUs, the library's; without
 * them, LAPACK's DSTEDC with the caller's BLAS threads, which the same
 * products on the CPU workers do not beat. */
static int tridiagonal_vectors(int64_t n, double *d, double *e, double *Z, int64_t ngpu)
{
    lapack_int st;

    if (dc_on_gpus(ngpu))
        return startrd_dstedc(n, d, e, Z, n, 0, NULL);
    startrd_context_host_parallel(1);
    st = LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', (lapack_int)n, d, e, Z, (lapack_int)n);
    startrd_context_host_parallel(0);
    return st != 0 ? tridiagonal_failed("dstedc", st) : 0;
}

/* The divide and conquer with its vectors held on @p worker, a GPU's second
 * worker (tridiag_dstedc.h), the CPU workers held asleep meanwhile: the sorted
 * vectors end in @p blocks, registered here with no home, @p width columns
 * each (the last narrower). */
static int held_divide_and_conquer(int worker, int64_t n, int64_t width, double *d, double *e,
                                   starpu_data_handle_t *blocks)
{
    const startrd_dstedc_beside_t beside = {worker, blocks, width};
    int info;

    for (int64_t c = 0; c < n; c += width)
        startrd_matrix_register(&blocks[c / width], -1, 0, n, n, n - c < width ? n - c : width, sizeof *d);
    if ((info = startrd_context_cpu_workers_hold()) != 0)
        return info;
    info = startrd_dstedc(n, d, e, NULL, n, 0, &beside);
    startrd_context_cpu_workers_release();
    return info;
}

/* All eigenvectors with Q = Q1 Q2 formed on the GPUs while the host runs
 * the divide and conquer, then multiplied into its real vectors, straight
 * into A: the first GPU's second worker holds the divide and conquer's
 * vectors and runs its moves and products beside Q's tasks on the GPUs'
 * first workers.  0 with the eigenvectors in A, a
 * positive status, or -1 where Q cannot be formed so (a GPU with one
 * worker, or too little memory): nothing done then. */
static int vectors_beside_q(const char *routine, const startrd_context_t *ctx, char uplo, int64_t n,
                            double _Complex *A, int64_t lda, int a_node, double *w, const struct reduction *r,
                            int64_t ngpu)
{
    const int gpus = ngpu < 0 || ngpu > ctx->ncuda ? ctx->ncuda : (int)ngpu;
    starpu_data_handle_t *z_blocks = NULL;
    startrd_zq_former_t *former = NULL;
    startrd_instant_t t0 = starpu_timing_now(), t1;
    int64_t nblocks = 0, width;
    int info;

    if (gpus == 0 || !dc_on_gpus(ngpu))
        return -1;
    for (int g = 0; g < gpus; g++)
        if (ctx->cuda_side_worker[g] == ctx->cuda_worker[g])
            return -1;
    info = startrd_zform_q_begin(uplo, n, startrd_context_bandwidth(ctx, n, gpus, 'V'), A, lda, a_node, r->tau, r->hous2,
                                 r->hous2_on_gpu, ctx->cuda_worker, gpus, startrd_dstedc_gpu_bytes(n), &former);
    if (info != 0 || former == NULL)
        return info != 0 ? info : -1;
    /* The vectors go from the divide and conquer's GPU to Q's products in
     * blocks that live on the GPUs only. */
    width = startrd_zform_q_block_columns(former, n);
    nblocks = (n + width - 1) / width;
    if ((z_blocks = calloc((size_t)nblocks, sizeof *z_blocks)) == NULL) {
        startrd_error("%s: cannot allocate the handles of %lld blocks of eigenvectors", routine, (long long)nblocks);
        info = STARTRD_ERR_MEMORY;
    }
    if (info == 0)
        info = held_divide_and_conquer(ctx->cuda_side_worker[0], n, width, w, r->e, z_blocks);
    t1 = starpu_timing_now();
    if (info != 0)
        startrd_zform_q_end(former, 0, NULL, 0, NULL, NULL, 0, STARPU_MAIN_RAM);   /* waits for Q's tasks */
    else if ((info = startrd_zform_q_end(former, n, NULL, 0, z_blocks, A, lda, a_node)) == 0)
        startrd_stats_record_vectors((t1 - t0) * 1e-6, (starpu_timing_now() - t0) * 1e-6);
    for (int64_t b = 0; z_blocks != NULL && b < nblocks; b++)
        if (z_blocks[b] != NULL)
            starpu_data_unregister_submit(z_blocks[b]);
    free(z_blocks);
    return info;
}

int startrd_zheevd(const char *routine, char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda,
                   int a_devid, double *w, int64_t ngpu)
{
    static const char *const names[] = {"jobz", "uplo", "n", "A", "lda", "w", "ngpu"};
    startrd_context_t *ctx;
    struct reduction r;
    struct real_vectors z = {0};
    double _Complex *C = NULL;
    int info = 0, a_node = STARPU_MAIN_RAM;

    jobz = (char)toupper((unsigned char)jobz);
    uplo = (char)toupper((unsigned char)uplo);
    info = check_matrix(jobz, uplo, n, A, lda);
    if (info == 0 && w == NULL && n > 0)
        info = -6;
    else if (info == 0 && !startrd_ngpu_valid(ngpu))
        info = -7;
    if (info != 0) {
        startrd_report_argument(routine, info, names);
        return info;
    }
    if (n == 0)
        return 0;
    if (a_devid >= 0 && !startrd_gpus_take_part(ngpu))
        return STARTRD_HOST_ONLY;
    if (jobz == 'V' && on_host_lapack(uplo, n, A, lda, 1, ngpu, &info))
        return info != 0 ? info
                         : lapack_status("zheevd", n, LAPACKE_zheevd(LAPACK_COL_MAJOR, 'V', uplo, (lapack_int)n, A,
                                                                     (lapack_int)lda, w));
    /* One call from the reduction to the back-transformation. */
    if ((info = startrd_context_acquire(NULL, 1, &ctx)) != 0)
        return info;
    if (a_devid >= 0 && (a_node = startrd_user_node(a_devid)) < 0) {
        startrd_context_release();
        return STARTRD_HOST_ONLY;
    }
    startrd_trace_begin();
    info = reduce(routine, jobz, uplo, n, A, lda, a_devid, w, ngpu, &r);
    if (info == 0 && jobz == 'N') {
        startrd_context_host_parallel(1);
        lapack_int st = LAPACKE_dsterf((lapack_int)n, w, r.e);

        startrd_context_host_parallel(0);
        info = st != 0 ? tridiagonal_failed("dsterf", st) : 0;
    } else if (info == 0 && (info = vectors_beside_q(routine, ctx, uplo, n, A, lda, a_node, w, &r, ngpu)) < 0) {
        startrd_instant_t t0 = starpu_timing_now(), t1;

        /* C only after the solver, whose workspace it would add to. */
        int short_of_memory = (z.array = malloc((size_t)n * (size_t)n * sizeof *z.array)) == NULL;

        /* The solver reports its own failures, its memory's included. */
        info = short_of_memory ? STARTRD_ERR_MEMORY : tridiagonal_vectors(n, w, r.e, z.array, ngpu);
        t1 = starpu_timing_now();
        if (info == 0 && (short_of_memory = (C = malloc((size_t)n * (size_t)n * sizeof *C)) == NULL))
            info = STARTRD_ERR_MEMORY;
        if (short_of_memory)
            startrd_error("%s: cannot allocate the eigenvectors of order %lld", routine, (long long)n);
        /* C apart from A, whose reflectors Q reads: in host memory even for
         * an A in GPU memory, which then gets C by one copy; this path is
         * the one for GPUs short of memory. */
        if (info == 0)
            info = array_columns(routine, &z, n, 0, n);
        if (info == 0)
            info = back_transform(routine, uplo, n, n, &z, A, lda, a_devid, &r, C, n, -1, ngpu);
        if (info == 0)
            startrd_stats_record_vectors((t1 - t0) * 1e-6, (starpu_timing_now() - t1) * 1e-6);
        if (info == 0 && a_devid >= 0) {
            info = startrd_user_copy(routine, sizeof *C, n, n, A, lda, C, n);
        } else if (info == 0) {
            startrd_context_host_parallel(1);
#pragma omp parallel for schedule(static)
            for (int64_t j = 0; j < n; j++)
                memcpy(A + j * lda, C + j * n, (size_t)n * sizeof *C);
            startrd_context_host_parallel(0);
        }
    }
    startrd_trace_end();
    reduction_free_later(&r);
    real_vectors_free(&z);
    startrd_free_later(C);
    startrd_context_release();
    return info;
}

int zheevd_2stage_mgpu(char jobz, char uplo, int n, double _Complex *A, int lda, double *w, int ngpu)
{
    return startrd_zheevd("zheevd_2stage_mgpu", jobz, uplo, n, A, lda, -1, w, ngpu);
}

int zheevd_2stage_mgpu_64(char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda, double *w, int64_t ngpu)
{
    return startrd_zheevd("zheevd_2stage_mgpu_64", jobz, uplo, n, A, lda, -1, w, ngpu);
}

int startrd_zheevd_gpu(const char *routine, char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda,
                     double *w, int64_t ngpu)
{
    double _Complex *host;
    int info = startrd_zheevd(routine, jobz, uplo, n, A, lda, n > 0 ? startrd_user_device(A) : -1, w, ngpu);

    if (info != STARTRD_HOST_ONLY)
        return info;
    info = 0;
    host = startrd_user_host_copy(routine, sizeof *host, n, n, A, lda, &info);
    if (info == 0)
        info = startrd_zheevd(routine, jobz, uplo, n, host, n, -1, w, ngpu);
    if (info == 0 && toupper((unsigned char)jobz) == 'V')
        info = startrd_user_copy(routine, sizeof *host, n, n, A, lda, host, n);
    free(host);
    return info;
}

int zheevd_2stage_mgpu_gpu(char jobz, char uplo, int n, double _Complex *dA, int ldda, double *w, int ngpu)
{
    return startrd_zheevd_gpu("zheevd_2stage_mgpu_gpu", jobz, uplo, n, dA, ldda, w, ngpu);
}

int zheevd_2stage_mgpu_gpu_64(char jobz, char uplo, int64_t n, double _Complex *dA, int64_t ldda, double *w,
                              int64_t ngpu)
{
    return startrd_zheevd_gpu("zheevd_2stage_mgpu_gpu_64", jobz, uplo, n, dA, ldda, w, ngpu);
}

/* How many columns DSTEMR's eigenvectors of range (vl, vu] or il..iu take
 * (its NZC query, which only counts), or -1 after a message. */
static int64_t columns_needed(char range, int64_t n, double *d, double *e, double vl, double vu, int64_t il,
                              int64_t iu)
{
    double count = 0.0, unused_w = 0.0, work_query = 0.0;
    lapack_int found = 0, isuppz[2], tryrac = 1, iwork_query = 0, st;

    if (range != 'V')
        return range == 'I' ? iu - il + 1 : n;
    st = LAPACKE_dstemr_work(LAPACK_COL_MAJOR, 'V', 'V', (lapack_int)n, d, e, vl, vu, 0, 0, &found, &unused_w,
                             &count, (lapack_int)n, -1, isuppz, &tryrac, &work_query, -1, &iwork_query, -1);
    if (st != 0) {
        tridiagonal_failed("dstemr (count)", st);
        return -1;
    }
    return (int64_t)count;
}

/* With GPUs, divide and conquer for all pairs beats DSTEMR, which runs on
 * one core, from some fraction of the pairs on (tuning.h). */
static int pairs_from_all(int64_t n, int64_t count, int64_t ngpu)
{
    return dc_on_gpus(ngpu) && count * startrd_tuning()->pairs_from_all_divisor >= n;
}

/* The columns of the divide and conquer's vectors that the held path
 * (held_divide_and_conquer()) leaves in each GPU block. */
enum { HELD_BLOCK_COLUMNS = 512 };

/* Whether the divide and conquer can hold its vectors on the first GPU's
 * second worker (tridiag_dstedc.h) when nothing else runs beside it. */
static int dc_can_hold(const startrd_context_t *ctx, int64_t n)
{
    const size_t bytes = startrd_dstedc_gpu_bytes(n);

    return ctx->ncuda > 0 && bytes != SIZE_MAX &&
           startrd_device_memory_holds(starpu_worker_get_memory_node(ctx->cuda_side_worker[0]), bytes);
}

/* Columns first..last-1 of the held blocks as the vectors to widen: the
 * blocks that hold them brought to the host together and acquired there,
 * the others unregistered. */
static int held_columns(int64_t n, starpu_data_handle_t *blocks, int64_t first, int64_t last,
                        struct real_vectors *z)
{
    const int64_t nblocks = (n + HELD_BLOCK_COLUMNS - 1) / HELD_BLOCK_COLUMNS;
    int info = 0;

    z->col = malloc((size_t)(last > first ? last - first : 1) * sizeof *z->col);
    z->blocks = malloc((size_t)nblocks * sizeof *z->blocks);
    if (z->col == NULL || z->blocks == NULL) {
        startrd_error("eigenvectors: cannot allocate the addresses of %lld eigenvectors", (long long)(last - first));
        info = STARTRD_ERR_MEMORY;
    }
    for (int64_t c = 0; c < n; c += HELD_BLOCK_COLUMNS) {
        starpu_data_handle_t block = blocks[c / HELD_BLOCK_COLUMNS];
        int st;

        if (info != 0 || last <= c || c + HELD_BLOCK_COLUMNS <= first) {
            blocks[c / HELD_BLOCK_COLUMNS] = NULL;
            starpu_data_unregister(block);
        } else if ((st = starpu_data_fetch_on_node(block, STARPU_MAIN_RAM, 1)) != 0) {
            startrd_error("eigenvectors: starpu_data_fetch_on_node returned %d", st);
            info = STARTRD_ERR_RUNTIME;
        }
    }
    for (int64_t c = 0; c < n; c += HELD_BLOCK_COLUMNS) {
        starpu_data_handle_t block = blocks[c / HELD_BLOCK_COLUMNS];
        const int64_t from = first > c ? first : c, to = last < c + HELD_BLOCK_COLUMNS ? last : c + HELD_BLOCK_COLUMNS;
        int st;

        if (block == NULL)
            continue;
        if (info != 0 || (st = starpu_data_acquire(block, STARPU_R)) != 0) {
            if (info == 0)
                startrd_error("eigenvectors: starpu_data_acquire returned %d", st);
            info = info != 0 ? info : STARTRD_ERR_RUNTIME;
            starpu_data_unregister(block);
            continue;
        }
        const double *held = (const double *)starpu_matrix_get_local_ptr(block);
        const int64_t ld = (int64_t)starpu_matrix_get_local_ld(block);

        for (int64_t j = from; j < to; j++)
            z->col[j - first] = held + (j - c) * ld;
        z->blocks[z->nblocks++] = block;
    }
    return info;
}

/* All pairs of T (d, e) by divide and conquer, then the wanted ones, a run
 * of the ascending eigenvalues, *first and *found, as the vectors @p z to
 * widen.  Where the first GPU has room, the vectors are held there, so that
 * each merge's products find Q where they run instead of crossing the bus
 * both ways, and only the blocks of wanted columns come back; elsewhere
 * they are solved into z->array (n x n). */
static int selected_from_all(const char *routine, const startrd_context_t *ctx, char range, int64_t n, double *d,
                             double *e, double vl, double vu, int64_t il, int64_t iu, struct real_vectors *z,
                             int64_t ngpu, int64_t *first, int64_t *found)
{
    starpu_data_handle_t *blocks = NULL;
    int64_t last;
    int info;

    if (dc_can_hold(ctx, n) &&
        (blocks = calloc((size_t)((n + HELD_BLOCK_COLUMNS - 1) / HELD_BLOCK_COLUMNS), sizeof *blocks)) != NULL)
        info = held_divide_and_conquer(ctx->cuda_side_worker[0], n, HELD_BLOCK_COLUMNS, d, e, blocks);
    else
        info = tridiagonal_vectors(n, d, e, z->array, ngpu);
    if (range == 'I') {
        *first = il - 1;
        last = iu;
    } else {
        /* DSTEMR's interval (vl, vu]. */
        for (*first = 0; *first < n && d[*first] <= vl; (*first)++)
            ;
        for (last = *first; last < n && d[last] <= vu; last++)
            ;
    }
    *found = last - *first;
    if (blocks != NULL) {
        int held = held_columns(n, blocks, info == 0 ? *first : 0, info == 0 ? last : 0, z);

        info = info != 0 ? info : held;
        free(blocks);
        return info;
    }
    return info == 0 ? array_columns(routine, z, n, *first, *found) : info;
}

/* Selected pairs with vectors by LAPACK's ZHEEVR on the caller's threads
 * (on_host_lapack()): its status, and the count found in *m. */
static int host_zheevr(const char *routine, char range, char uplo, int64_t n, double _Complex *A, int64_t lda,
                       double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w, double _Complex *Z,
                       int64_t ldz)
{
    lapack_int found = 0, *isuppz = malloc(2 * (size_t)n * sizeof *isuppz);
    int info;

    if (isuppz == NULL) {
        startrd_error("%s: cannot allocate %lld entries of ZHEEVR's support", routine, 2 * (long long)n);
        return STARTRD_ERR_MEMORY;
    }
    info = lapack_status("zheevr", n,
                         LAPACKE_zheevr(LAPACK_COL_MAJOR, 'V', range, uplo, (lapack_int)n, A, (lapack_int)lda, vl, vu,
                                        (lapack_int)il, (lapack_int)iu, 0.0, &found, w, Z, (lapack_int)ldz, isuppz));
    free(isuppz);
    *m = info == 0 ? found : 0;
    return info;
}

/* The drivers of selected pairs, their arguments checked: the reduction,
 * DSTEMR on the tridiagonal or divide and conquer for all pairs
 * (pairs_from_all()), and the back-transformation of the wanted vectors. */
static int selected_pairs(const char *routine, char jobz, char range, char uplo, int64_t n, double _Complex *A,
                          int64_t lda, int a_devid, double vl, double vu, int64_t il, int64_t iu, int64_t *m,
                          double *w, double _Complex *Z, int64_t ldz, int z_devid, int64_t ngpu)
{
    startrd_context_t *ctx;
    struct reduction r;
    struct real_vectors z = {0};
    double *d;
    lapack_int *isuppz = NULL, tryrac = 1;
    int64_t count = 0, first = 0, found = 0;
    int info, all = 0;

    *m = 0;
    if (n == 0)
        return 0;
    if (jobz == 'V' && on_host_lapack(uplo, n, A, lda, ldz, ngpu, &info))
        return info != 0 ? info : host_zheevr(routine, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz);
    if ((info = startrd_context_acquire(NULL, 1, &ctx)) != 0)
        return info;
    if ((a_devid >= 0 && startrd_user_node(a_devid) < 0) || (z_devid >= 0 && startrd_user_node(z_devid) < 0)) {
        startrd_context_release();
        return STARTRD_HOST_ONLY;
    }
    startrd_trace_begin();
    /* Only the eigenvalues come from the reduction's d; the solver needs both. */
    d = malloc((size_t)n * sizeof *d);
    info = d == NULL ? STARTRD_ERR_MEMORY : reduce(routine, jobz, uplo, n, A, lda, a_devid, d, ngpu, &r);
    if (info == 0 && (count = columns_needed(range, n, d, r.e, vl, vu, il, iu)) < 0)
        info = STARTRD_ERR_KERNEL;
    if (info == 0) {
        all = jobz == 'V' && pairs_from_all(n, count, ngpu);
        /* Only touched where the vectors are solved on the host. */
        z.array = jobz == 'V' ? malloc((size_t)n * (size_t)(all ? n : count > 0 ? count : 1) * sizeof *z.array)
                              : NULL;
        isuppz = all ? NULL : malloc((size_t)(2 * (count > 0 ? count : 1)) * sizeof *isuppz);
        if ((jobz == 'V' && z.array == NULL) || (!all && isuppz == NULL)) {
            startrd_error("%s: cannot allocate %lld eigenvectors of order %lld", routine,
                          (long long)(all ? n : count), (long long)n);
            info = STARTRD_ERR_MEMORY;
        } else {
            startrd_instant_t t0 = starpu_timing_now(), t1;

            if (all) {
                info = selected_from_all(routine, ctx, range, n, d, r.e, vl, vu, il, iu, &z, ngpu, &first, &found);
                if (info == 0)
                    memmove(w, d + first, (size_t)found * sizeof *w);
            } else {
                lapack_int st, stemr_found = 0;

                /* With vectors, DSTEMR and, where it fails, ZHEEVR's
                 * fallback (tridiag_dstemr.h). */
                startrd_context_host_parallel(1);
                if (jobz == 'V')
                    st = startrd_dstemr(range, n, d, r.e, vl, vu, il, iu, &found, w, z.array, n,
                                        count > 0 ? count : 1, isuppz);
                else
                    st = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'N', range, (lapack_int)n, d, r.e, vl, vu,
                                        (lapack_int)il, (lapack_int)iu, &stemr_found, w, d, 1, 1, isuppz, &tryrac);
                startrd_context_host_parallel(0);
                info = lapack_status("dstemr", n, st);
                if (jobz == 'N')
                    found = stemr_found;
                else if (info == 0)
                    info = array_columns(routine, &z, n, 0, found);
            }
            t1 = starpu_timing_now();
            if (info == 0 && jobz == 'V' && found > 0)
                info = back_transform(routine, uplo, n, found, &z, A, lda, a_devid, &r, Z, ldz, z_devid, ngpu);
            if (info == 0 && jobz == 'V')
                startrd_stats_record_vectors((t1 - t0) * 1e-6, (starpu_timing_now() - t1) * 1e-6);
        }
        if (info == 0)
            *m = found;
    } else if (d == NULL) {
        startrd_error("%s: cannot allocate %lld eigenvalues", routine, (long long)n);
    }
    startrd_trace_end();
    if (d != NULL)
        reduction_free_later(&r);
    free(d);
    real_vectors_free(&z);
    free(isuppz);
    startrd_context_release();
    return info;
}

/* The arguments of the selected-pairs drivers, numbered as zheevr's (its
 * characters upper-cased by the caller): 0, or -i for the first wrong one. */
static int check_selected(char jobz, char range, char uplo, int64_t n, const double _Complex *A, int64_t lda,
                          double vl, double vu, int64_t il, int64_t iu, const int64_t *m, const double *w,
                          const double _Complex *Z, int64_t ldz, int64_t ngpu)
{
    /* LAPACK's ZHEEVR order: range second, its bounds after lda. */
    int info = check_matrix(jobz, uplo, n, A, lda);

    if (info == -1)
        return -1;
    if (range != 'A' && range != 'V' && range != 'I')
        return -2;
    if (info < 0)
        return info - 1;
    /* vu is argument 8. */
    info = startrd_check_selection(jobz, range, n, vl, vu, il, iu, m, w, Z, ldz, ngpu);
    return info != 0 ? -(7 + info) : 0;
}

static int heevdx(const char *routine, char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda, int64_t il,
                  int64_t iu, int64_t *m, double *w, double _Complex *Z, int64_t ldz, int64_t ngpu)
{
    static const char *const names[] = {"jobz", "uplo", "n", "A", "lda", "il", "iu",
                                        "m", "w", "Z", "ldz", "ngpu"};
    int info;

    jobz = (char)toupper((unsigned char)jobz);
    uplo = (char)toupper((unsigned char)uplo);
    info = check_selected(jobz, 'I', uplo, n, A, lda, 0.0, 0.0, il, iu, m, w, Z, ldz, ngpu);
    /* zheevdx has no range, vl or vu: its numbers from uplo on are lower. */
    info = info <= -9 ? info + 3 : info <= -3 ? info + 1 : info;
    if (info != 0) {
        startrd_report_argument(routine, info, names);
        return info;
    }
    return selected_pairs(routine, jobz, 'I', uplo, n, A, lda, -1, 0.0, 0.0, il, iu, m, w, Z, ldz, -1, ngpu);
}

int startrd_zheevr(const char *routine, char jobz, char range, char uplo, int64_t n, double _Complex *A,
                   int64_t lda, int a_devid, double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                   double _Complex *Z, int64_t ldz, int z_devid, int64_t ngpu)
{
    static const char *const names[] = {"jobz", "range", "uplo", "n", "A", "lda", "vl", "vu",
                                        "il", "iu", "m", "w", "Z", "ldz", "ngpu"};
    int info;

    jobz = (char)toupper((unsigned char)jobz);
    range = (char)toupper((unsigned char)range);
    uplo = (char)toupper((unsigned char)uplo);
    info = check_selected(jobz, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz, ngpu);
    if (info != 0) {
        startrd_report_argument(routine, info, names);
        return info;
    }
    if ((a_devid >= 0 || z_devid >= 0) && n > 0 && !startrd_gpus_take_part(ngpu))
        return STARTRD_HOST_ONLY;
    if (range != 'A')
        return selected_pairs(routine, jobz, range, uplo, n, A, lda, a_devid, vl, vu, il, iu, m, w, Z, ldz, z_devid,
                              ngpu);
    /* All pairs by divide and conquer, whose vectors are more orthogonal
     * than DSTEMR's (docs/architecture.md) and come faster with GPUs. */
    *m = 0;
    if ((info = startrd_zheevd(routine, jobz, uplo, n, A, lda, a_devid, w, ngpu)) != 0)
        return info;
    if (jobz == 'V' && (a_devid >= 0 || z_devid >= 0))
        info = startrd_user_copy(routine, sizeof *Z, n, n, Z, ldz, A, lda);
    for (int64_t j = 0; jobz == 'V' && a_devid < 0 && z_devid < 0 && j < n; j++)
        memcpy(Z + j * ldz, A + j * lda, (size_t)n * sizeof *Z);
    *m = info == 0 ? n : 0;
    return info;
}

/* A and Z in GPU memory, brought to the host where the work runs there:
 * Z's m columns come back, A is left as it was (it is destroyed). */
int startrd_zheevr_gpu(const char *routine, char jobz, char range, char uplo, int64_t n, double _Complex *A,
                     int64_t lda, double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                     double _Complex *Z, int64_t ldz, int64_t ngpu)
{
    const int vectors = toupper((unsigned char)jobz) == 'V', live = n > 0 && m != NULL;
    const int64_t cols = toupper((unsigned char)range) == 'I' && iu >= il ? iu - il + 1 : n;
    double _Complex *host_a, *host_z = NULL;
    int info = startrd_zheevr(routine, jobz, range, uplo, n, A, lda, live ? startrd_user_device(A) : -1, vl, vu, il,
                              iu, m, w, Z, ldz, live && vectors ? startrd_user_device(Z) : -1, ngpu);

    if (info != STARTRD_HOST_ONLY)
        return info;
    info = 0;
    host_a = startrd_user_host_copy(routine, sizeof *host_a, n, n, A, lda, &info);
    if (vectors)
        host_z = startrd_user_host_copy(routine, sizeof *host_z, n, cols, NULL, n, &info);
    if (info == 0)
        info = startrd_zheevr(routine, jobz, range, uplo, n, host_a, n, -1, vl, vu, il, iu, m, w, host_z, n, -1, ngpu);
    if (info == 0 && vectors)
        info = startrd_user_copy(routine, sizeof *host_z, n, *m, Z, ldz, host_z, n);
    free(host_a);
    free(host_z);
    return info;
}

/* The 32-bit interfaces' count, through the 64-bit one, which starts as
 * the caller's m so that a call that does not write it leaves it as it
 * was; NULL stays NULL, for the argument check. */
static int64_t *count_64(int *m, int64_t *m64)
{
    return m != NULL ? m64 : NULL;
}

int zheevdx_2stage_mgpu(char jobz, char uplo, int n, double _Complex *A, int lda, int il, int iu, int *m,
                        double *w, double _Complex *Z, int ldz, int ngpu)
{
    int64_t m64 = m != NULL ? *m : 0;
    int info = heevdx("zheevdx_2stage_mgpu", jobz, uplo, n, A, lda, il, iu, count_64(m, &m64), w, Z, ldz, ngpu);

    if (m != NULL)
        *m = (int)m64;
    return info;
}

int zheevdx_2stage_mgpu_64(char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda, int64_t il, int64_t iu,
                           int64_t *m, double *w, double _Complex *Z, int64_t ldz, int64_t ngpu)
{
    return heevdx("zheevdx_2stage_mgpu_64", jobz, uplo, n, A, lda, il, iu, m, w, Z, ldz, ngpu);
}

int zheevr_2stage_mgpu(char jobz, char range, char uplo, int n, double _Complex *A, int lda, double vl,
                       double vu, int il, int iu, int *m, double *w, double _Complex *Z, int ldz, int ngpu)
{
    int64_t m64 = m != NULL ? *m : 0;
    int info = startrd_zheevr("zheevr_2stage_mgpu", jobz, range, uplo, n, A, lda, -1, vl, vu, il, iu,
                              count_64(m, &m64), w, Z, ldz, -1, ngpu);

    if (m != NULL)
        *m = (int)m64;
    return info;
}

int zheevr_2stage_mgpu_64(char jobz, char range, char uplo, int64_t n, double _Complex *A, int64_t lda, double vl,
                          double vu, int64_t il, int64_t iu, int64_t *m, double *w, double _Complex *Z,
                          int64_t ldz, int64_t ngpu)
{
    return startrd_zheevr("zheevr_2stage_mgpu_64", jobz, range, uplo, n, A, lda, -1, vl, vu, il, iu, m, w, Z, ldz, -1,
                          ngpu);
}

int zheevr_2stage_mgpu_gpu(char jobz, char range, char uplo, int n, double _Complex *dA, int ldda, double vl,
                           double vu, int il, int iu, int *m, double *w, double _Complex *dZ, int lddz, int ngpu)
{
    int64_t m64 = m != NULL ? *m : 0;
    int info = startrd_zheevr_gpu("zheevr_2stage_mgpu_gpu", jobz, range, uplo, n, dA, ldda, vl, vu, il, iu,
                                  count_64(m, &m64), w, dZ, lddz, ngpu);

    if (m != NULL)
        *m = (int)m64;
    return info;
}

int zheevr_2stage_mgpu_gpu_64(char jobz, char range, char uplo, int64_t n, double _Complex *dA, int64_t ldda,
                              double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                              double _Complex *dZ, int64_t lddz, int64_t ngpu)
{
    return startrd_zheevr_gpu("zheevr_2stage_mgpu_gpu_64", jobz, range, uplo, n, dA, ldda, vl, vu, il, iu, m, w, dZ,
                              lddz, ngpu);
}
