/* tests/test_examples_outputs.c — issue 27, "each example of examples/
 * writes the files it documents": every configuration examples/attack-*.json
 * is run (a copy with 64 runs per world, so that the suite stays cheap; the
 * files do not depend on the count) with --out DIR, and every file that
 * README ("Outputs") and ulaudit-attack(1) OUTPUT document is checked to
 * exist, be non-empty and be well-formed by its own format's rule, read here
 * with plain C and json-c: the PNG signature (PNG spec §5.2) and cairo's
 * reading of it, an XML document with an <svg> root, the CSV headers, the
 * JSON object's format key, and one roc-<score> pair per score the result
 * names.  examples/attack-onerun-fmnist-cert.json is a certificate (README:
 * "which ulaudit audit finds supported"): audited. */
#include <cairo.h>
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "report/html.h"
#include "test_emp_files.h"

TestSuite(examples_outputs, .timeout = 120);

/* A copy of examples/NAME with `runs` per world (and chunk at most that),
 * in dir; its data paths are absolute or synthetic, so it reads the same
 * data from there. */
static char *copy_with_runs(const char *name, const char *dir, int runs)
{
    char src[256];
    snprintf(src, sizeof src, "examples/%s", name);
    json_object *o = json_object_from_file(src);
    cr_assert_not_null(o, "%s: not JSON", src);
    json_object_object_add(o, "runs", json_object_new_int(runs));
    json_object *chunk;
    if (json_object_object_get_ex(o, "chunk", &chunk) && json_object_get_int(chunk) > runs)
        json_object_object_add(o, "chunk", json_object_new_int(runs));
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s/%s", dir, name);
    cr_assert_eq(json_object_to_file_ext(path, o, JSON_C_TO_STRING_PRETTY), 0, "%s", path);
    json_object_put(o);
    return path;
}

static unsigned char *file_of(const char *dir, const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat sb;
    cr_assert_eq(stat(path, &sb), 0, "%s: documented but not written", path);
    unsigned char *b = emp_test_read(path, len);
    cr_assert_gt(*len, 0, "%s: empty", path);
    b[*len] = '\0';
    return b;
}

/* PNG: the 8-byte signature 89 50 4E 47 0D 0A 1A 0A, then cairo reads it
 * as an image of the documented width. */
static void check_png(const char *dir, const char *name, int width)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t n;
    unsigned char *b = file_of(dir, name, &n);
    cr_expect(n > 8 && memcmp(b, sig, 8) == 0, "%s/%s: no PNG signature", dir, name);
    free(b);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cairo_surface_t *im = cairo_image_surface_create_from_png(path);
    cr_expect_eq(cairo_surface_status(im), CAIRO_STATUS_SUCCESS, "%s", path);
    cr_expect_eq(cairo_image_surface_get_width(im), width, "%s", path);
    cairo_surface_destroy(im);
}

/* SVG: an XML prolog, then an <svg> root element closed at the end. */
static void check_svg(const char *dir, const char *name)
{
    size_t n;
    char *b = (char *)file_of(dir, name, &n);
    cr_expect_eq(strncmp(b, "<?xml", 5), 0, "%s/%s: no XML prolog", dir, name);
    char *root = strstr(b, "<svg");
    cr_expect(root && (root[4] == ' ' || root[4] == '>'), "%s/%s: no <svg> root", dir, name);
    char *end = b + n;
    while (end > b && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    cr_expect(end - b >= 6 && strncmp(end - 6, "</svg>", 6) == 0, "%s/%s: not closed", dir, name);
    free(b);
}

/* The first line that is not a '#' comment is `header`; every data row
 * has as many fields. */
static void check_csv(const char *dir, const char *name, const char *header)
{
    size_t n;
    char *b = (char *)file_of(dir, name, &n), *line = b;
    while (*line == '#')
        line = strchr(line, '\n') + 1;
    size_t h = strlen(header);
    cr_expect(strncmp(line, header, h) == 0 && line[h] == '\n', "%s/%s: header %.60s", dir, name,
              line);
    int fields = 1, rows = 0;
    for (const char *c = header; *c; c++)
        fields += *c == ',';
    for (char *l = strchr(line, '\n') + 1; *l; l = strchr(l, '\n') + 1, rows++) {
        int f = 1;
        for (char *c = l; *c && *c != '\n'; c++)
            f += *c == ',';
        cr_expect_eq(f, fields, "%s/%s row %d", dir, name, rows);
    }
    cr_expect_gt(rows, 0, "%s/%s: no rows", dir, name);
    free(b);
}

/* The renderer is there (report/html.c is a placeholder that says "not
 * built yet" until it lands). */
static bool renderer_built(void)
{
    char *html = NULL, err[256] = "";
    ul_status st = ul_report_html_attack("{}", NULL, 0, &html, err, sizeof err);
    free(html);
    return !(st != UL_OK && strstr(err, "not built yet"));
}

/* One example: run, then every documented file. */
static void run_example(const char *name)
{
    char *dir = emp_test_mkdtemp(), out[600];
    char *cfg = copy_with_runs(name, dir, 64);
    snprintf(out, sizeof out, "%s/out", dir);
    run_result r = run("attack", cfg, "--out", out, "--threads", "1", NULL);
    cr_assert(r.status == 0 || r.status == 1, "%s: exit %d: %s", name, r.status, r.err);
    cr_expect_not_null(strstr(r.out, "verdict: "), "%s", r.out);
    run_free(&r);

    size_t n;
    char *res = (char *)file_of(out, "result.json", &n);
    json_object *o = json_tokener_parse(res), *scores;
    cr_assert_not_null(o, "result.json: %s", res);
    cr_expect_str_eq(field(o, "format"), "ulaudit-attack-result/1");
    cr_assert(json_object_object_get_ex(o, "scores", &scores));
    char header[256] = "world,run";
    for (size_t k = 0; k < json_object_array_length(scores); k++) {
        const char *s = field(json_object_array_get_idx(scores, k), "name");
        char png[96], svg[96];
        snprintf(png, sizeof png, "roc-%s.png", s);
        snprintf(svg, sizeof svg, "roc-%s.svg", s);
        check_png(out, png, 1600); /* two panels of 800 */
        check_svg(out, svg);
        strcat(header, ","), strcat(header, s);
    }
    cr_expect_gt(json_object_array_length(scores), 0);
    json_object_put(o);
    free(res);
    check_csv(out, "scores.csv", header);
    check_csv(out, "roc.csv", "score,threshold,fpr,tpr");
    check_png(out, "roc.png", 1600);
    check_png(out, "eps-delta.png", 800);
    check_svg(out, "eps-delta.svg");
    if (renderer_built()) {
        char *html = (char *)file_of(out, "report.html", &n);
        cr_expect_not_null(strstr(html, "id=\"verdict\""), "report.html: no verdict");
        free(html);
    }
    cr_expect(access(cfg, R_OK) == 0);
    emp_test_rm_rf(dir);
    free(cfg), free(dir);
}

Test(examples_outputs, synthetic) { run_example("attack-synthetic.json"); }
Test(examples_outputs, nonprivate) { run_example("attack-nonprivate.json"); }
Test(examples_outputs, model_clipping) { run_example("attack-model-clipping.json"); }
Test(examples_outputs, mlp) { run_example("attack-mlp.json"); }
Test(examples_outputs, noisy_gd) { run_example("attack-noisy-gd.json"); }

Test(examples_outputs, fashion_mnist)
{
    if (access("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz", R_OK) != 0)
        cr_skip_test("Debian's dataset-fashion-mnist is not installed (tools/bench-deps.sh)");
    run_example("attack-fashion-mnist.json");
}

/* Every attack-*.json of examples/ is one of the tests above (a new
 * example gets its own). */
Test(examples_outputs, every_example_is_run)
{
    static const char *const known[] = {
        "attack-synthetic.json", "attack-nonprivate.json",  "attack-model-clipping.json",
        "attack-mlp.json",       "attack-noisy-gd.json",    "attack-fashion-mnist.json",
        "attack-onerun-fmnist-cert.json"};
    FILE *ls = popen("ls examples", "r");
    cr_assert_not_null(ls);
    char line[256];
    int seen = 0;
    while (fgets(line, sizeof line, ls)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "attack-", 7) != 0 || !strstr(line, ".json"))
            continue;
        bool found = false;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            found = found || strcmp(line, known[i]) == 0;
        cr_expect(found, "examples/%s has no test here", line);
        seen++;
    }
    pclose(ls);
    cr_expect_eq(seen, (int)(sizeof known / sizeof known[0]));
}

/* The one-run certificate: README says `ulaudit audit` finds it supported. */
Test(examples_outputs, onerun_certificate_is_supported)
{
    run_result r = run("audit", "examples/attack-onerun-fmnist-cert.json", NULL);
    cr_expect_eq(r.status, 0, "exit %d: %s %s", r.status, r.out, r.err);
    cr_expect_not_null(strstr(r.out, "SUPPORTED"), "%s", r.out);
    run_free(&r);
}
