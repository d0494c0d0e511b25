! StarTRD's Fortran module: `use startrd` gives every public function of
! startrd.h in the four precisions, as interfaces to the C functions
! themselves (bind(C)), so the module holds no code and a program links
! only libstartrd:
!
!   gfortran prog.f90 $(pkg-config --cflags --libs startrd)
!
! (the compiled modules are installed beside startrd.h, which the Cflags
! name).  The conventions, which docs/usage.md ("From Fortran") details:
!
! - The functions return the C functions' status: 0, -i for argument i,
!   or a positive STARTRD_ERR_* code.
! - Character arguments are single characters passed by value: 'N', 'L'.
! - Integers are integer(c_int) and, in the _64 functions, integer(c_int64_t)
!   (what a program compiled with -fdefault-integer-8 passes).
! - Matrices are assumed-size arrays with their leading dimension, as in
!   LAPACK: A(lda, *); arrays of real values are real(c_double) or
!   real(c_float).
! - Arguments that the C functions accept as NULL are OPTIONAL, and leaving
!   one out passes NULL: the reduction's work and hous2 (give lwork = 0 and
!   lhous2 = 0: the library allocates them), Z of zheevdx/zheevr/zhegvx with
!   jobz = 'N', and the options of startrd_init (the defaults).  The
!   arguments after a left-out one are then passed by keyword.
! - Strings going to C end with c_null_char.  The options' strings
!   (scheduler, trace_dir, gpu_groups) are type(c_ptr): c_loc of a
!   null-terminated character(kind=c_char) array that lives as long as the
!   context, or c_null_ptr.
!
! The precision-dependent interfaces come from startrd_z.f90, from which
! tools/codegen.py generates startrd_s.f90, startrd_d.f90 and startrd_c.f90
! as it generates the C sources.
module startrd
    use, intrinsic :: iso_c_binding, only: c_int, c_double, c_char, c_ptr
    use startrd_s
    use startrd_d
    use startrd_c
    use startrd_z
    implicit none
    ! Everything is public, each precision's solvers included, except the
    ! kinds taken from iso_c_binding, which the program takes from there.
    private :: c_int, c_double, c_char, c_ptr

    ! enum startrd_status: the positive run-time error codes.
    enum, bind(C)
        enumerator :: STARTRD_SUCCESS = 0, STARTRD_ERR_RUNTIME = 1, STARTRD_ERR_NO_GPU = 2, &
                      STARTRD_ERR_MEMORY = 3, STARTRD_ERR_KERNEL = 4, STARTRD_ERR_STATE = 5, &
                      STARTRD_ERR_NONFINITE = 6, STARTRD_ERR_SIZE = 7, STARTRD_ERR_NOT_DEFINITE = 8
    end enum

    ! startrd_allreduce_t: how stage 1 combines the GPUs' shares of A*V.
    enum, bind(C)
        enumerator :: STARTRD_ALLREDUCE_HIERARCHICAL = 0, STARTRD_ALLREDUCE_HOST = 1, &
                      STARTRD_ALLREDUCE_FULL = 2, STARTRD_ALLREDUCE_AUTO = 3
    end enum

    ! startrd_stage2_where_t: where the bulge chase runs.
    enum, bind(C)
        enumerator :: STARTRD_STAGE2_AUTO = 0, STARTRD_STAGE2_HOST = 1
    end enum

    ! startrd_options_t, field by field in the C struct's order (the enums
    ! are C ints); tests/test_fortran checks the offsets against the C
    ! compiler's, so a field added in C without its twin here fails there.
    type, bind(C) :: startrd_options_t
        integer(c_int) :: ngpu
        integer(c_int) :: ncpu
        type(c_ptr) :: scheduler
        integer(c_int) :: nb
        integer(c_int) :: dist_nb
        integer(c_int) :: check_finite
        type(c_ptr) :: trace_dir
        integer(c_int) :: allreduce
        type(c_ptr) :: gpu_groups
        integer(c_int) :: stage2
        integer(c_int) :: stage2_ngpu
        integer(c_int) :: stage1_ngpu
        integer(c_int) :: panel_sms
        integer(c_int) :: quiet
    end type startrd_options_t

    ! startrd_stats_t: timings of the last reduction.
    type, bind(C) :: startrd_stats_t
        real(c_double) :: stage1_seconds
        real(c_double) :: stage2_seconds
        integer(c_int) :: ngpu
        integer(c_int) :: nb
        integer(c_int) :: allreduce
        real(c_double) :: tridiag_seconds
        real(c_double) :: backtransform_seconds
        integer(c_int) :: stage1_ngpu
        integer(c_int) :: stage2_ngpu
        real(c_double) :: standard_form_seconds
        real(c_double) :: backsubstitution_seconds
        integer(c_int) :: stage1_out_of_core
    end type startrd_stats_t

    interface
        subroutine startrd_options_init(opt) bind(C, name='startrd_options_init')
            import :: startrd_options_t
            type(startrd_options_t), intent(out) :: opt
        end subroutine startrd_options_init

        ! name ends with c_null_char: "host"//c_null_char.
        function startrd_allreduce_by_name(name) bind(C, name='startrd_allreduce_by_name') result(scheme)
            import :: c_int, c_char
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int) :: scheme
        end function startrd_allreduce_by_name

        ! A static null-terminated string (c_f_pointer reads it).
        function startrd_allreduce_name(scheme) bind(C, name='startrd_allreduce_name') result(name)
            import :: c_int, c_ptr
            integer(c_int), value :: scheme
            type(c_ptr) :: name
        end function startrd_allreduce_name

        ! Without opt, the defaults (NULL).
        function startrd_init(opt) bind(C, name='startrd_init') result(info)
            import :: c_int, startrd_options_t
            type(startrd_options_t), intent(in), optional :: opt
            integer(c_int) :: info
        end function startrd_init

        function startrd_finalize() bind(C, name='startrd_finalize') result(info)
            import :: c_int
            integer(c_int) :: info
        end function startrd_finalize

        function startrd_gpu_count() bind(C, name='startrd_gpu_count') result(count)
            import :: c_int
            integer(c_int) :: count
        end function startrd_gpu_count

        subroutine startrd_last_stats(stats) bind(C, name='startrd_last_stats')
            import :: startrd_stats_t
            type(startrd_stats_t), intent(out) :: stats
        end subroutine startrd_last_stats
    end interface
end module startrd
