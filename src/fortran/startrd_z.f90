! StarTRD's Fortran interfaces to the double complex solvers of startrd_z.h:
! the reduction zhetrd_2stage_mgpu, the back-transformation
! zunmtr_2stage_mgpu, the eigensolver drivers and the generalized
! problem's (zhegvd_2stage_mgpu, zhegvx_2stage_mgpu), each with its _64 twin
! (every integer argument integer(c_int64_t)), and their _gpu twins on
! matrices in GPU memory.  Module startrd, which
! applications use, gathers the four precisions; its source (startrd.f90)
! explains the conventions.  The arguments are those of the C functions,
! documented in startrd_z.h; in the real precisions the matrix is symmetric.
!
! The arguments the C functions take as NULL are OPTIONAL (Fortran 2018,
! from TS 29113), so that leaving them out passes NULL: work and hous2 of the
! reduction (with lwork = 0 and lhous2 = 0 the library allocates them) and
! Z of the selected-eigenvalue drivers, zhegvx_2stage_mgpu's included, with
! jobz = 'N'.
!
! @precisions normal z -> s d c
module startrd_z
    use, intrinsic :: iso_c_binding
    implicit none
    private
    public :: zhetrd_2stage_mgpu, zhetrd_2stage_mgpu_64
    public :: zunmtr_2stage_mgpu, zunmtr_2stage_mgpu_64
    public :: zheevd_2stage_mgpu, zheevd_2stage_mgpu_64
    public :: zheevdx_2stage_mgpu, zheevdx_2stage_mgpu_64
    public :: zheevr_2stage_mgpu, zheevr_2stage_mgpu_64
    public :: zhegvd_2stage_mgpu, zhegvd_2stage_mgpu_64
    public :: zhegvx_2stage_mgpu, zhegvx_2stage_mgpu_64
    public :: zhetrd_2stage_mgpu_gpu, zhetrd_2stage_mgpu_gpu_64
    public :: zunmtr_2stage_mgpu_gpu, zunmtr_2stage_mgpu_gpu_64
    public :: zheevd_2stage_mgpu_gpu, zheevd_2stage_mgpu_gpu_64
    public :: zheevr_2stage_mgpu_gpu, zheevr_2stage_mgpu_gpu_64
    public :: zhegvd_2stage_mgpu_gpu, zhegvd_2stage_mgpu_gpu_64
    public :: zhegvx_2stage_mgpu_gpu, zhegvx_2stage_mgpu_gpu_64

    interface
        ! Reduction to real symmetric tridiagonal form, as ZHETRD_2STAGE, plus
        ! ngpu.  lwork = -1 or lhous2 = -1 is a workspace query.
        function zhetrd_2stage_mgpu(vect, uplo, n, A, lda, d, e, tau, hous2, lhous2, work, lwork, ngpu) &
                bind(C, name='zhetrd_2stage_mgpu') result(info)
            import
            character(kind=c_char), value :: vect, uplo
            integer(c_int), value :: n, lda, lhous2, lwork, ngpu
            complex(c_double_complex), intent(inout) :: A(lda, *)
            real(c_double), intent(out) :: d(*), e(*)
            complex(c_double_complex), intent(out) :: tau(*)
            complex(c_double_complex), intent(inout), optional :: hous2(*), work(*)
            integer(c_int) :: info
        end function zhetrd_2stage_mgpu

        function zhetrd_2stage_mgpu_64(vect, uplo, n, A, lda, d, e, tau, hous2, lhous2, work, lwork, ngpu) &
                bind(C, name='zhetrd_2stage_mgpu_64') result(info)
            import
            character(kind=c_char), value :: vect, uplo
            integer(c_int64_t), value :: n, lda, lhous2, lwork, ngpu
            complex(c_double_complex), intent(inout) :: A(lda, *)
            real(c_double), intent(out) :: d(*), e(*)
            complex(c_double_complex), intent(out) :: tau(*)
            complex(c_double_complex), intent(inout), optional :: hous2(*), work(*)
            integer(c_int) :: info
        end function zhetrd_2stage_mgpu_64

        ! C := Q C or Q^H C with Q of a reduction with vect = 'V'.
        function zunmtr_2stage_mgpu(trans, uplo, n, m, A, lda, tau, hous2, lhous2, C, ldc, ngpu) &
                bind(C, name='zunmtr_2stage_mgpu') result(info)
            import
            character(kind=c_char), value :: trans, uplo
            integer(c_int), value :: n, m, lda, lhous2, ldc, ngpu
            complex(c_double_complex), intent(in) :: A(lda, *), tau(*), hous2(*)
            complex(c_double_complex), intent(inout) :: C(ldc, *)
            integer(c_int) :: info
        end function zunmtr_2stage_mgpu

        function zunmtr_2stage_mgpu_64(trans, uplo, n, m, A, lda, tau, hous2, lhous2, C, ldc, ngpu) &
                bind(C, name='zunmtr_2stage_mgpu_64') result(info)
            import
            character(kind=c_char), value :: trans, uplo
            integer(c_int64_t), value :: n, m, lda, lhous2, ldc, ngpu
            complex(c_double_complex), intent(in) :: A(lda, *), tau(*), hous2(*)
            complex(c_double_complex), intent(inout) :: C(ldc, *)
            integer(c_int) :: info
        end function zunmtr_2stage_mgpu_64

        ! All eigenvalues, and with jobz = 'V' the eigenvectors in A, as ZHEEVD.
        function zheevd_2stage_mgpu(jobz, uplo, n, A, lda, w, ngpu) &
                bind(C, name='zheevd_2stage_mgpu') result(info)
            import
            character(kind=c_char), value :: jobz, uplo
            integer(c_int), value :: n, lda, ngpu
            complex(c_double_complex), intent(inout) :: A(lda, *)
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zheevd_2stage_mgpu

        function zheevd_2stage_mgpu_64(jobz, uplo, n, A, lda, w, ngpu) &
                bind(C, name='zheevd_2stage_mgpu_64') result(info)
            import
            character(kind=c_char), value :: jobz, uplo
            integer(c_int64_t), value :: n, lda, ngpu
            complex(c_double_complex), intent(inout) :: A(lda, *)
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zheevd_2stage_mgpu_64

        ! Eigenvalues il..iu (1-based) and optionally their eigenvectors in Z.
        function zheevdx_2stage_mgpu(jobz, uplo, n, A, lda, il, iu, m, w, Z, ldz, ngpu) &
                bind(C, name='zheevdx_2stage_mgpu') result(info)
            import
            character(kind=c_char), value :: jobz, uplo
            integer(c_int), value :: n, lda, il, iu, ldz, ngpu
            complex(c_double_complex), intent(inout) :: A(lda, *)
            integer(c_int), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            complex(c_double_complex), intent(out), optional :: Z(ldz, *)
            integer(c_int) :: info
        end function zheevdx_2stage_mgpu

        function zheevdx_2stage_mgpu_64(jobz, uplo, n, A, lda, il, iu, m, w, Z, ldz, ngpu) &
                bind(C, name='zheevdx_2stage_mgpu_64') result(info)
            import
            character(kind=c_char), value :: jobz, uplo
            integer(c_int64_t), value :: n, lda, il, iu, ldz, ngpu
            complex(c_double_complex), intent(inout) :: A(lda, *)
            integer(c_int64_t), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            complex(c_double_complex), intent(out), optional :: Z(ldz, *)
            integer(c_int) :: info
        end function zheevdx_2stage_mgpu_64

        ! Selected eigenvalues by range 'A', 'V' (in (vl, vu]) or 'I' (il..iu),
        ! and optionally their eigenvectors in Z, as ZHEEVR_2STAGE.
        function zheevr_2stage_mgpu(jobz, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz, ngpu) &
                bind(C, name='zheevr_2stage_mgpu') result(info)
            import
            character(kind=c_char), value :: jobz, range, uplo
            integer(c_int), value :: n, lda, il, iu, ldz, ngpu
            real(c_double), value :: vl, vu
            complex(c_double_complex), intent(inout) :: A(lda, *)
            integer(c_int), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            complex(c_double_complex), intent(out), optional :: Z(ldz, *)
            integer(c_int) :: info
        end function zheevr_2stage_mgpu

        function zheevr_2stage_mgpu_64(jobz, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz, ngpu) &
                bind(C, name='zheevr_2stage_mgpu_64') result(info)
            import
            character(kind=c_char), value :: jobz, range, uplo
            integer(c_int64_t), value :: n, lda, il, iu, ldz, ngpu
            real(c_double), value :: vl, vu
            complex(c_double_complex), intent(inout) :: A(lda, *)
            integer(c_int64_t), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            complex(c_double_complex), intent(out), optional :: Z(ldz, *)
            integer(c_int) :: info
        end function zheevr_2stage_mgpu_64

        ! The generalized problem A x = lambda B x (itype 1), A B x = lambda x
        ! (2) or B A x = lambda x (3), as ZHEGVD: all eigenvalues, and with
        ! jobz = 'V' the eigenvectors in A; B's Cholesky factor on exit.
        function zhegvd_2stage_mgpu(itype, jobz, uplo, n, A, lda, B, ldb, w, ngpu) &
                bind(C, name='zhegvd_2stage_mgpu') result(info)
            import
            integer(c_int), value :: itype
            character(kind=c_char), value :: jobz, uplo
            integer(c_int), value :: n, lda, ldb, ngpu
            complex(c_double_complex), intent(inout) :: A(lda, *), B(ldb, *)
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvd_2stage_mgpu

        function zhegvd_2stage_mgpu_64(itype, jobz, uplo, n, A, lda, B, ldb, w, ngpu) &
                bind(C, name='zhegvd_2stage_mgpu_64') result(info)
            import
            integer(c_int64_t), value :: itype
            character(kind=c_char), value :: jobz, uplo
            integer(c_int64_t), value :: n, lda, ldb, ngpu
            complex(c_double_complex), intent(inout) :: A(lda, *), B(ldb, *)
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvd_2stage_mgpu_64

        ! Selected pairs of the generalized problem by range 'A', 'V' (in
        ! (vl, vu]) or 'I' (il..iu), as ZHEGVX, with fact = 'N' (B factored
        ! here, its factor on exit) or 'F' (B holds its factor, not written).
        function zhegvx_2stage_mgpu(itype, jobz, range, uplo, fact, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z, &
                                    ldz, ngpu) bind(C, name='zhegvx_2stage_mgpu') result(info)
            import
            integer(c_int), value :: itype
            character(kind=c_char), value :: jobz, range, uplo, fact
            integer(c_int), value :: n, lda, ldb, il, iu, ldz, ngpu
            real(c_double), value :: vl, vu
            complex(c_double_complex), intent(inout) :: A(lda, *), B(ldb, *)
            integer(c_int), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            complex(c_double_complex), intent(out), optional :: Z(ldz, *)
            integer(c_int) :: info
        end function zhegvx_2stage_mgpu

        function zhegvx_2stage_mgpu_64(itype, jobz, range, uplo, fact, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z, &
                                       ldz, ngpu) bind(C, name='zhegvx_2stage_mgpu_64') result(info)
            import
            integer(c_int64_t), value :: itype
            character(kind=c_char), value :: jobz, range, uplo, fact
            integer(c_int64_t), value :: n, lda, ldb, il, iu, ldz, ngpu
            real(c_double), value :: vl, vu
            complex(c_double_complex), intent(inout) :: A(lda, *), B(ldb, *)
            integer(c_int64_t), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            complex(c_double_complex), intent(out), optional :: Z(ldz, *)
            integer(c_int) :: info
        end function zhegvx_2stage_mgpu_64

        ! The same on matrices in GPU memory (startrd_z.h, "Data in GPU memory"):
        ! dA, dB, dZ and dC are device pointers, passed by value (c_loc of a
        ! device array, or a pointer from cudaMalloc); the others are host arrays.
        function zhetrd_2stage_mgpu_gpu(vect, uplo, n, dA, ldda, d, e, tau, hous2, lhous2, work, lwork, ngpu) &
                bind(C, name='zhetrd_2stage_mgpu_gpu') result(info)
            import
            character(kind=c_char), value :: vect, uplo
            integer(c_int), value :: n, ldda, lhous2, lwork, ngpu
            type(c_ptr), value :: dA
            real(c_double), intent(out) :: d(*), e(*)
            complex(c_double_complex), intent(out) :: tau(*)
            complex(c_double_complex), intent(inout), optional :: hous2(*), work(*)
            integer(c_int) :: info
        end function zhetrd_2stage_mgpu_gpu

        function zhetrd_2stage_mgpu_gpu_64(vect, uplo, n, dA, ldda, d, e, tau, hous2, lhous2, work, lwork, ngpu) &
                bind(C, name='zhetrd_2stage_mgpu_gpu_64') result(info)
            import
            character(kind=c_char), value :: vect, uplo
            integer(c_int64_t), value :: n, ldda, lhous2, lwork, ngpu
            type(c_ptr), value :: dA
            real(c_double), intent(out) :: d(*), e(*)
            complex(c_double_complex), intent(out) :: tau(*)
            complex(c_double_complex), intent(inout), optional :: hous2(*), work(*)
            integer(c_int) :: info
        end function zhetrd_2stage_mgpu_gpu_64

        function zunmtr_2stage_mgpu_gpu(trans, uplo, n, m, dA, ldda, tau, hous2, lhous2, dC, lddc, ngpu) &
                bind(C, name='zunmtr_2stage_mgpu_gpu') result(info)
            import
            character(kind=c_char), value :: trans, uplo
            integer(c_int), value :: n, m, ldda, lhous2, lddc, ngpu
            type(c_ptr), value :: dA, dC
            complex(c_double_complex), intent(in) :: tau(*), hous2(*)
            integer(c_int) :: info
        end function zunmtr_2stage_mgpu_gpu

        function zunmtr_2stage_mgpu_gpu_64(trans, uplo, n, m, dA, ldda, tau, hous2, lhous2, dC, lddc, ngpu) &
                bind(C, name='zunmtr_2stage_mgpu_gpu_64') result(info)
            import
            character(kind=c_char), value :: trans, uplo
            integer(c_int64_t), value :: n, m, ldda, lhous2, lddc, ngpu
            type(c_ptr), value :: dA, dC
            complex(c_double_complex), intent(in) :: tau(*), hous2(*)
            integer(c_int) :: info
        end function zunmtr_2stage_mgpu_gpu_64

        function zheevd_2stage_mgpu_gpu(jobz, uplo, n, dA, ldda, w, ngpu) &
                bind(C, name='zheevd_2stage_mgpu_gpu') result(info)
            import
            character(kind=c_char), value :: jobz, uplo
            integer(c_int), value :: n, ldda, ngpu
            type(c_ptr), value :: dA
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zheevd_2stage_mgpu_gpu

        function zheevd_2stage_mgpu_gpu_64(jobz, uplo, n, dA, ldda, w, ngpu) &
                bind(C, name='zheevd_2stage_mgpu_gpu_64') result(info)
            import
            character(kind=c_char), value :: jobz, uplo
            integer(c_int64_t), value :: n, ldda, ngpu
            type(c_ptr), value :: dA
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zheevd_2stage_mgpu_gpu_64

        function zheevr_2stage_mgpu_gpu(jobz, range, uplo, n, dA, ldda, vl, vu, il, iu, m, w, dZ, lddz, ngpu) &
                bind(C, name='zheevr_2stage_mgpu_gpu') result(info)
            import
            character(kind=c_char), value :: jobz, range, uplo
            integer(c_int), value :: n, ldda, il, iu, lddz, ngpu
            real(c_double), value :: vl, vu
            type(c_ptr), value :: dA, dZ
            integer(c_int), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zheevr_2stage_mgpu_gpu

        function zheevr_2stage_mgpu_gpu_64(jobz, range, uplo, n, dA, ldda, vl, vu, il, iu, m, w, dZ, lddz, ngpu) &
                bind(C, name='zheevr_2stage_mgpu_gpu_64') result(info)
            import
            character(kind=c_char), value :: jobz, range, uplo
            integer(c_int64_t), value :: n, ldda, il, iu, lddz, ngpu
            real(c_double), value :: vl, vu
            type(c_ptr), value :: dA, dZ
            integer(c_int64_t), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zheevr_2stage_mgpu_gpu_64

        function zhegvd_2stage_mgpu_gpu(itype, jobz, uplo, n, dA, ldda, dB, lddb, w, ngpu) &
                bind(C, name='zhegvd_2stage_mgpu_gpu') result(info)
            import
            character(kind=c_char), value :: jobz, uplo
            integer(c_int), value :: itype, n, ldda, lddb, ngpu
            type(c_ptr), value :: dA, dB
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvd_2stage_mgpu_gpu

        function zhegvd_2stage_mgpu_gpu_64(itype, jobz, uplo, n, dA, ldda, dB, lddb, w, ngpu) &
                bind(C, name='zhegvd_2stage_mgpu_gpu_64') result(info)
            import
            character(kind=c_char), value :: jobz, uplo
            integer(c_int64_t), value :: itype, n, ldda, lddb, ngpu
            type(c_ptr), value :: dA, dB
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvd_2stage_mgpu_gpu_64

        function zhegvx_2stage_mgpu_gpu(itype, jobz, range, uplo, fact, n, dA, ldda, dB, lddb, vl, vu, &
                il, iu, m, w, dZ, lddz, ngpu) &
                bind(C, name='zhegvx_2stage_mgpu_gpu') result(info)
            import
            character(kind=c_char), value :: jobz, range, uplo, fact
            integer(c_int), value :: itype, n, ldda, lddb, il, iu, lddz, ngpu
            real(c_double), value :: vl, vu
            type(c_ptr), value :: dA, dB, dZ
            integer(c_int), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvx_2stage_mgpu_gpu

        function zhegvx_2stage_mgpu_gpu_64(itype, jobz, range, uplo, fact, n, dA, ldda, dB, lddb, vl, vu, &
                il, iu, m, w, dZ, lddz, ngpu) &
                bind(C, name='zhegvx_2stage_mgpu_gpu_64') result(info)
            import
            character(kind=c_char), value :: jobz, range, uplo, fact
            integer(c_int64_t), value :: itype, n, ldda, lddb, il, iu, lddz, ngpu
            real(c_double), value :: vl, vu
            type(c_ptr), value :: dA, dB, dZ
            integer(c_int64_t), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvx_2stage_mgpu_gpu_64
    end interface
end module startrd_z
