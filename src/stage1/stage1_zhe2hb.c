/* Stage 1 as a task graph (see the architecture notes): per panel k,
 *   QR of the panel                                  (critical path)
 *   Y(p) = sum over p's block columns of A22 * V     (column-oriented HEMM)
 *   Y = sum_p Y(p)                                   (reduction of partial products;
 *                                                     of two, inside the tasks of W,
 *                                                     or on two GPUs inside each
 *                                                     HEMM task, which forms P)
 *   P = [W V W], W = Y*T - 1/2 * V * (T^H * (V^H * Y*T))
 *                                 (one task on every GPU, not broadcast;
 *                                  P holds the operands of the update's GEMMs;
 *                                  with one partial product, the HEMM task's end)
 *   block column k+1 -= W*V^H + V*W^H, then QR(k+1)  (look-ahead)
 *   every other block column -= W*V^H + V*W^H
 * Every other step updates only the EAGER_COLUMNS block columns after k+1,
 * behind panel k+1, and defers the rest into the next step's update: that
 * step's Y is taken from the matrix without it there and corrected
 * (kernels_stage1.h), and both updates are one GEMM of rank 4nb, which cuBLAS
 * runs faster than two of rank 2nb (docs/experiments.md, "Figures moved
 * from the code").
 * With STARTRD_ALLREDUCE_FULL the block columns keep both triangles: each
 * worker forms the block rows of Y of its own block columns, complete, with
 * GEMMs (block row j of A22 is block column j conjugate-transposed), every
 * copy of W gathers those rows instead of summing partial products, and the
 * update runs over whole block columns so that both triangles stay exact.
 * Each worker's share of the HEMM and of the update is one task over all
 * the block columns it owns: per-column tasks cost more in the runtime than
 * the GPU spends on them.
 * Workspaces come in two buffers, used on k % 2, so that panel k+1 can be
 * factored while step k still reads V and T.
 *
 * @precisions normal z -> s d c
 */
#include "stage1_zhe2hb.h"

#include "codelets_z.h"
#include "descriptor.h"
#include "device_memory.h"
#include "error.h"
#include "startrd.h"
#include "tuning.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PRIO_UPDATE = 1, PRIO_PRODUCT = 2, PRIO_CRITICAL = 3 };

/* Bytes per element of the matrix and of every workspace. */
#define ELTSIZE sizeof(double complex)

/* Each partial product is a full-height workspace, in two buffers (k % 2). */
enum { MAX_CPU_PARTS = 64 };

/* Block columns a step that defers its update still updates, so that panel
 * k+1 runs beside some of the update: 1024 columns at nb = 64. */
enum { EAGER_COLUMNS = 16 };

/* Where the steps run on one GPU, or on two that read each other's memory,
 * the tasks of a step meet on the GPUs instead of through the runtime
 * (cuda_signal.h): each panel task copies V and T to the GPUs of the
 * step's HEMM tasks, whose products wait on their streams for V's signal
 * and whose forming of P for T's, rather than for the panel's end, which
 * reaches them only after a runtime hop every step, as long on the panel's
 * GPU as on the other (docs/architecture.md, "The panel signals the HEMM
 * tasks"); on two GPUs each HEMM
 * task also reads the other's partial product in place and forms P itself
 * (codelet_zhemm_columns.c).  Those copies, and the partial products, are
 * homed on their GPUs at addresses fixed before any task runs, and the
 * runtime only ever sees them read where they live.  A worker whose task
 * waits for a post holds meanwhile, so a wait must never be for a task the
 * same worker has yet to run: a HEMM task of step k reads step k-1's P on
 * its GPU, through the update of its block columns or, after a deferred
 * update, as that update's P, so the runtime releases it only once step
 * k-1's HEMM tasks have ended, and panel k waits for nothing more. */
enum { CHAIN_MAX_GPUS = STARTRD_PANEL_MIRRORS };

struct gpu_chain {
    int ngpu;                                                 /* 0: the runtime orders the steps */
    unsigned node[CHAIN_MAX_GPUS];
    startrd_cuda_signal_t *v_done[CHAIN_MAX_GPUS];            /* per GPU: its panel's V is copied */
    startrd_cuda_signal_t *t_done[CHAIN_MAX_GPUS];            /* per GPU: its panel's V and T are copied */
    startrd_cuda_signal_t *y_done[CHAIN_MAX_GPUS];            /* per GPU, on two: its product is complete */
    starpu_data_handle_t V[2][CHAIN_MAX_GPUS], T[2][CHAIN_MAX_GPUS];
    uintptr_t v[2][CHAIN_MAX_GPUS], t[2][CHAIN_MAX_GPUS];     /* their addresses; 0: not registered */
    uintptr_t y[2][CHAIN_MAX_GPUS];                           /* on two GPUs, the partial products' */
};

struct startrd_zhe2hb {
    startrd_desc_t A;
    const int *part_group;             /* group of each partial product; NULL: one each */
    startrd_allreduce_t allreduce;
    int full;                          /* both triangles kept (STARTRD_ALLREDUCE_FULL) */
    int a_devid;                       /* the GPU that holds the caller's A, or -1: host memory */
    const int *side_worker;            /* per GPU, the worker of the panels and copies out */
    int ysrc[STARPU_NMAXWORKERS];      /* per copy of W: the partial product holding the sum */
    int ypair;                         /* or, with ysrc, the second of two that W's tasks add; -1 */
    int w_formed;                      /* the step's HEMM task formed P: no task of W */
    int64_t n;
    int nparts;        /* partial products of A22 * V */
    int ncopies;       /* copies of W: one per GPU, a single one for CPU workers */
    int ncpu;
    int cpu_worker[STARPU_NMAXWORKERS];
    starpu_data_handle_t V[2], T[2];
    starpu_data_handle_t *Y, *P;           /* [2][nparts] and [2][ncopies] */
    starpu_data_handle_t *pair;            /* [ncopies] two steps' [W0 W V0 V W0 W] */
    int64_t deferred_from;                 /* the last step left its update of block columns
                                            * from here on to this one; none if >= nt */
    starpu_data_handle_t ZM;               /* scratch of forming W */
    struct gpu_chain chain;
    starpu_data_handle_t *X;               /* [2][nparts] compact block rows of Y, when full */
    int64_t *jcols;                        /* the block column of each entry of cols */
    startrd_row_segment_t *segments;       /* scratch runs of rows gathered into Y */
    starpu_data_handle_t *tau;             /* each panel's part of the caller's TAU */
    starpu_data_handle_t *cols;            /* scratch list of block columns for one task */
    size_t task_bytes;                     /* most bytes of block columns one task may take */
    int zigzag;                            /* block columns visit the GPUs: passes alternate */
    int descending;                        /* the next pass walks the block columns backwards */
    atomic_int nonfinite;                  /* a NaN or Inf was read from A */
    starpu_data_handle_t scanned;          /* orders copies out after all copies in */
    double complex *tau_work;              /* TAU until the reduction succeeded */
    double complex *tau_out;               /* the caller's TAU */
    startrd_zband_out_t band;               /* band.ab NULL: the copies back fill no band */
    int ret;                               /* the submission's status */
    int registered;                        /* the workspaces are registered */
    int succeeded;                         /* TAU gets tau_work */
};

/* Which partial product (and, with GPUs, which GPU) block column j feeds. */
static int part_of(const struct startrd_zhe2hb *s, int64_t j)
{
    return s->A.nowners == 0 ? (int)(j % s->nparts) : startrd_desc_owner_index(&s->A, j);
}

/* Which copy of W partial product p's block columns are updated with. */
static int copy_of_part(const struct startrd_zhe2hb *s, int p)
{
    return s->A.nowners == 0 ? 0 : p;
}

static int copy_of(const struct startrd_zhe2hb *s, int64_t j)
{
    return copy_of_part(s, part_of(s, j));
}

/* With GPUs, on the one that owns partial product p; without, on CPU
 * worker p, even when the runtime has GPUs this reduction is not to use.
 * The parts are equal, and a scheduler placing them by uncalibrated models
 * (every panel's sizes are new) left one of two workers idle half of the
 * time. */
static startrd_place_t on_part(const struct startrd_zhe2hb *s, int p, int priority)
{
    int cpu = s->A.nowners == 0;
    int worker = cpu ? (s->ncpu > 0 ? s->cpu_worker[p % s->ncpu] : -1) : s->A.owner_worker[p];
    startrd_place_t place = {.worker = worker, .priority = priority, .cpu_only = cpu};

    return place;
}

/* The short chain from the partial products to W: on the GPU of the copy,
 * or on whichever CPU worker is free (pinned, it waited behind that
 * worker's share of the products). */
static startrd_place_t on_copy(const struct startrd_zhe2hb *s, int c, int priority)
{
    startrd_place_t anywhere = {.worker = -1, .priority = priority, .cpu_only = 1};

    return s->A.nowners == 0 ? anywhere : on_part(s, c, priority);
}

static startrd_place_t on_owner(const struct startrd_zhe2hb *s, int64_t j, int priority)
{
    return on_part(s, part_of(s, j), priority);
}

/* Beside the owner's updates, on its GPU's second stream. */
static startrd_place_t on_owner_side(const struct startrd_zhe2hb *s, int64_t j, int priority)
{
    startrd_place_t place = on_owner(s, j, priority);

    if (s->A.nowners > 0 && s->side_worker != NULL)
        place.worker = s->side_worker[part_of(s, j)];
    return place;
}

static void register_workspaces(struct startrd_zhe2hb *s, double complex *tau)
{
    int64_t N = s->A.m, nb = s->A.nb;

    /* Panel k has min(nb, n-(k+1)nb) reflectors inside the true matrix. */
    for (int64_t k = 0; k + 1 < s->A.nt; k++) {
        int64_t ntau = s->n - (k + 1) * nb < nb ? s->n - (k + 1) * nb : nb;

        starpu_vector_data_register(&s->tau[k], STARPU_MAIN_RAM, (uintptr_t)(tau + k * nb),
                                    (uint32_t)ntau, sizeof *tau);
    }

    startrd_workspace_register(&s->ZM, "Z M", ELTSIZE, nb, 2 * nb);
    for (int b = 0; b < 2; b++) {
        for (int p = 0; s->full && p < s->nparts; p++) {
            int64_t owned = 0;

            for (int64_t j = 1; j < s->A.nt; j++)
                owned += part_of(s, j) == p;
            startrd_workspace_register(&s->X[b * s->nparts + p], "X rows", ELTSIZE, owned > 0 ? owned * nb : nb, nb);
        }
        startrd_workspace_register(&s->V[b], "V", ELTSIZE, N, nb);
        startrd_workspace_register(&s->T[b], "T", ELTSIZE, nb, nb);
        for (int p = 0; p < s->nparts; p++)
            if (s->Y[b * s->nparts + p] == NULL)   /* not homed on a GPU (open_chain()) */
                startrd_workspace_register(&s->Y[b * s->nparts + p], "Y", ELTSIZE, N, nb);
        for (int c = 0; c < s->ncopies; c++) {
            startrd_workspace_register(&s->P[b * s->ncopies + c], "WVW", ELTSIZE, N, 3 * nb);
        }
    }
    for (int c = 0; !s->full && c < s->ncopies; c++)
        startrd_workspace_register(&s->pair[c], "WVW pair", ELTSIZE, N, 6 * nb);
}

static void close_chain(struct startrd_zhe2hb *s)
{
    struct gpu_chain *c = &s->chain;

    for (int b = 0; b < 2; b++)
        for (int g = 0; g < CHAIN_MAX_GPUS; g++) {
            if (c->v[b][g] != 0)
                startrd_workspace_unregister_on(c->V[b][g], c->node[g], c->v[b][g]);
            if (c->t[b][g] != 0)
                startrd_workspace_unregister_on(c->T[b][g], c->node[g], c->t[b][g]);
            if (c->y[b][g] != 0) {
                startrd_workspace_unregister_on(s->Y[b * s->nparts + g], c->node[g], c->y[b][g]);
                s->Y[b * s->nparts + g] = NULL;
            }
            c->v[b][g] = c->t[b][g] = c->y[b][g] = 0;
        }
    for (int g = 0; g < CHAIN_MAX_GPUS; g++) {
        startrd_cuda_signal_destroy(c->v_done[g]);
        startrd_cuda_signal_destroy(c->t_done[g]);
        startrd_cuda_signal_destroy(c->y_done[g]);
        c->v_done[g] = c->t_done[g] = c->y_done[g] = NULL;
    }
    c->ngpu = 0;
}

/* The chain on the GPUs where it applies (struct gpu_chain); without the
 * room or the signals, the runtime orders the steps as elsewhere.  Not
 * where the block columns only visit the GPUs: there a worker's HEMM may
 * be split over several tasks, of which only the last forms P and so reads
 * the previous step's. */
static void open_chain(struct startrd_zhe2hb *s, int nowners, const int *owner_worker)
{
    struct gpu_chain *c = &s->chain;
    int64_t N = s->A.m, nb = s->A.nb;
    int ok = 1;

    if (nowners < 1 || nowners > CHAIN_MAX_GPUS || s->full || !s->A.gpu_home)
        return;
    for (int g = 0; g < nowners; g++)
        if (starpu_worker_get_type(owner_worker[g]) != STARPU_CUDA_WORKER)
            return;
    if (nowners == 2 && (s->allreduce != STARTRD_ALLREDUCE_HIERARCHICAL ||
                         !startrd_cuda_open_peers(owner_worker[0], owner_worker[1])))
        return;
    c->ngpu = nowners;
    for (int g = 0; g < nowners && ok; g++) {
        c->node[g] = starpu_worker_get_memory_node((unsigned)owner_worker[g]);
        ok = (c->v_done[g] = startrd_cuda_signal_create()) != NULL &&
             (c->t_done[g] = startrd_cuda_signal_create()) != NULL &&
             (nowners == 1 || (c->y_done[g] = startrd_cuda_signal_create()) != NULL);
        for (int b = 0; b < 2 && ok; b++) {
            starpu_data_handle_t *y = &s->Y[b * s->nparts + g];

            ok = (c->v[b][g] = startrd_workspace_register_on(&c->V[b][g], "V copy", ELTSIZE, N, nb, c->node[g])) &&
                 (c->t[b][g] = startrd_workspace_register_on(&c->T[b][g], "T copy", ELTSIZE, nb, nb, c->node[g])) &&
                 (nowners == 1 || (c->y[b][g] = startrd_workspace_register_on(y, "Y", ELTSIZE, N, nb, c->node[g])));
        }
    }
    if (!ok)
        close_chain(s);
}

static void unregister_workspaces(struct startrd_zhe2hb *s)
{
    for (int64_t k = 0; k + 1 < s->A.nt; k++)
        starpu_data_unregister(s->tau[k]);
    starpu_data_unregister(s->ZM);
    for (int b = 0; b < 2; b++) {
        starpu_data_unregister(s->V[b]);
        starpu_data_unregister(s->T[b]);
        for (int p = 0; p < s->nparts; p++) {
            if (s->Y[b * s->nparts + p] != NULL)   /* else close_chain() did */
                starpu_data_unregister(s->Y[b * s->nparts + p]);
            if (s->full)
                starpu_data_unregister(s->X[b * s->nparts + p]);
        }
        for (int c = 0; c < s->ncopies; c++)
            starpu_data_unregister(s->P[b * s->ncopies + c]);
    }
    for (int c = 0; !s->full && c < s->ncopies; c++)
        starpu_data_unregister(s->pair[c]);
}

/* Step k's P for copy c. */
static starpu_data_handle_t step_p(const struct startrd_zhe2hb *s, int64_t k, int c)
{
    return s->P[(k % 2) * s->ncopies + c];
}

/* The previous step's update that step k's Y did not see, for copy c. */
static startrd_deferred_update_t deferred_update(const struct startrd_zhe2hb *s, int64_t k, int c)
{
    startrd_deferred_update_t none = {NULL, NULL, 0};

    if (s->deferred_from >= s->A.nt)
        return none;
    return (startrd_deferred_update_t){step_p(s, k - 1, c), s->pair[c], s->deferred_from * s->A.nb};
}

/* The partial products that block columns k+1 .. nt-1 feed, in increasing
 * order, into @p active; returns how many. */
static int active_parts(const struct startrd_zhe2hb *s, int64_t k, int *active)
{
    char fed[STARPU_NMAXWORKERS] = {0};
    int nactive = 0;

    for (int64_t j = k + 1; j < s->A.nt; j++)
        fed[part_of(s, j)] = 1;
    for (int p = 0; p < s->nparts; p++)
        if (fed[p])
            active[nactive++] = p;
    return nactive;
}

/* Into @p f, the memory nodes of the GPUs of partial products active[0 ..
 * nactive-1] (none without GPUs, or on one): where outputs forwarded at
 * their writer's end start moving before StarPU releases the writer's
 * dependencies (forward.h). */
static void forward_to_parts(const struct startrd_zhe2hb *s, const int *active, int nactive, startrd_forward_t *f)
{
    f->nnodes = 0;
    for (int i = 0; i < nactive && s->A.nowners > 1; i++)
        f->node[f->nnodes++] = starpu_worker_get_memory_node((unsigned)s->A.owner_worker[active[i]]);
}

static void release_tau(void *tau)
{
    starpu_data_release(tau);
}

/* On the GPU that owns the panel's column, which then never leaves it, on
 * its second stream: the trailing update of the step runs meanwhile.  With
 * @p P (or NULL), the previous step's [W V W], the task first applies that
 * step's update to the column.  The scalar factors are brought home as soon
 * as they exist: fetched one by one when unregistered, each waited for a GPU
 * driver round trip, and the round trips added up (docs/experiments.md,
 * "Figures moved from the code"). */
static int panel(struct startrd_zhe2hb *s, int64_t k, starpu_data_handle_t P)
{
    startrd_place_t place = on_owner_side(s, k, PRIO_CRITICAL);
    startrd_forward_t vt = {.handle = {s->V[k % 2], s->T[k % 2]}, .nhandles = 2};
    int active[STARPU_NMAXWORKERS], nactive = active_parts(s, k, active);
    int g = s->chain.ngpu > 0 ? part_of(s, k) : 0;
    startrd_panel_mirrors_t mirrors = {.v_done = {s->chain.v_done[g], k}, .t_done = {s->chain.t_done[g], k},
                                       .count = nactive};

    /* Every GPU of the step reads V in its HEMM and V and T in its W: the
     * copies on the chain's GPUs, else V and T themselves. */
    for (int i = 0; i < nactive && s->chain.ngpu > 0; i++) {
        mirrors.v[i] = s->chain.v[k % 2][active[i]];
        mirrors.t[i] = s->chain.t[k % 2][active[i]];
    }
    if (s->chain.ngpu == 0)
        forward_to_parts(s, active, nactive, &vt);
    if (s->chain.ngpu == 0 && vt.nnodes > 0)
        place.forward = &vt;
    int ret = startrd_task_zpanel_qr(place, startrd_desc_column(&s->A, k),
                                     k * s->A.nb - startrd_desc_column_row0(&s->A, k), (k + 1) * s->A.nb,
                                     s->V[k % 2], s->T[k % 2], s->tau[k], P, s->chain.ngpu > 0 ? &mirrors : NULL);

    return ret != 0 ? ret : starpu_data_acquire_cb(s->tau[k], STARPU_R, release_tau, s->tau[k]);
}

/* The block columns j0 .. j1-1 that feed partial product p, in @p cols,
 * and their indices in s->jcols. */
static int columns_of_part(struct startrd_zhe2hb *s, int p, int64_t j0, int64_t j1, starpu_data_handle_t *cols)
{
    int count = 0;

    for (int64_t j = j0; j < j1; j++)
        if (part_of(s, j) == p) {
            s->jcols[count] = j;
            cols[count++] = startrd_desc_column(&s->A, j);
        }
    return count;
}

/* Where block columns visit the GPUs, StarPU evicts them least recently
 * used first, and a pass over the trailing matrix in the order of the one
 * before is the worst case for that: each visitor leaves just before it is
 * needed again, so every pass moves all of them.  A pass that walks back
 * finds the last ones of the pass before still there, and moves only those
 * that do not fit (docs/experiments.md, "Visitors walked back and forth").
 * Every HEMM is a pass, and so is an update that reaches the last block
 * column; the update of a step that defers the rest covers only the first
 * few, which stay in either order. */
static void turn(struct startrd_zhe2hb *s)
{
    s->descending = s->zigzag && !s->descending;
}

/* The room block column @p h takes on its task's worker: none where it
 * lives on its owner GPU for good, its size where it visits from the host
 * (or lives on a CPU worker's limited memory). */
static size_t visiting_bytes(const struct startrd_zhe2hb *s, starpu_data_handle_t h)
{
    return s->A.nowners > 0 && starpu_data_get_home_node(h) != STARPU_MAIN_RAM ? 0 : starpu_data_get_size(h);
}

/* The next task of a pass over the @p count block columns in cols, of
 * which @p done are taken: how many it takes, from cols[*first] on.  A
 * task's block columns are consecutive and ascending, as its pieces are
 * (codelets/column_pieces.h); a pass that walks back takes its tasks from
 * the end. */
static int chunk(const struct startrd_zhe2hb *s, const starpu_data_handle_t *cols, int count, int done, int *first)
{
    int step = s->descending ? -1 : 1, at = s->descending ? count - 1 - done : done, c = 1;
    size_t bytes = visiting_bytes(s, cols[at]);

    while (c < count - done && bytes + visiting_bytes(s, cols[at + c * step]) <= s->task_bytes)
        bytes += visiting_bytes(s, cols[at + step * c++]);
    *first = s->descending ? at - (c - 1) : at;
    return c;
}

/* Y[parts[0]] += Y[parts[i]] for i > 0, pairwise: a tree of depth
 * log2(n), in a fixed order, so the result does not vary from run to run.
 * On the GPUs that hold the sums, or on host cores for the host variant. */
static void tree_sum(struct startrd_zhe2hb *s, starpu_data_handle_t *Y, const int *parts, int n, int *ret)
{
    for (int stride = 1; stride < n; stride *= 2)
        for (int i = 0; i + stride < n; i += 2 * stride) {
            startrd_place_t place = on_copy(s, parts[i], PRIO_PRODUCT);

            if (s->allreduce == STARTRD_ALLREDUCE_HOST)
                place = (startrd_place_t){.worker = -1, .priority = PRIO_PRODUCT, .cpu_only = 1};
            *ret |= startrd_task_zgeadd(place, Y[parts[i + stride]], Y[parts[i]]);
        }
}

static int group_of(const struct startrd_zhe2hb *s, int p)
{
    return s->part_group != NULL ? s->part_group[p] : p;
}

/* Y = A22 * V, summed into one partial product.  The sum runs inside each
 * group of partial products into the group's first, then between those;
 * with several copies of W, each group's first then takes the total, which
 * the rest of its group reads (s->ysrc), so that the total crosses between
 * groups once per group.  The host variant sums on host cores, and every
 * copy reads the total from there.  Where one task computes all of Y
 * (one GPU, or the last block columns), it forms P too: W waits for Y on
 * the critical path, and a task of its own cost a runtime round trip per
 * panel (docs/experiments.md, "Figures moved from the code").  Two
 * partial products are not summed here: on two GPUs that read each other's
 * memory, each HEMM task adds the other's product where it lies and forms
 * P; otherwise each task of W adds both, so that each product crosses
 * once, both ways at once, instead of going to one GPU and the sum coming
 * back after a task there. */
static void hemm(struct startrd_zhe2hb *s, int64_t k, starpu_data_handle_t *cols, int *ret)
{
    int active[STARPU_NMAXWORKERS], masters[STARPU_NMAXWORKERS];
    int b = k % 2, nmasters = 0, nactive = active_parts(s, k, active), sole = nactive == 1 ? active[0] : -1;
    int master_of[STARPU_NMAXWORKERS];   /* per group: its first partial product */
    starpu_data_handle_t *Y = s->Y + b * s->nparts;
    int spread = s->allreduce == STARTRD_ALLREDUCE_HIERARCHICAL && s->ncopies > 1;
    int pair = nactive == 2 && s->allreduce == STARTRD_ALLREDUCE_HIERARCHICAL;
    int chained = s->chain.ngpu > 0, meet = pair && s->chain.ngpu == 2;
    startrd_step_signal_t after = {chained ? s->chain.v_done[part_of(s, k)] : NULL, k};
    startrd_step_signal_t t_done = {chained ? s->chain.t_done[part_of(s, k)] : NULL, k};
    startrd_forward_t y = {.nhandles = 1};

    /* Each of two partial products goes to the other GPU, whose W adds it. */
    if (pair && !meet)
        forward_to_parts(s, active, nactive, &y);
    s->w_formed = 0;
    for (int i = 0; i < nactive; i++) {
        int p = active[i], count = columns_of_part(s, p, k + 1, s->A.nt, cols);
        int other = nactive == 2 ? active[1 - i] : p;
        startrd_peer_product_t peer = {meet ? s->chain.y_done[p] : NULL, meet ? s->chain.y_done[other] : NULL, k,
                                       i, meet ? s->chain.y[b][other] : 0};
        starpu_data_handle_t V = chained ? s->chain.V[b][p] : s->V[b], T = chained ? s->chain.T[b][p] : s->T[b];

        for (int done = 0, c, first; done < count; done += c) {
            c = chunk(s, cols, count, done, &first);
            int copy = copy_of_part(s, p);
            startrd_wvw_handles_t form = {(k + 1) * s->A.nb, T, s->ZM, step_p(s, k, copy),
                                          deferred_update(s, k, copy), meet ? &peer : NULL, t_done};
            int forms = (p == sole && c == count) || (meet && done + c == count);
            startrd_place_t place = on_part(s, p, PRIO_PRODUCT);

            if (y.nnodes > 0 && done + c == count) {
                y.handle[0] = Y[p];
                place.forward = &y;
            }
            *ret |= startrd_task_zhemm_columns(place, V, Y[p], done == 0, c, cols + first, forms ? &form : NULL,
                                               after);
            s->w_formed |= forms;
        }
    }
    turn(s);
    s->ypair = -1;
    if (meet)
        return;
    if (pair) {
        s->ysrc[copy_of_part(s, active[0])] = s->ysrc[copy_of_part(s, active[1])] = active[0];
        s->ypair = active[1];
        return;
    }
    memset(master_of, 0xff, sizeof master_of);   /* -1: the group has no member yet */
    for (int i = 0; i < nactive; i++) {
        int g = group_of(s, active[i]);

        if (master_of[g] < 0)
            master_of[g] = masters[nmasters++] = active[i];
    }
    for (int m = 0; m < nmasters; m++) {
        int members[STARPU_NMAXWORKERS], nmembers = 0;

        for (int i = 0; i < nactive; i++)
            if (group_of(s, active[i]) == group_of(s, masters[m]))
                members[nmembers++] = active[i];
        tree_sum(s, Y, members, nmembers, ret);
    }
    tree_sum(s, Y, masters, nmasters, ret);
    for (int m = 1; spread && m < nmasters; m++)
        *ret |= startrd_task_zlacpy(on_part(s, masters[m], PRIO_PRODUCT), Y[masters[0]], Y[masters[m]]);
    for (int i = 0; i < nactive; i++)
        s->ysrc[copy_of_part(s, active[i])] = spread ? master_of[group_of(s, active[i])] : masters[0];
}

/* needed[c]: copy c of W updates some block column of step k. */
static void copies_needed(const struct startrd_zhe2hb *s, int64_t k, char *needed)
{
    memset(needed, 0, STARPU_NMAXWORKERS);
    for (int64_t j = k + 1; j < s->A.nt; j++)
        needed[copy_of(s, j)] = 1;
}

/* Y = A22 * V with both triangles kept: each part's block rows, then on
 * every copy that needs it, the gathered Y.  The rows of a run of
 * consecutive block columns move as one segment. */
static void hemm_rows(struct startrd_zhe2hb *s, int64_t k, const char *needed, starpu_data_handle_t *cols, int *ret)
{
    int b = k % 2, nsources = 0, nsegments = 0;
    int64_t nb = s->A.nb, row0 = (k + 1) * nb;
    starpu_data_handle_t sources[STARPU_NMAXWORKERS];

    for (int p = 0; p < s->nparts; p++) {
        int count = columns_of_part(s, p, k + 1, s->A.nt, cols);
        starpu_data_handle_t X = s->X[b * s->nparts + p];

        if (count == 0)
            continue;
        for (int done = 0, c, first; done < count; done += c) {
            c = chunk(s, cols, count, done, &first);
            *ret |= startrd_task_zhemm_rows(on_part(s, p, PRIO_PRODUCT), s->V[b], X, first * nb, row0, c,
                                            cols + first, s->jcols + first);
        }
        for (int i = 0; i < count; i++) {
            if (i > 0 && s->jcols[i] == s->jcols[i - 1] + 1) {
                s->segments[nsegments - 1].rows += nb;
                continue;
            }
            s->segments[nsegments++] = (startrd_row_segment_t){nsources, i * nb, s->jcols[i] * nb, nb};
        }
        sources[nsources++] = X;
    }
    turn(s);
    for (int c = 0; c < s->ncopies; c++) {
        if (!needed[c])
            continue;
        *ret |= startrd_task_zgather_rows(on_copy(s, c, PRIO_PRODUCT), s->Y[b * s->nparts + c], row0, nsources,
                                          sources, nsegments, s->segments);
        s->ysrc[c] = c;
    }
}

/* P = [W V W] with W = X - 1/2 V T^H V^H X, X = Y T, on every copy some
 * column needs. */
static void compute_w(struct startrd_zhe2hb *s, int64_t k, const char *needed, int *ret)
{
    int b = k % 2;

    for (int c = 0; c < s->ncopies && !s->w_formed; c++) {
        if (needed[c])
            *ret |= startrd_task_zform_wvw(on_copy(s, c, PRIO_PRODUCT), (k + 1) * s->A.nb,
                                           s->Y[b * s->nparts + s->ysrc[c]],
                                           s->ypair >= 0 ? s->Y[b * s->nparts + s->ypair] : NULL, s->V[b],
                                           s->T[b], s->ZM, step_p(s, k, c), deferred_update(s, k, c));
    }
}

/* The update of @p count block columns (indices jcol) at step k, @p narrow
 * where panel k+1 is factored beside it. */
static int update_columns(const struct startrd_zhe2hb *s, startrd_place_t place, int64_t k, starpu_data_handle_t P,
                          int count, const starpu_data_handle_t *cols, const int64_t *jcol, int narrow)
{
    return s->full ? startrd_task_zher2k_full_columns(place, P, (k + 1) * s->A.nb, count, cols, jcol)
                   : startrd_task_zher2k_columns(place, P, count, cols, narrow);
}

/* Block columns j0 .. j1-1 at step k, with its P or, where @p paired, with
 * the pair of the previous step and this one. */
static void update_range(struct startrd_zhe2hb *s, int64_t k, int64_t j0, int64_t j1, int paired,
                         starpu_data_handle_t *cols, int *ret)
{
    /* On the GPU of panel k+1 the update leaves the panel multiprocessors of
     * its own (the panel_sms option) once the trailing matrix is short
     * enough (tuning.h): there the update ends before the panel beside it,
     * whose many small kernels would otherwise wait for the update's GEMM
     * blocks to free multiprocessors. */
    const int beside_panel = s->A.nowners > 0 && k + 2 < s->A.nt &&
                             s->n - (k + 1) * s->A.nb <= startrd_tuning()->narrow_update_max_rows;

    for (int p = 0; p < s->nparts; p++) {
        int count = columns_of_part(s, p, j0, j1, cols), copy = copy_of_part(s, p);
        int narrow = beside_panel && p == part_of(s, k + 1);

        for (int done = 0, c, first; done < count; done += c) {
            c = chunk(s, cols, count, done, &first);
            *ret |= update_columns(s, on_part(s, p, PRIO_UPDATE), k, paired ? s->pair[copy] : step_p(s, k, copy),
                                   c, cols + first, s->jcols + first, narrow);
        }
    }
}

/* Block column k+1 first, so that panel k+1 can start, then the others.
 * Block column k+1 is updated beside the panels, on the second stream, by
 * the task of panel k+1 itself (the full scheme's update is a task of its
 * own): the thread of the first stream is busy launching the rest of the
 * update when a task there ends and noticed its end late, which the panel
 * waited for (docs/experiments.md, "Where stage 1's time goes").  Block
 * column k+1 is never deferred (EAGER_COLUMNS > 0), so it takes step k's P
 * alone. */
static void update(struct startrd_zhe2hb *s, int64_t k, starpu_data_handle_t *cols, int *ret)
{
    const int64_t nt = s->A.nt, jnext = k + 1, from = s->deferred_from;
    const int64_t defer_from = !s->full && from >= nt && k + 2 + EAGER_COLUMNS < nt ? k + 2 + EAGER_COLUMNS : nt;
    starpu_data_handle_t next = startrd_desc_column(&s->A, jnext), P = step_p(s, k, copy_of(s, jnext));

    if (k + 2 < nt && !s->full) {
        *ret |= panel(s, k + 1, P);
    } else {
        *ret |= update_columns(s, on_owner_side(s, jnext, PRIO_CRITICAL), k, P, 1, &next, &jnext, 0);
        if (k + 2 < nt)
            *ret |= panel(s, k + 1, NULL);
    }
    if (s->descending) {
        update_range(s, k, from, nt, 1, cols, ret);
        update_range(s, k, k + 2, from < defer_from ? from : defer_from, 0, cols, ret);
    } else {
        update_range(s, k, k + 2, from < defer_from ? from : defer_from, 0, cols, ret);
        update_range(s, k, from, nt, 1, cols, ret);
    }
    if (defer_from >= nt)
        turn(s);
    s->deferred_from = defer_from;
}

/* Every buffer of a task must be on its worker's memory node at once.
 * Where StarPU manages a limited memory the block columns only visit (a GPU
 * whose columns are copies of the host's, when the matrix did not fit
 * there; or a limit set with STARPU_LIMIT_*_MEM), a task takes columns of at
 * most a quarter of what this call may use of it, leaving room for the
 * workspaces and for the next task's columns to arrive; a task over more
 * could never start.  Where the GPUs hold the last block columns for good
 * and the first visit from the host, only the visitors count, against the
 * room the descriptor left them (descriptor.h). */
static size_t task_budget(const startrd_desc_t *A)
{
    size_t budget = SIZE_MAX;

    if (A->gpu_home)
        return budget;
    if (A->host_task_bytes > 0)
        return A->host_task_bytes;
    for (int p = 0; p < (A->nowners > 0 ? A->nowners : 1); p++) {
        unsigned node = A->nowners > 0 ? starpu_worker_get_memory_node((unsigned)A->owner_worker[p])
                                       : STARPU_MAIN_RAM;
        starpu_ssize_t room = startrd_device_memory_room(node);

        if (room >= 0 && (size_t)room / 4 < budget)
            budget = (size_t)room / 4;
    }
    return budget;
}

/* Copies move the caller's triangle to where the block columns live and
 * back, on CPU workers, which reach a column on a GPU through their own
 * pinned buffers (cuda_upload.h): a GPU reads and writes the caller's
 * pageable memory slowly, and blocks the thread that drives its streams
 * meanwhile (docs/experiments.md, "Figures moved from the code").  The
 * copies in check what they copy for NaN and Inf; the copies out also fill
 * stage 2's band. */
static int copy_columns(struct startrd_zhe2hb *s, int to_user, char uplo, double complex *a, int64_t lda,
                        atomic_int *nonfinite, int priority)
{
    const startrd_zband_out_t *band = s->band.ab != NULL ? &s->band : NULL;
    startrd_place_t host = {.worker = -1, .priority = priority, .cpu_only = 1};
    int ret = 0;

    for (int64_t j = 0; j < s->A.nt && ret == 0; j++)
        ret |= startrd_task_zcopy_column(host, to_user, uplo, s->n, a, lda, s->a_devid, j * s->A.nb, s->full,
                                         startrd_desc_column(&s->A, j), nonfinite, s->scanned, band);
    return ret;
}

static int insert_tasks(struct startrd_zhe2hb *s, char uplo, double complex *a, int64_t lda, int check_finite)
{
    atomic_int *nonfinite = check_finite ? &s->nonfinite : NULL;
    int64_t nt = s->A.nt;
    int ret = copy_columns(s, 0, uplo, a, lda, nonfinite, PRIO_CRITICAL);

    ret |= startrd_task_copied_in(s->scanned);
    if (nt > 1)
        ret |= panel(s, 0, NULL);
    for (int64_t k = 0; k + 1 < nt && ret == 0; k++) {
        char needed[STARPU_NMAXWORKERS];

        copies_needed(s, k, needed);
        if (s->full)
            hemm_rows(s, k, needed, s->cols, &ret);
        else
            hemm(s, k, s->cols, &ret);
        compute_w(s, k, needed, &ret);
        update(s, k, s->cols, &ret);
    }
    return ret | copy_columns(s, 1, uplo, a, lda, nonfinite, 0);
}

/* Unmapping the block columns (device_memory.h) leaves the GPUs running:
 * stage 2's chase may have started.  The chain was closed by the wait. */
void startrd_stage1_zhe2hb_release(startrd_zhe2hb_t *s)
{
    if (s == NULL)
        return;
    if (s->registered) {
        starpu_data_unregister(s->scanned);
        /* Unregistered, the scalar factors are home in tau_work. */
        unregister_workspaces(s);
    }
    if (s->succeeded)
        memcpy(s->tau_out, s->tau_work, (size_t)(s->n - s->A.nb) * sizeof *s->tau_out);
    startrd_desc_finish(&s->A);
    free(s->Y);
    free(s->P);
    free(s->pair);
    free(s->X);
    free(s->jcols);
    free(s->segments);
    free(s->tau);
    free(s->cols);
    free(s->tau_work);
    free(s);
}

int startrd_stage1_zhe2hb_submit(char uplo, int64_t n, int64_t nb, int64_t dist_nb,
                                 int nowners, const int *owner_worker, const int *side_worker,
                                 const int *part_group, startrd_allreduce_t allreduce,
                                 double complex *A, int64_t lda, int a_devid, double complex *tau,
                                 double complex *AB, int64_t ldab, int check_finite, startrd_zhe2hb_t **out)
{
    int64_t N = (n + nb - 1) / nb * nb;
    struct startrd_zhe2hb *s;
    int ret;

    *out = NULL;
    if (n <= nb)
        return 0;
    if ((s = malloc(sizeof *s)) == NULL) {
        startrd_error("stage 1: cannot allocate its state");
        return STARTRD_ERR_MEMORY;
    }
    *s = (struct startrd_zhe2hb){.n = n, .part_group = part_group, .allreduce = allreduce,
                                 .side_worker = side_worker, .full = allreduce == STARTRD_ALLREDUCE_FULL,
                                 .band = {AB, nb, ldab}, .ypair = -1, .deferred_from = INT64_MAX,
                                 .tau_out = tau, .a_devid = a_devid};
    /* A zero-padded copy to whole tiles: the padding stays exactly zero
     * through the reduction, so every task sees full nb-wide blocks. */
    ret = startrd_desc_init(&s->A, "A", s->full ? STARTRD_DESC_FULL_COLUMNS : STARTRD_DESC_LOWER_COLUMNS, ELTSIZE,
                            NULL, N, N, N, nb, nb, dist_nb, nowners, owner_worker);
    if (ret != 0) {
        free(s);
        return ret;
    }
    /* The copies from a GPU's memory are the GPUs' own (codelet_zcopy_column.c). */
    if (a_devid >= 0 && !s->A.gpu_home) {
        startrd_desc_finish(&s->A);
        free(s);
        return STARTRD_HOST_ONLY;
    }
    s->ncpu = (int)starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, s->cpu_worker, STARPU_NMAXWORKERS);
    /* On CPU workers, one partial product per worker: the HEMM and the
     * update are split by partial product, so fewer would idle workers. */
    s->nparts = nowners > 0 ? nowners : s->ncpu < 1 ? 1 : s->ncpu > MAX_CPU_PARTS ? MAX_CPU_PARTS : s->ncpu;
    s->ncopies = nowners > 0 ? nowners : 1;
    s->Y = calloc((size_t)(2 * s->nparts), sizeof *s->Y);
    s->P = calloc((size_t)(2 * s->ncopies), sizeof *s->P);
    s->pair = calloc((size_t)s->ncopies, sizeof *s->pair);
    s->X = calloc((size_t)(2 * s->nparts), sizeof *s->X);
    s->jcols = calloc((size_t)s->A.nt, sizeof *s->jcols);
    s->segments = calloc((size_t)s->A.nt, sizeof *s->segments);
    s->tau = calloc((size_t)s->A.nt, sizeof *s->tau);
    s->cols = calloc((size_t)s->A.nt, sizeof *s->cols);
    /* TAU reaches the caller only on success, like A. */
    s->tau_work = malloc((size_t)(n - nb) * sizeof *s->tau_work);
    if (s->Y == NULL || s->P == NULL || s->pair == NULL || s->X == NULL || s->jcols == NULL ||
        s->segments == NULL || s->tau == NULL || s->cols == NULL || s->tau_work == NULL) {
        startrd_error("stage 1: cannot allocate workspace handles");
        startrd_stage1_zhe2hb_release(s);
        return STARTRD_ERR_MEMORY;
    }
    open_chain(s, nowners, owner_worker);
    register_workspaces(s, s->tau_work);
    s->registered = 1;
    s->task_bytes = task_budget(&s->A);
    s->zigzag = startrd_stage1_zhe2hb_out_of_core(s);
    atomic_init(&s->nonfinite, 0);
    starpu_void_data_register(&s->scanned);
    if (insert_tasks(s, uplo, A, lda, check_finite) != 0) {
        startrd_error("stage 1: task submission failed");
        s->ret = STARTRD_ERR_RUNTIME;
    }
    *out = s;
    return 0;
}

int startrd_stage1_zhe2hb_out_of_core(const startrd_zhe2hb_t *s)
{
    return s != NULL && s->A.nowners > 0 && !s->A.gpu_home;
}

int startrd_stage1_zhe2hb_wait(startrd_zhe2hb_t *s)
{
    int ret;

    if (s == NULL)
        return 0;
    starpu_task_wait_for_all();
    /* Its cudaFree() calls wait for the GPUs to be idle, as they are now. */
    close_chain(s);
    ret = s->ret;
    if (startrd_kernel_failures_take() > 0 && ret == 0)
        ret = STARTRD_ERR_KERNEL;
    if (ret == 0 && atomic_load(&s->nonfinite)) {
        startrd_error("the matrix holds NaN or Inf; A is left unchanged");
        ret = STARTRD_ERR_NONFINITE;
    }
    s->succeeded = ret == 0;
    return ret;
}

int startrd_stage1_zhe2hb(char uplo, int64_t n, int64_t nb, int64_t dist_nb,
                          int nowners, const int *owner_worker, const int *side_worker, const int *part_group,
                          startrd_allreduce_t allreduce,
                          double complex *A, int64_t lda, double complex *tau, double complex *AB, int64_t ldab,
                          int check_finite)
{
    startrd_zhe2hb_t *s;
    int ret = startrd_stage1_zhe2hb_submit(uplo, n, nb, dist_nb, nowners, owner_worker, side_worker, part_group,
                                           allreduce, A, lda, -1, tau, AB, ldab, check_finite, &s);

    if (ret == 0)
        ret = startrd_stage1_zhe2hb_wait(s);
    startrd_stage1_zhe2hb_release(s);
    return ret;
}
