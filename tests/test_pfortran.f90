! The distributed entry points from Fortran (module startrd_mpi), with the
! grid and the descriptors made by BLACS and ScaLAPACK's DESCINIT as a
! Fortran application makes them.  pzheevd_2stage_mgpu: the eigenvalues
! against LAPACK's ZHEEVD, the residual and the orthogonality of the
! eigenvectors computed with ScaLAPACK's PZGEMM and PZLANGE.
! pzhetrd_2stage_mgpu: the size query, and the sum of D against the trace.
! Argument errors.  Process 0 prints one line per check and a final
! "N passed, M failed"; every process exits with status 1 when one failed.
program test_pfortran
    use, intrinsic :: iso_c_binding
    use startrd_mpi
    implicit none

    external :: blacs_pinfo, blacs_get, blacs_gridinit, blacs_gridinfo, blacs_gridexit, blacs_exit
    external :: descinit, pzgemm, pzlaset, zheevd, dgsum2d
    integer, external :: numroc
    double precision, external :: pzlange

    integer, parameter :: n = 120, nb = 16, dp = c_double
    complex(dp), parameter :: one = (1.0_dp, 0.0_dp), zero = (0.0_dp, 0.0_dp)
    integer :: me, np, ctxt, p, q, myrow, mycol, rows, cols, lld, info, i, j, il, jl, npass, nfail
    integer :: desca(9), bad(9), iwork(1)
    complex(dp), allocatable :: a(:, :), z(:, :), r(:, :), full(:, :), work(:), tau(:), h(:)
    real(dp), allocatable :: w(:), wref(:), rwork(:), d(:), e(:)
    real(dp) :: eps, anorm, resid, orth, diff, trace, sums(1)

    npass = 0
    nfail = 0
    eps = epsilon(1.0_dp)
    call blacs_pinfo(me, np)
    p = int(sqrt(real(np)))
    do while (mod(np, p) /= 0)
        p = p - 1
    end do
    q = np / p
    call blacs_get(-1, 0, ctxt)
    call blacs_gridinit(ctxt, 'Row', p, q)
    call blacs_gridinfo(ctxt, p, q, myrow, mycol)
    rows = numroc(n, nb, myrow, 0, p)
    cols = numroc(n, nb, mycol, 0, q)
    lld = max(1, rows)
    call descinit(desca, n, n, nb, nb, 0, 0, ctxt, lld, info)
    allocate (a(lld, max(1, cols)), z(lld, max(1, cols)), r(lld, max(1, cols)), full(n, n))
    allocate (w(n), wref(n), rwork(n), work(n + 1), d(max(1, cols)), e(max(1, cols)), tau(max(1, cols)), h(1))

    ! Entry (i, j) of a Hermitian matrix, a function of i and j alone.
    do j = 1, n
        do i = 1, n
            full(i, j) = cmplx(1.0_dp / (i + j), 0.5_dp * (j - i) / (i + j), dp)
        end do
        full(j, j) = mod(j, 7)
    end do
    do jl = 1, cols
        do il = 1, rows
            a(il, jl) = full(global(il, myrow, p), global(jl, mycol, q))
        end do
    end do

    info = pzheevd_2stage_mgpu('V', 'L', n, a, 1, 1, desca, w, z, 1, 1, desca, 0)
    call zheevd('N', 'L', n, full, n, wref, work, n + 1, rwork, n, iwork, 1, i)
    diff = maxval(abs(w - wref)) / (n * eps * maxval(abs(wref)))
    ! R = A Z - Z diag(w), then R = Z^H Z - I.
    anorm = pzlange('F', n, n, a, 1, 1, desca, rwork)
    call pzgemm('N', 'N', n, n, n, one, a, 1, 1, desca, z, 1, 1, desca, zero, r, 1, 1, desca)
    do jl = 1, cols
        r(1:rows, jl) = r(1:rows, jl) - w(global(jl, mycol, q)) * z(1:rows, jl)
    end do
    resid = pzlange('F', n, n, r, 1, 1, desca, rwork) / (n * anorm * eps)
    call pzlaset('A', n, n, zero, one, r, 1, 1, desca)
    call pzgemm('C', 'N', n, n, n, one, z, 1, 1, desca, z, 1, 1, desca, -one, r, 1, 1, desca)
    orth = pzlange('F', n, n, r, 1, 1, desca, rwork) / (n * eps)
    call check(info == 0 .and. i == 0 .and. diff < 10.0_dp .and. resid < 30.0_dp .and. orth < 30.0_dp, &
               'pzheevd_2stage_mgpu V L n=120 blocks 16', info, diff, resid, orth)

    ! The reduction: its size query, then the trace kept in D.
    info = pzhetrd_2stage_mgpu('V', 'L', n, a, 1, 1, desca, d, e, tau, h, -1, 0)
    call check(info == 0 .and. real(h(1)) >= 1.0_dp, 'pzhetrd_2stage_mgpu query', info, real(h(1)), 0.0_dp, 0.0_dp)
    do jl = 1, cols
        do il = 1, rows
            a(il, jl) = full0(global(il, myrow, p), global(jl, mycol, q))
        end do
    end do
    info = pzhetrd_2stage_mgpu('N', 'L', n, a, 1, 1, desca, d, e, tau, h, 0, 0)
    ! D is on every process row: the sum over the first row only.
    sums(1) = 0.0_dp
    if (myrow == 0) sums(1) = sum(d(1:cols))
    call dgsum2d(ctxt, 'All', ' ', 1, 1, sums, 1, -1, -1)
    trace = 0.0_dp
    do j = 1, n
        trace = trace + mod(j, 7)
    end do
    call check(info == 0 .and. abs(sums(1) - trace) <= 1.0e-10_dp * n, 'pzhetrd_2stage_mgpu N L: sum of D = trace', &
               info, sums(1), trace, 0.0_dp)

    ! Argument errors: the same code on every process.
    info = pzheevd_2stage_mgpu('X', 'L', n, a, 1, 1, desca, w, z, 1, 1, desca, 0)
    call check(info == -1, 'pzheevd_2stage_mgpu jobz X gives -1', info, 0.0_dp, 0.0_dp, 0.0_dp)
    bad = desca
    bad(5) = 0
    info = pzheevd_2stage_mgpu('V', 'L', n, a, 1, 1, bad, w, z, 1, 1, desca, 0)
    call check(info == -705, 'pzheevd_2stage_mgpu desca(5) = 0 gives -705', info, 0.0_dp, 0.0_dp, 0.0_dp)
    info = pzhetrd_2stage_mgpu('N', 'L', n, a, 1, 2, desca, d, e, tau, h, 0, 0)
    call check(info == -6, 'pzhetrd_2stage_mgpu ja = 2 gives -6', info, 0.0_dp, 0.0_dp, 0.0_dp)

    if (me == 0) print '(I0, " passed, ", I0, " failed")', npass, nfail
    call blacs_gridexit(ctxt)
    call blacs_exit(0)
    if (nfail > 0) stop 1

contains

    ! Global index (1-based) of local index @p l on process @p iproc of @p nprocs.
    integer function global(l, iproc, nprocs)
        integer, intent(in) :: l, iproc, nprocs
        global = ((l - 1) / nb * nprocs + iproc) * nb + mod(l - 1, nb) + 1
    end function global

    ! The matrix before ZHEEVD overwrote full: rebuilt from its formula.
    complex(dp) function full0(i, j)
        integer, intent(in) :: i, j
        if (i == j) then
            full0 = mod(j, 7)
        else
            full0 = cmplx(1.0_dp / (i + j), 0.5_dp * (j - i) / (i + j), dp)
        end if
    end function full0

    ! One check, agreed by every process (the least of their verdicts).
    subroutine check(ok, what, status, x1, x2, x3)
        logical, intent(in) :: ok
        character(*), intent(in) :: what
        integer, intent(in) :: status
        real(dp), intent(in) :: x1, x2, x3
        real(dp) :: verdict(1)
        external :: dgamn2d
        integer :: rdummy(1), cdummy(1)

        verdict(1) = merge(1.0_dp, 0.0_dp, ok)
        call dgamn2d(ctxt, 'All', ' ', 1, 1, verdict, 1, rdummy, cdummy, -1, -1, -1)
        if (verdict(1) > 0.5_dp) then
            npass = npass + 1
            if (me == 0) print '("PASS ", A, ": status ", I0, 3(" ", ES10.3))', what, status, x1, x2, x3
        else
            nfail = nfail + 1
            if (me == 0) print '("FAIL ", A, ": status ", I0, 3(" ", ES10.3))', what, status, x1, x2, x3
        end if
    end subroutine check
end program test_pfortran
