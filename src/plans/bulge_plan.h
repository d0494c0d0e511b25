/**
 * @file bulge_plan.h
 * @brief Sweep plan of the stage-2 bulge chasing (band -> tridiagonal).
 *
 * Pure index logic, shared by the sequential test driver and the StarPU
 * layer: which kernel runs where, what it waits for, and where its
 * Householder reflector lives.  All indices are 0-based and every size or
 * offset is int64_t.  Nothing here depends on uplo: both storages walk the
 * same plan, and the kernels (kernels_stage2.h) absorb the difference.
 *
 * @par Sweeps and kernels
 * Sweep s (0 <= s < nsweeps) brings column s to tridiagonal form and chases
 * the resulting bulge down the band.  It splits rows s+1..n-1 into blocks of
 * kd rows, block J holding rows s+1+J*kd .. min(s+(J+1)*kd, n-1); reflector
 * j of the sweep acts on block j.  Its kernels m = 0, 1, ... are
 *  - m = 0, type 1: generates reflector 0 from column s and applies it to
 *    diagonal block 0 from both sides;
 *  - m = 2J-1, type 2: applies reflector J-1 to the off-diagonal block below
 *    diagonal block J-1 (which creates the bulge), generates reflector J from
 *    the bulge's first column and applies it to the rest of the bulge;
 *  - m = 2J, type 3: applies reflector J to diagonal block J from both sides.
 *
 * The kernel (st, ed) range is always the diagonal block floor(m/2), the one
 * ZHETRD_HB2ST passes as (STIND, EDIND), minus one.  The sweep stops after
 * the kernel that touches row n-1.  Two kernels that ZHETRD_HB2ST walks are
 * left out, as they change nothing: a type 2 with no rows below its block,
 * and a type 3 on a final 1x1 block (a unimodular scalar applied to a real
 * diagonal entry from both sides).
 *
 * For kd >= 2 there are n-1 sweeps, the last one only making the last
 * subdiagonal entry real.  For kd = 1 the first sweep already leaves a real
 * tridiagonal (a chain of unimodular scalings), and every later sweep would
 * meet real entries only, for which ZLARFG returns tau = 0 exactly: the plan
 * keeps that single sweep, with the same result bit for bit.  kd = 0 or
 * n <= 1 need no sweep at all.
 *
 * @par Dependencies
 * Kernel (s, m) may start once both of these are done:
 *  - (s, m-1), when m > 0: the kernels of a sweep form a chain;
 *  - (s-1, min(m+2, K(s-1)-1)), when s > 0, K being startrd_bulge_nkernels().
 * This is ZHETRD_HB2ST's OpenMP lag of three (its tasks wait on the token of
 * MYID+SHIFT-1 with SHIFT = 3).  The blocks of sweep s-1 start one row above
 * those of sweep s, so the last row that kernel (s, m) updates is the first
 * one of kernel (s-1, m+2): m+1 is not enough.  The clamp matters at the end
 * of the band, where sweep s-1 may hold fewer than m+3 kernels: its last one
 * must then be done (dropping the edge instead, as a missing OpenMP token
 * would, is wrong).  The two edges cover all hazards on the band, on the
 * bulges and on the VECT = 'N' slots of HOUS that sweep s+2 reuses; all
 * further ordering follows by transitivity.  Every order that respects them
 * gives bitwise identical results: tests/test_zhb2st_kernels.c checks this on
 * random orders drawn from startrd_bulge_dep_prev_sweep(), and fails with
 * m+1 or without the clamp.
 *
 * @par HOUS layout, VECT = 'V'
 * Reflectors are numbered in generation order, r(s, j) = (reflectors of the
 * sweeps before s) + j, R in total (startrd_bulge_nrefl()).  Sweep s has
 * ceil((n-1-s)/kd) of them, hence, with F(N) = sum_{l=1..N} ceil(l/kd)
 * = kd q(q+1)/2 + r(q+1) for N = q kd + r, 0 <= r < kd:
 *
 *     r(s, j) = F(n-1) - F(n-1-s) + j,    R = F(n-1) - F(n-1-nsweeps)
 *
 * that is R = F(n-1) for kd >= 2 and R = n-1 for kd = 1.
 *
 *     HOUS = [ TAU2 (R entries) | V2 (kd x R, column-major, ld = kd) ]
 *
 * Column r(s, j) of V2 holds v with v[0] = 1 stored explicitly and
 * len = startrd_bulge_refl_len(s, j) significant entries; it acts on rows
 * startrd_bulge_refl_row(s, j) .. +len-1 of the n x n matrix.  The kernels
 * write only those len entries, so the driver zeroes HOUS beforehand if the
 * rest of the column is to read as zero.  With H(s, j) = I - tau v v^H,
 *
 *     Q2 = H(0,0) H(0,1) ... H(1,0) H(1,1) ... H(nsweeps-1, last)
 *
 * satisfies B = Q2 * T * Q2^H for both uplo, B being the Hermitian band
 * matrix and T the real tridiagonal (d, e) read from the chased band.
 * lhous = max(1, R*(kd+1)).
 *
 * @par HOUS layout, VECT = 'N'
 * Only the two most recent reflectors of each sweep are ever needed; as in
 * ZHETRD_HB2ST they go to two slots of n entries chosen by sweep parity:
 *
 *     HOUS = [ TAU (2 x n) | V (2 x n) ]
 *
 * the reflector starting at row p of sweep s having its tau at
 * (s mod 2)*n + p and its v at 2n + (s mod 2)*n + p (its len <= n-p entries
 * never reach the next slot; sweep s+2 overwrites a slot only once the
 * kernels of sweep s that read it are done, by the dependencies above).
 * lhous = max(1, 4n), LAPACK's minimum.  HOUS needs no initialization and
 * holds nothing useful afterwards.
 */
#ifndef STARTRD_STAGE2_BULGE_PLAN_H
#define STARTRD_STAGE2_BULGE_PLAN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Kernel types of a sweep; the values are those of ZHB2ST_KERNELS' TTYPE. */
typedef enum startrd_bulge_type {
    STARTRD_BULGE_TYPE1 = 1, /**< startrd_kernel_zhbtype1(): start of a sweep */
    STARTRD_BULGE_TYPE2 = 2, /**< startrd_kernel_zhbtype2(): off-diagonal block, new reflector */
    STARTRD_BULGE_TYPE3 = 3, /**< startrd_kernel_zhbtype3(): diagonal block */
} startrd_bulge_type_t;

/** Problem a plan describes; fill it with startrd_bulge_plan_init(). */
typedef struct startrd_bulge_plan {
    int64_t n;        /**< order of the matrix */
    int64_t kd;       /**< number of sub- (or super-) diagonals of the band */
    char    vect;     /**< 'N' or 'V': layout of HOUS */
    int64_t nsweeps;  /**< number of sweeps */
    int64_t nrefl;    /**< R, number of reflectors over all sweeps */
} startrd_bulge_plan_t;

/** One kernel of the plan, see startrd_bulge_task(). */
typedef struct startrd_bulge_task {
    startrd_bulge_type_t type;
    int64_t st;        /**< first row of the kernel's diagonal block */
    int64_t ed;        /**< last row of that block (inclusive) */
    int64_t refl_in;   /**< j of the reflector applied (types 2 and 3), else -1 */
    int64_t refl_out;  /**< j of the reflector generated (types 1 and 2), else -1 */
} startrd_bulge_task_t;

/**
 * Sets up the plan of a band of order n and bandwidth kd.
 * @param[out] plan  the plan
 * @param[in]  vect  'N' (no reflectors kept) or 'V' (all kept in HOUS)
 * @param[in]  n     order, n >= 0
 * @param[in]  kd    bandwidth, kd >= 0; kd >= n gives the kernels of
 *                   kd = n-1, but V2 keeps its leading dimension kd
 * @return 0, or -i if argument i (counting plan as 1) is invalid.
 */
int startrd_bulge_plan_init(startrd_bulge_plan_t *plan, char vect, int64_t n, int64_t kd);

/** Number of sweeps. */
int64_t startrd_bulge_nsweeps(const startrd_bulge_plan_t *plan);

/** K(s), number of kernels of sweep s, 0 <= s < nsweeps (always >= 1). */
int64_t startrd_bulge_nkernels(const startrd_bulge_plan_t *plan, int64_t sweep);

/** Number of kernels over all sweeps. */
int64_t startrd_bulge_ntasks(const startrd_bulge_plan_t *plan);

/** Kernel m of sweep s, 0 <= m < K(s): its type, block and reflectors. */
startrd_bulge_task_t startrd_bulge_task(const startrd_bulge_plan_t *plan,
                                        int64_t sweep, int64_t m);

/**
 * The kernel of sweep s-1 that kernel (s, m) waits for (see Dependencies),
 * or -1 when s = 0.  The other dependency, (s, m-1), is implicit.
 */
int64_t startrd_bulge_dep_prev_sweep(const startrd_bulge_plan_t *plan,
                                     int64_t sweep, int64_t m);

/** Number of reflectors sweep s generates (number of its row blocks). */
int64_t startrd_bulge_nrefl_sweep(const startrd_bulge_plan_t *plan, int64_t sweep);

/** R, the number of reflectors over all sweeps. */
int64_t startrd_bulge_nrefl(const startrd_bulge_plan_t *plan);

/** r(s, j), generation index of reflector j of sweep s. */
int64_t startrd_bulge_refl_index(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j);

/** First row of the matrix on which reflector j of sweep s acts. */
int64_t startrd_bulge_refl_row(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j);

/** Length of reflector j of sweep s, min(kd, n - row). */
int64_t startrd_bulge_refl_len(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j);

/** Minimal length of HOUS for the plan's vect (see the HOUS layouts). */
int64_t startrd_bulge_lhous(const startrd_bulge_plan_t *plan);

/** Offset in HOUS of tau of reflector j of sweep s. */
int64_t startrd_bulge_tau_offset(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j);

/** Offset in HOUS of v (its entry 0) of reflector j of sweep s. */
int64_t startrd_bulge_v_offset(const startrd_bulge_plan_t *plan, int64_t sweep, int64_t j);

#ifdef __cplusplus
}
#endif

#endif
