/* src/emp/plot.c — log-log ROC pictures with cairo (see emp/plot.h). */
#include "emp/plot.h"

#include "io/file.h"
#include "stats/special_d.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the ceiling ---------------------------------------------------------- */

double ul_emp_tradeoff_tpr(double fpr, double eps, double delta)
{
    if (!(fpr >= 0.0 && fpr <= 1.0) || !(eps >= 0.0) || !(delta >= 0.0 && delta <= 1.0))
        return NAN;
    if (isinf(eps))
        return 1.0;
    /* Kairouz–Oh–Viswanath 2015 §2, R(ε, δ): e^ε·FPR + FNR ≥ 1 − δ gives
     * TPR ≤ e^ε·FPR + δ (written so that FPR = 0 never meets e^ε = ∞). */
    double from_fpr_side = fpr > 0.0 ? exp(eps) * fpr + delta : delta;
    /* FPR + e^ε·FNR ≥ 1 − δ gives TPR ≤ 1 − e^{−ε}(1 − δ − FPR)
     *   = FPR + (1 − FPR)(1 − e^{−ε}) + e^{−ε}·δ,
     * a sum of FPR and two non-negative terms: no cancellation near ε = 0,
     * and the rounded result is never below FPR (nor is e^ε·FPR + δ). */
    double from_fnr_side = fpr + (1.0 - fpr) * -expm1(-eps) + exp(-eps) * delta;
    return fmin(1.0, fmin(from_fpr_side, from_fnr_side));
}

double ul_emp_tradeoff_tpr_renyi(double fpr, double order, double value)
{
    if (!(order > 1) || !(value >= 0) || !(fpr >= 0.0 && fpr <= 1.0))
        return NAN;
    double best = 1.0;
    for (int k = 0; k <= 160; k++) { /* δ from 1 down to 1e-20 */
        double delta = pow(10.0, -k / 8.0);
        /* Mironov 2017 Prop. 3: (α, ρ)-RDP implies (ρ + log(1/δ)/(α − 1), δ)-DP */
        double eps = value + log(1.0 / delta) / (order - 1.0);
        best = fmin(best, ul_emp_tradeoff_tpr(fpr, eps, delta));
    }
    return best;
}

/* ---- the axes ------------------------------------------------------------- */

double ul_emp_plot_axis_min(const ul_emp_roc_point *points, size_t n_points)
{
    static const double decades[] = {1e-4, 1e-5, 1e-6};
    double smallest_positive = 1.0;
    for (size_t i = 0; points != NULL && i < n_points; i++) {
        if (points[i].fpr > 0.0)
            smallest_positive = fmin(smallest_positive, points[i].fpr);
        if (points[i].tpr > 0.0)
            smallest_positive = fmin(smallest_positive, points[i].tpr);
    }
    for (size_t k = 0; k < sizeof decades / sizeof decades[0]; k++)
        if (decades[k] <= smallest_positive)
            return decades[k];
    return decades[sizeof decades / sizeof decades[0] - 1];
}

enum { PICTURE_WIDTH = 800, PICTURE_HEIGHT = 600 };

/* The axes rectangle inside the picture, and the decade at its lower end. */
static const double AXES_LEFT = 100.0, AXES_RIGHT = 770.0;
static const double AXES_TOP = 56.0, AXES_BOTTOM = 520.0;

typedef struct {
    int lowest_decade; /* log10 of the axis minimum: −4, −5 or −6 */
    bool linear;       /* linear axes from 0 to 1 instead */
} log_axes;

/* Where a rate sits on an axis, as a fraction of its length; on log axes a
 * rate below the minimum (0 included) sits at the minimum, so that a
 * perfect ROC (FPR 0 up to TPR 1) is drawn along the left edge. */
static double axis_fraction(const log_axes *axes, double v)
{
    if (axes->linear)
        return v;
    double lo = pow(10.0, axes->lowest_decade);
    return (log10(v > lo ? v : lo) - axes->lowest_decade) / -axes->lowest_decade;
}

/* Picture coordinates of a rate on the x (FPR) and y (TPR) axes. */
static double axes_x(const log_axes *axes, double fpr)
{
    return AXES_LEFT + axis_fraction(axes, fpr) * (AXES_RIGHT - AXES_LEFT);
}

static double axes_y(const log_axes *axes, double tpr)
{
    return AXES_BOTTOM - axis_fraction(axes, tpr) * (AXES_BOTTOM - AXES_TOP);
}

/* ---- colours and text ----------------------------------------------------- */

typedef struct {
    double red, green, blue;
} colour;

static const colour CHANCE_COLOUR = {0.55, 0.55, 0.55};
static const colour ROC_COLOUR = {0.10, 0.30, 0.80};
static const colour CEILING_COLOUR = {0.85, 0.10, 0.10};
static const colour BOUND_COLOUR = {0.90, 0.55, 0.05};
static const colour GRID_COLOUR = {0.90, 0.90, 0.90};
static const colour INK = {0.0, 0.0, 0.0};

static void set_colour(cairo_t *cr, colour c)
{
    cairo_set_source_rgb(cr, c.red, c.green, c.blue);
}

static void set_font(cairo_t *cr, double size, bool bold)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

/* Whether the current font maps every character of utf8 to a real glyph
 * (glyph 0 is the "missing glyph" box in TrueType/OpenType fonts). */
static bool font_has_glyphs(cairo_t *cr, const char *utf8)
{
    cairo_glyph_t *glyphs = NULL;
    int n_glyphs = 0;
    cairo_status_t status = cairo_scaled_font_text_to_glyphs(
        cairo_get_scaled_font(cr), 0.0, 0.0, utf8, -1, &glyphs, &n_glyphs, NULL, NULL, NULL);
    if (status != CAIRO_STATUS_SUCCESS)
        return false;
    bool all_present = n_glyphs > 0;
    for (int i = 0; i < n_glyphs; i++)
        if (glyphs[i].index == 0)
            all_present = false;
    cairo_glyph_free(glyphs);
    return all_present;
}

static double text_width(cairo_t *cr, const char *utf8)
{
    cairo_text_extents_t extents;
    cairo_text_extents(cr, utf8, &extents);
    return extents.x_advance;
}

/* Draws utf8 with its baseline at y; x_align 0 puts its start at x, 0.5 its
 * middle, 1 its end. */
static void show_text_at(cairo_t *cr, double x, double y, double x_align, const char *utf8)
{
    cairo_move_to(cr, x - x_align * text_width(cr, utf8), y);
    cairo_show_text(cr, utf8);
}

/* "10" with the exponent k raised and smaller; x_align as in show_text_at. */
static void show_power_of_ten(cairo_t *cr, double x, double y, double x_align, int k,
                              const char *minus, double size)
{
    char exponent[16];
    snprintf(exponent, sizeof exponent, "%s%d", k < 0 ? minus : "", abs(k));
    set_font(cr, size, false);
    double base_width = text_width(cr, "10");
    set_font(cr, 0.7 * size, false);
    double total = base_width + text_width(cr, exponent);
    double start = x - x_align * total;
    cairo_move_to(cr, start + base_width, y - 0.45 * size);
    cairo_show_text(cr, exponent);
    set_font(cr, size, false);
    cairo_move_to(cr, start, y);
    cairo_show_text(cr, "10");
}

/* ---- the drawing ---------------------------------------------------------- */

/* A grid line and a major tick on both axes at picture coordinates x, y. */
static void grid_and_ticks(cairo_t *cr, double x, double y)
{
    cairo_set_line_width(cr, 1.0);
    set_colour(cr, GRID_COLOUR);
    cairo_move_to(cr, x, AXES_TOP);
    cairo_line_to(cr, x, AXES_BOTTOM);
    cairo_move_to(cr, AXES_LEFT, y);
    cairo_line_to(cr, AXES_RIGHT, y);
    cairo_stroke(cr);
    set_colour(cr, INK);
    cairo_move_to(cr, x, AXES_BOTTOM);
    cairo_line_to(cr, x, AXES_BOTTOM + 7.0);
    cairo_move_to(cr, AXES_LEFT, y);
    cairo_line_to(cr, AXES_LEFT - 7.0, y);
    cairo_stroke(cr);
}

/* The axes' frame, the x title below and the y title turned a quarter. */
static void frame_and_titles(cairo_t *cr, const char *x_title, const char *y_title)
{
    set_colour(cr, INK);
    cairo_set_line_width(cr, 1.0);
    cairo_rectangle(cr, AXES_LEFT, AXES_TOP, AXES_RIGHT - AXES_LEFT, AXES_BOTTOM - AXES_TOP);
    cairo_stroke(cr);
    set_font(cr, 15.0, false);
    show_text_at(cr, 0.5 * (AXES_LEFT + AXES_RIGHT), AXES_BOTTOM + 56.0, 0.5, x_title);
    cairo_save(cr);
    cairo_translate(cr, AXES_LEFT - 62.0, 0.5 * (AXES_TOP + AXES_BOTTOM));
    cairo_rotate(cr, -acos(0.0)); /* a quarter turn counter-clockwise */
    show_text_at(cr, 0.0, 0.0, 0.5, y_title);
    cairo_restore(cr);
}

/* Linear axes: grid lines and labels at 0, 0.2, …, 1. */
static void draw_linear_ticks(cairo_t *cr, const log_axes *axes)
{
    for (int i = 0; i <= 5; i++) {
        double v = i / 5.0, x = axes_x(axes, v), y = axes_y(axes, v);
        char label[8];
        snprintf(label, sizeof label, i == 0 ? "0" : i == 5 ? "1" : "%.1f", v);
        grid_and_ticks(cr, x, y);
        set_font(cr, 13.0, false);
        show_text_at(cr, x, AXES_BOTTOM + 26.0, 0.5, label);
        show_text_at(cr, AXES_LEFT - 10.0, y + 4.5, 1.0, label);
    }
}

static void draw_frame_and_ticks(cairo_t *cr, const log_axes *axes, const char *minus)
{
    const double label_size = 13.0;
    if (axes->linear)
        draw_linear_ticks(cr, axes);
    /* Decade grid lines and labels, minor ticks at 2…9 × 10^k. */
    for (int k = axes->lowest_decade; !axes->linear && k <= 0; k++) {
        double decade = pow(10.0, k);
        double x = axes_x(axes, decade), y = axes_y(axes, decade);
        grid_and_ticks(cr, x, y);
        show_power_of_ten(cr, x, AXES_BOTTOM + 26.0, 0.5, k, minus, label_size);
        show_power_of_ten(cr, AXES_LEFT - 10.0, y + 0.35 * label_size, 1.0, k, minus, label_size);

        for (int m = 2; k < 0 && m <= 9; m++) {
            double minor_x = axes_x(axes, m * decade), minor_y = axes_y(axes, m * decade);
            cairo_move_to(cr, minor_x, AXES_BOTTOM);
            cairo_line_to(cr, minor_x, AXES_BOTTOM + 4.0);
            cairo_move_to(cr, AXES_LEFT, minor_y);
            cairo_line_to(cr, AXES_LEFT - 4.0, minor_y);
        }
        cairo_stroke(cr);
    }
    frame_and_titles(cr, "false positive rate", "true positive rate");
}

static void draw_chance_line(cairo_t *cr, const log_axes *axes)
{
    static const double dashes[] = {7.0, 5.0};
    double lowest = axes->linear ? 0.0 : pow(10.0, axes->lowest_decade);
    set_colour(cr, CHANCE_COLOUR);
    cairo_set_line_width(cr, 1.5);
    cairo_set_dash(cr, dashes, 2, 0.0);
    cairo_move_to(cr, axes_x(axes, lowest), axes_y(axes, lowest));
    cairo_line_to(cr, axes_x(axes, 1.0), axes_y(axes, 1.0));
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0.0);
}

/* The empirical ROC through all its points (on log axes, rates of 0 at the
 * axis minimum: a perfect ROC runs up the left edge and along the top). */
static void draw_roc(cairo_t *cr, const log_axes *axes, const ul_emp_roc_point *points,
                     size_t n_points)
{
    bool started = false;
    for (size_t i = 0; i < n_points; i++) {
        double x = axes_x(axes, points[i].fpr), y = axes_y(axes, points[i].tpr);
        if (started)
            cairo_line_to(cr, x, y);
        else
            cairo_move_to(cr, x, y);
        started = true;
    }
    set_colour(cr, ROC_COLOUR);
    cairo_set_line_width(cr, 2.5);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke(cr);
}

/* Pointwise Clopper–Pearson intervals of both rates at each ROC point
 * (two-sided, α/2 at each end: ul_emp_cp_upper_d, and the lower bound as
 * 1 − the upper bound of the complementary count), drawn as the region
 * between (FPR_lo, TPR_hi) and (FPR_hi, TPR_lo).  A picture, not a
 * certificate: doubles, at most ~2000 points (evenly thinned). */
static void draw_band(cairo_t *cr, const log_axes *axes, const ul_emp_roc_point *points,
                      size_t n_points, size_t n_in, size_t n_out, double alpha)
{
    size_t step = n_points > 2000 ? (n_points + 1999) / 2000 : 1, m = 0;
    size_t room = n_points / step + 2; /* points kept, the last included */
    double *lo = malloc(4 * room * sizeof *lo), *hi = lo + 2 * room;
    /* at most 2002 points kept, whatever n_points */
    if (!lo)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    for (size_t i = 0;; i += step) {
        if (i >= n_points)
            i = n_points - 1; /* always end at the last point */
        unsigned long kf = (unsigned long)llround(points[i].fpr * (double)n_out);
        unsigned long kt = (unsigned long)llround(points[i].tpr * (double)n_in);
        double a = alpha / 2;
        double f_hi = ul_emp_cp_upper_d(kf, n_out, a), t_hi = ul_emp_cp_upper_d(kt, n_in, a);
        double f_lo = kf ? 1 - ul_emp_cp_upper_d(n_out - kf, n_out, a) : 0;
        double t_lo = kt ? 1 - ul_emp_cp_upper_d(n_in - kt, n_in, a) : 0;
        lo[2 * m] = f_lo, lo[2 * m + 1] = t_hi; /* upper-left boundary */
        hi[2 * m] = f_hi, hi[2 * m + 1] = t_lo; /* lower-right boundary */
        m++;
        if (i == n_points - 1)
            break;
    }
    for (size_t j = 0; j < m; j++)
        cairo_line_to(cr, axes_x(axes, lo[2 * j]), axes_y(axes, lo[2 * j + 1]));
    for (size_t j = m; j-- > 0;)
        cairo_line_to(cr, axes_x(axes, hi[2 * j]), axes_y(axes, hi[2 * j + 1]));
    cairo_close_path(cr);
    cairo_set_source_rgba(cr, ROC_COLOUR.red, ROC_COLOUR.green, ROC_COLOUR.blue, 0.18);
    cairo_fill(cr);
    free(lo);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* TPR_max sampled log-uniformly in FPR, plus its corners (so that they stay
 * sharp): where the two constraint lines cross, FPR = (1 − δ)/(e^ε + 1),
 * and where each reaches TPR = 1, FPR = (1 − δ)e^{−ε} and FPR = 1 − δ. */
enum { CEILING_SAMPLES = 480 };

static void draw_ceiling(cairo_t *cr, const log_axes *axes, double eps, double delta, colour ink,
                         bool dashed, const ul_emp_plot_spec *renyi)
{
    static const double dashes[] = {7.0, 5.0};
    double fprs[CEILING_SAMPLES + 3];
    size_t n = 0;
    double lowest = axes->lowest_decade;
    for (int i = 0; i < CEILING_SAMPLES; i++)
        fprs[n++] = axes->linear ? (double)i / (CEILING_SAMPLES - 1)
                                 : pow(10.0, lowest - lowest * i / (CEILING_SAMPLES - 1));
    const double corners[3] = {(1.0 - delta) / (exp(eps) + 1.0), (1.0 - delta) * exp(-eps),
                               1.0 - delta};
    for (int c = 0; c < 3; c++)
        if (corners[c] > fprs[0] && corners[c] < 1.0)
            fprs[n++] = corners[c];
    qsort(fprs, n, sizeof fprs[0], compare_doubles);

    for (size_t i = 0; i < n; i++) {
        double t = renyi ? ul_emp_tradeoff_tpr_renyi(fprs[i], renyi->renyi_order,
                                                     renyi->renyi_value)
                         : ul_emp_tradeoff_tpr(fprs[i], eps, delta);
        double x = axes_x(axes, fprs[i]), y = axes_y(axes, t);
        if (i == 0)
            cairo_move_to(cr, x, y);
        else
            cairo_line_to(cr, x, y);
    }
    set_colour(cr, ink);
    cairo_set_line_width(cr, 2.0);
    cairo_set_dash(cr, dashes, dashed ? 2 : 0, 0.0);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0.0);
}

typedef struct {
    char text[160];
    colour colour;
    bool dashed;
} legend_entry;

/* The legend box, lower right inside the axes (top: upper right). */
static void draw_legend(cairo_t *cr, const legend_entry *entries, size_t n_entries, bool top_right)
{
    static const double dashes[] = {7.0, 5.0};
    const double padding = 10.0, sample_length = 34.0, gap = 8.0, line_height = 20.0;
    set_font(cr, 13.0, false);
    double widest = 0.0;
    for (size_t i = 0; i < n_entries; i++)
        widest = fmax(widest, text_width(cr, entries[i].text));
    double box_width = 2.0 * padding + sample_length + gap + widest;
    double box_height = 2.0 * padding + line_height * (double)n_entries - 6.0;
    double left = AXES_RIGHT - 12.0 - box_width,
           top = top_right ? AXES_TOP + 12.0 : AXES_BOTTOM - 12.0 - box_height;

    cairo_rectangle(cr, left, top, box_width, box_height);
    cairo_set_source_rgba(cr, 1.0, 1.0, 1.0, 0.9);
    cairo_fill_preserve(cr);
    set_colour(cr, (colour){0.6, 0.6, 0.6});
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);

    for (size_t i = 0; i < n_entries; i++) {
        double middle = top + padding + 7.0 + line_height * (double)i;
        set_colour(cr, entries[i].colour);
        cairo_set_line_width(cr, entries[i].dashed ? 1.5 : 2.0);
        cairo_set_dash(cr, dashes, entries[i].dashed ? 2 : 0, 0.0);
        cairo_move_to(cr, left + padding, middle);
        cairo_line_to(cr, left + padding + sample_length, middle);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0.0);
        set_colour(cr, INK);
        show_text_at(cr, left + padding + sample_length + gap, middle + 4.5, 0.0, entries[i].text);
    }
}

static size_t legend_entries(legend_entry *e, const ul_emp_plot_spec *sp, bool greek)
{
    size_t n = 0;
    e[n] = (legend_entry){.text = "empirical ROC", .colour = ROC_COLOUR, .dashed = false};
    if (sp->has_auc)
        snprintf(e[n].text, sizeof e[0].text, "empirical ROC, AUC %.4f", sp->auc);
    n++;
    if (sp->n_in > 0 && sp->n_out > 0) {
        e[n] = (legend_entry){.colour = ROC_COLOUR, .dashed = false};
        snprintf(e[n++].text, sizeof e[0].text, "pointwise %.4g%% Clopper-Pearson band",
                 100 * (1 - sp->alpha));
    }
    e[n++] = (legend_entry){.text = "chance (TPR = FPR)", .colour = CHANCE_COLOUR, .dashed = true};
    const char *ep = greek ? "\u03b5" : "eps", *de = greek ? "\u03b4" : "delta";
    if (!isnan(sp->eps)) {
        e[n] = (legend_entry){.colour = CEILING_COLOUR, .dashed = false};
        snprintf(e[n++].text, sizeof e[0].text, "claimed (%s, %s) = (%.4g, %.4g) ceiling", ep, de,
                 sp->eps, sp->delta);
    }
    if (sp->renyi_order > 1) {
        e[n] = (legend_entry){.colour = CEILING_COLOUR, .dashed = false};
        snprintf(e[n++].text, sizeof e[0].text, "claimed Renyi (%.4g, %.4g) ceiling",
                 sp->renyi_order, sp->renyi_value);
    }
    if (!isnan(sp->eps_lb)) {
        e[n] = (legend_entry){.colour = BOUND_COLOUR, .dashed = true};
        snprintf(e[n++].text, sizeof e[0].text, "certified %s lower bound %.4g: its ceiling", ep,
                 sp->eps_lb);
    }
    return n;
}

/* The log axes' lowest decade: with a band, the decade at or below the
 * smallest positive rate the sample can show, 1/max(n_in, n_out); else
 * ul_emp_plot_axis_min's. */
static int lowest_decade(const ul_emp_plot_spec *sp)
{
    if (sp->n_in > 0 && sp->n_out > 0) {
        double n = (double)(sp->n_in > sp->n_out ? sp->n_in : sp->n_out);
        int k = (int)floor(-log10(n) + 1e-12);
        return k < 0 ? k : -1;
    }
    return (int)lround(log10(ul_emp_plot_axis_min(sp->points, sp->n_points)));
}

static void draw_picture(cairo_t *cr, const ul_emp_plot_spec *sp)
{
    log_axes axes = {.lowest_decade = lowest_decade(sp), .linear = sp->linear};

    set_colour(cr, (colour){1.0, 1.0, 1.0});
    cairo_paint(cr);

    set_font(cr, 13.0, false);
    const char *minus = font_has_glyphs(cr, "\u2212") ? "\u2212" : "-";
    bool greek = font_has_glyphs(cr, "\u03b5\u03b4");

    draw_frame_and_ticks(cr, &axes, minus);

    cairo_save(cr);
    cairo_rectangle(cr, AXES_LEFT - 2, AXES_TOP - 2, AXES_RIGHT - AXES_LEFT + 4,
                    AXES_BOTTOM - AXES_TOP + 4);
    cairo_clip(cr);
    if (sp->n_in > 0 && sp->n_out > 0)
        draw_band(cr, &axes, sp->points, sp->n_points, sp->n_in, sp->n_out, sp->alpha);
    draw_chance_line(cr, &axes);
    if (!isnan(sp->eps))
        draw_ceiling(cr, &axes, sp->eps, sp->delta, CEILING_COLOUR, false, NULL);
    if (sp->renyi_order > 1)
        draw_ceiling(cr, &axes, INFINITY, 0, CEILING_COLOUR, false, sp);
    if (!isnan(sp->eps_lb))
        draw_ceiling(cr, &axes, sp->eps_lb, sp->delta, BOUND_COLOUR, true, NULL);
    draw_roc(cr, &axes, sp->points, sp->n_points);
    cairo_restore(cr);

    legend_entry entries[6];
    draw_legend(cr, entries, legend_entries(entries, sp, greek), false);

    if (sp->title != NULL && sp->title[0] != '\0') {
        set_colour(cr, INK);
        set_font(cr, 17.0, true);
        show_text_at(cr, 0.5 * (AXES_LEFT + AXES_RIGHT), AXES_TOP - 20.0, 0.5, sp->title);
    }
}

/* ---- the ε(δ) picture ------------------------------------------------------ */

typedef struct {
    int dlo, dhi; /* decades of the δ axis */
    double ymax;  /* the ε axis runs from 0 to ymax */
} eps_axes;

static double eps_x(const eps_axes *a, double delta)
{
    double f = (log10(delta) - a->dlo) / (double)(a->dhi - a->dlo);
    return AXES_LEFT + f * (AXES_RIGHT - AXES_LEFT);
}

static double eps_y(const eps_axes *a, double eps)
{
    return AXES_BOTTOM - eps / a->ymax * (AXES_BOTTOM - AXES_TOP);
}

/* Decades covering every positive δ, and a round ε maximum (1, 2 or 5 × 10^k
 * above the largest finite ε). */
static eps_axes eps_axes_of(const ul_emp_eps_plot *p)
{
    double lo = 1, hi = 0, top = 0;
    for (size_t c = 0; c < p->n_curves; c++)
        for (size_t i = 0; i < p->curves[c].n; i++) {
            double d = p->curves[c].delta[i], e = p->curves[c].eps[i];
            if (d > 0 && d < lo)
                lo = d;
            if (d > hi)
                hi = d;
            if (isfinite(e) && e > top)
                top = e;
        }
    eps_axes a = {(int)floor(log10(lo)), (int)ceil(log10(hi > lo ? hi : 10 * lo)), 1};
    if (a.dhi <= a.dlo)
        a.dhi = a.dlo + 1;
    double step = pow(10, floor(log10(top > 0 ? top : 1)));
    a.ymax = top <= step       ? step
             : top <= 2 * step ? 2 * step
             : top <= 5 * step ? 5 * step
                               : 10 * step;
    return a;
}

static void eps_frame(cairo_t *cr, const eps_axes *a, const char *minus, bool greek)
{
    int every = (a->dhi - a->dlo + 11) / 12; /* at most 12 labels: they do not overlap */
    for (int k = a->dlo; k <= a->dhi; k++) {
        grid_and_ticks(cr, eps_x(a, pow(10, k)), AXES_BOTTOM);
        if ((a->dhi - k) % every == 0)
            show_power_of_ten(cr, eps_x(a, pow(10, k)), AXES_BOTTOM + 26.0, 0.5, k, minus, 13.0);
    }
    for (int i = 0; i <= 5; i++) {
        char label[32];
        snprintf(label, sizeof label, "%.3g", a->ymax * i / 5);
        grid_and_ticks(cr, AXES_LEFT, eps_y(a, a->ymax * i / 5));
        set_font(cr, 13.0, false);
        show_text_at(cr, AXES_LEFT - 10.0, eps_y(a, a->ymax * i / 5) + 4.5, 1.0, label);
    }
    frame_and_titles(cr, greek ? "\u03b4" : "delta", greek ? "\u03b5" : "eps");
}

static const colour CURVE_COLOURS[] = {{0.85, 0.10, 0.10},
                                       {0.10, 0.30, 0.80},
                                       {0.90, 0.55, 0.05},
                                       {0.10, 0.60, 0.20},
                                       {0.45, 0.20, 0.65}};

static void eps_curve(cairo_t *cr, const eps_axes *a, const ul_emp_eps_curve *c, colour ink)
{
    static const double dashes[] = {7.0, 5.0};
    bool started = false;
    for (size_t i = 0; i < c->n; i++) {
        if (!(c->delta[i] > 0) || !isfinite(c->eps[i]))
            continue;
        double x = eps_x(a, c->delta[i]), y = eps_y(a, c->eps[i]);
        if (c->style == UL_EMP_CURVE_POINTS) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, x, y, 4.0, 0, 4 * acos(0.0));
        } else if (started) {
            cairo_line_to(cr, x, y);
        } else {
            cairo_move_to(cr, x, y);
        }
        started = true;
    }
    set_colour(cr, ink);
    cairo_set_line_width(cr, 2.0);
    cairo_set_dash(cr, dashes, c->style == UL_EMP_CURVE_DASHED ? 2 : 0, 0.0);
    if (c->style == UL_EMP_CURVE_POINTS)
        cairo_fill(cr);
    else
        cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0.0);
}

static void draw_eps_picture(cairo_t *cr, const void *what)
{
    const ul_emp_eps_plot *p = what;
    eps_axes a = eps_axes_of(p);
    set_colour(cr, (colour){1.0, 1.0, 1.0});
    cairo_paint(cr);
    set_font(cr, 13.0, false);
    const char *minus = font_has_glyphs(cr, "\u2212") ? "\u2212" : "-";
    eps_frame(cr, &a, minus, font_has_glyphs(cr, "\u03b5\u03b4"));
    legend_entry entries[UL_EMP_EPS_MAX_CURVES];
    cairo_save(cr);
    cairo_rectangle(cr, AXES_LEFT, AXES_TOP, AXES_RIGHT - AXES_LEFT, AXES_BOTTOM - AXES_TOP);
    cairo_clip(cr);
    for (size_t c = 0; c < p->n_curves; c++) {
        size_t nc = sizeof CURVE_COLOURS / sizeof CURVE_COLOURS[0], k = (size_t)p->curves[c].colour;
        colour ink = CURVE_COLOURS[k >= 1 && k <= nc ? k - 1 : c % nc];
        eps_curve(cr, &a, &p->curves[c], ink);
        entries[c] =
            (legend_entry){.colour = ink, .dashed = p->curves[c].style == UL_EMP_CURVE_DASHED};
        snprintf(entries[c].text, sizeof entries[c].text, "%s", p->curves[c].label);
    }
    cairo_restore(cr);
    /* upper right: ε(δ) curves fall to the right, and a claim's point at a
     * small ε there stays visible */
    draw_legend(cr, entries, p->n_curves, true);
    if (p->title && p->title[0]) {
        set_colour(cr, INK);
        set_font(cr, 17.0, true);
        show_text_at(cr, 0.5 * (AXES_LEFT + AXES_RIGHT), AXES_TOP - 20.0, 0.5, p->title);
    }
}

/* ---- the file ------------------------------------------------------------- */

typedef enum { FORMAT_PNG, FORMAT_SVG } picture_format;

/* Where cairo's output goes: the temporary file, and the first errno. */
typedef struct {
    FILE *file;
    int write_errno;
} output_sink;

static cairo_status_t write_to_sink(void *closure, const unsigned char *data, unsigned int length)
{
    output_sink *sink = closure;
    if (fwrite(data, 1, length, sink->file) != length) {
        if (sink->write_errno == 0)
            sink->write_errno = errno != 0 ? errno : EIO;
        return CAIRO_STATUS_WRITE_ERROR;
    }
    return CAIRO_STATUS_SUCCESS;
}

/* Draws and encodes the picture into sink; the cairo status of the first
 * failure (CAIRO_STATUS_SUCCESS if none). */
typedef ul_emp_draw_fn draw_fn;

/* One picture, or (panels) linear axes on the left half and log axes on
 * the right, each clipped to its half (draw_picture paints its background). */
static void draw_roc_picture(cairo_t *cr, const void *what)
{
    const ul_emp_plot_spec *sp = what;
    if (!sp->panels) {
        draw_picture(cr, sp);
        return;
    }
    for (int half = 0; half < 2; half++) {
        ul_emp_plot_spec one = *sp;
        one.linear = half == 0;
        cairo_save(cr);
        cairo_translate(cr, half * PICTURE_WIDTH, 0);
        cairo_rectangle(cr, 0, 0, PICTURE_WIDTH, PICTURE_HEIGHT);
        cairo_clip(cr);
        draw_picture(cr, &one);
        cairo_restore(cr);
    }
}

static cairo_status_t render(picture_format format, output_sink *sink, draw_fn draw,
                             const void *what, int width, int height)
{
    cairo_surface_t *surface =
        format == FORMAT_PNG
            ? cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height)
            : cairo_svg_surface_create_for_stream(write_to_sink, sink, width, height);
    cairo_status_t status = cairo_surface_status(surface);
    if (status == CAIRO_STATUS_SUCCESS) {
        cairo_t *cr = cairo_create(surface);
        status = cairo_status(cr);
        if (status == CAIRO_STATUS_SUCCESS) {
            draw(cr, what);
            status = cairo_status(cr);
        }
        cairo_destroy(cr);
    }
    if (status == CAIRO_STATUS_SUCCESS) {
        if (format == FORMAT_PNG) {
            status = cairo_surface_write_to_png_stream(surface, write_to_sink, sink);
        } else {
            cairo_surface_finish(surface); /* the SVG is written here */
            status = cairo_surface_status(surface);
        }
    }
    cairo_surface_destroy(surface);
    return status;
}

/* The format a file name asks for (its extension, either case). */
static ul_status path_format(const char *path, picture_format *format, char *err, size_t errlen)
{
    if (path == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "path: no file name given");
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (dot != NULL && (slash == NULL || dot > slash) && strcasecmp(dot, ".png") == 0)
        *format = FORMAT_PNG;
    else if (dot != NULL && (slash == NULL || dot > slash) && strcasecmp(dot, ".svg") == 0)
        *format = FORMAT_SVG;
    else
        return ul_fail(err, errlen, UL_EINPUT,
                       "path %s: unknown picture format; the name must end in .png or .svg", path);
    return UL_OK;
}

static ul_status check_arguments(const ul_emp_roc_point *points, size_t n_points, double eps,
                                 double delta, char *err, size_t errlen)
{
    if (points == NULL || n_points == 0)
        return ul_fail(err, errlen, UL_EINPUT, "points: the ROC has no points");
    for (size_t i = 0; i < n_points; i++) {
        if (!(points[i].fpr >= 0.0 && points[i].fpr <= 1.0 && points[i].tpr >= 0.0 &&
              points[i].tpr <= 1.0))
            return ul_fail(err, errlen, UL_EINPUT,
                           "points: point %zu (fpr %g, tpr %g) is outside [0, 1]²", i,
                           points[i].fpr, points[i].tpr);
        if (i > 0 && points[i].fpr < points[i - 1].fpr)
            return ul_fail(err, errlen, UL_EINPUT,
                           "points: fpr decreases at point %zu (%g after %g)", i, points[i].fpr,
                           points[i - 1].fpr);
    }
    if (isnan(eps))
        return UL_OK; /* no claim: delta is not used */
    if (!(eps >= 0.0 && isfinite(eps)))
        return ul_fail(err, errlen, UL_EINPUT,
                       "eps = %g: a claim needs a finite eps >= 0 (NAN for no claim)", eps);
    if (!(delta >= 0.0 && delta <= 1.0))
        return ul_fail(err, errlen, UL_EINPUT, "delta = %g is outside [0, 1]", delta);
    return UL_OK;
}

typedef struct {
    picture_format format;
    ul_emp_plot_spec spec;
    const ul_emp_eps_plot *eps_plot; /* non-NULL: the ε(δ) picture instead */
    /* non-NULL: another module's picture (ul_emp_picture), width × height */
    ul_emp_draw_fn draw;
    const void *what;
    int width, height;
    char reason[256];
    bool nomem; /* cairo ran out of memory: its paths hold the input's points */
} plot_job;

/* The points a job draws (its size: the input's). */
static size_t picture_points(const plot_job *job)
{
    if (!job->eps_plot)
        return job->spec.n_points;
    size_t n = 0;
    for (size_t c = 0; c < job->eps_plot->n_curves; c++)
        n += job->eps_plot->curves[c].n;
    return n;
}

/* Draws and encodes the picture into the temporary file (ul_io_write_atomic). */
static const char *fill_picture(FILE *f, void *ctx)
{
    plot_job *job = ctx;
    output_sink sink = {.file = f, .write_errno = 0};
    int width = !job->eps_plot && job->spec.panels ? 2 * PICTURE_WIDTH : PICTURE_WIDTH;
    cairo_status_t status =
        job->draw       ? render(job->format, &sink, job->draw, job->what, job->width,
                                 job->height)
        : job->eps_plot ? render(job->format, &sink, draw_eps_picture, job->eps_plot, width,
                                 PICTURE_HEIGHT)
                        : render(job->format, &sink, draw_roc_picture, &job->spec, width,
                                 PICTURE_HEIGHT);
    if (status == CAIRO_STATUS_SUCCESS)
        return NULL;
    job->nomem = status == CAIRO_STATUS_NO_MEMORY;
    if (job->nomem && job->draw) {
        snprintf(job->reason, sizeof job->reason, "cannot draw the picture: cairo: out of memory");
        return job->reason;
    }
    if (job->nomem) {
        snprintf(job->reason, sizeof job->reason,
                 "cannot draw the picture: cairo: out of memory for its %zu points",
                 picture_points(job));
        return job->reason;
    }
    snprintf(job->reason, sizeof job->reason, "cannot draw the picture: cairo: %s%s%s",
             cairo_status_to_string(status), sink.write_errno ? ": " : "",
             sink.write_errno ? strerror(sink.write_errno) : "");
    return job->reason;
}

/* The picture written atomically to path (svg not NULL: as SVG text into
 * *svg, *len, for the HTML report); UL_ENOMEM when cairo ran out of memory
 * (policy: num/status.h), the message from ul_io_write_atomic. */
static ul_status write_job(const char *path, plot_job *job, char **svg, size_t *len, char *err,
                           size_t errlen)
{
    if (!svg) {
        /* 0644: a picture is for reading, whatever the umask */
        ul_status st = ul_io_write_atomic(path, fill_picture, job, 0644, err, errlen);
        return st != UL_OK && job->nomem ? UL_ENOMEM : st;
    }
    /* the same drawing into a memory stream (one code path for both) */
    *svg = NULL, *len = 0;
    job->format = FORMAT_SVG;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return ul_fail(err, errlen, UL_ENOMEM, "svg: out of memory for the picture");
    const char *why = fill_picture(f, job);
    if (fclose(f) != 0 && !why)
        why = "cannot draw the picture: out of memory for its SVG text";
    if (why) {
        free(buf);
        return ul_fail(err, errlen, job->nomem || !buf ? UL_ENOMEM : UL_EINPUT, "svg: %s", why);
    }
    *svg = buf, *len = n;
    return UL_OK;
}

/* The checks of ul_emp_plot_roc_ex's spec (plot.h). */
static ul_status check_spec(const void *what, char *err, size_t errlen)
{
    const ul_emp_plot_spec *spec = what;
    if (spec == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "spec: no picture described");
    ul_status checked =
        check_arguments(spec->points, spec->n_points, spec->eps, spec->delta, err, errlen);
    if (checked != UL_OK)
        return checked;
    if (!isnan(spec->eps_lb) && !(spec->eps_lb >= 0 && isfinite(spec->eps_lb)))
        return ul_fail(err, errlen, UL_EINPUT, "eps_lb = %g: a finite number >= 0, or NAN",
                       spec->eps_lb);
    if ((spec->n_in > 0 || spec->n_out > 0) &&
        (spec->n_in == 0 || spec->n_out == 0 || !(spec->alpha > 0 && spec->alpha < 1)))
        return ul_fail(err, errlen, UL_EINPUT,
                       "n_in, n_out, alpha: a band needs both counts and alpha in (0, 1)");
    if (isnan(spec->eps) && !isnan(spec->eps_lb) && !(spec->delta >= 0 && spec->delta <= 1))
        return ul_fail(err, errlen, UL_EINPUT, "delta = %g is outside [0, 1]", spec->delta);
    return UL_OK;
}

/* One picture: to path (its extension the format) or, svg not NULL, as
 * SVG text; the path checked first, then the picture (check(what)). */
static ul_status run_job(const char *path, plot_job *job, ul_status (*check)(const void *, char *,
                                                                          size_t),
                         const void *what, char **svg, size_t *len, char *err, size_t errlen)
{
    if (svg)
        *svg = NULL, *len = 0;
    job->format = FORMAT_SVG;
    ul_status st = svg ? UL_OK : path_format(path, &job->format, err, errlen);
    st = st == UL_OK ? check(what, err, errlen) : st;
    return st == UL_OK ? write_job(path, job, svg, len, err, errlen) : st;
}

ul_status ul_emp_picture(const char *path, ul_emp_draw_fn draw, const void *what, int width,
                         int height, char **svg, size_t *len, char *err, size_t errlen)
{
    plot_job job = {.format = FORMAT_PNG, .spec = {.eps = NAN}, .draw = draw, .what = what,
                    .width = width, .height = height};
    if (!svg && path == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "path: no file name given");
    return write_job(path, &job, svg, len, err, errlen);
}

ul_status ul_emp_plot_roc_ex(const char *path, const ul_emp_plot_spec *spec, char *err,
                             size_t errlen)
{
    plot_job job = {.spec = spec ? *spec : (ul_emp_plot_spec){.eps = NAN}};
    return run_job(path, &job, check_spec, spec, NULL, NULL, err, errlen);
}

ul_status ul_emp_plot_roc_svg(const ul_emp_plot_spec *spec, char **svg, size_t *len, char *err,
                              size_t errlen)
{
    plot_job job = {.spec = spec ? *spec : (ul_emp_plot_spec){.eps = NAN}};
    return run_job(NULL, &job, check_spec, spec, svg, len, err, errlen);
}

ul_status ul_emp_plot_roc(const char *path, const ul_emp_roc_point *points, size_t n_points,
                          double eps, double delta, const char *title, char *err, size_t errlen)
{
    ul_emp_plot_spec spec = {.points = points,
                             .n_points = n_points,
                             .eps = eps,
                             .delta = delta,
                             .eps_lb = NAN,
                             .title = title};
    return ul_emp_plot_roc_ex(path, &spec, err, errlen);
}

/* The checks of an ε(δ) picture (plot.h). */
static ul_status check_eps_plot(const void *what, char *err, size_t errlen)
{
    const ul_emp_eps_plot *p = what;
    if (p == NULL || p->n_curves == 0 || p->n_curves > UL_EMP_EPS_MAX_CURVES)
        return ul_fail(err, errlen, UL_EINPUT, "curves: between 1 and %d curves",
                       UL_EMP_EPS_MAX_CURVES);
    size_t positive = 0;
    for (size_t c = 0; c < p->n_curves; c++) {
        const ul_emp_eps_curve *cv = &p->curves[c];
        if (cv->label == NULL || (cv->n > 0 && (cv->delta == NULL || cv->eps == NULL)))
            return ul_fail(err, errlen, UL_EINPUT, "curves[%zu]: label and arrays needed", c);
        for (size_t i = 0; i < cv->n; i++) {
            if (!(cv->delta[i] > 0 && cv->delta[i] < 1) || !(cv->eps[i] >= 0))
                return ul_fail(err, errlen, UL_EINPUT,
                               "curves[%zu] point %zu: delta must lie in (0, 1) and eps >= 0", c,
                               i);
            positive++;
        }
    }
    if (positive == 0)
        return ul_fail(err, errlen, UL_EINPUT, "curves: no point to draw");
    return UL_OK;
}

ul_status ul_emp_plot_eps_delta(const char *path, const ul_emp_eps_plot *p, char *err,
                                size_t errlen)
{
    plot_job job = {.eps_plot = p};
    return run_job(path, &job, check_eps_plot, p, NULL, NULL, err, errlen);
}

ul_status ul_emp_plot_eps_delta_svg(const ul_emp_eps_plot *p, char **svg, size_t *len, char *err,
                                    size_t errlen)
{
    plot_job job = {.eps_plot = p};
    return run_job(NULL, &job, check_eps_plot, p, svg, len, err, errlen);
}
