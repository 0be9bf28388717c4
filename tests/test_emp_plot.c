/* tests/test_emp_plot.c — the (ε, δ) ceiling and the ROC pictures.
 *
 * The ceiling is checked against hand values, against the two inequalities
 * that define the privacy region (Kairouz, Oh, Viswanath 2015 §2), and
 * against the ROC of the pair of distributions that attains it (their
 * dominating mechanism, eqs. 12–13 of the supplement), computed here by
 * Neyman–Pearson.  The pictures are checked by reading the files back:
 * PNG signature and IHDR bytes, SVG text, pixel colours from cairo's PNG
 * reader, and the directory listing for leftover temporary files. */
#include <criterion/criterion.h>
#include <cairo.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emp/plot.h"

/* cairo keeps font caches for the life of the process; release them so
 * that LeakSanitizer sees only what is left of fontconfig's own start-up
 * state (a fixed few hundred bytes, however many pictures are drawn). */
static void release_cairo_caches(void)
{
    cairo_debug_reset_static_data();
}

TestSuite(emp_plot, .fini = release_cairo_caches);

/* ---- helpers -------------------------------------------------------------- */

typedef struct {
    char path[64];
} scratch_dir;

static scratch_dir make_scratch_dir(void)
{
    scratch_dir dir;
    snprintf(dir.path, sizeof dir.path, "/tmp/ul_emp_plot.XXXXXX");
    cr_assert_not_null(mkdtemp(dir.path));
    return dir;
}

/* Names in dir (without . and ..), joined by '\n' into names (may be NULL);
 * returns how many. */
static int list_dir(const char *dir, char *names, size_t names_size)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "opendir %s", dir);
    int count = 0;
    if (names != NULL && names_size > 0)
        names[0] = '\0';
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        count++;
        if (names != NULL) {
            strncat(names, e->d_name, names_size - strlen(names) - 1);
            strncat(names, "\n", names_size - strlen(names) - 1);
        }
    }
    closedir(d);
    return count;
}

/* Removes dir with its files and empty sub-directories. */
static void remove_scratch_dir(const scratch_dir *dir)
{
    DIR *d = opendir(dir->path);
    if (d == NULL)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char full[sizeof dir->path + sizeof e->d_name + 1];
        snprintf(full, sizeof full, "%s/%s", dir->path, e->d_name);
        if (unlink(full) != 0)
            rmdir(full);
    }
    closedir(d);
    rmdir(dir->path);
}

static unsigned char *read_whole_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "fopen %s", path);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long length = ftell(f);
    cr_assert_geq(length, 0);
    rewind(f);
    unsigned char *bytes = malloc((size_t)length + 1);
    cr_assert_not_null(bytes);
    cr_assert_eq(fread(bytes, 1, (size_t)length, f), (size_t)length);
    bytes[length] = '\0';
    fclose(f);
    *size = (size_t)length;
    return bytes;
}

static uint32_t big_endian_u32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* A small ROC from (0, 0) to (1, 1) with a strong low-FPR part. */
static const ul_emp_roc_point sample_roc[] = {
    {0.0, 0.0},  {0.0, 0.002}, {0.0005, 0.01}, {0.002, 0.03}, {0.01, 0.08},
    {0.05, 0.2}, {0.2, 0.45},  {0.5, 0.75},    {0.8, 0.93},   {1.0, 1.0},
};
#define SAMPLE_ROC_POINTS (sizeof sample_roc / sizeof sample_roc[0])

/* ---- the ceiling ---------------------------------------------------------- */

Test(emp_plot, tradeoff_hand_values)
{
    /* ε = 0, δ = 0: IN and OUT are identical, no test beats chance. */
    const double grid[] = {0.0, 1e-6, 0.1, 0.37, 0.9, 1.0};
    for (size_t i = 0; i < sizeof grid / sizeof grid[0]; i++)
        cr_assert_eq(ul_emp_tradeoff_tpr(grid[i], 0.0, 0.0), grid[i], "fpr %g", grid[i]);

    /* ε = ln 2, δ = 0: min(1, 2·FPR, 1 − (1 − FPR)/2). */
    double ln2 = log(2.0);
    cr_assert_float_eq(ul_emp_tradeoff_tpr(0.1, ln2, 0.0), 0.2, 1e-15);
    cr_assert_float_eq(ul_emp_tradeoff_tpr(0.9, ln2, 0.0), 0.95, 1e-15); /* 1 − 0.1/2 */
    /* the corner (1 − δ)/(e^ε + 1) = 1/3, TPR 2/3 on both lines */
    cr_assert_float_eq(ul_emp_tradeoff_tpr(1.0 / 3.0, ln2, 0.0), 2.0 / 3.0, 1e-15);
    cr_assert_eq(ul_emp_tradeoff_tpr(0.0, ln2, 0.0), 0.0);
    cr_assert_eq(ul_emp_tradeoff_tpr(1.0, ln2, 0.0), 1.0);

    /* δ = 0.05 shifts both lines up: at 0.1, min(1, 0.2 + 0.05, 1 − (0.85)/2)
     * = 0.25; at 0.9, 1 − (1 − 0.05 − 0.9)/2 = 0.975; at 0, δ itself; from
     * FPR = 1 − δ = 0.95 on, 1. */
    cr_assert_float_eq(ul_emp_tradeoff_tpr(0.1, ln2, 0.05), 0.25, 1e-15);
    cr_assert_float_eq(ul_emp_tradeoff_tpr(0.9, ln2, 0.05), 0.975, 1e-15);
    cr_assert_eq(ul_emp_tradeoff_tpr(0.0, ln2, 0.05), 0.05);
    cr_assert_eq(ul_emp_tradeoff_tpr(0.95, ln2, 0.05), 1.0);
    cr_assert_eq(ul_emp_tradeoff_tpr(0.97, ln2, 0.05), 1.0);

    /* ε = 0, δ = 0.1: TPR = FPR + δ until 1 (total variation 0.1). */
    cr_assert_float_eq(ul_emp_tradeoff_tpr(0.3, 0.0, 0.1), 0.4, 1e-15);
    cr_assert_eq(ul_emp_tradeoff_tpr(0.95, 0.0, 0.1), 1.0);

    /* Large ε: e^ε·FPR would overflow; the other lines decide. */
    cr_assert_float_eq(ul_emp_tradeoff_tpr(0.0, 800.0, 1e-5), 1e-5, 1e-20);
    cr_assert_eq(ul_emp_tradeoff_tpr(1e-300, 800.0, 0.0), 1.0);
    cr_assert_eq(ul_emp_tradeoff_tpr(0.2, INFINITY, 0.0), 1.0);

    /* Outside the domain. */
    cr_assert(isnan(ul_emp_tradeoff_tpr(-0.1, 1.0, 0.0)));
    cr_assert(isnan(ul_emp_tradeoff_tpr(1.1, 1.0, 0.0)));
    cr_assert(isnan(ul_emp_tradeoff_tpr(NAN, 1.0, 0.0)));
    cr_assert(isnan(ul_emp_tradeoff_tpr(0.5, -1.0, 0.0)));
    cr_assert(isnan(ul_emp_tradeoff_tpr(0.5, NAN, 0.0)));
    cr_assert(isnan(ul_emp_tradeoff_tpr(0.5, 1.0, -1e-9)));
    cr_assert(isnan(ul_emp_tradeoff_tpr(0.5, 1.0, 1.5)));
}

static const double eps_grid[] = {0.0, 0.05, 0.5, 0.6931471805599453, 1.0, 3.0, 10.0};
static const double delta_grid[] = {0.0, 1e-5, 0.01, 0.3};

/* Monotone in FPR, never below chance, and on the boundary of the privacy
 * region: both defining inequalities hold at (FPR, FNR = 1 − TPR), and one
 * of them is an equality unless TPR = 1. */
Test(emp_plot, tradeoff_is_the_region_boundary)
{
    for (size_t a = 0; a < sizeof eps_grid / sizeof eps_grid[0]; a++) {
        for (size_t b = 0; b < sizeof delta_grid / sizeof delta_grid[0]; b++) {
            double eps = eps_grid[a], delta = delta_grid[b], previous = -1.0;
            for (int i = 0; i <= 2000; i++) {
                double fpr = i / 2000.0;
                double tpr = ul_emp_tradeoff_tpr(fpr, eps, delta), fnr = 1.0 - tpr;
                cr_assert_geq(tpr, fpr, "eps %g delta %g fpr %g", eps, delta, fpr);
                cr_assert_leq(tpr, 1.0);
                cr_assert_geq(tpr, previous, "not monotone: eps %g delta %g fpr %g", eps, delta,
                              fpr);
                previous = tpr;
                double slack_one = fpr + exp(eps) * fnr - (1.0 - delta);
                double slack_two = exp(eps) * fpr + fnr - (1.0 - delta);
                double tolerance = 1e-12 * exp(eps);
                cr_assert_geq(slack_one, -tolerance, "eps %g delta %g fpr %g", eps, delta, fpr);
                cr_assert_geq(slack_two, -tolerance, "eps %g delta %g fpr %g", eps, delta, fpr);
                if (tpr < 1.0)
                    cr_assert(fabs(slack_one) <= tolerance || fabs(slack_two) <= tolerance,
                              "interior point: eps %g delta %g fpr %g", eps, delta, fpr);
            }
        }
    }
}

/* The dominating pair of Kairouz et al. (supplement, eqs. 12–13): on four
 * outcomes, OUT ~ (δ, (1−δ)e^ε/(1+e^ε), (1−δ)/(1+e^ε), 0) and
 * IN ~ (0, (1−δ)/(1+e^ε), (1−δ)e^ε/(1+e^ε), δ).  Its best tests (Neyman–
 * Pearson: declare IN on outcomes by decreasing likelihood ratio IN/OUT:
 * 3, 2, 1, 0; randomise on the boundary outcome) trace a piecewise-linear
 * ROC, which must be the ceiling. */
static double dominating_pair_tpr(double fpr, double eps, double delta)
{
    double p_small = (1.0 - delta) / (1.0 + exp(eps));
    double p_large = (1.0 - delta) * exp(eps) / (1.0 + exp(eps));
    const double out_mass[4] = {0.0, p_small, p_large, delta}; /* outcomes 3, 2, 1, 0 */
    const double in_mass[4] = {delta, p_large, p_small, 0.0};
    double fpr_so_far = 0.0, tpr_so_far = 0.0;
    for (int k = 0; k < 4; k++) {
        if (out_mass[k] > 0.0 && fpr <= fpr_so_far + out_mass[k])
            return tpr_so_far + (fpr - fpr_so_far) / out_mass[k] * in_mass[k];
        fpr_so_far += out_mass[k]; /* outcome 3 has no OUT mass: taken at no cost */
        tpr_so_far += in_mass[k];
    }
    return tpr_so_far;
}

Test(emp_plot, tradeoff_equals_the_dominating_pair_roc)
{
    for (size_t a = 0; a < sizeof eps_grid / sizeof eps_grid[0]; a++) {
        for (size_t b = 0; b < sizeof delta_grid / sizeof delta_grid[0]; b++) {
            double eps = eps_grid[a], delta = delta_grid[b];
            for (int i = 0; i <= 997; i++) {
                double fpr = i / 997.0;
                cr_assert_float_eq(ul_emp_tradeoff_tpr(fpr, eps, delta),
                                   dominating_pair_tpr(fpr, eps, delta), 1e-12,
                                   "eps %g delta %g fpr %g", eps, delta, fpr);
            }
        }
    }
}

/* ---- the axes ------------------------------------------------------------- */

Test(emp_plot, axis_minimum)
{
    const ul_emp_roc_point coarse[] = {{0, 0}, {0.001, 0.2}, {1, 1}};
    cr_assert_eq(ul_emp_plot_axis_min(coarse, 3), 1e-4);
    const ul_emp_roc_point fine_fpr[] = {{0, 0}, {3e-6, 0.2}, {1, 1}};
    cr_assert_eq(ul_emp_plot_axis_min(fine_fpr, 3), 1e-6);
    const ul_emp_roc_point fine_tpr[] = {{0, 0}, {0, 2.5e-5}, {1, 1}};
    cr_assert_eq(ul_emp_plot_axis_min(fine_tpr, 3), 1e-5);
    const ul_emp_roc_point exact_decade[] = {{0, 0}, {1e-5, 0.5}, {1, 1}};
    cr_assert_eq(ul_emp_plot_axis_min(exact_decade, 3), 1e-5);
    const ul_emp_roc_point tiny[] = {{0, 0}, {1e-9, 1e-8}, {1, 1}};
    cr_assert_eq(ul_emp_plot_axis_min(tiny, 3), 1e-6);
    cr_assert_eq(ul_emp_plot_axis_min(sample_roc, SAMPLE_ROC_POINTS), 1e-4);
}

/* ---- the files ------------------------------------------------------------ */

Test(emp_plot, png_is_written_atomically)
{
    scratch_dir dir = make_scratch_dir();
    char path[128], err[256] = "";
    snprintf(path, sizeof path, "%s/roc.png", dir.path);
    cr_assert_eq(ul_emp_plot_roc(path, sample_roc, SAMPLE_ROC_POINTS, 1.0, 1e-5,
                                 "membership inference: logistic regression", err, sizeof err),
                 UL_OK, "%s", err);

    size_t size = 0;
    unsigned char *bytes = read_whole_file(path, &size);
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    cr_assert_geq(size, 33);
    cr_assert_arr_eq(bytes, signature, 8);
    /* First chunk: length 13, type IHDR, then width and height (big-endian). */
    cr_assert_eq(big_endian_u32(bytes + 8), 13);
    cr_assert_arr_eq(bytes + 12, "IHDR", 4);
    cr_assert_eq(big_endian_u32(bytes + 16), 800);
    cr_assert_eq(big_endian_u32(bytes + 20), 600);
    /* The last chunk is IEND: the file is complete. */
    cr_assert_arr_eq(bytes + size - 8, "IEND", 4);
    free(bytes);

    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0644);

    char names[256];
    cr_assert_eq(list_dir(dir.path, names, sizeof names), 1, "left behind:\n%s", names);
    cr_assert_str_eq(names, "roc.png\n");

    /* Writing again replaces the file (same directory, rename). */
    cr_assert_eq(
        ul_emp_plot_roc(path, sample_roc, SAMPLE_ROC_POINTS, NAN, NAN, NULL, err, sizeof err),
        UL_OK, "%s", err);
    cr_assert_eq(list_dir(dir.path, names, sizeof names), 1, "left behind:\n%s", names);
    remove_scratch_dir(&dir);
}

typedef struct {
    long near_white, red, blue, grey;
} colour_census;

/* Counts pixels by colour: "red" is the ceiling's hue (strong red, weak
 * green and blue), "blue" the ROC's, "grey" the chance line's. */
static colour_census census_of_png(const char *path)
{
    cairo_surface_t *image = cairo_image_surface_create_from_png(path);
    cr_assert_eq(cairo_surface_status(image), CAIRO_STATUS_SUCCESS, "%s",
                 cairo_status_to_string(cairo_surface_status(image)));
    cr_assert_eq(cairo_image_surface_get_width(image), 800);
    cr_assert_eq(cairo_image_surface_get_height(image), 600);
    cairo_format_t format = cairo_image_surface_get_format(image);
    cr_assert(format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32);
    cairo_surface_flush(image);
    const unsigned char *data = cairo_image_surface_get_data(image);
    int stride = cairo_image_surface_get_stride(image);
    colour_census census = {0, 0, 0, 0};
    for (int y = 0; y < 600; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < 800; x++) {
            /* Both formats keep 0xAARRGGBB in a native 32-bit word; the
             * picture is opaque, so the alpha byte is 0xFF or unused. */
            int r = (int)(row[x] >> 16 & 0xFF), g = (int)(row[x] >> 8 & 0xFF),
                b = (int)(row[x] & 0xFF);
            if (r > 245 && g > 245 && b > 245)
                census.near_white++;
            if (r > 180 && g < 70 && b < 70)
                census.red++;
            if (b > 160 && r < 70 && g < 110)
                census.blue++;
            if (abs(r - g) < 6 && abs(g - b) < 6 && r > 120 && r < 160)
                census.grey++;
        }
    }
    cairo_surface_destroy(image);
    return census;
}

Test(emp_plot, png_pixels_show_the_curves)
{
    scratch_dir dir = make_scratch_dir();
    char with_claim[128], without_claim[128], err[256] = "";
    snprintf(with_claim, sizeof with_claim, "%s/claim.PNG", dir.path);
    snprintf(without_claim, sizeof without_claim, "%s/none.png", dir.path);
    cr_assert_eq(ul_emp_plot_roc(with_claim, sample_roc, SAMPLE_ROC_POINTS, 0.5, 1e-3, "claim", err,
                                 sizeof err),
                 UL_OK, "%s", err);
    cr_assert_eq(ul_emp_plot_roc(without_claim, sample_roc, SAMPLE_ROC_POINTS, NAN, 0.0, "no claim",
                                 err, sizeof err),
                 UL_OK, "%s", err);

    colour_census claim = census_of_png(with_claim), none = census_of_png(without_claim);
    long all = 800L * 600L;
    /* Mostly white paper, but something was drawn. */
    cr_assert_gt(claim.near_white, all / 2);
    cr_assert_lt(claim.near_white, all);
    /* The ceiling's colour appears only when there is a claim: a 2-pixel
     * line across a 670-pixel-wide axes gives several hundred pixels. */
    cr_assert_gt(claim.red, 300, "red pixels %ld", claim.red);
    cr_assert_eq(none.red, 0, "red pixels without a claim: %ld", none.red);
    /* The ROC and the chance line are in both. */
    cr_assert_gt(claim.blue, 300, "blue pixels %ld", claim.blue);
    cr_assert_gt(none.blue, 300, "blue pixels %ld", none.blue);
    cr_assert_gt(none.grey, 100, "grey pixels %ld", none.grey);
    remove_scratch_dir(&dir);
}

/* The pixel at (x, y) of a PNG, as 0xRRGGBB. */
static uint32_t pixel_at(const char *path, int x, int y)
{
    cairo_surface_t *image = cairo_image_surface_create_from_png(path);
    cr_assert_eq(cairo_surface_status(image), CAIRO_STATUS_SUCCESS);
    cairo_surface_flush(image);
    const unsigned char *data = cairo_image_surface_get_data(image);
    int stride = cairo_image_surface_get_stride(image);
    uint32_t v = ((const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride))[x];
    cairo_surface_destroy(image);
    return v & 0xFFFFFF;
}

/* Issue 15: a perfect ROC (FPR 0 up to TPR 1) must show on log axes.  The
 * ROC runs up the left edge (x = 100) from the axis minimum to TPR 1: the
 * pixels on that edge halfway up are the ROC's blue, not the frame's black. */
Test(emp_plot, perfect_roc_is_drawn_on_log_axes)
{
    static const ul_emp_roc_point perfect[] = {{0, 0}, {0, 0.5}, {0, 1}, {0.5, 1}, {1, 1}};
    scratch_dir dir = make_scratch_dir();
    char path[128], err[256] = "";
    snprintf(path, sizeof path, "%s/perfect.png", dir.path);
    cr_assert_eq(ul_emp_plot_roc(path, perfect, 5, 1.0, 1e-5, NULL, err, sizeof err), UL_OK, "%s",
                 err);
    uint32_t p = pixel_at(path, 100, 288); /* AXES_LEFT, between AXES_TOP 56 and BOTTOM 520 */
    int r = (int)(p >> 16), g = (int)(p >> 8 & 0xFF), b = (int)(p & 0xFF);
    cr_assert(b > 150 && r < 90 && g < 120, "left edge pixel %06x is not the ROC's blue", p);
    remove_scratch_dir(&dir);
}

/* The band, linear axes and the lower bound's ceiling: the shaded band
 * adds light-blue pixels (blue channel above red and green, not white),
 * the lower bound's dashed curve orange ones. */
Test(emp_plot, band_linear_axes_and_lower_bound)
{
    scratch_dir dir = make_scratch_dir();
    char plain[128], rich[128], err[256] = "";
    snprintf(plain, sizeof plain, "%s/plain.png", dir.path);
    snprintf(rich, sizeof rich, "%s/rich.png", dir.path);
    ul_emp_plot_spec sp = {.points = sample_roc, .n_points = SAMPLE_ROC_POINTS, .eps = NAN,
                           .delta = 1e-5, .eps_lb = NAN, .linear = true, .title = "linear"};
    cr_assert_eq(ul_emp_plot_roc_ex(plain, &sp, err, sizeof err), UL_OK, "%s", err);
    sp.n_in = 200, sp.n_out = 200, sp.alpha = 0.05, sp.eps_lb = 0.3;
    cr_assert_eq(ul_emp_plot_roc_ex(rich, &sp, err, sizeof err), UL_OK, "%s", err);
    long tinted[2] = {0, 0}, orange[2] = {0, 0};
    const char *paths[2] = {plain, rich};
    for (int k = 0; k < 2; k++) {
        cairo_surface_t *im = cairo_image_surface_create_from_png(paths[k]);
        cairo_surface_flush(im);
        const unsigned char *data = cairo_image_surface_get_data(im);
        int stride = cairo_image_surface_get_stride(im);
        for (int y = 56; y < 520; y++)
            for (int x = 100; x < 770; x++) {
                uint32_t v = ((const uint32_t *)(const void *)(data + (size_t)y * stride))[x];
                int r = (int)(v >> 16 & 0xFF), g = (int)(v >> 8 & 0xFF), b = (int)(v & 0xFF);
                tinted[k] += b > 200 && r < 235 && g < 235 && b - r > 20;
                orange[k] += r > 200 && g > 100 && g < 180 && b < 60;
            }
        cairo_surface_destroy(im);
    }
    cr_assert_gt(tinted[1], tinted[0] + 1000, "band pixels %ld vs %ld", tinted[1], tinted[0]);
    cr_assert_gt(orange[1], 100, "orange pixels %ld", orange[1]);
    cr_assert_eq(orange[0], 0);
    sp.alpha = 0; /* a band needs alpha in (0, 1) */
    cr_assert_eq(ul_emp_plot_roc_ex(rich, &sp, err, sizeof err), UL_EINPUT);
    cr_assert_not_null(strstr(err, "alpha"));
    remove_scratch_dir(&dir);
}

/* The ε(δ) picture: a claimed point (red, first curve) and a curve (blue,
 * second) appear; a δ outside (0, 1) is refused naming the curve. */
Test(emp_plot, eps_delta_picture)
{
    scratch_dir dir = make_scratch_dir();
    char path[128], err[256] = "";
    snprintf(path, sizeof path, "%s/eps.png", dir.path);
    const double cd[] = {1e-5}, ce[] = {3};
    const double d[] = {1e-8, 1e-6, 1e-4, 1e-2}, e[] = {6, 5, 4, 2};
    ul_emp_eps_curve c[2] = {{"claim", cd, ce, 1, UL_EMP_CURVE_POINTS, 0},
                             {"certificate", d, e, 4, UL_EMP_CURVE_SOLID, 0}};
    ul_emp_eps_plot p = {c, 2, "eps(delta)"};
    cr_assert_eq(ul_emp_plot_eps_delta(path, &p, err, sizeof err), UL_OK, "%s", err);
    colour_census cs = census_of_png(path);
    cr_assert_gt(cs.red, 20, "red pixels %ld", cs.red);
    cr_assert_gt(cs.blue, 300, "blue pixels %ld", cs.blue);
    /* a chosen colour (issue 27): the second curve alone as colour 2 stays
     * blue, as colour 1 turns red — the place no longer decides */
    ul_emp_eps_plot one = {c + 1, 1, "eps(delta)"};
    c[1].colour = 2;
    cr_assert_eq(ul_emp_plot_eps_delta(path, &one, err, sizeof err), UL_OK, "%s", err);
    cs = census_of_png(path);
    cr_expect(cs.blue > 300 && cs.red == 0, "colour 2: blue %ld, red %ld", cs.blue, cs.red);
    c[1].colour = 1;
    cr_assert_eq(ul_emp_plot_eps_delta(path, &one, err, sizeof err), UL_OK, "%s", err);
    cs = census_of_png(path);
    cr_expect(cs.red > 300 && cs.blue < 20, "colour 1: red %ld, blue %ld", cs.red, cs.blue);
    c[1].colour = 0;
    const double bad[] = {0};
    c[0].delta = bad;
    cr_assert_eq(ul_emp_plot_eps_delta(path, &p, err, sizeof err), UL_EINPUT);
    cr_assert_not_null(strstr(err, "curves[0]"));
    remove_scratch_dir(&dir);
}

Test(emp_plot, svg_is_written)
{
    scratch_dir dir = make_scratch_dir();
    char path[128], err[256] = "";
    snprintf(path, sizeof path, "%s/roc.svg", dir.path);
    cr_assert_eq(
        ul_emp_plot_roc(path, sample_roc, SAMPLE_ROC_POINTS, 2.0, 1e-6, "svg", err, sizeof err),
        UL_OK, "%s", err);
    size_t size = 0;
    char *text = (char *)read_whole_file(path, &size);
    cr_assert_not_null(strstr(text, "<svg"));
    cr_assert_not_null(strstr(text, "</svg>"), "the SVG is not complete");
    cr_assert_not_null(strstr(text, "800"));
    free(text);
    char names[256];
    cr_assert_eq(list_dir(dir.path, names, sizeof names), 1, "left behind:\n%s", names);
    remove_scratch_dir(&dir);
}

/* ---- the failures ------------------------------------------------------- */

Test(emp_plot, unknown_extension_is_refused)
{
    scratch_dir dir = make_scratch_dir();
    const char *names[] = {"roc.jpg", "roc", "roc.png.txt", "d.png/roc", ".svgx"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[128], err[256] = "";
        snprintf(path, sizeof path, "%s/%s", dir.path, names[i]);
        cr_assert_eq(
            ul_emp_plot_roc(path, sample_roc, SAMPLE_ROC_POINTS, 1.0, 0.0, "t", err, sizeof err),
            UL_EINPUT, "%s accepted", path);
        cr_assert_not_null(strstr(err, path), "message: %s", err);
        cr_assert_not_null(strstr(err, ".png"), "message: %s", err);
        cr_assert_not_null(strstr(err, ".svg"), "message: %s", err);
    }
    cr_assert_eq(list_dir(dir.path, NULL, 0), 0);
    remove_scratch_dir(&dir);
}

Test(emp_plot, missing_directory_is_an_error)
{
    const char *path = "/nonexistent/x.png";
    char err[256] = "";
    cr_assert_eq(
        ul_emp_plot_roc(path, sample_roc, SAMPLE_ROC_POINTS, 1.0, 0.0, "t", err, sizeof err),
        UL_EINPUT);
    cr_assert_not_null(strstr(err, path), "message: %s", err);
    struct stat st;
    cr_assert_neq(stat(path, &st), 0);
}

/* A failure after the picture was drawn (the target is a directory, so the
 * final rename fails): the temporary file must be gone. */
Test(emp_plot, late_failure_leaves_no_temporary_file)
{
    scratch_dir dir = make_scratch_dir();
    char path[128], err[256] = "";
    snprintf(path, sizeof path, "%s/taken.svg", dir.path);
    cr_assert_eq(mkdir(path, 0755), 0);
    char inside[160];
    snprintf(inside, sizeof inside, "%s/keep", path);
    FILE *f = fopen(inside, "w"); /* a non-empty directory cannot be replaced */
    cr_assert_not_null(f);
    fclose(f);

    cr_assert_eq(
        ul_emp_plot_roc(path, sample_roc, SAMPLE_ROC_POINTS, 1.0, 0.0, "t", err, sizeof err),
        UL_EINPUT);
    cr_assert_not_null(strstr(err, path), "message: %s", err);
    char names[256];
    cr_assert_eq(list_dir(dir.path, names, sizeof names), 1, "left behind:\n%s", names);
    cr_assert_str_eq(names, "taken.svg\n");
    cr_assert_eq(unlink(inside), 0);
    remove_scratch_dir(&dir);
}

Test(emp_plot, bad_arguments_are_named)
{
    scratch_dir dir = make_scratch_dir();
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/roc.png", dir.path);

    const ul_emp_roc_point backwards[] = {{0, 0}, {0.5, 0.6}, {0.4, 0.7}, {1, 1}};
    const ul_emp_roc_point too_high[] = {{0, 0}, {0.5, 1.2}, {1, 1}};
    const ul_emp_roc_point not_a_number[] = {{0, 0}, {NAN, 0.5}, {1, 1}};
    struct {
        const ul_emp_roc_point *points;
        size_t n;
        double eps, delta;
        const char *named;
    } cases[] = {
        {backwards, 4, 1.0, 0.0, "points"},    {too_high, 3, 1.0, 0.0, "points"},
        {not_a_number, 3, 1.0, 0.0, "points"}, {sample_roc, 0, 1.0, 0.0, "points"},
        {NULL, 3, 1.0, 0.0, "points"},         {sample_roc, 3, -0.5, 0.0, "eps"},
        {sample_roc, 3, INFINITY, 0.0, "eps"}, {sample_roc, 3, 1.0, 1.5, "delta"},
        {sample_roc, 3, 1.0, NAN, "delta"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = '\0';
        cr_assert_eq(ul_emp_plot_roc(path, cases[i].points, cases[i].n, cases[i].eps,
                                     cases[i].delta, "t", err, sizeof err),
                     UL_EINPUT, "case %zu accepted", i);
        cr_assert_not_null(strstr(err, cases[i].named), "case %zu: %s", i, err);
    }
    err[0] = '\0';
    cr_assert_eq(ul_emp_plot_roc(NULL, sample_roc, 3, 1.0, 0.0, "t", err, sizeof err), UL_EINPUT);
    cr_assert_not_null(strstr(err, "path"), "%s", err);
    cr_assert_eq(list_dir(dir.path, NULL, 0), 0);

    /* With no claim, delta is not looked at. */
    cr_assert_eq(ul_emp_plot_roc(path, sample_roc, 3, NAN, NAN, "t", err, sizeof err), UL_OK, "%s",
                 err);
    remove_scratch_dir(&dir);
}

/* ---- the pictures as SVG text (issue 27: the HTML report inlines them) ---- */

static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    char *b = NULL;
    size_t cap = 0;
    ssize_t got = getdelim(&b, &cap, '\0', f); /* an SVG holds no NUL byte */
    cr_assert_gt(got, 0, "%s", path);
    fclose(f);
    *n = (size_t)got;
    return b;
}

/* Cairo numbers its surfaces per process ("surface1", "surface6"): the
 * number dropped, in place. */
static size_t drop_surface_numbers(char *s)
{
    char *w = s;
    for (const char *r = s; *r;) {
        if (strncmp(r, "surface", 7) == 0) {
            memcpy(w, r, 7), w += 7, r += 7;
            while (*r >= '0' && *r <= '9')
                r++;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
    return (size_t)(w - s);
}

/* The text variant draws the same picture as the file variant (one drawing
 * code path): the same document, byte for byte but cairo's surface numbers,
 * an SVG root, and the same checks on bad input. */
Test(emp_plot, svg_text_is_the_files_picture)
{
    scratch_dir dir = make_scratch_dir();
    char path[128], err[256];
    ul_emp_plot_spec sp = {.points = sample_roc,
                           .n_points = SAMPLE_ROC_POINTS,
                           .n_in = 100,
                           .n_out = 100,
                           .alpha = 0.05,
                           .eps = 1.0,
                           .delta = 1e-5,
                           .eps_lb = 0.5,
                           .title = "svg",
                           .has_auc = true,
                           .auc = 0.7,
                           .panels = true};
    snprintf(path, sizeof path, "%s/roc.svg", dir.path);
    cr_assert_eq(ul_emp_plot_roc_ex(path, &sp, err, sizeof err), UL_OK, "%s", err);
    size_t nf, nm;
    char *file = read_all(path, &nf), *mem = NULL;
    cr_assert_eq(ul_emp_plot_roc_svg(&sp, &mem, &nm, err, sizeof err), UL_OK, "%s", err);
    cr_assert_not_null(mem);
    cr_expect_eq(strlen(mem), nm, "NUL-terminated at its length");
    nf = drop_surface_numbers(file), nm = drop_surface_numbers(mem);
    cr_expect(nm == nf && memcmp(mem, file, nf) == 0, "memory %zu bytes, file %zu", nm, nf);
    cr_expect_not_null(strstr(mem, "<svg"));
    cr_expect_not_null(strstr(mem, "</svg>"));
    free(file), free(mem);

    const double d[] = {1e-6, 1e-3}, e[] = {2, 1};
    ul_emp_eps_curve c = {"curve", d, e, 2, UL_EMP_CURVE_SOLID, 0};
    ul_emp_eps_plot p = {.curves = &c, .n_curves = 1, .title = "eps"};
    snprintf(path, sizeof path, "%s/eps.svg", dir.path);
    cr_assert_eq(ul_emp_plot_eps_delta(path, &p, err, sizeof err), UL_OK, "%s", err);
    file = read_all(path, &nf);
    cr_assert_eq(ul_emp_plot_eps_delta_svg(&p, &mem, &nm, err, sizeof err), UL_OK, "%s", err);
    nf = drop_surface_numbers(file), nm = drop_surface_numbers(mem);
    cr_expect(nm == nf && memcmp(mem, file, nf) == 0, "memory %zu bytes, file %zu", nm, nf);
    free(file), free(mem);

    sp.n_points = 0;
    mem = (char *)1;
    cr_expect_eq(ul_emp_plot_roc_svg(&sp, &mem, &nm, err, sizeof err), UL_EINPUT);
    cr_expect(mem == NULL && nm == 0);
    cr_expect_not_null(strstr(err, "points"), "%s", err);
    ul_emp_eps_plot none = {.curves = &c, .n_curves = 0};
    cr_expect_eq(ul_emp_plot_eps_delta_svg(&none, &mem, &nm, err, sizeof err), UL_EINPUT);
    cr_expect_not_null(strstr(err, "curves"), "%s", err);
    cr_assert_eq(unlink(path), 0);
    snprintf(path, sizeof path, "%s/roc.svg", dir.path);
    cr_assert_eq(unlink(path), 0);
    remove_scratch_dir(&dir);
}
