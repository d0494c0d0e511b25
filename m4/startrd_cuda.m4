# STARTRD_CHECK_CUDA
# ------------------
# CUDA codelets are built when nvcc is found and StarPU was built with CUDA;
# --without-cuda forces a CPU-only library.  A CPU-only StarPU next to an
# installed toolkit is not an error: the library then runs on CPU workers.
# Sets CUDA_CFLAGS, CUDA_LIBS, NVCC, NVCC_ARCHS, the STARTRD_USE_CUDA macro
# and the USE_CUDA automake conditional.
AC_DEFUN([STARTRD_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda=DIR], [CUDA toolkit (default: $CUDA_HOME or /usr/local/cuda); --without-cuda builds for CPUs only])],
    [], [with_cuda=check])
  AC_ARG_VAR([NVCC_ARCHS], [CUDA compute capabilities to build for (default: "80 90")])
  AS_IF([test "x$NVCC_ARCHS" = x], [NVCC_ARCHS="80 90"])
  startrd_use_cuda=no
  startrd_cuda_why=
  AS_CASE([$with_cuda],
    [no], [startrd_cuda_why="--without-cuda"],
    [check|yes], [startrd_cuda_dir=${CUDA_HOME:-/usr/local/cuda}],
    [startrd_cuda_dir=$with_cuda])
  AS_IF([test "x$with_cuda" != xno], [
    AC_PATH_PROG([NVCC], [nvcc], [], [$startrd_cuda_dir/bin$PATH_SEPARATOR$PATH])
    AS_IF([test "x$NVCC" = x],
      [startrd_cuda_why="nvcc not found"
       AS_IF([test "x$with_cuda" = xyes -o "x$with_cuda" != xcheck], [AC_MSG_ERROR([CUDA requested but nvcc not found in $startrd_cuda_dir/bin])])],
      [test "x$startrd_starpu_cuda" != xyes],
      [startrd_cuda_why="StarPU built without CUDA"
       AC_MSG_WARN([nvcc found but StarPU $STARTRD_STARPU_VERSION was built without CUDA: building for CPUs only (tools/setup.sh builds StarPU with CUDA)])],
      [startrd_use_cuda=yes])])
  AS_IF([test "x$startrd_use_cuda" = xyes], [
    startrd_cuda_dir=`dirname \`dirname $NVCC\``
    CUDA_CFLAGS="-I$startrd_cuda_dir/include"
    CUDA_LIBS="-L$startrd_cuda_dir/lib64 -lcusolver -lcublasLt -lcublas -lcudart -lstdc++"
    startrd_cppflags_saved="$CPPFLAGS"
    CPPFLAGS="$CPPFLAGS $CUDA_CFLAGS"
    AC_CHECK_HEADER([cublas_v2.h], [], [AC_MSG_ERROR([cublas_v2.h not found under $startrd_cuda_dir/include])])
    CPPFLAGS="$startrd_cppflags_saved"
    NVCC_GENCODE=
    for startrd_a in $NVCC_ARCHS; do
      NVCC_GENCODE="$NVCC_GENCODE -gencode arch=compute_$startrd_a,code=sm_$startrd_a"
    done
    # PTX of the newest architecture too, so that later GPUs can JIT the kernels.
    NVCC_GENCODE="$NVCC_GENCODE -gencode arch=compute_$startrd_a,code=compute_$startrd_a"
    AC_DEFINE([STARTRD_USE_CUDA], [1], [CUDA codelets are built])])
  AC_SUBST([CUDA_CFLAGS])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([NVCC_GENCODE])
  AM_CONDITIONAL([USE_CUDA], [test "x$startrd_use_cuda" = xyes])
])
