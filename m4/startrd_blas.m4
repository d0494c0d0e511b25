# STARTRD_CHECK_BLAS
# ------------------
# BLAS, CBLAS, LAPACK, LAPACKE and the reference matrix generators (zlatms,
# for the tests): by default from the OpenBLAS that tools/setup.sh builds,
# which holds all of them in one library (--with-openblas=PREFIX, else found
# in /opt/startrd-deps), else from BLAS_LIBS or the system's OpenBLAS with
# LAPACKE and libtmglib beside it.
# Sets BLAS_LIBS (for libtool, whose -R records the run path in the
# library and the programs), BLAS_PC_LIBS (the same for startrd.pc's users),
# BLAS_CFLAGS, LAPACKE_LIBS, TMG_LIBS, OPENMP_CFLAGS and STARTRD_BLAS_NAME.
AC_DEFUN([STARTRD_CHECK_BLAS], [
  AC_ARG_WITH([openblas],
    [AS_HELP_STRING([--with-openblas=PREFIX], [OpenBLAS with LAPACK and LAPACKE installed in PREFIX (tools/setup.sh prints it)])],
    [], [AS_IF([test "x$BLAS_LIBS" = x],
               [with_openblas=`ls -d /opt/startrd-deps/openblas-* 2>/dev/null | sort -r | head -n 1`])])
  AC_ARG_VAR([BLAS_LIBS], [linker flags for CBLAS and LAPACK (default: --with-openblas, else the system's OpenBLAS)])
  BLAS_CFLAGS=
  startrd_blas_dir=
  AS_IF([test "x$with_openblas" != x && test "x$with_openblas" != xno], [
    AS_IF([test -f "$with_openblas/include/cblas.h"], [],
      [AC_MSG_ERROR([no OpenBLAS in $with_openblas: run tools/setup.sh])])
    BLAS_LIBS="-L$with_openblas/lib -Wl,-rpath,$with_openblas/lib -lopenblas"
    BLAS_CFLAGS="-I$with_openblas/include"
    startrd_blas_dir="$with_openblas/lib"
  ], [test "x$BLAS_LIBS" = x], [
    PKG_CHECK_MODULES([OPENBLAS], [openblas], [BLAS_LIBS="$OPENBLAS_LIBS"; BLAS_CFLAGS="$OPENBLAS_CFLAGS"],
      [AC_CHECK_LIB([openblas], [cblas_zgemm], [BLAS_LIBS=-lopenblas],
        [AC_MSG_ERROR([OpenBLAS (CBLAS) not found: run tools/setup.sh])])])])
  CPPFLAGS="$BLAS_CFLAGS $CPPFLAGS"
  startrd_libs_saved="$LIBS"
  LIBS="$BLAS_LIBS $LIBS"
  AC_CHECK_HEADER([cblas.h], [], [AC_MSG_ERROR([cblas.h not found: run tools/setup.sh])])
  AC_CHECK_FUNC([cblas_zgemm], [], [AC_MSG_ERROR([$BLAS_LIBS lacks CBLAS])])
  AC_CHECK_FUNC([zhetrd_2stage_], [], [AC_MSG_ERROR([$BLAS_LIBS lacks LAPACK 3.7+ (zhetrd_2stage)])])
  AC_CHECK_FUNCS([openblas_set_num_threads openblas_get_num_threads openblas_get_parallel openblas_get_corename openblas_get_config])
  AC_CHECK_FUNC([LAPACKE_zheevd], [startrd_blas_has_lapacke=yes], [startrd_blas_has_lapacke=no])
  AC_CHECK_FUNC([zlatms_], [startrd_blas_has_tmg=yes], [startrd_blas_has_tmg=no])
  LIBS="$startrd_libs_saved"
  STARTRD_BLAS_NAME="$BLAS_LIBS"

  AC_CHECK_HEADER([lapacke.h], [], [AC_MSG_ERROR([lapacke.h not found: run tools/setup.sh])])
  LAPACKE_LIBS=
  AS_IF([test $startrd_blas_has_lapacke = no],
    [AC_CHECK_LIB([lapacke], [LAPACKE_zheevd], [LAPACKE_LIBS=-llapacke],
      [AC_MSG_ERROR([LAPACKE not found: run tools/setup.sh])], [$BLAS_LIBS])])
  TMG_LIBS=
  AS_IF([test $startrd_blas_has_tmg = no],
    [AC_CHECK_LIB([tmglib], [zlatms_], [TMG_LIBS=-ltmglib],
      [AC_MSG_ERROR([the matrix generators of TMGLIB (zlatms) not found: run tools/setup.sh])], [$BLAS_LIBS])])

  # StarPU's workers set their own thread's BLAS thread count, which an
  # OpenMP-threaded BLAS keeps per thread.
  AC_OPENMP
  AS_IF([test "x$ac_cv_prog_c_openmp" = xunsupported],
    [AC_MSG_ERROR([the C compiler does not support OpenMP, which sets each worker's BLAS thread count])])
  BLAS_PC_LIBS="$BLAS_LIBS"
  AS_IF([test "x$startrd_blas_dir" != x], [BLAS_LIBS="-L$startrd_blas_dir -R$startrd_blas_dir -lopenblas"])
  AC_SUBST([BLAS_LIBS])
  AC_SUBST([BLAS_PC_LIBS])
  AC_SUBST([BLAS_CFLAGS])
  AC_SUBST([LAPACKE_LIBS])
  AC_SUBST([TMG_LIBS])
])
