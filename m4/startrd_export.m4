# STARTRD_EXPORT_FLAGS
# --------------------
# What startrd.pc and the CMake package (StarTRDConfig.cmake) hand to an
# application, from what the other checks found, so that neither needs
# StarPU's or hwloc's own .pc (StarPU's lives in the setup's prefix, which
# the application's pkg-config does not search):
#   STARTRD_EXPORT_CFLAGS        the BLAS's headers (startrd.h itself needs
#                                only <complex.h> and <stdint.h>)
#   STARTRD_EXPORT_LIBS          what a program linked to the shared library
#                                needs beyond it: the same BLAS and LAPACKE
#   STARTRD_EXPORT_LIBS_PRIVATE  what the static library needs beyond that:
#                                StarPU and hwloc, CUDA, OpenMP, libm
#   STARTRD_EXPORT_CUDA          TRUE or FALSE, for CMake
# Every -L directory outside the linker's default ones comes with its
# -Wl,-rpath, so that the program runs without LD_LIBRARY_PATH.  Without a
# shared library (--disable-shared) the private flags are public ones.
AC_DEFUN([STARTRD_EXPORT_FLAGS], [
  AC_REQUIRE([PKG_PROG_PKG_CONFIG])
  # StarPU's and hwloc's own link lines, not their --static ones: their
  # shared libraries bring their dependencies (the setup's OpenBLAS has no
  # static archive, so an all-static program cannot be linked anyway).
  startrd_export_private=`$PKG_CONFIG --libs starpu-1.4 hwloc` ||
    AC_MSG_ERROR([pkg-config --libs starpu-1.4 hwloc failed])
  startrd_export_private="$startrd_export_private $CUDA_LIBS $OPENMP_CFLAGS -lm"
  # Run paths for the -L directories not yet given one.
  startrd_export_rpaths=
  for startrd_f in $LAPACKE_LIBS $BLAS_PC_LIBS $startrd_export_private; do
    AS_CASE([$startrd_f],
      [-L/usr/lib|-L/lib|-L/usr/lib64|-L/lib64|-L/usr/lib/*-linux-gnu|-L/lib/*-linux-gnu|-L/usr/lib/|-L/lib/], [],
      [-L/*], [startrd_d=`echo "$startrd_f" | sed 's/^-L//'`
               AS_CASE([" $LAPACKE_LIBS $BLAS_PC_LIBS $startrd_export_rpaths "],
                 [*" -Wl,-rpath,$startrd_d "*], [],
                 [startrd_export_rpaths="$startrd_export_rpaths -Wl,-rpath,$startrd_d"])])
  done
  STARTRD_EXPORT_CFLAGS="$BLAS_CFLAGS"
  STARTRD_EXPORT_LIBS=`echo $LAPACKE_LIBS $BLAS_PC_LIBS`
  STARTRD_EXPORT_LIBS_PRIVATE=`echo $startrd_export_private $startrd_export_rpaths`
  AS_IF([test "x$enable_shared" = xno],
    [STARTRD_EXPORT_LIBS="$STARTRD_EXPORT_LIBS $STARTRD_EXPORT_LIBS_PRIVATE"
     STARTRD_EXPORT_LIBS_PRIVATE=])
  AS_IF([test "x$startrd_use_cuda" = xyes], [STARTRD_EXPORT_CUDA=TRUE], [STARTRD_EXPORT_CUDA=FALSE])
  AC_SUBST([STARTRD_EXPORT_CFLAGS])
  AC_SUBST([STARTRD_EXPORT_LIBS])
  AC_SUBST([STARTRD_EXPORT_LIBS_PRIVATE])
  AC_SUBST([STARTRD_EXPORT_CUDA])
  # The installation test builds the README's example with CMake too.
  AC_PATH_PROG([CMAKE], [cmake])
])
