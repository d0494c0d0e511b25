! Module startrd_mpi: the distributed entry points of startrd_mpi.h, as
! interfaces to the C functions themselves (bind(C)), with the conventions
! of module startrd (src/fortran/startrd.f90).  The matrices are the local
! parts of ScaLAPACK's layout and the descriptors ScaLAPACK's DESCINIT
! makes; BLACS itself comes from the application's ScaLAPACK:
!
!   mpif90 prog.f90 -lstartrd_mpi $(pkg-config --cflags --libs startrd) -lscalapack-openmpi
module startrd_mpi
    use, intrinsic :: iso_c_binding, only: c_int, c_double, c_double_complex, c_char
    implicit none
    private
    public :: pzhetrd_2stage_mgpu, pzheevd_2stage_mgpu

    interface
        ! The two-stage reduction of a distributed matrix: PZHETRD's
        ! arguments, D, E and TAU tied to A's columns; HOUS2 (vect = 'V')
        ! on every process; lhous2 = -1 is a size query.
        function pzhetrd_2stage_mgpu(vect, uplo, n, A, ia, ja, desca, d, e, tau, hous2, lhous2, ngpu) &
                bind(C, name='pzhetrd_2stage_mgpu') result(info)
            import
            character(kind=c_char), value :: vect, uplo
            integer(c_int), value :: n, ia, ja, lhous2, ngpu
            complex(c_double_complex), intent(inout) :: A(*)
            integer(c_int), intent(in) :: desca(9)
            real(c_double), intent(out) :: d(*), e(*)
            complex(c_double_complex), intent(out) :: tau(*)
            complex(c_double_complex), intent(inout) :: hous2(*)
            integer(c_int) :: info
        end function pzhetrd_2stage_mgpu

        ! All eigenvalues, on every process, and with jobz = 'V' the
        ! eigenvectors into Z's layout: PZHEEVD without its workspaces.
        function pzheevd_2stage_mgpu(jobz, uplo, n, A, ia, ja, desca, w, Z, iz, jz, descz, ngpu) &
                bind(C, name='pzheevd_2stage_mgpu') result(info)
            import
            character(kind=c_char), value :: jobz, uplo
            integer(c_int), value :: n, ia, ja, iz, jz, ngpu
            complex(c_double_complex), intent(in) :: A(*)
            integer(c_int), intent(in) :: desca(9), descz(9)
            real(c_double), intent(out) :: w(*)
            complex(c_double_complex), intent(inout) :: Z(*)
            integer(c_int) :: info
        end function pzheevd_2stage_mgpu
    end interface
end module startrd_mpi
