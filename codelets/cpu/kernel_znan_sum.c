#include "kernels_stage1.h"

double startrd_znan_sum(const double complex *x, int64_t count)
{
    double sum = 0.0;

    /* x * 0 is 0 for every finite x and NaN for NaN and Inf. */
    for (int64_t i = 0; i < count; i++)
        sum += creal(x[i]) * 0.0 + cimag(x[i]) * 0.0;
    return sum;
}
