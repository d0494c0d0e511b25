/* What an application that owns its logs relies on: a failed call says why
 * in exactly one line on stderr, "startrd: ...", and says nothing once the
 * quiet option or STARTRD_QUIET asks for silence, whether a context is open
 * or not; a wrong argument returns exactly -i; the defaults an environment
 * variable makes invalid are a state error, not an argument's. */
#include "startrd.h"
#include "testing.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N = 96 };

static double complex A[N * N], tau[N];
static double d[N], e[N], w[N];

/* What a call wrote on stderr (file descriptor 2, where the library's
 * workers write too), captured in a temporary file. */
struct captured {
    char text[4096];
    int lines;
};

static FILE *capture_file;
static int saved_stderr = -1;

static void capture_begin(void)
{
    fflush(stderr);
    capture_file = tmpfile();
    saved_stderr = dup(STDERR_FILENO);
    if (capture_file == NULL || saved_stderr < 0 || dup2(fileno(capture_file), STDERR_FILENO) < 0) {
        perror("test_errors: cannot capture stderr");
        exit(1);
    }
}

static struct captured capture_end(void)
{
    struct captured c = {.text = "", .lines = 0};
    size_t len;

    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    rewind(capture_file);
    len = fread(c.text, 1, sizeof c.text - 1, capture_file);
    c.text[len] = '\0';
    fclose(capture_file);
    for (size_t i = 0; i < len; i++)
        c.lines += c.text[i] == '\n';
    /* A last line without its newline counts too; the newline goes, since
     * the text is printed in the checks' own lines. */
    if (len > 0 && c.text[len - 1] != '\n')
        c.lines++;
    else if (len > 0)
        c.text[len - 1] = '\0';
    return c;
}

/* One line, the library's, mentioning @p needle (NULL: anything). */
static bool one_line(const struct captured *c, const char *needle)
{
    return c->lines == 1 && strncmp(c->text, "startrd: ", 9) == 0 && (needle == NULL || strstr(c->text, needle));
}

static void fill_matrix(double nan_at)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            A[i + j * N] = i == j ? 2.0 + j : 1.0 / (1.0 + i + j);
    if (nan_at >= 0)
        A[(int)nan_at + 3 * N] = NAN;   /* in the lower triangle: column 3, below the diagonal */
}

static int reduce(char vect, char uplo, int n, int lda)
{
    return zhetrd_2stage_mgpu(vect, uplo, n, A, lda, d, e, tau, NULL, 0, NULL, 0, -1);
}

/* Each wrong argument of the reduction and of the drivers: exactly -i, and
 * one line naming it (@p quiet: nothing). */
static bool argument_errors(bool quiet)
{
    const struct {
        const char *what;
        int expected;
    } cases[] = {
        {"zhetrd vect", -1}, {"zhetrd uplo", -2}, {"zhetrd n", -3}, {"zhetrd lda", -5}, {"zhetrd ngpu", -13},
        {"zheevd jobz", -1}, {"zheevd w", -6},    {"zheevr range", -2}, {"zheevr vl >= vu", -8},
        {"zheevdx iu", -7},  {"zunmtr trans", -1},
    };
    bool ok = true;

    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int m = 0, info = 0;
        char argument[32];
        struct captured c;

        capture_begin();
        switch (k) {
        case 0: info = reduce('X', 'L', N, N); break;
        case 1: info = reduce('N', 'X', N, N); break;
        case 2: info = reduce('N', 'L', -1, N); break;
        case 3: info = reduce('N', 'L', N, N - 1); break;
        case 4: info = zhetrd_2stage_mgpu('N', 'L', N, A, N, d, e, tau, NULL, 0, NULL, 0, 1 << 20); break;
        case 5: info = zheevd_2stage_mgpu('X', 'L', N, A, N, w, -1); break;
        case 6: info = zheevd_2stage_mgpu('N', 'L', N, A, N, NULL, -1); break;
        case 7: info = zheevr_2stage_mgpu('N', 'X', 'L', N, A, N, 0, 1, 1, 1, &m, w, NULL, 1, -1); break;
        case 8: info = zheevr_2stage_mgpu('N', 'V', 'L', N, A, N, 1.0, 0.0, 1, 1, &m, w, NULL, 1, -1); break;
        case 9: info = zheevdx_2stage_mgpu('N', 'L', N, A, N, 2, 1, &m, w, NULL, 1, -1); break;
        case 10: info = zunmtr_2stage_mgpu('X', 'L', N, 1, A, N, tau, NULL, 0, A, N, -1); break;
        }
        c = capture_end();
        snprintf(argument, sizeof argument, "argument %d ", -cases[k].expected);
        ok &= tst_check(info == cases[k].expected, "%s: returns %d, expected %d", cases[k].what, info,
                        cases[k].expected);
        ok &= tst_check(quiet ? c.lines == 0 : one_line(&c, argument), "%s: %s on stderr, got %d line(s): %s",
                        cases[k].what, quiet ? "nothing" : "one line", c.lines, c.text);
    }
    return ok;
}

/* A failure of the library's state with no context open: one line, or
 * none with STARTRD_QUIET. */
static bool state_error(bool quiet)
{
    struct captured c;
    int info;

    capture_begin();
    info = startrd_finalize();
    c = capture_end();
    return tst_check(info == STARTRD_ERR_STATE, "finalize without init returns %d", info) &
           tst_check(quiet ? c.lines == 0 : one_line(&c, "startrd_finalize"),
                     "finalize without init: %d line(s) on stderr: %s", c.lines, c.text);
}

/* startrd_init() with an invalid option: -1, and its own quiet decides. */
static bool invalid_option(int quiet)
{
    startrd_options_t opt;
    struct captured c;
    int info;

    startrd_options_init(&opt);
    opt.nb = 4096;
    opt.quiet = quiet;
    capture_begin();
    info = startrd_init(&opt);
    c = capture_end();
    return tst_check(info == -1, "startrd_init with nb = 4096 returns %d", info) &
           tst_check(quiet ? c.lines == 0 : one_line(&c, "nb"), "invalid option, quiet = %d: %d line(s): %s", quiet,
                     c.lines, c.text);
}

/* Inside a context opened with quiet = @p quiet, whatever the environment
 * says: a matrix with NaN gives STARTRD_ERR_NONFINITE with one line or
 * none, a wrong argument too, and a second startrd_init() asking for other
 * options is refused the same way. */
static bool inside_context(int quiet)
{
    startrd_options_t opt, other;
    struct captured c;
    bool ok = true;
    int info;

    startrd_options_init(&opt);
    opt.quiet = quiet;
    info = startrd_init(&opt);
    if (!tst_check(info == 0, "startrd_init(quiet = %d) returns %d", quiet, info))
        return false;
    ok &= tst_check(startrd_gpu_count() >= 0, "a context is open");

    fill_matrix(7);
    capture_begin();
    info = reduce('N', 'L', N, N);
    c = capture_end();
    ok &= tst_check(info == STARTRD_ERR_NONFINITE, "NaN, quiet = %d: returns %d", quiet, info);
    ok &= tst_check(quiet ? c.lines == 0 : one_line(&c, "NaN"), "NaN, quiet = %d: %d line(s): %s", quiet, c.lines,
                    c.text);
    ok &= tst_check(isnan(creal(A[7 + 3 * N])) && creal(A[8 + 3 * N]) == 1.0 / 12.0,
                    "NaN, quiet = %d: A left unchanged", quiet);

    capture_begin();
    info = reduce('N', 'L', N, 1);
    c = capture_end();
    ok &= tst_check(info == -5, "lda = 1 in a context: returns %d", info);
    ok &= tst_check(quiet ? c.lines == 0 : one_line(&c, "argument 5 "), "lda = 1, quiet = %d: %d line(s): %s",
                    quiet, c.lines, c.text);

    other = opt;
    other.nb = 16;
    capture_begin();
    info = startrd_init(&other);
    c = capture_end();
    ok &= tst_check(info == STARTRD_ERR_STATE, "startrd_init with other options returns %d", info);
    ok &= tst_check(quiet ? c.lines == 0 : one_line(&c, "other options"), "other options, quiet = %d: %d line(s): %s",
                    quiet, c.lines, c.text);

    /* And the call that succeeds says nothing. */
    fill_matrix(-1);
    capture_begin();
    info = reduce('N', 'L', N, N);
    c = capture_end();
    ok &= tst_check(info == 0 && c.lines == 0, "a good reduction returns %d with %d line(s): %s", info, c.lines,
                    c.text);
    ok &= tst_check(startrd_finalize() == 0, "startrd_finalize");
    return ok;
}

/* STARTRD_STAGE1_NGPU = -1 makes the defaults invalid: the call that
 * would open the default context returns STARTRD_ERR_STATE, not -1 (no
 * argument is wrong), with one line. */
static bool invalid_default(void)
{
    struct captured c;
    int info;

    setenv("STARTRD_STAGE1_NGPU", "-1", 1);
    fill_matrix(-1);
    capture_begin();
    info = reduce('N', 'L', N, N);
    c = capture_end();
    unsetenv("STARTRD_STAGE1_NGPU");
    return tst_check(info == STARTRD_ERR_STATE, "an invalid default returns %d", info) &
           tst_check(one_line(&c, "stage1_ngpu"), "an invalid default: %d line(s): %s", c.lines, c.text);
}

int main(void)
{
    bool ok = true;
    startrd_options_t opt;

    /* StarPU's own messages are not the library's. */
    setenv("STARPU_SILENT", "1", 0);
    unsetenv("STARTRD_QUIET");
    fill_matrix(-1);

    startrd_options_init(&opt);
    ok &= tst_check(opt.quiet == 0, "quiet is off by default");
    setenv("STARTRD_QUIET", "1", 1);
    startrd_options_init(&opt);
    ok &= tst_check(opt.quiet == 1, "STARTRD_QUIET=1 sets the default");

    /* No context open: the environment decides. */
    ok &= argument_errors(true);
    ok &= state_error(true);
    setenv("STARTRD_QUIET", "0", 1);
    ok &= argument_errors(false);
    ok &= state_error(false);
    unsetenv("STARTRD_QUIET");
    ok &= argument_errors(false);

    /* startrd_init()'s own options decide for its own messages. */
    ok &= invalid_option(1);
    ok &= invalid_option(0);

    /* An open context's option decides, whatever the environment says. */
    setenv("STARTRD_QUIET", "0", 1);
    ok &= inside_context(1);
    setenv("STARTRD_QUIET", "1", 1);
    ok &= inside_context(0);
    /* Closed again: the environment decides again. */
    ok &= argument_errors(true);
    unsetenv("STARTRD_QUIET");

    ok &= invalid_default();
    return tst_summary() != 0 || !ok;
}
