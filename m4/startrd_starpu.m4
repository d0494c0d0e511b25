# STARTRD_CHECK_STARPU
# --------------------
# Finds StarPU 1.4 through pkg-config.  tools/setup.sh installs it under
# /opt/startrd-deps, which is searched when pkg-config does not know it yet,
# so a plain ./configure works right after the setup script.
# Sets STARPU_CFLAGS, STARPU_LIBS, STARTRD_STARPU_VERSION, STARTRD_STARPU_PREFIX,
# startrd_starpu_cuda and startrd_starpu_fxt (yes/no).
AC_DEFUN([STARTRD_CHECK_STARPU], [
  AC_ARG_WITH([starpu],
    [AS_HELP_STRING([--with-starpu=DIR], [StarPU 1.4 installation prefix])],
    [startrd_starpu_dirs="$withval"],
    [startrd_starpu_dirs=`ls -d /opt/startrd-deps/starpu-1.4* 2>/dev/null | sort -r`])
  startrd_pkg_path_saved="$PKG_CONFIG_PATH"
  for startrd_d in $startrd_starpu_dirs; do
    PKG_CONFIG_PATH="$startrd_d/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  done
  export PKG_CONFIG_PATH
  PKG_CHECK_MODULES([STARPU], [starpu-1.4 >= 1.4.0], [],
    [AC_MSG_ERROR([StarPU 1.4 not found through pkg-config (starpu-1.4.pc).
Run tools/setup.sh, which builds it with CUDA and FxT, or pass --with-starpu=DIR.])])
  STARTRD_STARPU_VERSION=`$PKG_CONFIG --modversion starpu-1.4`
  STARTRD_STARPU_PREFIX=`$PKG_CONFIG --variable=prefix starpu-1.4`
  STARPU_LIBDIR=`$PKG_CONFIG --variable=libdir starpu-1.4`
  AC_SUBST([STARTRD_STARPU_VERSION])
  AC_SUBST([STARTRD_STARPU_PREFIX])
  AC_SUBST([STARPU_LIBDIR])

  startrd_cppflags_saved="$CPPFLAGS"
  CPPFLAGS="$CPPFLAGS $STARPU_CFLAGS"
  AC_CHECK_HEADER([starpu.h], [], [AC_MSG_ERROR([starpu.h unusable with $STARPU_CFLAGS])])
  AC_CACHE_CHECK([whether StarPU was built with CUDA], [startrd_cv_starpu_cuda],
    [AC_PREPROC_IFELSE([AC_LANG_PROGRAM([[#include <starpu_config.h>
#ifndef STARPU_USE_CUDA
#error no CUDA
#endif]])], [startrd_cv_starpu_cuda=yes], [startrd_cv_starpu_cuda=no])])
  AC_CACHE_CHECK([whether StarPU was built with FxT], [startrd_cv_starpu_fxt],
    [AC_PREPROC_IFELSE([AC_LANG_PROGRAM([[#include <starpu_config.h>
#ifndef STARPU_USE_FXT
#error no FxT
#endif]])], [startrd_cv_starpu_fxt=yes], [startrd_cv_starpu_fxt=no])])
  CPPFLAGS="$startrd_cppflags_saved"
  startrd_starpu_cuda=$startrd_cv_starpu_cuda
  startrd_starpu_fxt=$startrd_cv_starpu_fxt
  AM_CONDITIONAL([HAVE_FXT], [test "x$startrd_starpu_fxt" = xyes])
  AS_IF([test "x$startrd_starpu_fxt" != xyes],
    [AC_MSG_WARN([StarPU was built without FxT: traces cannot be recorded (tools/setup.sh builds one with FxT)])])
  AC_PATH_PROG([STARPU_FXT_TOOL], [starpu_fxt_tool], [], [$STARTRD_STARPU_PREFIX/bin$PATH_SEPARATOR$PATH])
  AC_DEFINE_UNQUOTED([STARTRD_STARPU_FXT_TOOL], ["$STARPU_FXT_TOOL"], [starpu_fxt_tool found at configure time])
])
