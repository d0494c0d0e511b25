/* Scalar arithmetic for CUDA kernels written once as templates on the
 * scalar type T: float, double, cuFloatComplex or cuDoubleComplex (s, d, c,
 * z).  The complex functions are those of cuComplex.h, so a kernel written
 * with them does the same arithmetic, in the same order, as one written
 * with cuCmul, cuCfma, ... directly; for real T, conj is the identity. */
#ifndef STARTRD_SCALAR_CUH
#define STARTRD_SCALAR_CUH

#include <cuComplex.h>
#include <math.h>

/* The real type of T's components, whether T is complex, and T from its
 * real and imaginary parts (the imaginary part dropped for real T). */
template <class T>
struct startrd_scalar;

template <>
struct startrd_scalar<float> {
    using real = float;
    static constexpr bool is_complex = false;
    __host__ __device__ static float make(float re, float) { return re; }
};

template <>
struct startrd_scalar<double> {
    using real = double;
    static constexpr bool is_complex = false;
    __host__ __device__ static double make(double re, double) { return re; }
};

template <>
struct startrd_scalar<cuFloatComplex> {
    using real = float;
    static constexpr bool is_complex = true;
    __host__ __device__ static cuFloatComplex make(float re, float im) { return make_cuFloatComplex(re, im); }
};

template <>
struct startrd_scalar<cuDoubleComplex> {
    using real = double;
    static constexpr bool is_complex = true;
    __host__ __device__ static cuDoubleComplex make(double re, double im) { return make_cuDoubleComplex(re, im); }
};

template <class T>
__host__ __device__ inline T startrd_make(typename startrd_scalar<T>::real re, typename startrd_scalar<T>::real im = 0)
{
    return startrd_scalar<T>::make(re, im);
}

template <class T>
__host__ __device__ inline T startrd_zero()
{
    return startrd_make<T>(0, 0);
}

template <class T>
__host__ __device__ inline T startrd_one()
{
    return startrd_make<T>(1, 0);
}

/* Real T. */
__host__ __device__ inline float startrd_real(float x) { return x; }
__host__ __device__ inline double startrd_real(double x) { return x; }
__host__ __device__ inline float startrd_imag(float) { return 0; }
__host__ __device__ inline double startrd_imag(double) { return 0; }
__host__ __device__ inline float startrd_conj(float x) { return x; }
__host__ __device__ inline double startrd_conj(double x) { return x; }
__host__ __device__ inline float startrd_neg(float x) { return -x; }
__host__ __device__ inline double startrd_neg(double x) { return -x; }
__host__ __device__ inline float startrd_add(float x, float y) { return x + y; }
__host__ __device__ inline double startrd_add(double x, double y) { return x + y; }
__host__ __device__ inline float startrd_sub(float x, float y) { return x - y; }
__host__ __device__ inline double startrd_sub(double x, double y) { return x - y; }
__host__ __device__ inline float startrd_mul(float x, float y) { return x * y; }
__host__ __device__ inline double startrd_mul(double x, double y) { return x * y; }
__host__ __device__ inline float startrd_div(float x, float y) { return x / y; }
__host__ __device__ inline double startrd_div(double x, double y) { return x / y; }
/* a b + c, rounded once. */
__host__ __device__ inline float startrd_fma(float a, float b, float c) { return fmaf(a, b, c); }
__host__ __device__ inline double startrd_fma(double a, double b, double c) { return fma(a, b, c); }
__host__ __device__ inline float startrd_abs2(float x) { return x * x; }
__host__ __device__ inline double startrd_abs2(double x) { return x * x; }
__host__ __device__ inline float startrd_scale(float s, float x) { return s * x; }
__host__ __device__ inline double startrd_scale(double s, double x) { return s * x; }

/* Complex T. */
__host__ __device__ inline float startrd_real(cuFloatComplex x) { return cuCrealf(x); }
__host__ __device__ inline double startrd_real(cuDoubleComplex x) { return cuCreal(x); }
__host__ __device__ inline float startrd_imag(cuFloatComplex x) { return cuCimagf(x); }
__host__ __device__ inline double startrd_imag(cuDoubleComplex x) { return cuCimag(x); }
__host__ __device__ inline cuFloatComplex startrd_conj(cuFloatComplex x) { return cuConjf(x); }
__host__ __device__ inline cuDoubleComplex startrd_conj(cuDoubleComplex x) { return cuConj(x); }
__host__ __device__ inline cuFloatComplex startrd_neg(cuFloatComplex x)
{
    return make_cuFloatComplex(-cuCrealf(x), -cuCimagf(x));
}
__host__ __device__ inline cuDoubleComplex startrd_neg(cuDoubleComplex x)
{
    return make_cuDoubleComplex(-cuCreal(x), -cuCimag(x));
}
__host__ __device__ inline cuFloatComplex startrd_add(cuFloatComplex x, cuFloatComplex y) { return cuCaddf(x, y); }
__host__ __device__ inline cuDoubleComplex startrd_add(cuDoubleComplex x, cuDoubleComplex y) { return cuCadd(x, y); }
__host__ __device__ inline cuFloatComplex startrd_sub(cuFloatComplex x, cuFloatComplex y) { return cuCsubf(x, y); }
__host__ __device__ inline cuDoubleComplex startrd_sub(cuDoubleComplex x, cuDoubleComplex y) { return cuCsub(x, y); }
__host__ __device__ inline cuFloatComplex startrd_mul(cuFloatComplex x, cuFloatComplex y) { return cuCmulf(x, y); }
__host__ __device__ inline cuDoubleComplex startrd_mul(cuDoubleComplex x, cuDoubleComplex y) { return cuCmul(x, y); }
__host__ __device__ inline cuFloatComplex startrd_div(cuFloatComplex x, cuFloatComplex y) { return cuCdivf(x, y); }
__host__ __device__ inline cuDoubleComplex startrd_div(cuDoubleComplex x, cuDoubleComplex y) { return cuCdiv(x, y); }
/* a b + c, as cuCfma: each component one multiply-add after another. */
__host__ __device__ inline cuFloatComplex startrd_fma(cuFloatComplex a, cuFloatComplex b, cuFloatComplex c)
{
    return cuCfmaf(a, b, c);
}
__host__ __device__ inline cuDoubleComplex startrd_fma(cuDoubleComplex a, cuDoubleComplex b, cuDoubleComplex c)
{
    return cuCfma(a, b, c);
}
__host__ __device__ inline float startrd_abs2(cuFloatComplex x)
{
    return cuCrealf(x) * cuCrealf(x) + cuCimagf(x) * cuCimagf(x);
}
__host__ __device__ inline double startrd_abs2(cuDoubleComplex x)
{
    return cuCreal(x) * cuCreal(x) + cuCimag(x) * cuCimag(x);
}
__host__ __device__ inline cuFloatComplex startrd_scale(float s, cuFloatComplex x)
{
    return make_cuFloatComplex(s * cuCrealf(x), s * cuCimagf(x));
}
__host__ __device__ inline cuDoubleComplex startrd_scale(double s, cuDoubleComplex x)
{
    return make_cuDoubleComplex(s * cuCreal(x), s * cuCimag(x));
}

/* X(p, T) for each precision: its letter and scalar type.  A file defines
 * a macro X that writes one precision's extern "C" launcher and calls
 * STARTRD_FOR_EACH_PRECISION(X) to have all four. */
#define STARTRD_FOR_EACH_PRECISION(X) \
    X(s, float)                       \
    X(d, double)                      \
    X(c, cuFloatComplex)              \
    X(z, cuDoubleComplex)

#endif
