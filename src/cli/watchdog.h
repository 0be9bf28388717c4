/* src/cli/watchdog.h — the command line's backstop of --max-seconds S, for
 * `audit`, `calibrate`, `calc` and `vectors` (one process-wide watchdog).
 *
 * The budget itself is cooperative (num/deadline.h): the library's loops
 * ask it and return UL_ETIME, reported as inconclusive.  A step that never
 * asks it (a certified sum over millions of grid points, a branch and bound
 * at 1000 digits) would keep the command running; the watchdog, a thread
 * started here (never by the library), ends such a run UL_WATCHDOG_GRACE
 * seconds after the budget with exit 3.
 *
 * Guarantees:
 *   - output is never cut: the computation claims the output
 *     (ul_watchdog_claim) before it prints its answer, and the watchdog
 *     fires only while it finds the computation unclaimed; writes that must
 *     not be cut midway (a progress line) run between ul_watchdog_hold and
 *     ul_watchdog_release, which the watchdog waits for;
 *   - the two never mix: one mutex decides, and once the watchdog has
 *     taken it, a claim or a hold blocks until the process ends;
 *   - no temporary file is left: before it writes, the watchdog stops the
 *     thread that started it (a signal whose handler parks it), then
 *     removes that process's temporary files of ul_io_write_atomic (io/file.h:
 *     ".<name>.tmp.<pid>.<n>") from the directory given to
 *     ul_watchdog_clean_dir, so none can be created after the removal.
 *
 * Not for the library (src/lib, --batch): it ends the process.  calc's
 * quantities, which are library code, reach it only through the hook that
 * main.c installs (calc.h, ul_cli_calc_set_backstop).
 */
#ifndef UL_CLI_WATCHDOG_H
#define UL_CLI_WATCHDOG_H

#include <stddef.h>

/* Seconds after the budget at which the watchdog stops the process. */
#define UL_WATCHDOG_GRACE 2.0

/* Starts the watchdog for a budget of seconds (> 0; already set with
 * ul_deadline_set) on behalf of the calling thread; seconds <= 0: does
 * nothing.  When it fires it writes out_text (NULL: nothing) on stdout,
 * then, unless tail is NULL, the line of ul_watchdog_message(command,
 * seconds, tail) on stderr, and exits with 3. */
void ul_watchdog_start(const char *command, double seconds, const char *out_text, const char *tail);

/* Temporary files of ul_io_write_atomic left by this process in dir are
 * removed when the watchdog fires (dir need not exist yet).  Call before
 * ul_watchdog_start. */
void ul_watchdog_clean_dir(const char *dir);

/* The computation is about to print its answer: from here on the watchdog
 * never fires.  Idempotent; without a watchdog, nothing.  (If the watchdog
 * has fired, this waits for the end of the process.) */
void ul_watchdog_claim(void);

/* A write that must not be cut (a progress line) runs between hold and
 * release; the watchdog, if due meanwhile, fires after release. */
void ul_watchdog_hold(void);
void ul_watchdog_release(void);

/* Claims (if not done) and ends the watchdog; the caller alone prints from
 * here on. */
void ul_watchdog_stop(void);

/* "ulaudit <command>: the time budget of S s ran out in a step that does
 * not check it; stopped G s later (<tail>; --max-seconds S sets it, 0 for
 * none)\n" into buf. */
void ul_watchdog_message(char *buf, size_t len, const char *command, double seconds,
                         const char *tail);

#endif
