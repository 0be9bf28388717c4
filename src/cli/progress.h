/* src/cli/progress.h — the progress bar on the terminal.
 *
 * Two users: the attack (its runs per world, drawn since issue 16: a bar
 * with the ETA on a terminal, a line per tenth elsewhere) and every
 * command whose library work reports through the thread's progress hook
 * (num/progress.h: calibrate, the PLD audits, calc pld-compose, calc
 * --batch, vectors).
 *
 * The hook draws on stderr only when stderr is a terminal and --json is not
 * given, and only once the task has run for UL_CLI_PROGRESS_DELAY seconds
 * (a short run stays silent); it erases its line when the task ends, so
 * nothing of it stays on the screen.  Nothing goes to stdout, and nothing
 * at all when stderr is not a terminal: redirected output is unchanged.
 */
#ifndef UL_CLI_PROGRESS_H
#define UL_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#define UL_CLI_PROGRESS_DELAY 1.0 /* seconds before the bar shows */

/* CLOCK_MONOTONIC seconds. */
double ul_cli_progress_now(void);

/* The attack's report after `done` of `total` runs (t0: the start, from
 * ul_cli_progress_now): on a terminal (tty) the bar with the time left,
 * else a line each tenth, *last_decile remembering the last one. */
void ul_cli_progress_runs(const char *what, size_t done, size_t total, double t0, bool tty,
                          size_t *last_decile);

/* Installs the bar as the calling thread's progress hook when stderr is a
 * terminal and json is false; otherwise installs none. */
void ul_cli_progress_install(bool json);

/* Erases the bar if one is drawn (before a line is printed on the terminal;
 * the next report draws it again). */
void ul_cli_progress_clear(void);

/* Erases the bar and removes the hook. */
void ul_cli_progress_remove(void);

#endif
