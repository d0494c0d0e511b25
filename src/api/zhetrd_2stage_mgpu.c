/* The LAPACK-style entry point: argument checks in LAPACK's order, workspace
 * queries, then stage 1 on the GPUs and stage 2 on the first GPU or the host
 * cores.
 *
 * @precisions normal z -> s d c
 */
#include "startrd.h"

#include "bulge_plan.h"
#include "context.h"
#include "descriptor.h"
#include "error.h"
#include "stats.h"
#include "stage1_zhe2hb.h"
#include "stage1_zhetd2_fused.h"
#include "stage2_zhb2st.h"
#include "trace.h"
#include "tuning.h"
#include "user_memory.h"
#include "drivers_z.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int64_t hous2_size(char vect, int64_t n, int64_t kd)
{
    startrd_bulge_plan_t plan;

    startrd_bulge_plan_init(&plan, vect, n, kd);
    return startrd_bulge_lhous(&plan);
}

struct sizes {
    int64_t kd, lwmin, lhmin;
    int ngpu;  /* the reduction's GPUs */
};

/* LAPACK's order, except that the sizes of HOUS2 and WORK follow from ngpu
 * (the bandwidth does), so a wrong ngpu is reported before them. */
static int check_arguments(char vect, char uplo, int64_t n, const double complex *A, int64_t lda,
                           const double *d, const double *e, const double complex *tau,
                           const double complex *hous2, int64_t lhous2,
                           const double complex *work, int64_t lwork, int64_t ngpu,
                           const struct sizes *sz, int query)
{
    int ngpu_ok = ngpu <= sz->ngpu;

    if (vect != 'N' && vect != 'V')
        return -1;
    if (uplo != 'U' && uplo != 'L')
        return -2;
    if (n < 0)
        return -3;
    if (A == NULL && n > 0 && !query)
        return -4;
    if (lda < (n > 1 ? n : 1))
        return -5;
    if (d == NULL && n > 0 && !query)
        return -6;
    if (e == NULL && n > 1 && !query)
        return -7;
    if (tau == NULL && n > sz->kd && !query)
        return -8;
    if (hous2 == NULL && lhous2 != 0)
        return -9;
    if (ngpu_ok && !query && hous2 != NULL && lhous2 < sz->lhmin)
        return -10;
    if (work == NULL && lwork != 0)
        return -11;
    if (ngpu_ok && !query && work != NULL && lwork < sz->lwmin)
        return -12;
    if (!ngpu_ok)
        return -13;
    return 0;
}

/* The reduction's GPUs, bandwidth and workspace sizes in @p ctx (an open
 * context or a preview of one). */
static void size_up(struct sizes *sz, const startrd_context_t *ctx, char vect, int64_t n, int64_t ngpu)
{
    sz->ngpu = ctx->ncuda;
    sz->kd = startrd_context_bandwidth(ctx, n, ngpu < 0 || ngpu > sz->ngpu ? sz->ngpu : (int)ngpu, vect);
    sz->lwmin = (2 * sz->kd + 1) * (n > 1 ? n : 1);
    /* Past the largest order the sizes would overflow: none is enough. */
    sz->lhmin = n > STARTRD_ORDER_MAX                    ? INT64_MAX
                : (vect == 'N' || vect == 'V') && n >= 0 ? hous2_size(vect, n, sz->kd)
                                                         : 1;
}

/* A workspace size as the precision's real type holds it, rounded up where
 * that type cannot hold it exactly (LAPACK's DROUNDUP_LWORK): in single
 * precision a size rounded down would be too small. */
static double roundup_lwork(int64_t size)
{
    double r = (double)size;

    return (int64_t)r < size ? nextafter(r, INFINITY) : r;
}

/* Stage 1's distribution block where the dist_nb option is 0 (tuning.h). */
static int64_t default_dist_nb(int64_t n, int64_t kd, int ngpu)
{
    const startrd_tuning_t *t = startrd_tuning();
    int64_t per_block = kd > 0 && ngpu > 0 ? n / (kd * t->dist_blocks_per_gpu * ngpu) : 1;

    return kd * (per_block < 1 ? 1 : per_block > t->dist_max_nb_per_block ? t->dist_max_nb_per_block : per_block);
}

static int reduce(char vect, char uplo, int64_t n, double complex *A, int64_t lda, int a_devid, double *d,
                  double *e, double complex *tau, double complex *hous2, starpu_data_handle_t *hous2_on_gpu,
                  double complex *work, const startrd_context_t *ctx, const struct sizes *sz)
{
    double complex *hous = hous2, *band = work;
    int ngpu1 = startrd_context_stage1_gpus(ctx, n, sz->ngpu),
        ngpu2 = startrd_context_stage2_gpus(ctx, n, sz->kd, sz->ngpu), chased_on = 0;
    int64_t ldab = 2 * sz->kd + 1,
            dist_nb = ctx->opt.dist_nb > 0 ? ctx->opt.dist_nb : default_dist_nb(n, sz->kd, ngpu1);
    startrd_instant_t t0 = starpu_timing_now(), t1;
    startrd_allreduce_t scheme = startrd_context_allreduce(ctx);
    startrd_zhe2hb_t *s1 = NULL;
    startrd_zhb2st_chase_t *s2 = NULL;
    int ret = 0, stage1, stage2, out_of_core;

    /* Order 1 reads A on the host. */
    if (a_devid >= 0 && sz->kd == 0)
        return STARTRD_HOST_ONLY;
    /* A bandwidth clamped to n-1 may no longer divide the option's block. */
    if (sz->kd > 0 && dist_nb % sz->kd != 0)
        dist_nb = sz->kd;
    if (hous == NULL)
        hous = malloc((size_t)sz->lhmin * sizeof *hous);
    if (band == NULL)
        band = malloc((size_t)sz->lwmin * sizeof *band);
    if (hous == NULL || band == NULL) {
        startrd_error("zhetrd_2stage_mgpu: cannot allocate %lld bytes of workspace",
                      (long long)((sz->lhmin + sz->lwmin) * (int64_t)sizeof *band));
        ret = STARTRD_ERR_MEMORY;
        goto out;
    }
    startrd_trace_begin();
    /* Small orders without Q2: xHETD2 in one kernel, whose d and e are the
     * tridiagonal matrix's (bandwidth 1: stage 2 has nothing to do). */
    if (vect == 'N' && sz->kd == 1 && ngpu1 > 0 && startrd_stage1_zhetd2_fused_fits(n, ctx->cuda_worker[0])) {
        ret = startrd_stage1_zhetd2_fused(uplo, n, A, lda, a_devid, d, e, tau, ctx->cuda_worker[0],
                                          ctx->opt.check_finite);
        if (ret == 0)
            startrd_stats_record_reduction(&(startrd_stats_t){.stage1_seconds = (starpu_timing_now() - t0) * 1e-6,
                                                              .ngpu = sz->ngpu, .nb = 1, .allreduce = scheme,
                                                              .stage1_ngpu = 1});
        goto out;
    }
    if (sz->kd > 0) {
        ret = startrd_stage1_zhe2hb_submit(uplo, n, sz->kd, dist_nb, ngpu1, ctx->cuda_worker, ctx->cuda_side_worker,
                                           ngpu1 > 0 ? ctx->gpu_group : NULL, scheme, A, lda, a_devid, tau, band, ldab,
                                           ctx->opt.check_finite, &s1);
    } else if (ctx->opt.check_finite && !(isfinite(creal(A[0])) && isfinite(cimag(A[0])))) {
        startrd_error("the matrix holds NaN or Inf; A is left unchanged");
        ret = STARTRD_ERR_NONFINITE;
    }
    /* Pinning the band for the chase is slow: done while stage 1 runs, and
     * the chase submitted before stage 1 gives its memory and handles back
     * (docs/architecture.md, "The chase started before stage 1 gives its
     * memory back"). */
    if (ret == 0)
        ret = startrd_stage2_zhb2st_prepare(vect, uplo, n, sz->kd, band, ldab, d, e, hous, ctx->cuda_worker,
                                            ngpu2, hous2_on_gpu != NULL && hous == hous2, &s2);
    stage1 = startrd_stage1_zhe2hb_wait(s1);
    ret = ret != 0 ? ret : stage1;
    t1 = starpu_timing_now();
    out_of_core = startrd_stage1_zhe2hb_out_of_core(s1);
    /* Stage 1's copies back to A wrote the band too. */
    if (ret == 0 && sz->kd == 0)
        startrd_stage2_zband_from_dense(uplo, n, sz->kd, A, lda, band, ldab);
    if (ret == 0)
        ret = startrd_stage2_zhb2st_start(s2);
    startrd_stage1_zhe2hb_release(s1);
    stage2 = startrd_stage2_zhb2st_finish(s2, ret == 0, &chased_on, hous2_on_gpu);
    ret = ret != 0 ? ret : stage2;
    if (ret == 0)
        startrd_stats_record_reduction(&(startrd_stats_t){.stage1_seconds = (t1 - t0) * 1e-6,
                                                          .stage2_seconds = (starpu_timing_now() - t1) * 1e-6,
                                                          .ngpu = sz->ngpu, .nb = (int)sz->kd, .allreduce = scheme,
                                                          .stage1_ngpu = ngpu1, .stage2_ngpu = chased_on,
                                                          .stage1_out_of_core = out_of_core});
out:
    startrd_trace_end();
    if (hous != hous2)
        free(hous);
    if (band != work)
        free(band);
    return ret;
}

int startrd_zhetrd(const char *routine, char vect, char uplo, int64_t n, double _Complex *A, int64_t lda,
                   int a_devid, double *d, double *e, double _Complex *tau, double _Complex *hous2, int64_t lhous2,
                   starpu_data_handle_t *hous2_on_gpu, double _Complex *work, int64_t lwork, int64_t ngpu)
{
    static const char *const names[] = {"vect", "uplo", "n", "A", "lda", "d", "e", "tau",
                                        "hous2", "lhous2", "work", "lwork", "ngpu"};
    startrd_context_t *ctx, view;
    struct sizes sz;
    int query = lwork == -1 || lhous2 == -1, info;

    vect = (char)toupper((unsigned char)vect);
    uplo = (char)toupper((unsigned char)uplo);
    /* Arguments and queries are answered without opening a context. */
    startrd_context_preview(&view);
    size_up(&sz, &view, vect, n, ngpu);
    info = check_arguments(vect, uplo, n, A, lda, d, e, tau, hous2, lhous2, work, lwork, ngpu, &sz, query);
    if (info == 0 && n > STARTRD_ORDER_MAX) {
        startrd_error("%s: order %lld is above the largest the library takes, %d", routine, (long long)n,
                      STARTRD_ORDER_MAX);
        return STARTRD_ERR_SIZE;
    }
    if (info == 0 && query) {
        if (work != NULL)
            work[0] = roundup_lwork(sz.lwmin);
        if (hous2 != NULL)
            hous2[0] = roundup_lwork(sz.lhmin);
        return 0;
    }
    if (info == 0 && n == 0)
        return 0;
    if (info == 0 && vect == 'V' && !startrd_fits_handle(sz.lhmin)) {
        startrd_error("%s: with VECT = '%c', order %lld needs %lld reflector entries, more than the runtime's "
                      "32-bit data sizes describe", routine, vect, (long long)n, (long long)sz.lhmin);
        return STARTRD_ERR_SIZE;
    }
    if (info == 0 && (info = startrd_context_acquire(NULL, 1, &ctx)) != 0)
        return info;
    if (info == 0) {
        startrd_reduction_lock();
        /* Another thread may have opened the context since the preview. */
        size_up(&sz, ctx, vect, n, ngpu);
        info = check_arguments(vect, uplo, n, A, lda, d, e, tau, hous2, lhous2, work, lwork, ngpu, &sz, 0);
        if (info == 0) {
            if (ngpu >= 0)
                sz.ngpu = (int)ngpu;
            info = reduce(vect, uplo, n, A, lda, a_devid, d, e, tau, hous2, hous2_on_gpu, work, ctx, &sz);
            if (info == 0 && work != NULL)
                work[0] = roundup_lwork(sz.lwmin);
            if (info == 0 && hous2 != NULL && vect == 'N')
                hous2[0] = roundup_lwork(sz.lhmin);
        }
        startrd_reduction_unlock();
        startrd_context_release();
    }
    if (info < 0)
        startrd_error("%s: argument %d (%s) has an illegal value", routine, -info, names[-info - 1]);
    return info;
}

/* A in GPU memory, brought to the host where the reduction cannot take it
 * there: A's referenced triangle and the band come back on success. */
static int zhetrd_gpu(const char *routine, char vect, char uplo, int64_t n, double _Complex *A, int64_t lda,
                      double *d, double *e, double _Complex *tau, double _Complex *hous2, int64_t lhous2,
                      double _Complex *work, int64_t lwork, int64_t ngpu)
{
    const int devid = n > 0 && lhous2 != -1 && lwork != -1 ? startrd_user_device(A) : -1;
    double _Complex *host;
    int info = startrd_zhetrd(routine, vect, uplo, n, A, lda, devid, d, e, tau, hous2, lhous2, NULL, work, lwork, ngpu);

    if (info != STARTRD_HOST_ONLY)
        return info;
    info = 0;
    host = startrd_user_host_copy(routine, sizeof *host, n, n, A, lda, &info);
    if (info == 0)
        info = startrd_zhetrd(routine, vect, uplo, n, host, n, -1, d, e, tau, hous2, lhous2, NULL, work, lwork, ngpu);
    if (info == 0)
        info = startrd_user_copy(routine, sizeof *host, n, n, A, lda, host, n);
    free(host);
    return info;
}

int zhetrd_2stage_mgpu(char vect, char uplo, int n, double _Complex *A, int lda,
                       double *d, double *e, double _Complex *tau,
                       double _Complex *hous2, int lhous2,
                       double _Complex *work, int lwork, int ngpu)
{
    return startrd_zhetrd("zhetrd_2stage_mgpu", vect, uplo, n, A, lda, -1, d, e, tau, hous2, lhous2, NULL, work, lwork,
                          ngpu);
}

int zhetrd_2stage_mgpu_64(char vect, char uplo, int64_t n, double _Complex *A, int64_t lda,
                          double *d, double *e, double _Complex *tau,
                          double _Complex *hous2, int64_t lhous2,
                          double _Complex *work, int64_t lwork, int64_t ngpu)
{
    return startrd_zhetrd("zhetrd_2stage_mgpu_64", vect, uplo, n, A, lda, -1, d, e, tau, hous2, lhous2, NULL, work,
                          lwork, ngpu);
}

int zhetrd_2stage_mgpu_gpu(char vect, char uplo, int n, double _Complex *dA, int ldda, double *d, double *e,
                           double _Complex *tau, double _Complex *hous2, int lhous2, double _Complex *work, int lwork,
                           int ngpu)
{
    return zhetrd_gpu("zhetrd_2stage_mgpu_gpu", vect, uplo, n, dA, ldda, d, e, tau, hous2, lhous2, work, lwork, ngpu);
}

int zhetrd_2stage_mgpu_gpu_64(char vect, char uplo, int64_t n, double _Complex *dA, int64_t ldda, double *d,
                              double *e, double _Complex *tau, double _Complex *hous2, int64_t lhous2,
                              double _Complex *work, int64_t lwork, int64_t ngpu)
{
    return zhetrd_gpu("zhetrd_2stage_mgpu_gpu_64", vect, uplo, n, dA, ldda, d, e, tau, hous2, lhous2, work, lwork,
                      ngpu);
}
