/* src/audit/audit.c — dispatch to the method handlers, and the helpers they
 * share for verdicts and report numbers. */
#include "audit/audit.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit_omitted.h"
#include "audit/report.h"
#include "num/deadline.h"
#include "num/encl.h"
#include "num/progress.h"

/* The handlers that exist; a method missing here is reported as not yet
 * auditable (never guessed). */
/* Every method of cert/methods.h, by its handler. */
#define UL_AUDIT_REGISTER(name, id) &ul_audit_##id,
static const ul_audit_method *const REGISTRY[] = {UL_CERT_METHOD_LIST(UL_AUDIT_REGISTER) NULL};
#undef UL_AUDIT_REGISTER

const char *ul_verdict_name(ul_verdict v)
{
    switch (v) {
    case UL_VERDICT_SUPPORTED:
        return "supported";
    case UL_VERDICT_UNSUPPORTED:
        return "unsupported";
    case UL_VERDICT_REFUTED:
        return "refuted";
    case UL_VERDICT_INVALID:
        return "invalid";
    case UL_VERDICT_INCONCLUSIVE:
        break;
    }
    return "inconclusive";
}

int ul_verdict_exit_code(ul_verdict v)
{
    switch (v) {
    case UL_VERDICT_SUPPORTED:
        return 0;
    case UL_VERDICT_INCONCLUSIVE:
        return 3;
    default:
        return 1;
    }
}

void ul_audit_report_init(ul_audit_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->verdict = UL_VERDICT_INCONCLUSIVE;
    ul_pre_clear(&rep->pre);
}

const ul_audit_method *ul_audit_find(const char *method)
{
    for (size_t i = 0; REGISTRY[i] != NULL; i++)
        if (strcmp(REGISTRY[i]->method, method) == 0)
            return REGISTRY[i];
    return NULL;
}

static void copy_text(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
}

/* The fewest digits a number of the audit under way was printed with after
 * format_fitting had to shorten it (INT_MAX: none shortened): in the
 * numbered fields (lo_full/hi_full) and in the sentences (lo/hi as quoted,
 * margin).  Per thread: ul_audit() resets them before the handler and reads
 * them after. */
static _Thread_local int fitted_full = INT_MAX, fitted_quoted = INT_MAX;

/* ---- the last check on a handler's report -------------------------------------- */

/* A text field filled to its last byte was (as far as one can tell) cut by
 * a handler's snprintf: it is cut back to whole words and marked, so that no
 * partial word, and above all no partial number, is ever printed. */
static void seal_text(char *s, size_t size)
{
    static const char MARK[] = " [cut: too long for the report]";
    if (strlen(s) + 1 < size)
        return;
    size_t keep = size - sizeof MARK;
    while (keep > 0 && s[keep] != ' ')
        keep--;
    memcpy(s + keep, MARK + (keep == 0), sizeof MARK - (keep == 0));
}

/* A bound filled to its last byte may be a cut number: replaced by the
 * trivially sound -inf (lower) or inf (upper). */
static void seal_number(ul_audit_number *n)
{
    if (n->key == NULL)
        return;
    seal_text(n->label, sizeof n->label);
    if (strlen(n->lo) + 1 >= sizeof n->lo)
        copy_text(n->lo, sizeof n->lo, "-inf");
    if (strlen(n->hi) + 1 >= sizeof n->hi)
        copy_text(n->hi, sizeof n->hi, "inf");
    /* a full bound not ended inside its field is no bound: lo/hi then print */
    if (memchr(n->lo_full, '\0', sizeof n->lo_full - 1) == NULL)
        n->lo_full[0] = '\0';
    if (memchr(n->hi_full, '\0', sizeof n->hi_full - 1) == NULL)
        n->hi_full[0] = '\0';
}

static void seal_report(ul_audit_report *rep)
{
    seal_text(rep->claim, sizeof rep->claim);
    seal_text(rep->theorem, sizeof rep->theorem);
    seal_text(rep->variant, sizeof rep->variant);
    seal_text(rep->margin, sizeof rep->margin);
    seal_text(rep->first_wrong_stated, sizeof rep->first_wrong_stated);
    seal_text(rep->forensics, sizeof rep->forensics);
    seal_text(rep->explanation, sizeof rep->explanation);
    seal_number(&rep->recomputed);
    seal_number(&rep->other_variant);
    for (int i = 0; i < rep->n_would_reach && i < UL_AUDIT_MAX_NUMBERS; i++)
        seal_number(&rep->would_reach[i]);
}

/* ---- the time budget ------------------------------------------------------------ */

#define TIME_OUT_WHAT "auditing the certificate"

void ul_audit_time_out_text(char *buf, size_t n, const char *what)
{
    snprintf(buf, n,
             "Time limit of %g s reached (--max-seconds) while %s: no verdict, inconclusive "
             "(raise --max-seconds, or 0 for no limit, to let it finish).",
             ul_deadline_seconds(), what != NULL && what[0] != '\0' ? what : TIME_OUT_WHAT);
}

void ul_audit_time_out(ul_audit_report *rep, const char *what)
{
    rep->verdict = UL_VERDICT_INCONCLUSIVE;
    memset(&rep->recomputed, 0, sizeof rep->recomputed);
    memset(&rep->other_variant, 0, sizeof rep->other_variant);
    memset(rep->would_reach, 0, sizeof rep->would_reach);
    rep->n_would_reach = 0;
    rep->margin[0] = rep->first_wrong_stated[0] = rep->forensics[0] = '\0';
    rep->explanation[0] = '\0';
    rep->explanation_cut = false;
    char text[1024];
    ul_audit_time_out_text(text, sizeof text, what);
    ul_audit_explain(rep, "%s", text);
}

/* Whether a handler's return means "stopped by the budget": UL_ETIME, or
 * anything once the budget has run out (a handler may have turned a
 * UL_ETIME of a helper into another status, or left a part out). */
static bool timed_out(ul_status st)
{
    return st == UL_ETIME || ul_deadline_passed();
}

/* A UL_ETIME message is the phrase "what was being computed"; another
 * status's message is not, and then the generic phrase is used. */
static const char *time_out_what(ul_status st, const char *err)
{
    return st == UL_ETIME && err != NULL ? err : NULL;
}

/* The certificate's claim numbers as written, for the report's claim_values
 * (report.h).  Read from the raw object: each method's claim table
 * (audit_*.c) accepts only decimals (a JSON number or a string of decimal
 * text), at most eps, delta, renyi_order and renyi_value, and its handler
 * refuses any other member before a report exists. */
static void read_claim_values(const ul_cert *c, ul_audit_report *rep)
{
    const ul_json_value *claim = ul_cert_object(c, "claim");
    rep->claim_read = claim != NULL && claim->type == UL_JSON_OBJECT;
    for (size_t i = 0; rep->claim_read && i < claim->count; i++) {
        const ul_json_value *v = claim->items[i];
        ul_audit_claim_value *cv = &rep->claim_values[rep->n_claim_values];
        if (rep->n_claim_values == UL_AUDIT_MAX_CLAIM_VALUES ||
            (v->type != UL_JSON_NUMBER && v->type != UL_JSON_STRING) ||
            strlen(v->key) >= sizeof cv->key || v->text_len >= sizeof cv->value)
            continue;
        copy_text(cv->key, sizeof cv->key, v->key);
        copy_text(cv->value, sizeof cv->value, v->text);
        rep->n_claim_values++;
    }
}

ul_status ul_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                   char *err, size_t errlen)
{
    ul_audit_report_init(rep);
    const ul_audit_method *m = ul_audit_find(ul_cert_method(c));
    if (m == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "$.method: '%s' cannot be audited yet",
                       ul_cert_method(c));
    /* a malformed SOURCE_DATE_EPOCH is refused before any work */
    char when[UL_AUDIT_TIME_CHARS];
    ul_status st = ul_audit_timestamp(when, err, errlen);
    if (st != UL_OK)
        return st;
    fitted_full = fitted_quoted = INT_MAX;
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    st = m->audit(c, want, rep, err, errlen);
    /* after the handler, which starts from a zeroed report: the claim, and
     * the time the report is finished (SOURCE_DATE_EPOCH read again: same) */
    read_claim_values(c, rep);
    ul_audit_timestamp(rep->generated_at, NULL, 0);
    if (timed_out(st)) {
        ul_audit_time_out(rep, time_out_what(st, err));
        seal_report(rep);
        return UL_OK;
    }
    if (st == UL_OK)
        ul_audit_apply_omitted(rep);
    int asked = want != NULL ? want->digits : 0;
    if (st == UL_OK && fitted_quoted < asked)
        ul_audit_explain(rep,
                         "Numbers quoted in these sentences have as few as %d significant "
                         "digits, fewer than the %d asked (the sentences hold no more; the "
                         "numbered results carry them all); each is still rounded outward.",
                         fitted_quoted, asked);
    if (st == UL_OK && fitted_full < asked)
        ul_audit_explain(rep,
                         "Some numbered results are printed with %d significant digits, fewer "
                         "than the %d asked (the report's fields hold no more); they are still "
                         "rounded outward (lo down, hi up).",
                         fitted_full, asked);
    seal_report(rep);
    return st;
}

ul_status ul_audit_load(const char *path, const char *text, size_t len,
                        const ul_num_precision *want, ul_audit_report *rep, char *method,
                        size_t methodlen, char *err, size_t errlen)
{
    ul_cert *c = NULL;
    if (methodlen > 0)
        method[0] = '\0';
    ul_status st = text != NULL ? ul_cert_load_buffer(text, len, &c, err, errlen)
                                : ul_cert_load(path, &c, err, errlen);
    if (st == UL_OK) {
        snprintf(method, methodlen, "%s", ul_cert_method(c));
        st = ul_audit(c, want, rep, err, errlen);
        ul_audit_report_hash(rep, path, text, len);
    }
    ul_cert_free(c);
    return st;
}

ul_status ul_audit_calibrate(const ul_cert *c, const ul_num_precision *want, char **completed,
                             char *err, size_t errlen)
{
    const ul_audit_method *m = ul_audit_find(ul_cert_method(c));
    *completed = NULL;
    if (m == NULL || m->calibrate == NULL)
        return ul_fail(err, errlen, UL_EINPUT, "$.method: '%s' has no calibration",
                       ul_cert_method(c));
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    /* searches run for tens of seconds: the thread's progress hook
     * (num/progress.h) hears of them, their accountants' steps inside */
    int task = ul_progress_begin("calibrate", -1);
    ul_status st = m->calibrate(c, want, completed, err, errlen);
    ul_progress_end(task);
    if (!timed_out(st))
        return st;
    if (st == UL_OK) /* finished after the budget: not written either */
        free(*completed);
    *completed = NULL;
    char text[1024];
    ul_audit_time_out_text(text, sizeof text, time_out_what(st, err));
    return ul_fail(err, errlen, UL_ETIME, "%s", text);
}

/* ---- report numbers ---------------------------------------------------------- */

static char *dup_text(const char *s)
{
    char *d = strdup(s);
    /* a report number: at most --digits digits */
    if (d == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    return d;
}

/* How many characters lo and hi must lose to fit: each shorter than
 * `each`, and fixed + both shorter than `size`. */
static size_t excess(const char *lo, const char *hi, size_t each, size_t fixed, size_t size)
{
    size_t a = strlen(lo), b = strlen(hi), over = 0;
    if (a >= each)
        over = a - each + 1;
    if (b >= each && b - each + 1 > over)
        over = b - each + 1;
    if (fixed + a + b >= size && (fixed + a + b - size) / 2 + 1 > over)
        over = (fixed + a + b - size) / 2 + 1;
    return over;
}

/* lo (rounded down) and hi (rounded up) of v, malloc'd, at `digits` or at
 * fewer digits so that they fit (see excess): every retry formats the binary
 * ends again in the outward direction, so the shorter decimals still enclose
 * v.  When not even 1 digit fits (only an exponent of thousands of digits
 * could do that), lo = "-inf" and hi = "inf": still an enclosure. */
static void format_fitting(const ul_num_value *v, int digits, size_t each, size_t fixed,
                           size_t size, int *track, char **lo, char **hi)
{
    bool shortened = false;
    size_t over;
    for (;;) {
        ul_num_value_format(v, digits, lo, hi);
        over = excess(*lo, *hi, each, fixed, size);
        if (over == 0)
            break;
        free(*lo);
        free(*hi);
        if (digits <= 1)
            break;
        digits = over >= (size_t)digits ? 1 : digits - (int)over;
        shortened = true;
    }
    if (over != 0) {
        *lo = dup_text("-inf");
        *hi = dup_text("inf");
        digits = 0;
        shortened = true;
    }
    if (shortened && digits < *track)
        *track = digits;
}

static void number_fill(ul_audit_number *n, const char *key, const char *label,
                        const ul_num_value *v, int digits)
{
    char *lo, *hi;
    /* one byte to spare: a field filled to its last byte reads as cut
     * (seal_number) */
    format_fitting(v, digits, sizeof n->lo_full - 1, 0, SIZE_MAX, &fitted_full, &lo, &hi);
    copy_text(n->lo_full, sizeof n->lo_full, lo);
    copy_text(n->hi_full, sizeof n->hi_full, hi);
    bool full_ok = ul_num_is_decimal(lo) && ul_num_is_decimal(hi);
    free(lo);
    free(hi);
    int quoted_digits = INT_MAX;
    format_fitting(v, digits, sizeof n->lo - 1, 0, SIZE_MAX, &quoted_digits, &lo, &hi);
    /* the quoted bounds became -inf/inf for their length alone: the full
     * ones print (ul_audit_number_lo/_hi), and nothing was shortened */
    n->quoted_out = quoted_digits == 0 && full_ok;
    if (!n->quoted_out && quoted_digits < fitted_quoted)
        fitted_quoted = quoted_digits;
    n->key = key;
    copy_text(n->label, sizeof n->label, label);
    copy_text(n->lo, sizeof n->lo, lo);
    copy_text(n->hi, sizeof n->hi, hi);
    free(lo);
    free(hi);
}

/* Whether full is a number that, rounded in direction rnd to the digits of
 * quoted, is exactly quoted: then both are this number's bound (the helpers
 * wrote them together) and full is printed; a handler that wrote lo/hi
 * directly since, or never called a helper, gets its own text printed. */
static bool full_agrees(const char *full, size_t size, const char *quoted, mpfr_rnd_t rnd)
{
    if (memchr(full, '\0', size) == NULL)
        return false;
    if (strcmp(full, quoted) == 0)
        return true;
    const char *e = strchr(quoted, 'e');
    if (!ul_num_is_decimal(full) || !ul_num_is_decimal(quoted) || e == NULL)
        return false;
    int k = 0;
    for (const char *p = quoted; p < e; p++)
        k += *p >= '0' && *p <= '9';
    mpfr_t x;
    mpfr_init2(x, (mpfr_prec_t)(3.33 * (double)strlen(full)) + 64);
    char *end;
    mpfr_strtofr(x, full, &end, 10, rnd);
    bool same = false;
    if (*end == '\0' && mpfr_number_p(x) && k > 0) {
        char *again = ul_num_format(x, k, rnd);
        same = strcmp(again, quoted) == 0;
        free(again);
    }
    mpfr_clear(x);
    return same;
}

/* The helpers quoted -inf (inf) for a bound only the full field holds. */
static bool quoted_out(const ul_audit_number *n, const char *full, size_t size,
                       const char *quoted, const char *infinity)
{
    return n->quoted_out && strcmp(quoted, infinity) == 0 && memchr(full, '\0', size) != NULL &&
           ul_num_is_decimal(full);
}

const char *ul_audit_number_lo(const ul_audit_number *n)
{
    if (quoted_out(n, n->lo_full, sizeof n->lo_full, n->lo, "-inf"))
        return n->lo_full;
    return full_agrees(n->lo_full, sizeof n->lo_full, n->lo, MPFR_RNDD) ? n->lo_full : n->lo;
}

const char *ul_audit_number_hi(const ul_audit_number *n)
{
    if (quoted_out(n, n->hi_full, sizeof n->hi_full, n->hi, "inf"))
        return n->hi_full;
    return full_agrees(n->hi_full, sizeof n->hi_full, n->hi, MPFR_RNDU) ? n->hi_full : n->hi;
}

void ul_audit_number_set(ul_audit_number *n, const char *key, const char *label,
                         const ul_num_value *v, int digits)
{
    number_fill(n, key, label, v, digits);
}

void ul_audit_number_set_mpfi(ul_audit_number *n, const char *key, const char *label,
                              mpfi_srcptr x, int digits)
{
    /* a read-only view of x as a value in linear form (shares its limbs) */
    ul_num_value v;
    v.enclosure[0] = *x;
    v.is_log = false;
    number_fill(n, key, label, &v, digits);
}
void ul_audit_number_set_integer(ul_audit_number *n, const char *key, const char *label,
                                 unsigned long value)
{
    n->key = key;
    n->quoted_out = false;
    copy_text(n->label, sizeof n->label, label);
    snprintf(n->lo, sizeof n->lo, "%lu", value);
    snprintf(n->hi, sizeof n->hi, "%lu", value);
    snprintf(n->lo_full, sizeof n->lo_full, "%lu", value);
    snprintf(n->hi_full, sizeof n->hi_full, "%lu", value);
}

/* Ends an explanation that had to leave a sentence out; ul_audit_explain
 * always keeps room for it. */
#define EXPLANATION_CUT_NOTE                                                                       \
    "[The explanation stops here: the next sentence did not fit in the report.]"

/* The printf text of fmt, malloc'd. */
static char *vformat(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = malloc(n > 0 ? (size_t)n + 1 : 1);
    /* a sentence of the explanation, whose field has a fixed size */
    if (s == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    if (n > 0)
        vsnprintf(s, (size_t)n + 1, fmt, again);
    else
        s[0] = '\0';
    va_end(again);
    return s;
}

static void append_text(char *dst, size_t *len, const char *text)
{
    if (*len > 0)
        dst[(*len)++] = ' ';
    size_t n = strlen(text);
    memcpy(dst + *len, text, n + 1);
    *len += n;
}

void ul_audit_explain(ul_audit_report *rep, const char *fmt, ...)
{
    if (rep->explanation_cut)
        return; /* the note already ends it */
    va_list ap;
    va_start(ap, fmt);
    char *sentence = vformat(fmt, ap);
    va_end(ap);
    size_t len = strlen(rep->explanation);
    if (len + 2 + strlen(EXPLANATION_CUT_NOTE) > sizeof rep->explanation) {
        rep->explanation_cut = true; /* cannot happen through this function */
        free(sentence);
        return;
    }
    /* the sentence, a space before it, and room for " NOTE" after it */
    size_t need = len + 1 + strlen(sentence) + 1 + strlen(EXPLANATION_CUT_NOTE) + 1;
    if (need <= sizeof rep->explanation) {
        append_text(rep->explanation, &len, sentence);
    } else {
        append_text(rep->explanation, &len, EXPLANATION_CUT_NOTE);
        rep->explanation_cut = true;
    }
    free(sentence);
}

/* ---- the verdict of a bound against a claim ----------------------------------- */

#define MARGIN_FORMAT "claimed %s %s; certified %s in [%s, %s]: %s"

ul_verdict ul_audit_compare(ul_audit_report *rep, const char *key, const char *label,
                            const ul_num_value *guarantee, const char *claimed,
                            bool exact_profile, int digits)
{
    ul_audit_number_set(&rep->recomputed, key, label, guarantee, digits);

    /* Compare in the guarantee's own form: log(claimed) against a log
     * enclosure, claimed itself against a linear one; claimed read as an
     * enclosure at the guarantee's precision plus margin. */
    mpfr_prec_t p = mpfi_get_prec(guarantee->enclosure) + 64;
    mpfi_t c;
    mpfi_init2(c, p);
    ul_verdict v = UL_VERDICT_INCONCLUSIVE;
    if (ul_num_set_decimal(c, claimed) == UL_OK) {
        bool claim_zero = mpfi_is_zero(c);
        if (guarantee->is_log && !claim_zero)
            mpfi_log(c, c);
        mpfr_srcptr g_lo = &guarantee->enclosure->left, g_hi = &guarantee->enclosure->right;
        if (guarantee->is_log && claim_zero) {
            /* a positive quantity can be ≤ 0 only if it is 0: lo = -inf */
            if (mpfr_inf_p(g_hi) && mpfr_sgn(g_hi) < 0)
                v = UL_VERDICT_SUPPORTED;
            else if (!(mpfr_inf_p(g_lo) && mpfr_sgn(g_lo) < 0))
                v = exact_profile ? UL_VERDICT_REFUTED : UL_VERDICT_UNSUPPORTED;
        } else if (mpfr_lessequal_p(g_hi, &c->left)) {
            v = UL_VERDICT_SUPPORTED;
        } else if (mpfr_greater_p(g_lo, &c->right)) {
            v = exact_profile ? UL_VERDICT_REFUTED : UL_VERDICT_UNSUPPORTED;
        }
    }
    mpfi_clear(c);

    const char *says = v == UL_VERDICT_SUPPORTED     ? "the claim is within the certified bound"
                       : v == UL_VERDICT_REFUTED     ? "the exact value exceeds the claim"
                       : v == UL_VERDICT_UNSUPPORTED ? "the bound does not reach the claim"
                                                     : "the enclosure straddles the claim";
    /* the ends again, with fewer digits (outward) if the margin could not
     * hold them with the claim */
    size_t fixed = (size_t)snprintf(NULL, 0, MARGIN_FORMAT, key, claimed, key, "", "", says);
    char *lo, *hi;
    format_fitting(guarantee, digits, SIZE_MAX, fixed, sizeof rep->margin - 1, &fitted_quoted, &lo,
                   &hi);
    snprintf(rep->margin, sizeof rep->margin, MARGIN_FORMAT, key, claimed, key, lo, hi, says);
    free(lo);
    free(hi);
    return v;
}
