/* src/audit/audit_dpsgd.c — method "dp-sgd": an (ε, δ) claim for a run of
 * DP-SGD (Poisson-subsampled Gaussian steps), decided by the certified
 * accountants of bounds/dpsgd.h (issue 14).  Read → call bounds → decide →
 * explain; no arithmetic of its own.
 *
 * ==== Schema ==============================================================
 *
 *   parameters.phases        list of 1..64 objects, Opacus's accountant history:
 *     [i].noise_multiplier   decimal, 1e-3 ≤ σ ≤ 1e6: noise std / clipping norm
 *     [i].sample_rate        decimal, 0 < q ≤ 1: Poisson sampling rate
 *     [i].steps              whole number, 1 ≤ T ≤ 1e9 (total ≤ 1e9)
 *   or, for one phase, the same three fields directly in parameters (the
 *   form `calibrate` completes: noise_multiplier, or steps, may then be
 *   left out);
 *   parameters.noise_scale   decimal, 1e-9 ≤ c ≤ 1e9 (default 1): every
 *                            phase's noise_multiplier is multiplied by c
 *                            (exactly: the run audited has σ_i·c); the
 *                            field `calibrate` fills in for a list of
 *                            phases (one common factor keeps the
 *                            schedule's shape);
 *   parameters.sensitivity   decimal, 1e-6 ≤ Δ ≤ 1000 (default 1): a record's
 *                            contribution to a step's sum has norm ≤ Δ·C
 *   parameters.sampling      "poisson" | "shuffle" | "without-replacement"; how
 *                            each step's batch is drawn.  Omitted: Poisson,
 *                            since sample_rate is defined as a Poisson rate
 *                            (stating the rate states the sampling).  Any
 *                            other: invalid (the accountants' hypothesis
 *                            fails; see sampling_holds below);
 *   parameters.adjacency     "add-remove" | "replace"; omitted: both readings
 *                            are audited and the worse verdict stands (the
 *                            claim must hold whichever neighbouring relation
 *                            was meant: the reading least favourable to it)
 *   claim.eps                decimal, 0 ≤ ε ≤ 1000
 *   claim.delta              decimal, 0 < δ < 1
 *   stated                   no fields
 *
 * ==== Decision (per reading) ==============================================
 *
 *   every q = 1   δ(ε) = θ_{e^ε}(r) exactly (dpsgd.h): supported or refuted;
 *   otherwise     supported when the RDP accountant (BBGHS conversion at the
 *                 best real α, certified) gives ε ≤ the claim at the claimed
 *                 δ; else, add/remove: the PLD bracket [lo, hi] ∋ δ(ε) at the
 *                 claimed ε: hi ≤ δ supported, lo > δ refuted (a proven lower
 *                 bound of the exact privacy profile), else unsupported;
 *                 replace with q < 1: unsupported (no PLD pair, dpsgd.h).
 *   The Mironov conversion is reported beside BBGHS (never tighter).
 *
 * ==== Calibration ===========================================================
 *
 *   one phase, noise_multiplier absent (or present: recomputed): the
 *       smallest noise multiplier (Opacus get_noise_multiplier, certified);
 *   one phase, steps absent: the most steps (the largest T certified);
 *   a list of phases: the smallest noise_scale (each σ_i as given).
 *   Each is searched in doubles and certified once (bounds/dpsgd.h), by the
 *   exact profile (q = 1), RDP, then PLD (add/remove, q < 1) when it does
 *   better; the completed certificate is re-audited and must be supported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds/dpsgd.h"
#include "audit/audit.h"
#include "audit/audit_omitted.h"
#include "audit/audit_util.h"
#include "num/progress.h"

static const char *const ADJACENCIES[] = {"add-remove", "replace", NULL};
/* How a step's batch is drawn: Poisson (each record independently with
 * probability q, the accountants' hypothesis), shuffle (a random
 * permutation cut into fixed-size batches, what most training loops do)
 * or a fixed-size batch drawn without replacement at each step. */
static const char *const SAMPLINGS[] = {"poisson", "shuffle", "without-replacement", NULL};

#define SIGMA_FIELD                                                                                \
    .name = "noise_multiplier", .type = UL_FIELD_DECIMAL, .domain = &ul_domain_sigma,              \
    .doc = "noise standard deviation over the clipping norm"
#define RATE_FIELD                                                                                 \
    .name = "sample_rate", .type = UL_FIELD_DECIMAL, .domain = &ul_domain_q_pos,                   \
    .doc = "Poisson sampling rate q, 0 < q <= 1"
#define STEPS_FIELD                                                                                \
    .name = "steps", .type = UL_FIELD_COUNT, .lo = "1", .hi = "1000000000",                        \
    .doc = "number of noisy steps"

static const ul_field_spec PARAMS[] = {
    {.name = "phases",
     .type = UL_FIELD_ANY,
     .doc = "list of {noise_multiplier, sample_rate, steps} (Opacus accountant history)"},
    {.name = "noise_scale",
     .type = UL_FIELD_DECIMAL,
     .lo = "1e-9",
     .hi = "1e9",
     .doc = "common factor on every phase's noise_multiplier (default 1)"},
    {SIGMA_FIELD},
    {RATE_FIELD},
    {STEPS_FIELD},
    {.name = "sensitivity",
     .type = UL_FIELD_DECIMAL,
     .lo = UL_DPSGD_MIN_SENSITIVITY,
     .hi = UL_DPSGD_MAX_SENSITIVITY,
     .doc = "per-record contribution in clipping norms (default 1)"},
    {.name = "sampling",
     .type = UL_FIELD_STRING,
     .choices = SAMPLINGS,
     .doc = "poisson (default: sample_rate is a Poisson rate), shuffle or without-replacement"},
    {.name = "adjacency",
     .type = UL_FIELD_STRING,
     .choices = ADJACENCIES,
     .doc = "add-remove or replace",
     .omitted = "both: the claim must hold for add-remove and for replace neighbours, and the "
                "worse verdict stands (the explanation names the reading that decided)"},
};
#define N_PARAMS (sizeof PARAMS / sizeof PARAMS[0])

static const ul_field_spec PHASE[] = {
    {SIGMA_FIELD, .required = true},
    {RATE_FIELD, .required = true},
    {STEPS_FIELD, .required = true},
};
#define N_PHASE (sizeof PHASE / sizeof PHASE[0])

static const ul_field_spec CLAIM[] = {
    /* the PLD's limit |eps| <= 1000 (bounds/pld.h, UL_PLD_MAX_ABS_EPS), not a shared domain */
    {.name = "eps",
     .type = UL_FIELD_DECIMAL,
     .required = true,
     .lo = "0",
     .hi = "1000",
     .doc = "claimed epsilon (natural log)"},
    UL_AUDIT_CLAIM_DELTA(true, "claimed delta, 0 < delta < 1"),
};
#define N_CLAIM (sizeof CLAIM / sizeof CLAIM[0])

typedef struct {
    ul_dpsgd_phase ph[UL_DPSGD_MAX_PHASES];
    const char *base_sigma[UL_DPSGD_MAX_PHASES]; /* as given, before noise_scale */
    char *scaled[UL_DPSGD_MAX_PHASES];           /* σ_i·noise_scale (malloc'd) */
    const char *scale;                           /* noise_scale, or NULL */
    ul_dpsgd_run run;
    bool adjacency_given, flat;
    const char *sampling; /* as stated, or NULL (Poisson) */
    const char *eps, *delta;
    ul_field_arena *arena;
} dcert;

/* The list form: each element an object with the three phase fields. */
static ul_status read_phases(dcert *d, const ul_cert_value *v, char *err, size_t errlen)
{
    const ul_json_value *a = v->json;
    if (a->type != UL_JSON_ARRAY || a->count < 1 || a->count > UL_DPSGD_MAX_PHASES)
        return ul_fail(err, errlen, UL_EINPUT, "%s: must be a list of 1 to %d phase objects",
                       v->path, UL_DPSGD_MAX_PHASES);
    for (size_t i = 0; i < a->count; i++) {
        char path[UL_JSON_PATH_MAX];
        ul_json_path_index(path, sizeof path, v->path, i);
        ul_cert_values pv;
        ul_status st =
            ul_io_read_fields(d->arena, a->items[i], path, PHASE, N_PHASE, &pv, err, errlen);
        if (st != UL_OK)
            return st;
        d->ph[i] = (ul_dpsgd_phase){ul_cert_values_get(&pv, "noise_multiplier")->text,
                                    ul_cert_values_get(&pv, "sample_rate")->text,
                                    (unsigned long)ul_cert_values_get(&pv, "steps")->count};
    }
    d->run.n = a->count;
    return UL_OK;
}

/* The one-phase form; for calibrate (need_all false) noise_multiplier or
 * steps may be missing, not both. */
static ul_status read_flat(dcert *d, const ul_cert_values *p, bool need_all, char *err,
                           size_t errlen)
{
    const char *names[] = {"noise_multiplier", "sample_rate", "steps"};
    bool open_sigma = !need_all && !ul_cert_values_get(p, names[0])->present;
    for (int i = 0; i < 3; i++)
        if (!ul_cert_values_get(p, names[i])->present && !(i == 0 && open_sigma) &&
            !(i == 2 && !need_all && !open_sigma))
            return ul_fail(err, errlen, UL_EINPUT,
                           "$.parameters.%s: missing (required: give phases, or "
                           "noise_multiplier, sample_rate and steps; calibrate fills in one of "
                           "noise_multiplier and steps)",
                           names[i]);
    d->ph[0] = (ul_dpsgd_phase){ul_audit_field_text(p, "noise_multiplier"),
                                ul_audit_field_text(p, "sample_rate"),
                                (unsigned long)ul_cert_values_get(p, "steps")->count};
    d->run.n = 1;
    d->flat = true;
    return UL_OK;
}

/* The rules across fields (Δ/σ ≤ 1000, total steps), named by JSON path:
 * bounds name "phases[i].x" (the flat form: "x"). */
static ul_status check_run(const dcert *d, char *err, size_t errlen)
{
    char msg[512];
    ul_status st = ul_dpsgd_check(&d->run, msg, sizeof msg);
    if (st == UL_OK)
        return UL_OK;
    const char *m = msg;
    if (d->flat && strncmp(m, "phases[0].", 10) == 0)
        m += 10;
    return ul_fail(err, errlen, st, "$.parameters.%s%s", m,
                   d->scale != NULL ? " (noise_multiplier times noise_scale)" : "");
}

/* noise_scale applied: each σ_i becomes the exact product σ_i·c. */
static void apply_scale(dcert *d)
{
    for (size_t i = 0; i < d->run.n; i++) {
        d->base_sigma[i] = d->ph[i].sigma;
        if (d->scale != NULL && d->ph[i].sigma != NULL)
            d->ph[i].sigma = d->scaled[i] = ul_dpsgd_decimal_product(d->ph[i].sigma, d->scale);
    }
}

/* need_all false for calibrate (flat form: noise_multiplier or steps may
 * be missing). */
static ul_status dcert_read(const ul_cert *c, bool need_all, dcert *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->run.phases = d->ph;
    d->arena = ul_field_arena_new();
    if (d->arena == NULL)
        abort(); /* fixed size: out of memory aborts, as GMP does (policy: num/status.h) */
    ul_cert_values p, cl, st;
    ul_status s = ul_cert_read_object(c, "parameters", PARAMS, N_PARAMS, &p, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "claim", CLAIM, N_CLAIM, &cl, err, errlen);
    if (s == UL_OK)
        s = ul_cert_read_object(c, "stated", NULL, 0, &st, err, errlen);
    if (s != UL_OK)
        return s;
    const ul_cert_value *ph = ul_cert_values_get(&p, "phases");
    bool any_flat = ul_cert_values_get(&p, "noise_multiplier")->present ||
                    ul_cert_values_get(&p, "sample_rate")->present ||
                    ul_cert_values_get(&p, "steps")->present;
    if (ph->present && any_flat)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: give either phases or noise_multiplier/sample_rate/steps, not both",
                       ph->path);
    s = ph->present ? read_phases(d, ph, err, errlen) : read_flat(d, &p, need_all, err, errlen);
    if (s != UL_OK)
        return s;
    d->scale = ul_audit_field_text(&p, "noise_scale");
    apply_scale(d);
    d->run.sensitivity = ul_audit_field_text(&p, "sensitivity");
    d->sampling = ul_audit_field_text(&p, "sampling");
    const char *adj = ul_audit_field_text(&p, "adjacency");
    d->adjacency_given = adj != NULL;
    d->run.adjacency =
        adj != NULL && strcmp(adj, "replace") == 0 ? UL_DPSGD_REPLACE : UL_DPSGD_ADD_REMOVE;
    d->eps = ul_cert_values_get(&cl, "eps")->text;
    d->delta = ul_cert_values_get(&cl, "delta")->text;
    bool complete = d->ph[0].sigma != NULL && d->ph[0].steps > 0;
    return need_all || complete ? check_run(d, err, errlen) : UL_OK;
}

static void dcert_clear(dcert *d)
{
    for (size_t i = 0; i < d->run.n; i++)
        free(d->scaled[i]);
    ul_field_arena_free(d->arena);
    d->arena = NULL;
}

/* ---- deciding one reading ---------------------------------------------------- */

/* What one adjacency reading gave. */
typedef struct {
    ul_verdict verdict;
    const char *by; /* the accountant that decided */
    char alpha[UL_RENYI_ALPHA_TEXT_LEN];
    bool rdp_done, pld_done;
    ul_num_value eps_rdp;   /* RDP (BBGHS) ε at the claimed δ */
    ul_num_value delta_pld; /* PLD bracket at the claimed ε */
    char pld_note[512];     /* why PLD did not run or was capped (a 256-byte message fits) */
} reading;

static void reading_init(reading *r)
{
    memset(r, 0, sizeof *r);
    r->verdict = UL_VERDICT_INCONCLUSIVE;
    r->by = "";
    ul_num_value_init(&r->eps_rdp, 64);
    ul_num_value_init(&r->delta_pld, 64);
}

static void reading_clear(reading *r)
{
    ul_num_value_clear(&r->eps_rdp);
    ul_num_value_clear(&r->delta_pld);
}

/* One accountant's verdict at working precision *w; *cap: the cap was hit. */
typedef ul_status (*decide_once_fn)(const dcert *d, const ul_dpsgd_run *run,
                                    const ul_num_precision *w, ul_audit_report *rep, reading *r,
                                    bool *cap, char *err, size_t errlen);

/* f with the digits doubled while its enclosure straddles the claim. */
static ul_status raise_until_decided(decide_once_fn f, const dcert *d, const ul_dpsgd_run *run,
                                     const ul_num_precision *want, ul_audit_report *rep, reading *r,
                                     char *err, size_t errlen)
{
    ul_num_precision w = *want;
    for (;;) {
        bool cap = false;
        ul_status st = f(d, run, &w, rep, r, &cap, err, errlen);
        if (st != UL_OK || r->verdict != UL_VERDICT_INCONCLUSIVE || cap || w.digits > 2000)
            return st;
        w.digits *= 2;
    }
}

/* Every q = 1: the exact θ. */
static ul_status gauss_once(const dcert *d, const ul_dpsgd_run *run, const ul_num_precision *w,
                            ul_audit_report *rep, reading *r, bool *cap, char *err, size_t errlen)
{
    ul_num_value dv;
    ul_num_value_init(&dv, 64);
    ul_num_report nr = {0, false};
    ul_status st = ul_dpsgd_gauss_delta(run, d->eps, w, &dv, &nr, err, errlen);
    if (st == UL_OK || st == UL_ECAP) {
        r->verdict = ul_audit_compare(
            rep, "delta", "delta = theta_{e^eps}(r) at the claimed eps: the exact profile", &dv,
            d->delta, true, w->digits);
        r->by = "The exact Gaussian profile";
        *cap = nr.cap_hit;
        st = UL_OK;
    }
    ul_num_value_clear(&dv);
    return st;
}

/* The RDP accountant (BBGHS) at the claimed δ against the claimed ε. */
static ul_status rdp_once(const dcert *d, const ul_dpsgd_run *run, const ul_num_precision *w,
                          ul_audit_report *rep, reading *r, bool *cap, char *err, size_t errlen)
{
    ul_num_report nr = {0, false};
    ul_status st = ul_dpsgd_rdp(run, UL_RDP_TO_EPS, d->delta, UL_RDP_BBGHS, w, &r->eps_rdp,
                                r->alpha, sizeof r->alpha, &nr, err, errlen);
    if (st != UL_OK && st != UL_ECAP)
        return st;
    r->rdp_done = true;
    char label[96];
    snprintf(label, sizeof label, "eps at the claimed delta by RDP (BBGHS, alpha = %s)", r->alpha);
    r->verdict = ul_audit_compare(rep, "eps", label, &r->eps_rdp, d->eps, false, w->digits);
    r->by = "The RDP accountant";
    *cap = nr.cap_hit;
    return UL_OK;
}

/* The PLD bracket at the claimed ε, refined until it lies on one side of the
 * claimed δ (ul_pld_options.decide) or is 1e-4 wide: the work depends on the
 * certificate only, never on the machine's speed. */
static ul_status decide_pld(const dcert *d, const ul_dpsgd_run *run, const ul_num_precision *want,
                            ul_audit_report *rep, reading *r, char *err, size_t errlen)
{
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    ul_pld_report pr;
    char msg[256] = "";
    /* the PLD call takes up to seconds: the thread's progress hook says so
     * (num/progress.h; its rounds report inside it) */
    ul_progress_step(0, "PLD delta(eps) at the claimed eps");
    ul_status st = ul_dpsgd_pld_delta(run, d->eps, 1e-4, d->delta, lo, hi, &pr, msg, sizeof msg);
    if (st == UL_ECAP)
        snprintf(r->pld_note, sizeof r->pld_note, "%s", msg);
    if (st != UL_OK && st != UL_ECAP) {
        snprintf(r->pld_note, sizeof r->pld_note, "The PLD accountant did not run: %s", msg);
        /* a refusal of the engine is reported, not an error of the certificate;
         * the time budget running out (UL_ETIME) stops the audit */
        st = st == UL_EINPUT ? UL_OK : ul_fail(err, errlen, st, "%s", msg);
    } else {
        st = UL_OK;
        r->pld_done = true;
        mpfi_interv_fr(r->delta_pld.enclosure, lo, hi);
        r->delta_pld.is_log = false;
        r->verdict = ul_audit_compare(rep, "delta",
                                      "delta(eps) at the claimed eps by PLD (proven bracket of "
                                      "the exact profile)",
                                      &r->delta_pld, d->delta, true, want->digits);
        r->by = "The PLD accountant";
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return st;
}

/* The numbers ul_audit_compare writes, kept while another accountant or
 * reading is tried. */
typedef struct {
    ul_audit_number recomputed;
    char margin[sizeof((ul_audit_report *)0)->margin];
} decided;

static void decided_save(decided *s, const ul_audit_report *rep)
{
    s->recomputed = rep->recomputed;
    memcpy(s->margin, rep->margin, sizeof s->margin);
}

static void decided_restore(ul_audit_report *rep, const decided *s)
{
    rep->recomputed = s->recomputed;
    memcpy(rep->margin, s->margin, sizeof rep->margin);
}

/* One reading: exact Gaussian, or RDP then PLD. */
static ul_status decide_reading(const dcert *d, ul_dpsgd_adjacency adj,
                                const ul_num_precision *want, ul_audit_report *rep, reading *r,
                                char *err, size_t errlen)
{
    ul_dpsgd_run run = d->run;
    run.adjacency = adj;
    if (ul_dpsgd_full_batch(&run))
        return raise_until_decided(gauss_once, d, &run, want, rep, r, err, errlen);
    ul_status st = raise_until_decided(rdp_once, d, &run, want, rep, r, err, errlen);
    if (st != UL_OK || r->verdict == UL_VERDICT_SUPPORTED)
        return st;
    if (ul_dpsgd_pld_applies(&run)) {
        decided rdp;
        decided_save(&rdp, rep);
        st = decide_pld(d, &run, want, rep, r, err, errlen);
        if (st != UL_OK || !r->pld_done)
            decided_restore(rep, &rdp); /* the RDP numbers stand */
    } else {
        snprintf(r->pld_note, sizeof r->pld_note,
                 "The PLD accountant has no proven pair for replacement with Poisson "
                 "subsampling (pld.h): only the RDP group bound applies");
    }
    if (st == UL_OK && r->verdict == UL_VERDICT_INCONCLUSIVE)
        r->verdict = UL_VERDICT_UNSUPPORTED; /* no accountant reaches it, none refutes it */
    return st;
}

/* ---- the report ------------------------------------------------------------------ */

static const char *adj_name(ul_dpsgd_adjacency a)
{
    return a == UL_DPSGD_REPLACE ? "replace" : "add-remove";
}

/* The Mironov conversion beside BBGHS (also a theorem; never tighter). */
static ul_status report_mironov(const dcert *d, ul_dpsgd_adjacency adj,
                                const ul_num_precision *want, ul_audit_report *rep, char *err,
                                size_t errlen)
{
    ul_dpsgd_run run = d->run;
    run.adjacency = adj;
    ul_num_value v;
    ul_num_value_init(&v, 64);
    ul_num_report nr;
    char alpha[UL_RENYI_ALPHA_TEXT_LEN], label[128];
    ul_status st = ul_dpsgd_rdp(&run, UL_RDP_TO_EPS, d->delta, UL_RDP_MIRONOV, want, &v, alpha,
                                sizeof alpha, &nr, err, errlen);
    if (st == UL_OK || st == UL_ECAP) {
        snprintf(label, sizeof label,
                 "eps at the claimed delta by RDP with Mironov's conversion (alpha = %s)", alpha);
        ul_audit_number_set(&rep->other_variant, "eps_rdp_mironov", label, &v, want->digits);
        st = UL_OK;
    }
    ul_num_value_clear(&v);
    return st;
}

/* ε(δ) at the claimed δ by PLD, added to would_reach. */
static ul_status reach_pld_eps(const dcert *d, ul_dpsgd_adjacency adj, const ul_num_precision *want,
                               ul_audit_report *rep, char *err, size_t errlen)
{
    ul_dpsgd_run run = d->run;
    run.adjacency = adj;
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    ul_pld_report pr;
    char msg[256] = "";
    ul_progress_step(0, "PLD eps(delta) at the claimed delta");
    ul_status st =
        ul_dpsgd_pld_eps(&run, d->delta, 1e-3, NULL, lo, hi, &pr, msg, sizeof msg);
    if (st == UL_OK || st == UL_ECAP) {
        ul_num_value v;
        ul_num_value_init(&v, 64);
        mpfi_interv_fr(v.enclosure, lo, hi);
        ul_audit_number n;
        ul_audit_number_set(&n, "eps_pld",
                            "eps(delta) at the claimed delta by PLD: the run is proven (hi, "
                            "delta)-DP, and not (lo, delta)-DP",
                            &v, want->digits);
        ul_audit_add_reach(rep, &n);
        ul_num_value_clear(&v);
        st = UL_OK;
    } else if (st == UL_ETIME) {
        st = ul_fail(err, errlen, st, "%s", msg);
    } else {
        st = UL_OK; /* reported through delta_pld already */
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return st;
}

/* The noise multiplier (one phase) or the common factor on every phase's
 * noise multiplier (several) that the exact profile (q = 1) or RDP
 * certifies for the claim, added to would_reach; silent when none does. */
static ul_status reach_sigma(const dcert *d, ul_dpsgd_adjacency adj, const ul_num_precision *want,
                             ul_audit_report *rep, char *err, size_t errlen)
{
    ul_dpsgd_run run = d->run;
    run.adjacency = adj;
    ul_dpsgd_phase one = d->ph[0];
    if (run.n == 1) { /* the factor on σ = 1 is the noise multiplier */
        one.sigma = "1";
        run.phases = &one;
    }
    char *text = NULL, msg[256];
    ul_status st = ul_dpsgd_sigma_min(&run, d->eps, d->delta, want->digits < 6 ? want->digits : 6,
                                      want, &text, msg, sizeof msg);
    if (st == UL_OK) {
        ul_audit_number n;
        memset(&n, 0, sizeof n);
        n.key = run.n == 1 ? "noise_multiplier_needed" : "noise_scale_needed";
        snprintf(n.label, sizeof n.label,
                 "a %s the %s certifies for the claim; the PLD accountant may need less "
                 "(ulaudit calibrate)",
                 run.n == 1 ? "noise multiplier"
                            : "common factor on every phase's noise multiplier (as audited)",
                 ul_dpsgd_full_batch(&run) ? "exact Gaussian profile" : "RDP accountant");
        snprintf(n.lo, sizeof n.lo, "%.90s", text);
        snprintf(n.hi, sizeof n.hi, "%.90s", text);
        ul_audit_add_reach(rep, &n);
    }
    free(text);
    return st == UL_ETIME ? ul_fail(err, errlen, st, "%s", msg) : UL_OK;
}

/* What the accountants certify, for a claim not supported. */
static ul_status report_reach(const dcert *d, ul_dpsgd_adjacency adj, const reading *r,
                              const ul_num_precision *want, ul_audit_report *rep, char *err,
                              size_t errlen)
{
    ul_audit_number n;
    ul_status st = reach_sigma(d, adj, want, rep, err, errlen);
    if (st != UL_OK)
        return st;
    if (r->rdp_done) {
        char label[128];
        snprintf(label, sizeof label,
                 "the eps the RDP accountant certifies at the claimed delta (alpha = %s)",
                 r->alpha);
        ul_audit_number_set(&n, "eps_rdp", label, &r->eps_rdp, want->digits);
        ul_audit_add_reach(rep, &n);
    }
    if (!r->pld_done)
        return UL_OK;
    ul_audit_number_set(&n, "delta_pld",
                        "delta(eps) at the claimed eps by PLD: hi is a proven upper bound, lo "
                        "a proven lower bound of the exact profile",
                        &r->delta_pld, want->digits);
    ul_audit_add_reach(rep, &n);
    return reach_pld_eps(d, adj, want, rep, err, errlen);
}

static void explain(const dcert *d, const reading *r, ul_audit_report *rep)
{
    switch (r->verdict) {
    case UL_VERDICT_SUPPORTED:
        ul_audit_explain(rep, "%s certifies the claim: %s.", r->by,
                         r->rdp_done && !r->pld_done
                             ? "its eps at the claimed delta is at most the claimed eps"
                             : "its proven upper bound on delta at the claimed eps is at most "
                               "the claimed delta");
        if (r->pld_done)
            ul_audit_explain(rep,
                             "The RDP accountant alone does not reach it (BBGHS at alpha = %s "
                             "gives a larger eps at the claimed delta).",
                             r->alpha);
        break;
    case UL_VERDICT_REFUTED:
        ul_audit_explain(rep,
                         "%s gives a proven lower bound on the exact privacy profile delta(eps) "
                         "above the claimed delta at the claimed eps %s: the claim is false for "
                         "this run, whatever the accountant.",
                         r->by, d->eps);
        break;
    default:
        ul_audit_explain(rep,
                         "No certified accountant reaches the claim (RDP eps at the claimed "
                         "delta: see would_reach)%s, and none proves it false: the claim is "
                         "not certified.",
                         r->pld_done ? "; the PLD bracket of delta(eps) lies on both sides of "
                                       "or above the claimed delta without a proven excess"
                                     : "");
        if (r->pld_note[0] != '\0')
            ul_audit_explain(rep, "%s%s.", r->pld_done ? "PLD: " : "", r->pld_note);
        break;
    }
}

/* Both readings when adjacency is omitted: the worse verdict stands. */
static ul_status decide_all(const dcert *d, const ul_num_precision *want, ul_audit_report *rep,
                            reading *r, ul_dpsgd_adjacency *decisive, char *err, size_t errlen)
{
    *decisive = d->run.adjacency;
    ul_status st = decide_reading(d, d->run.adjacency, want, rep, r, err, errlen);
    if (st != UL_OK || d->adjacency_given)
        return st;
    if (r->verdict != UL_VERDICT_SUPPORTED) {
        /* replace is never more favourable: 2r when q = 1, else the group
         * bound, at least the add/remove RDP bound, and no PLD */
        ul_audit_explain(rep,
                         "Adjacency is not stated: the claim must hold for add-remove and for "
                         "replace neighbours (the reading least favourable to it); add-remove "
                         "already gives %s, and replace can only give the same or worse.",
                         ul_verdict_name(r->verdict));
        return st;
    }
    reading other;
    reading_init(&other);
    decided first;
    decided_save(&first, rep);
    st = decide_reading(d, UL_DPSGD_REPLACE, want, rep, &other, err, errlen);
    ul_audit_explain(rep,
                     "Adjacency is not stated: the claim must hold for add-remove and for "
                     "replace neighbours (the reading least favourable to it); add-remove "
                     "gives %s, replace %s.",
                     ul_verdict_name(r->verdict), ul_verdict_name(other.verdict));
    if (st == UL_OK && ul_audit_worse(r->verdict, other.verdict) != r->verdict) {
        reading_clear(r);
        *r = other;
        *decisive = UL_DPSGD_REPLACE;
    } else {
        decided_restore(rep, &first);
        reading_clear(&other);
    }
    return st;
}

/* The accountants' hypothesis: Poisson subsampling.  Shuffled or
 * fixed-size batches have another privacy profile, which can be far worse
 * than the Poisson one at the same rate (Chua, Ghazi, Kamath, Kumar,
 * Manurangsi, Sinha, Zhang 2024, "How Private are DP-SGD
 * Implementations?", ICML 2024: shuffled batches; Lebeda, Regehr, Kamath,
 * Steinke 2024, "Avoiding Pitfalls for Privacy Accounting of Subsampled
 * Mechanisms under Composition": sampling without replacement).  Stated
 * otherwise: invalid. */
static bool sampling_holds(const dcert *d, ul_audit_report *rep)
{
    if (d->sampling == NULL)
        return true;
    bool poisson = strcmp(d->sampling, "poisson") == 0;
    ul_pre_add(&rep->pre, "sampling_poisson",
               "each step samples every record independently with probability sample_rate "
               "(Poisson subsampling: the hypothesis of the RDP and PLD accountants, Mironov, "
               "Talwar, Zhang 2019 s3.3)",
               poisson ? UL_PRE_HOLDS : UL_PRE_FAILS);
    if (poisson)
        return true;
    rep->verdict = UL_VERDICT_INVALID;
    ul_audit_explain(rep,
                     "The certificate states sampling \"%s\", but every accountant here (and "
                     "the Opacus, dp_accounting and TF Privacy accountants a claim like this "
                     "usually comes from) bounds Poisson subsampling only; such batches have "
                     "another, possibly much larger, privacy loss at the same rate (Chua et al. "
                     "2024, ICML). No verdict on the claim follows from these accountants.",
                     d->sampling);
    return false;
}

static ul_status dpsgd_audit(const ul_cert *c, const ul_num_precision *want, ul_audit_report *rep,
                             char *err, size_t errlen)
{
    ul_audit_report_init(rep);
    dcert d;
    ul_status st = dcert_read(c, true, &d, err, errlen);
    if (st != UL_OK) {
        dcert_clear(&d);
        return st;
    }
    snprintf(rep->claim, sizeof rep->claim, "(eps, delta) = (%s, %s) for %zu DP-SGD phase%s", d.eps,
             d.delta, d.run.n, d.run.n == 1 ? "" : "s");
    if (!d.adjacency_given)
        ul_audit_note_omitted(rep, "parameters",
                              ul_audit_spec_named(PARAMS, N_PARAMS, "adjacency"));
    snprintf(rep->theorem, sizeof rep->theorem,
             "the privacy profile of composed Poisson-subsampled Gaussian steps: RDP "
             "(Mironov-Talwar-Zhang 2019 s3.3, composition Mironov 2017 Prop. 1, BBGHS "
             "conversion Balle et al. 2020 Thm 21 at the best real alpha), PLD (pld.h: a "
             "proven upper and lower bound of delta(eps)), exact theta_{e^eps}(r) when every "
             "sample rate is 1 (Dong-Roth-Su 2019 Cor. 3.3); adjacency %s",
             d.adjacency_given ? adj_name(d.run.adjacency) : "not stated (both)");
    if (!sampling_holds(&d, rep)) {
        dcert_clear(&d);
        return UL_OK;
    }
    reading r;
    reading_init(&r);
    ul_dpsgd_adjacency decisive;
    int task = ul_progress_begin("audit", -1);
    st = decide_all(&d, want, rep, &r, &decisive, err, errlen);
    if (st == UL_OK && !ul_dpsgd_full_batch(&d.run))
        st = report_mironov(&d, decisive, want, rep, err, errlen);
    if (st == UL_OK) {
        rep->verdict = r.verdict;
        if (r.verdict != UL_VERDICT_SUPPORTED)
            st = report_reach(&d, decisive, &r, want, rep, err, errlen);
        explain(&d, &r, rep);
    }
    ul_progress_end(task);
    reading_clear(&r);
    dcert_clear(&d);
    return st;
}

/* ---- calibration: Opacus's get_noise_multiplier, certified ------------------ */

/* Whether calibrate fills in noise_multiplier (the one-phase form without
 * noise_scale) rather than noise_scale. */
static bool fills_sigma(const dcert *d)
{
    return d->flat && d->scale == NULL;
}

/* The field calibrate fills in: the noise multiplier (one-phase form) or
 * the common factor (phases). */
static const char *scale_field(const dcert *d)
{
    return fills_sigma(d) ? "noise_multiplier" : "noise_scale";
}

/* The run calibrate works on: the phases as given (noise_scale not
 * applied), the one-phase form's noise multiplier set to 1 (so that the
 * common factor is the noise multiplier itself). */
static ul_dpsgd_run base_run(const dcert *d, ul_dpsgd_phase *ph)
{
    ul_dpsgd_run run = d->run;
    for (size_t i = 0; i < run.n; i++) {
        ph[i] = d->ph[i];
        ph[i].sigma = fills_sigma(d) ? "1" : d->base_sigma[i];
    }
    run.phases = ph;
    return run;
}

/* The smallest factor for each reading (both when adjacency is omitted),
 * the larger kept; digits capped at 12, the resolution of the search in
 * doubles. */
static ul_status calibrate_scale(const dcert *d, const ul_num_precision *want, char **text,
                                 char *err, size_t errlen)
{
    *text = NULL;
    int digits = want->digits < 12 ? want->digits : 12;
    ul_dpsgd_phase ph[UL_DPSGD_MAX_PHASES];
    ul_status st = UL_OK;
    for (int k = 0; k < 2 && st == UL_OK; k++) {
        if (k == 1 && d->adjacency_given)
            break;
        ul_dpsgd_run run = base_run(d, ph);
        run.adjacency = k == 0 ? d->run.adjacency : UL_DPSGD_REPLACE;
        char *s = NULL;
        st = ul_dpsgd_sigma_min(&run, d->eps, d->delta, digits, want, &s, err, errlen);
        if (st == UL_OK && (*text == NULL || ul_audit_dcmp(s, *text) > 0)) {
            free(*text);
            *text = s;
        } else {
            free(s);
        }
    }
    if (st != UL_OK) {
        free(*text);
        *text = NULL;
    }
    if (st == UL_ENOROOT) { /* name the field this certificate would receive */
        char msg[512];
        const char *colon = strchr(err, ':');
        snprintf(msg, sizeof msg, "%s", colon != NULL ? colon + 2 : err);
        st = ul_fail(err, errlen, UL_EINPUT, "$.parameters.%s: %s", scale_field(d), msg);
    }
    return st;
}

/* The completed certificate at the smaller factor the PLD accountant
 * certifies (add/remove, some q < 1), when it audits as supported; else
 * NULL (the RDP or Gaussian value stands).  6 significant digits: the PLD
 * search resolves the factor to about 1e-5. */
static char *calibrate_pld(const ul_cert *c, const dcert *d, const ul_num_precision *want,
                           const char *rdp_scale)
{
    if (!d->adjacency_given || !ul_dpsgd_pld_applies(&d->run) || ul_dpsgd_full_batch(&d->run))
        return NULL;
    char *text = NULL, *out = NULL, err[256], why[512];
    int digits = want->digits < 6 ? want->digits : 6;
    ul_dpsgd_phase ph[UL_DPSGD_MAX_PHASES];
    ul_dpsgd_run run = base_run(d, ph);
    ul_status st = ul_dpsgd_sigma_min_pld(&run, d->eps, d->delta, strtod(rdp_scale, NULL), digits,
                                          &text, err, sizeof err);
    if (st == UL_OK && ul_audit_dcmp(text, rdp_scale) < 0)
        st = ul_cert_to_json_with(c, "parameters", scale_field(d), text, &out, err, sizeof err);
    if (out != NULL && !ul_audit_recheck_supported(out, dpsgd_audit, want, why, sizeof why)) {
        free(out);
        out = NULL;
    }
    free(text);
    return out;
}

/* The most steps of the one-phase form, for each reading (both when
 * adjacency is omitted), the smaller kept, as decimal text. */
static ul_status calibrate_steps(const dcert *d, const ul_num_precision *want, char *text,
                                 size_t len, char *err, size_t errlen)
{
    unsigned long best = 0;
    ul_status st = UL_OK;
    for (int k = 0; k < 2 && st == UL_OK; k++) {
        if (k == 1 && d->adjacency_given)
            break;
        ul_dpsgd_run run = d->run;
        run.adjacency = k == 0 ? d->run.adjacency : UL_DPSGD_REPLACE;
        ul_dpsgd_phase one = d->ph[0];
        one.steps = 1; /* ignored by ul_dpsgd_steps_max; keeps the run checkable */
        run.phases = &one;
        unsigned long t = 0;
        bool by_pld = false;
        st = ul_dpsgd_steps_max(&run, 0, d->eps, d->delta, want, &t, &by_pld, err, errlen);
        if (st == UL_OK && (k == 0 || t < best))
            best = t;
    }
    snprintf(text, len, "%lu", best);
    if (st != UL_ENOROOT)
        return st;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", err);
    return ul_fail(err, errlen, UL_EINPUT, "$.parameters.%s", msg);
}

/* The certificate completed with text in field, re-audited: it must be
 * supported (else UL_EINPUT naming the field). */
static ul_status complete_checked(const ul_cert *c, const char *field, const char *text,
                                  const ul_num_precision *want, char **out, char *err,
                                  size_t errlen)
{
    ul_status st = ul_cert_to_json_with(c, "parameters", field, text, out, err, errlen);
    char why[512];
    if (st == UL_OK && !ul_audit_recheck_supported(*out, dpsgd_audit, want, why, sizeof why)) {
        st = ul_fail(err, errlen, UL_EINPUT,
                     "$.parameters.%s: the calibrated value %s did not audit as supported (%s)",
                     field, text, why);
        free(*out);
        *out = NULL;
    }
    return st;
}

static ul_status dpsgd_calibrate(const ul_cert *c, const ul_num_precision *want, char **completed,
                                 char *err, size_t errlen)
{
    *completed = NULL;
    dcert d;
    ul_status st = dcert_read(c, false, &d, err, errlen);
    char *text = NULL, *out = NULL, steps[32];
    if (st == UL_OK && d.flat && d.scale != NULL && d.ph[0].sigma == NULL)
        st = ul_fail(err, errlen, UL_EINPUT,
                     "$.parameters.noise_scale: calibrate fills in noise_scale only for given "
                     "noise multipliers; leave it out to have noise_multiplier filled in");
    if (st == UL_OK && d.flat && d.ph[0].steps == 0) {
        st = calibrate_steps(&d, want, steps, sizeof steps, err, errlen);
        if (st == UL_OK)
            st = complete_checked(c, "steps", steps, want, &out, err, errlen);
    } else if (st == UL_OK) {
        st = calibrate_scale(&d, want, &text, err, errlen);
        if (st == UL_OK)
            out = calibrate_pld(c, &d, want, text); /* already re-audited */
        if (st == UL_OK && out == NULL)
            st = complete_checked(c, scale_field(&d), text, want, &out, err, errlen);
    }
    *completed = out;
    free(text);
    dcert_clear(&d);
    return st;
}

const ul_audit_method ul_audit_dp_sgd = {"dp-sgd", dpsgd_audit, dpsgd_calibrate, PARAMS, N_PARAMS};
