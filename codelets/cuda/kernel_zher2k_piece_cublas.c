/* The two-sided update of one piece of block columns through cuBLAS, on
 * the stream of the handle it is given: codelet_zher2k_columns.c says why
 * it takes this form.
 *
 * @precisions normal z -> s d c
 */
#define COMPLEX
#include "cuda_zgemm.h"
#include "error.h"
#include "kernels_stage1_z.h"
#include "scalars.h"
#include "wvw_view_z.h"

/* Compiled in every build, as its generated precisions are: empty without CUDA. */
#ifdef STARTRD_USE_CUDA
#ifdef COMPLEX
/* The diagonal of the piece's diagonal block made real again, on @p h's
 * stream (kernels_stage1_z.h); 0, or -1 once the failure is reported as
 * @p kernel's. */
static int real_diagonal(cublasHandle_t h, const startrd_piece_t *u, const char *kernel)
{
    cudaStream_t stream;
    cublasStatus_t st = cublasGetStream(h, &stream);
    cudaError_t ce;

    if (st != CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure(kernel, "cuBLAS", st);
        return -1;
    }
    if ((ce = startrd_cuda_zreal_diagonal(u->c, u->ld, u->w, stream)) != cudaSuccess) {
        startrd_kernel_failure(kernel, "cudaMemset2DAsync", ce);
        return -1;
    }
    return 0;
}
#endif

/* On a GPU the GEMM takes the diagonal block too, both its triangles: the
 * strictly upper one of a diagonal block is never read (the HEMM, the
 * panels, the band and the copies out read the lower one), and cuBLAS's
 * HER2K of a 1024 block, rank 64, takes longer than the GEMM that does
 * twice its flops (in the complex precisions its diagonal then made real;
 * docs/experiments.md, "Figures moved from the code"). */
int startrd_zher2k_piece_cuda(cublasHandle_t h, const startrd_piece_t *u, const char *kernel)
{
    const cuDoubleComplex one = STARTRD_Z_ONE, mone = STARTRD_Z_MONE;
    struct wvw p = split(u);
    cublasStatus_t st;

    st = startrd_cuda_zgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, u->m, u->w, 2 * p.nb, &mone, (const cuDoubleComplex *)p.w,
                            p.ld, (const cuDoubleComplex *)p.v, p.ld, &one, u->c, u->ld);
    if (st != CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure(kernel, "cuBLAS", st);
        return -1;
    }
#ifdef COMPLEX
    return real_diagonal(h, u, kernel);
#else
    return 0;
#endif
}
#endif
