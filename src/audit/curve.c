/* src/audit/curve.c — the certified privacy curve of an audited certificate
 * (audit/curve.h): the certificate audited again with its claim's free
 * coordinate moved over a grid, each point that audit's enclosure. */
#include "audit/curve.h"

#include "num/deadline.h"
#include "num/progress.h"

#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The grid audits' digits: the band is a picture, each point an enclosure. */
enum { CURVE_DIGITS = 6 };
/* ε grid: claim·i/8 for i = 1..24 (claim/8 to 3× the claim; the claim is
 * point 8); δ grid: 10^-12 .. 10^-1 at half decades (23 points). */
enum { LINEAR_POINTS = 24, LOG_POINTS = 23, MIN_POINTS = 5 };
static const double LOG_LOWEST = -12.0, LOG_HIGHEST = -1.0;
/* Without a budget, the number of points aims at this many seconds. */
static const double SOFT_SECONDS = 60.0;

typedef enum { POINT_DONE, POINT_TIME, POINT_CANCELLED } point_outcome;

/* What every grid audit shares. */
typedef struct {
    ul_cert *cert;
    const char *field;  /* the claim's coordinate moved: "eps" or "delta" */
    const char *y_key;  /* the recomputed key read: "delta" or "eps" */
    ul_num_precision want;
    double end;         /* CLOCK_MONOTONIC second when the curve's time ends (∞: none) */
    ul_audit_report *rep; /* scratch report (large: malloc'd once) */
    size_t keyed_otherwise; /* audits that answered with another number */
} curve_job;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A decimal as a double rounded in the direction rnd (MPFR_RNDD for a lower
 * end, MPFR_RNDU for an upper end): read at 53 bits in that direction, so an
 * inexact decimal moves outward; "-inf"/"inf" are read as such.  NAN when
 * the text is not a number. */
static double read_outward(const char *text, mpfr_rnd_t rnd)
{
    if (text == NULL || text[0] == '\0')
        return NAN;
    mpfr_t v;
    mpfr_init2(v, 53);
    char *end = NULL;
    mpfr_strtofr(v, text, &end, 10, rnd);
    double d = end != NULL && *end == '\0' && !mpfr_nan_p(v) ? mpfr_get_d(v, rnd) : NAN;
    mpfr_clear(v);
    return d;
}

/* The enclosure of a report number as doubles (lo down, hi up); false when
 * the number is absent or not read. */
static bool number_as_doubles(const ul_audit_number *n, double *lo, double *hi)
{
    if (n->key == NULL)
        return false;
    *lo = read_outward(ul_audit_number_lo(n), MPFR_RNDD);
    *hi = read_outward(ul_audit_number_hi(n), MPFR_RNDU);
    return !isnan(*lo) && !isnan(*hi);
}

/* The other variant's number when it is the same quantity (its key starts
 * with the curve's y key: "eps_rdp_mironov", "delta_classic"); else NAN. */
static void other_as_doubles(const ul_audit_report *r, const char *y_key, double *lo, double *hi)
{
    *lo = *hi = NAN;
    const ul_audit_number *o = &r->other_variant;
    if (o->key != NULL && strncmp(o->key, y_key, strlen(y_key)) == 0 &&
        !number_as_doubles(o, lo, hi))
        *lo = *hi = NAN;
}

/* The claim's number `key` as its decimal text, or NULL. */
static const char *claim_text(const ul_cert *c, const char *key)
{
    const ul_json_value *v = ul_json_get(ul_cert_object(c, "claim"), key);
    return v != NULL && (v->type == UL_JSON_NUMBER || v->type == UL_JSON_STRING) ? v->text : NULL;
}

/* Audits the certificate with claim.<field> = text, under the time left. */
static point_outcome audit_at(curve_job *job, const char *text, double *lo, double *hi,
                              double *olo, double *ohi)
{
    *lo = *hi = *olo = *ohi = NAN;
    double left = job->end - now_seconds();
    if (ul_deadline_cancelled())
        return POINT_CANCELLED;
    if (!(left > 0))
        return POINT_TIME;
    if (isfinite(left))
        ul_deadline_set(left);
    else
        ul_deadline_clear();
    char *json = NULL, err[512];
    ul_cert *c = NULL;
    if (ul_cert_to_json_with(job->cert, "claim", job->field, text, &json, err, sizeof err) ==
            UL_OK &&
        ul_cert_load_buffer(json, strlen(json), &c, err, sizeof err) == UL_OK &&
        ul_audit(c, &job->want, job->rep, err, sizeof err) == UL_OK) {
        /* a number keyed otherwise (a handler's other claim type) is a gap */
        const ul_audit_number *y = &job->rep->recomputed;
        bool same = y->key != NULL && strcmp(y->key, job->y_key) == 0;
        job->keyed_otherwise += y->key != NULL && !same;
        if (!same || !number_as_doubles(y, lo, hi))
            *lo = *hi = NAN;
        else
            other_as_doubles(job->rep, job->y_key, olo, ohi);
    }
    ul_cert_free(c);
    free(json);
    if (ul_deadline_cancelled())
        return POINT_CANCELLED;
    /* an audit the time stopped gave no number (ul_audit_time_out) */
    if (isnan(*lo) && ul_deadline_passed())
        return POINT_TIME;
    return POINT_DONE;
}

/* ---- the grid ------------------------------------------------------------- */

/* The planned points: the grid (index 0 first, whatever the count) with
 * the claim's point beside it, and what each audit gave. */
typedef struct {
    size_t n;  /* grid points */
    bool log_x;
    double claim_x;
    char text[LINEAR_POINTS + LOG_POINTS][32]; /* the decimal audited */
    double x[LINEAR_POINTS + LOG_POINTS], lo[LINEAR_POINTS + LOG_POINTS],
        hi[LINEAR_POINTS + LOG_POINTS], olo[LINEAR_POINTS + LOG_POINTS],
        ohi[LINEAR_POINTS + LOG_POINTS];
    bool done[LINEAR_POINTS + LOG_POINTS];
} grid_plan;

/* Point i of n: ε = c/8 + i·(3c − c/8)/(n − 1) (for n = 24 the multiples of
 * c/8, the claim among them), or δ = 10^e with e from −12 to −1 evenly;
 * written with 6 digits, x the double nearest that decimal. */
static void grid_point(grid_plan *g, size_t i)
{
    char *t = g->text[i];
    size_t size = sizeof g->text[i];
    if (g->log_x) {
        double e = LOG_LOWEST + (double)i * (LOG_HIGHEST - LOG_LOWEST) / (double)(g->n - 1);
        if (e == floor(e))
            snprintf(t, size, "1e%d", (int)e);
        else
            snprintf(t, size, "%.6g", pow(10.0, e));
    } else {
        double c = g->claim_x > 0 ? g->claim_x : 1.0;
        snprintf(t, size, "%.6g", c / 8 + (double)i * (3 * c - c / 8) / (double)(g->n - 1));
    }
    g->x[i] = strtod(t, NULL);
    g->lo[i] = g->hi[i] = g->olo[i] = g->ohi[i] = NAN;
    g->done[i] = false;
}

static void plan_grid(grid_plan *g, size_t n)
{
    g->n = n;
    for (size_t i = 0; i < n; i++)
        grid_point(g, i);
}

/* The claim's own point is the caller's audit: a grid point there is not
 * audited again. */
static bool at_claim(const grid_plan *g, size_t i)
{
    return fabs(g->x[i] - g->claim_x) <= 1e-12 * fabs(g->claim_x);
}

/* Audits grid point i (unless it is the claim's). */
static point_outcome run_point(curve_job *job, grid_plan *g, size_t i)
{
    if (at_claim(g, i)) {
        g->done[i] = true;
        return POINT_DONE;
    }
    point_outcome o = audit_at(job, g->text[i], &g->lo[i], &g->hi[i], &g->olo[i], &g->ohi[i]);
    g->done[i] = o == POINT_DONE;
    return o;
}

/* The number of grid points once the first audit took `first` seconds:
 * as many as the time left holds at that cost (the curve's budget, or
 * SOFT_SECONDS from the start when there is none), between MIN_POINTS and
 * the full grid.  Slow methods (the PLD audits of dp-sgd, 5–30 s each) get
 * fewer points; the time limit still stops the audits beyond the budget. */
static size_t choose_count(double first, double left, double elapsed, size_t full)
{
    if (!isfinite(left))
        left = SOFT_SECONDS - elapsed;
    double fit = 1 + floor(fmax(left, 0) / fmax(first, 1e-3));
    if (fit >= (double)full)
        return full;
    return fit > MIN_POINTS ? (size_t)fit : MIN_POINTS;
}

/* Audits grid point i when not done yet, reporting progress (*done: the
 * points done so far). */
static point_outcome step_point(curve_job *job, grid_plan *g, size_t i, size_t *done)
{
    if (g->done[i])
        return POINT_DONE;
    char label[48];
    snprintf(label, sizeof label, "point %zu of %zu", *done + 1, g->n);
    ul_progress_step((long)*done, label);
    point_outcome o = run_point(job, g, i);
    if (o == POINT_DONE)
        ul_progress_step((long)++*done, NULL);
    return o;
}

/* The first grid point is audited alone and timed; then the count is chosen
 * and the rest run coarse to fine (the last point, then every 2^k-th point
 * for k decreasing), so that a curve the time cuts still spans its range. */
static point_outcome run_grid(curve_job *job, grid_plan *g, size_t full, double start)
{
    int task = ul_progress_begin("privacy curve", -1);
    ul_progress_step(0, "timing the first point");
    double t0 = now_seconds();
    point_outcome o = run_point(job, g, 0);
    ul_progress_end(task);
    if (o != POINT_DONE)
        return o;
    double now = now_seconds(), first[4] = {g->lo[0], g->hi[0], g->olo[0], g->ohi[0]};
    plan_grid(g, choose_count(now - t0, job->end - now, now - start, full));
    g->lo[0] = first[0], g->hi[0] = first[1], g->olo[0] = first[2], g->ohi[0] = first[3];
    g->done[0] = true;
    size_t n = g->n, done = 1, top = 1;
    while (top * 2 < n)
        top *= 2;
    task = ul_progress_begin("privacy curve", (long)n);
    ul_progress_step(1, NULL);
    o = step_point(job, g, n - 1, &done);
    for (size_t s = top; o == POINT_DONE && s >= 1; s /= 2)
        for (size_t i = s; o == POINT_DONE && i < n; i += s)
            o = step_point(job, g, i, &done);
    ul_progress_end(task);
    return o;
}

/* ---- the result ----------------------------------------------------------- */

/* Which coordinate moves, from the key of the number the audit recomputed;
 * false (why set) when the method has no (ε, δ) curve. */
static bool choose_axes(const ul_audit_report *rep, const char *method, ul_audit_curve *out)
{
    const char *key = rep->recomputed.key;
    if (key == NULL) {
        snprintf(out->why, sizeof out->why,
                 "the audit of %s gave no certified number at the claim (verdict %s)", method,
                 ul_verdict_name(rep->verdict));
        return false;
    }
    if (strcmp(key, "delta") != 0 && strcmp(key, "eps") != 0) {
        snprintf(out->why, sizeof out->why,
                 "the audit of %s recomputes %s, not a privacy curve", method, key);
        return false;
    }
    bool by_eps = strcmp(key, "delta") == 0; /* δ(ε): ε moves */
    out->x_key = by_eps ? "eps" : "delta";
    out->y_key = key;
    out->log_x = !by_eps;
    out->log_y = by_eps;
    return true;
}

/* "Thm 3.2" from the theorem's text (its first "Thm "), or "". */
static void theorem_tag(const char *theorem, char *tag, size_t size)
{
    const char *t = strstr(theorem, "Thm ");
    size_t len = t != NULL ? 4 + strcspn(t + 4, " ,;:()") : 0;
    while (len > 4 && t[len - 1] == '.')
        len--;
    snprintf(tag, size, "%.*s", (int)(len > 4 ? len : 0), len > 4 ? t : "");
}

/* The bands' names: the audited form ("corrected Thm 3.2", or "certified"),
 * the other one ("printed Thm 3.2", or the report's label of that number up
 * to its first parenthesis: its α belongs to the claim's point only). */
static void name_bands(const ul_audit_report *rep, ul_audit_curve *out)
{
    char tag[48];
    theorem_tag(rep->theorem, tag, sizeof tag);
    const char *v = rep->variant;
    snprintf(out->label, sizeof out->label, "%s%s%s", v[0] ? v : "certified", tag[0] ? " " : "",
             tag);
    const char *other = strcmp(v, "corrected") == 0 ? "printed"
                        : strcmp(v, "printed") == 0 ? "corrected"
                                                     : NULL;
    char other_tag[48]; /* the other form may cite its own theorem */
    theorem_tag(rep->other_variant.label, other_tag, sizeof other_tag);
    if (other_tag[0])
        snprintf(tag, sizeof tag, "%s", other_tag);
    if (other != NULL)
        snprintf(out->other_label, sizeof out->other_label, "%s%s%s", other, tag[0] ? " " : "",
                 tag);
    else if (rep->other_variant.key != NULL &&
             strncmp(rep->other_variant.key, out->y_key, strlen(out->y_key)) == 0) {
        const char *l = rep->other_variant.label;
        int len = (int)strcspn(l, "(");
        while (len > 0 && l[len - 1] == ' ')
            len--;
        snprintf(out->other_label, sizeof out->other_label, "%.*s", len, l);
    }
}

static void put_point(ul_audit_curve *out, double x, double lo, double hi, double olo,
                      double ohi)
{
    size_t k = out->n++;
    out->x[k] = x, out->lo[k] = lo, out->hi[k] = hi, out->other_lo[k] = olo,
    out->other_hi[k] = ohi;
}

/* The points done, in order of x, the claim's among them (from the
 * caller's report: its digits, not the grid's); whether the claim's is. */
static bool fill_points(const grid_plan *g, const ul_audit_report *rep, const char *y_key,
                        ul_audit_curve *out)
{
    double lo, hi, olo, ohi;
    bool claim = isfinite(g->claim_x) && !(g->log_x && g->claim_x <= 0) &&
                 number_as_doubles(&rep->recomputed, &lo, &hi);
    other_as_doubles(rep, y_key, &olo, &ohi);
    bool placed = claim;
    for (size_t i = 0; i <= g->n; i++) {
        if (claim && (i == g->n || g->x[i] >= g->claim_x)) {
            put_point(out, g->claim_x, lo, hi, olo, ohi);
            claim = false;
        }
        if (i < g->n && g->done[i] && !at_claim(g, i))
            put_point(out, g->x[i], g->lo[i], g->hi[i], g->olo[i], g->ohi[i]);
    }
    return placed;
}

/* why, when points are missing: how many were kept of those planned, and
 * what stopped the rest or left gaps. */
static void explain_missing(const grid_plan *g, point_outcome o, double seconds,
                            bool with_claim, size_t keyed_otherwise, ul_audit_curve *out)
{
    size_t planned = g->n, gaps = 0;
    for (size_t i = 0; i < g->n; i++)
        planned -= at_claim(g, i);
    planned += with_claim;
    for (size_t k = 0; k < out->n; k++)
        gaps += isnan(out->lo[k]);
    int len = 0;
    if (o == POINT_TIME)
        len = snprintf(out->why, sizeof out->why, "%zu of %zu points: time limit of %g s",
                       out->n, planned, seconds);
    else if (o == POINT_CANCELLED)
        len = snprintf(out->why, sizeof out->why, "%zu of %zu points: cancelled", out->n,
                       planned);
    if (gaps > 0 && len >= 0 && (size_t)len < sizeof out->why)
        snprintf(out->why + len, sizeof out->why - (size_t)len,
                 "%s%zu point(s) where the audit gave no number (gaps)%s", len > 0 ? "; " : "",
                 gaps,
                 keyed_otherwise > 0
                     ? ", there it certified the claim another way (another quantity)"
                     : "");
}

/* The curve proper once the axes are known: the grid run under the curve's
 * budget (and within the caller's), the caller's budget given back. */
static void run_curve(curve_job *job, const ul_audit_report *rep, double max_seconds,
                      ul_audit_curve *out)
{
    ul_deadline_saved caller;
    ul_deadline_save(&caller);
    double start = now_seconds(), left = ul_deadline_left();
    if (max_seconds > 0 && max_seconds < left)
        left = max_seconds;
    job->end = start + left;
    grid_plan *g = malloc(sizeof *g);
    job->rep = malloc(sizeof *job->rep);
    if (g == NULL || job->rep == NULL)
        abort(); /* fixed sizes: out of memory aborts, as GMP does (policy: num/status.h) */
    size_t full = out->log_x ? LOG_POINTS : LINEAR_POINTS;
    g->log_x = out->log_x;
    g->claim_x = out->claim_x;
    plan_grid(g, full);
    point_outcome o = run_grid(job, g, full, start);
    bool with_claim = fill_points(g, rep, out->y_key, out);
    explain_missing(g, o, left, with_claim, job->keyed_otherwise, out);
    ul_deadline_restore(&caller);
    free(job->rep);
    free(g);
}

ul_status ul_audit_curve_compute(const char *path, const char *text, size_t len,
                                 const ul_audit_report *rep, const ul_num_precision *want,
                                 double max_seconds, ul_audit_curve *out, char *err,
                                 size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->claim_x = out->claim_y = NAN;
    ul_cert *c = NULL;
    ul_status st = text != NULL ? ul_cert_load_buffer(text, len, &c, err, errlen)
                                : ul_cert_load(path, &c, err, errlen);
    if (st != UL_OK)
        return st;
    if (choose_axes(rep, ul_cert_method(c), out)) {
        const char *x_text = claim_text(c, out->x_key), *y_text = claim_text(c, out->y_key);
        out->claim_x = x_text != NULL ? strtod(x_text, NULL) : NAN;
        out->claim_y = y_text != NULL ? strtod(y_text, NULL) : NAN;
        name_bands(rep, out);
        curve_job job = {.cert = c, .field = out->x_key, .y_key = out->y_key};
        job.want = want != NULL ? *want : (ul_num_precision){0};
        if (job.want.digits <= 0 || job.want.digits > CURVE_DIGITS)
            job.want.digits = CURVE_DIGITS;
        job.want.start_bits = 0;
        if (x_text == NULL)
            snprintf(out->why, sizeof out->why, "the claim states no %s to move", out->x_key);
        else
            run_curve(&job, rep, max_seconds, out);
    }
    ul_cert_free(c);
    return UL_OK;
}
