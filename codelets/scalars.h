/**
 * @file scalars.h
 * @brief The scalar idioms that differ between precisions, named by
 *        precision letter so that the code generator picks the right one:
 *        STARTRD_Z_ONE in a z file is STARTRD_D_ONE in its d twin.
 *
 * - STARTRD_?_ONE, _ZERO, _MONE: initialisers of cuBLAS's host scalars
 *   (cuDoubleComplex, double, cuFloatComplex, float).
 * - STARTRD_?_CUDA(x): the cuBLAS scalar of the C scalar x.
 * - STARTRD_?_CBLAS(x): a scalar argument of CBLAS, which takes complex
 *   scalars by address and real ones by value.
 */
#ifndef STARTRD_SCALARS_H
#define STARTRD_SCALARS_H

#include <complex.h>

#define STARTRD_Z_ONE {1.0, 0.0}
#define STARTRD_Z_ZERO {0.0, 0.0}
#define STARTRD_Z_MONE {-1.0, 0.0}
#define STARTRD_Z_CUDA(x) {creal(x), cimag(x)}
#define STARTRD_Z_CBLAS(x) (&(x))

#define STARTRD_C_ONE {1.0f, 0.0f}
#define STARTRD_C_ZERO {0.0f, 0.0f}
#define STARTRD_C_MONE {-1.0f, 0.0f}
#define STARTRD_C_CUDA(x) {crealf(x), cimagf(x)}
#define STARTRD_C_CBLAS(x) (&(x))

#define STARTRD_D_ONE 1.0
#define STARTRD_D_ZERO 0.0
#define STARTRD_D_MONE (-1.0)
#define STARTRD_D_CUDA(x) (x)
#define STARTRD_D_CBLAS(x) (x)

#define STARTRD_S_ONE 1.0f
#define STARTRD_S_ZERO 0.0f
#define STARTRD_S_MONE (-1.0f)
#define STARTRD_S_CUDA(x) (x)
#define STARTRD_S_CBLAS(x) (x)

#endif
