# STARTRD_CHECK_HWLOC
# -------------------
# Finds hwloc 2 through pkg-config: the GPU topology (which GPUs share a PCIe
# switch) comes from it.  Sets HWLOC_CFLAGS, HWLOC_LIBS, STARTRD_HWLOC_VERSION.
AC_DEFUN([STARTRD_CHECK_HWLOC], [
  PKG_CHECK_MODULES([HWLOC], [hwloc >= 2.0], [],
    [AC_MSG_ERROR([hwloc 2 not found through pkg-config (hwloc.pc).
Install the Debian package libhwloc-dev, or run tools/setup.sh.])])
  STARTRD_HWLOC_VERSION=`$PKG_CONFIG --modversion hwloc`
  AC_SUBST([STARTRD_HWLOC_VERSION])
])
