# STARTRD_CHECK_BLAS
# ------------------
# CBLAS and LAPACK from OpenBLAS, the C interface from LAPACKE, and the
# reference matrix generators (zlatms) from libtmglib for the tests.
# Sets BLAS_LIBS, LAPACKE_LIBS, TMG_LIBS and STARTRD_BLAS_NAME.
AC_DEFUN([STARTRD_CHECK_BLAS], [
  AC_ARG_VAR([BLAS_LIBS], [linker flags for CBLAS and LAPACK (default: found OpenBLAS)])
  AS_IF([test "x$BLAS_LIBS" = x], [
    PKG_CHECK_MODULES([OPENBLAS], [openblas], [BLAS_LIBS="$OPENBLAS_LIBS"; CPPFLAGS="$CPPFLAGS $OPENBLAS_CFLAGS"],
      [AC_CHECK_LIB([openblas], [cblas_zgemm], [BLAS_LIBS=-lopenblas],
        [AC_MSG_ERROR([OpenBLAS (CBLAS) not found: install libopenblas-dev or run tools/setup.sh])])])])
  startrd_libs_saved="$LIBS"
  LIBS="$BLAS_LIBS $LIBS"
  AC_CHECK_HEADER([cblas.h], [], [AC_MSG_ERROR([cblas.h not found: install libopenblas-dev or run tools/setup.sh])])
  AC_CHECK_FUNC([cblas_zgemm], [], [AC_MSG_ERROR([$BLAS_LIBS lacks CBLAS])])
  AC_CHECK_FUNC([zhetrd_2stage_], [], [AC_MSG_ERROR([$BLAS_LIBS lacks LAPACK 3.7+ (zhetrd_2stage)])])
  AC_CHECK_FUNCS([openblas_set_num_threads openblas_get_corename])
  LIBS="$startrd_libs_saved"
  STARTRD_BLAS_NAME="$BLAS_LIBS"

  AC_CHECK_HEADER([lapacke.h], [], [AC_MSG_ERROR([lapacke.h not found: install liblapacke-dev or run tools/setup.sh])])
  AC_CHECK_LIB([lapacke], [LAPACKE_zheevd], [LAPACKE_LIBS=-llapacke],
    [AC_MSG_ERROR([LAPACKE not found: install liblapacke-dev or run tools/setup.sh])], [$BLAS_LIBS])
  AC_CHECK_LIB([tmglib], [zlatms_], [TMG_LIBS=-ltmglib],
    [AC_MSG_ERROR([libtmglib (zlatms) not found: install liblapacke-dev or run tools/setup.sh])], [$BLAS_LIBS])
  AC_SUBST([BLAS_LIBS])
  AC_SUBST([LAPACKE_LIBS])
  AC_SUBST([TMG_LIBS])
])
