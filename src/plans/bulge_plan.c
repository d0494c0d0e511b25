/**
 * @file bulge_plan.c
 * @brief Sweep plan of the stage-2 bulge chasing; see bulge_plan.h.
 */
#include "bulge_plan.h"

#include <assert.h>
#include <stddef.h>

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Rows below the diagonal in column s, the ones sweep s covers. */
static int64_t sweep_rows(const startrd_bulge_plan_t *plan, int64_t sweep)
{
    assert(sweep >= 0 && sweep < plan->nsweeps);
    return plan->n - 1 - sweep;
}

/* sum_{l=1}^{len} ceil(l / kd): the reflectors of sweeps covering 1..len rows. */
static int64_t refl_prefix(int64_t len, int64_t kd)
{
    int64_t q = len / kd, r = len % kd;

    return kd * (q * (q + 1) / 2) + r * (q + 1);
}

int startrd_bulge_plan_init(startrd_bulge_plan_t *plan, char vect, int64_t n, int64_t kd)
{
    if (plan == NULL)
        return -1;
    if (vect == 'n' || vect == 'v')
        vect = (char)(vect - 'a' + 'A');
    if (vect != 'N' && vect != 'V')
        return -2;
    if (n < 0)
        return -3;
    if (kd < 0)
        return -4;

    plan->n = n;
    plan->kd = kd;
    plan->vect = vect;
    if (kd == 0 || n < 2)
        plan->nsweeps = 0;
    else
        plan->nsweeps = kd == 1 ? 1 : n - 1;
    /* Sweeps 0..nsweeps-1 cover n-1 down to n-nsweeps rows. */
    plan->nrefl = plan->nsweeps == 0 ? 0
        : refl_prefix(n - 1, kd) - refl_prefix(n - 1 - plan->nsweeps, kd);
    return 0;
}

int64_t startrd_bulge_nsweeps(const startrd_bulge_plan_t *plan)
{
    return plan->nsweeps;
}

int64_t startrd_bulge_nrefl_sweep(const startrd_bulge_plan_t *plan, int64_t sweep)
{
    return (sweep_rows(plan, sweep) + plan->kd - 1) / plan->kd;
}

int64_t startrd_bulge_nkernels(const startrd_bulge_plan_t *plan, int64_t sweep)
{
    int64_t nblk = startrd_bulge_nrefl_sweep(plan, sweep);
    int64_t last = sweep_rows(plan, sweep) - (nblk - 1) * plan->kd;

    /* A type 1, then a type 2 and a type 3 per further block, except the
     * type 3 of a trailing 1x1 block, which would change nothing. */
    return 2 * nblk - 1 - (nblk > 1 && last == 1);
}

int64_t startrd_bulge_ntasks(const startrd_bulge_plan_t *plan)
{
    int64_t total = 0;

    for (int64_t s = 0; s < plan->nsweeps; s++)
        total += startrd_bulge_nkernels(plan, s);
    return total;
}

startrd_bulge_task_t startrd_bulge_task(const startrd_bulge_plan_t *plan,
                                        int64_t sweep, int64_t m)
{
    startrd_bulge_task_t t;
    int64_t blk = m / 2;

    assert(m >= 0 && m < startrd_bulge_nkernels(plan, sweep));
    t.st = startrd_bulge_refl_row(plan, sweep, blk);
    t.ed = min64(t.st + plan->kd - 1, plan->n - 1);
    if (m == 0) {
        t.type = STARTRD_BULGE_TYPE1;
        t.refl_in = -1;
        t.refl_out = 0;
    } else if (m % 2 == 1) {
        t.type = STARTRD_BULGE_TYPE2;
        t.refl_in = blk;
        t.refl_out = blk + 1;
    } else {
        t.type = STARTRD_BULGE_TYPE3;
        t.refl_in = blk;
        t.refl_out = -1;
    }
    return t;
}

int64_t startrd_bulge_dep_prev_sweep(const startrd_bulge_plan_t *plan,
                                     int64_t sweep, int64_t m)
{
    assert(m >= 0 && m < startrd_bulge_nkernels(plan, sweep));
    if (sweep == 0)
        return -1;
    return min64(m + 2, startrd_bulge_nkernels(plan, sweep - 1) - 1);
}

int64_t startrd_bulge_nrefl(const startrd_bulge_plan_t *plan)
{
    return plan->nrefl;
}

int64_t startrd_bulge_refl_index(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j)
{
    assert(j >= 0 && j < startrd_bulge_nrefl_sweep(plan, sweep));
    /* Sweeps 0..s-1 cover n-1 down to n-s rows. */
    return refl_prefix(plan->n - 1, plan->kd) - refl_prefix(sweep_rows(plan, sweep), plan->kd) + j;
}

int64_t startrd_bulge_refl_row(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j)
{
    assert(j >= 0 && j < startrd_bulge_nrefl_sweep(plan, sweep));
    return sweep + 1 + j * plan->kd;
}

int64_t startrd_bulge_refl_len(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j)
{
    return min64(plan->kd, plan->n - startrd_bulge_refl_row(plan, sweep, j));
}

int64_t startrd_bulge_lhous(const startrd_bulge_plan_t *plan)
{
    if (plan->vect == 'V')
        return max64(1, plan->nrefl * (plan->kd + 1));
    return max64(1, 4 * plan->n);
}

int64_t startrd_bulge_tau_offset(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j)
{
    if (plan->vect == 'V')
        return startrd_bulge_refl_index(plan, sweep, j);
    return (sweep % 2) * plan->n + startrd_bulge_refl_row(plan, sweep, j);
}

int64_t startrd_bulge_v_offset(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j)
{
    if (plan->vect == 'V')
        return plan->nrefl + startrd_bulge_refl_index(plan, sweep, j) * plan->kd;
    return 2 * plan->n + (sweep % 2) * plan->n + startrd_bulge_refl_row(plan, sweep, j);
}
