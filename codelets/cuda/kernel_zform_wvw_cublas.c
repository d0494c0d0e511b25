/* P = [W V W] through cuBLAS, on the calling worker's stream: the same
 * steps as cpu/kernel_zform_wvw.c.
 *
 * @precisions normal z -> s d c
 */
#include "error.h"
#include "kernels_stage1_z.h"
#include "scalars.h"
#include "wvw_view_z.h"

/* Compiled in every build, as its generated precisions are: empty without CUDA. */
#ifdef STARTRD_USE_CUDA
void startrd_zform_wvw_cuda(const startrd_wvw_operands_t *o)
{
    const cuDoubleComplex one = STARTRD_Z_ONE, zero = STARTRD_Z_ZERO, mhalf = STARTRD_Z_CUDA(-0.5),
                          mone = STARTRD_Z_MONE;
    struct form_view f = form_view(o);
    cublasHandle_t h = starpu_cublas_get_local_handle();
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cuDoubleComplex *y = (cuDoubleComplex *)f.y, *v = (cuDoubleComplex *)f.v, *t = (cuDoubleComplex *)f.t;
    cuDoubleComplex *z = (cuDoubleComplex *)f.z, *mm = (cuDoubleComplex *)f.mm, *w = (cuDoubleComplex *)f.w;
    size_t col = (size_t)f.m * sizeof *w, ldp = (size_t)f.ldp * sizeof *w;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    cudaError_t ce;
    int ldy = f.ldy;

    if (f.y2 != NULL || f.prev != NULL) {
        /* Y + Y2, or Y + 0 Y: a copy where only the correction follows. */
        st = cublasZgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, f.m, f.nb, &one, y, f.ldy, f.y2 != NULL ? &one : &zero,
                         f.y2 != NULL ? (cuDoubleComplex *)f.y2 : y, f.y2 != NULL ? f.ldy2 : f.ldy,
                         (cuDoubleComplex *)f.pw, f.ldp);
        y = (cuDoubleComplex *)f.pw;
        ldy = f.ldp;
    }
    if (f.prev != NULL && st == CUBLAS_STATUS_SUCCESS) {
        cuDoubleComplex *prev = (cuDoubleComplex *)f.prev;

        st = cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, 2 * f.nb, f.nb, f.m - f.dm, &one,
                         prev + (size_t)f.nb * f.ldprev, f.ldprev, v + f.dm, f.ldv, &zero, z, 2 * f.nb);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, f.m - f.dm, f.nb, 2 * f.nb, &mone, prev, f.ldprev, z,
                             2 * f.nb, &one, y + f.dm, ldy);
    }
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, f.m, f.nb, f.nb, &one, y, ldy, t, f.ldt, &zero, w, f.ldp);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, f.nb, f.nb, f.m, &one, v, f.ldv, w, f.ldp, &zero, z, f.ldz);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, f.nb, f.nb, f.nb, &one, t, f.ldt, z, f.ldz, &zero, mm, f.ldz);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, f.m, f.nb, f.nb, &mhalf, v, f.ldv, mm, f.ldz, &one, w, f.ldp);
    if (st != CUBLAS_STATUS_SUCCESS) {
        startrd_kernel_failure("form_wvw", "cuBLAS", st);
        return;
    }
    ce = cudaMemcpy2DAsync(f.pv, ldp, f.v, (size_t)f.ldv * sizeof *w, col, (size_t)f.nb, cudaMemcpyDeviceToDevice,
                           stream);
    if (ce == cudaSuccess)
        ce = cudaMemcpy2DAsync(f.pw, ldp, f.w, ldp, col, (size_t)f.nb, cudaMemcpyDeviceToDevice, stream);
    if (f.pair != NULL) {
        struct pair_sources ps = pair_sources(&f);

        for (size_t blk = 0; blk < 6 && ce == cudaSuccess; blk++)
            ce = cudaMemcpy2DAsync(f.pair + blk * (size_t)f.nb * (size_t)f.ldpair, (size_t)f.ldpair * sizeof *w,
                                   ps.src[blk], (size_t)ps.ld[blk] * sizeof *w, (size_t)(f.m - f.dm) * sizeof *w,
                                   (size_t)f.nb, cudaMemcpyDeviceToDevice, stream);
    }
    if (ce != cudaSuccess)
        startrd_kernel_failure("form_wvw", "cudaMemcpy2DAsync", ce);
}
#endif
