/* src/num/deadline.h — the calling thread's time budget and cancel flag
 * for certified work.
 *
 * `ulaudit audit --max-seconds S` (and the library's callers, through
 * ulaudit_limits_set) set a budget before the work starts.  Long loops —
 * precision escalation, searches over α or K, series with many terms,
 * attack chunks — ask ul_deadline_passed() between iterations and, when it
 * says yes, stop and return UL_ETIME with a message naming what was being
 * computed.  Nothing certified is lost: the caller reports *inconclusive*
 * with the reason, never a partial number.
 *
 * Per thread: the budget and the cancel flag are _Thread_local, so that
 * several threads may run the library at once under their own limits (the
 * promise of include/ulaudit.h, "Threads").  A thread that asks sees only
 * the limits it set itself: the OpenMP workers of src/emp never ask (the
 * attack's main thread does, between chunks).
 *
 * The cancel flag (ul_deadline_set_cancel) is a word another thread may
 * set to nonzero: ul_deadline_passed() is then true as if the budget had
 * run out, and ul_deadline_cancelled() tells the two apart, so that the
 * caller returns "cancelled" rather than an inconclusive answer.
 * The clock is CLOCK_MONOTONIC (wall time, immune to clock changes).
 */
#ifndef UL_NUM_DEADLINE_H
#define UL_NUM_DEADLINE_H

#include <stdbool.h>
#include <time.h>

/* Starts a budget of `seconds` from now for the calling thread; seconds ≤ 0
 * or not finite clears it.  The cancel flag is not touched. */
void ul_deadline_set(double seconds);

/* Removes the calling thread's budget (nothing ever expires); the cancel
 * flag is not touched. */
void ul_deadline_clear(void);

/* The calling thread's cancel flag: while *flag is nonzero the work stops at
 * its next check.  NULL: none.  The flag must outlive the calls it governs. */
void ul_deadline_set_cancel(const volatile int *flag);

/* true once the calling thread's budget has run out or its cancel flag is
 * raised; false when neither is set.  Cheap (one clock read): call it once
 * per outer iteration, not per term. */
bool ul_deadline_passed(void);

/* true when the calling thread's cancel flag is set and raised. */
bool ul_deadline_cancelled(void);

/* The calling thread's budget as set, in seconds (0 when none): for
 * messages, and for a caller that starts a budget only when none runs. */
double ul_deadline_seconds(void);

/* The calling thread's budget as it stands (the cancel flag is not part of
 * it), for work that runs its own budgets inside the caller's (the audit's
 * privacy curve, audit/curve.h) and must give the caller's back unchanged:
 * save, set budgets, restore.  Restoring an expired budget leaves it
 * expired. */
typedef struct {
    bool active;
    double budget;
    struct timespec until;
} ul_deadline_saved;

void ul_deadline_save(ul_deadline_saved *s);
void ul_deadline_restore(const ul_deadline_saved *s);

/* Seconds left of the calling thread's budget: +INFINITY when none is set,
 * 0 once it has run out (the cancel flag is not looked at). */
double ul_deadline_left(void);

#endif
