/* startrd-bench: StarTRD against cuSOLVER (cusolverDnZhetrd, one GPU),
 * cusolverMg (cusolverMgSyevd, eigenvalues only, several GPUs) and LAPACK
 * (ZHETRD_2STAGE on the host cores), in one process, on the same random
 * Hermitian matrices.  With --precision, in each precision asked for (s, d:
 * real symmetric matrices, SSYTRD/DSYTRD and their cuSOLVER and StarTRD
 * twins; c, z: complex Hermitian), each beside cuBLAS's GEMM rate in that
 * precision on the first GPU.
 *
 * Every time is a wall time from the matrix in (pageable) host memory to the
 * result in host memory: d and e for the reductions, the eigenvalues for
 * cusolverMg, whose time therefore also covers its tridiagonal eigensolver.
 * It includes what a caller does per call (device allocations, copies in,
 * workspace queries and allocations, the computation, copies out, frees),
 * not what it does once per process (StarPU start-up, library handles,
 * peer access).  The input is copied fresh from the generated matrix before
 * every run; with --repeat R the best of R runs is kept.
 *
 * For each n the methods run one after the other: StarTRD for each GPU count
 * and each --allreduce scheme in a runtime context of its own
 * (startrd_init/startrd_finalize around it), so that StarPU holds no GPU
 * memory and no core while the others run.  A StarTRD run that fails is
 * reported and the others go on, so that one scheme a configuration does not
 * support still leaves the comparison of the rest.  The eigenvalues of each
 * method (LAPACK's DSTERF of d and e where a method gives those) are compared
 * with a reference: LAPACK when it ran for this n, otherwise the first method
 * that ran successfully.  Exit status 1 if an agreement exceeds
 * 10 n eps max|lambda| (eps of the precision) or a StarTRD run failed.
 *
 * --generalized times A x = lambda B x instead (itype 1, all eigenpairs,
 * the vectors back in host memory): zhegvd_2stage_mgpu, cusolverDnZhegvd
 * and LAPACK's ZHEGVD, B a second random Hermitian matrix scaled and
 * shifted to be positive definite, drawn and copied fresh like A, outside
 * the times.  Its rows say zhegvd in the method, so that a CSV row of the
 * generalized problem is never read as one of the standard problem.
 *
 * --device-data keeps the matrices in GPU 0's memory for StarTRD (its _gpu
 * entry points) and cuSOLVER: A (and B) are copied there before each run,
 * outside the times, and the vectors stay there; the times run from the
 * call to the eigenvalues in host memory (cuSOLVER's workspace query and
 * allocation included).  LAPACK's rows are unchanged. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "startrd.h"

#include "hermitian_gen.h"

#include "config.h"
#ifdef STARTRD_USE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
/* CUDA 13 marks cusolverMg deprecated; it is still the multi-GPU baseline. */
#define DISABLE_CUSOLVERMG_DEPRECATED
#include <cusolverMg.h>
#endif
#if defined(HAVE_OPENBLAS_SET_NUM_THREADS) || defined(HAVE_OPENBLAS_GET_CORENAME)
#include <cblas.h>
#endif

#include <complex.h>
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <lapack.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_LIST 64
#define MAX_SCHEMES (STARTRD_ALLREDUCE_AUTO + 1) /* --allreduce names each scheme once */
#define MAX_RESULTS (MAX_LIST * MAX_SCHEMES + 3) /* of one n: StarTRD's, and one per peer */
#define AGREEMENT_TOL 10.0 /* in units of n eps max|lambda| */

enum method { M_STARTRD, M_CUSOLVER, M_CUSOLVERMG, M_LAPACK, M_COUNT };
static const char *const method_name[M_COUNT] = {"startrd", "cusolver", "cusolvermg", "lapack"};
/* The method as the table, the CSV and the progress lines name it: with
 * --generalized the routine too (cusolverMg has none and never runs). */
static const char *const generalized_name[M_COUNT] = {"startrd-zhegvd", "cusolver-zhegvd", "cusolvermg-zhegvd",
                                                      "lapack-zhegvd"};

/* --precision: the element type of the matrices.  What differs between the
 * precisions is the types and names of the calls, not what the bench does
 * with them, so one table and a switch per family of calls (startrd_trd,
 * lapack_trd, cusolver_trd, cublas_gemm) serve all four, rather than a copy
 * of every runner per precision. */
enum precision { P_S, P_D, P_C, P_Z, P_COUNT };
typedef struct precision_info {
    enum precision id;
    const char *name;          /* "s", "d", "c", "z": --precision and the precision column */
    perf_scalar_t scalar;      /* the matrix's element type */
    int is_complex;            /* 1: Hermitian, 16n^3/3 flops; 0: real symmetric, 4n^3/3 */
    size_t elem, real;         /* bytes of an element, of its real type (d, e, eigenvalues) */
    double eps;                /* of the real type: the agreement's unit */
    const char *startrd, *lapack, *cusolver, *gemm; /* the routines' names, for messages */
#ifdef STARTRD_USE_CUDA
    cudaDataType data, real_data; /* cusolverMg's types of A and of the eigenvalues */
#endif
} precision_t;

#ifdef STARTRD_USE_CUDA
#define CUDA_TYPES(a, w) , a, w
#else
#define CUDA_TYPES(a, w)
#endif
static const precision_t precisions[P_COUNT] = {
    {P_S, "s", PERF_FLOAT, 0, sizeof(float), sizeof(float), FLT_EPSILON, "ssytrd_2stage_mgpu", "SSYTRD_2STAGE",
     "cusolverDnSsytrd", "SGEMM" CUDA_TYPES(CUDA_R_32F, CUDA_R_32F)},
    {P_D, "d", PERF_DOUBLE, 0, sizeof(double), sizeof(double), DBL_EPSILON, "dsytrd_2stage_mgpu", "DSYTRD_2STAGE",
     "cusolverDnDsytrd", "DGEMM" CUDA_TYPES(CUDA_R_64F, CUDA_R_64F)},
    {P_C, "c", PERF_FLOAT_COMPLEX, 1, sizeof(float complex), sizeof(float), FLT_EPSILON, "chetrd_2stage_mgpu",
     "CHETRD_2STAGE", "cusolverDnChetrd", "CGEMM" CUDA_TYPES(CUDA_C_32F, CUDA_R_32F)},
    {P_Z, "z", PERF_DOUBLE_COMPLEX, 1, sizeof(double complex), sizeof(double), DBL_EPSILON, "zhetrd_2stage_mgpu",
     "ZHETRD_2STAGE", "cusolverDnZhetrd", "ZGEMM" CUDA_TYPES(CUDA_C_64F, CUDA_R_64F)},
};
#undef CUDA_TYPES

/* --vectors: every method computes all eigenpairs, the vectors back in host
 * memory, instead of the reduction (cusolverMg: the eigenvalues). */
static int vectors;
/* --subset F: the lowest ceil(F n) eigenpairs instead (implies --vectors;
 * 0: all of them), asked for by index ('I') or, with --subset-by value,
 * as the value range (subset_vl, subset_vu] that holds them ('V'). */
static double subset;
static char subset_range = 'I';
static double subset_vl, subset_vu;
/* --generalized: A x = lambda B x (itype 1), all eigenpairs (implies
 * --vectors).  B's spectrum lies in [B_LO, B_HI]: definite, and conditioned
 * well enough that the agreement's tolerance, which is in units of the
 * eigenvalues' size, still measures the solvers rather than B. */
static int generalized;
/* --device-data: the matrices start and end in GPU 0's memory. */
static int device_data;
#define B_LO 1.0
#define B_HI 10.0

/* B's seed for --seed S, never the seed of an A: an int converts to a
 * uint64_t whose bits 62 and 63 both copy its sign, and flipping bit 62
 * makes them differ, so B is neither this A nor that of another --seed. */
static uint64_t b_seed(int seed)
{
    return (uint64_t)(int64_t)seed ^ (UINT64_C(1) << 62);
}

static const char *method_label(enum method m)
{
    return generalized ? generalized_name[m] : method_name[m];
}

/* Width of the table's method column: the longest label that runs
 * (cusolverMg's generalized one never does). */
static int label_width(void)
{
    return generalized ? 15 : 10;
}

/* The eigenpairs each method computes at order n. */
static int64_t wanted(int64_t n)
{
    int64_t k = subset > 0.0 ? (int64_t)ceil(subset * (double)n) : n;

    return k < 1 ? 1 : k > n ? n : k;
}
static int opt_nb, opt_dist_nb; /* StarTRD's nb and dist_nb options, 0: the library's */

/* One (method, GPU count, StarTRD's allreduce scheme) at one n. */
typedef struct result {
    enum method method;
    int gpus;
    int stage1_gpus; /* StarTRD only: the GPUs its stage 1 chose among gpus */
    int stage2_gpus; /* StarTRD only: the GPUs its chase ran on (0: the host cores) */
    int out_of_core; /* StarTRD only: stage 1's block columns lived in host memory */
    startrd_allreduce_t allreduce; /* StarTRD only: the scheme asked for */
    startrd_allreduce_t used;      /* and the one the library ran (auto resolved) */
    int info;        /* the method's error (StarTRD's code, cuSOLVER's status), 0: success; on error the
                        times are < 0 and w unset */
    int nb;          /* StarTRD's bandwidth, 0 elsewhere */
    double stage1;   /* seconds, < 0 where the method has no stages */
    double stage2;
    double total;    /* best of the runs, < 0 when the run failed */
    double tridiag;  /* StarTRD with vectors, that run's tridiagonal vectors and back-transformation; */
    double backtransform; /* < 0 elsewhere */
    double stdform;  /* StarTRD with --generalized, that run's factor of B and reduction to the standard problem, */
    double backsub;  /* and its back-substitution of the vectors; < 0 elsewhere */
    double sterf;    /* CPU seconds of the host DSTERF of d, e (not in total), < 0: none */
    double *w;       /* the n eigenvalues, ascending (until DSTERF has run: d) */
    double *e;       /* the tridiagonal's off-diagonal until DSTERF has run, else NULL */
} result_t;

/* CPU seconds of the calling thread. */
static double thread_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *xmalloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes > 0 ? bytes : 1);

    if (p == NULL) {
        fprintf(stderr, "startrd-bench: cannot allocate %zu bytes for %s\n", bytes, what);
        exit(1);
    }
    return p;
}

/* ------------------------------------------------------------ precisions */

/* dst = src, count reals of precision p's real type widened to double: the
 * eigenvalues of every precision are found (DSTERF) and compared in double,
 * so that the agreement measures the reductions, not the eigensolver. */
static void widen(const precision_t *p, int64_t count, const void *src, double *dst)
{
    if (p->real == sizeof(double)) {
        memcpy(dst, src, (size_t)count * sizeof *dst);
        return;
    }
    for (int64_t i = 0; i < count; i++)
        dst[i] = (double)((const float *)src)[i];
}

/* A LAPACK workspace query's answer: the real part of its first element. */
static lapack_int query_size(const precision_t *p, const void *x)
{
    return p->real == sizeof(float) ? (lapack_int)*(const float *)x : (lapack_int)*(const double *)x;
}

/* StarTRD's reduction of the lower triangle of a (leading dimension n),
 * Q not kept, the library's own workspaces. */
static int startrd_trd(const precision_t *p, int64_t n, void *a, void *d, void *e, void *tau, int ngpu)
{
    switch (p->id) {
    case P_S: return ssytrd_2stage_mgpu('N', 'L', (int)n, a, (int)n, d, e, tau, NULL, 0, NULL, 0, ngpu);
    case P_D: return dsytrd_2stage_mgpu('N', 'L', (int)n, a, (int)n, d, e, tau, NULL, 0, NULL, 0, ngpu);
    case P_C: return chetrd_2stage_mgpu('N', 'L', (int)n, a, (int)n, d, e, tau, NULL, 0, NULL, 0, ngpu);
    case P_Z: return zhetrd_2stage_mgpu('N', 'L', (int)n, a, (int)n, d, e, tau, NULL, 0, NULL, 0, ngpu);
    default: break;
    }
    return STARTRD_ERR_STATE;
}

/* LAPACK's ?SYTRD_2STAGE / ?HETRD_2STAGE, VECT = 'N', UPLO = 'L'; lhous2 or
 * lwork -1 is the workspace query. */
static lapack_int lapack_trd(const precision_t *p, lapack_int n, void *a, void *d, void *e, void *tau, void *hous2,
                             lapack_int lhous2, void *work, lapack_int lwork)
{
    lapack_int info = 0;

    switch (p->id) {
    case P_S: LAPACK_ssytrd_2stage("N", "L", &n, a, &n, d, e, tau, hous2, &lhous2, work, &lwork, &info); break;
    case P_D: LAPACK_dsytrd_2stage("N", "L", &n, a, &n, d, e, tau, hous2, &lhous2, work, &lwork, &info); break;
    case P_C: LAPACK_chetrd_2stage("N", "L", &n, a, &n, d, e, tau, hous2, &lhous2, work, &lwork, &info); break;
    case P_Z: LAPACK_zhetrd_2stage("N", "L", &n, a, &n, d, e, tau, hous2, &lhous2, work, &lwork, &info); break;
    default: info = -1; break;
    }
    return info;
}

/* ---------------------------------------------------------------- checks */

#ifdef STARTRD_USE_CUDA
static const char *cusolver_status_name(cusolverStatus_t s)
{
    switch (s) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_MAPPING_ERROR: return "CUSOLVER_STATUS_MAPPING_ERROR";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default: return "unknown cusolverStatus_t";
    }
}

static void cuda_fail(cudaError_t err, const char *call, int line)
{
    fprintf(stderr, "startrd-bench: %s failed: %s (%s, line %d)\n", call, cudaGetErrorString(err),
            cudaGetErrorName(err), line);
    exit(1);
}

static void cusolver_fail(cusolverStatus_t st, const char *call, int line)
{
    fprintf(stderr, "startrd-bench: %s failed: %s (%d, line %d)\n", call, cusolver_status_name(st),
            (int)st, line);
    exit(1);
}

static void cublas_fail(cublasStatus_t st, const char *call, int line)
{
    fprintf(stderr, "startrd-bench: %s failed: %s (%d, line %d)\n", call, cublasGetStatusName(st), (int)st, line);
    exit(1);
}

#define CUDA_CHECK(call)                                                                           \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess)                                                                   \
            cuda_fail(err_, #call, __LINE__);                                                      \
    } while (0)
#define CUSOLVER_CHECK(call)                                                                       \
    do {                                                                                           \
        cusolverStatus_t st_ = (call);                                                             \
        if (st_ != CUSOLVER_STATUS_SUCCESS)                                                        \
            cusolver_fail(st_, #call, __LINE__);                                                   \
    } while (0)
#define CUBLAS_CHECK(call)                                                                         \
    do {                                                                                           \
        cublasStatus_t st_ = (call);                                                               \
        if (st_ != CUBLAS_STATUS_SUCCESS)                                                          \
            cublas_fail(st_, #call, __LINE__);                                                     \
    } while (0)
#endif

/* ------------------------------------------------------------- the input */


/* The tridiagonal (d, e) of a run in precision p, kept in double in the
 * result until tridiagonal_eigenvalues() turns it into eigenvalues. */
static void keep_tridiagonal(const precision_t *p, int64_t n, const void *d, const void *e, result_t *res)
{
    widen(p, n, d, res->w);
    res->e = xmalloc((size_t)n * sizeof *res->e, "the off-diagonal");
    if (n > 1)
        widen(p, n - 1, e, res->e);
}

struct sterf_pool {
    int64_t n;
    result_t *res;
    int count;
    atomic_int next;     /* the next result to take */
};

/* Each result's time is its thread's CPU time, so that DSTERFs side by side
 * each count only their own work. */
static void *sterf_thread(void *arg)
{
    struct sterf_pool *pool = arg;

    for (int k; (k = atomic_fetch_add(&pool->next, 1)) < pool->count;) {
        result_t *r = &pool->res[k];

        if (r->e == NULL)
            continue;
        double t0 = thread_seconds();
        lapack_int info = LAPACKE_dsterf((lapack_int)pool->n, r->w, r->e);
        r->sterf = thread_seconds() - t0;
        if (info != 0) {
            fprintf(stderr, "startrd-bench: LAPACKE_dsterf returned %d (n = %lld)\n", (int)info,
                    (long long)pool->n);
            exit(1);
        }
        free(r->e);
        r->e = NULL;
    }
    return NULL;
}

/* The eigenvalues of every kept tridiagonal, after the timed runs, on up to
 * a thread per core: DSTERF runs on one core (15 s at n = 32768 on an H200
 * node's host), and one after the other they took longer than the
 * reductions they check. */
static void tridiagonal_eigenvalues(int64_t n, result_t *res, int count, int ncores)
{
    struct sterf_pool pool = {.n = n, .res = res, .count = count};
    pthread_t tid[MAX_RESULTS];
    int nthreads = ncores < count ? ncores : count, started = 0;

    atomic_init(&pool.next, 0);
    while (started < nthreads - 1 && pthread_create(&tid[started], NULL, sterf_thread, &pool) == 0)
        started++;
    sterf_thread(&pool);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}

/* --subset-by value: (subset_vl, subset_vu] holds the lowest wanted(n)
 * eigenvalues of a0, vu halfway between eigenvalues k and k+1, from the
 * library's reduction (its own context, closed after) and DSTEBZ.  Not
 * timed.  Complex double only, as --subset is: a0, a and tau hold double
 * complex elements, d and e doubles. */
static void subset_bounds(int64_t n, const void *a0, void *a, void *d, void *e, void *tau)
{
    const int64_t k = wanted(n);
    startrd_options_t opt;
    double *w = xmalloc((size_t)n * sizeof *w, "eigenvalues"), bound = 0.0;
    lapack_int found = 0, nsplit = 0, *blocks = xmalloc(2 * (size_t)n * sizeof *blocks, "IBLOCK and ISPLIT");
    int info;

    startrd_options_init(&opt);
    perf_copy_matrix(n, PERF_DOUBLE_COMPLEX, a, a0);
    if ((info = startrd_init(&opt)) != 0 ||
        (info = zhetrd_2stage_mgpu('N', 'L', (int)n, a, (int)n, d, e, tau, NULL, 0, NULL, 0, -1)) != 0 ||
        (info = startrd_finalize()) != 0) {
        fprintf(stderr, "startrd-bench: the reduction for --subset-by value (n = %lld) failed (%d)\n", (long long)n,
                info);
        exit(1);
    }
    const double *dd = d, *de = e;
    for (int64_t i = 0; i < n; i++)
        bound = fmax(bound, fabs(dd[i]) + (i > 0 ? fabs(de[i - 1]) : 0.0) + (i + 1 < n ? fabs(de[i]) : 0.0));
    /* DSTEBZ works in W and IBLOCK of n entries. */
    info = LAPACKE_dstebz('I', 'E', (lapack_int)n, 0.0, 0.0, (lapack_int)k, (lapack_int)(k < n ? k + 1 : n), 0.0, d, e,
                          &found, &nsplit, w, blocks, blocks + n);
    if (info != 0 || found < 1) {
        fprintf(stderr, "startrd-bench: LAPACKE_dstebz for --subset-by value (n = %lld) returned %d\n", (long long)n,
                (int)info);
        exit(1);
    }
    subset_vl = -bound - 1.0;
    subset_vu = k < n ? 0.5 * (w[0] + w[1]) : bound + 1.0;
    free(w);
    free(blocks);
}

/* --------------------------------------------------------------- StarTRD */

/* On an error of startrd_init or of the call, res->info holds it and the
 * times stay < 0: the caller reports the run as failed and goes on. */
static void run_startrd(const precision_t *p, int64_t n, int ngpu, startrd_allreduce_t allreduce, int repeat,
                        const void *a0, void *a, const void *b0, void *b, void *d, void *e, void *tau,
                        result_t *res)
{
    startrd_options_t opt;
    startrd_stats_t st;
    int info;

    startrd_options_init(&opt);
    opt.ngpu = ngpu;
    opt.allreduce = allreduce;
    opt.nb = opt_nb;
    opt.dist_nb = opt_dist_nb;
    res->allreduce = allreduce;
    res->gpus = ngpu;
    res->stage1 = res->stage2 = res->total = res->sterf = -1.0;
    if ((res->info = startrd_init(&opt)) != 0) {
        fprintf(stderr, "startrd-bench: startrd_init with %d GPUs, allreduce %s failed (%d)\n", ngpu,
                startrd_allreduce_name(allreduce), res->info);
        return;
    }
    res->total = INFINITY;
    /* By value the count is the library's to find: room for n columns. */
    double complex *Z = subset > 0.0 ? xmalloc((size_t)n * (size_t)(subset_range == 'V' ? n : wanted(n)) * sizeof *Z,
                                               "the eigenvectors")
                                     : NULL;
    /* With --device-data, the _gpu entry points on copies in GPU 0's memory. */
    double complex *dA = a, *dB = b, *dZ = Z;
#ifdef STARTRD_USE_CUDA
    const size_t bytes = (size_t)n * (size_t)n * sizeof *dA;

    if (device_data) {
        CUDA_CHECK(cudaSetDevice(0));
        CUDA_CHECK(cudaMalloc((void **)&dA, bytes));
        if (generalized)
            CUDA_CHECK(cudaMalloc((void **)&dB, bytes));
        if (Z != NULL)
            CUDA_CHECK(cudaMalloc((void **)&dZ, (size_t)n * (size_t)(subset_range == 'V' ? n : wanted(n)) * sizeof *Z));
    }
#endif
    for (int r = 0; r < repeat; r++) {
        int found = -1;

        perf_copy_matrix(n, p->scalar, a, a0);
        /* B's factor overwrites it. */
        if (generalized)
            perf_copy_matrix(n, p->scalar, b, b0);
#ifdef STARTRD_USE_CUDA
        if (device_data) {
            CUDA_CHECK(cudaMemcpy(dA, a, bytes, cudaMemcpyHostToDevice));
            if (generalized)
                CUDA_CHECK(cudaMemcpy(dB, b, bytes, cudaMemcpyHostToDevice));
        }
#endif
        double t0 = perf_now();
        /* The eigensolvers are complex double only: main() keeps --vectors,
         * --subset and --generalized to --precision z. */
        if (generalized) {
            info = (device_data ? zhegvd_2stage_mgpu_gpu : zhegvd_2stage_mgpu)(1, 'V', 'L', (int)n, dA, (int)n, dB,
                                                                              (int)n, res->w, ngpu);
        } else if (subset > 0.0) {
            info = (device_data ? zheevr_2stage_mgpu_gpu : zheevr_2stage_mgpu)(
                'V', subset_range, 'L', (int)n, dA, (int)n, subset_vl, subset_vu, 1, (int)wanted(n), &found, res->w,
                dZ, (int)n, ngpu);
            info = info == 0 && found != wanted(n) ? STARTRD_ERR_KERNEL : info;
        } else {
            info = !vectors      ? startrd_trd(p, n, a, d, e, tau, ngpu)
                   : device_data ? zheevd_2stage_mgpu_gpu('V', 'L', (int)n, dA, (int)n, res->w, ngpu)
                                 : zheevd_2stage_mgpu('V', 'L', (int)n, a, (int)n, res->w, ngpu);
        }
        double t = perf_now() - t0;
        if (info != 0) {
            fprintf(stderr, "startrd-bench: %s (n = %lld, %d GPUs, allreduce %s) returned %d\n",
                    generalized    ? "zhegvd_2stage_mgpu"
                    : subset > 0.0 ? "zheevr_2stage_mgpu"
                    : vectors      ? "zheevd_2stage_mgpu"
                                   : p->startrd,
                    (long long)n, ngpu,
                    startrd_allreduce_name(allreduce), info);
            res->info = info;
            res->stage1 = res->stage2 = res->total = res->tridiag = res->backtransform = -1.0;
            res->stdform = res->backsub = -1.0;
            res->nb = 0;
            break;
        }
        if (t < res->total) {
            startrd_last_stats(&st);
            res->total = t;
            res->stage1 = st.stage1_seconds;
            res->stage2 = st.stage2_seconds;
            res->tridiag = vectors ? st.tridiag_seconds : -1.0;
            res->backtransform = vectors ? st.backtransform_seconds : -1.0;
            res->stdform = generalized ? st.standard_form_seconds : -1.0;
            res->backsub = generalized ? st.backsubstitution_seconds : -1.0;
            res->gpus = st.ngpu;
            res->stage1_gpus = st.stage1_ngpu;
            res->stage2_gpus = st.stage2_ngpu;
            res->out_of_core = st.stage1_out_of_core;
            res->nb = st.nb;
            res->used = st.allreduce;
        }
    }
#ifdef STARTRD_USE_CUDA
    if (device_data) {
        CUDA_CHECK(cudaFree(dA));
        CUDA_CHECK(cudaFree(generalized ? dB : NULL));
        CUDA_CHECK(cudaFree(Z != NULL ? dZ : NULL));
    }
#endif
    free(Z);
    if ((info = startrd_finalize()) != 0) {
        fprintf(stderr, "startrd-bench: startrd_finalize failed (%d)\n", info);
        exit(1);
    }
    if (res->info == 0 && !vectors)
        keep_tridiagonal(p, n, d, e, res);
}

/* ---------------------------------------------------------------- LAPACK */

static void run_lapack(const precision_t *p, int64_t n, int repeat, int ncores, const void *a0, void *a,
                       const void *b0, void *b, void *d, void *e, void *tau, result_t *res)
{
    const lapack_int nn = (lapack_int)n;
    lapack_int info, lhous2, lwork;
    double complex hq, wq; /* the query's answers: room for one element of any precision */

    /* The library's context keeps OpenBLAS single-threaded while it is
     * open; LAPACK gets every core. */
#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
    int saved = openblas_get_num_threads();
    openblas_set_num_threads(ncores);
#else
    (void)ncores;
#endif
    res->total = INFINITY;
    for (int r = 0; r < repeat; r++) {
        perf_copy_matrix(n, p->scalar, a, a0);
        if (generalized)
            perf_copy_matrix(n, p->scalar, b, b0);
        double t0 = perf_now();
        if (generalized) { /* complex double only, as StarTRD's */
            info = LAPACKE_zhegvd(LAPACK_COL_MAJOR, 1, 'V', 'L', nn, a, nn, b, nn, res->w);
            double t = perf_now() - t0;
            /* INFO > N: B's leading minor of order INFO - N is not positive. */
            if (info != 0) {
                fprintf(stderr, "startrd-bench: LAPACKE_zhegvd (n = %lld) returned %d%s\n", (long long)n, (int)info,
                        info > nn ? ": B is not positive definite" : "");
                exit(1);
            }
            res->total = fmin(res->total, t);
            continue;
        }
        if (vectors) { /* complex double only, as StarTRD's */
            /* ZHETRD_2STAGE cannot keep vectors: the one-stage ZHEEVD, or
             * ZHEEVR for a subset. */
            lapack_int found = 0, *isuppz = subset > 0.0 ? xmalloc(2 * (size_t)n * sizeof *isuppz, "ISUPPZ")
                                                          : NULL;
            double complex *z =
                subset > 0.0 ? xmalloc((size_t)n * (size_t)(subset_range == 'V' ? n : wanted(n)) * sizeof *z, "Z")
                             : NULL;

            info = subset > 0.0 ? LAPACKE_zheevr(LAPACK_COL_MAJOR, 'V', subset_range, 'L', nn, a, nn, subset_vl,
                                                 subset_vu, 1, (lapack_int)wanted(n), 0.0, &found, res->w, z, nn,
                                                 isuppz)
                                : LAPACKE_zheevd(LAPACK_COL_MAJOR, 'V', 'L', nn, a, nn, res->w);
            double t = perf_now() - t0;
            free(isuppz);
            free(z);
            if (info != 0 || (subset > 0.0 && found != wanted(n))) {
                fprintf(stderr, "startrd-bench: LAPACKE_%s (n = %lld) returned %d, %d eigenpairs\n",
                        subset > 0.0 ? "zheevr" : "zheevd", (long long)n, (int)info, (int)found);
                exit(1);
            }
            res->total = fmin(res->total, t);
            continue;
        }
        if ((info = lapack_trd(p, nn, a, d, e, tau, &hq, -1, &wq, -1)) != 0) {
            fprintf(stderr, "startrd-bench: %s workspace query (n = %lld) returned %d\n", p->lapack, (long long)n,
                    (int)info);
            exit(1);
        }
        lhous2 = query_size(p, &hq);
        lwork = query_size(p, &wq);
        void *hous2 = xmalloc((size_t)lhous2 * p->elem, "HOUS2 of ?HETRD_2STAGE");
        void *work = xmalloc((size_t)lwork * p->elem, "WORK of ?HETRD_2STAGE");
        info = lapack_trd(p, nn, a, d, e, tau, hous2, lhous2, work, lwork);
        free(hous2);
        free(work);
        double t = perf_now() - t0;
        if (info != 0) {
            fprintf(stderr, "startrd-bench: %s (n = %lld) returned %d\n", p->lapack, (long long)n, (int)info);
            exit(1);
        }
        res->total = fmin(res->total, t);
    }
#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
    openblas_set_num_threads(saved);
#endif
    res->stage1 = res->stage2 = -1.0;
    res->gpus = 0;
    res->nb = 0;
    if (!vectors)
        keep_tridiagonal(p, n, d, e, res);
}

/* -------------------------------------------------------------- cuSOLVER */

#ifdef STARTRD_USE_CUDA
/* CUDA devices this process sees; 0 when there is no GPU or no driver. */
static int visible_gpus(void)
{
    int count = 0;

    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
}

static cusolverEigRange_t cusolver_range(void)
{
    return subset_range == 'V' ? CUSOLVER_EIG_RANGE_V : CUSOLVER_EIG_RANGE_I;
}

/* cuSOLVER's reduction in precision p (cusolverDn?sytrd / ?hetrd, lower
 * triangle): with dwork NULL its workspace query, into *lwork. */
static cusolverStatus_t cusolver_trd(const precision_t *p, cusolverDnHandle_t h, int n, void *dA, void *dd, void *de,
                                     void *dtau, void *dwork, int *lwork, int *dinfo)
{
    const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;

    if (dwork == NULL) {
        switch (p->id) {
        case P_S: return cusolverDnSsytrd_bufferSize(h, lo, n, dA, n, dd, de, dtau, lwork);
        case P_D: return cusolverDnDsytrd_bufferSize(h, lo, n, dA, n, dd, de, dtau, lwork);
        case P_C: return cusolverDnChetrd_bufferSize(h, lo, n, dA, n, dd, de, dtau, lwork);
        case P_Z: return cusolverDnZhetrd_bufferSize(h, lo, n, dA, n, dd, de, dtau, lwork);
        default: return CUSOLVER_STATUS_INVALID_VALUE;
        }
    }
    switch (p->id) {
    case P_S: return cusolverDnSsytrd(h, lo, n, dA, n, dd, de, dtau, dwork, *lwork, dinfo);
    case P_D: return cusolverDnDsytrd(h, lo, n, dA, n, dd, de, dtau, dwork, *lwork, dinfo);
    case P_C: return cusolverDnChetrd(h, lo, n, dA, n, dd, de, dtau, dwork, *lwork, dinfo);
    case P_Z: return cusolverDnZhetrd(h, lo, n, dA, n, dd, de, dtau, dwork, *lwork, dinfo);
    default: return CUSOLVER_STATUS_INVALID_VALUE;
    }
}

/* cusolverDn?sytrd / ?hetrd on GPU 0: reduction, then d and e back to the
 * host; with --vectors (complex double only) cusolverDnZheevd, then the
 * eigenvalues and vectors back; with --generalized cusolverDnZhegvd, A and
 * B in, the eigenvalues and vectors back (B's factor, which the comparison
 * is not about, stays on the GPU as the Householder vectors of the
 * reduction do). */
static void run_cusolver(const precision_t *p, int64_t n, int repeat, const void *a0, void *a, const void *b0,
                         void *b, void *d, void *e, result_t *res)
{
    const size_t bytes = (size_t)n * (size_t)n * p->elem;
    cusolverDnHandle_t h;

    /* Once per process in an application: not timed. */
    CUDA_CHECK(cudaSetDevice(0));
    CUSOLVER_CHECK(cusolverDnCreate(&h));
    res->total = INFINITY;
    for (int r = 0; r < repeat; r++) {
        void *dA, *dB = NULL, *dtau, *dwork = NULL, *dd, *de;
        int *dinfo, info = 0, lwork = 0, found = 0;
        cusolverStatus_t query;

        perf_copy_matrix(n, p->scalar, a, a0);
        if (generalized)
            perf_copy_matrix(n, p->scalar, b, b0);
        double t0 = perf_now();
        CUDA_CHECK(cudaMalloc(&dA, bytes));
        if (generalized)
            CUDA_CHECK(cudaMalloc(&dB, bytes));
        CUDA_CHECK(cudaMalloc(&dd, (size_t)n * p->real));
        CUDA_CHECK(cudaMalloc(&de, (size_t)n * p->real));
        CUDA_CHECK(cudaMalloc(&dtau, (size_t)n * p->elem));
        CUDA_CHECK(cudaMalloc((void **)&dinfo, sizeof(int)));
        CUDA_CHECK(cudaMemcpy(dA, a, bytes, cudaMemcpyHostToDevice));
        if (generalized)
            CUDA_CHECK(cudaMemcpy(dB, b, bytes, cudaMemcpyHostToDevice));
        if (device_data)
            t0 = perf_now();
        if (generalized) {
            query = cusolverDnZhegvd_bufferSize(h, CUSOLVER_EIG_TYPE_1, CUSOLVER_EIG_MODE_VECTOR,
                                                CUBLAS_FILL_MODE_LOWER, (int)n, dA, (int)n, dB, (int)n, dd, &lwork);
        } else if (subset > 0.0)
            query = cusolverDnZheevdx_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, cusolver_range(),
                                                 CUBLAS_FILL_MODE_LOWER, (int)n, dA, (int)n, subset_vl, subset_vu,
                                                 1, (int)wanted(n), &found, dd, &lwork);
        else if (vectors)
            query = cusolverDnZheevd_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, (int)n, dA,
                                                (int)n, dd, &lwork);
        else
            query = cusolver_trd(p, h, (int)n, dA, dd, de, dtau, NULL, &lwork, NULL);
        /* A size cuSOLVER refuses (its 32-bit workspace query fails at the
         * largest orders with vectors) is its result, not the end of the
         * bench: the run stops after the frees. */
        if (query == CUSOLVER_STATUS_SUCCESS) {
            CUDA_CHECK(cudaMalloc(&dwork, (size_t)(lwork > 0 ? lwork : 1) * p->elem));
            if (generalized) {
                CUSOLVER_CHECK(cusolverDnZhegvd(h, CUSOLVER_EIG_TYPE_1, CUSOLVER_EIG_MODE_VECTOR,
                                                CUBLAS_FILL_MODE_LOWER, (int)n, dA, (int)n, dB, (int)n, dd, dwork,
                                                lwork, dinfo));
                CUDA_CHECK(cudaMemcpy(res->w, dd, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
                if (!device_data)
                    CUDA_CHECK(cudaMemcpy(a, dA, bytes, cudaMemcpyDeviceToHost));
            } else if (subset > 0.0) {
                CUSOLVER_CHECK(cusolverDnZheevdx(h, CUSOLVER_EIG_MODE_VECTOR, cusolver_range(), CUBLAS_FILL_MODE_LOWER,
                                                 (int)n, dA, (int)n, subset_vl, subset_vu, 1, (int)wanted(n), &found,
                                                 dd, dwork, lwork, dinfo));
                CUDA_CHECK(cudaMemcpy(res->w, dd, (size_t)wanted(n) * sizeof(double), cudaMemcpyDeviceToHost));
                if (!device_data)
                    CUDA_CHECK(cudaMemcpy(a, dA, (size_t)n * (size_t)wanted(n) * sizeof(cuDoubleComplex),
                                          cudaMemcpyDeviceToHost));
            } else if (vectors) {
                CUSOLVER_CHECK(cusolverDnZheevd(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, (int)n, dA, (int)n,
                                                dd, dwork, lwork, dinfo));
                CUDA_CHECK(cudaMemcpy(res->w, dd, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
                if (!device_data)
                    CUDA_CHECK(cudaMemcpy(a, dA, bytes, cudaMemcpyDeviceToHost));
            } else {
                cusolverStatus_t st = cusolver_trd(p, h, (int)n, dA, dd, de, dtau, dwork, &lwork, dinfo);
                if (st != CUSOLVER_STATUS_SUCCESS)
                    cusolver_fail(st, p->cusolver, __LINE__);
                CUDA_CHECK(cudaMemcpy(d, dd, (size_t)n * p->real, cudaMemcpyDeviceToHost));
                CUDA_CHECK(cudaMemcpy(e, de, (size_t)(n - 1) * p->real, cudaMemcpyDeviceToHost));
            }
            CUDA_CHECK(cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost));
        }
        /* With --device-data the copies of the vectors back are not timed:
         * the time ends with the eigenvalues in host memory. */
        double t_solved = perf_now();
        CUDA_CHECK(cudaFree(dwork));
        CUDA_CHECK(cudaFree(dinfo));
        CUDA_CHECK(cudaFree(dtau));
        CUDA_CHECK(cudaFree(de));
        CUDA_CHECK(cudaFree(dd));
        CUDA_CHECK(cudaFree(dB));
        CUDA_CHECK(cudaFree(dA));
        double t = (device_data ? t_solved : perf_now()) - t0;
        if (query != CUSOLVER_STATUS_SUCCESS) {
            fprintf(stderr, "startrd-bench: cuSOLVER's workspace query for n = %lld returned %s\n", (long long)n,
                    cusolver_status_name(query));
            res->info = (int)query;
            res->total = -1.0;
            break;
        }
        if (info != 0) {
            /* cusolverDnZhegvd's info > n, as LAPACK's: B's leading minor of order info - n is not positive. */
            fprintf(stderr, "startrd-bench: %s (n = %lld) returned info = %d%s\n",
                    generalized    ? "cusolverDnZhegvd"
                    : subset > 0.0 ? "cusolverDnZheevdx"
                    : vectors      ? "cusolverDnZheevd"
                                   : p->cusolver,
                    (long long)n, info, generalized && info > n ? ": B is not positive definite" : "");
            exit(1);
        }
        if (subset > 0.0 && found != wanted(n)) {
            fprintf(stderr, "startrd-bench: cusolverDnZheevdx (n = %lld) found %d eigenpairs, not %lld\n",
                    (long long)n, found, (long long)wanted(n));
            exit(1);
        }
        res->total = fmin(res->total, t);
    }
    CUSOLVER_CHECK(cusolverDnDestroy(h));
    res->stage1 = res->stage2 = -1.0;
    res->gpus = 1;
    res->nb = 0;
    if (!vectors && res->info == 0)
        keep_tridiagonal(p, n, d, e, res);
}

/* C = A B in precision p, all m x m (leading dimension m) on the current
 * GPU, with cuBLAS's ?GEMM and its default math mode: what an application
 * calling S/D/C/ZGEMM gets. */
static cublasStatus_t cublas_gemm(const precision_t *p, cublasHandle_t h, int m, const void *A, const void *B,
                                  void *C)
{
    static const float s1 = 1.0f, s0 = 0.0f;
    static const double d1 = 1.0, d0 = 0.0;
    static const cuComplex c1 = {1.0f, 0.0f}, c0 = {0.0f, 0.0f};
    static const cuDoubleComplex z1 = {1.0, 0.0}, z0 = {0.0, 0.0};
    const cublasOperation_t op = CUBLAS_OP_N;

    switch (p->id) {
    case P_S: return cublasSgemm(h, op, op, m, m, m, &s1, A, m, B, m, &s0, C, m);
    case P_D: return cublasDgemm(h, op, op, m, m, m, &d1, A, m, B, m, &d0, C, m);
    case P_C: return cublasCgemm(h, op, op, m, m, m, &c1, A, m, B, m, &c0, C, m);
    case P_Z: return cublasZgemm(h, op, op, m, m, m, &z1, A, m, B, m, &z0, C, m);
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
}

#define GEMM_RUNS 3

/* cuBLAS's GEMM rate in precision p on GPU 0, TFLOP/s at order m (2m^3
 * flops real, 8m^3 complex): the yardstick beside each precision's
 * reductions, since e.g. on an H200 single precision runs no faster than
 * FP64 tensor cores.  A and B random (zeros draw less power and would
 * flatter the clocks), one untimed call first (kernel selection, lazy
 * loading), then the best of GEMM_RUNS, each between CUDA events.  Once
 * per precision, before any method runs. */
static double gemm_rate(const precision_t *p, int64_t m, uint64_t seed)
{
    const size_t bytes = (size_t)m * (size_t)m * p->elem;
    void *host = xmalloc(bytes, "the GEMM's matrix"), *dA, *dB, *dC;
    cublasHandle_t h;
    cublasStatus_t st;
    cudaEvent_t start, stop;
    float best = INFINITY;

    perf_matrix(m, p->scalar, host, seed);
    CUDA_CHECK(cudaSetDevice(0));
    CUBLAS_CHECK(cublasCreate(&h));
    CUDA_CHECK(cudaMalloc(&dA, bytes));
    CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMalloc(&dC, bytes));
    /* B = A: a symmetric A makes A A a product like any other. */
    CUDA_CHECK(cudaMemcpy(dA, host, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, host, bytes, cudaMemcpyHostToDevice));
    free(host);
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    if ((st = cublas_gemm(p, h, (int)m, dA, dB, dC)) != CUBLAS_STATUS_SUCCESS)
        cublas_fail(st, p->gemm, __LINE__);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < GEMM_RUNS; r++) {
        float ms = 0.0f;

        CUDA_CHECK(cudaEventRecord(start, 0));
        if ((st = cublas_gemm(p, h, (int)m, dA, dB, dC)) != CUBLAS_STATUS_SUCCESS)
            cublas_fail(st, p->gemm, __LINE__);
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        best = ms < best ? ms : best;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dC));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dA));
    CUBLAS_CHECK(cublasDestroy(h));
    const double flops = (p->is_complex ? 8.0 : 2.0) * (double)m * (double)m * (double)m;
    return flops / ((double)best * 1e-3) * 1e-12;
}

/* cusolverMg's 1-D block-cyclic layout: a grid of 1 x ngpu devices, column
 * tiles of `tile` columns (all n rows, leading dimension n), tile k on
 * device k mod ngpu at local tile k / ngpu. */
typedef struct mg_copy {
    int device, ngpu, tile;
    int64_t n;
    size_t elem;                /* bytes of an element */
    const void *a;              /* host, n x n, leading dimension n */
    char *dA;                   /* out: this device's local matrix */
    cudaError_t err;
    const char *call;
} mg_copy_t;

/* Device c's tiles between its local matrix and the host matrix, in the
 * direction @p kind: tile k is local tile k / ngpu. */
static cudaError_t mg_copy_tiles(const mg_copy_t *c, void *host, enum cudaMemcpyKind kind)
{
    const int64_t ntiles = (c->n + c->tile - 1) / c->tile;
    const size_t tile_bytes = (size_t)c->n * (size_t)c->tile * c->elem;
    cudaError_t err = cudaSuccess;

    for (int64_t k = c->device; k < ntiles && err == cudaSuccess; k += c->ngpu) {
        int64_t width = c->n - k * c->tile < c->tile ? c->n - k * c->tile : c->tile;
        size_t bytes = (size_t)c->n * (size_t)width * c->elem;
        char *local = c->dA + tile_bytes * (size_t)(k / c->ngpu), *global = (char *)host + tile_bytes * (size_t)k;

        err = kind == cudaMemcpyHostToDevice ? cudaMemcpy(local, global, bytes, kind)
                                             : cudaMemcpy(global, local, bytes, kind);
    }
    return err;
}

/* Allocates one device's local matrix and copies its tiles into it; one
 * thread per device, so that the copies to the GPUs overlap. */
static void *mg_distribute(void *arg)
{
    mg_copy_t *c = arg;
    const int64_t ntiles = (c->n + c->tile - 1) / c->tile;
    const int64_t local = (ntiles + c->ngpu - 1) / c->ngpu;
    const size_t tile_bytes = (size_t)c->n * (size_t)c->tile * c->elem;

    c->dA = NULL;
    c->call = "cudaSetDevice";
    if ((c->err = cudaSetDevice(c->device)) != cudaSuccess)
        return NULL;
    c->call = "cudaMalloc (cusolverMg local matrix)";
    if ((c->err = cudaMalloc((void **)&c->dA, tile_bytes * (size_t)local)) != cudaSuccess)
        return NULL;
    c->call = "cudaMemcpy (cusolverMg tile)";
    /* Only read: the host matrix is the caller's const copy. */
    if ((c->err = mg_copy_tiles(c, (void *)c->a, cudaMemcpyHostToDevice)) != cudaSuccess)
        return NULL;
    c->call = "cudaDeviceSynchronize";
    c->err = cudaDeviceSynchronize();
    return NULL;
}

/* cusolverMgSyevd on GPUs 0..ngpu-1 in precision p (its types are
 * arguments, CUDA_R_32F to CUDA_C_64F): eigenvalues only, or with --vectors
 * (complex double only) the eigenvectors too, back in host memory. */
static void run_cusolvermg(const precision_t *p, int64_t n, int ngpu, int tile, int repeat, const void *a0, void *a,
                           result_t *res)
{
    int32_t devices[MAX_LIST];
    cusolverMgHandle_t h;
    cudaLibMgGrid_t grid;
    cudaLibMgMatrixDesc_t desc;
    mg_copy_t copy[MAX_LIST];
    pthread_t thread[MAX_LIST];
    void *dwork[MAX_LIST];
    /* The eigenvalues in the precision's real type, widened into res->w. */
    void *w = xmalloc((size_t)n * p->real, "cusolverMg's eigenvalues");

    /* Set-up, not timed: handle, devices, peer access, grid, descriptor. */
    for (int g = 0; g < ngpu; g++)
        devices[g] = g;
    CUSOLVER_CHECK(cusolverMgCreate(&h));
    CUSOLVER_CHECK(cusolverMgDeviceSelect(h, ngpu, devices));
    for (int g = 0; g < ngpu; g++) {
        for (int q = 0; q < ngpu; q++) {
            int can = 0;
            if (g == q)
                continue;
            CUDA_CHECK(cudaDeviceCanAccessPeer(&can, g, q));
            if (!can) {
                fprintf(stderr, "startrd-bench: note: GPU %d cannot access GPU %d directly (cusolverMg)\n", g, q);
                continue;
            }
            CUDA_CHECK(cudaSetDevice(g));
            cudaError_t err = cudaDeviceEnablePeerAccess(q, 0);
            if (err == cudaErrorPeerAccessAlreadyEnabled)
                cudaGetLastError();
            else if (err != cudaSuccess)
                cuda_fail(err, "cudaDeviceEnablePeerAccess", __LINE__);
        }
    }
    CUDA_CHECK(cudaSetDevice(0));
    CUSOLVER_CHECK(cusolverMgCreateDeviceGrid(&grid, 1, ngpu, devices, CUDALIBMG_GRID_MAPPING_COL_MAJOR));
    CUSOLVER_CHECK(cusolverMgCreateMatrixDesc(&desc, n, n, n, tile, p->data, grid));

    res->total = INFINITY;
    for (int r = 0; r < repeat; r++) {
        void *dA_array[MAX_LIST], *dwork_array[MAX_LIST];
        int64_t lwork = 0;
        int info = 0;

        perf_copy_matrix(n, p->scalar, a, a0);
        double t0 = perf_now();
        for (int g = 0; g < ngpu; g++) {
            copy[g] = (mg_copy_t){.device = g, .ngpu = ngpu, .tile = tile, .n = n, .elem = p->elem, .a = a};
            int err = pthread_create(&thread[g], NULL, mg_distribute, &copy[g]);
            if (err != 0) {
                fprintf(stderr, "startrd-bench: pthread_create: %s\n", strerror(err));
                exit(1);
            }
        }
        for (int g = 0; g < ngpu; g++) {
            int err = pthread_join(thread[g], NULL);
            if (err != 0) {
                fprintf(stderr, "startrd-bench: pthread_join: %s\n", strerror(err));
                exit(1);
            }
        }
        for (int g = 0; g < ngpu; g++) {
            if (copy[g].err != cudaSuccess) {
                fprintf(stderr, "startrd-bench: GPU %d: %s failed: %s (%s)\n", g, copy[g].call,
                        cudaGetErrorString(copy[g].err), cudaGetErrorName(copy[g].err));
                exit(1);
            }
            dA_array[g] = copy[g].dA;
        }
        CUDA_CHECK(cudaSetDevice(0));
        const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;

        /* The compute type is A's. */
        cusolverStatus_t query = cusolverMgSyevd_bufferSize(h, jobz, CUBLAS_FILL_MODE_LOWER, (int)n, dA_array, 1, 1,
                                                            desc, w, p->real_data, p->data, &lwork);
        /* As cuSOLVER's: a query refused (a size, or a precision a cuSOLVER
         * version does not take) is the method's result, the run stops
         * after the frees. */
        if (query == CUSOLVER_STATUS_SUCCESS) {
            /* lwork counts elements of the compute type, per device. */
            for (int g = 0; g < ngpu; g++) {
                CUDA_CHECK(cudaSetDevice(g));
                CUDA_CHECK(cudaMalloc(&dwork[g], (size_t)(lwork > 0 ? lwork : 1) * p->elem));
                dwork_array[g] = dwork[g];
            }
            CUDA_CHECK(cudaSetDevice(0));
            CUSOLVER_CHECK(cusolverMgSyevd(h, jobz, CUBLAS_FILL_MODE_LOWER, (int)n, dA_array, 1, 1, desc, w,
                                           p->real_data, p->data, dwork_array, lwork, &info));
        }
        for (int g = 0; g < ngpu; g++) {
            CUDA_CHECK(cudaSetDevice(g));
            CUDA_CHECK(cudaDeviceSynchronize());
            if (query == CUSOLVER_STATUS_SUCCESS) {
                if (vectors)
                    CUDA_CHECK(mg_copy_tiles(&copy[g], a, cudaMemcpyDeviceToHost));
                CUDA_CHECK(cudaFree(dwork[g]));
            }
            CUDA_CHECK(cudaFree(copy[g].dA));
        }
        double t = perf_now() - t0;
        if (query != CUSOLVER_STATUS_SUCCESS) {
            fprintf(stderr, "startrd-bench: cusolverMgSyevd_bufferSize (precision %s, n = %lld, %d GPUs) returned %s\n",
                    p->name, (long long)n, ngpu, cusolver_status_name(query));
            res->info = (int)query;
            res->total = -1.0;
            break;
        }
        if (info != 0) {
            fprintf(stderr, "startrd-bench: cusolverMgSyevd (precision %s, n = %lld, %d GPUs) returned info = %d\n",
                    p->name, (long long)n, ngpu, info);
            exit(1);
        }
        res->total = fmin(res->total, t);
    }
    if (res->info == 0)
        widen(p, n, w, res->w);
    free(w);
    CUDA_CHECK(cudaSetDevice(0));
    CUSOLVER_CHECK(cusolverMgDestroyMatrixDesc(desc));
    CUSOLVER_CHECK(cusolverMgDestroyGrid(grid));
    CUSOLVER_CHECK(cusolverMgDestroy(h));
    res->stage1 = res->stage2 = -1.0;
    res->gpus = ngpu;
    res->nb = 0;
    res->sterf = -1.0;
}
#endif /* STARTRD_USE_CUDA */

/* ------------------------------------------------------------- reporting */

static void print_seconds(FILE *f, double s, int width)
{
    if (s >= 0.0)
        fprintf(f, " %*.3f", width, s);
    else
        fprintf(f, " %*s", width, "-");
}

/* Seconds in which a StarTRD run's phases overlapped: their sum past its
 * total, or 0; < 0 where the run has no phases.  The generalized driver's
 * own phases are in its total too, before and after the standard
 * problem's. */
static double overlap_seconds(const result_t *r)
{
    double sum = r->stage1 + r->stage2 + r->tridiag + r->backtransform;

    if (r->info != 0 || r->tridiag < 0.0 || r->backtransform < 0.0)
        return -1.0;
    if (r->stdform >= 0.0 && r->backsub >= 0.0)
        sum += r->stdform + r->backsub;
    return sum > r->total ? sum - r->total : 0.0;
}

/* The first successful StarTRD result on @p gpus GPUs with scheme @p allreduce, or -1. */
static int find_startrd(const result_t *res, int count, int64_t gpus, startrd_allreduce_t allreduce)
{
    for (int i = 0; i < count; i++)
        if (res[i].method == M_STARTRD && res[i].info == 0 && res[i].gpus == gpus && res[i].allreduce == allreduce)
            return i;
    return -1;
}

/* One line per result on stdout and one row per result in the CSV, of
 * precision p whose cuBLAS GEMM ran at gemm TFLOP/s (< 0: not measured); a
 * failed StarTRD run shows "-" (empty CSV fields) where it has no value.
 * Returns 1 if an agreement exceeds the tolerance. */
static int report(const precision_t *p, int64_t n, result_t *res, int count, double gemm, FILE *csv)
{
    const double flops = (p->is_complex ? 16.0 : 4.0) / 3.0 * (double)n * (double)n * (double)n;
    double best_startrd = INFINITY;
    int ref = -1, failed = 0;

    for (int i = 0; i < count; i++) {
        if (res[i].method == M_STARTRD && res[i].info == 0)
            best_startrd = fmin(best_startrd, res[i].total);
        if (res[i].method == M_LAPACK)
            ref = i;
    }
    /* Without LAPACK, the first run with eigenvalues: every successful run
     * has a reference, and -1 only where every run failed. */
    for (int i = 0; i < count && ref < 0; i++)
        if (res[i].info == 0)
            ref = i;
    double scale = 0.0;
    for (int64_t k = 0; ref >= 0 && k < wanted(n); k++)
        scale = fmax(scale, fabs(res[ref].w[k]));
    scale *= (double)n * p->eps;
    for (int i = 0; i < count; i++) {
        const result_t *r = &res[i];
        const int ok = r->info == 0;
        double agreement = -1.0;

        if (ok) {
            double diff = 0.0;
            for (int64_t k = 0; k < wanted(n); k++)
                diff = fmax(diff, fabs(r->w[k] - res[ref].w[k]));
            agreement = diff / fmax(scale, DBL_MIN);
        }
        int bad = ok && !(agreement <= AGREEMENT_TOL);
        double ratio = ok && isfinite(best_startrd) ? r->total / best_startrd : -1.0;
        /* Parallel efficiency against StarTRD on one GPU with the same scheme. */
        int one = r->method == M_STARTRD && ok && r->gpus > 0 ? find_startrd(res, count, 1, r->allreduce) : -1;
        double efficiency = one >= 0 ? res[one].total / ((double)r->gpus * r->total) : -1.0;
        const char *scheme = r->method == M_STARTRD ? startrd_allreduce_name(r->allreduce) : NULL;

        failed |= bad;
        printf("%7lld %4s  %-*s %4d", (long long)n, p->name, label_width(), method_label(r->method), r->gpus);
        if (r->nb > 0)
            printf(" %4d", r->nb);
        else
            printf(" %4s", "-");
        print_seconds(stdout, r->stage1, 9);
        print_seconds(stdout, r->stage2, 9);
        print_seconds(stdout, r->total, 9);
        if (ok)
            printf(" %8.3f", flops / r->total * 1e-12);
        else
            printf(" %8s", "-");
        if (ratio >= 0.0)
            printf(" %9.2f", ratio);
        else
            printf(" %9s", "-");
        if (i == ref)
            printf(" %10s", "ref");
        else if (ok)
            printf(" %10.3f", agreement);
        else
            printf(" %10s", "-");
        if (efficiency >= 0.0)
            printf(" %6.2f", efficiency);
        else
            printf(" %6s", "-");
        if (vectors) {
            print_seconds(stdout, r->tridiag, 9);
            print_seconds(stdout, r->backtransform, 9);
            print_seconds(stdout, overlap_seconds(r), 9);
        }
        if (generalized) {
            print_seconds(stdout, r->stdform, 9);
            print_seconds(stdout, r->backsub, 9);
        }
        printf(" %s", scheme != NULL ? scheme : "-");
        if (r->method == M_STARTRD && ok && r->used != r->allreduce)
            printf(" (%s)", startrd_allreduce_name(r->used));
        if (r->method == M_STARTRD && ok && r->stage1_gpus != r->gpus)
            printf(" (stage 1 on %d)", r->stage1_gpus);
        if (r->method == M_STARTRD && ok && r->out_of_core)
            printf(" (out of core)");
        /* The chase's default is the first GPU; say where it went otherwise. */
        if (r->method == M_STARTRD && ok && r->gpus > 0 && r->stage2_gpus > 1)
            printf(" (stage 2 on %d)", r->stage2_gpus);
        else if (r->method == M_STARTRD && ok && r->gpus > 0 && r->stage2_gpus == 0 && r->nb == 1)
            printf(" (one stage)");
        else if (r->method == M_STARTRD && ok && r->gpus > 0 && r->stage2_gpus == 0)
            printf(" (stage 2 on the host)");
        if (!ok)
            printf("  FAILED (%d)", r->info);
        printf("%s\n", bad ? "  FAIL" : "");

        if (csv != NULL) {
            fprintf(csv, "%lld,%s,%d,", (long long)n, method_label(r->method), r->gpus);
            if (r->nb > 0)
                fprintf(csv, "%d", r->nb);
            fprintf(csv, ",");
            if (r->stage1 >= 0.0)
                fprintf(csv, "%.6f", r->stage1);
            fprintf(csv, ",");
            if (r->stage2 >= 0.0)
                fprintf(csv, "%.6f", r->stage2);
            if (ok)
                fprintf(csv, ",%.6f,%.6f,", r->total, flops / r->total * 1e-12);
            else
                fprintf(csv, ",,,");
            if (ratio >= 0.0)
                fprintf(csv, "%.4f", ratio);
            if (ok)
                fprintf(csv, ",%.4f,%s,", i == ref ? 0.0 : agreement, method_label(res[ref].method));
            else
                fprintf(csv, ",,,");
            if (r->sterf >= 0.0)
                fprintf(csv, "%.6f", r->sterf);
            fprintf(csv, ",");
            if (efficiency >= 0.0)
                fprintf(csv, "%.4f", efficiency);
            fprintf(csv, ",%s,", scheme != NULL ? scheme : "");
            if (r->method == M_STARTRD && ok)
                fprintf(csv, "%d,%d", r->stage1_gpus, r->stage2_gpus);
            else
                fprintf(csv, ",");
            if (r->tridiag >= 0.0)
                fprintf(csv, ",%.6f,%.6f,%.6f", r->tridiag, r->backtransform, overlap_seconds(r));
            else
                fprintf(csv, ",,,");
            /* Last, so that the columns before keep their places. */
            fprintf(csv, ",%s,", p->name);
            if (gemm >= 0.0)
                fprintf(csv, "%.3f", gemm);
            /* The generalized phases after it, for the same reason. */
            if (r->stdform >= 0.0)
                fprintf(csv, ",%.6f,%.6f", r->stdform, r->backsub);
            else
                fprintf(csv, ",,");
            fprintf(csv, "\n");
        }
    }
    fflush(stdout);
    if (csv != NULL)
        fflush(csv);
    return failed;
}

/* For several --allreduce schemes: StarTRD's stage-1 seconds (those of the
 * run with the best total, as in the lines above) per scheme and GPU count,
 * each with its ratio to the fastest scheme on that count, "-" for a failed
 * run, and the fastest scheme per count. */
static void report_schemes(const precision_t *p, int64_t n, const result_t *res, int count, const int64_t *gpus,
                           int ngpus, const startrd_allreduce_t *schemes, int nschemes)
{
    enum { CELL = 15 };
    char cell[48];
    int fastest[MAX_LIST];

    for (int k = 0; k < ngpus; k++) {
        fastest[k] = -1;
        for (int s = 0; s < nschemes; s++) {
            int i = find_startrd(res, count, gpus[k], schemes[s]);
            if (i >= 0 && (fastest[k] < 0 || res[i].stage1 < res[fastest[k]].stage1))
                fastest[k] = i;
        }
    }
    printf("\nstage 1 (dense -> band) seconds by allreduce scheme, precision %s, n = %lld (ratio to the fastest)\n",
           p->name, (long long)n);
    printf("  %-12s", "allreduce");
    for (int k = 0; k < ngpus; k++) {
        snprintf(cell, sizeof cell, "%lld GPU%s", (long long)gpus[k], gpus[k] == 1 ? "" : "s");
        printf(" %*s", CELL, cell);
    }
    printf("\n");
    for (int s = 0; s < nschemes; s++) {
        printf("  %-12s", startrd_allreduce_name(schemes[s]));
        for (int k = 0; k < ngpus; k++) {
            int i = find_startrd(res, count, gpus[k], schemes[s]);
            if (i >= 0)
                snprintf(cell, sizeof cell, "%.3f (%.2f)", res[i].stage1, res[i].stage1 / res[fastest[k]].stage1);
            else
                snprintf(cell, sizeof cell, "-");
            printf(" %*s", CELL, cell);
        }
        printf("\n");
    }
    printf("  %-12s", "fastest");
    for (int k = 0; k < ngpus; k++)
        printf(" %*s", CELL, fastest[k] >= 0 ? startrd_allreduce_name(res[fastest[k]].allreduce) : "-");
    printf("\n\n");
    fflush(stdout);
}

/* ----------------------------------------------------------------- main */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: startrd-bench [--n N1,N2,...] [--ngpu K1,K2,...] [--methods M1,M2,...]\n"
            "                     [--lapack-max N] [--repeat R] [--csv FILE] [--seed S] [--mg-tile T]\n"
            "                     [--allreduce S1,S2,...] [--nb NB] [--dist D] [--vectors] [--subset F]\n"
            "                     [--subset-by index|value] [--generalized] [--precision P1,P2,...]\n"
            "                     [--gemm-n N]\n"
            "  --n          orders of the random Hermitian matrices (default 4096,8192,16384)\n"
            "  --precision  any of s,d,c,z, run in the order given (default z): real symmetric\n"
            "               matrices in s and d (?sytrd_2stage_mgpu, cusolverDn?sytrd, LAPACK's\n"
            "               ?SYTRD_2STAGE, cusolverMgSyevd in that precision), complex Hermitian\n"
            "               in c and z (?hetrd_2stage_mgpu, ...); --vectors, --subset and\n"
            "               --generalized need z\n"
            "  --gemm-n     order of the cuBLAS S/D/C/ZGEMM timed on GPU 0 in each precision, its\n"
            "               TFLOP/s (2n^3 flops real, 8n^3 complex) shown beside that precision's\n"
            "               results (default 8192, 0: none; needs a GPU)\n"
            "  --ngpu       GPU counts for StarTRD, 0 = CPU workers only (default: 1 and every\n"
            "               visible GPU, 0 without a GPU); cusolverMg uses the largest\n"
            "  --methods    any of startrd,cusolver,cusolvermg,lapack (default: those available;\n"
            "               the cuSOLVER ones need a CUDA build and a GPU)\n"
            "  --lapack-max LAPACK only for n <= N (default 8192)\n"
            "  --repeat     best of R runs per method (default 1)\n"
            "  --csv        also write the results to FILE (one row per precision, n, method, GPUs,\n"
            "               scheme)\n"
            "  --seed       seed of the matrices (default 1)\n"
            "  --mg-tile    columns per tile of cusolverMg's block-cyclic layout (default 256)\n"
            "  --allreduce  how StarTRD's stage 1 combines the GPUs' shares of A*V, any of\n"
            "               hierarchical,host,full,auto, each run on every GPU count (default: the\n"
            "               library's, auto unless $STARTRD_ALLREDUCE names one); with several, a\n"
            "               table of stage-1 seconds by scheme and GPU count follows each n\n"
            "  --nb, --dist StarTRD's bandwidth and distribution block (columns, a multiple of NB,\n"
            "               which --dist needs): the nb and dist_nb options (default: the library's)\n"
            "  --vectors    all eigenpairs instead of the reduction: zheevd_2stage_mgpu, cusolverDnZheevd,\n"
            "               cusolverMgSyevd and LAPACK's ZHEEVD, the vectors back in host memory\n"
            "  --subset F   the lowest ceil(F n) eigenpairs by index instead (F in (0, 1]; implies --vectors):\n"
            "               zheevr_2stage_mgpu, cusolverDnZheevdx and LAPACK's ZHEEVR; no cusolverMg\n"
            "  --subset-by  index (default), or value: the same pairs asked for as the value range\n"
            "               (vl, vu] that holds them, vu halfway to the next eigenvalue (found first,\n"
            "               untimed, by the library's reduction and LAPACK's bisection)\n"
            "  --generalized all eigenpairs of A x = lambda B x instead (itype 1, implies --vectors; B a\n"
            "               second random Hermitian matrix, shifted and scaled to a spectrum in [%g, %g]):\n"
            "               zhegvd_2stage_mgpu, cusolverDnZhegvd and LAPACK's ZHEGVD, rows labelled\n"
            "               startrd-zhegvd, ...; no cusolverMg, no --subset\n"
            "  --device-data with --vectors, --subset or --generalized: the matrices start and end in\n"
            "               GPU 0's memory for StarTRD (the _gpu entry points) and cuSOLVER, their copies\n"
            "               from and to the host outside the times\n"
            "Times run from the matrix in host memory to d, e (cusolverMg: eigenvalues) in host\n"
            "memory.  Eigenvalue agreement: max|dlambda| / (n eps max|lambda|), eps of the\n"
            "precision, against LAPACK in that precision when it ran, else the first method\n"
            "(the eigenvalues of each tridiagonal by DSTERF); the exit status is 1 if one exceeds %g or a\n"
            "StarTRD run fails (the others still run; its line says FAILED, as does a size\n"
            "cuSOLVER refuses).\n",
            B_LO, B_HI, AGREEMENT_TOL);
}

/* A comma-separated list of integers in [lo, hi]; returns its length or -1. */
static int parse_list(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    int count = 0;

    while (*s != '\0') {
        char *end;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (end == s || errno != 0 || v < lo || v > hi || count == MAX_LIST || (*end != ',' && *end != '\0'))
            return -1;
        out[count++] = v;
        s = *end == ',' ? end + 1 : end;
    }
    return count;
}

/* A comma-separated list of names, each turned by by_name into a value in
 * [0, max) (anything else: unknown, reported as a `what` with the `known`
 * names), into out in the order given, a name given twice once; returns the
 * number of values or -1. */
static int parse_names(const char *s, const char *what, const char *known, int (*by_name)(const char *),
                       int max, int *out)
{
    char buf[256], *tok, *save = NULL;
    int count = 0;

    if (strlen(s) >= sizeof buf) {
        fprintf(stderr, "startrd-bench: the list of %ss is too long\n", what);
        return -1;
    }
    strcpy(buf, s);
    for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        int v = by_name(tok), seen = 0;
        if (v < 0 || v >= max) {
            fprintf(stderr, "startrd-bench: unknown %s '%s' (%s)\n", what, tok, known);
            return -1;
        }
        for (int i = 0; i < count; i++)
            seen |= out[i] == v;
        if (!seen)
            out[count++] = v;
    }
    return count;
}

static int method_by_name(const char *name)
{
    for (int m = 0; m < M_COUNT; m++)
        if (strcmp(name, method_name[m]) == 0)
            return m;
    return -1;
}

static int parse_methods(const char *s, int *want)
{
    int picked[M_COUNT];
    int count = parse_names(s, "method", "startrd, cusolver, cusolvermg, lapack", method_by_name, M_COUNT, picked);

    if (count < 0)
        return -1;
    for (int m = 0; m < M_COUNT; m++)
        want[m] = 0;
    for (int i = 0; i < count; i++)
        want[picked[i]] = 1;
    return 0;
}

static int precision_by_name(const char *name)
{
    for (int i = 0; i < P_COUNT; i++)
        if (strcmp(name, precisions[i].name) == 0)
            return i;
    return -1;
}

static int cpu_count(void)
{
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (int)c : 1;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"n", required_argument, 0, 'n'},          {"ngpu", required_argument, 0, 'g'},
        {"methods", required_argument, 0, 'm'},    {"lapack-max", required_argument, 0, 'l'},
        {"repeat", required_argument, 0, 'r'},     {"csv", required_argument, 0, 'c'},
        {"seed", required_argument, 0, 's'},       {"mg-tile", required_argument, 0, 't'},
        {"vectors", no_argument, 0, 'v'},          {"help", no_argument, 0, 'h'},
        {"allreduce", required_argument, 0, 'a'},  {"nb", required_argument, 0, 'b'},
        {"dist", required_argument, 0, 'D'},       {"subset", required_argument, 0, 'S'},
        {"subset-by", required_argument, 0, 'B'},  {"precision", required_argument, 0, 'p'},
        {"gemm-n", required_argument, 0, 'G'},     {"generalized", no_argument, 0, 'E'},
        {"device-data", no_argument, 0, 'U'},      {0, 0, 0, 0}};
    int64_t sizes[MAX_LIST] = {4096, 8192, 16384}, gpus[MAX_LIST], lapack_max = 8192;
    int nsizes = 3, ngpus = -1, repeat = 1, seed = 1, tile = 256, want[M_COUNT], methods_given = 0, c;
    int picked[MAX_SCHEMES], nschemes = 0, precs[P_COUNT] = {P_Z}, nprecs = 1;
    int64_t gemm_n = 8192;
    startrd_allreduce_t schemes[MAX_SCHEMES];
    const char *csv_path = NULL;
    char *end;

    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if ((nsizes = parse_list(optarg, 1, 1 << 20, sizes)) < 1) {
                fprintf(stderr, "startrd-bench: --n wants orders in [1, 2^20], comma-separated\n");
                return 2;
            }
            break;
        case 'g':
            if ((ngpus = parse_list(optarg, 0, MAX_LIST, gpus)) < 1) {
                fprintf(stderr, "startrd-bench: --ngpu wants GPU counts in [0, %d], comma-separated\n", MAX_LIST);
                return 2;
            }
            break;
        case 'm':
            if (parse_methods(optarg, want) != 0)
                return 2;
            methods_given = 1;
            break;
        case 'l':
            errno = 0;
            lapack_max = strtoll(optarg, &end, 10);
            if (end == optarg || *end != '\0' || errno != 0 || lapack_max < 0) {
                fprintf(stderr, "startrd-bench: --lapack-max wants an order >= 0\n");
                return 2;
            }
            break;
        case 'r':
            repeat = atoi(optarg);
            if (repeat < 1) {
                fprintf(stderr, "startrd-bench: --repeat wants R >= 1\n");
                return 2;
            }
            break;
        case 'c': csv_path = optarg; break;
        case 's': seed = atoi(optarg); break;
        case 't':
            tile = atoi(optarg);
            if (tile < 1) {
                fprintf(stderr, "startrd-bench: --mg-tile wants T >= 1\n");
                return 2;
            }
            break;
        case 'v': vectors = 1; break;
        case 'E':
            generalized = 1;
            vectors = 1;
            break;
        case 'U':
#ifndef STARTRD_USE_CUDA
            fprintf(stderr, "startrd-bench: --device-data needs a build with CUDA\n");
            return 2;
#endif
            device_data = 1;
            break;
        case 'S':
            subset = strtod(optarg, &end);
            if (end == optarg || *end != '\0' || !(subset > 0.0 && subset <= 1.0)) {
                fprintf(stderr, "startrd-bench: --subset wants a fraction in (0, 1]\n");
                return 2;
            }
            vectors = 1;
            break;
        case 'B':
            if (strcmp(optarg, "index") != 0 && strcmp(optarg, "value") != 0) {
                fprintf(stderr, "startrd-bench: --subset-by wants index or value\n");
                return 2;
            }
            subset_range = optarg[0] == 'v' ? 'V' : 'I';
            break;
        case 'b':
        case 'D': {
            int v = atoi(optarg);
            if (v < 1 || (c == 'b' && v > 1024)) {
                fprintf(stderr, "startrd-bench: --%s wants a positive count of columns%s\n", c == 'b' ? "nb" : "dist",
                        c == 'b' ? " up to 1024" : "");
                return 2;
            }
            *(c == 'b' ? &opt_nb : &opt_dist_nb) = v;
            break;
        }
        case 'a':
            nschemes = parse_names(optarg, "allreduce scheme", "hierarchical, host, full, auto",
                                   startrd_allreduce_by_name, MAX_SCHEMES, picked);
            if (nschemes < 0)
                return 2;
            if (nschemes == 0) {
                fprintf(stderr, "startrd-bench: --allreduce wants one or more of hierarchical, host, full, auto, "
                                "comma-separated\n");
                return 2;
            }
            for (int i = 0; i < nschemes; i++)
                schemes[i] = (startrd_allreduce_t)picked[i];
            break;
        case 'p':
            if ((nprecs = parse_names(optarg, "precision", "s, d, c, z", precision_by_name, P_COUNT, precs)) < 1) {
                if (nprecs == 0)
                    fprintf(stderr, "startrd-bench: --precision wants one or more of s, d, c, z, comma-separated\n");
                return 2;
            }
            break;
        case 'G':
            errno = 0;
            gemm_n = strtoll(optarg, &end, 10);
            /* An int for cuBLAS, and n^2 elements of 16 bytes that fit on any GPU the bench drives. */
            if (end == optarg || *end != '\0' || errno != 0 || gemm_n < 0 || gemm_n > 32768) {
                fprintf(stderr, "startrd-bench: --gemm-n wants an order in [0, 32768]\n");
                return 2;
            }
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "startrd-bench: unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        return 2;
    }

    /* Before any StarPU start-up, which may bind this thread to one core. */
    const int ncores = cpu_count();
#ifdef STARTRD_USE_CUDA
    const int ndev = visible_gpus();
#else
    const int ndev = 0;
#endif
    if (nschemes == 0) {
        /* The library's own choice, which $STARTRD_ALLREDUCE may set. */
        startrd_options_t defaults;
        startrd_options_init(&defaults);
        schemes[nschemes++] = defaults.allreduce;
    }
    if (ngpus < 0) {
        ngpus = 0;
        gpus[ngpus++] = ndev > 0 ? 1 : 0;
        if (ndev > 1)
            gpus[ngpus++] = ndev;
    }
    int kmax = 0;
    for (int i = 0; i < ngpus; i++) {
        if (gpus[i] > ndev) {
#ifdef STARTRD_USE_CUDA
            fprintf(stderr, "startrd-bench: --ngpu %lld but %d GPUs are visible\n", (long long)gpus[i], ndev);
#else
            fprintf(stderr, "startrd-bench: --ngpu %lld but this StarTRD was built without CUDA\n",
                    (long long)gpus[i]);
#endif
            return 2;
        }
        kmax = gpus[i] > kmax ? (int)gpus[i] : kmax;
    }
    if (!methods_given) {
        want[M_STARTRD] = want[M_LAPACK] = 1;
        want[M_CUSOLVER] = ndev > 0;
        want[M_CUSOLVERMG] = kmax > 0;
    } else {
#ifndef STARTRD_USE_CUDA
        if (want[M_CUSOLVER] || want[M_CUSOLVERMG]) {
            fprintf(stderr, "startrd-bench: cusolver and cusolvermg need a StarTRD built with CUDA\n");
            return 2;
        }
#endif
        if ((want[M_CUSOLVER] || want[M_CUSOLVERMG]) && ndev == 0) {
            fprintf(stderr, "startrd-bench: cusolver and cusolvermg need a GPU; none is visible\n");
            return 2;
        }
        if (want[M_CUSOLVERMG] && kmax == 0) {
            fprintf(stderr, "startrd-bench: cusolvermg runs on the largest --ngpu count, which is 0\n");
            return 2;
        }
    }
    for (int i = 0; i < nprecs; i++) {
        if (vectors && precs[i] != P_Z) {
            fprintf(stderr, "startrd-bench: --vectors, --subset and --generalized are complex double only (the "
                            "eigensolvers are): --precision z\n");
            return 2;
        }
    }
    /* The generalized drivers' subsets (zhegvx_2stage_mgpu) are not timed
     * here: one mode at a time. */
    if (generalized && subset > 0.0) {
        fprintf(stderr, "startrd-bench: --generalized times all eigenpairs; drop --subset\n");
        return 2;
    }
    if (device_data && !vectors) {
        fprintf(stderr, "startrd-bench: --device-data times the eigensolvers: add --vectors, --subset or "
                        "--generalized\n");
        return 2;
    }
    if ((subset > 0.0 || generalized) && want[M_CUSOLVERMG]) {
        if (methods_given) {
            fprintf(stderr, "startrd-bench: cusolvermg has no %s; drop it or %s\n",
                    generalized ? "generalized eigensolver" : "subset of eigenpairs",
                    generalized ? "--generalized" : "--subset");
            return 2;
        }
        want[M_CUSOLVERMG] = 0;
    }
    for (int i = 0; i < nsizes; i++) {
        int any = want[M_STARTRD] || want[M_CUSOLVER] || want[M_CUSOLVERMG] ||
                  (want[M_LAPACK] && sizes[i] <= lapack_max);
        if (!any) {
            fprintf(stderr, "startrd-bench: no method runs at n = %lld (lapack only up to --lapack-max %lld)\n",
                    (long long)sizes[i], (long long)lapack_max);
            return 2;
        }
    }

    FILE *csv = NULL;
    if (csv_path != NULL) {
        if ((csv = fopen(csv_path, "w")) == NULL) {
            fprintf(stderr, "startrd-bench: cannot write %s: %s\n", csv_path, strerror(errno));
            return 1;
        }
        fprintf(csv, "n,method,gpus,nb,stage1_s,stage2_s,total_s,tflops,ratio_to_startrd,eig_agreement,"
                     "reference,sterf_s,efficiency,allreduce,stage1_gpus,stage2_gpus,"
                     "tridiag_s,backtransform_s,overlap_s,precision,gemm_tflops,standard_form_s,"
                     "backsubstitution_s\n");
    }

    char what[160];
    int any_real = 0;

    for (int i = 0; i < nprecs; i++)
        any_real |= !precisions[precs[i]].is_complex;
    if (generalized)
        snprintf(what, sizeof what, "eigenvalues and eigenvectors of A x = lambda B x (itype 1), B's spectrum in "
                                    "[%g, %g]", B_LO, B_HI);
    else if (subset > 0.0)
        snprintf(what, sizeof what, "the lowest eigenpairs, a fraction %g of each order, by %s", subset,
                 subset_range == 'V' ? "value" : "index");
    else
        snprintf(what, sizeof what, "%s",
                 vectors ? "eigenvalues and eigenvectors" : "reduction to tridiagonal (cusolverMg: eigenvalues)");
    printf("startrd-bench: %d cores, %d GPUs visible, best of %d; %s; precisions:", ncores, ndev, repeat, what);
    for (int i = 0; i < nprecs; i++)
        printf(" %s", precisions[precs[i]].name);
    printf("; methods:");
    for (int m = 0; m < M_COUNT; m++)
        if (want[m])
            printf(" %s", method_name[m]);
    if (want[M_STARTRD]) {
        printf("; StarTRD GPU counts:");
        for (int i = 0; i < ngpus; i++)
            printf(" %lld", (long long)gpus[i]);
        printf("; allreduce:");
        for (int i = 0; i < nschemes; i++)
            printf(" %s", startrd_allreduce_name(schemes[i]));
    }
    if (want[M_CUSOLVERMG])
        printf("; cusolverMg on %d GPUs, tile %d", kmax, tile);
#ifdef HAVE_OPENBLAS_GET_CORENAME
    /* OpenBLAS falls back to slow generic kernels on CPU models it does not
     * know (some virtual machines): OPENBLAS_CORETYPE then picks better ones. */
    printf("; OpenBLAS kernels: %s", openblas_get_corename());
#endif
    printf("\n  TFLOP/s = 16n^3/3%s / total; /startrd = total / best StarTRD total; eig = max|dlambda| / "
           "(n eps max|lambda|) vs ref, eps of the precision; eff = StarTRD's time on 1 GPU / (GPUs x time)%s%s\n",
           any_real ? " (s, d: 4n^3/3)" : "",
           vectors ? "; tridiag_s, backtr_s: StarTRD's tridiagonal vectors and back-transformation, overlap_s: "
                     "the time its phases ran side by side"
                   : "",
           generalized ? "; stdform_s: StarTRD's Cholesky factor of B and reduction to the standard problem, "
                         "backsub_s: its back-substitution of the vectors"
                       : "");

    /* cuBLAS's GEMM rate in each precision, before any method (the GPU
     * otherwise idle, StarPU not started): the ceiling the reductions of
     * that precision are read against. */
    double gemm[P_COUNT];
    for (int i = 0; i < P_COUNT; i++)
        gemm[i] = -1.0;
#ifdef STARTRD_USE_CUDA
    if (ndev > 0 && gemm_n > 0) {
        printf("  cuBLAS GEMM at n = %lld on GPU 0, TFLOP/s (2n^3 flops real, 8n^3 complex):", (long long)gemm_n);
        for (int i = 0; i < nprecs; i++) {
            const precision_t *p = &precisions[precs[i]];
            gemm[p->id] = gemm_rate(p, gemm_n, (uint64_t)seed);
            printf(" %s %.1f (%s)%s", p->name, gemm[p->id], p->gemm, i + 1 < nprecs ? "," : "");
            fflush(stdout);
        }
        printf("\n");
    }
#else
    (void)gemm_n;
#endif
    printf("%7s %4s  %-*s %4s %4s %9s %9s %9s %8s %9s %10s %6s", "n", "prec", label_width(), "method", "gpus", "nb",
           "stage1_s", "stage2_s", "total_s", "TFLOP/s", "/startrd", "eig", "eff");
    if (vectors)
        printf(" %9s %9s %9s", "tridiag_s", "backtr_s", "overlap_s");
    if (generalized)
        printf(" %9s %9s", "stdform_s", "backsub_s");
    printf(" %s\n", "allreduce");
    fflush(stdout);

    int failed = 0, runs_failed = 0;
    for (int pi = 0; pi < nprecs; pi++) {
        const precision_t *p = &precisions[precs[pi]];

        for (int i = 0; i < nsizes; i++) {
            const int64_t n = sizes[i];
            const size_t nn = (size_t)n * (size_t)n;
            void *a0 = xmalloc(nn * p->elem, "the matrix");
            void *a = xmalloc(nn * p->elem, "the matrix's working copy");
            void *tau = xmalloc((size_t)n * p->elem, "tau");
            void *d = xmalloc((size_t)n * p->real, "d"), *e = xmalloc((size_t)n * p->real, "e");
            void *b0 = generalized ? xmalloc(nn * p->elem, "B") : NULL;
            void *b = generalized ? xmalloc(nn * p->elem, "B's working copy") : NULL;
            result_t res[MAX_RESULTS];
            int count = 0;

            perf_matrix(n, p->scalar, a0, (uint64_t)seed);
            /* Complex double, as main() keeps --generalized to z. */
            if (generalized)
                perf_hermitian_definite(n, b0, b_seed(seed), B_LO, B_HI);
            if (subset > 0.0 && subset_range == 'V')
                subset_bounds(n, a0, a, d, e, tau);
            for (int m = 0; m < M_COUNT; m++) {
                if (!want[m] || (m == M_LAPACK && n > lapack_max))
                    continue;
                /* StarTRD: every scheme on each GPU count, so that a count's schemes are adjacent lines. */
                int runs = m == M_STARTRD ? ngpus * nschemes : 1;
                for (int k = 0; k < runs; k++) {
                    result_t *r = &res[count++];
                    memset(r, 0, sizeof *r);
                    /* Only StarTRD's eigensolver runs report these phases. */
                    r->tridiag = r->backtransform = r->stdform = r->backsub = -1.0;
                    r->method = (enum method)m;
                    r->w = xmalloc((size_t)n * sizeof *r->w, "eigenvalues");
                    switch (m) {
                    case M_STARTRD:
                        run_startrd(p, n, (int)gpus[k / nschemes], schemes[k % nschemes], repeat, a0, a, b0, b, d,
                                    e, tau, r);
                        break;
#ifdef STARTRD_USE_CUDA
                    case M_CUSOLVER: run_cusolver(p, n, repeat, a0, a, b0, b, d, e, r); break;
                    case M_CUSOLVERMG: run_cusolvermg(p, n, kmax, tile, repeat, a0, a, r); break;
#endif
                    case M_LAPACK: run_lapack(p, n, repeat, ncores, a0, a, b0, b, d, e, tau, r); break;
                    default: break;
                    }
                    /* Long runs: show progress before the table, which waits for every method. */
                    fprintf(stderr, "startrd-bench: %s n %lld %s, %d GPUs", p->name, (long long)n,
                            method_label((enum method)m), r->gpus);
                    if (m == M_STARTRD)
                        fprintf(stderr, ", allreduce %s", startrd_allreduce_name(r->allreduce));
                    if (r->info != 0)
                        fprintf(stderr, ": failed\n");
                    else
                        fprintf(stderr, ": %.2f s\n", r->total);
                    runs_failed += m == M_STARTRD && r->info != 0;
                }
            }
            tridiagonal_eigenvalues(n, res, count, ncores);
            failed |= report(p, n, res, count, gemm[p->id], csv);
            if (want[M_STARTRD] && nschemes > 1)
                report_schemes(p, n, res, count, gpus, ngpus, schemes, nschemes);
            for (int k = 0; k < count; k++)
                free(res[k].w);
            free(a0);
            free(a);
            free(tau);
            free(d);
            free(e);
            free(b0);
            free(b);
        }
    }
    if (csv != NULL && fclose(csv) != 0) {
        fprintf(stderr, "startrd-bench: error writing %s: %s\n", csv_path, strerror(errno));
        return 1;
    }
    if (failed)
        fprintf(stderr, "startrd-bench: eigenvalues disagree by more than %g n eps max|lambda|\n", AGREEMENT_TOL);
    if (runs_failed > 0)
        fprintf(stderr, "startrd-bench: %d StarTRD run%s failed\n", runs_failed, runs_failed == 1 ? "" : "s");
    return failed || runs_failed > 0;
}
