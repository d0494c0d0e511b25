#include "kernels_stage1.h"

#include <math.h>

/* x * 0 is 0 for every finite x and NaN for NaN and Inf: one sum tells. */
static double nan_sum(const double complex *x, int64_t count)
{
    double sum = 0.0;

    for (int64_t i = 0; i < count; i++)
        sum += creal(x[i]) * 0.0 + cimag(x[i]) * 0.0;
    return sum;
}

int startrd_zscan_finite(char uplo, int64_t n, const double complex *a, int64_t lda, int64_t col0,
                         int64_t cols)
{
    double sum = 0.0;

    /* Contiguous runs in both cases: for 'U' the block row is read one
     * column segment at a time, not row by row with stride lda. */
    if (uplo == 'L') {
        for (int64_t c = col0; c < col0 + cols; c++)
            sum += nan_sum(a + c * lda + c, n - c);
    } else {
        for (int64_t c = col0; c < n; c++)
            sum += nan_sum(a + c * lda + col0, c - col0 + 1 < cols ? c - col0 + 1 : cols);
    }
    return !isnan(sum);
}
