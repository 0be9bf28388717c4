/* src/cli/calc_theorems.c — the calibrations of the unlearning theorems:
 * noisygd-k and noisygd-sigma (Chourasia & Shah, bounds/noisygd.h),
 * model-clipping-t, model-clipping-sigma and output-perturbation-sigma
 * (Koloskova et al., bounds/koloskova.h).
 *
 * Every quantity reports the theorem's preconditions as checked by the
 * library: in JSON as `preconditions` (name, rule, state), in text one line
 * per item that fails or is undecided.  A precondition the library enforces
 * (UL_EINPUT) is an input error, exit 2, with a one-line message naming the
 * flag.  Optional flags whose absence means something ("no initial noise",
 * "no limit") default to the word `none`.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/koloskova.h"
#include "bounds/langevin.h"
#include "bounds/noisygd.h"
#include "calc/internal.h"

/* ---- small helpers ------------------------------------------------------------ */

static bool is_none(const char *text)
{
    return strcmp(text, "none") == 0;
}

/* The text of an optional flag, NULL when it is `none`. */
static const char *opt_text(const char *text)
{
    return is_none(text) ? NULL : text;
}

static bool is_flag(const ul_calc_quantity *q, const char *name, size_t len)
{
    for (int i = 0; i < q->nflags; i++)
        if (strlen(q->flags[i].name) == len && strncmp(q->flags[i].name, name, len) == 0)
            return true;
    return false;
}

/* One-line usage error naming a flag; returns 2. */
__attribute__((format(printf, 3, 4))) static int flag_error(ul_calc_result *res, const char *flag,
                                                            const char *fmt, ...)
{
    char text[sizeof res->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return ul_calc_usage(res, "--%s: %s", flag, text);
}

/* A library error (exit 2, or 3 for UL_ECAP).  Its message starts with the
 * parameter's library name ("L: must be ..."); the flags are the lowercase
 * names, so the three capitalised ones of noisygd.h are renamed.  Input
 * errors get the flag's dashes from calc_input_error; a "no solution"
 * (UL_ENOROOT) message that starts with a flag name gets them here; any
 * other message is printed as it is.  hint (may be NULL) is appended. */
static int theorem_error(ul_calc_result *res, ul_status st, const char *msg, const char *hint)
{
    static const char *const RENAMED[][2] = {{"L", "l"}, {"K", "k"}, {"KAbar", "kabar"}};
    const char *colon = strchr(msg, ':');
    size_t len = colon != NULL ? (size_t)(colon - msg) : 0;
    const char *name = msg;
    for (size_t i = 0; colon != NULL && i < sizeof RENAMED / sizeof RENAMED[0]; i++)
        if (strlen(RENAMED[i][0]) == len && strncmp(msg, RENAMED[i][0], len) == 0) {
            name = RENAMED[i][1];
            len = strlen(name);
            break;
        }
    bool flag = colon != NULL && len > 0 && is_flag(res->q, name, len);
    char text[768];
    if (flag)
        snprintf(text, sizeof text, "%s%.*s%s%s", st == UL_ENOROOT ? "--" : "", (int)len, name,
                 colon, hint != NULL ? hint : "");
    else
        snprintf(text, sizeof text, "%s%s", msg, hint != NULL ? hint : "");
    /* calc_input_error adds "--" to UL_EINPUT messages only: keep it off a
     * message that does not start with a flag (the exit code is 2 either way) */
    return ul_calc_input_error(res, !flag && st == UL_EINPUT ? UL_ENOROOT : st, text);
}

static const char *pre_state_name(ul_pre_state s)
{
    return s == UL_PRE_HOLDS ? "holds" : s == UL_PRE_FAILS ? "fails" : "undecided";
}

/* Adds `preconditions` (every item: name, rule, state) to o and writes one
 * text line per item that fails or is undecided to note; when there is one,
 * `consequence` (may be NULL) follows. */
static void report_preconditions(json_object *o, FILE *note, const ul_preconditions *pre,
                                 const char *consequence)
{
    json_object *list = json_object_new_array();
    bool any = false;
    for (int i = 0; i < pre->count; i++) {
        const ul_precondition *p = &pre->items[i];
        json_object *item = json_object_new_object();
        ul_calc_add_string(item, "name", p->name);
        ul_calc_add_string(item, "rule", p->rule);
        ul_calc_add_string(item, "state", pre_state_name(p->state));
        json_object_array_add(list, item);
        if (p->state == UL_PRE_FAILS)
            fprintf(note, "  precondition %s FAILS: %s\n", p->name, p->rule);
        else if (p->state == UL_PRE_UNDECIDED)
            fprintf(note, "  precondition %s UNDECIDED at the precision cap: %s\n", p->name,
                    p->rule);
        any = any || p->state != UL_PRE_HOLDS;
    }
    json_object_object_add(o, "preconditions", list);
    if (any && consequence != NULL)
        fprintf(note, "  %s\n", consequence);
}

/* A text buffer for the notes printed after the bounds. */
typedef struct {
    char *text;
    size_t len;
    FILE *f;
} note_buf;

static void note_open(note_buf *n)
{
    n->text = NULL;
    n->len = 0;
    n->f = open_memstream(&n->text, &n->len);
    if (n->f == NULL)
        abort();
}

/* Closes the stream; the text stays until note_free. */
static const char *note_close(note_buf *n)
{
    fclose(n->f);
    n->f = NULL;
    return n->text;
}

static void note_free(note_buf *n)
{
    free(n->text);
}

/* Adds an inverse's enclosure x ∋ answer (lo, hi, digits, precision_bits,
 * cap_hit, and safe = hi) to r and its `safe` line to note.  x = [0, 0]
 * means every positive value reaches the target (zero_note). */
static void add_inverse(ul_calc_build *r, FILE *note, mpfi_srcptr x, const ul_num_report *rep,
                        const char *safe_note, const char *zero_note)
{
    int digits = r->opt->digits;
    mpfr_t b;
    mpfr_init2(b, mpfi_get_prec(x));
    mpfi_get_left(b, x);
    char *lo = ul_num_format(b, digits, MPFR_RNDD);
    mpfi_get_right(b, x);
    char *hi = ul_num_format(b, digits, MPFR_RNDU);
    ul_calc_bounds(r, lo, hi, rep);
    ul_calc_add_string(r->json, "safe", hi);
    if (mpfr_inf_p(&x->right))
        fprintf(note, "  safe    none certified before the precision cap\n");
    else if (mpfr_zero_p(&x->right))
        fprintf(note, "  safe    any value > 0 (%s)\n", zero_note);
    else
        fprintf(note, "  safe    %s  (%s)\n", hi, safe_note);
    mpfr_clear(b);
    free(lo);
    free(hi);
}

/* Prints a result whose `value` is a whole number (added by the caller):
 * JSON, or the text report with the inputs, the value and note.  Frees r;
 * returns 0, or 3 with a warning when the precision cap was reached. */
static int end_integer(ul_calc_build *r, const char *meaning, unsigned long value, const char *note,
                       ul_status st, const char *cap_warning)
{
    r->res->value = value;
    return ul_calc_end_form(r, UL_CALC_TEXT_VALUE, meaning, note, st, cap_warning);
}

/* An optional whole-number limit: `none` gives 0; else 1..999999999. */
static bool read_limit(ul_calc_result *res, const char *flag, const char *text,
                       unsigned long *out, int *rc)
{
    long v = 0;
    if (is_none(text)) {
        *out = 0;
        return true;
    }
    if (!ul_calc_read_count(text, &v) || v < 1) {
        *rc = flag_error(res, flag, "must be none or a whole number from 1 to 999999999 (got '%s')",
                         text);
        return false;
    }
    *out = (unsigned long)v;
    return true;
}

/* ---- Noisy-GD (Chourasia & Shah) ------------------------------------------------- */

static bool read_g15_form(ul_calc_result *res, const char *text, ul_ngd_g15_form *form)
{
    if (strcmp(text, "tight") == 0)
        *form = UL_NGD_G15_TIGHT;
    else if (strcmp(text, "stated") == 0)
        *form = UL_NGD_G15_STATED;
    else {
        flag_error(res, "form", "must be tight or stated (got '%s')", text);
        return false;
    }
    return true;
}

#define NGD_NOT_A_GUARANTEE                                                                        \
    "not a guarantee: a precondition of the theorem fails or is undecided; the value is the "      \
    "formula's"

/* Starts the result of a "least K" quantity: `value` (the K), `eps_at_k`
 * (the certified ε it reaches, lo and hi also returned, malloc'd, for the
 * text note), digits, precision_bits and cap_hit. */
static void begin_least_k(ul_calc_build *r, const ul_calc_quantity *q, const char **v,
                          const ul_calc_options *c, ul_calc_result *res, unsigned long k,
                          const ul_num_value *eps,
                          const ul_num_report *rep, ul_status st, char **lo, char **hi)
{
    ul_calc_begin(r, q, v, c, res);
    json_object_object_add(r->json, "value", json_object_new_uint64((uint64_t)k));
    ul_num_value_format(eps, c->digits, lo, hi);
    json_object *e = json_object_new_object();
    ul_calc_add_string(e, "lo", *lo);
    ul_calc_add_string(e, "hi", *hi);
    json_object_object_add(r->json, "eps_at_k", e);
    json_object_object_add(r->json, "digits", json_object_new_int(c->digits));
    json_object_object_add(r->json, "precision_bits", json_object_new_int64(rep->bits_used));
    json_object_object_add(r->json, "cap_hit", json_object_new_boolean(st == UL_ECAP));
}

UL_CALC_QUANTITY_FN(ul_calc_noisygd_k)
{
    ul_ngd_g15_form form;
    if (!read_g15_form(res, ul_calc_flag_text(q, v, "form"), &form))
        return UL_CALC_EXIT_USAGE;
    unsigned long max_k;
    int rc = UL_CALC_EXIT_USAGE;
    if (!read_limit(res, "max-k", ul_calc_flag_text(q, v, "max-k"), &max_k, &rc))
        return rc;

    ul_ngd_params pb;
    memset(&pb, 0, sizeof pb);
    pb.q = ul_calc_flag_text(q, v, "q");
    pb.L = ul_calc_flag_text(q, v, "l");
    pb.lambda = ul_calc_flag_text(q, v, "lambda");
    pb.beta = ul_calc_flag_text(q, v, "beta");
    pb.sigma = ul_calc_flag_text(q, v, "sigma");
    pb.eta = ul_calc_flag_text(q, v, "eta");
    pb.n = ul_calc_flag_text(q, v, "n");
    pb.eps_dd = ul_calc_flag_text(q, v, "eps-dd");
    pb.init_var = opt_text(ul_calc_flag_text(q, v, "init-var"));

    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    unsigned long k = 0;
    ul_status st =
        ul_ngd_least_kabar_g15(&pb, form, max_k, &want, &k, &eps, &pre, &rep, err, sizeof err);
    if (st == UL_ECAP && rep.cap_hit) { /* the decision itself, not the ε printed */
        rc = ul_calc_input_error(res, st, err);
    } else if (st != UL_OK && st != UL_ECAP) {
        rc = theorem_error(res, st, err,
                           st == UL_ENOROOT && max_k != 0 && strstr(err, "not reached") != NULL
                               ? " (raise --max-k)"
                               : NULL);
    } else {
        ul_calc_build r;
        char *lo, *hi;
        begin_least_k(&r, q, v, c, res, k, &eps, &rep, st, &lo, &hi);
        note_buf n;
        note_open(&n);
        fprintf(n.f, "  eps     lo %s\n          hi %s\n", lo, hi);
        fprintf(n.f, "          the (q, eps)-data-deletion reached after K_Abar = %lu steps\n", k);
        if (k > 0)
            fprintf(n.f, "  certified: the bound at K_Abar is <= eps-dd and at K_Abar - 1 it is "
                         "> eps-dd\n");
        else
            fprintf(n.f, "  certified: the bound is <= eps-dd already at K_Abar = 0\n");
        report_preconditions(r.json, n.f, &pre, NGD_NOT_A_GUARANTEE);
        free(lo);
        free(hi);
        rc = end_integer(&r,
                         form == UL_NGD_G15_TIGHT
                             ? "the least K_Abar whose Thm G.15 deletion bound (tight form) is "
                               "<= eps-dd"
                             : "the least K_Abar whose Thm G.15 deletion bound (stated form "
                               "4qL^2/(lambda sigma^2 n^2) exp(-eta lambda K/2)) is <= eps-dd",
                         k, note_close(&n), st, "the eps printed has fewer digits than asked");
        note_free(&n);
    }
    ul_num_value_clear(&eps);
    return rc;
}

/* noisygd-sigma: which optional flags each --kind needs ('r'), accepts
 * ('o') or rejects ('-'), in the order lambda beta k kabar eps-dp eps-dd. */
static const struct {
    const char *name;
    ul_ngd_sigma_kind kind;
    const char *use;
    const char *meaning;
} SIGMA_KINDS[] = {
    {"g7", UL_NGD_SIGMA_G7, "--r-r-",
     "the smallest sigma with the Thm G.7 RDP q L^2 eta K/(sigma^2 n^2) <= eps-dp"},
    {"g9", UL_NGD_SIGMA_G9, "rro-r-",
     "the smallest sigma with the Thm G.9 RDP 4qL^2/(lambda sigma^2 n^2) (1 - "
     "exp(-lambda eta K/2)) <= eps-dp (no K: its supremum over K)"},
    {"g15", UL_NGD_SIGMA_G15, "rr-r-r",
     "the smallest sigma with the Thm G.15 deletion bound after K_Abar steps <= eps-dd"},
};

UL_CALC_QUANTITY_FN(ul_calc_noisygd_sigma)
{
    static const char *const optional[6] = {"lambda", "beta", "k", "kabar", "eps-dp", "eps-dd"};
    const char *kind_text = ul_calc_flag_text(q, v, "kind");
    size_t kind = 0;
    while (kind < 3 && strcmp(kind_text, SIGMA_KINDS[kind].name) != 0)
        kind++;
    if (kind == 3)
        return flag_error(res, "kind", "must be g7, g9 or g15 (got '%s')", kind_text);
    const char *use = SIGMA_KINDS[kind].use;
    for (int i = 0; i < 6; i++) {
        const char *flag = optional[i], *text = ul_calc_flag_text(q, v, flag);
        if (use[i] == 'r' && is_none(text))
            return flag_error(res, flag, "missing (required with --kind %s)", kind_text);
        if (use[i] == '-' && !is_none(text))
            return flag_error(res, flag, "not used with --kind %s", kind_text);
    }
    ul_ngd_g15_form form;
    if (!read_g15_form(res, ul_calc_flag_text(q, v, "form"), &form))
        return UL_CALC_EXIT_USAGE;
    if (SIGMA_KINDS[kind].kind != UL_NGD_SIGMA_G15 && form != UL_NGD_G15_TIGHT)
        return flag_error(res, "form", "only used with --kind g15");

    ul_ngd_params pb;
    memset(&pb, 0, sizeof pb);
    pb.q = ul_calc_flag_text(q, v, "q");
    pb.L = ul_calc_flag_text(q, v, "l");
    pb.eta = ul_calc_flag_text(q, v, "eta");
    pb.n = ul_calc_flag_text(q, v, "n");
    pb.lambda = opt_text(ul_calc_flag_text(q, v, "lambda"));
    pb.beta = opt_text(ul_calc_flag_text(q, v, "beta"));
    pb.K = opt_text(ul_calc_flag_text(q, v, "k"));
    pb.KAbar = opt_text(ul_calc_flag_text(q, v, "kabar"));
    pb.eps_dp = opt_text(ul_calc_flag_text(q, v, "eps-dp"));
    pb.eps_dd = opt_text(ul_calc_flag_text(q, v, "eps-dd"));

    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    mpfi_t sigma;
    mpfi_init2(sigma, 64);
    ul_status st = ul_ngd_sigma_min(&pb, SIGMA_KINDS[kind].kind, form, &want, sigma, &pre, &rep,
                                    err, sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP) {
        rc = theorem_error(res, st, err, NULL);
    } else {
        ul_calc_build r;
        ul_calc_begin(&r, q, v, c, res);
        note_buf n;
        note_open(&n);
        add_inverse(&r, n.f, sigma, &rep, "certified: the bound at this sigma is <= the target",
                    "the bound is 0 for every sigma: L = 0, or K = 0");
        report_preconditions(r.json, n.f, &pre, NGD_NOT_A_GUARANTEE);
        rc = ul_calc_end(&r, SIGMA_KINDS[kind].meaning, note_close(&n), st);
        note_free(&n);
    }
    mpfi_clear(sigma);
    return rc;
}

/* ---- model clipping (Koloskova et al.) -------------------------------------------- */

/* The flags shared by model-clipping-t and model-clipping-sigma: eps c2
 * variant c1 lr c0 sigma0 init dim mode. */
static int read_model_clipping(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                               ul_kol_mc_problem *pb)
{
    memset(pb, 0, sizeof *pb);
    pb->eps = ul_calc_flag_text(q, v, "eps");
    pb->c2 = ul_calc_flag_text(q, v, "c2");
    const char *variant = ul_calc_flag_text(q, v, "variant");
    if (strcmp(variant, "cc1") == 0)
        pb->variant = UL_KOL_CC1;
    else if (strcmp(variant, "cc2") == 0)
        pb->variant = UL_KOL_CC2;
    else
        return flag_error(res, "variant", "must be cc1 or cc2 (got '%s')", variant);
    static const char *const cc2_only[] = {"c1", "lr"};
    for (int i = 0; i < 2; i++) {
        const char *text = ul_calc_flag_text(q, v, cc2_only[i]);
        if (pb->variant == UL_KOL_CC1 && !is_none(text))
            return flag_error(res, cc2_only[i], "only used with --variant cc2");
        if (pb->variant == UL_KOL_CC2 && is_none(text))
            return flag_error(res, cc2_only[i], "missing (required with --variant cc2)");
    }
    pb->c1 = opt_text(ul_calc_flag_text(q, v, "c1"));
    pb->lr = opt_text(ul_calc_flag_text(q, v, "lr"));

    /* initial noise: --sigma0 (none: δ0 = 1), its clip --c0 and shape */
    pb->sigma0 = opt_text(ul_calc_flag_text(q, v, "sigma0"));
    pb->c0 = opt_text(ul_calc_flag_text(q, v, "c0"));
    if (pb->sigma0 == NULL && pb->c0 != NULL)
        return flag_error(res, "c0", "only used with --sigma0 (the initial noise)");
    int cmp = 0;
    if (pb->sigma0 != NULL && pb->c0 == NULL && ul_num_is_decimal(pb->sigma0) &&
        ul_num_decimal_compare(pb->sigma0, "0", &cmp) && cmp > 0)
        return flag_error(res, "c0", "missing (required when --sigma0 > 0)");
    if (strcmp(ul_calc_flag_text(q, v, "init"), "ball") == 0)
        pb->init = UL_KOL_INIT_BALL;
    else if (strcmp(ul_calc_flag_text(q, v, "init"), "box") == 0)
        pb->init = UL_KOL_INIT_BOX;
    else
        return flag_error(res, "init", "must be ball or box (got '%s')", ul_calc_flag_text(q, v, "init"));
    if (pb->init == UL_KOL_INIT_BOX && pb->sigma0 == NULL)
        return flag_error(res, "init", "only used with --sigma0 (the initial noise)");
    if (!is_none(ul_calc_flag_text(q, v, "dim"))) {
        long dim;
        if (pb->init != UL_KOL_INIT_BOX)
            return flag_error(res, "dim", "only used with --init box");
        if (!ul_calc_read_count(ul_calc_flag_text(q, v, "dim"), &dim) || dim < 1)
            return flag_error(res, "dim", "must be a whole number from 1 to 999999999 (got '%s')",
                              ul_calc_flag_text(q, v, "dim"));
        pb->dim = (unsigned long)dim;
    } else if (pb->init == UL_KOL_INIT_BOX) {
        return flag_error(res, "dim", "missing (required with --init box)");
    }
    if (!ul_contraction_mode_parse(ul_calc_flag_text(q, v, "mode"), &pb->mode))
        return flag_error(res, "mode", "must be product or adaptive (got '%s')",
                          ul_calc_flag_text(q, v, "mode"));
    return 0;
}

/* Adds the exact pre-noise diameter D (2*C2, or 2*(C2 + lr*C1) for cc2). */
static void add_diameter(ul_calc_build *r, FILE *note, const ul_kol_mc_problem *pb)
{
    char err[256], *d = NULL;
    if (ul_kol_mc_diameter(pb, NULL, &d, err, sizeof err) != UL_OK || d == NULL)
        return; /* already checked by the calibration that succeeded */
    ul_calc_add_string(r->json, "diameter", d);
    fprintf(note, "  diameter of the pre-noise set D = %s (r = D/sigma per step)\n", d);
    free(d);
}

static const char *mc_accounting(const ul_kol_mc_problem *pb)
{
    return pb->mode == UL_CONTRACTION_ADAPTIVE
               ? "adaptive recursion, spec/koloskova.md 2.3"
               : "delta_0 * prod theta_{e^eps}(D/sigma), spec/koloskova.md 2.3";
}

UL_CALC_QUANTITY_FN(ul_calc_model_clipping_t)
{
    ul_kol_mc_problem pb;
    int rc = read_model_clipping(q, v, res, &pb);
    if (rc != 0)
        return rc;
    long max_steps;
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "max-steps"), &max_steps) || max_steps < 1)
        return flag_error(res, "max-steps", "must be a whole number from 1 to 999999999 (got '%s')",
                          ul_calc_flag_text(q, v, "max-steps"));
    if (strchr(ul_calc_flag_text(q, v, "sigma"), ',') != NULL)
        return flag_error(res, "sigma", "one constant value (the least T is for a constant sigma)");
    const char *sigma[1] = {ul_calc_flag_text(q, v, "sigma")};
    pb.sigma = sigma;
    pb.n_sigma = 1;

    char err[256] = "";
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    unsigned long steps = 0;
    ul_status st = ul_kol_mc_least_steps(&pb, ul_calc_flag_text(q, v, "delta"), (unsigned long)max_steps,
                                         &pre, &steps, &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP)
        return theorem_error(res, st, err, st == UL_ENOROOT ? " (raise --max-steps)" : NULL);

    ul_calc_build r;
    ul_calc_begin(&r, q, v, c, res);
    json_object_object_add(r.json, "value", json_object_new_uint64((uint64_t)steps));
    json_object_object_add(r.json, "precision_bits", json_object_new_int64(rep.bits_used));
    json_object_object_add(r.json, "cap_hit", json_object_new_boolean(st == UL_ECAP));
    note_buf n;
    note_open(&n);
    add_diameter(&r, n.f, &pb);
    if (st == UL_ECAP)
        fprintf(n.f, "  certified: delta_T <= delta; not decided whether T is the least\n");
    else if (steps > 0)
        fprintf(n.f, "  certified: delta_T <= delta and delta_{T-1} > delta\n");
    else
        fprintf(n.f, "  certified: delta_0 <= delta already\n");
    report_preconditions(r.json, n.f, &pre, NULL);
    char meaning[160];
    snprintf(meaning, sizeof meaning, "the least T with delta_T <= delta (%s)", mc_accounting(&pb));
    rc = end_integer(&r, meaning, steps, note_close(&n), st,
                     "the T printed suffices but may not be the least");
    note_free(&n);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_model_clipping_sigma)
{
    ul_kol_mc_problem pb;
    int rc = read_model_clipping(q, v, res, &pb);
    if (rc != 0)
        return rc;
    long steps;
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "steps"), &steps) || steps < 1 ||
        (unsigned long)steps > UL_CONTRACTION_MAX_STEPS)
        return flag_error(res, "steps", "must be a whole number from 1 to %lu (got '%s')",
                          UL_CONTRACTION_MAX_STEPS, ul_calc_flag_text(q, v, "steps"));
    pb.steps = (unsigned long)steps;

    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    mpfi_t sigma;
    mpfi_init2(sigma, 64);
    ul_status st = ul_kol_mc_sigma_min(&pb, ul_calc_flag_text(q, v, "delta"), &want, &pre, sigma, &rep, err,
                                       sizeof err);
    if (st != UL_OK && st != UL_ECAP) {
        rc = theorem_error(res, st, err, NULL);
    } else {
        ul_calc_build r;
        ul_calc_begin(&r, q, v, c, res);
        note_buf n;
        note_open(&n);
        add_inverse(&r, n.f, sigma, &rep, "certified: delta_T at this sigma is <= delta",
                    "delta_0 <= delta already");
        add_diameter(&r, n.f, &pb);
        report_preconditions(r.json, n.f, &pre, NULL);
        char meaning[160];
        snprintf(meaning, sizeof meaning, "the smallest constant sigma with delta_T <= delta (%s)",
                 mc_accounting(&pb));
        rc = ul_calc_end(&r, meaning, note_close(&n), st);
        note_free(&n);
    }
    mpfi_clear(sigma);
    return rc;
}

/* ---- output perturbation ------------------------------------------------------------ */

UL_CALC_QUANTITY_FN(ul_calc_output_perturbation_sigma)
{
    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    ul_num_value classic;
    ul_num_value_init(&classic, 64);
    ul_pre_state delivers = UL_PRE_UNDECIDED;
    mpfi_t exact;
    mpfi_init2(exact, 64);
    ul_status st = ul_kol_op_sigma_certified(ul_calc_flag_text(q, v, "c0"), ul_calc_flag_text(q, v, "eps"),
                                             ul_calc_flag_text(q, v, "delta"), &want, &pre, &classic,
                                             &delivers, exact, &rep, err, sizeof err);
    int rc;
    if (st != UL_OK && st != UL_ECAP) {
        rc = theorem_error(res, st, err, NULL);
    } else {
        ul_calc_build r;
        ul_calc_begin(&r, q, v, c, res);
        note_buf n;
        note_open(&n);
        add_inverse(&r, n.f, exact, &rep,
                    "certified: theta_{e^eps}(2*C0/sigma) <= delta at this sigma",
                    "every sigma reaches delta");
        char *lo, *hi;
        ul_num_value_format(&classic, c->digits, &lo, &hi);
        json_object *cl = json_object_new_object();
        ul_calc_add_string(cl, "lo", lo);
        ul_calc_add_string(cl, "hi", hi);
        json_object_object_add(r.json, "classic", cl);
        json_object_object_add(r.json, "classic_delivers",
                               delivers == UL_PRE_UNDECIDED
                                   ? NULL
                                   : json_object_new_boolean(delivers == UL_PRE_HOLDS));
        fprintf(n.f, "  classic lo %s  (2*C0*sqrt(2*log(1.25/delta))/eps)\n", lo);
        fprintf(n.f, "          hi %s\n", hi);
        fprintf(n.f, "          %s\n",
                delivers == UL_PRE_HOLDS ? "the classic calibration really gives (eps, delta) here"
                : delivers == UL_PRE_FAILS
                    ? "the classic calibration does NOT give (eps, delta) here: theta at the "
                      "classic sigma exceeds delta (use safe)"
                    : "could not decide whether the classic calibration gives (eps, delta) "
                      "(precision cap)");
        free(lo);
        free(hi);
        report_preconditions(r.json, n.f, &pre, NULL);
        rc = ul_calc_end(&r,
                             "the smallest sigma with theta_{e^eps}(2*C0/sigma) <= delta (output "
                             "perturbation, sensitivity 2*C0)",
                             note_close(&n), st);
        note_free(&n);
    }
    mpfi_clear(exact);
    ul_num_value_clear(&classic);
    return rc;
}

/* ---- Langevin unlearning (spec/langevin.md §5, strongly convex case) ------------- */

/* Reads the flags shared by langevin-sigma and langevin-k, in the order
 * n m L M eps delta (K|sigma) S eta rate T; 0 or an exit code. */
static int read_langevin(const ul_calc_quantity *q, const char **v, ul_calc_result *res,
                         ul_langevin_sc_problem *pb)
{
    memset(pb, 0, sizeof *pb);
    pb->n = ul_calc_flag_text(q, v, "n");
    pb->m = ul_calc_flag_text(q, v, "m");
    pb->L = ul_calc_flag_text(q, v, "L");
    pb->M = ul_calc_flag_text(q, v, "M");
    pb->delta = ul_calc_flag_text(q, v, "delta");
    long s;
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "S"), &s) || s < 1) {
        ul_calc_usage(res, "--S: must be a whole number from 1 to 999999999 (got '%s')",
                ul_calc_flag_text(q, v, "S"));
        return UL_CALC_EXIT_USAGE;
    }
    pb->S = (unsigned long)s;
    pb->eta = opt_text(ul_calc_flag_text(q, v, "eta"));
    if (!ul_langevin_variant_parse(ul_calc_flag_text(q, v, "rate"), &pb->rate)) {
        ul_calc_usage(res, "--rate: must be printed or corrected (got '%s')",
                ul_calc_flag_text(q, v, "rate"));
        return UL_CALC_EXIT_USAGE;
    }
    if (!is_none(ul_calc_flag_text(q, v, "T"))) {
        /* Thm 3.2 starts unlearning from the stationary law ν_D: a finite
         * learning time is outside its hypotheses (spec/langevin.md §3,
         * insufficient training), so no finite T gives a sound calibration */
        ul_calc_usage(res, "--T: must be none (learning run to convergence): Thm 3.2 "
                "bounds unlearning started from the stationary law nu_D, and a finite T is "
                "outside its hypotheses (got '%s')",
                ul_calc_flag_text(q, v, "T"));
        return UL_CALC_EXIT_USAGE;
    }
    pb->T = UL_LANGEVIN_T_INF;
    return 0;
}

UL_CALC_QUANTITY_FN(ul_calc_langevin_sigma)
{
    ul_langevin_sc_problem pb;
    int rc = read_langevin(q, v, res, &pb);
    if (rc != 0)
        return rc;
    long k;
    if (!ul_calc_read_count(ul_calc_flag_text(q, v, "K"), &k)) {
        ul_calc_usage(res, "--K: must be a whole number from 0 to 999999999 (got '%s')",
                ul_calc_flag_text(q, v, "K"));
        return UL_CALC_EXIT_USAGE;
    }
    char err[256] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    mpfi_t sigma;
    mpfi_init2(sigma, 64);
    ul_status st = ul_langevin_sc_sigma_min(&pb, ul_calc_flag_text(q, v, "eps"), (unsigned long)k, &want,
                                            sigma, &pre, &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP) {
        rc = ul_calc_input_error(res, st, err);
    } else {
        ul_calc_build r;
        ul_calc_begin(&r, q, v, c, res);
        note_buf n;
        note_open(&n);
        add_inverse(&r, n.f, sigma, &rep, "certified: eps_DP(K, sigma) <= eps", "");
        report_preconditions(r.json, n.f, &pre, NULL);
        rc = ul_calc_end(&r,
                             "the smallest Langevin sigma (noise variance 2*eta*sigma^2 per step) "
                             "with eps_DP(K, sigma, S) <= eps (Chien et al. Thm 3.2-3.3, Alg. 4)",
                             note_close(&n), st);
        note_free(&n);
    }
    mpfi_clear(sigma);
    return rc;
}

UL_CALC_QUANTITY_FN(ul_calc_langevin_k)
{
    ul_langevin_sc_problem pb;
    int rc = read_langevin(q, v, res, &pb);
    if (rc != 0)
        return rc;
    char err[256] = "", alpha[64] = "";
    ul_num_precision want = ul_calc_precision_of(c);
    ul_preconditions pre;
    ul_pre_clear(&pre);
    ul_num_report rep = {0, false};
    ul_num_value eps;
    ul_num_value_init(&eps, 64);
    unsigned long k = 0;
    ul_status st =
        ul_langevin_sc_least_k(&pb, ul_calc_flag_text(q, v, "sigma"), ul_calc_flag_text(q, v, "eps"), &want, &k,
                               &eps, alpha, sizeof alpha, &pre, &rep, err, sizeof err);
    if (st != UL_OK && st != UL_ECAP) {
        rc = ul_calc_input_error(res, st, err);
    } else {
        ul_calc_build r;
        char *lo, *hi;
        begin_least_k(&r, q, v, c, res, k, &eps, &rep, st, &lo, &hi);
        ul_calc_add_string(r.json, "alpha", alpha);
        note_buf n;
        note_open(&n);
        fprintf(n.f, "  eps_DP  lo %s\n          hi %s  (at alpha = %s)\n", lo, hi, alpha);
        fprintf(n.f, k > 0 ? "  certified: eps_DP(K) <= eps and eps_DP(K - 1) > eps\n"
                           : "  certified: eps_DP <= eps already at K = 0\n");
        report_preconditions(r.json, n.f, &pre, NULL);
        free(lo);
        free(hi);
        rc = end_integer(&r,
                         "the least K >= 0 with eps_DP(K, sigma, S) <= eps (Chien et al., Alg. 5)",
                         k, note_close(&n), st, "the eps printed has fewer digits than asked");
        note_free(&n);
    }
    ul_num_value_clear(&eps);
    return rc;
}
