#include "error.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_int kernel_failures;
/* The open context's quiet option, or -1 while none is open, when
 * $STARTRD_QUIET decides: argument errors are reported before any context
 * exists, and an application that silenced the library must not hear them
 * either. */
static atomic_int context_quiet = -1;
/* Inside a burst (startrd_error_burst_begin()), whether a line was printed. */
static atomic_int burst, burst_printed;

int startrd_quiet_from_env(void)
{
    const char *quiet = getenv("STARTRD_QUIET");

    return quiet != NULL && quiet[0] != '\0' && strcmp(quiet, "0") != 0;
}

void startrd_error_set_quiet(int quiet)
{
    atomic_store(&context_quiet, quiet < 0 ? -1 : quiet != 0);
}

void startrd_error(const char *fmt, ...)
{
    va_list ap;
    char line[512];
    int quiet = atomic_load(&context_quiet);

    if (quiet < 0 ? startrd_quiet_from_env() : quiet)
        return;
    if (atomic_load(&burst) && atomic_exchange(&burst_printed, 1))
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* A single fprintf keeps the line whole when workers fail concurrently. */
    fprintf(stderr, "startrd: %s\n", line);
}

void startrd_error_burst_begin(void)
{
    atomic_store(&burst_printed, 0);
    atomic_store(&burst, 1);
}

void startrd_error_burst_end(void)
{
    atomic_store(&burst, 0);
}

void startrd_kernel_failure(const char *kernel, const char *call, long status)
{
    /* Only the first since the count was last taken: when a GPU fails, every
     * task after it fails the same way, and the call is to say why in one
     * line. */
    if (atomic_fetch_add(&kernel_failures, 1) == 0)
        startrd_error("%s: %s returned %ld", kernel, call, status);
}

int startrd_kernel_failures_take(void)
{
    return atomic_exchange(&kernel_failures, 0);
}
