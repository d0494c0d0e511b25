/* Tile conversions (startrd_tile_conversion_t) of the generalized problem
 * and of the back-transformation's lower copy of the reflectors:
 * a Hermitian tile made whole from its stored triangle, the adjoint of a
 * tile, one triangle copied into another tile.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "codelets_z.h"
#include "error.h"

#include <stdlib.h>

#ifdef STARTRD_USE_CUDA
#include "kernels_cuda.h"
#endif

struct convert_args {
    startrd_tile_conversion_t how;
};

/* Whether the triangle copies keep B's other triangle: they read B too. */
static int keeps_rest(startrd_tile_conversion_t how)
{
    return how == STARTRD_TILE_LOWER_PART || how == STARTRD_TILE_UPPER_PART;
}

static double complex adjoint(double complex x)
{
#ifdef COMPLEX
    return conj(x);
#else
    return x;
#endif
}

/* A Hermitian matrix's diagonal is real; LAPACK ignores what the stored
 * imaginary parts say. */
static double complex diagonal(double complex x)
{
#ifdef COMPLEX
    return creal(x);
#else
    return x;
#endif
}

static void convert_cpu(void *buffers[], void *cl_arg)
{
    const startrd_tile_conversion_t how = ((const struct convert_args *)cl_arg)->how;
    void *out = buffers[startrd_current_nbuffers() - 1];
    const double complex *A = (const double complex *)STARPU_MATRIX_GET_PTR(buffers[0]);
    double complex *B = (double complex *)STARPU_MATRIX_GET_PTR(out);
    const int64_t m = STARPU_MATRIX_GET_NX(out), n = STARPU_MATRIX_GET_NY(out);
    const int64_t lda = STARPU_MATRIX_GET_LD(buffers[0]), ldb = STARPU_MATRIX_GET_LD(out);

    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double complex *b = &B[i + j * ldb];

            switch (how) {
            case STARTRD_TILE_ADJOINT:
                *b = adjoint(A[j + i * lda]);
                break;
            case STARTRD_TILE_FROM_LOWER:
                *b = i > j ? A[i + j * lda] : i < j ? adjoint(A[j + i * lda]) : diagonal(A[i + j * lda]);
                break;
            case STARTRD_TILE_FROM_UPPER:
                *b = i < j ? A[i + j * lda] : i > j ? adjoint(A[j + i * lda]) : diagonal(A[i + j * lda]);
                break;
            case STARTRD_TILE_LOWER_PART:
                if (i >= j)
                    *b = A[i + j * lda];
                break;
            case STARTRD_TILE_UPPER_PART:
                if (i <= j)
                    *b = A[i + j * lda];
                break;
            case STARTRD_TILE_ADJOINT_LOWER:
                *b = i > j ? adjoint(A[j + i * lda]) : 0.0;
                break;
            }
        }
}

#ifdef STARTRD_USE_CUDA
static void convert_cuda(void *buffers[], void *cl_arg)
{
    void *out = buffers[startrd_current_nbuffers() - 1];
    cudaError_t st = startrd_cuda_ztile_convert(
        (int)((const struct convert_args *)cl_arg)->how, STARPU_MATRIX_GET_NX(out), STARPU_MATRIX_GET_NY(out),
        (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]), STARPU_MATRIX_GET_LD(buffers[0]),
        (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(out), STARPU_MATRIX_GET_LD(out), starpu_cuda_get_local_stream());

    if (st != cudaSuccess)
        startrd_kernel_failure("ztile_convert", "tile conversion kernel", st);
}
#endif

STARTRD_HISTORY_MODEL(convert_model, "startrd_ztile_convert");

/* [0]: B only written; [1]: B's other triangle kept; [2]: in place, one
 * tile (a Hermitian tile made whole from its triangle). */
static struct starpu_codelet convert_codelet[3] = {
    {.name = "ztile_convert", .cpu_funcs = {convert_cpu}, STARTRD_CUDA_ASYNC(convert_cuda) .nbuffers = 2,
     .modes = {STARPU_R, STARPU_W}, .model = &convert_model},
    {.name = "ztile_convert", .cpu_funcs = {convert_cpu}, STARTRD_CUDA_ASYNC(convert_cuda) .nbuffers = 2,
     .modes = {STARPU_R, STARPU_RW}, .model = &convert_model},
    {.name = "ztile_convert", .cpu_funcs = {convert_cpu}, STARTRD_CUDA_ASYNC(convert_cuda) .nbuffers = 1,
     .modes = {STARPU_RW}, .model = &convert_model},
};

int startrd_task_ztile_convert(startrd_place_t place, startrd_tile_conversion_t how, starpu_data_handle_t A,
                               starpu_data_handle_t B)
{
    struct convert_args *args = malloc(sizeof *args);

    if (args == NULL)
        return -ENOMEM;
    args->how = how;
    if (A == B)
        return starpu_task_insert(&convert_codelet[2],
                                  STARPU_CL_ARGS, args, sizeof *args,
                                  STARPU_RW, A,
                                  STARTRD_PLACE_ARGS(place),
                                  0);
    return starpu_task_insert(&convert_codelet[keeps_rest(how)],
                              STARPU_CL_ARGS, args, sizeof *args,
                              STARPU_R, A, keeps_rest(how) ? STARPU_RW : STARPU_W, B,
                              STARTRD_PLACE_ARGS(place),
                              0);
}
