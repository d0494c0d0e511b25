/* The two-sided update of one piece of block columns through cuBLAS, on
 * the stream of the handle it is given: codelet_zher2k_columns.c says why
 * it takes this form. */
#include "cuda_zgemm.h"
#include "error.h"
#include "kernels_stage1.h"
#include "wvw_view.h"

/* On a GPU the GEMM takes the diagonal block too, both its triangles: the
 * strictly upper one of a diagonal block is never read (the HEMM, the
 * panels, the band and the copies out read the lower one), and cuBLAS's
 * HER2K of a 1024 block, rank 64, takes longer than the GEMM that does
 * twice its flops (its diagonal then made real, see kernels_stage1.h;
 * docs/experiments.md, "Figures moved from the code"). */
int startrd_her2k_piece_cuda(cublasHandle_t h, const startrd_piece_t *u, const char *kernel)
{
    const cuDoubleComplex one = {1.0, 0.0}, mone = {-1.0, 0.0};
    struct wvw p = split(u);
    cublasStatus_t st;
    cudaStream_t stream;
    cudaError_t ce;

    st = startrd_cuda_zgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, u->m, u->w, 2 * p.nb, &mone, (const cuDoubleComplex *)p.w,
                            p.ld, (const cuDoubleComplex *)p.v, p.ld, &one, (cuDoubleComplex *)u->c, u->ld);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasGetStream(h, &stream);
    if (st != CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure(kernel, "cuBLAS", st);
        return -1;
    }
    if ((ce = startrd_cuda_real_diagonal((cuDoubleComplex *)u->c, u->ld, u->w, stream)) != cudaSuccess) {
        startrd_kernel_failure(kernel, "cudaMemset2DAsync", ce);
        return -1;
    }
    return 0;
}
