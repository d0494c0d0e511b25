# STARTRD_CHECK_MPI
# -----------------
# The distributed entry points (libstartrd_mpi, include/startrd_mpi.h) need
# MPI and a ScaLAPACK whose BLACS reads the caller's process grid.  Both are
# found through pkg-config (OpenMPI's mpi-c, Debian's scalapack-openmpi, or
# a scalapack.pc), and mpirun runs their tests.  --without-mpi leaves them
# out; by default they are built when all three are found.  Sets
# MPI_CFLAGS, MPI_LIBS, SCALAPACK_LIBS, MPIRUN and the conditional USE_MPI.
AC_DEFUN([STARTRD_CHECK_MPI], [
  AC_ARG_WITH([mpi],
    [AS_HELP_STRING([--without-mpi], [leave out the distributed entry points (built when MPI and ScaLAPACK are found)])],
    [], [with_mpi=check])
  startrd_use_mpi=no
  startrd_mpi_why="--without-mpi"
  AS_IF([test "x$with_mpi" != xno], [
    PKG_CHECK_MODULES([MPI], [mpi-c], [startrd_have_mpi=yes], [startrd_have_mpi=no])
    PKG_CHECK_MODULES([SCALAPACK], [scalapack-openmpi], [startrd_have_scalapack=yes],
      [PKG_CHECK_MODULES([SCALAPACK], [scalapack], [startrd_have_scalapack=yes], [startrd_have_scalapack=no])])
    # ScaLAPACK's own BLAS and LAPACK stay out of the link line: the
    # programs link the library's BLAS first, and every call resolves there.
    SCALAPACK_LIBS=`echo " $SCALAPACK_LIBS " | sed 's/ -llapack / /g; s/ -lblas / /g'`
    AC_PATH_PROG([MPIRUN], [mpirun])
    AS_IF([test "x$startrd_have_mpi" != xyes], [startrd_mpi_why="no MPI (mpi-c.pc)"],
          [test "x$startrd_have_scalapack" != xyes], [startrd_mpi_why="no ScaLAPACK (scalapack.pc)"],
          [test -z "$MPIRUN"], [startrd_mpi_why="no mpirun"],
          [startrd_use_mpi=yes; startrd_mpi_why=""])
    AS_IF([test "x$with_mpi" = xyes && test "x$startrd_use_mpi" != xyes],
      [AC_MSG_ERROR([--with-mpi: $startrd_mpi_why; run tools/setup.sh])])
  ])
  AM_CONDITIONAL([USE_MPI], [test "x$startrd_use_mpi" = xyes])
])
