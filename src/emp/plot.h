/* src/emp/plot.h — ROC pictures for the membership-inference attack.
 *
 * One picture: the empirical ROC of an attack against the ceiling that a
 * certified (ε, δ) claim allows, on log-log axes so that the low-FPR corner
 * (where attacks are judged, spec/anchors.md: TPR at 0.1% FPR) is visible.
 *
 * The ceiling.  (ε, δ)-indistinguishability of IN and OUT implies, for any
 * membership test with false positive rate FPR and false negative rate FNR
 * (Kairouz, Oh, Viswanath 2015, "The composition theorem for differential
 * privacy", ICML 2015, §2: the privacy region R(ε, δ); spec/langevin.md §10)
 *
 *     FPR + e^ε·FNR ≥ 1 − δ   and   e^ε·FPR + FNR ≥ 1 − δ,
 *
 * so with TPR = 1 − FNR the largest TPR any test reaches at a given FPR is
 *
 *     TPR_max(FPR) = min(1, e^ε·FPR + δ, 1 − e^{−ε}·(1 − δ − FPR)).
 *
 * An empirical ROC point above this curve refutes the claim (up to sampling
 * error: the certified statement is ul_emp_eps_lb_counts in emp/stats.h).
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
 *             the points with FPR > 0 and TPR > 0 (the others have no
 *             place on log axes), joined by straight segments in the
 *             log-log plane;
 *             the (ε, δ) ceiling (solid red, RGB 0.85 0.10 0.10) when ε is
 *             finite;
 *   legend    lower right, inside the axes (the region below the chance
 *             line, where a useful attack does not go); the ceiling entry
 *             reads "(ε, δ) = (…, …) ceiling", with "eps"/"delta" instead
 *             of the Greek letters if the font found has no glyphs for them.
 *
 * Files are written atomically (ul_write_file_atomic, cert/cert.h): the
 * picture is drawn into a temporary file ".<name>.tmp.<pid>.<n>" in the same
 * directory (mode 0644), which is renamed
 * onto path only when every cairo and write status was good.  On any
 * failure the temporary file is removed and path is left as it was.
 */
#ifndef UL_EMP_PLOT_H
#define UL_EMP_PLOT_H

#include <stddef.h>

#include "emp/stats.h"
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
 * UL_EINPUT, with the path and the reason in the message. */
ul_status ul_emp_plot_roc(const char *path, const ul_emp_roc_point *points, size_t n_points,
                          double eps, double delta, const char *title, char *err, size_t errlen);

#endif
