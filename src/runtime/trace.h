/* FxT traces of the library's calls (reductions, eigensolvers,
 * back-transformations): StarPU records only between
 * startrd_trace_begin() and startrd_trace_end(), writes its raw trace at
 * shutdown, and starpu_fxt_tool turns that into Paje and tasks.rec files. */
#ifndef STARTRD_TRACE_H
#define STARTRD_TRACE_H

/** Before starpu_init(): have StarPU record, with profiling paused, into @p dir. */
int startrd_trace_prepare(const char *dir);

/** Record the events of the code that follows (a call); no-op without a prepared
 * trace.  Calls nest: only the outermost begin and end count. */
void startrd_trace_begin(void);

/** Stop recording. */
void startrd_trace_end(void);

/** After starpu_shutdown(): convert the raw trace in @p dir; 0 or a positive startrd_status. */
int startrd_trace_convert(const char *dir);

#endif
