! The Fortran module (src/fortran/startrd.f90) from a Fortran program: the
! structs' layout against the C compiler's (tests/test_fortran_layout.c),
! the context opened with options, argument errors, the workspace query,
! the optional arguments that pass NULL, and each precision's solvers on
! n = 200 against LAPACK, in the 32-bit and the _64 forms, the generalized
! problem's drivers in complex double.  It runs on CPU workers only
! (ngpu = 0): what it tests is the binding, which the GPUs do not change,
! and on CPU workers it takes a few seconds.
!
! Prints one line per check and a final "N passed, M failed"; exits with
! status 1 when a check failed.
program test_fortran
    use, intrinsic :: iso_c_binding
    use startrd
    implicit none

    interface
        ! tests/test_fortran_layout.c: the C compiler's size and offsets.
        function test_fortran_options_layout(offsets) bind(C) result(size)
            import :: c_size_t
            integer(c_size_t), intent(out) :: offsets(*)
            integer(c_size_t) :: size
        end function test_fortran_options_layout

        function test_fortran_stats_layout(offsets) bind(C) result(size)
            import :: c_size_t
            integer(c_size_t), intent(out) :: offsets(*)
            integer(c_size_t) :: size
        end function test_fortran_stats_layout
    end interface

    ! LAPACK, the reference.
    external :: dsyevd, zheevd, ssyevd, cheevd, dsterf, zhegvd

    integer, parameter :: n = 200, nb = 16
    integer, parameter :: dp = c_double, sp = c_float
    integer :: npass = 0, nfail = 0

    real(dp), allocatable :: ad(:, :), ad0(:, :), zd(:, :), qd(:, :)
    real(dp), allocatable :: wd(:), wdref(:), dd(:), ed(:), taud(:), hd(:), workd(:)
    complex(dp), allocatable, target :: az(:, :), az0(:, :), zz(:, :), qz(:, :), tauz(:), hz(:), workz(:)
    real(dp), allocatable :: wz(:), wzref(:)
    ! The generalized problem: B Hermitian positive definite, LAPACK's
    ! eigenvalues of (A, B) and its Cholesky factor of B.
    complex(dp), allocatable :: bz(:, :), bz0(:, :), bzfac(:, :), bzsave(:, :)
    real(dp), allocatable :: wgref(:)
    real(sp), allocatable :: as(:, :), ws(:), wsref(:)
    complex(sp), allocatable :: ac(:, :)
    real(sp), allocatable :: wc(:), wcref(:)
    real(dp) :: hq(1), wq(1)
    complex(dp) :: hzq(1), wzq(1)
    type(startrd_options_t), target :: opt
    type(startrd_stats_t), target :: stats
    ! A string handed to C lives as long as C may read it: the context's.
    character(kind=c_char), target :: scheduler(6) = ['d', 'm', 'd', 'a', 's', c_null_char]
    integer(c_int) :: info, m, lhous2, lwork
    integer(c_int64_t) :: m64
    real(dp) :: err = 0, res = 0, orth = 0
    integer :: i

    call make_matrices()

    call check_layout()

    ! The defaults that no environment variable changes.
    call startrd_options_init(opt)
    call check(opt%ngpu == -1 .and. opt%ncpu == -1 .and. .not. c_associated(opt%scheduler) &
               .and. opt%nb == 0 .and. opt%dist_nb == 0, "startrd_options_init: the defaults")
    call check(startrd_allreduce_by_name("host" // c_null_char) == STARTRD_ALLREDUCE_HOST, &
               "startrd_allreduce_by_name: host")
    call check(startrd_allreduce_by_name("none" // c_null_char) == -1, "startrd_allreduce_by_name: none is -1")
    call check(c_string(startrd_allreduce_name(STARTRD_ALLREDUCE_FULL)) == "full", "startrd_allreduce_name")

    ! Argument errors return -i, i the argument's place, and open nothing;
    ! left-out optional arguments are NULL to the library.
    call check(dsyevd_2stage_mgpu('V', 'L', -1, ad, n, wd, 0) == -3, "dsyevd_2stage_mgpu: n = -1 is argument 3")
    call check(zheevd_2stage_mgpu_64('N', 'X', int(n, c_int64_t), az, int(n, c_int64_t), wz, 0_c_int64_t) == -2, &
               "zheevd_2stage_mgpu_64: uplo = 'X' is argument 2")
    call check(dsytrd_2stage_mgpu('N', 'L', n, ad, n, dd, ed, taud, lhous2=4 * n, lwork=0, ngpu=0) == -9, &
               "dsytrd_2stage_mgpu: hous2 left out (NULL) with lhous2 > 0 is argument 9")
    call check(zheevdx_2stage_mgpu('V', 'L', n, az, n, 1, 5, m, wz, ldz=n, ngpu=0) == -10, &
               "zheevdx_2stage_mgpu: Z left out (NULL) with jobz = 'V' is argument 10")

    ! The context, with options: CPU workers, a band of 16, a scheduler named
    ! through a C pointer.
    opt%ngpu = 0
    opt%nb = nb
    opt%scheduler = c_loc(scheduler)
    call check(startrd_init(opt) == 0, "startrd_init with options")
    call check(startrd_gpu_count() == 0, "startrd_gpu_count: 0 with ngpu = 0")
    info = startrd_init()
    if (info == 0) info = startrd_finalize()
    call check(info == 0, "startrd_init without options (NULL) joins the open context")

    ! The workspace query with vect = 'V', then the reduction and Q applied
    ! to the identity: A Q = Q T.
    info = dsytrd_2stage_mgpu('V', 'L', n, ad, n, dd, ed, taud, hq, -1, wq, -1, 0)
    lhous2 = int(hq(1), c_int)
    lwork = int(wq(1), c_int)
    call check(info == 0 .and. lwork >= (2 * nb + 1) * n .and. lhous2 >= n, &
               "dsytrd_2stage_mgpu: the workspace query")
    allocate(hd(lhous2), workd(lwork))
    ad = ad0
    info = dsytrd_2stage_mgpu('V', 'L', n, ad, n, dd, ed, taud, hd, lhous2, workd, lwork, 0)
    call check(info == 0, "dsytrd_2stage_mgpu: vect = 'V' with the queried workspaces")
    call startrd_last_stats(stats)
    call check(stats%nb == nb .and. stats%ngpu == 0 .and. stats%stage2_ngpu == 0, &
               "startrd_last_stats: the context's band and no GPU")
    qd = identity()
    info = dormtr_2stage_mgpu('N', 'L', n, n, ad, n, taud, hd, lhous2, qd, n, 0)
    res = tridiagonal_residual_d(ad0, qd, dd, ed)
    orth = orthogonality_d(qd)
    call check(info == 0 .and. res < 10 .and. orth < 10, &
               "dormtr_2stage_mgpu: A Q = Q T, Q orthogonal" // values(res=res, orth=orth))

    info = zhetrd_2stage_mgpu('V', 'U', n, az, n, dd, ed, tauz, hzq, -1, wzq, -1, 0)
    lhous2 = int(real(hzq(1)), c_int)
    lwork = int(real(wzq(1)), c_int)
    allocate(hz(lhous2), workz(lwork))
    az = az0
    info = zhetrd_2stage_mgpu('V', 'U', n, az, n, dd, ed, tauz, hz, lhous2, workz, lwork, 0)
    call check(info == 0, "zhetrd_2stage_mgpu: vect = 'V', uplo = 'U'")
    qz = identity()   ! real to complex by assignment
    info = zunmtr_2stage_mgpu('N', 'U', n, n, az, n, tauz, hz, lhous2, qz, n, 0)
    res = tridiagonal_residual_z(az0, qz, dd, ed)
    orth = orthogonality_z(qz)
    call check(info == 0 .and. res < 10 .and. orth < 10, &
               "zunmtr_2stage_mgpu: A Q = Q T, Q unitary" // values(res=res, orth=orth))

    ! Workspaces left out: the library allocates them.  The tridiagonal's
    ! eigenvalues are A's.
    ad = ad0
    info = dsytrd_2stage_mgpu('N', 'L', n, ad, n, dd, ed, taud, lhous2=0, lwork=0, ngpu=0)
    call dsterf(n, dd, ed, i)
    err = eigenvalue_error(dd, wdref, norm2(ad0))
    call check(info == 0 .and. i == 0 .and. err < 10, &
               "dsytrd_2stage_mgpu: work and hous2 left out (NULL)" // values(err))

    ! The eigensolvers, each precision, against LAPACK.
    ad = ad0
    info = dsyevd_2stage_mgpu('V', 'L', n, ad, n, wd, 0)
    err = eigenvalue_error(wd, wdref, norm2(ad0))
    res = pairs_residual_d(ad0, ad, wd)
    orth = orthogonality_d(ad)
    call check(info == 0 .and. err < 10 .and. res < 10 .and. orth < 10, &
               "dsyevd_2stage_mgpu: eigenvalues, A v = lambda v" // values(err, res, orth))
    az = az0
    info = zheevd_2stage_mgpu('V', 'L', n, az, n, wz, 0)
    err = eigenvalue_error(wz, wzref, norm2(abs(az0)))
    res = pairs_residual_z(az0, az, wz)
    orth = orthogonality_z(az)
    call check(info == 0 .and. err < 10 .and. res < 10 .and. orth < 10, &
               "zheevd_2stage_mgpu: eigenvalues, A v = lambda v" // values(err, res, orth))
    ! Single precision: the error relative to its own epsilon.
    as = real(ad0, sp)
    info = ssyevd_2stage_mgpu('N', 'U', n, as, n, ws, 0)
    err = eigenvalue_error(real(ws, dp), real(wsref, dp), norm2(ad0)) * epsilon(1.0_dp) / epsilon(1.0_sp)
    call check(info == 0 .and. err < 10, "ssyevd_2stage_mgpu: eigenvalues" // values(err))
    ac = cmplx(az0, kind=sp)
    info = cheevd_2stage_mgpu('N', 'L', n, ac, n, wc, 0)
    err = eigenvalue_error(real(wc, dp), real(wcref, dp), norm2(abs(az0))) * epsilon(1.0_dp) / epsilon(1.0_sp)
    call check(info == 0 .and. err < 10, "cheevd_2stage_mgpu: eigenvalues" // values(err))

    ! The _64 forms.
    ad = ad0
    info = dsyevd_2stage_mgpu_64('N', 'L', int(n, c_int64_t), ad, int(n, c_int64_t), wd, 0_c_int64_t)
    err = eigenvalue_error(wd, wdref, norm2(ad0))
    call check(info == 0 .and. err < 10, "dsyevd_2stage_mgpu_64: eigenvalues" // values(err))
    az = az0
    info = zheevd_2stage_mgpu_64('V', 'U', int(n, c_int64_t), az, int(n, c_int64_t), wz, 0_c_int64_t)
    err = eigenvalue_error(wz, wzref, norm2(abs(az0)))
    res = pairs_residual_z(az0, az, wz)
    orth = orthogonality_z(az)
    call check(info == 0 .and. err < 10 .and. res < 10 .and. orth < 10, &
               "zheevd_2stage_mgpu_64: eigenvalues, A v = lambda v" // values(err, res, orth))
    ! The _gpu form takes the matrix by address (here in host memory, which
    ! it also takes).
    az = az0
    info = zheevd_2stage_mgpu_gpu('V', 'L', n, c_loc(az), n, wz, 0)
    err = eigenvalue_error(wz, wzref, norm2(abs(az0)))
    res = pairs_residual_z(az0, az, wz)
    orth = orthogonality_z(az)
    call check(info == 0 .and. err < 10 .and. res < 10 .and. orth < 10, &
               "zheevd_2stage_mgpu_gpu: eigenvalues, A v = lambda v" // values(err, res, orth))

    ! Selected pairs: by index without vectors (Z left out), by index with
    ! vectors, by value with vectors in the _64 form.
    az = az0
    info = zheevr_2stage_mgpu('N', 'I', 'L', n, az, n, 0.0_dp, 0.0_dp, 5, 20, m, wz, ldz=1, ngpu=0)
    err = eigenvalue_error(wz(1:16), wzref(5:20), norm2(abs(az0)))
    call check(info == 0 .and. m == 16 .and. err < 10, "zheevr_2stage_mgpu: range 'I' without Z" // values(err))
    ad = ad0
    info = dsyevdx_2stage_mgpu('V', 'L', n, ad, n, 1, 10, m, wd, zd, n, 0)
    err = eigenvalue_error(wd(1:10), wdref(1:10), norm2(ad0))
    res = pairs_residual_d(ad0, zd(:, 1:10), wd(1:10))
    orth = orthogonality_d(zd(:, 1:10))
    call check(info == 0 .and. m == 10 .and. err < 10 .and. res < 10 .and. orth < 10, &
               "dsyevdx_2stage_mgpu: the 10 lowest pairs" // values(err, res, orth))
    az = az0
    info = zheevr_2stage_mgpu_64('V', 'V', 'U', int(n, c_int64_t), az, int(n, c_int64_t), -1.0_dp, 1.0_dp, &
                                 0_c_int64_t, 0_c_int64_t, m64, wz, zz, int(n, c_int64_t), 0_c_int64_t)
    i = count(wzref > -1.0_dp .and. wzref <= 1.0_dp)
    if (info == 0 .and. m64 == i .and. i > 0) then
        err = eigenvalue_error(wz(1:i), pack(wzref, wzref > -1.0_dp .and. wzref <= 1.0_dp), norm2(abs(az0)))
        res = pairs_residual_z(az0, zz(:, 1:i), wz(1:i))
        orth = orthogonality_z(zz(:, 1:i))
    end if
    call check(info == 0 .and. m64 == i .and. i > 0 .and. err < 10 .and. res < 10 .and. orth < 10, &
               "zheevr_2stage_mgpu_64: range 'V', the pairs in (-1, 1]" // values(err, res, orth))

    ! The generalized problem, itype 1: all pairs with B's factor on exit,
    ! then selected ones given that factor (fact = 'F', Z left out with
    ! jobz = 'N'), and the _64 forms.
    az = az0
    bz = bz0
    info = zhegvd_2stage_mgpu(1, 'V', 'L', n, az, n, bz, n, wz, 0)
    err = eigenvalue_error(wz, wgref, norm2(abs(az0)))
    res = generalized_residual_z(az0, bz0, az, wz)
    orth = b_orthogonality_z(bz0, az)
    call check(info == 0 .and. err < 10 .and. res < 10 .and. orth < 10 .and. factor_error_z(bz, bzfac) < 10, &
               "zhegvd_2stage_mgpu: eigenvalues, A v = lambda B v, V^H B V = I, B's factor" // values(err, res, orth))
    call check(zhegvx_2stage_mgpu(1, 'V', 'I', 'L', 'F', n, az, n, bz, n, 0.0_dp, 0.0_dp, 1, 5, m, wz, ldz=n, &
                                  ngpu=0) == -17, "zhegvx_2stage_mgpu: Z left out (NULL) with jobz = 'V' is argument 17")
    az = az0
    bzsave = bz
    info = zhegvx_2stage_mgpu(1, 'N', 'I', 'L', 'F', n, az, n, bz, n, 0.0_dp, 0.0_dp, 5, 20, m, wz, ldz=1, ngpu=0)
    err = eigenvalue_error(wz(1:16), wgref(5:20), norm2(abs(az0)))
    call check(info == 0 .and. m == 16 .and. err < 10 .and. same_bits(bz, bzsave), &
               "zhegvx_2stage_mgpu: range 'I' with B's factor given (B kept), without Z" // values(err))
    az = az0
    bz = bz0
    info = zhegvd_2stage_mgpu_64(1_c_int64_t, 'N', 'U', int(n, c_int64_t), az, int(n, c_int64_t), bz, &
                                 int(n, c_int64_t), wz, 0_c_int64_t)
    err = eigenvalue_error(wz, wgref, norm2(abs(az0)))
    call check(info == 0 .and. err < 10, "zhegvd_2stage_mgpu_64: eigenvalues" // values(err))
    az = az0
    bz = bz0
    info = zhegvx_2stage_mgpu_64(1_c_int64_t, 'V', 'I', 'U', 'N', int(n, c_int64_t), az, int(n, c_int64_t), bz, &
                                 int(n, c_int64_t), 0.0_dp, 0.0_dp, 1_c_int64_t, 10_c_int64_t, m64, wz, zz, &
                                 int(n, c_int64_t), 0_c_int64_t)
    err = eigenvalue_error(wz(1:10), wgref(1:10), norm2(abs(az0)))
    res = generalized_residual_z(az0, bz0, zz(:, 1:10), wz(1:10))
    orth = b_orthogonality_z(bz0, zz(:, 1:10))
    call check(info == 0 .and. m64 == 10 .and. err < 10 .and. res < 10 .and. orth < 10, &
               "zhegvx_2stage_mgpu_64: the 10 lowest pairs" // values(err, res, orth))

    call check(startrd_finalize() == 0, "startrd_finalize")
    call check(startrd_finalize() == STARTRD_ERR_STATE, "startrd_finalize without startrd_init: STARTRD_ERR_STATE")

    ! The main program's arrays are never freed by themselves: LeakSanitizer
    ! (tools/check-sanitizers.sh) would count them.
    deallocate(ad, ad0, zd, qd, wd, wdref, dd, ed, taud, hd, workd, az, az0, zz, qz, tauz, hz, workz, &
               wz, wzref, as, ws, wsref, ac, wc, wcref, bz, bz0, bzfac, bzsave, wgref)

    print '(i0, " passed, ", i0, " failed")', npass, nfail
    if (nfail > 0) stop 1

contains

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(*), intent(in) :: what

        if (ok) then
            npass = npass + 1
            print '("PASS ", a)', what
        else
            nfail = nfail + 1
            print '("FAIL ", a)', what
        end if
        ! A later crash must not swallow the lines already decided.
        flush(6)
    end subroutine check

    ! The sizes and offsets of the two structs, against the C compiler's.
    subroutine check_layout()
        integer(c_size_t) :: coff(16), foff(16), csize
        integer(c_intptr_t) :: base

        csize = test_fortran_options_layout(coff)
        base = transfer(c_loc(opt), base)
        foff(1:14) = [offset(c_loc(opt%ngpu), base), offset(c_loc(opt%ncpu), base), offset(c_loc(opt%scheduler), base), &
                      offset(c_loc(opt%nb), base), offset(c_loc(opt%dist_nb), base), offset(c_loc(opt%check_finite), base), &
                      offset(c_loc(opt%trace_dir), base), offset(c_loc(opt%allreduce), base), offset(c_loc(opt%gpu_groups), base), &
                      offset(c_loc(opt%stage2), base), offset(c_loc(opt%stage2_ngpu), base), offset(c_loc(opt%stage1_ngpu), base), &
                      offset(c_loc(opt%panel_sms), base), offset(c_loc(opt%quiet), base)]
        call check(csize == c_sizeof(opt) .and. all(coff(1:14) == foff(1:14)), &
                   "startrd_options_t: the C struct's size and offsets")

        csize = test_fortran_stats_layout(coff)
        base = transfer(c_loc(stats), base)
        foff(1:12) = [offset(c_loc(stats%stage1_seconds), base), offset(c_loc(stats%stage2_seconds), base), &
                      offset(c_loc(stats%ngpu), base), offset(c_loc(stats%nb), base), offset(c_loc(stats%allreduce), base), &
                      offset(c_loc(stats%tridiag_seconds), base), offset(c_loc(stats%backtransform_seconds), base), &
                      offset(c_loc(stats%stage1_ngpu), base), offset(c_loc(stats%stage2_ngpu), base), &
                      offset(c_loc(stats%standard_form_seconds), base), offset(c_loc(stats%backsubstitution_seconds), base), &
                      offset(c_loc(stats%stage1_out_of_core), base)]
        call check(csize == c_sizeof(stats) .and. all(coff(1:12) == foff(1:12)), &
                   "startrd_stats_t: the C struct's size and offsets")
    end subroutine check_layout

    ! Bytes from base, a struct's address, to p, one of its fields'.
    integer(c_size_t) function offset(p, base)
        type(c_ptr), intent(in) :: p
        integer(c_intptr_t), intent(in) :: base

        offset = int(transfer(p, base) - base, c_size_t)
    end function offset

    ! The Fortran string of a null-terminated C string.
    function c_string(p) result(s)
        type(c_ptr), intent(in) :: p
        character(:), allocatable :: s
        character(kind=c_char), pointer :: chars(:)
        integer :: k

        call c_f_pointer(p, chars, [64])
        k = 0
        do while (chars(k + 1) /= c_null_char)
            k = k + 1
        end do
        allocate(character(k) :: s)
        do k = 1, len(s)
            s(k:k) = chars(k)
        end do
    end function c_string

    ! Random symmetric and Hermitian matrices (eigenvalues in about
    ! [-2, 2]) and LAPACK's eigenvalues of each, in both precisions.
    subroutine make_matrices()
        integer, allocatable :: seed(:)
        real(dp), allocatable :: re(:, :), im(:, :), work(:), rwork(:)
        complex(dp), allocatable :: zwork(:), acopy(:, :)
        real(sp), allocatable :: swork(:), srwork(:)
        complex(sp), allocatable :: cwork(:)
        integer, allocatable :: iwork(:)
        integer :: k, lapack_info

        call random_seed(size=k)
        allocate(seed(k))
        seed = [(20240 + 7 * i, i = 1, k)]
        call random_seed(put=seed)
        allocate(re(n, n), im(n, n))
        call random_number(re)
        call random_number(im)
        ad0 = (re + transpose(re) - 1.0_dp) / sqrt(real(n, dp))
        az0 = cmplx(re + transpose(re) - 1.0_dp, im - transpose(im), dp) / sqrt(real(n, dp))

        allocate(ad(n, n), az(n, n), zd(n, n), zz(n, n), qd(n, n), qz(n, n), as(n, n), ac(n, n))
        allocate(wd(n), wdref(n), dd(n), ed(n), taud(n), tauz(n), wz(n), wzref(n), ws(n), wsref(n), wc(n), wcref(n))
        allocate(work(1 + 6 * n + 2 * n * n), rwork(1 + 5 * n + 2 * n * n), zwork(2 * n + n * n), iwork(3 + 5 * n))
        allocate(swork(1 + 6 * n + 2 * n * n), srwork(1 + 5 * n + 2 * n * n), cwork(2 * n + n * n))

        ad = ad0
        call dsyevd('N', 'L', n, ad, n, wdref, work, size(work), iwork, size(iwork), lapack_info)
        if (lapack_info /= 0) error stop "DSYEVD failed"
        acopy = az0
        call zheevd('N', 'L', n, acopy, n, wzref, zwork, size(zwork), rwork, size(rwork), iwork, size(iwork), &
                    lapack_info)
        if (lapack_info /= 0) error stop "ZHEEVD failed"
        as = real(ad0, sp)
        call ssyevd('N', 'L', n, as, n, wsref, swork, size(swork), iwork, size(iwork), lapack_info)
        if (lapack_info /= 0) error stop "SSYEVD failed"
        ac = cmplx(az0, kind=sp)
        call cheevd('N', 'L', n, ac, n, wcref, cwork, size(cwork), srwork, size(srwork), iwork, size(iwork), &
                    lapack_info)
        if (lapack_info /= 0) error stop "CHEEVD failed"

        ! B = X^H X / n + I, its eigenvalues in about [1, 2]; made exactly
        ! Hermitian, since the product's two triangles may round apart.
        call random_number(re)
        call random_number(im)
        acopy = cmplx(re - 0.5_dp, im - 0.5_dp, dp)
        bz0 = matmul(conjg(transpose(acopy)), acopy) / n
        bz0 = (bz0 + conjg(transpose(bz0))) / 2
        do k = 1, n
            bz0(k, k) = real(bz0(k, k), dp) + 1
        end do
        allocate(bz(n, n), wgref(n))
        acopy = az0
        bzfac = bz0
        call zhegvd(1, 'N', 'L', n, acopy, n, bzfac, n, wgref, zwork, size(zwork), rwork, size(rwork), iwork, &
                    size(iwork), lapack_info)
        if (lapack_info /= 0) error stop "ZHEGVD failed"
    end subroutine make_matrices

    ! max |w - wref| / (||A||_F n eps).
    pure real(dp) function eigenvalue_error(w, wref, anorm)
        real(dp), intent(in) :: w(:), wref(:), anorm

        eigenvalue_error = maxval(abs(w - wref)) / (anorm * n * epsilon(1.0_dp))
    end function eigenvalue_error

    ! The figures a check's line shows.
    function values(err, res, orth) result(text)
        real(dp), intent(in), optional :: err, res, orth
        character(:), allocatable :: text
        character(12) :: number

        text = ""
        if (present(err)) then
            write(number, '(es9.2)') err
            text = text // ": eigenvalue error " // trim(adjustl(number))
        end if
        if (present(res)) then
            write(number, '(es9.2)') res
            if (present(err)) then
                text = text // ", residual " // trim(adjustl(number))
            else
                text = text // ": residual " // trim(adjustl(number))
            end if
        end if
        if (present(orth)) then
            write(number, '(es9.2)') orth
            text = text // ", orthogonality " // trim(adjustl(number))
        end if
    end function values

    ! ||A Z - Z diag(w)||_F / (||A||_F n eps).
    pure real(dp) function pairs_residual_d(a, z, w)
        real(dp), intent(in) :: a(:, :), z(:, :), w(:)

        pairs_residual_d = norm2(matmul(a, z) - z * spread(w, 1, n)) / (norm2(a) * n * epsilon(1.0_dp))
    end function pairs_residual_d

    pure real(dp) function pairs_residual_z(a, z, w)
        complex(dp), intent(in) :: a(:, :), z(:, :)
        real(dp), intent(in) :: w(:)

        pairs_residual_z = norm2(abs(matmul(a, z) - z * spread(w, 1, n))) / (norm2(abs(a)) * n * epsilon(1.0_dp))
    end function pairs_residual_z

    ! Whether x and y hold the same bits: "not written" is bit for bit.
    pure logical function same_bits(x, y)
        complex(dp), intent(in) :: x(:, :), y(:, :)

        same_bits = all(transfer(x, [0_c_int64_t]) == transfer(y, [0_c_int64_t]))
    end function same_bits

    ! ||A Z - B Z diag(w)||_F / (||A||_F n eps): B's eigenvalues about 1 keep
    ! ||Z|| and ||B|| near 1.
    pure real(dp) function generalized_residual_z(a, b, z, w)
        complex(dp), intent(in) :: a(:, :), b(:, :), z(:, :)
        real(dp), intent(in) :: w(:)

        generalized_residual_z = norm2(abs(matmul(a, z) - matmul(b, z) * spread(w, 1, n))) &
                                 / (norm2(abs(a)) * n * epsilon(1.0_dp))
    end function generalized_residual_z

    ! ||Z^H B Z - I||_F / (n eps).
    pure real(dp) function b_orthogonality_z(b, z)
        complex(dp), intent(in) :: b(:, :), z(:, :)
        complex(dp), allocatable :: g(:, :)
        integer :: k

        g = matmul(conjg(transpose(z)), matmul(b, z))
        do k = 1, size(g, 1)
            g(k, k) = g(k, k) - 1
        end do
        b_orthogonality_z = norm2(abs(g)) / (n * epsilon(1.0_dp))
    end function b_orthogonality_z

    ! ||tril(F) - tril(R)||_F / (||tril(R)||_F n eps): B's factor in the
    ! lower triangle against LAPACK's.
    pure real(dp) function factor_error_z(f, r)
        complex(dp), intent(in) :: f(:, :), r(:, :)
        real(dp) :: diff, norm
        integer :: j

        diff = 0
        norm = 0
        do j = 1, n
            diff = diff + sum(abs(f(j:, j) - r(j:, j))**2)
            norm = norm + sum(abs(r(j:, j))**2)
        end do
        factor_error_z = sqrt(diff) / (sqrt(norm) * n * epsilon(1.0_dp))
    end function factor_error_z

    ! ||A Q - Q T||_F / (||A||_F n eps), T = tridiag(e, d, e).
    pure real(dp) function tridiagonal_residual_d(a, q, d, e)
        real(dp), intent(in) :: a(:, :), q(:, :), d(:), e(:)
        real(dp), allocatable :: t(:, :)

        allocate(t(n, n))
        call tridiagonal(d, e, t)
        tridiagonal_residual_d = norm2(matmul(a, q) - matmul(q, t)) / (norm2(a) * n * epsilon(1.0_dp))
    end function tridiagonal_residual_d

    pure real(dp) function tridiagonal_residual_z(a, q, d, e)
        complex(dp), intent(in) :: a(:, :), q(:, :)
        real(dp), intent(in) :: d(:), e(:)
        real(dp), allocatable :: t(:, :)

        allocate(t(n, n))
        call tridiagonal(d, e, t)
        tridiagonal_residual_z = norm2(abs(matmul(a, q) - matmul(q, t))) &
                                 / (norm2(abs(a)) * n * epsilon(1.0_dp))
    end function tridiagonal_residual_z

    ! ||Z^H Z - I||_F / (n eps).
    pure real(dp) function orthogonality_d(z)
        real(dp), intent(in) :: z(:, :)
        real(dp), allocatable :: g(:, :)
        integer :: k

        g = matmul(transpose(z), z)
        do k = 1, size(g, 1)
            g(k, k) = g(k, k) - 1
        end do
        orthogonality_d = norm2(g) / (n * epsilon(1.0_dp))
    end function orthogonality_d

    pure real(dp) function orthogonality_z(z)
        complex(dp), intent(in) :: z(:, :)
        complex(dp), allocatable :: g(:, :)
        integer :: k

        g = matmul(conjg(transpose(z)), z)
        do k = 1, size(g, 1)
            g(k, k) = g(k, k) - 1
        end do
        orthogonality_z = norm2(abs(g)) / (n * epsilon(1.0_dp))
    end function orthogonality_z

    pure subroutine tridiagonal(d, e, t)
        real(dp), intent(in) :: d(:), e(:)
        real(dp), intent(out) :: t(:, :)
        integer :: k

        t = 0
        do k = 1, n
            t(k, k) = d(k)
        end do
        do k = 1, n - 1
            t(k + 1, k) = e(k)
            t(k, k + 1) = e(k)
        end do
    end subroutine tridiagonal

    ! The n x n identity, which assignment turns complex where needed.
    function identity() result(q)
        real(dp) :: q(n, n)
        integer :: k

        q = 0
        do k = 1, n
            q(k, k) = 1
        end do
    end function identity
end program test_fortran
