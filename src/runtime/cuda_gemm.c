/* Per CUDA worker: a cuBLASLt handle, one workspace per stream the worker's
 * codelets issue on (its own and its lanes'), and the algorithm chosen for
 * each shape and precision, shared by the products of every precision.
 * All of it is set up on first use, on the worker's thread, so no other
 * thread touches it until startrd_cuda_gemm_close(). */
#include "cuda_gemm.h"

#include "workers.h"
#include "cuda_lanes.h"
#include "error.h"
#include "cuda_zgemm.h"
#include "scalars.h"

#ifdef STARTRD_USE_CUDA
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Split-K algorithms, which the heuristic prefers for products with a long
 * inner dimension, need a workspace: without one, 1024 x 64 x m runs
 * slower (docs/experiments.md, "Products through cuBLASLt"). */
#define WORKSPACE_BYTES ((size_t)32 << 20)

enum {
    MAX_STREAMS = 1 + STARTRD_CUDA_LANES + STARTRD_CUDA_NARROW_LANES,
    CACHE_SLOTS = 4096,                   /* a power of two */
    CACHE_FILL = CACHE_SLOTS / 2,         /* emptied beyond: probes stay short */
};

struct shape {
    int type, compute;   /* cudaDataType_t, cublasComputeType_t */
    int transa, transb, m, n, k, lda, ldb, ldc, align;
};

struct cached {
    struct shape key;
    int used;
    int found;                  /* 0: the heuristic offered nothing: cuBLAS's own GEMM */
    cublasLtMatmulAlgo_t algo;
};

struct worker_gemm {
    cublasLtHandle_t lt;
    int nstreams;
    cudaStream_t stream[MAX_STREAMS];
    void *workspace[MAX_STREAMS];
    int ncached;
    struct cached *cache;
};

static struct worker_gemm workers[STARPU_NMAXWORKERS];

static uint32_t shape_hash(const struct shape *s)
{
    const int *v = (const int *)s;
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < sizeof *s / sizeof *v; i++)
        h = (h ^ (uint32_t)v[i]) * 16777619u;
    return h;
}

/* The largest power of two up to 256 that divides every address: the
 * alignment the heuristic may assume. */
static int alignment(const void *a, const void *b, const void *c)
{
    uintptr_t bits = (uintptr_t)a | (uintptr_t)b | (uintptr_t)c | 256;

    return (int)(bits & -bits);
}

static cublasStatus_t set_up(struct worker_gemm *g)
{
    cublasStatus_t st;

    if (g->cache != NULL)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = cublasLtCreate(&g->lt)) != CUBLAS_STATUS_SUCCESS)
        return st;
    if ((g->cache = calloc(CACHE_SLOTS, sizeof *g->cache)) == NULL) {
        cublasLtDestroy(g->lt);
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* The workspace of @p stream, allocated on its first use; NULL once the
 * worker has used more streams than its own and its lanes'. */
static void *workspace_of(struct worker_gemm *g, cudaStream_t stream, cublasStatus_t *st)
{
    int i = 0;

    while (i < g->nstreams && g->stream[i] != stream)
        i++;
    if (i < g->nstreams)
        return g->workspace[i];
    if (i == MAX_STREAMS)
        return NULL;
    if (cudaMalloc(&g->workspace[i], WORKSPACE_BYTES) != cudaSuccess) {
        *st = CUBLAS_STATUS_ALLOC_FAILED;
        return NULL;
    }
    g->stream[i] = stream;
    g->nstreams++;
    return g->workspace[i];
}

struct problem {
    cublasLtMatmulDescOpaque_t op;
    cublasLtMatrixLayoutOpaque_t a, b, c;
};

static cublasStatus_t describe(struct problem *p, const struct shape *s)
{
    cublasOperation_t ta = (cublasOperation_t)s->transa, tb = (cublasOperation_t)s->transb;
    int arows = ta == CUBLAS_OP_N ? s->m : s->k, brows = tb == CUBLAS_OP_N ? s->k : s->n;
    cublasStatus_t st;

    cudaDataType_t type = (cudaDataType_t)s->type;

    if ((st = cublasLtMatmulDescInit(&p->op, (cublasComputeType_t)s->compute, type)) == CUBLAS_STATUS_SUCCESS)
        st = cublasLtMatmulDescSetAttribute(&p->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasLtMatmulDescSetAttribute(&p->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasLtMatrixLayoutInit(&p->a, type, (uint64_t)arows, (uint64_t)(s->m + s->k - arows), s->lda);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasLtMatrixLayoutInit(&p->b, type, (uint64_t)brows, (uint64_t)(s->k + s->n - brows), s->ldb);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasLtMatrixLayoutInit(&p->c, type, (uint64_t)s->m, (uint64_t)s->n, s->ldc);
    return st;
}

static cublasStatus_t choose(struct worker_gemm *g, struct problem *p, struct cached *e)
{
    cublasLtMatmulPreferenceOpaque_t pref;
    const size_t bytes = WORKSPACE_BYTES;
    const uint32_t align = (uint32_t)e->key.align;
    cublasLtMatmulHeuristicResult_t result;
    int nresults = 0;
    cublasStatus_t st = cublasLtMatmulPreferenceInit(&pref);
    const cublasLtMatmulPreferenceAttributes_t aligned[] = {
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
    };

    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasLtMatmulPreferenceSetAttribute(&pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes,
                                                  sizeof bytes);
    for (size_t i = 0; st == CUBLAS_STATUS_SUCCESS && i < sizeof aligned / sizeof *aligned; i++)
        st = cublasLtMatmulPreferenceSetAttribute(&pref, aligned[i], &align, sizeof align);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasLtMatmulAlgoGetHeuristic(g->lt, &p->op, &p->a, &p->b, &p->c, &p->c, &pref, 1, &result,
                                            &nresults);
    /* No algorithm for the shape is not a failure: cuBLAS's own GEMM takes it. */
    if (st == CUBLAS_STATUS_NOT_SUPPORTED) {
        st = CUBLAS_STATUS_SUCCESS;
        nresults = 0;
    }
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    e->found = nresults > 0 && result.state == CUBLAS_STATUS_SUCCESS;
    if (e->found)
        e->algo = result.algo;
    e->used = 1;
    g->ncached++;
    return CUBLAS_STATUS_SUCCESS;
}

/* The cache entry for @p s, its algorithm chosen if it was new. */
static struct cached *lookup(struct worker_gemm *g, struct problem *p, const struct shape *s, cublasStatus_t *st)
{
    uint32_t slot = shape_hash(s) & (CACHE_SLOTS - 1);

    if (g->ncached >= CACHE_FILL) {
        memset(g->cache, 0, CACHE_SLOTS * sizeof *g->cache);
        g->ncached = 0;
    }
    while (g->cache[slot].used && memcmp(&g->cache[slot].key, s, sizeof *s) != 0)
        slot = (slot + 1) & (CACHE_SLOTS - 1);
    if (!g->cache[slot].used) {
        g->cache[slot].key = *s;
        if ((*st = choose(g, p, &g->cache[slot])) != CUBLAS_STATUS_SUCCESS)
            return NULL;
    }
    return &g->cache[slot];
}

cublasStatus_t startrd_cuda_gemm_lt(cublasHandle_t blas, cudaDataType_t type, cublasComputeType_t compute,
                                    cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                                    const void *alpha, const void *a, int lda, const void *b, int ldb,
                                    const void *beta, int reads_c, void *c, int ldc, int *done)
{
    struct worker_gemm *g = &workers[starpu_worker_get_id_check()];
    struct shape s;   /* ints only: no padding for memcmp() to trip on */
    struct problem p;
    struct cached *e = NULL;
    cudaStream_t stream;
    void *ws = NULL;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;

    *done = 0;
    s = (struct shape){(int)type, (int)compute, (int)transa, (int)transb, m, n, k, lda, ldb, ldc,
                       alignment(a, b, c)};
    /* Empty products (and C = beta C) are cuBLAS's to check and do, so are
     * those with beta = 0, which BLAS promises not to read C for (C may
     * hold NaN): cuBLASLt's documentation makes no such promise. */
    if (m > 0 && n > 0 && k > 0 && reads_c && (st = set_up(g)) == CUBLAS_STATUS_SUCCESS &&
        (st = cublasGetStream(blas, &stream)) == CUBLAS_STATUS_SUCCESS &&
        (ws = workspace_of(g, stream, &st)) != NULL && (st = describe(&p, &s)) == CUBLAS_STATUS_SUCCESS)
        e = lookup(g, &p, &s, &st);
    if (st != CUBLAS_STATUS_SUCCESS || e == NULL || !e->found)
        return st;
    *done = 1;
    return cublasLtMatmul(g->lt, &p.op, alpha, a, &p.a, b, &p.b, beta, c, &p.c, c, &p.c, &e->algo, ws,
                          WORKSPACE_BYTES, stream);
}

/* CUDA loads a library's kernels on their first launch: the first cuBLAS
 * call of a process paid for that inside the first panel's chain (V^H V
 * after the panel kernel; docs/architecture.md, "The first cuBLAS call of
 * a process").  One small product per stream, here, moves that and
 * cuBLASLt's set-up to initialisation (a green context, on which the
 * narrow lanes run, loads its own).  In complex double, the precision the
 * library is tuned for; the others load theirs on their first product. */
static int warm_up(void)
{
    enum { M = 64, MM = M * M };
    const cuDoubleComplex one = STARTRD_Z_ONE;
    cublasHandle_t h = starpu_cublas_get_local_handle();
    cudaStream_t stream = starpu_cuda_get_local_stream();
    const startrd_cuda_lanes_t *lanes = NULL;
    cuDoubleComplex *m = NULL;   /* A, B, then a C per stream */
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    cudaError_t ce = cudaMalloc((void **)&m, (size_t)(MAX_STREAMS + 2) * MM * sizeof *m);
    int c = 2;

    if (ce == cudaSuccess)
        ce = cudaMemsetAsync(m, 0, (size_t)(MAX_STREAMS + 2) * MM * sizeof *m, stream);
    if (ce == cudaSuccess)
        st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, M, M, &one, m, M, m + MM, M, &one, m + c * MM, M);
    if (ce == cudaSuccess && st == CUBLAS_STATUS_SUCCESS)
        st = startrd_cuda_zgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, M, M, M, &one, m, M, m + MM, M, &one, m + c++ * MM, M);
    /* The narrow lanes are the wide ones again where the worker has none. */
    for (int narrow = 0; narrow < 2 && ce == cudaSuccess && st == CUBLAS_STATUS_SUCCESS; narrow++) {
        if ((lanes = narrow ? startrd_cuda_fork_narrow() : startrd_cuda_fork()) == NULL)
            break;
        for (int i = 0; i < lanes->count && st == CUBLAS_STATUS_SUCCESS; i++)
            st = startrd_cuda_zgemm(lanes->blas[i], CUBLAS_OP_N, CUBLAS_OP_C, M, M, M, &one, m, M, m + MM, M, &one,
                                    m + c++ * MM, M);
        ce = startrd_cuda_join(lanes);
    }
    if (ce == cudaSuccess)
        ce = cudaStreamSynchronize(stream);
    cudaFree(m);
    if (ce == cudaSuccess && st == CUBLAS_STATUS_SUCCESS && lanes != NULL)
        return 0;
    startrd_error("CUDA worker %d: cuBLAS warm-up failed (CUDA %d, cuBLAS %d)", starpu_worker_get_id_check(),
                  (int)ce, (int)st);
    return -1;
}

int startrd_cuda_gemm_open(void)
{
    return startrd_on_each_worker(warm_up, STARPU_CUDA, startrd_cuda_gemm_close);
}

static void release(void *arg)
{
    struct worker_gemm *g = &workers[starpu_worker_get_id_check()];

    (void)arg;
    if (g->cache == NULL)
        return;
    /* cudaFree() waits for the calls still using a workspace. */
    for (int i = 0; i < g->nstreams; i++)
        cudaFree(g->workspace[i]);
    cublasLtDestroy(g->lt);
    free(g->cache);
    memset(g, 0, sizeof *g);
}

void startrd_cuda_gemm_close(void)
{
    starpu_execute_on_each_worker(release, NULL, STARPU_CUDA);
}
#else
int startrd_cuda_gemm_open(void)
{
    return 0;
}

void startrd_cuda_gemm_close(void)
{
}
#endif
