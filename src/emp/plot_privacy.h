/* src/emp/plot_privacy.h — the audit report's figure: a certified privacy
 * curve (audit/curve.h) as SVG text, drawn with cairo's SVG surface.
 *
 * The picture: the band between lo and hi (shaded), the other variant's
 * band beside it when present, the claim's point (a red marker); a δ axis
 * is logarithmic; the caller's title on top; legend inside the axes. */
#ifndef UL_EMP_PLOT_PRIVACY_H
#define UL_EMP_PLOT_PRIVACY_H

#include <stddef.h>

#include "audit/curve.h"
#include "num/status.h"

/* *svg (malloc'd, *len bytes, NUL-terminated) is the picture of c.
 * UL_EINPUT naming "curve" when c->n is 0 or no point is finite; a cairo
 * failure is UL_EINPUT with cairo's reason, except out of memory (UL_ENOMEM).
 * The CLI reaches it through the plugin (cli/plugin.h) by this name. */
ul_status ul_emp_plot_privacy_svg(const ul_audit_curve *c, const char *title, char **svg,
                                  size_t *len, char *err, size_t errlen);

/* The same picture as PNG pixels (800×500) written to path, for tests that
 * look at the pixels (not atomic: the HTML report uses the SVG).  The same
 * errors, and cairo's when the file cannot be written. */
ul_status ul_emp_plot_privacy_png(const ul_audit_curve *c, const char *title, const char *path,
                                  char *err, size_t errlen);

/* Its type, for dlsym. */
typedef ul_status (*ul_emp_plot_privacy_svg_fn)(const ul_audit_curve *, const char *, char **,
                                                size_t *, char *, size_t);

#endif
