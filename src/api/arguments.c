#include "arguments.h"

#include "context.h"
#include "error.h"

void startrd_report_argument(const char *routine, int info, const char *const *names)
{
    startrd_error("%s: argument %d (%s) has an illegal value", routine, -info, names[-info - 1]);
}

int startrd_ngpu_valid(int64_t ngpu)
{
    startrd_context_t view;

    startrd_context_preview(&view);
    return ngpu <= view.ncuda;
}
