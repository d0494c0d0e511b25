/* What startrd_last_stats() reports beyond the reduction's own stages. */
#ifndef STARTRD_STATS_H
#define STARTRD_STATS_H

/** The eigenvector phases of the last zheevd_2stage_mgpu(), after its reduction. */
void startrd_stats_record_vectors(double tridiag_seconds, double backtransform_seconds);

#endif
