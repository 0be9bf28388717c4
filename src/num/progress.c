/* src/num/progress.c — the calling thread's progress hook (progress.h). */
#include "num/progress.h"

#include <stddef.h>

/* Thread-local: each thread reports to the hook it installed (progress.h). */
static _Thread_local ul_progress_fn hook;
static _Thread_local void *hook_ctx;
static _Thread_local int depth;            /* tasks begun and not ended */
static _Thread_local const char *outer;    /* the outermost task's name */
static _Thread_local long outer_done, outer_total;

void ul_progress_set(ul_progress_fn fn, void *ctx)
{
    hook = fn;
    hook_ctx = ctx;
    depth = 0;
}

int ul_progress_begin(const char *what, long total)
{
    if (hook == NULL)
        return 0;
    if (++depth == 1) {
        outer = what;
        outer_done = 0;
        outer_total = total;
        hook(hook_ctx, outer, 0, outer_total, NULL);
    }
    return depth;
}

void ul_progress_step(long done, const char *label)
{
    if (hook == NULL || depth == 0)
        return;
    /* only the outermost task moves the count, and never backwards: an
     * inner task's step refreshes the bar with its label */
    if (depth == 1 && done > outer_done)
        outer_done = done;
    hook(hook_ctx, outer, outer_done, outer_total, label);
}

void ul_progress_end(int token)
{
    if (hook == NULL || token <= 0 || token > depth)
        return;
    depth = token - 1;
    if (depth == 0)
        hook(hook_ctx, outer, UL_PROGRESS_END, outer_total, NULL);
}
