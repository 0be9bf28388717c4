/* src/num/deadline.c — the calling thread's time budget and cancel flag
 * (deadline.h). */
#include "num/deadline.h"

#include <math.h>
#include <stddef.h>
#include <time.h>

/* Thread-local: each thread runs under the limits it set (deadline.h). */
static _Thread_local bool active;
static _Thread_local double budget;         /* seconds, as set */
static _Thread_local struct timespec until; /* CLOCK_MONOTONIC instant of expiry */
static _Thread_local const volatile int *cancel;

void ul_deadline_set(double seconds)
{
    if (!(seconds > 0) || !isfinite(seconds)) {
        ul_deadline_clear();
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &until);
    double whole = floor(seconds);
    if (whole > 1e9) /* a budget of 30 years is no budget */
        whole = 1e9;
    until.tv_sec += (time_t)whole;
    until.tv_nsec += (long)((seconds - floor(seconds)) * 1e9);
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec += 1;
        until.tv_nsec -= 1000000000L;
    }
    budget = seconds;
    active = true;
}

void ul_deadline_clear(void)
{
    active = false;
    budget = 0;
}

void ul_deadline_set_cancel(const volatile int *flag)
{
    cancel = flag;
}

bool ul_deadline_cancelled(void)
{
    return cancel != NULL && *cancel != 0;
}

bool ul_deadline_passed(void)
{
    if (ul_deadline_cancelled())
        return true;
    if (!active)
        return false;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > until.tv_sec || (now.tv_sec == until.tv_sec && now.tv_nsec >= until.tv_nsec);
}

double ul_deadline_seconds(void)
{
    return active ? budget : 0;
}

void ul_deadline_save(ul_deadline_saved *s)
{
    *s = (ul_deadline_saved){active, budget, until};
}

void ul_deadline_restore(const ul_deadline_saved *s)
{
    active = s->active;
    budget = s->budget;
    until = s->until;
}

double ul_deadline_left(void)
{
    if (!active)
        return INFINITY;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double left = (double)(until.tv_sec - now.tv_sec) + 1e-9 * (double)(until.tv_nsec - now.tv_nsec);
    return left > 0 ? left : 0;
}
