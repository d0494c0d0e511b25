/* The host BLAS stays inside its arrays.  OpenBLAS 0.3.21's ZGEMV kernels
 * read up to 16 bytes past the end of their operands (OpenBLAS issues 4013
 * and 5000), and LAPACK's ZHEEVD reaches them through ZHETRD and ZLATRD;
 * whether that crashed depended on where the heap happened to end.  Here
 * every array ZHEEVD gets ends at an inaccessible page, so such a read
 * faults every time, in a child process that the test watches.  The sizes
 * include the reported one (n = 333, lda = 334).  And the sizes its
 * workspace queries return are large enough: LAPACK 3.12.1 returned the
 * real workspace of the complex drivers through single precision, too
 * small past 2^24 entries. */
#include "testing.h"

#include <lapacke.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* @p bytes whose last byte is followed by an inaccessible page. */
static void *alloc_before_guard(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), span = (bytes + page - 1) / page * page;
    char *base = mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (base == MAP_FAILED)
        return NULL;
    if (mprotect(base + span, page, PROT_NONE) != 0)
        return NULL;
    return base + span - bytes;
}

/* ZHEEVD with jobz 'N' on a random Hermitian matrix whose arrays all end at
 * a guard page; 0 when the eigenvalues sum to the trace. */
static int guarded_zheevd(char uplo, int64_t n, int64_t lda)
{
    lapack_complex_double work_query;
    double rwork_query;
    lapack_int iwork_query, info;
    lapack_complex_double *A = alloc_before_guard((size_t)(lda * n) * sizeof *A);
    double *w = alloc_before_guard((size_t)n * sizeof *w), trace = 0, sum = 0, norm = 0;

    if (A == NULL || w == NULL)
        return TST_ERR_NOMEM;
    if (tst_zgen(TST_KIND_RANDOM, n, A, lda, 7u + (unsigned)n) != 0)
        return TST_ERR_ARG;
    for (int64_t i = 0; i < n; i++)
        trace += creal(A[i + i * lda]);
    norm = tst_zfrobenius(n, n, A, lda);
    info = LAPACKE_zheevd_work(LAPACK_COL_MAJOR, 'N', uplo, (lapack_int)n, A, (lapack_int)lda, w, &work_query, -1,
                               &rwork_query, -1, &iwork_query, -1);
    if (info != 0)
        return (int)info;
    lapack_int lwork = (lapack_int)creal(work_query), lrwork = (lapack_int)rwork_query, liwork = iwork_query;
    lapack_complex_double *work = alloc_before_guard((size_t)lwork * sizeof *work);
    double *rwork = alloc_before_guard((size_t)lrwork * sizeof *rwork);
    lapack_int *iwork = alloc_before_guard((size_t)liwork * sizeof *iwork);

    if (work == NULL || rwork == NULL || iwork == NULL)
        return TST_ERR_NOMEM;
    info = LAPACKE_zheevd_work(LAPACK_COL_MAJOR, 'N', uplo, (lapack_int)n, A, (lapack_int)lda, w, work, lwork,
                               rwork, lrwork, iwork, liwork);
    if (info != 0)
        return (int)info;
    for (int64_t i = 0; i < n; i++)
        sum += w[i];
    /* The eigenvalues' sum is the trace, to rounding of n terms of size ||A||. */
    return fabs(sum - trace) < 10.0 * (double)n * tst_zeps() * norm ? 0 : 1;
}

/* The real workspace ZHEEVD and ZSTEDC ask for with vectors at order n,
 * against LAPACK's documented minima, 1 + 5n + 2n^2 and 1 + 4n + 2n^2. */
static void rwork_queries(int64_t n)
{
    lapack_complex_double work_query, a = 0, z = 0;
    double rwork_query = 0, w = 0, d = 0, e = 0;
    lapack_int iwork_query = 0, heevd, stedc;
    heevd = LAPACKE_zheevd_work(LAPACK_COL_MAJOR, 'V', 'L', (lapack_int)n, &a, (lapack_int)n, &w, &work_query, -1,
                                &rwork_query, -1, &iwork_query, -1);
    tst_check(heevd == 0 && rwork_query >= (double)(1 + 5 * n + 2 * n * n),
              "zheevd('V') query at n = %lld: info %d, lrwork %.0f (at least %lld)", (long long)n, (int)heevd,
              rwork_query, (long long)(1 + 5 * n + 2 * n * n));
    rwork_query = 0;
    stedc = LAPACKE_zstedc_work(LAPACK_COL_MAJOR, 'I', (lapack_int)n, &d, &e, &z, (lapack_int)n, &work_query, -1,
                                &rwork_query, -1, &iwork_query, -1);
    tst_check(stedc == 0 && rwork_query >= (double)(1 + 4 * n + 2 * n * n),
              "zstedc('I') query at n = %lld: info %d, lrwork %.0f (at least %lld)", (long long)n, (int)stedc,
              rwork_query, (long long)(1 + 4 * n + 2 * n * n));
}

int main(void)
{
    static const struct {
        char uplo;
        int64_t n, lda;
    } cases[] = {{'U', 333, 334}, {'L', 333, 334}, {'U', 300, 300}, {'L', 517, 601}, {'U', 64, 65}, {'L', 1, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pid_t child;
        int status = 0;

        fflush(stdout);
        child = fork();
        if (child == 0)
            _exit(guarded_zheevd(cases[c].uplo, cases[c].n, cases[c].lda) == 0 ? 0 : 1);
        if (child < 0 || waitpid(child, &status, 0) != child) {
            tst_check(false, "fork a child for zheevd");
            continue;
        }
        if (WIFSIGNALED(status))
            printf("# zheevd('N', '%c', %lld, lda = %lld) died of signal %d: the BLAS read or wrote past an "
                   "array\n",
                   cases[c].uplo, (long long)cases[c].n, (long long)cases[c].lda, WTERMSIG(status));
        tst_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "zheevd('N', '%c', n = %lld, lda = %lld) within its arrays, eigenvalues summing to the trace",
                  cases[c].uplo, (long long)cases[c].n, (long long)cases[c].lda);
    }
    /* 2n^2 passes 2^24 at n = 2897; at 4096 the minima are odd, which
     * single precision cannot hold there. */
    rwork_queries(2048);
    rwork_queries(4096);
    return tst_summary();
}
