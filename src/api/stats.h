/* The lock every reduction holds, and what startrd_last_stats() reports. */
#ifndef STARTRD_STATS_H
#define STARTRD_STATS_H

#include "startrd.h"

/** A time as starpu_timing_now() gives it, in microseconds: a double in
 *  every precision, which the code generator, turning double into float in
 *  s and c, leaves alone under this name. */
typedef double startrd_instant_t;

/** Held by a reduction from its arguments' second check to its end: one
 *  reduction at a time in the process, whatever its precision. */
void startrd_reduction_lock(void);
void startrd_reduction_unlock(void);

/** A reduction's own stages; the caller holds the lock. */
void startrd_stats_record_reduction(const startrd_stats_t *stats);

/** The eigenvector phases of the last eigensolver call, after its reduction. */
void startrd_stats_record_vectors(double tridiag_seconds, double backtransform_seconds);

/** The generalized drivers' own phases, after the standard problem's. */
void startrd_stats_record_generalized(double standard_form_seconds, double backsubstitution_seconds);

/** An eigensolver call that LAPACK handled whole: all timings zero. */
void startrd_stats_record_host(void);

#endif
