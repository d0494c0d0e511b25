/* Two processes side by side on one node, as an MPI application with one
 * rank per GPU runs them: each gets half the cores (its CPU affinity) and,
 * with two GPUs or more, one GPU (CUDA_VISIBLE_DEVICES), and its context
 * must keep to them.  Each child checks that every StarPU worker is bound
 * inside its process's cores and that its reduction is right; the parent
 * runs the first child alone, then both at once, and prints the times.
 *
 *   test_two_processes [--n N]     default N: 800 on CPU workers, 8192 with GPUs
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_* */
#include "startrd.h"
#include "testing.h"
#include "testing_context.h"

#include <complex.h>
#include <dirent.h>
#include <lapacke.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static cpu_set_t process_cores;
static atomic_int workers_outside;

static void check_worker_binding(void *unused)
{
    cpu_set_t mine, outside;

    (void)unused;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
        atomic_fetch_add(&workers_outside, 1);
        return;
    }
    CPU_XOR(&outside, &mine, &process_cores);
    CPU_AND(&outside, &outside, &mine);
    if (CPU_COUNT(&outside) > 0)
        atomic_fetch_add(&workers_outside, 1);
}

/* sum w = trace A and sum w^2 = ||A||_F^2, to rounding. */
static int spectrum_matches(int64_t n, const double complex *A, const double *w)
{
    double trace = 0, sum = 0, squares = 0, norm = tst_zfrobenius(n, n, A, n);

    for (int64_t i = 0; i < n; i++) {
        trace += creal(A[i + i * n]);
        sum += w[i];
        squares += w[i] * w[i];
    }
    return fabs(sum - trace) < 30.0 * (double)n * tst_zeps() * norm &&
           fabs(squares - norm * norm) < 30.0 * (double)n * tst_zeps() * norm * norm;
}

static int child(int64_t n)
{
    double complex *A = malloc(sizeof *A * (size_t)(n * n)), *B = malloc(sizeof *B * (size_t)(n * n)),
                   *tau = malloc(sizeof *tau * (size_t)n);
    double *w = malloc(sizeof *w * (size_t)n), *e = malloc(sizeof *e * (size_t)n), t0, seconds = 0;
    int info;

    if (!tst_check(A && B && tau && w && e && tst_zgen(TST_KIND_RANDOM, n, A, n, 11) == 0, "matrix of order %lld",
                   (long long)n) ||
        !tst_check(sched_getaffinity(0, sizeof process_cores, &process_cores) == 0, "the process's cores"))
        return tst_summary();
    /* A call's hold on the context, so that StarPU's workers run. */
    if (tst_open_context() == NULL)
        return tst_summary();
    atomic_init(&workers_outside, 0);
    starpu_execute_on_each_worker(check_worker_binding, NULL, STARPU_CPU | STARPU_CUDA);
    tst_check(atomic_load(&workers_outside) == 0, "%u workers, every one bound inside the process's %d cores",
              starpu_worker_get_count(), CPU_COUNT(&process_cores));
    /* The second of two calls: the first loads the GPU's kernels. */
    for (int call = 0; call < 2; call++) {
        memcpy(B, A, sizeof *A * (size_t)(n * n));
        t0 = tst_timer();
        info = zhetrd_2stage_mgpu('N', 'L', (int)n, B, (int)n, w, e, tau, NULL, 0, NULL, 0, -1);
        seconds = tst_timer() - t0;
        if (info != 0)
            break;
    }
    if (info == 0)
        info = (int)LAPACKE_dsterf((lapack_int)n, w, e);
    tst_check(info == 0 && spectrum_matches(n, A, w), "n = %lld on %d GPU(s): eigenvalues sum to the trace and "
              "their squares to ||A||_F^2 (info %d)", (long long)n, startrd_gpu_count(), info);
    printf("# reduction on %d cores, CUDA_VISIBLE_DEVICES=%s: %.3f s\n", CPU_COUNT(&process_cores), getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "(all)",
           seconds);
    startrd_context_release();
    free(A);
    free(B);
    free(tau);
    free(w);
    free(e);
    return tst_summary();
}

/* GPUs on this node, read without initializing CUDA in the parent. */
static int node_gpus(void)
{
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    DIR *dir;
    int count = 0;

    if (tst_env_ngpu() == 0)
        return 0;
    if (visible != NULL) {
        for (const char *p = visible; *p != '\0'; p++)
            count += *p == ',';
        return visible[0] == '\0' ? 0 : count + 1;
    }
    if ((dir = opendir("/proc/driver/nvidia/gpus")) == NULL)
        return 0;
    for (struct dirent *d; (d = readdir(dir)) != NULL;)
        count += d->d_name[0] != '.';
    closedir(dir);
    return count;
}

/* Starts this program as child @p index of two on half the cores. */
static pid_t start_child(int index, const cpu_set_t *all, int gpus, const char *n)
{
    int ncores = CPU_COUNT(all), seen = 0;
    cpu_set_t half;
    pid_t pid;

    CPU_ZERO(&half);
    for (int c = 0; c < CPU_SETSIZE && seen < ncores; c++)
        if (CPU_ISSET(c, all)) {
            if ((seen < ncores / 2) == (index == 0))
                CPU_SET(c, &half);
            seen++;
        }
    fflush(stdout);
    pid = fork();
    if (pid != 0)
        return pid;
    if (sched_setaffinity(0, sizeof half, &half) != 0)
        _exit(2);
    if (gpus >= 2) {
        char device[16];

        snprintf(device, sizeof device, "%d", index);
        setenv("CUDA_VISIBLE_DEVICES", device, 1);
        /* Every GPU it sees: the one it is given, whatever the suite asked. */
        setenv("STARTRD_NGPU", "-1", 1);
    } else {
        setenv("STARTRD_NGPU", "0", 1);
    }
    execl("/proc/self/exe", "test_two_processes", "--child", n, (char *)NULL);
    _exit(2);
}

static int finished(pid_t pid)
{
    int status;

    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
    cpu_set_t all;
    int gpus = node_gpus();
    char n[24];
    double t0, alone, together;
    pid_t first, second;

    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child(atoll(argv[2]));
    snprintf(n, sizeof n, "%s", argc == 3 && strcmp(argv[1], "--n") == 0 ? argv[2] : gpus >= 2 ? "8192" : "800");
    if (sched_getaffinity(0, sizeof all, &all) != 0 || CPU_COUNT(&all) < 2) {
        printf("# fewer than two cores: nothing to share\n");
        return 77;
    }
    t0 = tst_timer();
    tst_check(finished(start_child(0, &all, gpus, n)), "one child alone");
    alone = tst_timer() - t0;
    t0 = tst_timer();
    first = start_child(0, &all, gpus, n);
    second = start_child(1, &all, gpus, n);
    tst_check(finished(first) && finished(second), "two children side by side");
    together = tst_timer() - t0;
    printf("# n = %s, %d cores, %d GPU(s) on the node: one process alone %.2f s, two side by side %.2f s "
           "(whole processes)\n",
           n, CPU_COUNT(&all), gpus, alone, together);
    return tst_summary();
}
