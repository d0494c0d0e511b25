#include "error.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int kernel_failures;

void startrd_error(const char *fmt, ...)
{
    va_list ap;
    char line[512];

    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* A single fprintf keeps the line whole when workers fail concurrently. */
    fprintf(stderr, "startrd: %s\n", line);
}

void startrd_kernel_failure(const char *kernel, const char *call, long status)
{
    atomic_fetch_add(&kernel_failures, 1);
    startrd_error("%s: %s returned %ld", kernel, call, status);
}

int startrd_kernel_failures_take(void)
{
    return atomic_exchange(&kernel_failures, 0);
}
