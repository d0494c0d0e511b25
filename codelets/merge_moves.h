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

/* The lists that hold real values come in the two precisions of the real
 * divide and conquer, X(p, R) for each: its letter and real type (double
 * for the d and z solvers, float for s and c). */
#define STARTRD_MERGE_FOR_EACH_REAL(X) \
    X(s, float)                        \
    X(d, double)

/* startrd_<p>rotation_t: a plane rotation of two columns, as BLAS DROT
 * (SROT) applies it: column p := cs p + sn c, column c := cs c - sn p.
 *
 * startrd_<p>secular_entry_t: entry i of a merge whose rank-one update has
 * k > 2 eigenvalues left (LAPACK's DLAED3): row i's pole dlamda and weight
 * w as the deflation left it (DLAED2's W: the kernels recompute the weight
 * from the roots and keep this one's sign), and of root i (eigenvalue i),
 * the pole it was solved from (origin, i
 * or i+1) and its distance from that pole, delta = dlamda[origin] -
 * lambda_i, as DLAED4 left it; source: the row of the root's vector that
 * goes to row i of S (DLAED2's INDXC, 0-based).
 *
 * The names carry the precision's letter so that tools/codegen.py turns
 * the d ones into the s ones (drotation and dsecular are in its
 * REAL_ROUTINES); CUDA code finds them from R as startrd_merge_real<R>. */
#define STARTRD_MERGE_REAL_TYPES(P, R)          \
    typedef struct startrd_##P##rotation {      \
        int64_t p, c;                           \
        R cs, sn;                               \
    } startrd_##P##rotation_t;                  \
    typedef struct startrd_##P##secular_entry { \
        R dlamda, w, delta;                     \
        int64_t origin, source;                 \
    } startrd_##P##secular_entry_t;             \
    STARTRD_MERGE_REAL_OF(P, R)

#ifdef __cplusplus
extern "C++" {
template <typename R>
struct startrd_merge_real;
}
#define STARTRD_MERGE_REAL_OF(P, R)                          \
    extern "C++" {                                           \
    template <>                                              \
    struct startrd_merge_real<R> {                           \
        typedef startrd_##P##rotation_t rotation;            \
        typedef startrd_##P##secular_entry_t secular_entry;  \
    };                                                       \
    }
#else
#define STARTRD_MERGE_REAL_OF(P, R)
#endif

STARTRD_MERGE_FOR_EACH_REAL(STARTRD_MERGE_REAL_TYPES)

#endif
