/* The element moves and column rotations of a divide-and-conquer merge,
 * as the host lists them for the kernels of either kind of worker. */
#ifndef STARTRD_MERGE_MOVES_H
#define STARTRD_MERGE_MOVES_H

#include <stdint.h>

/** A piece of an array copied into another: @p len elements from element
 *  src on to element dst on. */
typedef struct startrd_move {
    int64_t src, dst, len;
} startrd_move_t;

/** A plane rotation of two columns, as BLAS DROT applies it: column p :=
 *  cs p + sn c, column c := cs c - sn p. */
typedef struct startrd_rotation {
    int64_t p, c;
    double cs, sn;
} startrd_rotation_t;

#endif
