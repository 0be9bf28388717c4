/* src/emp/plot_privacy.c — the audit report's figure: a certified privacy
 * curve as SVG (emp/plot_privacy.h).  Small axis and text helpers of its
 * own: plot.c's are static to it. */
#include "emp/plot_privacy.h"
#include "emp/plot.h"

#include <cairo.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WIDTH = 800, HEIGHT = 500 };
static const double LEFT = 96.0, RIGHT = 780.0, TOP = 48.0, BOTTOM = 430.0;

typedef struct {
    double r, g, b;
} rgb;

static const rgb BAND = {0.10, 0.30, 0.80};  /* the audited form: blue */
static const rgb OTHER = {0.90, 0.50, 0.05}; /* the other form: orange */
static const rgb CLAIM = {0.85, 0.10, 0.10}; /* the claim's point: red */
static const rgb GRID = {0.90, 0.90, 0.90};
static const rgb INK = {0, 0, 0};

/* One axis: its range (log10 of it on a log axis). */
typedef struct {
    bool log;
    double lo, hi;
} axis;

typedef struct {
    axis x, y;
    bool greek; /* the font has ε and δ */
} frame;

static void paint(cairo_t *cr, rgb c, double alpha)
{
    cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

static void font(cairo_t *cr, double size)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

/* Whether the font maps every character of s to a glyph (glyph 0 is the
 * "missing" box): else the legend and titles spell eps and delta. */
static bool has_glyphs(cairo_t *cr, const char *s)
{
    cairo_glyph_t *glyphs = NULL;
    int n = 0;
    if (cairo_scaled_font_text_to_glyphs(cairo_get_scaled_font(cr), 0, 0, s, -1, &glyphs, &n,
                                         NULL, NULL, NULL) != CAIRO_STATUS_SUCCESS)
        return false;
    bool ok = n > 0;
    for (int i = 0; i < n; i++)
        ok = ok && glyphs[i].index != 0;
    cairo_glyph_free(glyphs);
    return ok;
}

/* Text with its baseline at y, x_align 0 (start at x), 0.5 (middle), 1 (end). */
static void text_at(cairo_t *cr, double x, double y, double x_align, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - x_align * e.x_advance, y);
    cairo_show_text(cr, s);
}

/* Where v sits along an axis, 0..1 (log10 first on a log axis). */
static double along(const axis *a, double v)
{
    double t = a->log ? log10(v) : v;
    return (t - a->lo) / (a->hi - a->lo);
}

static double px(const frame *f, double v)
{
    return LEFT + along(&f->x, v) * (RIGHT - LEFT);
}

static double py(const frame *f, double v)
{
    return BOTTOM - along(&f->y, v) * (BOTTOM - TOP);
}

/* A value that can be drawn on the axis (finite, positive on a log axis). */
static bool drawable(const axis *a, double v)
{
    return isfinite(v) && (!a->log || v > 0);
}

/* ---- ranges and ticks ------------------------------------------------------ */

/* Widens [*lo, *hi] to hold v when it can be drawn. */
static void cover(const axis *a, double v, double *lo, double *hi)
{
    if (!drawable(a, v))
        return;
    double t = a->log ? log10(v) : v;
    *lo = fmin(*lo, t), *hi = fmax(*hi, t);
}

/* The axis's range from [lo, hi]: whole decades on a log axis; on a linear
 * one from 0 (or below, for negative values) to 5% above the largest. */
static void settle(axis *a, double lo, double hi)
{
    if (!(lo <= hi))
        lo = hi = a->log ? 0 : 1;
    if (a->log) {
        a->lo = floor(lo), a->hi = ceil(hi);
        if (a->hi <= a->lo)
            a->lo -= 1, a->hi += 1;
        return;
    }
    a->lo = fmin(lo, 0);
    a->hi = hi > a->lo ? hi + 0.05 * (hi - a->lo) : a->lo + 1;
}

static frame frame_of(const ul_audit_curve *c)
{
    frame f = {.x = {.log = c->log_x}, .y = {.log = c->log_y}};
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (size_t i = 0; i < c->n; i++) {
        if (!isfinite(c->lo[i]) && !isfinite(c->other_lo[i]))
            continue;
        cover(&f.x, c->x[i], &xlo, &xhi);
        const double ys[] = {c->lo[i], c->hi[i], c->other_lo[i], c->other_hi[i]};
        for (size_t k = 0; k < 4; k++)
            cover(&f.y, ys[k], &ylo, &yhi);
    }
    cover(&f.x, c->claim_x, &xlo, &xhi);
    cover(&f.y, c->claim_y, &ylo, &yhi);
    settle(&f.x, xlo, xhi);
    settle(&f.y, ylo, yhi);
    return f;
}

/* A step of 1, 2 or 5 × 10^k giving at most 8 intervals over span. */
static double nice_step(double span)
{
    double p = pow(10.0, floor(log10(span / 8)));
    return span / p <= 8 ? p : span / (2 * p) <= 8 ? 2 * p : span / (5 * p) <= 8 ? 5 * p : 10 * p;
}

/* "10" and the exponent raised, x_align as in text_at. */
static void power_of_ten(cairo_t *cr, double x, double y, double x_align, int k)
{
    char e[16];
    snprintf(e, sizeof e, "%d", k);
    cairo_text_extents_t base, up;
    font(cr, 13);
    cairo_text_extents(cr, "10", &base);
    font(cr, 9);
    cairo_text_extents(cr, e, &up);
    double start = x - x_align * (base.x_advance + up.x_advance);
    cairo_move_to(cr, start + base.x_advance, y - 6);
    cairo_show_text(cr, e);
    font(cr, 13);
    cairo_move_to(cr, start, y);
    cairo_show_text(cr, "10");
}

/* Ticks, grid lines and labels along one axis (vertical: the y axis). */
static void ticks(cairo_t *cr, const frame *f, bool vertical)
{
    const axis *a = vertical ? &f->y : &f->x;
    double step = a->log ? ceil((a->hi - a->lo) / 10) : nice_step(a->hi - a->lo);
    for (double t = ceil(a->lo / step - 1e-9) * step; t <= a->hi + 1e-9 * step; t += step) {
        double v = a->log ? pow(10.0, t) : t;
        double p = vertical ? py(f, v) : px(f, v);
        paint(cr, GRID, 1);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, vertical ? LEFT : p, vertical ? p : TOP);
        cairo_line_to(cr, vertical ? RIGHT : p, vertical ? p : BOTTOM);
        cairo_stroke(cr);
        paint(cr, INK, 1);
        double lx = vertical ? LEFT - 8 : p, ly = vertical ? p + 4.5 : BOTTOM + 22;
        if (a->log) {
            power_of_ten(cr, lx, ly, vertical ? 1 : 0.5, (int)lround(t));
        } else {
            char s[32];
            snprintf(s, sizeof s, "%.6g", fabs(t) < 1e-9 * step ? 0.0 : t);
            font(cr, 13);
            text_at(cr, lx, ly, vertical ? 1 : 0.5, s);
        }
    }
}

/* The frame, the ticks, the axis titles and the title. */
static void draw_frame(cairo_t *cr, const frame *f, const ul_audit_curve *c, const char *title)
{
    ticks(cr, f, false);
    ticks(cr, f, true);
    paint(cr, INK, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, LEFT, TOP, RIGHT - LEFT, BOTTOM - TOP);
    cairo_stroke(cr);
    char xt[64], yt[64];
    bool x_eps = strcmp(c->x_key, "eps") == 0;
    const char *eps = f->greek ? "ε" : "eps", *delta = f->greek ? "δ" : "delta";
    snprintf(xt, sizeof xt, "%s (the claim's, moved)", x_eps ? eps : delta);
    snprintf(yt, sizeof yt, "%s certified at that %s", x_eps ? delta : eps, x_eps ? eps : delta);
    font(cr, 15);
    text_at(cr, 0.5 * (LEFT + RIGHT), BOTTOM + 52, 0.5, xt);
    cairo_save(cr);
    cairo_translate(cr, LEFT - 62, 0.5 * (TOP + BOTTOM));
    cairo_rotate(cr, -acos(0.0)); /* a quarter turn counter-clockwise */
    text_at(cr, 0, 0, 0.5, yt);
    cairo_restore(cr);
    font(cr, 17);
    text_at(cr, 0.5 * (LEFT + RIGHT), TOP - 16, 0.5, title != NULL ? title : "");
}

/* ---- the bands, the claim, the legend -------------------------------------- */

/* y on the picture, a lower end of 0 (or below the axis) at the axis's foot:
 * the band then reaches down to it. */
static double band_y(const frame *f, double v)
{
    if (f->y.log && !(v > pow(10.0, f->y.lo)))
        return BOTTOM;
    return py(f, v);
}

static bool usable(const frame *f, double x, double lo, double hi)
{
    return drawable(&f->x, x) && isfinite(lo) && isfinite(hi) && (!f->y.log || hi > 0);
}

/* One band: each run of usable points (a NAN or unusable point is a gap)
 * shaded between lo and hi, its edges thin lines (dashed when asked). */
static void band(cairo_t *cr, const frame *f, const ul_audit_curve *c, const double *lo,
                 const double *hi, rgb colour, bool dashed)
{
    static const double dashes[] = {6, 4};
    for (size_t start = 0; start < c->n;) {
        size_t end = start;
        while (end < c->n && usable(f, c->x[end], lo[end], hi[end]))
            end++;
        if (end == start) {
            start++;
            continue;
        }
        for (size_t i = start; i < end; i++)
            cairo_line_to(cr, px(f, c->x[i]), band_y(f, hi[i]));
        for (size_t i = end; i-- > start;)
            cairo_line_to(cr, px(f, c->x[i]), band_y(f, lo[i]));
        cairo_close_path(cr);
        paint(cr, colour, 0.30);
        cairo_fill(cr);
        paint(cr, colour, 1);
        cairo_set_line_width(cr, 1.2);
        cairo_set_dash(cr, dashes, dashed ? 2 : 0, 0);
        for (int edge = 0; edge < 2; edge++) {
            for (size_t i = start; i < end; i++)
                cairo_line_to(cr, px(f, c->x[i]), band_y(f, edge ? hi[i] : lo[i]));
            cairo_new_sub_path(cr);
        }
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        start = end;
    }
}

static void marker(cairo_t *cr, double x, double y)
{
    cairo_new_path(cr); /* no line from the last text's end */
    cairo_arc(cr, x, y, 6, 0, 4 * acos(0.0));
    paint(cr, CLAIM, 1);
    cairo_fill_preserve(cr);
    paint(cr, INK, 1);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
}

static bool has_other(const ul_audit_curve *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (isfinite(c->other_lo[i]) && isfinite(c->other_hi[i]))
            return true;
    return false;
}

/* The legend, inside the axes where the curves are not. */
static void legend(cairo_t *cr, const frame *f, const ul_audit_curve *c, bool claim)
{
    char claim_text[160];
    bool x_eps = strcmp(c->x_key, "eps") == 0;
    snprintf(claim_text, sizeof claim_text, "claim (%s, %s) = (%.6g, %.6g)",
             f->greek ? "ε" : "eps", f->greek ? "δ" : "delta", x_eps ? c->claim_x : c->claim_y,
             x_eps ? c->claim_y : c->claim_x);
    const char *names[3] = {c->label[0] ? c->label : "certified", NULL, NULL};
    size_t n = 1;
    bool other = has_other(c);
    if (other)
        names[n++] = c->other_label[0] ? c->other_label : "other form";
    if (claim)
        names[n++] = claim_text;
    font(cr, 13);
    double w = 0;
    for (size_t i = 0; i < n; i++) {
        cairo_text_extents_t e;
        cairo_text_extents(cr, names[i], &e);
        w = fmax(w, e.x_advance);
    }
    /* both curves fall: δ(ε) leaves the upper right empty, ε(δ) (its y
     * axis from 0) the lower left */
    double height = 22.0 * (double)n + 8;
    double x0 = x_eps ? RIGHT - w - 52 : LEFT + 10, y0 = x_eps ? TOP + 10 : BOTTOM - height - 10;
    cairo_rectangle(cr, x0, y0, w + 42, height);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
    cairo_fill_preserve(cr);
    paint(cr, INK, 1);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    for (size_t i = 0; i < n; i++) {
        double y = y0 + 19 + 22.0 * (double)i;
        if (claim && i == n - 1)
            marker(cr, x0 + 19, y - 4);
        else {
            cairo_rectangle(cr, x0 + 8, y - 10, 22, 11);
            paint(cr, i == 0 ? BAND : OTHER, 0.5);
            cairo_fill(cr);
        }
        paint(cr, INK, 1);
        font(cr, 13);
        text_at(cr, x0 + 36, y, 0, names[i]);
    }
}

static void draw(cairo_t *cr, const ul_audit_curve *c, const char *title)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    font(cr, 13);
    frame f = frame_of(c);
    f.greek = has_glyphs(cr, "εδ");
    draw_frame(cr, &f, c, title);
    cairo_save(cr);
    cairo_rectangle(cr, LEFT, TOP, RIGHT - LEFT, BOTTOM - TOP);
    cairo_clip(cr);
    if (has_other(c))
        band(cr, &f, c, c->other_lo, c->other_hi, OTHER, true);
    band(cr, &f, c, c->lo, c->hi, BAND, false);
    bool claim = drawable(&f.x, c->claim_x) && drawable(&f.y, c->claim_y);
    if (claim)
        marker(cr, px(&f, c->claim_x), py(&f, c->claim_y));
    cairo_restore(cr);
    legend(cr, &f, c, claim);
}

/* ---- the output -------------------------------------------------------------- */

/* cairo's SVG stream into a growing buffer. */
static ul_status check_curve(const ul_audit_curve *c, char *err, size_t errlen)
{
    if (c == NULL || c->n == 0 || c->x_key == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "curve: no points to draw%s%s",
                       c != NULL && c->why[0] ? ": " : "", c != NULL ? c->why : "");
    for (size_t i = 0; i < c->n; i++)
        if (isfinite(c->x[i]) && isfinite(c->lo[i]) && isfinite(c->hi[i]))
            return UL_OK;
    return ul_fail(err, errlen, UL_EINPUT, "curve: none of its %zu points is finite", c->n);
}

/* What ul_emp_picture draws: the curve and its title. */
typedef struct {
    const ul_audit_curve *curve;
    const char *title;
} curve_picture;

static void draw_curve_picture(cairo_t *cr, const void *what)
{
    const curve_picture *p = what;
    draw(cr, p->curve, p->title);
}

ul_status ul_emp_plot_privacy_svg(const ul_audit_curve *c, const char *title, char **svg,
                                  size_t *len, char *err, size_t errlen)
{
    *svg = NULL;
    *len = 0;
    ul_status st = check_curve(c, err, errlen);
    curve_picture p = {c, title};
    return st != UL_OK ? st
                       : ul_emp_picture(NULL, draw_curve_picture, &p, WIDTH, HEIGHT, svg, len,
                                        err, errlen);
}

ul_status ul_emp_plot_privacy_png(const ul_audit_curve *c, const char *title, const char *path,
                                  char *err, size_t errlen)
{
    ul_status st = check_curve(c, err, errlen);
    curve_picture p = {c, title};
    return st != UL_OK ? st
                       : ul_emp_picture(path, draw_curve_picture, &p, WIDTH, HEIGHT, NULL, NULL,
                                        err, errlen);
}
