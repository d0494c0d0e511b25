/**
 * @file testing.c
 * @brief The precision-free helpers of the StarTRD test programs; see
 *        testing.h (the others are in testing_z.c and its twins).
 */
/* clock_gettime is POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "testing.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* A test stopped by a time limit then still shows how far it got. */
__attribute__((constructor)) static void tst_line_buffered_stdout(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
}

double tst_max_nan(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    return a > b ? a : b;
}

const char *tst_kind_name(tst_kind kind)
{
    static const char *const names[TST_KIND_COUNT] = {
        [TST_KIND_RANDOM] = "random",
        [TST_KIND_ZERO] = "zero",
        [TST_KIND_IDENTITY] = "identity",
        [TST_KIND_DIAGONAL] = "diagonal",
        [TST_KIND_TRIDIAGONAL] = "tridiagonal",
        [TST_KIND_CLUSTERED] = "clustered",
        [TST_KIND_GEOMETRIC] = "geometric",
        [TST_KIND_ARITHMETIC] = "arithmetic",
        [TST_KIND_UNDERFLOW] = "underflow",
        [TST_KIND_OVERFLOW] = "overflow",
    };
    if ((int)kind < 0 || kind >= TST_KIND_COUNT)
        return "unknown";
    return names[kind];
}

/* ------------------------------------------------------------------ */
/* Environment, timing and reporting                                   */
/* ------------------------------------------------------------------ */

int tst_env_ngpu(void)
{
    const char *text = getenv("STARTRD_NGPU");
    if (text == NULL || *text == '\0')
        return -1;
    char *end;
    errno = 0;
    long k = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || k < 0 || k > INT_MAX) {
        /* Said aloud: silently testing on every GPU would hide the typo. */
        fprintf(stderr, "testing: STARTRD_NGPU=%s is not a GPU count; "
                        "using every GPU\n", text);
        return -1;
    }
    return (int)k;
}

double tst_timer(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int64_t passed, failed;

bool tst_check(bool ok, const char *fmt, ...)
{
    va_list ap;
    fputs(ok ? "PASS " : "FAIL ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    /* A later crash must not swallow the lines already decided. */
    fflush(stdout);
    if (ok)
        passed++;
    else
        failed++;
    return ok;
}

int tst_summary(void)
{
    printf("%lld passed, %lld failed\n", (long long)passed, (long long)failed);
    fflush(stdout);
    return failed == 0 ? 0 : 1;
}
