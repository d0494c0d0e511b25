/* What startrd_last_stats() reports beyond the reduction's own stages. */
#ifndef STARTRD_STATS_H
#define STARTRD_STATS_H

/** The eigenvector phases of the last eigensolver call, after its reduction. */
void startrd_stats_record_vectors(double tridiag_seconds, double backtransform_seconds);

/** An eigensolver call that LAPACK handled whole: all timings zero. */
void startrd_stats_record_host(void);

#endif
