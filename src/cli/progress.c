/* src/cli/progress.c — the progress bar on the terminal (progress.h). */
#include "cli/progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "num/progress.h"

#define BAR_WIDTH 30
#define LINE_MAX_COLS 79  /* one line of an 80-column terminal: \r redraws it */
#define REDRAW_EVERY 0.1  /* seconds between redraws (PLD rounds, families) */

double ul_cli_progress_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* "what [####      ] done/total unit, E s, ~L s left " (the attack's bar). */
static void bar_text(char *out, size_t len, const char *what, size_t done, size_t total,
                     const char *unit, double elapsed)
{
    double eta = done ? elapsed * (double)(total - done) / (double)done : 0;
    int fill = (int)((double)BAR_WIDTH * (double)done / (double)total);
    snprintf(out, len, "%s [%.*s%*s] %zu/%zu %s, %.0f s, ~%.0f s left ", what, fill,
             "##############################", BAR_WIDTH - fill, "", done, total, unit, elapsed,
             eta);
}

void ul_cli_progress_runs(const char *what, size_t done, size_t total, double t0, bool tty,
                          size_t *last_decile)
{
    double el = ul_cli_progress_now() - t0;
    if (tty) {
        char line[256];
        bar_text(line, sizeof line, what, done, total, "runs", el);
        fprintf(stderr, "\r%s", line);
        if (done == total)
            fputc('\n', stderr);
    } else {
        size_t decile = done * 10 / total;
        if (decile > *last_decile || done == total) {
            fprintf(stderr, "%s: %zu/%zu runs per world done (%.0f s)\n", what, done, total, el);
            *last_decile = decile;
        }
    }
}

/* ---- the hook ------------------------------------------------------------------ */

/* The command line runs its library work on the main thread: one bar. */
static struct {
    bool active;      /* a task runs (between its first report and its end) */
    double t0;        /* the task's start */
    double drawn_at;  /* the last redraw; 0: nothing on the screen */
} bar;

static void erase(void)
{
    if (bar.drawn_at > 0) {
        fputs("\r\033[K", stderr); /* to the line's start, erased to its end */
        fflush(stderr);
    }
    bar.drawn_at = 0;
}

static void draw(const char *what, long done, long total, const char *label, double t)
{
    char line[256];
    if (total > 0)
        bar_text(line, sizeof line, what, (size_t)done, (size_t)total, "done", t - bar.t0);
    else
        snprintf(line, sizeof line, "%s: %.0f s ", what, t - bar.t0);
    size_t n = strlen(line);
    if (label != NULL && n < LINE_MAX_COLS)
        snprintf(line + n, sizeof line - n, "%.*s", (int)(LINE_MAX_COLS - n), label);
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    bar.drawn_at = t;
}

static void hook(void *ctx, const char *what, long done, long total, const char *label)
{
    (void)ctx;
    double t = ul_cli_progress_now();
    if (done == UL_PROGRESS_END) {
        erase();
        bar.active = false;
        return;
    }
    if (!bar.active) { /* a task begins (num/progress.h): its clock starts */
        bar.active = true;
        bar.t0 = t;
    }
    if (t - bar.t0 < UL_CLI_PROGRESS_DELAY)
        return;
    if (bar.drawn_at > 0 && t - bar.drawn_at < REDRAW_EVERY)
        return;
    draw(what, done, total, label, t);
}

void ul_cli_progress_install(bool json)
{
    bar.active = false;
    bar.drawn_at = 0;
    if (!json && isatty(STDERR_FILENO))
        ul_progress_set(hook, NULL);
    else
        ul_progress_set(NULL, NULL);
}

void ul_cli_progress_clear(void)
{
    erase();
}

void ul_cli_progress_remove(void)
{
    erase();
    ul_progress_set(NULL, NULL);
}
