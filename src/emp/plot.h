/* src/emp/plot.h — ROC pictures for the membership-inference attack.
 *
 * One picture: the empirical ROC of an attack against the ceiling that a
 * certified (ε, δ) claim allows, on log-log axes so that the low-FPR corner
 * (where attacks are judged, Carlini et al. 2022 LiRA: TPR at 0.1% FPR) is visible.
 *
 * The ceiling.  (ε, δ)-indistinguishability of IN and OUT implies, for any
 * membership test with false positive rate FPR and false negative rate FNR
 * (Kairouz, Oh, Viswanath 2015, "The composition theorem for differential
 * privacy", ICML 2015, §2: the privacy region R(ε, δ))
 *
 *     FPR + e^ε·FNR ≥ 1 − δ   and   e^ε·FPR + FNR ≥ 1 − δ,
 *
 * so with TPR = 1 − FNR the largest TPR any test reaches at a given FPR is
 *
 *     TPR_max(FPR) = min(1, e^ε·FPR + δ, 1 − e^{−ε}·(1 − δ − FPR)).
 *
 * An empirical ROC point above this curve refutes the claim (up to sampling
 * error: the certified statement is ul_emp_eps_lb_counts in stats/stats.h).
 *
 * The picture (800×600; PNG pixels or SVG points):
 *   axes      x = FPR, y = TPR, both logarithmic from L to 1, where
 *             L = ul_emp_plot_axis_min(points): 1e-4, or lower when a
 *             smaller positive coordinate is present (floored to a power of
 *             ten, never below 1e-6); decade ticks labelled 10^k, minor
 *             ticks at 2…9 × 10^k, titles "false positive rate" /
 *             "true positive rate", the caller's title at the top;
 *   curves    chance TPR = FPR (dashed grey, RGB 0.55 0.55 0.55);
 *             the empirical ROC (solid blue, RGB 0.10 0.30 0.80) through
 *             every point, a rate of 0 drawn at the axis minimum L (so a
 *             perfect ROC shows), joined by straight segments in the
 *             log-log plane;
 *             the (ε, δ) ceiling (solid red, RGB 0.85 0.10 0.10) when ε is
 *             finite;
 *   legend    lower right, inside the axes (the region below the chance
 *             line, where a useful attack does not go); the ceiling entry
 *             reads "(ε, δ) = (…, …) ceiling", with "eps"/"delta" instead
 *             of the Greek letters if the font found has no glyphs for them.
 *
 * Files are written atomically (ul_io_write_atomic, io/file.h): the
 * picture is drawn into a temporary file ".<name>.tmp.<pid>.<n>" in the same
 * directory (mode 0644), which is renamed
 * onto path only when every cairo and write status was good.  On any
 * failure the temporary file is removed and path is left as it was.
 */
#ifndef UL_EMP_PLOT_H
#define UL_EMP_PLOT_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>

#include "stats/stats.h"
#include "num/status.h"

/* TPR_max(fpr) above: the largest TPR at false positive rate fpr that an
 * (eps, delta)-indistinguishable pair allows.  eps = +∞ (no constraint)
 * gives 1.  NAN when fpr ∉ [0, 1], eps < 0 or NaN, or delta ∉ [0, 1]. */
double ul_emp_tradeoff_tpr(double fpr, double eps, double delta);

/* The lower end L of both log axes for these points: the largest of
 * 1e-4, 1e-5, 1e-6 that is ≤ every positive FPR and TPR present (1e-6 if
 * none is; 1e-4 if all coordinates are ≥ 1e-4 or zero). */
double ul_emp_plot_axis_min(const ul_emp_roc_point *points, size_t n_points);

/* Draws the picture described above into `path`, whose extension chooses
 * the format: ".png" (800×600 RGB image) or ".svg" (800×600 pt), either
 * case.  points: the empirical ROC (n_points ≥ 1, coordinates in [0, 1],
 * FPR non-decreasing), e.g. ul_emp_roc.points.  eps: the claimed ε (≥ 0),
 * or NAN for no claim (no ceiling; delta is then ignored); delta ∈ [0, 1].
 * title may be NULL (no title).
 * UL_EINPUT names "path" (NULL, or an extension other than .png / .svg),
 * "points", "eps" or "delta"; a file-system or cairo failure is also
 * UL_EINPUT, with the path and the reason in the message, except cairo out
 * of memory: UL_ENOMEM naming the points (num/status.h). */
ul_status ul_emp_plot_roc(const char *path, const ul_emp_roc_point *points, size_t n_points,
                          double eps, double delta, const char *title, char *err, size_t errlen);

/* The richer picture (issue 15): everything above, and
 *   - linear axes from 0 to 1 (ticks every 0.2) when `linear`;
 *   - on log axes every point is drawn, rates of 0 at the axis minimum, so
 *     a perfect ROC runs up the left edge and along the top (the plain
 *     form above now draws it so too);
 *   - when n_in, n_out > 0: the pointwise (1 − alpha) Clopper–Pearson band
 *     of both rates at each point (two-sided, alpha/2 each end), shaded
 *     (RGBA 0.10 0.30 0.80 0.18) — a picture in doubles, not a certificate;
 *   - when eps_lb is not NAN: the ceiling of (eps_lb, delta), dashed orange
 *     (RGB 0.90 0.55 0.05): the certified lower bound's region, which the
 *     claim's (solid red) must contain for the claim to survive.
 * Same file handling and errors as ul_emp_plot_roc (also "spec", "eps_lb",
 * "n_in, n_out, alpha"). */
/* Issue 27 adds:
 *   - with a band (n_in, n_out > 0) the log axes start at the decade at or
 *     below 1/max(n_in, n_out), the smallest positive rate the sample can
 *     show (not the fixed 1e-4 of ul_emp_plot_axis_min);
 *   - renyi_order > 1: the ceiling of a Rényi claim (ul_emp_tradeoff_tpr_renyi),
 *     solid red like the (ε, δ) one;
 *   - has_auc: "empirical ROC, AUC …" in the legend;
 *   - panels: one 1600×600 picture, linear axes left and log axes right. */
typedef struct {
    const ul_emp_roc_point *points;
    size_t n_points;
    size_t n_in, n_out; /* 0, 0: no band */
    double alpha;       /* the band's level */
    double eps, delta;  /* the claim (eps NAN: none) */
    double eps_lb;      /* NAN: none */
    bool linear;
    const char *title;
    double renyi_order, renyi_value; /* a Rényi claim (order ≤ 1: none) */
    bool has_auc;
    double auc;
    bool panels;
} ul_emp_plot_spec;

/* The largest TPR at FPR fpr that a pair satisfying a Rényi bound
 * D_order ≤ value (both directions) allows: the minimum over δ of the
 * (ε(δ), δ) ceiling above with ε(δ) = value + log(1/δ)/(order − 1)
 * (Mironov 2017, "Rényi differential privacy", Prop. 3), over δ = 10^−k/8,
 * k = 0 … 160 (a valid ceiling at every sampled δ, so their minimum is one
 * too; it is not the exact Rényi region).  NAN for order ≤ 1 or value < 0. */
double ul_emp_tradeoff_tpr_renyi(double fpr, double order, double value);

ul_status ul_emp_plot_roc_ex(const char *path, const ul_emp_plot_spec *spec, char *err,
                             size_t errlen);

/* ---- ε against δ ----------------------------------------------------------
 *
 * The picture a person compares a claim with: ε(δ) curves on a log δ axis
 * (decades covering every δ) and a linear ε axis (0 to a round maximum):
 * e.g. the claimed ε at its δ (points), the certificate's theoretical curve,
 * the certified empirical lower bound ε_lb(δ) (computed by the caller at
 * each δ, e.g. with ul_emp_eps_lb) and the GDP estimate.  Curve colours in
 * order: red, blue, orange, green, purple; legend upper right; at most 12
 * decade labels (every k-th decade labelled when more, the last one kept).  Same file
 * handling as ul_emp_plot_roc.  UL_EINPUT names "path", "curves" or the
 * curve and point (δ ∈ (0, 1), ε ≥ 0; +∞ allowed and not drawn). */
#define UL_EMP_EPS_MAX_CURVES 5

typedef enum { UL_EMP_CURVE_SOLID, UL_EMP_CURVE_DASHED, UL_EMP_CURVE_POINTS } ul_emp_curve_style;

typedef struct {
    const char *label;
    const double *delta, *eps;
    size_t n;
    ul_emp_curve_style style;
    int colour; /* 0: by the curve's place (above); k = 1…5: the k-th colour, so that a
                   curve keeps its colour when one before it is left out */
} ul_emp_eps_curve;

typedef struct {
    const ul_emp_eps_curve *curves;
    size_t n_curves;
    const char *title;
} ul_emp_eps_plot;

ul_status ul_emp_plot_eps_delta(const char *path, const ul_emp_eps_plot *p, char *err,
                                size_t errlen);

/* ---- the same pictures as SVG text ------------------------------------------
 *
 * For the HTML report (report/html.h inlines SVG text): the picture that
 * ul_emp_plot_roc_ex / ul_emp_plot_eps_delta would write to a ".svg" file,
 * drawn by the same code into memory.  *svg is malloc'd and NUL-terminated
 * (cairo writes no NUL byte), *len its length; both NULL / 0 on an error.
 * The same checks and messages, with "svg" where they name the path. */
ul_status ul_emp_plot_roc_svg(const ul_emp_plot_spec *spec, char **svg, size_t *len, char *err,
                              size_t errlen);
ul_status ul_emp_plot_eps_delta_svg(const ul_emp_eps_plot *p, char **svg, size_t *len, char *err,
                                    size_t errlen);

/* ---- another module's picture ---------------------------------------------
 *
 * The file and text handling of the pictures above, for a picture drawn
 * elsewhere (emp/plot_privacy.c): draw(cr, what) paints a width × height
 * picture, written atomically to path as PNG (whatever its name) or, when
 * svg is not NULL, returned as SVG text (*svg malloc'd, *len bytes,
 * NUL-terminated; path ignored).  Errors as ul_emp_plot_roc's. */
typedef void (*ul_emp_draw_fn)(cairo_t *cr, const void *what);

ul_status ul_emp_picture(const char *path, ul_emp_draw_fn draw, const void *what, int width,
                         int height, char **svg, size_t *len, char *err, size_t errlen);

#endif
