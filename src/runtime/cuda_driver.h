/* The CUDA driver's entry points, looked up through the runtime so that the
 * library does not link libcuda (CPU-only machines have none). */
#ifndef STARTRD_CUDA_DRIVER_H
#define STARTRD_CUDA_DRIVER_H

#include "starpu_include.h"

#ifdef STARTRD_USE_CUDA
/** Driver entry point @p name, in the version of the headers the library
 *  was built with, into @p *fn: 0, or 1 (and *fn = NULL) where the driver
 *  lacks it. */
int startrd_cuda_driver_entry(const char *name, void **fn);

/** Report that driver call @p call returned @p status; returns -status. */
int startrd_cuda_driver_failed(const char *call, int status);
#endif

#endif
