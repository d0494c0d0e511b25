/**
 * @file q2_blocks.h
 * @brief Q2 of the bulge chase in blocks of reflectors, for GEMMs on GPUs.
 *
 * Applied one by one (codelet_zapply_q2.c), the bulge-chasing reflectors
 * give Level-2 work of kd rows each.  Here the reflectors j of b = kd
 * consecutive sweeps S*b .. S*b+b-1 form group (S, j): they act on the
 * kd+b-1 rows from S*b+1+j*kd, reflector i of the group starting at
 * row i, so the group is a compact-WY product G = I - V T V^H (ZLARFT,
 * forward, columnwise) of an h x b unit lower trapezoidal V, its h rows
 * kd+b-1 rounded up to a multiple of 8 (zero rows at the end): GPU GEMMs
 * of 128 rows or depth run faster than of 127 (docs/experiments.md).
 *
 * @par Order
 * Q2 C applies the reflectors sweep by sweep from the last one; two of
 * them commute unless their rows meet.  With nS groups of sweeps and
 *
 *     level(S, j) = j + 2 (nS-1-S),
 *
 * group (S, j) shares rows with a group (S', j') of earlier sweeps,
 * S' < S, only if j' > j - 2(S-S'), that is only if the latter's level is
 * higher, and with groups of its own S only if j' = j +- 1 (as b < kd+2).
 * So Q2 C = the groups level by level, ascending (Q2^H C: descending, each
 * group as G^H), and the groups of one level are disjoint: level L holds
 * (S, j) = (nS-1-t, L-2t) for t in a range, their first rows b+2kd apart.
 * One level is then two strided batched GEMMs with Y = V T:
 *
 *     G C   = C - Y (V^H C),      G^H C = C - V (Y^H C).
 *
 * The padding of V to h rows and b columns costs (kd+b-1)/kd times the
 * flops of the reflectors one by one: about 2 for b = kd, against 1.5 for
 * b = kd/2; but the GEMMs, half as many and twice as deep, run faster by
 * more than that on a GPU (docs/measurements.md).
 *
 * @par Storage
 * Groups are numbered level by level, within a level from the top down,
 * and cut into chunks of whole levels.  A task that applies Q2 to a block
 * of columns builds one chunk at a time from HOUS2 into its scratch (V as
 * h x b column-major blocks, the chunk's group i at i*h*b; then Y, or the
 * fused GPU kernel's copies of the operands; then the factors tau and T),
 * and applies it before it builds the next: the groups
 * of all chunks, padded, would take about four times HOUS2's memory, and
 * building them again for each block costs about b/cols of its GEMMs'
 * flops (docs/architecture.md and docs/experiments.md, "Eigenvectors").
 */
#ifndef STARTRD_Q2_BLOCKS_H
#define STARTRD_Q2_BLOCKS_H

#include "bulge_plan.h"

#include <stddef.h>
#include <stdint.h>

/** One level: groups g0 .. g0+count-1, member m being (S+m, j+2m) from row row0+m*(b+2kd). */
typedef struct startrd_q2_level {
    int64_t g0, count;
    int64_t S, j;       /**< group of member 0, the topmost */
    int64_t row0;       /**< its first row */
} startrd_q2_level_t;

typedef struct startrd_q2_blocks {
    startrd_bulge_plan_t plan;
    int64_t b, h;             /**< sweeps per group, rows per group (kd+b-1, padded) */
    int64_t nS;               /**< groups of sweeps */
    int64_t nlevels, ngroups; /**< levels that hold groups, in order; groups */
    int64_t maxcount;         /**< most groups in one level */
    startrd_q2_level_t *levels; /**< nlevels of them */
    int64_t nchunks;
    int64_t maxchunk;         /**< most groups in one chunk */
    int64_t *chunk_level;     /**< chunk c holds levels chunk_level[c] .. chunk_level[c+1]-1 */
    int64_t nnumbers;         /**< level numbers, empty levels included: j + 2 (nS-1-S) < nnumbers */
    /** What the GPU reads (startrd_q2_table_entries() of them): per sweep s,
     * r(s, 0) at 2s and its count of reflectors at 2s+1; then per level
     * number L, at 2 nsweeps + 2L, the level's first group and the S of its
     * topmost member, or -1 and 0 where the level is empty. */
    int64_t *table;
} startrd_q2_blocks_t;

/**
 * Plans the blocks of the reflectors of @p plan (vect 'V', kd >= 1, at
 * least one sweep) in chunks whose scratch takes about @p chunk_bytes
 * (whole levels, one at least), with entries of @p entry_bytes (the
 * precision's scalar).
 * @return 0, or -1 when out of memory.
 */
int startrd_q2_blocks_init(startrd_q2_blocks_t *qb, const startrd_bulge_plan_t *plan, size_t chunk_bytes,
                           size_t entry_bytes);

void startrd_q2_blocks_free(startrd_q2_blocks_t *qb);

/** Entries of qb->table. */
static inline int64_t startrd_q2_table_entries(const startrd_q2_blocks_t *qb)
{
    return 2 * (qb->plan.nsweeps + qb->nnumbers);
}

/** The number of the level that holds group (S, j). */
static inline int64_t startrd_q2_level_number(const startrd_q2_blocks_t *qb, int64_t S, int64_t j)
{
    return j + 2 * (qb->nS - 1 - S);
}

/** Groups in chunk c. */
int64_t startrd_q2_chunk_groups(const startrd_q2_blocks_t *qb, int64_t c);

/** Entries (of the precision's scalar) per group in the scratch that builds
 * a chunk: V (h b), then Y (h b) or, for the fused GPU kernel, its copies
 * of V^H, of T or T^H and of V (2 h b + b^2), then tau (b) and T (b^2). */
static inline int64_t startrd_q2_group_scratch_entries(int64_t h, int64_t b)
{
    return 3 * h * b + 2 * b * b + b;
}

/** Entries of the scratch that builds any one chunk. */
static inline int64_t startrd_q2_scratch_entries(const startrd_q2_blocks_t *qb)
{
    return qb->maxchunk * startrd_q2_group_scratch_entries(qb->h, qb->b);
}

/** First row of member m of a level. */
static inline int64_t startrd_q2_member_row(const startrd_q2_blocks_t *qb, const startrd_q2_level_t *lv, int64_t m)
{
    return lv->row0 + m * (qb->b + 2 * qb->plan.kd);
}

/** Groups of sweeps that hold a sweep before @p sweep: those of sweeps
 * from @p sweep on come after them. */
static inline int64_t startrd_q2_groups_before(const startrd_q2_blocks_t *qb, int64_t sweep)
{
    int64_t nS = (sweep + qb->b - 1) / qb->b;

    return nS < qb->nS ? nS : qb->nS;
}

/** The first column, of a block of the identity from its column @p c0,
 * that member m of a level acts on: column c of the identity stays e_c
 * under every sweep s >= c (sweep s acts on rows s+1..), and the fill of
 * earlier sweeps, applied after the member's, cannot have reached its rows
 * yet.  Members' first columns grow with m. */
static inline int64_t startrd_q2_member_first_column(const startrd_q2_blocks_t *qb, const startrd_q2_level_t *lv,
                                                     int64_t m, int64_t c0)
{
    int64_t c = (lv->S + m) * qb->b + 1 - c0;

    return c > 0 ? c : 0;
}

/** Members of a level in the first @p nS groups of sweeps: its first ones,
 * S growing with the member. */
static inline int64_t startrd_q2_members_before(const startrd_q2_level_t *lv, int64_t nS)
{
    int64_t members = nS - lv->S;

    return members <= 0 ? 0 : members < lv->count ? members : lv->count;
}

#endif
