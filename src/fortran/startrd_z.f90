! StarTRD's Fortran interfaces to the double complex solvers of startrd_z.h:
! the reduction zhetrd_2stage_mgpu, the back-transformation
! zunmtr_2stage_mgpu, the eigensolver drivers and the generalized
! problem's (zhegvd_2stage_mgpu, zhegvx_2stage_mgpu), each with its _64 twin
! (every integer argument integer(c_int64_t)), and the _gpu twins of the
! reduction, the back-transformation and the zheevd, zheevr, zhegvd and
! zhegvx drivers on matrices in GPU memory (zhetrd_2stage_mgpu_gpu,
! zunmtr_2stage_mgpu_gpu, zheevd_2stage_mgpu_gpu, zheevr_2stage_mgpu_gpu,
! zhegvd_2stage_mgpu_gpu, zhegvx_2stage_mgpu_gpu and their _64 forms).
! Module startrd, which applications use, gathers the four precisions; its
! source (startrd.f90) explains the conventions.  The arguments are those of
! the C functions, documented in startrd_z.h; in the real precisions the
! matrix is symmetric.
!
! The arguments the C functions take as NULL are OPTIONAL (Fortran 2018,
! from TS 29113), so that leaving them out passes NULL: work and hous2 of the
! reduction (with lwork = 0 and lhous2 = 0 the library allocates them) and
! Z of the selected-eigenvalue drivers, zhegvx_2stage_mgpu's included, with
! jobz = 'N'.
!
! The _gpu functions take their matrices dA, dB, dZ and dC as type(c_ptr),
! passed by value: c_loc of a device array, or a pointer from cudaMalloc
! (c_null_ptr for a dZ that jobz = 'N' leaves unused).  Their other arrays
! are host arrays, declared as in the host functions.
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

        ! The reduction on dA in GPU memory, as zhetrd_2stage_mgpu: the band
        ! and the stage-1 reflectors are left in dA; d, e, tau and hous2 are
        ! host arrays.
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

        ! dC := Q dC or Q^H dC in GPU memory, with the reflectors that
        ! zhetrd_2stage_mgpu_gpu left in dA; tau and hous2 are host arrays.
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

        ! All eigenvalues of dA in GPU memory, as ZHEEVD, and with jobz = 'V'
        ! the eigenvectors in dA; w is a host array.
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

        ! Selected eigenvalues of dA in GPU memory by range 'A', 'V' (in
        ! (vl, vu]) or 'I' (il..iu), as ZHEEVR_2STAGE, and optionally their
        ! eigenvectors in dZ in GPU memory; m and w are host variables.
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

        ! The generalized problem on dA and dB in GPU memory, as ZHEGVD: all
        ! eigenvalues in the host array w, and with jobz = 'V' the
        ! eigenvectors in dA; B's Cholesky factor in dB on exit.
        function zhegvd_2stage_mgpu_gpu(itype, jobz, uplo, n, dA, ldda, dB, lddb, w, ngpu) &
                bind(C, name='zhegvd_2stage_mgpu_gpu') result(info)
            import
            integer(c_int), value :: itype
            character(kind=c_char), value :: jobz, uplo
            integer(c_int), value :: n, ldda, lddb, ngpu
            type(c_ptr), value :: dA, dB
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvd_2stage_mgpu_gpu

        function zhegvd_2stage_mgpu_gpu_64(itype, jobz, uplo, n, dA, ldda, dB, lddb, w, ngpu) &
                bind(C, name='zhegvd_2stage_mgpu_gpu_64') result(info)
            import
            integer(c_int64_t), value :: itype
            character(kind=c_char), value :: jobz, uplo
            integer(c_int64_t), value :: n, ldda, lddb, ngpu
            type(c_ptr), value :: dA, dB
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvd_2stage_mgpu_gpu_64

        ! Selected pairs of the generalized problem on dA, dB and dZ in GPU
        ! memory, as ZHEGVX, with fact = 'N' (B factored here, its factor in
        ! dB on exit) or 'F' (dB holds the factor a previous call left there,
        ! not written); m and w are host variables.
        function zhegvx_2stage_mgpu_gpu(itype, jobz, range, uplo, fact, n, dA, ldda, dB, lddb, vl, vu, il, iu, m, &
                                        w, dZ, lddz, ngpu) bind(C, name='zhegvx_2stage_mgpu_gpu') result(info)
            import
            integer(c_int), value :: itype
            character(kind=c_char), value :: jobz, range, uplo, fact
            integer(c_int), value :: n, ldda, lddb, il, iu, lddz, ngpu
            real(c_double), value :: vl, vu
            type(c_ptr), value :: dA, dB, dZ
            integer(c_int), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvx_2stage_mgpu_gpu

        function zhegvx_2stage_mgpu_gpu_64(itype, jobz, range, uplo, fact, n, dA, ldda, dB, lddb, vl, vu, il, iu, m, &
                                           w, dZ, lddz, ngpu) bind(C, name='zhegvx_2stage_mgpu_gpu_64') result(info)
            import
            integer(c_int64_t), value :: itype
            character(kind=c_char), value :: jobz, range, uplo, fact
            integer(c_int64_t), value :: n, ldda, lddb, il, iu, lddz, ngpu
            real(c_double), value :: vl, vu
            type(c_ptr), value :: dA, dB, dZ
            integer(c_int64_t), intent(out) :: m
            real(c_double), intent(out) :: w(*)
            integer(c_int) :: info
        end function zhegvx_2stage_mgpu_gpu_64
    end interface
end module startrd_z
