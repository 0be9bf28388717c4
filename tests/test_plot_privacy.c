/* tests/test_plot_privacy.c — the audit report's figure (emp/plot_privacy.h),
 * issue 27.
 *
 * A curve made here (not by the audit: the figure is tested on its own)
 * with a known shape, δ(ε) = e^{−ε}·10^{−3} on a log axis; the SVG text is
 * one well-formed-looking document with paths; the PNG variant's pixels
 * show the band's blue where the band is and the claim's red at the claim's
 * position (the picture's axes are computed here from the axis rules of the
 * header: whole decades on a log axis, linear from 0 to 5% above the last
 * x).  A curve with no point, or none finite, is refused, naming "curve".
 */
#include <cairo.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emp/plot_privacy.h"

TestSuite(plot_privacy);

/* ε = 0.25 … 3, δ band [0.9, 1.1]·10^-3·e^{−ε}, the other form 10× above;
 * the claim (1, 1e-3). */
static void make_curve(ul_audit_curve *c)
{
    memset(c, 0, sizeof *c);
    c->x_key = "eps", c->y_key = "delta";
    c->log_y = true;
    c->n = 12;
    for (size_t i = 0; i < c->n; i++) {
        c->x[i] = 0.25 * (double)(i + 1);
        double d = 1e-3 * exp(-c->x[i]);
        c->lo[i] = 0.9 * d, c->hi[i] = 1.1 * d;
        c->other_lo[i] = 9 * d, c->other_hi[i] = 11 * d;
    }
    snprintf(c->label, sizeof c->label, "corrected Thm 1");
    snprintf(c->other_label, sizeof c->other_label, "printed Thm 1");
    c->claim_x = 1.0, c->claim_y = 1e-3;
}

Test(plot_privacy, svg_is_one_document_with_paths)
{
    ul_audit_curve c;
    make_curve(&c);
    char *svg = NULL, err[256];
    size_t len = 0;
    cr_assert_eq(ul_emp_plot_privacy_svg(&c, "a title", &svg, &len, err, sizeof err), UL_OK, "%s",
                 err);
    cr_assert_eq(strlen(svg), len);
    cr_expect(strncmp(svg, "<?xml", 5) == 0 || strncmp(svg, "<svg", 4) == 0);
    const char *root = strstr(svg, "<svg");
    cr_assert_not_null(root);
    cr_expect_null(strstr(root + 4, "<svg"), "one <svg> root");
    size_t end = len;
    while (end > 0 && (svg[end - 1] == '\n' || svg[end - 1] == ' '))
        end--;
    cr_expect(end >= 6 && strncmp(svg + end - 6, "</svg>", 6) == 0);
    cr_expect_not_null(strstr(svg, "<path"));
    cr_expect_not_null(strstr(svg, "width=\"800"));
    free(svg);
}

Test(plot_privacy, empty_or_nan_curves_are_refused)
{
    ul_audit_curve c;
    make_curve(&c);
    c.n = 0;
    char *svg = (char *)1, err[256];
    size_t len = 1;
    cr_expect_eq(ul_emp_plot_privacy_svg(&c, "t", &svg, &len, err, sizeof err), UL_EINPUT);
    cr_expect_null(svg);
    cr_expect(strstr(err, "curve") != NULL, "%s", err);
    make_curve(&c);
    for (size_t i = 0; i < c.n; i++)
        c.lo[i] = c.hi[i] = NAN;
    cr_expect_eq(ul_emp_plot_privacy_svg(&c, "t", &svg, &len, err, sizeof err), UL_EINPUT);
    cr_expect(strstr(err, "curve") != NULL, "%s", err);
}

/* The pixel at picture coordinates (x, y). */
static void pixel(cairo_surface_t *s, double x, double y, int *r, int *g, int *b)
{
    unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    uint32_t p = *(uint32_t *)(data + (int)lround(y) * stride + 4 * (int)lround(x));
    *r = (int)(p >> 16 & 255), *g = (int)(p >> 8 & 255), *b = (int)(p & 255);
}

Test(plot_privacy, png_shows_the_band_and_the_claim)
{
    ul_audit_curve c;
    make_curve(&c);
    c.other_lo[3] = c.other_hi[3] = NAN; /* a gap in the other band only */
    char path[] = "/tmp/ulaudit-plot-privacy-XXXXXX", err[256];
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(ul_emp_plot_privacy_png(&c, "t", path, err, sizeof err), UL_OK, "%s", err);
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    unlink(path);
    cr_assert_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    cr_assert_eq(cairo_image_surface_get_width(s), 800);
    cr_assert_eq(cairo_image_surface_get_height(s), 500);
    /* The axes, by the header's rules: x linear 0 .. 3.15 (3 + 5%), y log
     * over whole decades holding 0.9e-3·e^-3 .. 11e-3·e^-0.25 and the claim:
     * 10^-5 .. 10^-2.  Axes box: x 96..780, y 48..430 (the file's layout). */
    double x_of = 0, y_of = 0;
    double eps = 2.0, mid = 1e-3 * exp(-eps);
    x_of = 96 + eps / 3.15 * (780 - 96);
    y_of = 430 - (log10(mid) + 5) / 3 * (430 - 48);
    int r, g, b;
    pixel(s, x_of, y_of, &r, &g, &b);
    cr_expect(b > r + 40 && b > g + 20, "band at eps 2 is blue-ish: %d %d %d", r, g, b);
    double cx = 96 + 1.0 / 3.15 * (780 - 96), cy = 430 - (-3.0 + 5) / 3 * (430 - 48);
    pixel(s, cx, cy, &r, &g, &b);
    cr_expect(r > 180 && g < 80 && b < 80, "claim marker red: %d %d %d", r, g, b);
    cairo_surface_destroy(s);
}
