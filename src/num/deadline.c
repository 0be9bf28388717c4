/* src/num/deadline.c — the process-wide time budget (deadline.h). */
#include "num/deadline.h"

#include <math.h>
#include <time.h>

static bool active;
static double budget;         /* seconds, as set */
static struct timespec until; /* CLOCK_MONOTONIC instant of expiry */

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

bool ul_deadline_passed(void)
{
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
