/* The one place StarPU is included: with CUDA 13, starpu.h pulls in
 * cusparse.h, whose deprecated declarations would otherwise warn in every
 * translation unit that includes StarPU. */
#ifndef STARTRD_STARPU_INCLUDE_H
#define STARTRD_STARPU_INCLUDE_H

#include "config.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <starpu.h>
#ifdef STARTRD_USE_CUDA
#include <cublas_v2.h>
#include <starpu_cublas_v2.h>
#include <starpu_cusolver.h>
#endif
#pragma GCC diagnostic pop

#endif
