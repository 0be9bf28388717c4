/* src/num/progress.h — the calling thread's progress hook for long work.
 *
 * The library never prints (house rule).  A loop that can run for seconds —
 * the PLD accountant's refinement rounds, an audit's accountant calls, a
 * calibration, the reference vectors' families — reports how far it got
 * through the hook its caller installed; the command line draws a bar on a
 * terminal (src/cli/progress.h), anyone else may record or ignore it.
 *
 * Per thread, like the time budget of num/deadline.h: the hook and the
 * nesting below are _Thread_local, so several threads run the library with
 * their own hooks (or none) at once.  Without a hook every call is a no-op.
 *
 * Nesting.  Work begins a task (ul_progress_begin) and ends it; a task begun
 * inside another (a PLD accountant inside an audit inside a calibration)
 * does not take the bar over: only the outermost task's counts are passed
 * on, and an inner task's steps pass on the outer counts with the inner
 * label (the bar stays monotone and still shows what is being done).
 *
 * The hook receives (ctx, what, done, total, label): what = the outermost
 * task's name; done = its steps done so far (never decreasing within a
 * task), or UL_PROGRESS_END once when it ends; total = its number of steps,
 * or -1 when not known in advance (a refinement that stops when its width
 * is reached); label = a short text on the current step, or NULL.
 */
#ifndef UL_NUM_PROGRESS_H
#define UL_NUM_PROGRESS_H

#define UL_PROGRESS_END (-1L)

typedef void (*ul_progress_fn)(void *ctx, const char *what, long done, long total,
                               const char *label);

/* Installs fn (NULL: none) for the calling thread; forgets any task begun. */
void ul_progress_set(ul_progress_fn fn, void *ctx);

/* Begins a task named `what` (a string that outlives it) of `total` steps
 * (-1: unknown); returns the token ul_progress_end takes. */
int ul_progress_begin(const char *what, long total);

/* The innermost task has done `done` steps; label (NULL: none) is read
 * during the call only.  A count not above the last one keeps it: a
 * label-only report. */
void ul_progress_step(long done, const char *label);

/* Ends the task begun with `token` (and any begun inside it and not ended,
 * e.g. on an error path). */
void ul_progress_end(int token);

#endif
