/* The back-transformation by Q2 alone, reflector by reflector and in the
 * blocks of q2_blocks.h (built in one chunk, and one chunk per level),
 * against Q2 formed explicitly from HOUS2, for
 * bandwidths from 1 up, odd and even, and orders that leave partial groups
 * at the end of the band.  Q1 is the identity here: tau = 0.  Also Q formed
 * by tasks on blocks of the identity (skipping the sweeps that leave them
 * alone) and multiplied into a real Z, on the CPU workers and on each GPU's
 * first worker; and Q1 Q2 of a whole reduction formed so, against it applied
 * to Z, for both triangles.  The bounds are in units of the precision's eps.
 *
 * @precisions normal z -> s d c
 */
#include "zapply_q.h"
#include "bulge_plan.h"
#include "q2_blocks.h"
#include "context.h"
#include "descriptor.h"
#include "scalars.h"
#include "startrd.h"
#include "stage2_zhb2st.h"
#include "testing.h"
#include "testing_context.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *method_name(startrd_q2_method_t method)
{
    return method == STARTRD_Q2_BLOCKS ? "blocks" : "reflectors";
}

/* The reflectors of a random band's chase (HOUS2) and Q2 formed from them
 * explicitly; Q2 is NULL where something failed. */
struct q2_fixture {
    startrd_bulge_plan_t plan;
    double complex *hous, *Q2;
};

static struct q2_fixture q2_fixture(int64_t n, int64_t kd, uint64_t seed)
{
    const int64_t ldab = 2 * kd + 1;
    struct q2_fixture f = {0};
    double complex *A = malloc((size_t)(n * n) * sizeof *A), *AB = calloc((size_t)(ldab * n), sizeof *AB);
    double *d = malloc((size_t)n * sizeof *d), *e = malloc((size_t)n * sizeof *e);
    int ok = startrd_bulge_plan_init(&f.plan, 'V', n, kd) == 0 && A != NULL && AB != NULL && d != NULL && e != NULL;

    if (ok) {
        f.hous = calloc((size_t)startrd_bulge_lhous(&f.plan), sizeof *f.hous);
        f.Q2 = malloc((size_t)(n * n) * sizeof *f.Q2);
        ok = f.hous != NULL && f.Q2 != NULL && tst_zgen(TST_KIND_RANDOM, n, A, n, seed) == 0;
    }
    if (ok) {
        startrd_stage2_zband_from_dense('L', n, kd, A, n, AB, ldab);
        ok = startrd_stage2_zhb2st('V', 'L', n, kd, AB, ldab, d, e, f.hous, NULL, 0, NULL) == 0 &&
             tst_zform_q2(n, kd, f.hous, f.Q2, n, NULL) == 0;
    }
    if (!ok) {
        free(f.Q2);
        f.Q2 = NULL;
    }
    free(A);
    free(AB);
    free(d);
    free(e);
    return f;
}

static void q2_fixture_free(struct q2_fixture *f)
{
    free(f->hous);
    free(f->Q2);
}

static void q2_case(int64_t n, int64_t kd, int64_t m, char trans, startrd_q2_method_t method, size_t chunk_bytes,
                    uint64_t seed)
{
    struct q2_fixture f = q2_fixture(n, kd, seed);
    double complex *C = malloc((size_t)(n * n) * sizeof *C), *C0 = malloc((size_t)(n * m) * sizeof *C0),
                   *zeros = calloc((size_t)(n * n), sizeof *zeros);
    double err = NAN;
    int info = -1;

    /* C: the first m <= n columns of a random matrix. */
    if (f.Q2 != NULL && C != NULL && C0 != NULL && zeros != NULL && tst_zgen(TST_KIND_RANDOM, n, C, n, seed + 1) == 0) {
        memcpy(C0, C, (size_t)(n * m) * sizeof *C);
        info = startrd_zapply_q(trans, 'L', n, m, kd, zeros, n, STARPU_MAIN_RAM, zeros, f.hous, NULL, C, n,
                                STARPU_MAIN_RAM, method, chunk_bytes);
    }
    if (info == 0) {
        const double complex one = 1.0, mone = -1.0;

        cblas_zgemm(CblasColMajor, trans == 'N' ? CblasNoTrans : CblasConjTrans, CblasNoTrans, (int)n, (int)m,
                    (int)n, STARTRD_Z_CBLAS(mone), f.Q2, (int)n, C0, (int)n, STARTRD_Z_CBLAS(one), C, (int)n);
        err = tst_zfrobenius(n, m, C, n) / (tst_max_nan(tst_zfrobenius(n, m, C0, n), DBL_MIN) * (double)n * tst_zeps());
    }
    const char *chunks = chunk_bytes == 1 ? " (a chunk per level)" : chunk_bytes > 1 ? " (chunks of a few levels)" : "";

    tst_check(info == 0 && err < 30.0,
              "Q2 %s%s trans=%c n=%lld kd=%lld m=%lld: info %d, ||C - op(Q2) C0|| / (n eps ||C0||) %.3g",
              method_name(method), chunks, trans, (long long)n, (long long)kd, (long long)m, info, err);
    q2_fixture_free(&f);
    free(C);
    free(C0);
    free(zeros);
}

/* The GPU's chain kernel finds group (S, j) through qb->table: at its
 * level number, the level's first group and topmost member's S.  Checked
 * here for every group of every chain, against the levels themselves. */
static void table_case(int64_t n, int64_t kd)
{
    startrd_bulge_plan_t plan;
    startrd_q2_blocks_t qb;
    int64_t found = 0, wrong = 0;

    if (startrd_bulge_plan_init(&plan, 'V', n, kd) != 0 || plan.nsweeps == 0 ||
        startrd_q2_blocks_init(&qb, &plan, 0, sizeof(double complex)) != 0) {
        tst_check(0, "Q2 table n=%lld kd=%lld: plan failed", (long long)n, (long long)kd);
        return;
    }
    for (int64_t i = 0; i < qb.nlevels; i++) {
        const startrd_q2_level_t *lv = &qb.levels[i];

        for (int64_t m = 0; m < lv->count; m++) {
            const int64_t S = lv->S + m, j = lv->j + 2 * m,
                          at = 2 * (plan.nsweeps + startrd_q2_level_number(&qb, S, j));

            found++;
            if (j >= qb.table[2 * S * qb.b + 1] || qb.table[at] + S - qb.table[at + 1] != lv->g0 + m)
                wrong++;
        }
    }
    /* Every (S, j) with j below its first sweep's count is a group. */
    for (int64_t S = 0; S < qb.nS; S++)
        found -= qb.table[2 * S * qb.b + 1];
    tst_check(wrong == 0 && found == 0,
              "Q2 table n=%lld kd=%lld: %lld groups found through it at another index, %lld groups not counted",
              (long long)n, (long long)kd, (long long)wrong, (long long)found);
    startrd_q2_blocks_free(&qb);
}

/* R = Q Z through startrd_zform_q_begin() and _end(), against the explicit
 * Q2 times Z (widened to complex), Z real random. */
static void form_case(int64_t n, int64_t kd, int64_t m, const int *workers, int nworkers, uint64_t seed)
{
    struct q2_fixture f = q2_fixture(n, kd, seed);
    startrd_zq_former_t *former = NULL;
    double complex *Zc = malloc((size_t)(n * n) * sizeof *Zc), *R = malloc((size_t)(n * m) * sizeof *R),
                   *R0 = malloc((size_t)(n * m) * sizeof *R0), *zeros = calloc((size_t)(n * n), sizeof *zeros);
    double *Z = malloc((size_t)(n * m) * sizeof *Z), err = NAN;
    int info = -1;

    if (f.Q2 != NULL && Zc != NULL && R != NULL && R0 != NULL && zeros != NULL && Z != NULL &&
        tst_zgen(TST_KIND_RANDOM, n, Zc, n, seed + 1) == 0) {
        /* Z: the real parts of the first m columns of a random matrix. */
        for (int64_t i = 0; i < n * m; i++)
            Zc[i] = Z[i] = creal(Zc[i]);
        info = startrd_zform_q_begin('L', n, kd, zeros, n, STARPU_MAIN_RAM, zeros, f.hous, NULL, workers, nworkers, 0,
                                     &former);
    }
    if (info == 0 && former == NULL)
        info = -2;
    if (info == 0)
        info = startrd_zform_q_end(former, m, Z, n, NULL, R, n, STARPU_MAIN_RAM);
    if (info == 0) {
        const double complex one = 1.0, zero = 0.0;

        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)m, (int)n, STARTRD_Z_CBLAS(one), f.Q2,
                    (int)n, Zc, (int)n, STARTRD_Z_CBLAS(zero), R0, (int)n);
        for (int64_t i = 0; i < n * m; i++)
            R[i] -= R0[i];
        err = tst_zfrobenius(n, m, R, n) / (tst_max_nan(tst_zfrobenius(n, m, Zc, n), DBL_MIN) * (double)n * tst_zeps());
    }
    tst_check(info == 0 && err < 30.0,
              "Q2 formed on %s, times a real Z, n=%lld kd=%lld m=%lld: info %d, ||R - Q2 Z|| / (n eps ||Z||) %.3g",
              workers != NULL ? "the GPUs" : "the CPU workers", (long long)n, (long long)kd, (long long)m, info,
              err);
    q2_fixture_free(&f);
    free(Zc);
    free(R);
    free(R0);
    free(zeros);
    free(Z);
}

/* Q of zhetrd_2stage_mgpu('V', uplo) formed and multiplied into a real Z
 * (n x m), against Q applied to Z widened to complex: the stage-1
 * reflectors as well, in place (uplo 'L') or through their lower copy
 * ('U'), with A's leading dimension past n. */
static void reduction_case(startrd_context_t *ctx, char uplo, int64_t n, int64_t m, const int *workers,
                           int nworkers, uint64_t seed)
{
    const int64_t lda = n + 3, kd = startrd_context_bandwidth(ctx, n, ctx->ncuda, 'V');
    double complex *A = malloc((size_t)(lda * n) * sizeof *A), *tau = malloc((size_t)n * sizeof *tau),
                   *C = malloc((size_t)(n * m) * sizeof *C), *R = malloc((size_t)(n * m) * sizeof *R), query;
    double *d = malloc((size_t)n * sizeof *d), *e = malloc((size_t)n * sizeof *e),
           *Z = malloc((size_t)(n * m) * sizeof *Z), err = NAN;
    double complex *hous2 = NULL;
    startrd_zq_former_t *former = NULL;
    starpu_data_handle_t *blocks = NULL;
    int info = -1;

    if (A != NULL && tau != NULL && C != NULL && R != NULL && d != NULL && e != NULL && Z != NULL &&
        tst_zgen(TST_KIND_RANDOM, n, A, lda, seed) == 0 &&
        zhetrd_2stage_mgpu('V', uplo, (int)n, A, (int)lda, d, e, tau, &query, -1, NULL, 0, -1) == 0 &&
        (hous2 = malloc((size_t)creal(query) * sizeof *hous2)) != NULL)
        info = zhetrd_2stage_mgpu('V', uplo, (int)n, A, (int)lda, d, e, tau, hous2, (int)creal(query), NULL, 0, -1);
    if (info == 0) {
        uint64_t state = seed;

        for (int64_t i = 0; i < n * m; i++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            C[i] = Z[i] = (double)(state >> 11) * 0x1.0p-53 - 0.5;
        }
        info = startrd_zapply_q('N', uplo, n, m, kd, A, lda, STARPU_MAIN_RAM, tau, hous2, NULL, C, n, STARPU_MAIN_RAM,
                                STARTRD_Q2_AUTO, 0);
    }
    if (info == 0)
        info = startrd_zform_q_begin(uplo, n, kd, A, lda, STARPU_MAIN_RAM, tau, hous2, NULL, workers, nworkers, 0,
                                     &former);
    if (info == 0 && former == NULL)
        info = -2;
    /* For 'U', Z comes as the products' blocks, registered here. */
    if (info == 0 && uplo == 'U') {
        const int64_t width = startrd_zform_q_block_columns(former, m), nblocks = (m + width - 1) / width;

        if ((blocks = calloc((size_t)nblocks, sizeof *blocks)) == NULL)
            info = -3;
        for (int64_t b = 0; info == 0 && b < nblocks; b++)
            startrd_matrix_register(&blocks[b], STARPU_MAIN_RAM, (uintptr_t)(Z + b * width * n), n, n,
                                    m - b * width < width ? m - b * width : width, sizeof *Z);
        if (info == 0)
            info = startrd_zform_q_end(former, m, NULL, 0, blocks, R, n, STARPU_MAIN_RAM);
        for (int64_t b = 0; blocks != NULL && b < nblocks; b++)
            starpu_data_unregister(blocks[b]);
    } else if (info == 0) {
        info = startrd_zform_q_end(former, m, Z, n, NULL, R, n, STARPU_MAIN_RAM);
    }
    if (info == 0) {
        for (int64_t i = 0; i < n * m; i++)
            R[i] -= C[i];
        err = tst_zfrobenius(n, m, R, n) / (tst_max_nan(tst_zfrobenius(n, m, C, n), DBL_MIN) * (double)n * tst_zeps());
    }
    tst_check(info == 0 && err < 30.0,
              "Q of a reduction, uplo=%c n=%lld m=%lld, formed on %s, Z %s: info %d, ||Q Z (formed) - Q Z (applied)|| / "
              "(n eps ||Q Z||) %.3g",
              uplo, (long long)n, (long long)m, workers != NULL ? "the GPUs" : "the CPU workers",
              uplo == 'U' ? "in blocks" : "an array", info, err);
    free(A);
    free(tau);
    free(C);
    free(R);
    free(d);
    free(e);
    free(Z);
    free(hous2);
    free(blocks);
}

int main(void)
{
    static const int64_t kds[] = {1, 2, 3, 4, 7, 16, 33, 64};
    static const int64_t ns[] = {2, 5, 50, 131, 300};
    startrd_context_t *ctx = tst_open_context();
    uint64_t seed = 1;

    if (ctx == NULL)
        return tst_summary();
    for (size_t k = 0; k < sizeof kds / sizeof kds[0]; k++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            /* One column, or several blocks' worth where n allows. */
            int64_t m = i % 2 == 0 ? 1 : ns[i] < 37 ? ns[i] : 37;

            for (int t = 0; t < 2 && kds[k] < ns[i]; t++) {
                q2_case(ns[i], kds[k], m, t ? 'C' : 'N', STARTRD_Q2_REFLECTORS, 0, seed);
                q2_case(ns[i], kds[k], m, t ? 'C' : 'N', STARTRD_Q2_BLOCKS, 0, seed);
                /* The groups built and applied one level at a time. */
                q2_case(ns[i], kds[k], m, t ? 'C' : 'N', STARTRD_Q2_BLOCKS, 1, seed++);
            }
            if (kds[k] < ns[i]) {
                form_case(ns[i], kds[k], m, NULL, 0, seed);
                if (ctx->ncuda > 0)
                    form_case(ns[i], kds[k], m, ctx->cuda_worker, ctx->ncuda, seed);
                seed++;
            }
        }
    for (size_t k = 0; k < sizeof kds / sizeof kds[0]; k++)
        table_case(1000, kds[k]);
    table_case(5000, 64);
    /* kd = 64 on GPUs: Q2's chains by the fused kernel where it exists, on
     * more than one tile of columns, the groups in one chunk, in chunks of
     * one level, and in chunks of a few levels (20 groups' scratch each). */
    if (ctx->ncuda > 0)
        for (int t = 0; t < 2; t++) {
            const size_t few_levels = 20 * (size_t)startrd_q2_group_scratch_entries(128, 64) * sizeof(double complex);

            q2_case(1000, 64, 300, t ? 'C' : 'N', STARTRD_Q2_BLOCKS, 0, seed++);
            q2_case(1000, 64, 300, t ? 'C' : 'N', STARTRD_Q2_BLOCKS, 1, seed++);
            q2_case(1000, 64, 300, t ? 'C' : 'N', STARTRD_Q2_BLOCKS, few_levels, seed++);
        }
    /* Several blocks of Q, several of R, and the sweeps each block skips. */
    form_case(700, 16, 700, NULL, 0, seed);
    if (ctx->ncuda > 0) {
        form_case(1500, 32, 1500, ctx->cuda_worker, ctx->ncuda, seed);
        form_case(1500, 64, 1500, ctx->cuda_worker, ctx->ncuda, seed + 1);
    }
    for (int u = 0; u < 2; u++) {
        reduction_case(ctx, u ? 'U' : 'L', 700, 700, NULL, 0, seed + u);
        if (ctx->ncuda > 0)
            reduction_case(ctx, u ? 'U' : 'L', 1300, 1300, ctx->cuda_worker, ctx->ncuda, seed + u);
    }
    startrd_context_release();
    return tst_summary();
}
