#include "arguments.h"

#include "context.h"
#include "error.h"

void startrd_report_argument(const char *routine, int info, const char *const *names)
{
    startrd_error("%s: argument %d (%s) has an illegal value", routine, -info, names[-info - 1]);
}

int startrd_check_square(int64_t n, const void *M, int64_t ld)
{
    if (n < 0)
        return 1;
    if (M == NULL && n > 0)
        return 2;
    return ld < (n > 1 ? n : 1) ? 3 : 0;
}

int startrd_check_selection(char jobz, char range, int64_t n, double vl, double vu, int64_t il, int64_t iu,
                            const void *m, const void *w, const void *Z, int64_t ldz, int64_t ngpu)
{
    if (range == 'V' && n > 0 && !(vl < vu))
        return 1;
    if (range == 'I' && (il < 1 || il > (n > 1 ? n : 1)))
        return 2;
    if (range == 'I' && (iu < (il < n ? il : n) || iu > n))
        return 3;
    if (m == NULL)
        return 4;
    if (w == NULL && n > 0)
        return 5;
    if (jobz == 'V' && Z == NULL && n > 0)
        return 6;
    if (ldz < (jobz == 'V' && n > 1 ? n : 1))
        return 7;
    return startrd_ngpu_valid(ngpu) ? 0 : 8;
}

int startrd_ngpu_valid(int64_t ngpu)
{
    startrd_context_t view;

    startrd_context_preview(&view);
    return ngpu <= view.ncuda;
}

int startrd_gpus_take_part(int64_t ngpu)
{
    startrd_context_t view;

    startrd_context_preview(&view);
    return ngpu != 0 && view.ncuda > 0;
}
