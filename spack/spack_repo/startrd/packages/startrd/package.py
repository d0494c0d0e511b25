# Spack recipe for StarTRD, for Spack 1.0 and later (package API v2: the
# build systems come from the builtin repository).  UNTESTED: no Spack was
# at hand when it was written; it follows Spack's AutotoolsPackage and
# CudaPackage documentation and configure's options (m4/startrd_*.m4).
#
# StarTRD has no published release or public address yet, so the recipe
# builds a clone:
#   spack repo add <clone>/spack/spack_repo/startrd
#   spack develop --path <clone> startrd@=develop
#   spack install startrd@develop +cuda cuda_arch=90
# Once the repository is public, give its address as `git` and versions
# with their tags or commits.

from spack_repo.builtin.build_systems.autotools import AutotoolsPackage
from spack_repo.builtin.build_systems.cuda import CudaPackage

from spack.package import *


class Startrd(AutotoolsPackage, CudaPackage):
    """Dense symmetric and Hermitian eigensolvers (LAPACK's SYTRD/HETRD_2STAGE,
    SYEVD/HEEVD, SYEVDX, SYEVR, ORMTR/UNMTR in s, d, c and z) on one or
    several NVIDIA GPUs and the host cores, with the StarPU runtime."""

    version("develop")

    variant("fxt", default=True, description="StarPU with FxT, so that traces can be recorded")

    depends_on("c", type="build")
    depends_on("fortran", type="build")  # the Fortran module (src/fortran)
    # A clone has no configure script: the base class runs autoreconf.
    depends_on("autoconf", type="build")
    depends_on("automake", type="build")
    depends_on("libtool", type="build")
    depends_on("m4", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("python@3:", type="build")  # tools/codegen.py writes the s, d and c sources

    depends_on("hwloc@2:")
    # tools/setup.sh also patches starpu_fxt_tool for tasks with many
    # buffers (docs/architecture.md); Spack's StarPU lacks that fix.
    depends_on("starpu@1.4")
    depends_on("starpu+cuda", when="+cuda")
    depends_on("starpu+fxt", when="+fxt")
    # One OpenBLAS holding LAPACK, LAPACKE and the test-matrix generators
    # (configure checks for zlatms), 32-bit integers, and a BLAS thread
    # count per thread: OpenMP or sequential.  OpenBLAS 0.3.21 (Debian 12's)
    # reads past its operands in ZGEMV (OpenBLAS issues 4013 and 5000):
    # tools/setup.sh builds 0.3.29.
    depends_on("openblas@0.3.29: ~ilp64 symbol_suffix=none")
    conflicts("^openblas@0.3.21", msg="OpenBLAS 0.3.21 reads past its operands in ZGEMV")
    conflicts(
        "^openblas threads=pthreads",
        msg="the library's workers set their own BLAS thread count: openblas threads=openmp or none",
    )
    depends_on("cuda@11:", when="+cuda")
    conflicts("cuda_arch=none", when="+cuda", msg="name the GPUs' compute capability, e.g. cuda_arch=90")

    def configure_args(self):
        spec = self.spec
        args = [
            f"--with-starpu={spec['starpu'].prefix}",
            f"--with-openblas={spec['openblas'].prefix}",
        ]
        if spec.satisfies("+cuda"):
            args.append(f"--with-cuda={spec['cuda'].prefix}")
            args.append("NVCC_ARCHS=" + " ".join(spec.variants["cuda_arch"].value))
        else:
            args.append("--without-cuda")
        return args

    # `spack install --test=root` runs `make check` (half an hour on a GPU
    # node); AutotoolsPackage's check() does that.
