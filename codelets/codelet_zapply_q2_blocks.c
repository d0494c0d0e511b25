/* C := Q2 C or Q2^H C for a block of columns C by the reflector groups of
 * the blocked Q2 (q2_blocks.h), one chunk of levels at a time: the chunk's
 * groups are built from HOUS2 into the task's scratch, V and Y = V T, then
 * applied level by level, two GEMMs per group.
 *
 * Building, on the host: a ZLARFT and a ZTRMM of h x b per group.  On a
 * GPU, for all groups of the chunk at once: the gather, the Gram matrices
 * V^H V in one batched GEMM, T from them, and Y = V T in one more batched
 * GEMM.  Applying, on a GPU: the groups of a level are one strided batch,
 * their rows in C being equally spaced; C is worked on in a copy padded
 * with h zero rows, so that the groups at the end of the band, whose V and
 * Y are zero past row n, need no shorter shape.  Where the fused kernel of
 * kernel_q2_chains.cu exists (double precisions, kd = 64, compute
 * capability 9.0 or later), it replaces Y and the levels' GEMMs: the build
 * writes its copies of V^H, T (or T^H) and V instead of Y, and one launch
 * applies the chunk, chain by chain.
 *
 * When C is a block of the identity, a member leaves the columns before
 * its first one (q2_blocks.h) as they are: on the host each member skips
 * them; on a GPU a level's batch is cut where its members' first columns
 * have grown by a sixteenth of the block, each piece starting at the first
 * column of its first member, and the fused kernel skips each chain's
 * tiles of 16 columns that lie wholly before its first column.
 *
 * @precisions normal z -> s d c
 */
#include "codelets_z.h"
#include "error.h"
#include "scalars.h"

#include <cblas.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct apply_q2_blocks_args {
    const startrd_q2_blocks_t *qb;
    char trans;        /* 'N': Q2 C, 'C': Q2^H C */
    int64_t nS_acting; /* groups of sweeps S >= this leave C as it is and are skipped */
    int64_t identity_col0; /* C's first column in the identity, or -1 if C is not a block of it */
};

/* The first column of C that member m of a level acts on. */
static int64_t member_first_column(const struct apply_q2_blocks_args *a, const startrd_q2_level_t *lv, int64_t m)
{
    return a->identity_col0 < 0 ? 0 : startrd_q2_member_first_column(a->qb, lv, m, a->identity_col0);
}

static int64_t acting_members(const struct apply_q2_blocks_args *a, const startrd_q2_level_t *lv)
{
    return startrd_q2_members_before(lv, a->nS_acting);
}

/* Whether any group of chunk c acts on C: its build can be skipped if not. */
static int chunk_acts(const struct apply_q2_blocks_args *a, int64_t c)
{
    for (int64_t L = a->qb->chunk_level[c]; L < a->qb->chunk_level[c + 1]; L++)
        if (acting_members(a, &a->qb->levels[L]) > 0)
            return 1;
    return 0;
}

/* A chunk's groups in the scratch (q2_blocks.h): V (h x b, group i at
 * i h b); Y (h x b, likewise) or the fused kernel's operands (their
 * entries per group, i at i of them); the factors tau (b each) and T
 * (b x b each). */
struct chunk_scratch {
    void *V, *Y, *tau, *T;
};

static struct chunk_scratch chunk_scratch(const startrd_q2_blocks_t *qb, void *scratch)
{
    const size_t hb = (size_t)(qb->h * qb->b), bb = (size_t)(qb->b * qb->b), g = (size_t)qb->maxchunk,
                 elem = sizeof(double complex), second = 2 * hb + bb;
    char *base = scratch;

    return (struct chunk_scratch){base, base + g * hb * elem, base + g * (hb + second) * elem,
                                  base + g * (hb + second + (size_t)qb->b) * elem};
}

/* Chunk c's levels in application order: Q2 C goes up the levels, Q2^H C
 * down. */
static int64_t chunk_in_order(const startrd_q2_blocks_t *qb, char trans, int64_t i)
{
    return trans == 'N' ? i : qb->nchunks - 1 - i;
}

static int64_t level_in_order(const startrd_q2_blocks_t *qb, char trans, int64_t c, int64_t i)
{
    return trans == 'N' ? qb->chunk_level[c] + i : qb->chunk_level[c + 1] - 1 - i;
}

/* Level L's groups in the chunk's V and Y: Q2 C multiplies by V^H then
 * subtracts Y times the product; Q2^H C the other way round. */
static void level_operands(const startrd_q2_blocks_t *qb, const struct chunk_scratch *s, char trans, int64_t c,
                           int64_t L, const void **first, const void **second)
{
    size_t off = (size_t)((qb->levels[L].g0 - qb->levels[qb->chunk_level[c]].g0) * qb->h * qb->b) *
                 sizeof(double complex);
    const char *V = (const char *)s->V + off, *Y = (const char *)s->Y + off;

    *first = trans == 'N' ? V : Y;
    *second = trans == 'N' ? Y : V;
}

/* Group (S, j) into v (zeroed here) and its factors into tau; returns how
 * many of its b reflectors exist (the missing ones, at the end of the band,
 * are the last). */
static int64_t gather_group(const startrd_q2_blocks_t *qb, const double complex *hous, int64_t S, int64_t j,
                            double complex *v, double complex *tau)
{
    const startrd_bulge_plan_t *p = &qb->plan;
    int64_t k = 0;

    memset(v, 0, (size_t)(qb->h * qb->b) * sizeof *v);
    for (int64_t s = S * qb->b; k < qb->b && s < p->nsweeps && j < startrd_bulge_nrefl_sweep(p, s); s++, k++) {
        memcpy(v + k * qb->h + k, hous + startrd_bulge_v_offset(p, s, j),
               (size_t)startrd_bulge_refl_len(p, s, j) * sizeof *v);
        tau[k] = hous[startrd_bulge_tau_offset(p, s, j)];
    }
    return k;
}

static int build_chunk_cpu(const startrd_q2_blocks_t *qb, int64_t c, const double complex *hous,
                           const struct chunk_scratch *s)
{
    const int64_t h = qb->h, b = qb->b, first = qb->chunk_level[c];
    double complex *V = s->V, *Y = s->Y, *tau = s->tau, *T = s->T;
    const double complex one = 1.0;

    for (int64_t L = first; L < qb->chunk_level[c + 1]; L++) {
        const startrd_q2_level_t *lv = &qb->levels[L];

        for (int64_t m = 0; m < lv->count; m++) {
            int64_t off = (lv->g0 + m - qb->levels[first].g0) * h * b;
            int64_t k = gather_group(qb, hous, lv->S + m, lv->j + 2 * m, V + off, tau);
            lapack_int info = LAPACKE_zlarft_work(LAPACK_COL_MAJOR, 'F', 'C', (lapack_int)h, (lapack_int)k,
                                                  V + off, (lapack_int)h, tau, T, (lapack_int)b);

            if (info != 0) {
                startrd_kernel_failure("apply_q2_blocks", "LAPACKE_zlarft_work", info);
                return -1;
            }
            memcpy(Y + off, V + off, (size_t)(h * b) * sizeof *Y);
            cblas_ztrmm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)h, (int)k,
                        STARTRD_Z_CBLAS(one), T, (int)b, Y + off, (int)h);
        }
    }
    return 0;
}

static void apply_q2_blocks_cpu(void *buffers[], void *cl_arg)
{
    const struct apply_q2_blocks_args *a = cl_arg;
    const startrd_q2_blocks_t *qb = a->qb;
    const int h = (int)qb->h, b = (int)qb->b;
    double complex *c = (double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const double complex *hous = (const double complex *)STARPU_VECTOR_GET_PTR(buffers[1]);
    const struct chunk_scratch s = chunk_scratch(qb, (void *)STARPU_VECTOR_GET_PTR(buffers[3]));
    const int64_t n = STARPU_MATRIX_GET_NX(buffers[0]);
    const int ldc = (int)STARPU_MATRIX_GET_LD(buffers[0]), cols = (int)STARPU_MATRIX_GET_NY(buffers[0]);
    double complex *w = malloc((size_t)b * (size_t)cols * sizeof *w);
    const double complex one = 1.0, zero = 0.0, mone = -1.0;

    if (w == NULL) {
        startrd_kernel_failure("apply_q2_blocks", "malloc", ENOMEM);
        return;
    }
    for (int64_t ci = 0; ci < qb->nchunks; ci++) {
        int64_t ch = chunk_in_order(qb, a->trans, ci), nl = qb->chunk_level[ch + 1] - qb->chunk_level[ch];

        if (!chunk_acts(a, ch))
            continue;
        if (build_chunk_cpu(qb, ch, hous, &s) != 0)
            break;
        for (int64_t i = 0; i < nl; i++) {
            int64_t L = level_in_order(qb, a->trans, ch, i);
            const startrd_q2_level_t *lv = &qb->levels[L];
            const void *first, *second;

            level_operands(qb, &s, a->trans, ch, L, &first, &second);
            for (int64_t m = 0; m < acting_members(a, lv); m++) {
                int64_t row = startrd_q2_member_row(qb, lv, m), c1 = member_first_column(a, lv, m);
                /* V and Y are zero past row n. */
                int rows = (int)(n - row < h ? n - row : h), width = cols - (int)c1;
                double complex *cm = c + row + c1 * ldc;

                cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, b, width, rows, STARTRD_Z_CBLAS(one),
                            (const double complex *)first + m * h * b, h, cm, ldc, STARTRD_Z_CBLAS(zero), w, b);
                cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, rows, width, b, STARTRD_Z_CBLAS(mone),
                            (const double complex *)second + m * h * b, h, w, b, STARTRD_Z_CBLAS(one), cm, ldc);
            }
        }
    }
    free(w);
}

#ifdef STARTRD_USE_CUDA
/* The chunk's groups into the scratch: V, tau and T, then Y = V T, or
 * with @p fused_entries > 0 the fused kernel's operands for @p trans. */
static long build_chunk_cuda(const startrd_q2_blocks_t *qb, int64_t c, const cuDoubleComplex *hous,
                             const int64_t *table, const struct chunk_scratch *s, int64_t fused_entries, char trans,
                             cublasHandle_t blas, cudaStream_t stream)
{
    const startrd_bulge_plan_t *p = &qb->plan;
    const int64_t h = qb->h, b = qb->b, first = qb->chunk_level[c], hb = h * b;
    const int64_t groups = startrd_q2_chunk_groups(qb, c);
    cuDoubleComplex *V = s->V, *Y = s->Y, *tau = s->tau, *T = s->T;
    const cuDoubleComplex one = STARTRD_Z_ONE, zero = STARTRD_Z_ZERO;
    long st;

    for (int64_t L = first; L < qb->chunk_level[c + 1]; L++) {
        const startrd_q2_level_t *lv = &qb->levels[L];
        const int64_t g = lv->g0 - qb->levels[first].g0;

        if ((st = startrd_cuda_zq2_gather(p->n, p->kd, p->nsweeps, p->nrefl, table, hous, b, h, lv->S, lv->j,
                                          lv->count, V + g * hb, tau + g * b, stream)) != cudaSuccess) {
            startrd_kernel_failure("apply_q2_blocks", "zq2_gather kernel", st);
            return st;
        }
    }
    if ((st = cublasZgemmStridedBatched(blas, CUBLAS_OP_C, CUBLAS_OP_N, (int)b, (int)b, (int)h, &one, V, (int)h, hb,
                                        V, (int)h, hb, &zero, T, (int)b, b * b, (int)groups)) !=
        CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure("apply_q2_blocks", "cublasZgemmStridedBatched (Gram)", st);
        return st;
    }
    if ((st = startrd_cuda_zlarft_gram(b, groups, tau, b, T, b, b * b, stream)) != cudaSuccess) {
        startrd_kernel_failure("apply_q2_blocks", "zlarft_gram kernel", st);
        return st;
    }
    if (fused_entries > 0) {
        if ((st = startrd_cuda_zq2_fragments(V, T, groups, trans == 'N', Y, stream)) != cudaSuccess)
            startrd_kernel_failure("apply_q2_blocks", "zq2_fragments kernel", st);
        return st;
    }
    if ((st = cublasZgemmStridedBatched(blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)h, (int)b, (int)b, &one, V, (int)h, hb,
                                        T, (int)b, b * b, &zero, Y, (int)h, hb, (int)groups)) !=
        CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure("apply_q2_blocks", "cublasZgemmStridedBatched (V T)", st);
        return st;
    }
    return 0;
}

/* The members from @p m0 on that a GPU batch takes together: those whose
 * first column is at most a sixteenth of the block's columns past m0's. */
static int64_t batch_end(const struct apply_q2_blocks_args *a, const startrd_q2_level_t *lv, int64_t m0,
                         int64_t count, int64_t cols)
{
    const int64_t first = member_first_column(a, lv, m0), slack = cols / 16;
    int64_t m = m0 + 1;

    while (m < count && member_first_column(a, lv, m) - first <= slack)
        m++;
    return m;
}

/* The chains S < @p nS_acting (q2_blocks.h: groups (S, j), j = 0, 1, ...)
 * with groups at the level numbers lo .. hi-1: *S_lo .. *S_hi-1, an empty
 * range if none.  Group (S, j) exists for j below the count of sweep S b's
 * reflectors, and its level number is j + 2 (nS-1-S): whether a chain has
 * one in the range falls with S at one end and rises at the other, so
 * those that do are consecutive. */
static void chunk_chains(const startrd_q2_blocks_t *qb, int64_t nS_acting, int64_t lo, int64_t hi, int64_t *S_lo,
                         int64_t *S_hi)
{
    *S_lo = *S_hi = 0;
    for (int64_t S = 0; S < nS_acting; S++) {
        const int64_t shift = 2 * (qb->nS - 1 - S), count = qb->table[2 * S * qb->b + 1];

        if ((lo - shift > 0 ? lo - shift : 0) < (count < hi - shift ? count : hi - shift)) {
            if (*S_hi == 0)
                *S_lo = S;
            *S_hi = S + 1;
        }
    }
}

static void apply_q2_blocks_cuda(void *buffers[], void *cl_arg)
{
    const struct apply_q2_blocks_args *a = cl_arg;
    const startrd_q2_blocks_t *qb = a->qb;
    const int h = (int)qb->h, b = (int)qb->b;
    const long long stride = (long long)(qb->b + 2 * qb->plan.kd), hb = (long long)h * b;
    cuDoubleComplex *c = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const cuDoubleComplex *hous = (const cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[1]);
    const int64_t *table = (const int64_t *)STARPU_VECTOR_GET_PTR(buffers[2]);
    const struct chunk_scratch s = chunk_scratch(qb, (void *)STARPU_VECTOR_GET_PTR(buffers[3]));
    const int64_t n = STARPU_MATRIX_GET_NX(buffers[0]), ldc = STARPU_MATRIX_GET_LD(buffers[0]);
    const int cols = (int)STARPU_MATRIX_GET_NY(buffers[0]), ldp = (int)(n + h);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cublasHandle_t blas = starpu_cublas_get_local_handle();
    const cuDoubleComplex one = STARTRD_Z_ONE, zero = STARTRD_Z_ZERO, mone = STARTRD_Z_MONE;
    const int64_t fused = startrd_cuda_zq2_fragment_entries(qb->plan.kd, qb->h, qb->b);
    cuDoubleComplex *pad = NULL, *w;
    void *sync;
    /* W = V^H C of a level's members, which the fused kernel keeps on chip;
     * it needs the memory its blocks order themselves through instead. */
    const size_t w_rows = fused > 0 ? 0 : (size_t)qb->maxcount * (size_t)b,
                 bytes = ((size_t)ldp + w_rows) * (size_t)cols * sizeof *pad,
                 sync_bytes = fused > 0 ? startrd_cuda_q2_chains_sync_bytes(a->nS_acting, cols) : 0;
    long st;

    if ((st = cudaMallocAsync((void **)&pad, bytes + sync_bytes, stream)) != cudaSuccess) {
        startrd_kernel_failure("apply_q2_blocks", "cudaMallocAsync", st);
        return;
    }
    w = pad + (size_t)ldp * (size_t)cols;
    sync = (char *)pad + bytes;
    if ((st = cudaMemcpy2DAsync(pad, (size_t)ldp * sizeof *pad, c, (size_t)ldc * sizeof *c, (size_t)n * sizeof *c,
                                (size_t)cols, cudaMemcpyDeviceToDevice, stream)) != cudaSuccess ||
        (st = cudaMemset2DAsync(pad + n, (size_t)ldp * sizeof *pad, 0, (size_t)h * sizeof *pad, (size_t)cols,
                                stream)) != cudaSuccess) {
        startrd_kernel_failure("apply_q2_blocks", "padded copy of C", st);
        goto out;
    }
    for (int64_t ci = 0; ci < qb->nchunks; ci++) {
        int64_t ch = chunk_in_order(qb, a->trans, ci), nl = qb->chunk_level[ch + 1] - qb->chunk_level[ch];

        if (!chunk_acts(a, ch))
            continue;
        if (build_chunk_cuda(qb, ch, hous, table, &s, fused, a->trans, blas, stream) != 0)
            goto out;
        if (fused > 0) { /* the whole chunk in one launch */
            const startrd_q2_level_t *first = &qb->levels[qb->chunk_level[ch]],
                                     *last = &qb->levels[qb->chunk_level[ch + 1] - 1];
            const int64_t lo = startrd_q2_level_number(qb, first->S, first->j),
                          hi = startrd_q2_level_number(qb, last->S, last->j) + 1;
            int64_t S_lo, S_hi;

            chunk_chains(qb, a->nS_acting, lo, hi, &S_lo, &S_hi);
            if ((st = startrd_cuda_zq2_chains_apply(pad, ldp, cols, s.Y, first->g0, table, qb->plan.nsweeps, qb->nS,
                                                     S_lo, S_hi, lo, hi, a->identity_col0, a->trans == 'N', sync,
                                                     stream)) != cudaSuccess) {
                startrd_kernel_failure("apply_q2_blocks", "zq2_chains_apply kernel", st);
                goto out;
            }
            continue;
        }
        for (int64_t i = 0; i < nl; i++) {
            int64_t L = level_in_order(qb, a->trans, ch, i);
            const startrd_q2_level_t *lv = &qb->levels[L];
            const int64_t count = acting_members(a, lv);
            const void *level_first, *level_second;

            level_operands(qb, &s, a->trans, ch, L, &level_first, &level_second);
            const cuDoubleComplex *first = level_first, *second = level_second;

            for (int64_t m0 = 0, m1; m0 < count; m0 = m1) {
                const int64_t c1 = member_first_column(a, lv, m0);
                cuDoubleComplex *rows = pad + startrd_q2_member_row(qb, lv, m0) + c1 * ldp;
                const int width = cols - (int)c1;

                m1 = batch_end(a, lv, m0, count, cols);
                if ((st = cublasZgemmStridedBatched(blas, CUBLAS_OP_C, CUBLAS_OP_N, b, width, h, &one, first + m0 * hb,
                                                    h, hb, rows, ldp, stride, &zero, w, b, (long long)b * cols,
                                                    (int)(m1 - m0))) != CUBLAS_STATUS_SUCCESS ||
                    (st = cublasZgemmStridedBatched(blas, CUBLAS_OP_N, CUBLAS_OP_N, h, width, b, &mone,
                                                    second + m0 * hb, h, hb, w, b, (long long)b * cols, &one, rows,
                                                    ldp, stride, (int)(m1 - m0))) != CUBLAS_STATUS_SUCCESS) {
                    startrd_kernel_failure("apply_q2_blocks", "cublasZgemmStridedBatched", st);
                    goto out;
                }
            }
        }
    }
    if ((st = cudaMemcpy2DAsync(c, (size_t)ldc * sizeof *c, pad, (size_t)ldp * sizeof *pad, (size_t)n * sizeof *c,
                                (size_t)cols, cudaMemcpyDeviceToDevice, stream)) != cudaSuccess)
        startrd_kernel_failure("apply_q2_blocks", "cudaMemcpy2DAsync", st);
out:
    if ((st = cudaFreeAsync(pad, stream)) != cudaSuccess)
        startrd_kernel_failure("apply_q2_blocks", "cudaFreeAsync", st);
}
#endif

STARTRD_HISTORY_MODEL(apply_q2_blocks_model, "startrd_zapply_q2_blocks");

static struct starpu_codelet apply_q2_blocks_codelet = {
    .name = "zapply_q2_blocks",
    .cpu_funcs = {apply_q2_blocks_cpu},
    STARTRD_CUDA_ASYNC(apply_q2_blocks_cuda)
    .nbuffers = 4,
    .modes = {STARPU_RW, STARPU_R, STARPU_R, STARPU_SCRATCH},
    .model = &apply_q2_blocks_model,
};

int startrd_task_zapply_q2_blocks(unsigned long long where, int worker, const startrd_q2_blocks_t *qb, char trans,
                                  int64_t identity_col0, starpu_data_handle_t hous, starpu_data_handle_t table,
                                  starpu_data_handle_t scratch, starpu_data_handle_t C)
{
    struct apply_q2_blocks_args *args = malloc(sizeof *args);
    double groups = (double)qb->ngroups, h = (double)qb->h, b = (double)qb->b;
    /* Sweeps from the block's last column on leave it as it is. */
    const int64_t idle_from_sweep =
        identity_col0 < 0 ? qb->plan.nsweeps : identity_col0 + (int64_t)starpu_matrix_get_ny(C) - 1;

    if (args == NULL)
        return -ENOMEM;
    *args = (struct apply_q2_blocks_args){qb, trans, startrd_q2_groups_before(qb, idle_from_sweep), identity_col0};
    return starpu_task_insert(&apply_q2_blocks_codelet,
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_RW, C, STARPU_R, hous, STARPU_R, table, STARPU_SCRATCH, scratch,
                              STARPU_EXECUTE_WHERE, where, STARPU_EXECUTE_ON_WORKER, worker,
                              /* per group: two GEMMs of h x b x cols, and the build's ZLARFT and ZTRMM of
                                 h b^2 complex multiply-adds each */
                              STARPU_FLOPS, groups * 16.0 * h * b * ((double)starpu_matrix_get_ny(C) + b),
                              0);
}
