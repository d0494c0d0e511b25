/* The element moves, column rotations and secular equations' roots of a
 * divide-and-conquer merge, as the host lists them for the kernels of
 * either kind of worker. */
#ifndef STARTRD_MERGE_MOVES_H
#define STARTRD_MERGE_MOVES_H

#include <stdint.h>

/** A piece of an array copied into another: @p len elements from element
 *  src on to element dst on. */
typedef struct startrd_move {
    int64_t src, dst, len;
} startrd_move_t;

/** The leading dimensions a list of moves was counted with and those of
 *  the buffers it is applied to. */
typedef struct startrd_move_lds {
    int64_t src_listed, src, dst_listed, dst;
} startrd_move_lds_t;

#ifdef __CUDACC__
#define STARTRD_HOST_DEVICE __host__ __device__
#else
#define STARTRD_HOST_DEVICE
#endif

/** Where element @p offset of a matrix counted with leading dimension
 *  @p ld_listed lies in a copy of it whose leading dimension is @p ld: a
 *  host matrix's copy on a GPU is packed.  A move that starts a column
 *  stays in it unless both are the same. */
static inline STARTRD_HOST_DEVICE int64_t startrd_move_offset(int64_t offset, int64_t ld_listed, int64_t ld)
{
    return ld_listed == ld ? offset : offset % ld_listed + offset / ld_listed * ld;
}

/** A plane rotation of two columns, as BLAS DROT applies it: column p :=
 *  cs p + sn c, column c := cs c - sn p. */
typedef struct startrd_rotation {
    int64_t p, c;
    double cs, sn;
} startrd_rotation_t;

/** Entry i of a merge whose rank-one update has k > 2 eigenvalues left
 *  (LAPACK's DLAED3): row i's pole dlamda and weight w, and of root i
 *  (eigenvalue i), the pole it was solved from (origin, i or i+1) and its
 *  distance from that pole, delta = dlamda[origin] - lambda_i, as DLAED4
 *  left it; source: the row of the root's vector that goes to row i of
 *  S (DLAED2's INDXC, 0-based). */
typedef struct startrd_secular_entry {
    double dlamda, w, delta;
    int64_t origin, source;
} startrd_secular_entry_t;

#endif
