/* The tuning table (tuning.h).  Its values were measured on H100 and H200
 * nodes, some on one of the two only, and form the default; a model
 * measured to want other values gets an entry of its own, before it. */
#include "tuning.h"

#include "starpu_include.h"
#include "workers.h"

#ifdef STARTRD_USE_CUDA
#include <cuda_runtime.h>
#endif
#include <stddef.h>
#include <string.h>

static const startrd_tuning_t table[] = {
    {
        .model = NULL,
        /* With every update narrowed, 12 was as fast as any count tried,
         * 8 and 16 no faster, 4, 28 and 44 at times slower
         * (docs/experiments.md, "Multiprocessors left to the panel"). */
        .panel_sms = 12,
        /* Blocks of several block columns let a GPU update its neighbours
         * with a few large calls; four or more blocks per GPU keep the
         * shrinking trailing matrix balanced.  Blocks of 16 nb beat 8 nb
         * and 4 nb; where the steps are short, fewer blocks win too
         * (docs/experiments.md, "The distribution block" and "Where a
         * step's time went at n = 8192 on two GPUs"). */
        .dist_blocks_per_gpu = 4,
        .dist_max_nb_per_block = 16,
        /* Spread, every step adds the exchange of the partial products to
         * the chain panel -> HEMM -> W -> next panel, which bounds small
         * orders (docs/experiments.md, "Why a second GPU helps little below
         * n = 32768" and "Stage 1 on several GPUs"). */
        .stage1_spread_from = 10240,
        .stage1_spread_meeting_from = 6144,
        /* Split, each sweep crosses from GPU to GPU; it pays only where one
         * GPU cannot hold the sweeps that could run at once
         * (docs/experiments.md, "Split over several GPUs" and "Two blocks a
         * sweep"). */
        .stage2_split_from_wide = 49152,
        .stage2_split_from_narrow = 65536,
        /* Above it the update is the longer of the two beside the panel,
         * and what it gives up lengthens the step. */
        .narrow_update_max_rows = 16384,
        /* Up to it the step is latency-bound, and the pieces' streams,
         * buffer and sum cost more than they bring (docs/experiments.md,
         * "One ZHEMM for trailing matrices of up to 8192 rows"). */
        .whole_hemm_max_rows = 8192,
        /* docs/measurements.md, "Small orders without GPUs". */
        .host_lapack_below = 2048,
        /* DSTEMR took 17 ms per pair on one core, the divide and conquer
         * 9.3 s for all pairs at n = 32768 (docs/measurements.md). */
        .pairs_from_all_divisor = 64,
        /* There the two stages' task hops and n chase sweeps cost more
         * than n steps of one kernel (docs/experiments.md, "Small orders:
         * one stage in one kernel"). */
        .one_stage_below = 1536,
    },
};

static const startrd_tuning_t *in_force = &table[sizeof table / sizeof table[0] - 1];

const startrd_tuning_t *startrd_tuning_for(const char *device_name)
{
    size_t i = 0;

    while (table[i].model != NULL && (device_name == NULL || strstr(device_name, table[i].model) == NULL))
        i++;
    return &table[i];
}

const startrd_tuning_t *startrd_tuning(void)
{
    return in_force;
}

void startrd_tuning_select(void)
{
    const char *name = NULL;
#ifdef STARTRD_USE_CUDA
    struct cudaDeviceProp prop;
    const int worker = startrd_first_cuda_worker();

    if (worker >= 0 && cudaGetDeviceProperties(&prop, starpu_worker_get_devid(worker)) == cudaSuccess)
        name = prop.name;
    else
        (void)cudaGetLastError();
#endif
    in_force = startrd_tuning_for(name);
}
