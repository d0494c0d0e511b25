#!/usr/bin/env python3
"""Generates the s, d and c sources of StarTRD from the z ones.

The complex double files are the source of truth, as in PLASMA, MAGMA and
Chameleon.  A z file names the precisions made from it on a line such as

    @precisions normal z -> s d c

and every identifier and word of it is translated, one token at a time (so
that no replacement is translated twice):

- the scalar types: double complex, double _Complex and cuDoubleComplex
  become float complex, double or float; double, the real type, becomes
  float in s and c; in Fortran, complex(c_double_complex) becomes
  complex(c_float_complex), real(c_double) or real(c_float), and the real
  kind c_double becomes c_float in s and c;
- the limits of <float.h> (DBL_EPSILON, DBL_MIN, DBL_MAX, DBL_MIN_EXP,
  DBL_MAX_EXP) become the FLT_ ones in s and c;
- routine names with a precision letter after the start or an underscore
  (zhetrd, cblas_zgemm, LAPACKE_zlarfg_work, startrd_kernel_zhbtype1,
  STARTRD_CUDA_ZHB2ST_MAX_KD, cublasZgemm): z becomes s, d or c, and in the
  real precisions Hermitian names become symmetric ones (he -> sy,
  hb -> sb, un -> or) and "Hermitian" becomes "symmetric";
- the real routines a complex file calls (dstedc, LAPACKE_dlamch, ...),
  which are single precision in s and c;
- the COMPLEX switch: a z file says "#define COMPLEX" and keeps what only
  the complex precisions do under "#ifdef COMPLEX"; real files get
  "#define REAL" instead.  PRECISION_z becomes PRECISION_s, _d or _c.

A real file (@precisions normal d -> s) is translated the same way.

    codegen.py -p d [-o OUT] SOURCE        writes one precision of SOURCE
    codegen.py --name -p d SOURCE          prints the name the file gets
    codegen.py --automake FILE...          prints the automake fragment that
                                           lists and builds every generated file
"""
import argparse
import os
import re
import sys

PRECISIONS = "sdcz"
REAL = {"s", "d"}

# Words of a z file that do not name a precision although they start with z
# (zm, ZM: stage 1's scratch of the matrices Z and M, kernels_stage1.h).
NOT_A_PRECISION = {"zero", "zeros", "zeroed", "zeroes", "zeroing", "zone", "zones", "zm"}

# Real routines (and the library's own real kernels) called from complex
# code or named in real files (@precisions normal d -> s): their d becomes
# s in the single precisions, as does IDAMAX's (ISAMAX).
REAL_ROUTINES = {
    "dlamch", "dstedc", "dsterf", "dstemr", "dstebz", "dstein", "dsteqr", "dlaed0", "dlaed1", "dlaed2",
    "dlaed3", "dlaed4", "dlaed5", "dlaed6", "dlaed7", "dlaed8", "dlaed9", "dlaeda", "dlasrt", "dlapy2",
    "dlapy3", "dlanst", "dlascl", "dlaset", "dlacpy", "dlamrg", "dnrm2", "dscal", "dcopy", "ddot", "dgemm",
    "daxpy", "drot", "dlartg", "dlaev2", "dlae2", "dmerge_gemm", "dcopy_moves", "drot_columns",
    "dsecular_vectors", "dmerge", "dsecular", "drotation", "dswap", "dlarrf",
}

# Complex routines whose other precisions are not named by the letter
# alone: s, d and c of each (ZDSCAL is CSSCAL in c and DSCAL in d).
SPECIAL_PARTS = {
    "zdscal": ("sscal", "dscal", "csscal"), "zdrot": ("srot", "drot", "csrot"),
    "zdotc": ("sdot", "ddot", "cdotc"), "zdotu": ("sdot", "ddot", "cdotu"),
    "zgerc": ("sger", "dger", "cgerc"), "zgeru": ("sger", "dger", "cgeru"),
    "izamax": ("isamax", "idamax", "icamax"), "dznrm2": ("snrm2", "dnrm2", "scnrm2"),
}

# Pieces of names (between underscores) that the real precisions call
# otherwise: LAPACK's ZHETRD_HB2ST is DSYTRD_SB2ST.
REAL_PARTS = {"hermitian": "symmetric", "hb2st": "sb2st", "he2hb": "sy2sb"}

# Whole words translated by precision: s, d, c, z.
WORDS = [
    ("float", "double", "float", "double"),
    ("float", "double", "float complex", "double complex"),
    ("float", "double", "float _Complex", "double _Complex"),
    ("float", "double", "cuFloatComplex", "cuDoubleComplex"),
    ("make_float", "make_double", "make_cuFloatComplex", "make_cuDoubleComplex"),
    ("float", "double", "lapack_complex_float", "lapack_complex_double"),
    ("FLT_EPSILON", "DBL_EPSILON", "FLT_EPSILON", "DBL_EPSILON"),
    ("FLT_MIN", "DBL_MIN", "FLT_MIN", "DBL_MIN"),
    ("FLT_MAX", "DBL_MAX", "FLT_MAX", "DBL_MAX"),
    # The exponent range, for scales such as ldexp(1, DBL_MIN_EXP + 16) that
    # must lie at the same place in each precision's range.
    ("FLT_MIN_EXP", "DBL_MIN_EXP", "FLT_MIN_EXP", "DBL_MIN_EXP"),
    ("FLT_MAX_EXP", "DBL_MAX_EXP", "FLT_MAX_EXP", "DBL_MAX_EXP"),
    ("PRECISION_s", "PRECISION_d", "PRECISION_c", "PRECISION_z"),
    # cuBLASLt's element types and the compute type that keeps the precision.
    ("CUDA_R_32F", "CUDA_R_64F", "CUDA_C_32F", "CUDA_C_64F"),
    ("CUBLAS_COMPUTE_32F", "CUBLAS_COMPUTE_64F", "CUBLAS_COMPUTE_32F", "CUBLAS_COMPUTE_64F"),
    # The math library's functions take the precision's real or complex type.
    ("crealf", "creal", "crealf", "creal"),
    ("cimagf", "cimag", "cimagf", "cimag"),
    ("conjf", "conj", "conjf", "conj"),
    ("cabsf", "cabs", "cabsf", "cabs"),
    ("fabsf", "fabs", "fabsf", "fabs"),
    ("sqrtf", "sqrt", "sqrtf", "sqrt"),
    ("fmaxf", "fmax", "fmaxf", "fmax"),
    ("fminf", "fmin", "fminf", "fmin"),
    ("nextafterf", "nextafter", "nextafterf", "nextafter"),
    ("symmetric", "symmetric", "Hermitian", "Hermitian"),
    ("symmetric", "symmetric", "hermitian", "hermitian"),
    # Fortran (iso_c_binding): the type with its kind is one token, since a
    # complex type becomes a real one; the kinds alone, as in real(c_double).
    ("real(c_float)", "real(c_double)", "complex(c_float_complex)", "complex(c_double_complex)"),
    ("c_float", "c_double", "c_float_complex", "c_double_complex"),
    ("c_float", "c_double", "c_float", "c_double"),
]

# Multi-word types first, so that "double complex" is one token, and so is
# Fortran's complex(c_double_complex).
_TOKEN = re.compile(r"float complex|double complex|float _Complex|double _Complex"
                    r"|complex\(c_(?:float|double)_complex\)|[A-Za-z_][A-Za-z0-9_]*")


def _word_table(precision, source):
    """Word -> translation from the source precision to @p precision."""
    src, dst = PRECISIONS.index(source), PRECISIONS.index(precision)
    table = {}
    for row in WORDS:
        if row[src] != row[dst] and row[src] not in table:
            table[row[src]] = row[dst]
    return table


def _hermitian_to_symmetric(body):
    """he -> sy, hb -> sb, un -> or at the start of a name and after its
    first 2, which joins two matrix kinds: zhe2hb is dsy2sb."""
    def start(piece):
        for he, sy in (("he", "sy"), ("hb", "sb"), ("un", "or")):
            if piece.startswith(he):
                return sy + piece[len(he):]
        return piece
    head, two, tail = body.partition("2")
    return start(head) + two + start(tail)


def _part(part, precision, source):
    """One underscore-separated piece of an identifier."""
    if source == "z" and part.lower() in SPECIAL_PARTS:
        word = SPECIAL_PARTS[part.lower()]["sdc".index(precision)]
        return word.upper() if part.isupper() else word
    if source == "z" and len(part) > 1 and part[0] in "zZ" and part[1:2].isalnum() \
            and part.lower() not in NOT_A_PRECISION:
        letter = precision.upper() if part[0] == "Z" else precision
        body = part[1:]
        if precision in REAL:
            lower = _hermitian_to_symmetric(body.lower())
            body = lower.upper() if body.isupper() else lower
        return letter + body
    if precision in REAL and source == "z" and part.lower() in REAL_PARTS:
        word = REAL_PARTS[part.lower()]
        return word.upper() if part.isupper() else word
    if precision in "sc" and part.lower() in REAL_ROUTINES:
        return ("S" if part[0] == "D" else "s") + part[1:]
    if precision in "sc" and part.lower() == "idamax":
        return "ISAMAX" if part.isupper() else "isamax"
    return part


def _identifier(word, precision, source):
    # cublasZgemm and friends put the letter after the prefix.
    m = re.fullmatch(r"(cublas|cusolverDn)([ZD])(\w+)", word)
    if m and (source == "z" or m.group(2) == "D"):
        if m.group(2) == "Z":
            body = _hermitian_to_symmetric(m.group(3)) if precision in REAL else m.group(3)
            return m.group(1) + precision.upper() + body
        return m.group(1) + ("S" if precision in "sc" else "D") + m.group(3)
    parts = word.split("_")
    if len(parts) > 1:
        # A lone letter names the precision only inside a longer name
        # (testing_z.h, TESTING_Z_H); alone, z is a variable.
        parts = [precision if p == source else precision.upper() if p == source.upper() else p for p in parts]
    return "_".join(_part(p, precision, source) for p in parts)


def translate(text, precision, source):
    table = _word_table(precision, source)

    def token(m):
        word = m.group(0)
        if word in table:
            return table[word]
        if " " in word or "(" in word:
            return word
        return _identifier(word, precision, source)

    if precision in REAL and source == "z":
        text = re.sub(r"^#define COMPLEX\b", "#define REAL", text, flags=re.M)
    return _TOKEN.sub(token, text)


_MARK = re.compile(r"@precisions\s+normal\s+([sdcz])\s*->\s*([sdc ]+)")


def precisions_of(path):
    """(source precision, targets) of a file, or None if it has no mark."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = _MARK.search(line)
            if m:
                return m.group(1), m.group(2).split()
    return None


def generated_name(path, precision):
    source, targets = precisions_of(path)
    if precision not in targets:
        sys.exit(f"codegen.py: {path} does not make precision {precision}")
    head, base = os.path.split(path)
    return os.path.join(head, translate(base, precision, source))


def generate(path, precision):
    source, targets = precisions_of(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = translate(text, precision, source)
    mark = _MARK.search(text).group(0)
    return out.replace(translate(mark, precision, source),
                       f"@generated from {os.path.basename(path)} by tools/codegen.py: edit that file", 1)


def automake(paths):
    """The fragment that lists the generated files and the rules that make them.

    Generated test programs (tests/test_*) get their own check program; other
    files under tests/ go to the test helpers' library, headers under
    include/ are installed, Fortran sources (.f90) make the installed Fortran
    modules, the rest goes to the library itself."""
    rules, programs = [], []
    # Not named *_SOURCES or *_HEADERS, which automake takes for its own.
    lists = {"INCLUDE_H": [], "LIB_C": [], "LIB_H": [], "TESTING_C": [], "TESTING_H": [], "FORTRAN_F90": []}
    for path in sorted(paths):
        mark = precisions_of(path)
        if mark is None:
            sys.exit(f"codegen.py: {path} has no @precisions line")
        for p in mark[1]:
            out = generated_name(path, p)
            rules.append(f"{out}: $(top_srcdir)/{path} $(CODEGEN_DEPS)\n"
                         f"\t$(AM_V_GEN)$(CODEGEN) -p {p} -o $@ $(top_srcdir)/{path}\n")
            if out.startswith("tests/test_"):
                programs.append(out[:-2])
                continue
            if out.endswith(".f90"):
                lists["FORTRAN_F90"].append(out)
                continue
            kind = "H" if out.endswith(".h") else "C"
            place = "TESTING_" if out.startswith("tests/") else "INCLUDE_" if out.startswith("include/") else "LIB_"
            lists[place + kind].append(out)
    lines = ["# Generated by tools/codegen.py --automake from the files marked @precisions;",
             "# tests/check_precisions.sh fails while it is out of date.", ""]
    for kind, names in lists.items():
        lines.append(f"PRECISION_{kind} =" + "".join(f" \\\n\t{n}" for n in names))
    for prog in programs:
        var = re.sub(r"[^A-Za-z0-9]", "_", prog)
        lines += ["", f"check_PROGRAMS += {prog}", f"nodist_{var}_SOURCES = {prog}.c",
                  f"{var}_LDADD = tests/libtesting.la $(TEST_LIBS)"]
    lines.append("PRECISION_TEST_PROGRAMS_C =" + "".join(f" {p}.c" for p in programs))
    lines.append("")
    return "\n".join(lines) + "\n" + "\n".join(rules)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-p", "--precision", choices=list("sdc"))
    ap.add_argument("-o", "--output")
    ap.add_argument("--name", action="store_true")
    ap.add_argument("--automake", action="store_true")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.automake:
        sys.stdout.write(automake(args.files))
        return
    if args.precision is None or len(args.files) != 1:
        ap.error("one SOURCE and -p are needed")
    path = args.files[0]
    if precisions_of(path) is None:
        sys.exit(f"codegen.py: {path} has no @precisions line")
    if args.name:
        print(generated_name(path, args.precision))
        return
    text = generate(path, args.precision)
    if args.output:
        os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
        tmp = args.output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.output)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
