/* The generalized Hermitian-definite eigenproblem: B's Cholesky factor,
 * the reduction to the standard problem and the eigenvectors'
 * back-substitution as tile tasks (zhegst_tiles.h), the standard problem
 * by the library's own drivers in between.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "startrd.h"

#include "arguments.h"
#include "drivers_z.h"
#include "context.h"
#include "descriptor.h"
#include "error.h"
#include "stats.h"
#include "trace.h"
#include "user_memory.h"
#include "zhegst_tiles.h"
#include "ztriangle_finite.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Tiles large enough for the GPUs' GEMMs to run near their peak, small
 * enough that a few of them per GPU keep every GPU busy; on the host
 * cores, the size where BLAS is near its peak on one core. */
static int64_t tile_size(int64_t n, int gpus)
{
    if (gpus == 0)
        return 256;
    return n >= 8192 ? 1024 : 512;
}

/* Where the caller's arrays are: host memory, or a GPU's (-1: host). */
struct devices {
    int a, b, z;
};

/* B's tiles := its Cholesky factor (fact 'N', the factor also copied back
 * to B), or B's factor as given; W := C, into A's triangle.  A is written
 * only once B is known to be positive definite.  With @p scan, A and B
 * (in GPU memory, which the host does not read) are checked for NaN and
 * Inf in their tiles before anything is written. */
static int to_standard(int64_t itype, char uplo, char fact, double _Complex *A, int64_t lda, double _Complex *B,
                       int64_t ldb, const struct devices *dev, int scan, const startrd_desc_t *Bt,
                       const startrd_desc_t *W, const startrd_tile_workers_t *workers)
{
    startrd_tile_run_t run = {0, workers};
    startrd_minor_t failed = 0;
    atomic_int nonfinite;
    int info;

    atomic_init(&nonfinite, 0);
    startrd_ztiles_upload(&run, uplo, 0, B, ldb, dev->b, Bt);
    startrd_ztiles_upload(&run, uplo, 1, A, lda, dev->a, W);
    if (scan) {
        startrd_ztiles_finite(&run, uplo, 1, W, &nonfinite);
        if (fact == 'N')
            startrd_ztiles_finite(&run, uplo, 0, Bt, &nonfinite);
        if ((info = startrd_tile_run_wait(&run, "copies of A and B")) != 0)
            return info;
        if (atomic_load(&nonfinite)) {
            startrd_error("A or B holds NaN or Inf; A and B are left unchanged");
            return STARTRD_ERR_NONFINITE;
        }
    }
    if (fact == 'N') {
        startrd_zpotrf_tiles(&run, uplo, Bt, &failed);
        startrd_ztiles_download(&run, uplo, 0, Bt, B, ldb, dev->b);
    }
    if ((info = startrd_tile_run_wait(&run, "Cholesky factorisation of B")) != 0)
        return info;
    if (atomic_load(&failed) != 0) {
        startrd_error("B is not positive definite: its leading minor of order %lld is not",
                      (long long)atomic_load(&failed));
        return STARTRD_ERR_NOT_DEFINITE;
    }
    startrd_zhegst_tiles(&run, (int)itype, uplo, W, Bt);
    startrd_ztiles_download(&run, uplo, 1, W, A, lda, dev->a);
    return startrd_tile_run_wait(&run, "reduction to the standard problem");
}

/* Y (n x cols) := the generalized problem's eigenvectors from the standard one's. */
static int back_substitute(int64_t itype, char uplo, int64_t n, const startrd_desc_t *Bt, double _Complex *Y,
                           int64_t ldy, int y_devid, int64_t cols, const startrd_tile_workers_t *workers)
{
    startrd_tile_run_t run = {0, workers};
    startrd_desc_t Yt;
    int info = startrd_desc_init_workspace(&Yt, "eigenvectors", sizeof *Y, n, cols, Bt->nb, Bt->nb);

    if (info == 0) {
        startrd_ztiles_upload(&run, 'A', 1, Y, ldy, y_devid, &Yt);
        startrd_zhegv_vectors_tiles(&run, (int)itype, uplo, Bt, &Yt);
        startrd_ztiles_download(&run, 'A', 0, &Yt, Y, ldy, y_devid);
        info = startrd_tile_run_wait(&run, "back-substitution of the eigenvectors");
    }
    startrd_desc_finish(&Yt);
    return info;
}

/* The drivers, their arguments checked: with @p in_a, zhegvd's behaviour
 * (all pairs, vectors in A), otherwise zhegvx's; A, B and Z where @p dev
 * says, with GPUs taking part where any is in GPU memory. */
static int hegv(int in_a, int64_t itype, char jobz, char range, char uplo, char fact, int64_t n, double _Complex *A,
                int64_t lda, double _Complex *B, int64_t ldb, double vl, double vu, int64_t il, int64_t iu,
                int64_t *m, double *w, double _Complex *Z, int64_t ldz, const struct devices *dev, int64_t ngpu)
{
    const int on_gpu = dev->a >= 0 || dev->b >= 0 || dev->z >= 0;
    startrd_context_t *ctx;
    startrd_tile_workers_t workers = {0, NULL};
    startrd_desc_t Bt = {0}, W = {0};
    int64_t ts, found = n;
    int info;

    if (m != NULL)
        *m = 0;
    if (n == 0)
        return 0;
    if ((info = startrd_context_acquire(NULL, 1, &ctx)) != 0)
        return info;
    /* The copies of a triangle run on the GPU that holds it. */
    if ((dev->a >= 0 && startrd_user_node(dev->a) < 0) || (dev->b >= 0 && startrd_user_node(dev->b) < 0) ||
        (dev->z >= 0 && startrd_user_node(dev->z) < 0)) {
        startrd_context_release();
        return STARTRD_HOST_ONLY;
    }
    startrd_trace_begin();
    if (ngpu != 0) {
        workers.count = ngpu < 0 || ngpu > ctx->ncuda ? ctx->ncuda : (int)ngpu;
        workers.worker = ctx->cuda_worker;
    }
    ts = tile_size(n, workers.count);
    if (ctx->opt.check_finite && !on_gpu) {
        int finite;

        /* Read by the host threads, StarPU's workers paused meanwhile. */
        startrd_context_host_parallel(1);
        finite = startrd_ztriangle_finite(uplo, n, A, lda) &&
                 (fact == 'F' || startrd_ztriangle_finite(uplo, n, B, ldb));
        startrd_context_host_parallel(0);
        if (!finite) {
            startrd_error("A or B holds NaN or Inf; A and B are left unchanged");
            info = STARTRD_ERR_NONFINITE;
        }
    }
    /* B's factor stays in tiles where the tasks ran, for the
     * back-substitution; A's copy W only until C is out. */
    if (info == 0 && (info = startrd_desc_init_workspace(&Bt, "B", sizeof *B, n, n, ts, ts)) == 0) {
        startrd_instant_t t0 = starpu_timing_now(), t1, t2;

        if ((info = startrd_desc_init_workspace(&W, "A", sizeof *A, n, n, ts, ts)) == 0)
            info = to_standard(itype, uplo, fact, A, lda, B, ldb, dev, ctx->opt.check_finite && on_gpu, &Bt, &W,
                               &workers);
        startrd_desc_finish(&W);
        t1 = starpu_timing_now();
        /* Where the standard problem goes to LAPACK on the caller's
         * threads, StarPU's workers must not poll beside them. */
        startrd_context_sleep();
        if (info == 0 && in_a)
            info = startrd_zheevd_gpu("zheevd_2stage_mgpu_64", jobz, uplo, n, A, lda, w, ngpu);
        else if (info == 0)
            info = startrd_zheevr_gpu("zheevr_2stage_mgpu_64", jobz, range, uplo, n, A, lda, vl, vu, il, iu, &found,
                                      w, Z, ldz, ngpu);
        startrd_context_wake();
        t2 = starpu_timing_now();
        if (info == 0 && jobz == 'V' && found > 0)
            info = back_substitute(itype, uplo, n, &Bt, in_a ? A : Z, in_a ? lda : ldz, in_a ? dev->a : dev->z, found,
                                   &workers);
        if (info == 0)
            startrd_stats_record_generalized((t1 - t0) * 1e-6, (starpu_timing_now() - t2) * 1e-6);
    }
    startrd_desc_finish(&Bt);
    startrd_trace_end();
    startrd_context_release();
    if (info == 0 && m != NULL)
        *m = found;
    return info;
}

/* The arguments of the selected-pairs driver, in zhegvx's order (its
 * characters upper-cased by the caller): 0, or -i for the first wrong one.
 * zhegvd's are the same less range, fact and what follows n's arrays. */
static int check_arguments(int64_t itype, char jobz, char range, char uplo, char fact, int64_t n,
                           const double _Complex *A, int64_t lda, const double _Complex *B, int64_t ldb, double vl,
                           double vu, int64_t il, int64_t iu, const int64_t *m, const double *w,
                           const double _Complex *Z, int64_t ldz, int64_t ngpu)
{
    int info;

    if (itype < 1 || itype > 3)
        return -1;
    if (jobz != 'N' && jobz != 'V')
        return -2;
    if (range != 'A' && range != 'V' && range != 'I')
        return -3;
    if (uplo != 'U' && uplo != 'L')
        return -4;
    if (fact != 'N' && fact != 'F')
        return -5;
    if ((info = startrd_check_square(n, A, lda)) != 0)
        return -(5 + info);
    if (B == NULL && n > 0)
        return -9;
    if (ldb < (n > 1 ? n : 1))
        return -10;
    /* vu is argument 12. */
    info = startrd_check_selection(jobz, range, n, vl, vu, il, iu, m, w, Z, ldz, ngpu);
    return info != 0 ? -(11 + info) : 0;
}

/* hegv() on arrays any of which may be in GPU memory where @p on_gpu
 * says so (the _gpu functions; in_a as there).
 * Where one is and no GPU takes part (or it is on a GPU the context does
 * not drive), the problem goes through host copies of A, B and Z, and the
 * results come back: A and B as hegv() leaves them, Z's m columns. */
static int hegv_any(const char *routine, int on_gpu, int in_a, int64_t itype, char jobz, char range, char uplo,
                    char fact, int64_t n, double _Complex *A, int64_t lda, double _Complex *B, int64_t ldb, double vl,
                    double vu, int64_t il, int64_t iu, int64_t *m, double *w, double _Complex *Z, int64_t ldz,
                    int64_t ngpu)
{
    const int vectors = jobz == 'V' && !in_a, look = on_gpu && n > 0;
    const int64_t cols = range == 'I' ? iu - il + 1 : n, ldh = n > 1 ? n : 1;
    const struct devices host = {-1, -1, -1},
                         dev = {look ? startrd_user_device(A) : -1, look ? startrd_user_device(B) : -1,
                                look && vectors ? startrd_user_device(Z) : -1};
    double _Complex *host_a = NULL, *host_b = NULL, *host_z = NULL;
    int64_t found = 0;
    int info = 0;

    if ((dev.a < 0 && dev.b < 0 && dev.z < 0) || startrd_gpus_take_part(ngpu)) {
        info = hegv(in_a, itype, jobz, range, uplo, fact, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z, ldz, &dev, ngpu);
        if (info != STARTRD_HOST_ONLY)
            return info;
        info = 0;
    }
    host_a = startrd_user_host_copy(routine, sizeof *host_a, n, n, A, lda, &info);
    host_b = startrd_user_host_copy(routine, sizeof *host_b, n, n, B, ldb, &info);
    if (vectors)
        host_z = startrd_user_host_copy(routine, sizeof *host_z, n, cols, NULL, n, &info);
    if (info == 0) {
        info = hegv(in_a, itype, jobz, range, uplo, fact, n, host_a, ldh, host_b, ldh, vl, vu, il, iu,
                    m != NULL ? m : &found, w, host_z, ldh, &host, ngpu);
        /* B holds its factor, or the partial one where it was not definite. */
        if (fact == 'N' && (info == 0 || info == STARTRD_ERR_NOT_DEFINITE)) {
            int copied = startrd_user_copy(routine, sizeof *host_b, n, n, B, ldb, host_b, ldh);

            info = info != 0 ? info : copied;
        }
        if (info == 0 && in_a && jobz == 'V')
            info = startrd_user_copy(routine, sizeof *host_a, n, n, A, lda, host_a, ldh);
        if (info == 0 && vectors)
            info = startrd_user_copy(routine, sizeof *host_z, n, *m, Z, ldz, host_z, ldh);
    }
    free(host_a);
    free(host_b);
    free(host_z);
    return info;
}

static int hegvd(const char *routine, int on_gpu, int64_t itype, char jobz, char uplo, int64_t n, double _Complex *A,
                 int64_t lda, double _Complex *B, int64_t ldb, double *w, int64_t ngpu)
{
    static const char *const names[] = {"itype", "jobz", "uplo", "n", "A", "lda", "B", "ldb", "w", "ngpu"};
    /* zhegvx's argument numbers as zhegvd's, which has no range, fact, vl,
     * vu, il, iu, m, Z or ldz: those checks pass with the values given
     * below, and their numbers never come back. */
    static const int from_hegvx[20] = {0, -1, -2, 0, -3, 0, -4, -5, -6, -7, -8, 0, 0, 0, 0, 0, -9, 0, 0, -10};
    const double _Complex unused_z = 0.0;
    int64_t unused_m = 0;
    int info;

    jobz = (char)toupper((unsigned char)jobz);
    uplo = (char)toupper((unsigned char)uplo);
    info = from_hegvx[-check_arguments(itype, jobz, 'A', uplo, 'N', n, A, lda, B, ldb, 0.0, 0.0, 1, 0, &unused_m,
                                       w, &unused_z, n > 1 ? n : 1, ngpu)];
    if (info != 0) {
        startrd_report_argument(routine, info, names);
        return info;
    }
    return hegv_any(routine, on_gpu, 1, itype, jobz, 'A', uplo, 'N', n, A, lda, B, ldb, 0.0, 0.0, 1, 0, NULL, w, NULL,
                    1, ngpu);
}

static int hegvx(const char *routine, int on_gpu, int64_t itype, char jobz, char range, char uplo, char fact, int64_t n,
                 double _Complex *A, int64_t lda, double _Complex *B, int64_t ldb, double vl, double vu, int64_t il,
                 int64_t iu, int64_t *m, double *w, double _Complex *Z, int64_t ldz, int64_t ngpu)
{
    static const char *const names[] = {"itype", "jobz", "range", "uplo", "fact", "n", "A", "lda", "B", "ldb",
                                        "vl", "vu", "il", "iu", "m", "w", "Z", "ldz", "ngpu"};
    int info;

    jobz = (char)toupper((unsigned char)jobz);
    range = (char)toupper((unsigned char)range);
    uplo = (char)toupper((unsigned char)uplo);
    fact = (char)toupper((unsigned char)fact);
    info = check_arguments(itype, jobz, range, uplo, fact, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z, ldz, ngpu);
    if (info != 0) {
        startrd_report_argument(routine, info, names);
        return info;
    }
    return hegv_any(routine, on_gpu, 0, itype, jobz, range, uplo, fact, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z,
                    ldz, ngpu);
}

/* The 32-bit interfaces of zhegvx, through the 64-bit one's count, which
 * starts as the caller's m so that a call that does not write it leaves it. */
static int hegvx_32(const char *routine, int on_gpu, int itype, char jobz, char range, char uplo, char fact, int n,
                    double _Complex *A, int lda, double _Complex *B, int ldb, double vl, double vu, int il, int iu,
                    int *m, double *w, double _Complex *Z, int ldz, int ngpu)
{
    int64_t m64 = m != NULL ? *m : 0;
    int info = hegvx(routine, on_gpu, itype, jobz, range, uplo, fact, n, A, lda, B, ldb, vl, vu, il, iu,
                     m != NULL ? &m64 : NULL, w, Z, ldz, ngpu);

    if (m != NULL)
        *m = (int)m64;
    return info;
}

int zhegvd_2stage_mgpu(int itype, char jobz, char uplo, int n, double _Complex *A, int lda, double _Complex *B,
                       int ldb, double *w, int ngpu)
{
    return hegvd("zhegvd_2stage_mgpu", 0, itype, jobz, uplo, n, A, lda, B, ldb, w, ngpu);
}

int zhegvd_2stage_mgpu_64(int64_t itype, char jobz, char uplo, int64_t n, double _Complex *A, int64_t lda,
                          double _Complex *B, int64_t ldb, double *w, int64_t ngpu)
{
    return hegvd("zhegvd_2stage_mgpu_64", 0, itype, jobz, uplo, n, A, lda, B, ldb, w, ngpu);
}

int zhegvx_2stage_mgpu(int itype, char jobz, char range, char uplo, char fact, int n, double _Complex *A, int lda,
                       double _Complex *B, int ldb, double vl, double vu, int il, int iu, int *m, double *w,
                       double _Complex *Z, int ldz, int ngpu)
{
    return hegvx_32("zhegvx_2stage_mgpu", 0, itype, jobz, range, uplo, fact, n, A, lda, B, ldb, vl, vu, il, iu, m, w,
                    Z, ldz, ngpu);
}

int zhegvx_2stage_mgpu_64(int64_t itype, char jobz, char range, char uplo, char fact, int64_t n,
                          double _Complex *A, int64_t lda, double _Complex *B, int64_t ldb, double vl, double vu,
                          int64_t il, int64_t iu, int64_t *m, double *w, double _Complex *Z, int64_t ldz,
                          int64_t ngpu)
{
    return hegvx("zhegvx_2stage_mgpu_64", 0, itype, jobz, range, uplo, fact, n, A, lda, B, ldb, vl, vu, il, iu, m, w,
                 Z, ldz, ngpu);
}

int zhegvd_2stage_mgpu_gpu(int itype, char jobz, char uplo, int n, double _Complex *dA, int ldda,
                           double _Complex *dB, int lddb, double *w, int ngpu)
{
    return hegvd("zhegvd_2stage_mgpu_gpu", 1, itype, jobz, uplo, n, dA, ldda, dB, lddb, w, ngpu);
}

int zhegvd_2stage_mgpu_gpu_64(int64_t itype, char jobz, char uplo, int64_t n, double _Complex *dA, int64_t ldda,
                              double _Complex *dB, int64_t lddb, double *w, int64_t ngpu)
{
    return hegvd("zhegvd_2stage_mgpu_gpu_64", 1, itype, jobz, uplo, n, dA, ldda, dB, lddb, w, ngpu);
}

int zhegvx_2stage_mgpu_gpu(int itype, char jobz, char range, char uplo, char fact, int n, double _Complex *dA,
                           int ldda, double _Complex *dB, int lddb, double vl, double vu, int il, int iu, int *m,
                           double *w, double _Complex *dZ, int lddz, int ngpu)
{
    return hegvx_32("zhegvx_2stage_mgpu_gpu", 1, itype, jobz, range, uplo, fact, n, dA, ldda, dB, lddb, vl, vu, il, iu,
                    m, w, dZ, lddz, ngpu);
}

int zhegvx_2stage_mgpu_gpu_64(int64_t itype, char jobz, char range, char uplo, char fact, int64_t n,
                              double _Complex *dA, int64_t ldda, double _Complex *dB, int64_t lddb, double vl,
                              double vu, int64_t il, int64_t iu, int64_t *m, double *w, double _Complex *dZ,
                              int64_t lddz, int64_t ngpu)
{
    return hegvx("zhegvx_2stage_mgpu_gpu_64", 1, itype, jobz, range, uplo, fact, n, dA, ldda, dB, lddb, vl, vu, il,
                 iu, m, w, dZ, lddz, ngpu);
}
