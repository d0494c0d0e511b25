/* @precisions normal z -> s d c */
#define COMPLEX
#include "kernels_stage1_z.h"

double startrd_znan_sum(const double complex *x, int64_t count)
{
    double sum = 0.0;

    /* x * 0 is 0 for every finite x and NaN for NaN and Inf. */
    for (int64_t i = 0; i < count; i++)
#ifdef COMPLEX
        sum += creal(x[i]) * 0.0 + cimag(x[i]) * 0.0;
#else
        sum += x[i] * 0.0;
#endif
    return sum;
}
