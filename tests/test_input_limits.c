/* tests/test_input_limits.c — one validation of exact numeric input, the same
 * for every method (issue 12: output-perturbation refused δ = 1e-20001 with
 * "delta: too large for exact arithmetic", no JSON path, while
 * gaussian-mechanism accepted it; a Langevin L below 10^-20000 crashed).
 *
 * One certificate of every method in audits/ goes through the CLI with each
 * of its scalar decimals (in "parameters", "claim" and "stated") replaced by
 * each hostile value below, written as a JSON number and as a string of
 * decimal text.  Every run must exit 2 with nothing on stdout and one line on
 * stderr naming the field's JSON path and the rule broken; and for a given
 * hostile value the words after the path are the same whatever the method
 * and the field (one validation, src/num/input.h, applied by the certificate
 * reader).  Fields that handlers read as exact rationals are held to
 * 10^±20000 as well: for one such field of each method that has them, the
 * same with 10^±20001.  The limits themselves (10^±(10^18) for every
 * decimal, 10^±20000 for exact rationals, 1000 characters) are the ones
 * documented in src/num/input.h; the oracle is that rule, not the
 * program's output. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"

TestSuite(input_limits);

typedef struct {
    const char *what;
    const char *literal;  /* the decimal text substituted */
    bool as_number;       /* also written as a JSON number literal */
    bool claim_only;      /* only where the rule is known: claims are >= 0 (or > 1) */
    const char *rule;     /* what the message must say after the path */
    bool same_everywhere; /* the words after the path are identical across fields */
} hostile;

static char digits_1e5[100001];

static const hostile *hostiles(size_t *n)
{
    memset(digits_1e5, '7', 100000);
    digits_1e5[100000] = '\0';
    static const hostile h[] = {
        {"huge exponent", "1e1000000000000000001", true, false,
         "1e1000000000000000001 is above the largest magnitude accepted (1e1000000000000000000)",
         true},
        {"tiny exponent", "1e-1000000000000000001", true, false,
         "1e-1000000000000000001 is below the smallest magnitude accepted "
         "(1e-1000000000000000000",
         true},
        {"huge exponent beyond a long", "1e99999999999999999999999", true, false,
         "is above the largest magnitude accepted (1e1000000000000000000)", true},
        {"tiny magnitude in many digits", "0.00000000009e-999999999999999990", true, false,
         "is below the smallest magnitude accepted (1e-1000000000000000000", true},
        {"10^5 digits", digits_1e5, true, false, "characters; the limit is 1000", false},
        {"NaN text", "NaN", false, false, "must be finite", true},
        {"negative", "-1", true, true, "must be >", false},
    };
    *n = sizeof h / sizeof h[0];
    return h;
}

/* ---- the corpus: one certificate per method --------------------------------------- */

static void audits_dir(char *out, size_t n)
{
    const char *self = __FILE__;
    const char *slash = strrchr(self, '/');
    snprintf(out, n, "%.*s../audits", slash ? (int)(slash - self + 1) : 0, self);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_json(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

/* The first certificate (by name) of each method, as parsed JSON; *n of them. */
static json_object **one_per_method(size_t *n)
{
    char dir[1024];
    audits_dir(dir, sizeof dir);
    struct dirent **names;
    int k = scandir(dir, &names, is_json, by_name);
    cr_assert(k > 0, "no certificates in %s", dir);
    json_object **out = calloc((size_t)k, sizeof *out);
    const char **methods = calloc((size_t)k, sizeof *methods);
    *n = 0;
    for (int i = 0; i < k; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        free(names[i]);
        json_object *root = json_object_from_file(path), *m;
        cr_assert_not_null(root, "%s does not parse", path);
        cr_assert(json_object_object_get_ex(root, "method", &m), "%s: no method", path);
        bool seen = false;
        for (size_t j = 0; j < *n && !seen; j++)
            seen = strcmp(methods[j], json_object_get_string(m)) == 0;
        if (seen) {
            json_object_put(root);
            continue;
        }
        methods[*n] = json_object_get_string(m);
        out[(*n)++] = root;
    }
    free(names);
    free(methods);
    return out;
}

/* A scalar decimal: a JSON number, or a string of decimal text. */
static bool is_decimal_value(json_object *v)
{
    json_type t = json_object_get_type(v);
    if (t == json_type_double || t == json_type_int)
        return true;
    if (t != json_type_string)
        return false;
    const char *s = json_object_get_string(v);
    char *end;
    strtod(s, &end);
    return *s != '\0' && *end == '\0' && strspn(s, "0123456789+-.eE") == strlen(s);
}

/* ---- one run ------------------------------------------------------------------------- */

/* The certificate with obj.key set to the hostile literal, written to a
 * temporary file; returns its path (malloc'd). */
static char *write_variant(json_object *root, const char *obj, const char *key, const char *lit,
                           bool as_number)
{
    json_object *copy = NULL, *o;
    cr_assert_eq(json_object_deep_copy(root, &copy, NULL), 0);
    cr_assert(json_object_object_get_ex(copy, obj, &o));
    json_object *v = as_number ? json_object_new_double_s(0, lit) : json_object_new_string(lit);
    json_object_object_add(o, key, v);
    char *path = strdup("/tmp/ulaudit-limits-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *text = json_object_to_json_string_ext(copy, JSON_C_TO_STRING_PLAIN);
    size_t len = strlen(text);
    cr_assert_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
    json_object_put(copy);
    return path;
}

/* Runs `audit` on the variant; checks exit 2, stdout empty, one stderr line
 * with "$.obj.key: " then the rule; returns the words after the path
 * (malloc'd). */
static char *refusal(json_object *root, const char *obj, const char *key, const hostile *h,
                     bool as_number)
{
    char *path = write_variant(root, obj, key, h->literal, as_number);
    run_result r = run("audit", path, NULL);
    unlink(path);
    char where[256];
    snprintf(where, sizeof where, "$.%s.%s: ", obj, key);
    json_object *m;
    json_object_object_get_ex(root, "method", &m);
    const char *method = json_object_get_string(m);
    cr_assert_eq(r.status, 2, "%s, %s%s (%s): exit %d, stderr: %.300s", method, where, h->what,
                 as_number ? "number" : "string", r.status, r.err);
    cr_assert_str_empty(r.out, "%s %s: stdout not empty", method, where);
    char *nl = strchr(r.err, '\n');
    cr_assert(nl != NULL && nl[1] == '\0', "%s %s: not one line: %.300s", method, where, r.err);
    const char *at = strstr(r.err, where);
    cr_assert(at != NULL, "%s, %s (%s): the message does not name the path: %.300s", method,
              h->what, as_number ? "number" : "string", r.err);
    cr_assert(strstr(at, h->rule) != NULL, "%s, %s%s: the message lacks '%s': %.300s", method,
              where, h->what, h->rule, r.err);
    char *tail = strdup(at + strlen(where));
    run_free(&r);
    free(path);
    return tail;
}

Test(input_limits, every_method_refuses_every_hostile_decimal_alike, .timeout = 600)
{
    size_t n_methods, n_hostile;
    json_object **certs = one_per_method(&n_methods);
    const hostile *hs = hostiles(&n_hostile);
    cr_assert(n_methods >= 8, "only %zu methods in audits/", n_methods);
    static const char *const objects[] = {"parameters", "claim", "stated"};
    size_t runs = 0;
    for (size_t k = 0; k < n_hostile; k++) {
        char *first = NULL;
        for (size_t c = 0; c < n_methods; c++)
            for (size_t o = 0; o < 3; o++) {
                json_object *obj;
                if (hs[k].claim_only && o != 1)
                    continue;
                if (!json_object_object_get_ex(certs[c], objects[o], &obj))
                    continue;
                json_object_object_foreach(obj, key, val)
                {
                    if (!is_decimal_value(val))
                        continue;
                    for (int number = 0; number <= (int)hs[k].as_number; number++) {
                        char *tail = refusal(certs[c], objects[o], key, &hs[k], number);
                        runs++;
                        /* a JSON-syntax refusal names line and column
                         * first; the rule's words are compared after them */
                        const char *from = tail;
                        if (strncmp(tail, "line ", 5) == 0 && strstr(tail, "): ") != NULL)
                            from = strstr(tail, "): ") + 3;
                        if (hs[k].same_everywhere && first == NULL)
                            first = strdup(from);
                        else if (hs[k].same_everywhere)
                            cr_assert_str_eq(from, first, "%s: not the same message everywhere",
                                             hs[k].what);
                        free(tail);
                    }
                }
            }
        free(first);
    }
    cr_assert(runs > 100, "only %zu runs", runs);
    for (size_t c = 0; c < n_methods; c++)
        json_object_put(certs[c]);
    free(certs);
}

/* One field read as an exact rational per method that has them (the specs
 * with .exact in src/audit/audit_*.c), in the first certificate of that
 * method in audits/. */
static const struct {
    const char *method, *object, *key;
} EXACT_FIELDS[] = {
    {"gaussian-mechanism", "parameters", "sigma"},
    {"output-perturbation", "parameters", "c0"},
    {"langevin", "parameters", "L"},
    {"noisy-gd", "parameters", "L"},
    {"noisy-gd", "claim", "renyi_order"},
};

Test(input_limits, exact_rationals_are_refused_alike_beyond_1e20000, .timeout = 300)
{
    size_t n_methods;
    json_object **certs = one_per_method(&n_methods);
    static const hostile h[] = {
        {"below 1e-20000", "1e-20001", true, false,
         "1e-20001 is below the smallest magnitude accepted for a number read as an exact "
         "rational (1e-20000",
         true},
        {"above 1e20000", "1.0000000000000000001e20000", true, false,
         "is above the largest magnitude accepted for a number read as an exact rational "
         "(1e20000)",
         true},
    };
    for (size_t k = 0; k < 2; k++) {
        char *first = NULL;
        for (size_t i = 0; i < sizeof EXACT_FIELDS / sizeof EXACT_FIELDS[0]; i++) {
            json_object *cert = NULL, *m;
            for (size_t c = 0; c < n_methods && cert == NULL; c++)
                if (json_object_object_get_ex(certs[c], "method", &m) &&
                    strcmp(json_object_get_string(m), EXACT_FIELDS[i].method) == 0)
                    cert = certs[c];
            cr_assert_not_null(cert, "no certificate of %s in audits/", EXACT_FIELDS[i].method);
            for (int number = 0; number <= 1; number++) {
                char *tail = refusal(cert, EXACT_FIELDS[i].object, EXACT_FIELDS[i].key, &h[k],
                                     number);
                if (first == NULL)
                    first = tail;
                else {
                    cr_assert_str_eq(tail, first, "%s: not the same message everywhere",
                                     h[k].what);
                    free(tail);
                }
            }
        }
        free(first);
    }
    for (size_t c = 0; c < n_methods; c++)
        json_object_put(certs[c]);
    free(certs);
}
