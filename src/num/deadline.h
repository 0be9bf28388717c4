/* src/num/deadline.h — a process-wide time budget for certified work.
 *
 * `ulaudit audit --max-seconds S` (and the library's callers) set a budget
 * once, before any work starts.  Long loops — precision escalation, searches
 * over α or K, series with many terms, attack chunks — ask
 * ul_deadline_passed() between iterations and, when it says yes, stop and
 * return UL_ETIME with a message naming what was being computed.  Nothing
 * certified is lost: the caller reports *inconclusive* with the reason, never
 * a partial number.
 *
 * Set before threads start; read-only afterwards, so any thread may ask.
 * The clock is CLOCK_MONOTONIC (wall time, immune to clock changes).
 */
#ifndef UL_NUM_DEADLINE_H
#define UL_NUM_DEADLINE_H

#include <stdbool.h>

/* Starts a budget of `seconds` from now; seconds ≤ 0 or not finite clears it. */
void ul_deadline_set(double seconds);

/* Removes the budget (nothing ever expires). */
void ul_deadline_clear(void);

/* true once the budget set by ul_deadline_set has run out; false when none is set.
 * Cheap (one clock read): call it once per outer iteration, not per term. */
bool ul_deadline_passed(void);

/* The budget as set, in seconds (0 when none): for messages. */
double ul_deadline_seconds(void);

#endif
