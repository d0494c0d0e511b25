#include "q2_blocks.h"

#include <stdlib.h>

/* Reflectors j of group S exist for j < J(S), the count of its first sweep. */
static int64_t group_nj(const startrd_q2_blocks_t *qb, int64_t S)
{
    return startrd_bulge_nrefl_sweep(&qb->plan, S * qb->b);
}

int startrd_q2_blocks_init(startrd_q2_blocks_t *qb, const startrd_bulge_plan_t *plan, size_t chunk_bytes,
                           size_t entry_bytes)
{
    const int64_t kd = plan->kd;
    int64_t top, nL, g = 0;

    *qb = (startrd_q2_blocks_t){.plan = *plan};
    qb->b = kd;
    /* Rounded up, but below the b+2kd rows between a level's members. */
    qb->h = (kd + qb->b - 1 + 7) / 8 * 8;
    if (qb->h > qb->b + 2 * kd)
        qb->h = qb->b + 2 * kd;
    qb->nS = (plan->nsweeps + qb->b - 1) / qb->b;
    top = qb->nS - 1;
    nL = group_nj(qb, 0) + 2 * top;
    qb->levels = calloc((size_t)nL, sizeof *qb->levels);
    if (qb->levels == NULL)
        return -1;
    for (int64_t L = 0; L < nL; L++) {
        startrd_q2_level_t *lv = &qb->levels[qb->nlevels];
        /* Member t of the level is (top-t, L-2t); those that exist form a
         * range ending at the largest t, since J(S) grows as S falls.  Some
         * levels have none (j = 1 of the last group of sweeps, say). */
        int64_t tmax = L / 2 < top ? L / 2 : top, t = tmax;

        while (t >= 0 && L - 2 * t < group_nj(qb, top - t))
            t--;
        if (t == tmax)
            continue;
        lv->g0 = g;
        lv->count = tmax - t;
        lv->S = top - tmax;
        lv->j = L - 2 * tmax;
        lv->row0 = lv->S * qb->b + 1 + lv->j * kd;
        g += lv->count;
        if (lv->count > qb->maxcount)
            qb->maxcount = lv->count;
        qb->nlevels++;
    }
    qb->ngroups = g;

    /* Chunks of about equal numbers of groups. */
    size_t group_bytes = (size_t)startrd_q2_group_scratch_entries(qb->h, qb->b) * entry_bytes,
           per = chunk_bytes > 0 ? chunk_bytes : 1;
    int64_t wanted = (int64_t)(((size_t)qb->ngroups * group_bytes + per - 1) / per);

    qb->nchunks = wanted < 1 ? 1 : wanted > qb->nlevels ? qb->nlevels : wanted;
    qb->chunk_level = calloc((size_t)qb->nchunks + 1, sizeof *qb->chunk_level);
    qb->nnumbers = nL;
    qb->table = malloc((size_t)startrd_q2_table_entries(qb) * sizeof *qb->table);
    if (qb->chunk_level == NULL || qb->table == NULL) {
        startrd_q2_blocks_free(qb);
        return -1;
    }
    for (int64_t s = 0; s < plan->nsweeps; s++) {
        qb->table[2 * s] = startrd_bulge_refl_index(plan, s, 0);
        qb->table[2 * s + 1] = startrd_bulge_nrefl_sweep(plan, s);
    }
    for (int64_t L = 0; L < nL; L++) {
        qb->table[2 * (plan->nsweeps + L)] = -1;
        qb->table[2 * (plan->nsweeps + L) + 1] = 0;
    }
    for (int64_t i = 0; i < qb->nlevels; i++) {
        const startrd_q2_level_t *lv = &qb->levels[i];
        int64_t at = 2 * (plan->nsweeps + startrd_q2_level_number(qb, lv->S, lv->j));

        qb->table[at] = lv->g0;
        qb->table[at + 1] = lv->S;
    }
    for (int64_t c = 1; c < qb->nchunks; c++) {
        int64_t L = qb->chunk_level[c - 1] + 1, last = qb->nlevels - (qb->nchunks - c);

        /* At least one level each, in this chunk and in every later one. */
        while (L < last && qb->levels[L].g0 < qb->ngroups * c / qb->nchunks)
            L++;
        qb->chunk_level[c] = L;
    }
    qb->chunk_level[qb->nchunks] = qb->nlevels;
    for (int64_t c = 0; c < qb->nchunks; c++)
        if (startrd_q2_chunk_groups(qb, c) > qb->maxchunk)
            qb->maxchunk = startrd_q2_chunk_groups(qb, c);
    return 0;
}

void startrd_q2_blocks_free(startrd_q2_blocks_t *qb)
{
    free(qb->levels);
    free(qb->chunk_level);
    free(qb->table);
    qb->levels = NULL;
    qb->chunk_level = NULL;
    qb->table = NULL;
}

int64_t startrd_q2_chunk_groups(const startrd_q2_blocks_t *qb, int64_t c)
{
    int64_t end = qb->chunk_level[c + 1] < qb->nlevels ? qb->levels[qb->chunk_level[c + 1]].g0 : qb->ngroups;

    return end - qb->levels[qb->chunk_level[c]].g0;
}
