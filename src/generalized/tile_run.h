/* What the generalized problem's tile algorithms of every precision share:
 * where their tasks run, and the run that collects their status. */
#ifndef STARTRD_TILE_RUN_H
#define STARTRD_TILE_RUN_H

#include "codelets.h"

/** Where the tile tasks run: on @p count GPUs, each task on the worker of
 *  the GPU that owns the tile it writes (by the tile's row or column,
 *  block-cyclic, whichever the algorithm's independent work runs along),
 *  or, with count = 0, on the CPU workers, as StarPU schedules them. */
typedef struct startrd_tile_workers {
    int count;
    const int *worker;
} startrd_tile_workers_t;

/** A run of tile tasks: the first failure to insert one stops the rest. */
typedef struct startrd_tile_run {
    int status;
    const startrd_tile_workers_t *workers;
} startrd_tile_run_t;

/** The place of a task that writes a tile owned by @p owner (a row or
 *  column index): the owner's GPU, or anywhere on the CPU workers. */
startrd_place_t startrd_tile_place(const startrd_tile_run_t *run, int64_t owner, int priority);

/** The memory node of @p owner's tiles: its GPU's, or main memory. */
int startrd_tile_node(const startrd_tile_run_t *run, int64_t owner);

/** Wait for the run's tasks.  0, or a positive status (reported, naming
 *  @p what) when a task could not be inserted or failed. */
int startrd_tile_run_wait(startrd_tile_run_t *run, const char *what);

#endif
