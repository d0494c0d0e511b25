/* The token between the copies of block columns in and out
 * (codelet_zcopy_column.c and its precisions), which every precision
 * shares.  Nothing to compute: the task only orders, through its write of
 * the token, every copy out after every copy in, so that the verdict of
 * their check for NaN and Inf is final before anything is written back. */
#include "codelets.h"

static void copied_in_cpu(void *buffers[], void *cl_arg)
{
    (void)buffers;
    (void)cl_arg;
}

static struct starpu_codelet copied_in_codelet = {
    .name = "copied_in",
    .cpu_funcs = {copied_in_cpu},
    .nbuffers = 1,
    .modes = {STARPU_W},
};

int startrd_task_copied_in(starpu_data_handle_t scanned)
{
    return starpu_task_insert(&copied_in_codelet, STARPU_W, scanned, 0);
}
