/* The C compiler's layout of the structs that the Fortran module mirrors
 * (src/fortran/startrd.f90), for tests/test_fortran.f90 to compare with the
 * Fortran compiler's: a field added to startrd_options_t or startrd_stats_t
 * without its Fortran twin changes the size, one moved changes an offset. */
#include "startrd.h"

#include <stddef.h>

/* sizeof(startrd_options_t); offsets[0..13] the fields' offsets in order. */
size_t test_fortran_options_layout(size_t *offsets)
{
    const size_t fields[] = {
        offsetof(startrd_options_t, ngpu),        offsetof(startrd_options_t, ncpu),
        offsetof(startrd_options_t, scheduler),   offsetof(startrd_options_t, nb),
        offsetof(startrd_options_t, dist_nb),     offsetof(startrd_options_t, check_finite),
        offsetof(startrd_options_t, trace_dir),   offsetof(startrd_options_t, allreduce),
        offsetof(startrd_options_t, gpu_groups),  offsetof(startrd_options_t, stage2),
        offsetof(startrd_options_t, stage2_ngpu), offsetof(startrd_options_t, stage1_ngpu),
        offsetof(startrd_options_t, panel_sms),   offsetof(startrd_options_t, quiet),
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        offsets[i] = fields[i];
    return sizeof(startrd_options_t);
}

/* sizeof(startrd_stats_t); offsets[0..11] the fields' offsets in order. */
size_t test_fortran_stats_layout(size_t *offsets)
{
    const size_t fields[] = {
        offsetof(startrd_stats_t, stage1_seconds),  offsetof(startrd_stats_t, stage2_seconds),
        offsetof(startrd_stats_t, ngpu),            offsetof(startrd_stats_t, nb),
        offsetof(startrd_stats_t, allreduce),       offsetof(startrd_stats_t, tridiag_seconds),
        offsetof(startrd_stats_t, backtransform_seconds), offsetof(startrd_stats_t, stage1_ngpu),
        offsetof(startrd_stats_t, stage2_ngpu),     offsetof(startrd_stats_t, standard_form_seconds),
        offsetof(startrd_stats_t, backsubstitution_seconds), offsetof(startrd_stats_t, stage1_out_of_core),
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        offsets[i] = fields[i];
    return sizeof(startrd_stats_t);
}
