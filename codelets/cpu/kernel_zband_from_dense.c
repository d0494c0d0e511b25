/* Columns of a Hermitian matrix's band into the chase's band storage.
 * @precisions normal z -> s d c */
#include "kernels_stage2.h"

#include <complex.h>
#include <string.h>

void startrd_kernel_zband_from_dense(char uplo, int64_t n, int64_t kd, int64_t j0, int64_t j1,
                                     const double _Complex *A, int64_t lda, double _Complex *AB, int64_t ldab)
{
    /* Each entry written once: the copy, and zeros around it. */
    for (int64_t j = j0; j < j1; j++) {
        double complex *col = AB + j * ldab;

        if (uplo == 'L') {
            int64_t rows = n - j < kd + 1 ? n - j : kd + 1;

            memcpy(col, A + j * lda + j, (size_t)rows * sizeof *col);
            memset(col + rows, 0, (size_t)(ldab - rows) * sizeof *col);
        } else {
            int64_t i0 = j - kd > 0 ? j - kd : 0, first = 2 * kd - (j - i0);

            memset(col, 0, (size_t)first * sizeof *col);
            memcpy(col + first, A + j * lda + i0, (size_t)(j - i0 + 1) * sizeof *col);
            memset(col + 2 * kd + 1, 0, (size_t)(ldab - 2 * kd - 1) * sizeof *col);
        }
    }
}
