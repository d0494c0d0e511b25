/**
 * @file startrd.h
 * @brief StarTRD: reduction of a dense complex Hermitian matrix to real
 *        symmetric tridiagonal form on several GPUs and the host cores,
 *        scheduled by the StarPU runtime.
 *
 * The library keeps one process-wide runtime context.  An application may
 * open it explicitly with startrd_init() to choose GPUs, CPU workers,
 * bandwidth and tracing, and close it with startrd_finalize(); if it does
 * not, the computational routines open it with default options on first use
 * and close it at process exit.  When the application has started StarPU
 * itself, the library runs on StarPU's existing workers and never shuts
 * StarPU down.
 *
 * Return values follow LAPACK: 0 on success, -i when the i-th argument is
 * wrong, a positive code (see ::startrd_status) for a run-time failure, with
 * a one-line message on stderr.
 */
#ifndef STARTRD_H
#define STARTRD_H

#ifdef __cplusplus
extern "C" {
#endif

/** Positive run-time error codes returned by the library. */
enum startrd_status {
    STARTRD_SUCCESS = 0,
    STARTRD_ERR_RUNTIME = 1,     /**< StarPU could not be started or refused a call. */
    STARTRD_ERR_NO_GPU = 2,      /**< More GPUs were requested than StarPU can drive. */
    STARTRD_ERR_MEMORY = 3,      /**< A host or device allocation failed. */
    STARTRD_ERR_KERNEL = 4,      /**< A BLAS, LAPACK, cuBLAS or CUDA call inside a task failed. */
    STARTRD_ERR_STATE = 5        /**< The call does not fit the library's state (e.g. finalize without init). */
};

/** Options of the runtime context, set by startrd_options_init() then adjusted. */
typedef struct startrd_options {
    int ngpu;               /**< < 0: every visible GPU; 0: CPU workers only; k > 0: the first k GPUs. */
    int ncpu;               /**< CPU workers; < 0 lets StarPU choose (one per core not driving a GPU). */
    const char *scheduler;  /**< StarPU scheduling policy; NULL selects "dmdas". */
} startrd_options_t;

/**
 * @brief Fill @p opt with the defaults: every GPU, StarPU's choice of CPU
 *        workers, the "dmdas" scheduler.
 */
void startrd_options_init(startrd_options_t *opt);

/**
 * @brief Open the runtime context.
 *
 * Starts StarPU with @p opt (NULL means defaults) unless the application
 * already did, and creates a cuBLAS handle for every CUDA worker.  Calls nest:
 * each successful startrd_init() needs one startrd_finalize(); options of a
 * nested call are ignored.
 *
 * @return 0, -1 when @p opt holds an invalid value, or a positive
 *         ::startrd_status.
 */
int startrd_init(const startrd_options_t *opt);

/**
 * @brief Close the runtime context opened by startrd_init().  The last call
 *        shuts StarPU down if, and only if, the library started it.
 * @return 0, or ::STARTRD_ERR_STATE when no context is open.
 */
int startrd_finalize(void);

/** @brief Number of GPUs (CUDA workers) the open context uses, or -1 if none is open. */
int startrd_gpu_count(void);

#ifdef __cplusplus
}
#endif

#endif /* STARTRD_H */
