/* The library's tuned defaults and thresholds, in one table with an entry
 * per GPU model, as MAGMA's get_nb.cpp keeps its block sizes.  Each field
 * says what it decides and why; docs/experiments.md holds the
 * measurements behind the values. */
#ifndef STARTRD_TUNING_H
#define STARTRD_TUNING_H

#include <stdint.h>

typedef struct startrd_tuning {
    /** Part of the CUDA device name the entry was measured on; NULL for the
     *  default, which serves every other model and runs without GPUs. */
    const char *model;
    /** Multiprocessors the trailing update leaves to the panel (the
     *  panel_sms option's default). */
    int panel_sms;
    /** Stage 1's distribution over the GPUs (the dist_nb option's default):
     *  at least this many blocks per GPU, each at most this many nb wide. */
    int64_t dist_blocks_per_gpu, dist_max_nb_per_block;
    /** Stage 1 spreads over the GPUs from this order on, or from the second
     *  where two GPUs read each other's memory and meet on the devices. */
    int64_t stage1_spread_from, stage1_spread_meeting_from;
    /** Stage 2 splits its chase over the GPUs from this order on, for
     *  bands of 64 or more and for narrower ones. */
    int64_t stage2_split_from_wide, stage2_split_from_narrow;
    /** The update beside panel k+1 leaves it multiprocessors once the
     *  trailing matrix has at most this many rows. */
    int64_t narrow_update_max_rows;
    /** Trailing matrices up to this order go to one cuBLAS ZHEMM when one
     *  task holds all of them. */
    int64_t whole_hemm_max_rows;
    /** Without GPUs, calls with vectors below this order go to LAPACK's
     *  one-stage drivers. */
    int64_t host_lapack_below;
    /** With GPUs, selected pairs take the divide and conquer for all
     *  pairs from n / this many pairs on. */
    int64_t pairs_from_all_divisor;
    /** With GPUs, reductions with VECT = 'N' below this order take the
     *  one-stage kernel (bandwidth 1) by default. */
    int64_t one_stage_below;
} startrd_tuning_t;

/** The entry for a CUDA device named @p device_name (NULL: no GPU). */
const startrd_tuning_t *startrd_tuning_for(const char *device_name);

/** The entry in force: the first GPU's since the context opened
 *  (startrd_tuning_select()), else the default. */
const startrd_tuning_t *startrd_tuning(void);

/** Chooses the entry of the first CUDA worker's device, or the default
 *  without one; the context calls it once StarPU has started. */
void startrd_tuning_select(void);

#endif
