#include "trace.h"

#include "config.h"
#include "error.h"
#include "starpu_include.h"
#include "startrd.h"

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* StarPU names its raw trace <suffix>_<instance number>. */
#define RAW_TRACE_SUFFIX "startrd_raw_trace"

static int tracing;
/* Calls that trace nest (an eigensolver runs the reduction inside it): the
 * outermost one starts and stops the recording. */
static int depth;

int startrd_trace_prepare(const char *dir)
{
#ifdef STARPU_USE_FXT
    /* StarPU reads its FxT settings from the environment at starpu_init(). */
    if (setenv("STARPU_FXT_TRACE", "1", 1) != 0 || setenv("STARPU_FXT_PREFIX", dir, 1) != 0 ||
        setenv("STARPU_FXT_SUFFIX", RAW_TRACE_SUFFIX, 1) != 0) {
        startrd_error("cannot set StarPU's trace variables");
        return STARTRD_ERR_RUNTIME;
    }
    starpu_fxt_autostart_profiling(0);
    tracing = 1;
    return 0;
#else
    startrd_error("tracing into %s requested, but StarPU was built without FxT", dir);
    return STARTRD_ERR_RUNTIME;
#endif
}

void startrd_trace_begin(void)
{
#ifdef STARPU_USE_FXT
    if (tracing && depth++ == 0)
        starpu_fxt_start_profiling();
#endif
}

void startrd_trace_end(void)
{
#ifdef STARPU_USE_FXT
    if (tracing && --depth == 0)
        starpu_fxt_stop_profiling();
#endif
}

/* The tool found at configure time, else the one on PATH (a bundle's bin/). */
static const char *fxt_tool(void)
{
    static const char configured[] = STARTRD_STARPU_FXT_TOOL;

    return configured[0] != '\0' && access(configured, X_OK) == 0 ? configured : "starpu_fxt_tool";
}

int startrd_trace_convert(const char *dir)
{
    char raw[4096];
    pid_t pid;
    int status;

    if (!tracing)
        return 0;
    tracing = 0;
    /* The variables were set for the StarPU this context started, not for later ones. */
    unsetenv("STARPU_FXT_TRACE");
    unsetenv("STARPU_FXT_PREFIX");
    unsetenv("STARPU_FXT_SUFFIX");
    /* The library starts StarPU once per context, so the instance is 0. */
    snprintf(raw, sizeof raw, "%s/%s_0", dir, RAW_TRACE_SUFFIX);
    char *const argv[] = {(char *)fxt_tool(), "-i", raw, "-d", (char *)dir, NULL};

    if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0 || waitpid(pid, &status, 0) != pid) {
        startrd_error("cannot run %s on the trace %s", argv[0], raw);
        return STARTRD_ERR_RUNTIME;
    }
    if (WIFSIGNALED(status)) {
        startrd_error("%s was killed by signal %d converting the trace %s", argv[0], WTERMSIG(status), raw);
        return STARTRD_ERR_RUNTIME;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        startrd_error("%s could not convert the trace %s (exit status %d)", argv[0], raw,
                      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return STARTRD_ERR_RUNTIME;
    }
    return 0;
}
