/* tests/test_sweep_a.c — the boundary sweep (issue 11) for gaussian-mechanism,
 * output-perturbation, rdp-curve, noisy-gd and dp-sgd-group.
 *
 * Each case draws parameters from a fixed-seed generator, computes the bound
 * with the independent references of tests/sweep_oracle_a.c (MPFR from the
 * papers' formulas; nothing from src/), and audits two certificates through
 * the library at default settings (17 digits, default precision cap):
 * the claim at bound·(1 + 1e-9) on the safe side must be "supported", the
 * claim at bound·(1 − 1e-9) "refuted" where the guarantee is an exact
 * privacy profile (the Gaussian mechanism's θ and its Rényi divergence,
 * output perturbation) and "unsupported" where it is a bound (RDP
 * conversions, Noisy-GD, DP-SGD), as each handler's header says.  Every
 * audit must return UL_OK; "inconclusive" is a failure.
 *
 * A few cases per test in `make test`; ULAUDIT_SOAK=1 runs SOAK_CASES per
 * test and prints, per test, the cases, the passes and the slowest audit
 * (wall clock and CPU time, printed only, never asserted).
 * ULAUDIT_SWEEP_REL=x moves the claims to bound·(1 ± x) (default 1e-9).  A
 * failing case prints the certificate's JSON, the oracle's bound and the
 * handler's enclosure.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "audit/audit.h"
#include "num/encl.h"
#include "sweep_oracle_a.h"

#define SOAK_CASES 200
#define MAX_DRAWS 50 /* draws per accepted case before giving up */

static void teardown(void)
{
    ul_num_shutdown();
}

static bool soak(void)
{
    const char *s = getenv("ULAUDIT_SOAK");
    return s != NULL && strcmp(s, "1") == 0;
}

static int n_cases(int small)
{
    return soak() ? SOAK_CASES : small;
}

/* ---- auditing one pair ------------------------------------------------------- */

typedef struct {
    const char *name;
    int cases, passed;
    double slowest, total, slowest_cpu, total_cpu; /* wall clock and CPU time (s) */
    char slowest_cert[2048];
} tally;

static double now(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Audits json at default settings; true when the status is UL_OK and the
 * verdict is `want`.  oracle: the bound in words, for the message. */
static bool audit_expect(tally *t, const char *json, ul_verdict want, const char *oracle)
{
    static const ul_num_precision WANT = {17, 0, 0};
    ul_cert *c = NULL;
    char err[512] = "";
    ul_status st = ul_cert_load_buffer(json, strlen(json), &c, err, sizeof err);
    cr_expect_eq(st, UL_OK, "%s: the certificate does not load: %s\n%s", t->name, err, json);
    if (st != UL_OK)
        return false;
    ul_audit_report rep;
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    st = ul_audit(c, &WANT, &rep, err, sizeof err);
    double dt = now(CLOCK_MONOTONIC) - t0, dc = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    ul_cert_free(c);
    t->total += dt;
    t->total_cpu += dc;
    if (dt > t->slowest)
        t->slowest = dt;
    if (dc > t->slowest_cpu) {
        t->slowest_cpu = dc;
        snprintf(t->slowest_cert, sizeof t->slowest_cert, "%s", json);
    }
    cr_expect_eq(st, UL_OK, "%s: audit status %d (%s)\n%s", t->name, (int)st, err, json);
    if (st != UL_OK)
        return false;
    bool ok = rep.verdict == want;
    cr_expect(ok,
              "%s: verdict %s, expected %s\n  oracle:  %s\n  handler: %s in [%s, %s] (%s)\n"
              "  certificate: %s",
              t->name, ul_verdict_name(rep.verdict), ul_verdict_name(want), oracle,
              rep.recomputed.key != NULL ? rep.recomputed.key : "?", rep.recomputed.lo,
              rep.recomputed.hi, rep.margin, json);
    return ok;
}

/* One case: the certificate claiming bound·(1 + 1e-9) must be supported,
 * the one claiming bound·(1 − 1e-9) must give `below`. */
static void check_pair(tally *t, const char *cert_hi, const char *cert_lo, ul_verdict below,
                       const char *oracle)
{
    bool ok1 = audit_expect(t, cert_hi, UL_VERDICT_SUPPORTED, oracle);
    bool ok2 = audit_expect(t, cert_lo, below, oracle);
    t->cases++;
    t->passed += ok1 && ok2;
}

static void report(const tally *t)
{
    if (!soak())
        return;
    fprintf(stderr,
            "sweep %s: %d cases, %d passed (both verdicts); slowest audit %.3f s wall "
            "(%.3f s CPU); all %d audits %.1f s wall (%.1f s CPU)\n",
            t->name, t->cases, t->passed, t->slowest, t->slowest_cpu, 2 * t->cases, t->total,
            t->total_cpu);
    fprintf(stderr, "  slowest certificate (CPU): %s\n", t->slowest_cert);
}

/* The relative distance of the two claims from the bound: 1e-9, or
 * ULAUDIT_SWEEP_REL when set (to explore closer, e.g. 1e-12). */
static double rel(void)
{
    const char *s = getenv("ULAUDIT_SWEEP_REL");
    double r = s != NULL ? strtod(s, NULL) : 0;
    return r > 0 && r < 1e-3 ? r : 1e-9;
}

/* hi = x·(1 + rel), lo = x·(1 − rel) as decimal text (both of size len). */
static void claims(char *hi, char *lo, size_t len, mpfr_srcptr x)
{
    swa_dec_scaled(hi, len, x, rel());
    swa_dec_scaled(lo, len, x, -rel());
}

/* The conversion field of draw cv: 0 absent (the default, bbghs), 1 bbghs,
 * 2 mironov. */
static const char *conv_json(int cv)
{
    static const char *const J[] = {"", ", \"conversion\": \"bbghs\"",
                                    ", \"conversion\": \"mironov\""};
    return J[cv];
}

#define CERT_HEAD "{\"format\": \"ulaudit-certificate/1\", \"method\": \""

/* ==== gaussian-mechanism ================================================== */

#define MAX_RELEASES 20

/* One Gaussian case as text: the releases (for the oracle) and the
 * parameters' JSON. */
typedef struct {
    char sens[MAX_RELEASES][32], sigma[MAX_RELEASES][32];
    const char *sp[MAX_RELEASES], *gp[MAX_RELEASES];
    swa_gauss g;
    char json[1536];
} gauss_case;

/* "name": "v" or "name": ["v1", …] */
static size_t json_values(char *buf, size_t len, const char *name, const char *const *v, size_t n)
{
    size_t o = (size_t)snprintf(buf, len, "\"%s\": %s", name, n > 1 ? "[" : "");
    for (size_t i = 0; i < n && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s\"%s\"", i ? ", " : "", v[i]);
    if (o < len)
        o += (size_t)snprintf(buf + o, len - o, "%s", n > 1 ? "]" : "");
    return o;
}

/* Draws the releases: one (T = 1), T composed, k with a list of σ_i, or k
 * with lists of Δ_i and σ_i (issue 11: heterogeneous compositions), the σ's
 * scaled so that r is log-uniform in [0.05, 20].  Output perturbation: one
 * release, Δ = 2·C0 (docs/neural-unlearning.md, "Output perturbation"). */
static void draw_gauss(swa_rng *rng, bool op, gauss_case *c)
{
    int form = op ? 0 : (int)swa_uniform(rng, 0, 4);
    size_t k = form >= 2 ? swa_log_int(rng, 2, MAX_RELEASES) : 1;
    size_t ns = form == 3 ? k : 1;
    double d[MAX_RELEASES], s[MAX_RELEASES], r2 = 0, r = swa_log_uniform(rng, 0.05, 20);
    double s0 = swa_log_uniform(rng, 0.1, 10);
    unsigned long T = form == 1 ? swa_log_int(rng, 2, 1000) : 1;
    for (size_t i = 0; i < k; i++) {
        swa_dec(c->sens[i], sizeof c->sens[i], swa_log_uniform(rng, 0.1, 10), 4);
        d[i] = (op ? 2 : 1) * strtod(c->sens[i < ns ? i : 0], NULL);
        s[i] = s0 * swa_uniform(rng, 0.5, 2);
        r2 += d[i] * d[i] / (s[i] * s[i]);
    }
    double scale = sqrt(r2 * (double)T) / r;
    for (size_t i = 0; i < k; i++) {
        swa_dec(c->sigma[i], sizeof c->sigma[i], s[i] * scale, 6);
        c->sp[i] = c->sens[i], c->gp[i] = c->sigma[i];
    }
    c->g = (swa_gauss){c->sp, ns, c->gp, k, T};
    size_t o = json_values(c->json, sizeof c->json, op ? "c0" : "sensitivity", c->sp, ns);
    o += (size_t)snprintf(c->json + o, sizeof c->json - o, ", ");
    o += json_values(c->json + o, sizeof c->json - o, "sigma", c->gp, k);
    /* one σ: T stated, 1 included (an omitted count is any count,
     * ulaudit-certificate(5) OMITTED FIELDS); the oracle composes T */
    if (!op && k == 1)
        snprintf(c->json + o, sizeof c->json - o, ", \"compositions\": %lu", T);
    if (op) { /* the oracle's sensitivity 2·C0, exact: C0 has 4 digits */
        swa_dec(c->sens[1], sizeof c->sens[1], 2 * strtod(c->sens[0], NULL), 5);
        c->sp[0] = c->sens[1];
    }
}

/* δ at the claimed ε: θ_{e^ε}(r), exact (refuted below), for
 * gaussian-mechanism or output-perturbation (r = 2·C0/σ). */
static void sweep_theta(bool op, const char *name, uint64_t seed)
{
    tally t = {.name = name};
    swa_rng rng;
    swa_rng_seed(&rng, seed);
    mpfr_t ld;
    mpfr_init2(ld, SWA_BITS);
    int want = n_cases(3);
    for (int draws = 0; t.cases < want && draws < MAX_DRAWS * want; draws++) {
        char eps[32], hi[64], lo[64], oracle[160], a[2048], b[2048];
        gauss_case c;
        draw_gauss(&rng, op, &c);
        swa_dec(eps, sizeof eps, swa_log_uniform(&rng, 0.01, 30), 5);
        swa_gauss_log_delta(ld, eps, &c.g);
        if (mpfr_cmp_d(ld, log(0.5)) > 0)
            continue; /* δ near 1: δ·(1 + 1e-9) could leave [0, 1] */
        mpfr_exp(ld, ld, MPFR_RNDN);
        claims(hi, lo, sizeof hi, ld);
        mpfr_snprintf(oracle, sizeof oracle, "delta = %.20Re (tests/oracle.c theta)", ld);
        const char *f = CERT_HEAD "%s\", \"parameters\": {%s}, \"claim\": {\"eps\": \"%s\", "
                                  "\"delta\": \"%s\"}}";
        const char *m = op ? "output-perturbation" : "gaussian-mechanism";
        snprintf(a, sizeof a, f, m, c.json, eps, hi);
        snprintf(b, sizeof b, f, m, c.json, eps, lo);
        check_pair(&t, a, b, UL_VERDICT_REFUTED, oracle);
    }
    mpfr_clear(ld);
    report(&t);
    cr_expect_eq(t.cases, want, "only %d cases drawn", t.cases);
}

Test(sweep_gaussian_mechanism, delta_at_eps, .fini = teardown, .timeout = 3600)
{
    sweep_theta(false, "gaussian-mechanism delta", 0x6A0551A1ull);
}

/* (α, ρ)-RDP claims: ρ = α·r²/2, exact (refuted below). */
Test(sweep_gaussian_mechanism, renyi, .fini = teardown, .timeout = 3600)
{
    tally t = {.name = "gaussian-mechanism renyi"};
    swa_rng rng;
    swa_rng_seed(&rng, 0x6A0551A2ull);
    mpfr_t rho;
    mpfr_init2(rho, SWA_BITS);
    int want = n_cases(3);
    for (int i = 0; i < want; i++) {
        char alpha[32], hi[64], lo[64], oracle[160], a[2048], b[2048];
        gauss_case c;
        draw_gauss(&rng, false, &c);
        swa_dec(alpha, sizeof alpha, swa_log_uniform(&rng, 1.01, 256), 6);
        swa_gauss_renyi(rho, alpha, &c.g);
        claims(hi, lo, sizeof hi, rho);
        mpfr_snprintf(oracle, sizeof oracle, "renyi_value = %.20Re (alpha*r^2/2)", rho);
        const char *f = CERT_HEAD "gaussian-mechanism\", \"parameters\": {%s}, \"claim\": "
                                  "{\"renyi_order\": \"%s\", \"renyi_value\": \"%s\"}}";
        snprintf(a, sizeof a, f, c.json, alpha, hi);
        snprintf(b, sizeof b, f, c.json, alpha, lo);
        check_pair(&t, a, b, UL_VERDICT_REFUTED, oracle);
    }
    mpfr_clear(rho);
    report(&t);
}

/* ==== output-perturbation ================================================= */

Test(sweep_output_perturbation, delta_at_eps, .fini = teardown, .timeout = 3600)
{
    sweep_theta(true, "output-perturbation delta", 0x0B7B0001ull);
}

/* ==== rdp-curve =========================================================== */

/* ε at the claimed δ from 1–8 listed points, both conversions and the
 * default (bbghs); a bound (unsupported below). */
Test(sweep_rdp_curve, eps_at_delta, .fini = teardown, .timeout = 3600)
{
    tally t = {.name = "rdp-curve eps"};
    swa_rng rng;
    swa_rng_seed(&rng, 0x0D1C0001ull);
    mpfr_t e;
    mpfr_init2(e, SWA_BITS);
    int want = n_cases(3);
    for (int draws = 0; t.cases < want && draws < MAX_DRAWS * want; draws++) {
        char al[8][32], rd[8][32], delta[32], hi[64], lo[64], oracle[160];
        const char *ap[8], *rp[8];
        size_t n = swa_log_int(&rng, 1, 8);
        double c = swa_log_uniform(&rng, 1e-4, 1);
        char la[512] = "", lr[512] = "";
        for (size_t i = 0; i < n; i++) {
            double a = swa_log_uniform(&rng, 1.01, 1000);
            swa_dec(al[i], sizeof al[i], a, 6);
            swa_dec(rd[i], sizeof rd[i], a * c * swa_uniform(&rng, 1, 1.5), 6);
            ap[i] = al[i], rp[i] = rd[i];
            size_t o1 = strlen(la), o2 = strlen(lr);
            snprintf(la + o1, sizeof la - o1, "%s\"%s\"", i ? ", " : "", al[i]);
            snprintf(lr + o2, sizeof lr - o2, "%s\"%s\"", i ? ", " : "", rd[i]);
        }
        swa_dec(delta, sizeof delta, swa_log_uniform(&rng, 1e-12, 1e-3), 3);
        int cv = (int)swa_uniform(&rng, 0, 3); /* 0: default, 1: bbghs, 2: mironov */
        swa_rdp_points_eps(e, ap, rp, n, delta, cv == 2 ? SWA_MIRONOV : SWA_BBGHS);
        if (mpfr_cmp_d(e, 1e-3) < 0)
            continue; /* clamped or shortcut to 0: no boundary to sweep */
        claims(hi, lo, sizeof hi, e);
        mpfr_snprintf(oracle, sizeof oracle, "eps = %.20Re (min over the points)", e);
        const char *conv = conv_json(cv);
        char a[2048], b[2048];
        const char *f = CERT_HEAD "rdp-curve\", \"parameters\": {\"alphas\": [%s], \"rdps\": "
                                  "[%s]%s}, \"claim\": {\"eps\": \"%s\", \"delta\": \"%s\"}}";
        snprintf(a, sizeof a, f, la, lr, conv, hi, delta);
        snprintf(b, sizeof b, f, la, lr, conv, lo, delta);
        check_pair(&t, a, b, UL_VERDICT_UNSUPPORTED, oracle);
    }
    mpfr_clear(e);
    report(&t);
    cr_expect_eq(t.cases, want, "only %d cases drawn", t.cases);
}

/* ==== noisy-gd ============================================================= */

/* The parameters of one Noisy-GD case, as decimal text. */
typedef struct {
    char L[32], lambda[64], beta[64], sigma[64], eta[64], n[32], K[32], init[128];
    char eps_dp[32], q[32];
} ngd_text;

/* G.15's λ and ηλ are drawn so that η and the prescribed initial variance
 * σ²/(λ(1 − ηλ/2)) are exact decimals: λ = m·10^-e with m ∈ {1, 2, 4, 5, 8},
 * 1 − ηλ/2 ∈ {125/128, 4/5, 16/25, 5/8}, and σ a multiple of 1/1000. */
static void draw_g15_rates(swa_rng *rng, ngd_text *x)
{
    static const char *const M[] = {"1", "2", "4", "5", "8"};
    static const char *const EL[] = {"3/64", "2/5", "18/25", "3/4"};
    mpq_t lam, el, eta, sig, t;
    mpq_inits(lam, el, eta, sig, t, (mpq_ptr)0);
    long ms = lround(swa_log_uniform(rng, 0.01, 10) * 1000);
    mpq_set_ui(sig, (unsigned long)(ms < 1 ? 1 : ms), 1000);
    mpq_canonicalize(sig);
    swa_dec_exact(x->sigma, sizeof x->sigma, sig);
    mpq_set_str(lam, M[(int)swa_uniform(rng, 0, 5)], 10);
    mpq_set_ui(t, 1, 10);
    for (int e = (int)swa_uniform(rng, 0, 4); e > 0; e--)
        mpq_mul(lam, lam, t);
    mpq_set_str(el, EL[(int)swa_uniform(rng, 0, 4)], 10);
    mpq_canonicalize(el);
    mpq_div(eta, el, lam);
    swa_dec_exact(x->lambda, sizeof x->lambda, lam);
    swa_dec_exact(x->eta, sizeof x->eta, eta);
    /* β < 1/η − λ, i.e. η < 1/(λ + β) (Thm G.15) */
    double room = 1 / mpq_get_d(eta) - mpq_get_d(lam);
    swa_dec(x->beta, sizeof x->beta, swa_uniform(rng, 0.05, 0.9) * room, 3);
    /* init_var = σ²/(λ(1 − ηλ/2)) (Lemma G.14, Thm G.15) */
    mpq_mul(t, sig, sig);
    mpq_div(t, t, lam);
    mpq_div_2exp(el, el, 1);
    mpq_set_ui(eta, 1, 1);
    mpq_sub(el, eta, el);
    mpq_div(t, t, el);
    swa_dec_exact(x->init, sizeof x->init, t);
    mpq_clears(lam, el, eta, sig, t, (mpq_ptr)0);
}

/* λ, β drawn, η < 1/(λ + β) (G.9's condition) when eta is not NULL. */
static void draw_convex(swa_rng *rng, ngd_text *x, bool eta)
{
    swa_dec(x->lambda, sizeof x->lambda, swa_log_uniform(rng, 1e-3, 1), 3);
    swa_dec(x->beta, sizeof x->beta, swa_log_uniform(rng, 0.01, 10), 3);
    double room = 1 / (strtod(x->lambda, NULL) + strtod(x->beta, NULL));
    if (eta)
        swa_dec(x->eta, sizeof x->eta, swa_uniform(rng, 0.05, 0.95) * room, 3);
}

/* The decimal text s ("1.23e-05", "0.5", "-2") as an exact rational. */
static void dec_q(mpq_ptr out, const char *s)
{
    char digits[128];
    size_t nd = 0;
    long frac = 0;
    bool neg = *s == '-', dot = false;
    const char *c = s + (*s == '-' || *s == '+');
    for (; *c != '\0' && *c != 'e' && *c != 'E' && nd + 1 < sizeof digits; c++) {
        if (*c == '.')
            dot = true;
        else
            digits[nd++] = *c, frac += dot;
    }
    digits[nd] = '\0';
    long ex = (*c != '\0' ? strtol(c + 1, NULL, 10) : 0) - frac;
    mpz_t num, pw;
    mpz_init_set_str(num, digits, 10);
    mpz_init(pw);
    mpz_ui_pow_ui(pw, 10, (unsigned long)labs(ex));
    if (ex >= 0)
        mpz_mul(num, num, pw), mpz_set_ui(pw, 1);
    mpq_set_num(out, num);
    mpq_set_den(out, pw);
    mpq_canonicalize(out);
    if (neg)
        mpq_neg(out, out);
    mpz_clears(num, pw, (mpz_ptr)0);
}

/* The least m·10^e ≥ s, m ∈ {1, 1.25, 1.6, 2, 2.5, 3.2, 4, 5, 6.4, 8}
 * (each 2^a·5^b, so 1/(m·10^e) is a finite decimal; consecutive ones are
 * at most 28% apart). */
static void nice_above(mpq_ptr u, mpq_srcptr s)
{
    static const char *const M[] = {"1", "5/4", "8/5", "2", "5/2", "16/5", "4", "5", "32/5", "8"};
    mpq_t m, p;
    mpq_inits(m, p, (mpq_ptr)0);
    int e = (int)floor(log10(mpq_get_d(s))) - 1;
    mpq_set_ui(p, 1, 1);
    for (int i = 0; i < (e < 0 ? -e : e); i++)
        mpq_mul_2exp(p, p, 1), mpq_set_ui(m, 5, 1), mpq_mul(p, p, m);
    if (e < 0)
        mpq_inv(p, p); /* p = 10^e */
    for (bool found = false; !found; mpq_set_ui(m, 10, 1), mpq_mul(p, p, m))
        for (size_t i = 0; i < sizeof M / sizeof M[0] && !found; i++) {
            mpq_set_str(m, M[i], 10);
            mpq_mul(u, m, p);
            found = mpq_cmp(u, s) >= 0;
        }
    mpq_clears(m, p, (mpq_ptr)0);
}

/* Thm 5.1's facts, stated exactly (sigma, eta and init_var omitted are
 * invalid, ulaudit-certificate(5) OMITTED FIELDS).  β is raised until
 * u = λ + β is nice_above's, so the prescribed η = 1/(2u) is a finite
 * decimal.  init_var = σ²·r, r = 1/(λ(1 − ηλ/2)) (Lemma G.14), must be one
 * too: σ is the least multiple of g/10^s (g: r's denominator without its
 * 2s and 5s, s: ~4 digits) at or above the prescribed √(4qL²/(λ ε_dp n²))
 * (Thm 5.1).  The oracle (t51_slope) reads λ, β, ε_dp, q: the theorem's
 * bound is at its prescriptions, which a larger σ only satisfies. */
static void t51_facts(ngd_text *x)
{
    mpq_t lam, u, t, r, s2, sig;
    mpq_inits(lam, u, t, r, s2, sig, (mpq_ptr)0);
    dec_q(lam, x->lambda);
    dec_q(t, x->beta);
    mpq_add(t, t, lam);
    nice_above(u, t);
    mpq_sub(t, u, lam);
    swa_dec_exact(x->beta, sizeof x->beta, t);
    mpq_mul_2exp(t, u, 1);
    mpq_inv(t, t);
    swa_dec_exact(x->eta, sizeof x->eta, t);
    mpq_mul(r, t, lam);
    mpq_div_2exp(r, r, 1);
    mpq_set_ui(t, 1, 1);
    mpq_sub(r, t, r);
    mpq_mul(r, r, lam);
    mpq_inv(r, r); /* 1/(λ(1 − ηλ/2)) */
    dec_q(s2, x->L), mpq_mul(s2, s2, s2), mpq_mul_2exp(s2, s2, 2);
    dec_q(t, x->q), mpq_mul(s2, s2, t);
    mpq_div(s2, s2, lam);
    dec_q(t, x->eps_dp), mpq_div(s2, s2, t);
    dec_q(t, x->n), mpq_mul(t, t, t), mpq_div(s2, s2, t); /* prescribed σ² */
    mpz_t g, j, ten;
    mpz_inits(g, j, ten, (mpz_ptr)0);
    mpz_set(g, mpq_denref(r));
    mpz_set_ui(ten, 2), mpz_remove(g, g, ten);
    mpz_set_ui(ten, 5), mpz_remove(g, g, ten);
    double smin = sqrt(mpq_get_d(s2));
    int sd = (int)ceil(log10(mpz_get_d(g) * 1000 / smin));
    mpz_ui_pow_ui(ten, 10, (unsigned long)(sd > 0 ? sd : 0));
    if (sd < 0)
        mpz_mul(g, g, ten), mpz_set_ui(ten, 1); /* step g·10^|sd| */
    mpz_set_d(j, floor(smin * mpz_get_d(ten) / mpz_get_d(g)));
    for (;;) { /* σ = j·g/10^sd ≥ the prescribed σ, exactly */
        mpz_mul(mpq_numref(sig), j, g);
        mpz_set(mpq_denref(sig), ten);
        mpq_canonicalize(sig);
        mpq_mul(t, sig, sig);
        if (mpq_cmp(t, s2) >= 0)
            break;
        mpz_add_ui(j, j, 1);
    }
    swa_dec_exact(x->sigma, sizeof x->sigma, sig);
    mpq_mul(t, t, r);
    swa_dec_exact(x->init, sizeof x->init, t);
    mpz_clears(g, j, ten, (mpz_ptr)0);
    mpq_clears(lam, u, t, r, s2, sig, (mpq_ptr)0);
}

static void draw_ngd(swa_rng *rng, swa_ngd_thm thm, ngd_text *x, swa_ngd *p)
{
    swa_dec(x->L, sizeof x->L, swa_log_uniform(rng, 0.1, 10), 3);
    swa_dec(x->n, sizeof x->n, (double)swa_log_int(rng, 100, 1000000), 7);
    swa_dec(x->q, sizeof x->q, swa_log_uniform(rng, 1.1, 100), 5);
    if (thm == SWA_G15 || thm == SWA_T51)
        swa_dec(x->K, sizeof x->K, (double)swa_log_int(rng, 1, 2000), 7);
    else
        swa_dec(x->K, sizeof x->K, (double)swa_log_int(rng, 1, 100000), 7);
    if (thm == SWA_G15) {
        draw_g15_rates(rng, x);
    } else if (thm == SWA_T51) {
        draw_convex(rng, x, false); /* η and σ are the theorem's prescriptions */
        swa_dec(x->eps_dp, sizeof x->eps_dp, swa_log_uniform(rng, 0.01, 10), 3);
        t51_facts(x);
    } else {
        swa_dec(x->sigma, sizeof x->sigma, swa_log_uniform(rng, 0.01, 10), 4);
        if (thm == SWA_G9)
            draw_convex(rng, x, true);
        else
            swa_dec(x->eta, sizeof x->eta, swa_log_uniform(rng, 1e-3, 1), 3);
    }
    *p = (swa_ngd){thm, x->L, x->lambda, x->beta, x->sigma, x->eta, x->n, x->K, x->eps_dp, x->q};
}

/* The parameters; Thm 5.1's q goes there for an (ε, δ) claim (its σ is
 * prescribed at that order), else it is the claim's renyi_order. */
static void ngd_params_json(char *buf, size_t len, swa_ngd_thm thm, const ngd_text *x, bool renyi)
{
    if (thm == SWA_G7)
        snprintf(buf, len,
                 "\"theorem\": \"g7\", \"L\": \"%s\", \"sigma\": \"%s\", \"eta\": \"%s\", "
                 "\"n\": %s, \"K\": %s",
                 x->L, x->sigma, x->eta, x->n, x->K);
    else if (thm == SWA_G9)
        snprintf(buf, len,
                 "\"theorem\": \"g9\", \"L\": \"%s\", \"lambda\": \"%s\", \"beta\": \"%s\", "
                 "\"sigma\": \"%s\", \"eta\": \"%s\", \"n\": %s, \"K\": %s",
                 x->L, x->lambda, x->beta, x->sigma, x->eta, x->n, x->K);
    else if (thm == SWA_G15)
        snprintf(buf, len,
                 "\"theorem\": \"g15\", \"L\": \"%s\", \"lambda\": \"%s\", \"beta\": \"%s\", "
                 "\"sigma\": \"%s\", \"eta\": \"%s\", \"n\": %s, \"KAbar\": %s, "
                 "\"init_var\": \"%s\"",
                 x->L, x->lambda, x->beta, x->sigma, x->eta, x->n, x->K, x->init);
    else if (renyi)
        snprintf(buf, len,
                 "\"theorem\": \"thm51\", \"L\": \"%s\", \"lambda\": \"%s\", \"beta\": "
                 "\"%s\", \"n\": %s, \"eps_dp\": \"%s\", \"KAbar\": %s, \"sigma\": \"%s\", "
                 "\"eta\": \"%s\", \"init_var\": \"%s\"",
                 x->L, x->lambda, x->beta, x->n, x->eps_dp, x->K, x->sigma, x->eta, x->init);
    else /* the schema wants the deletion budget: eps_dd = eps_dp meets 0 < eps_dd <= eps_dp */
        snprintf(buf, len,
                 "\"theorem\": \"thm51\", \"L\": \"%s\", \"lambda\": \"%s\", \"beta\": "
                 "\"%s\", \"n\": %s, \"eps_dp\": \"%s\", \"eps_dd\": \"%s\", \"KAbar\": %s, "
                 "\"q\": \"%s\", \"sigma\": \"%s\", \"eta\": \"%s\", \"init_var\": \"%s\"",
                 x->L, x->lambda, x->beta, x->n, x->eps_dp, x->eps_dp, x->K, x->q, x->sigma,
                 x->eta, x->init);
}

/* Alternating claims: the Rényi value at a drawn order q (a·q), and ε at a
 * drawn δ at the best order (min_q a·q + log(1/δ)/(q − 1)). */
static void sweep_ngd(swa_ngd_thm thm, const char *name, uint64_t seed)
{
    tally t = {.name = name};
    swa_rng rng;
    swa_rng_seed(&rng, seed);
    mpfr_t a, b;
    mpfr_inits2(SWA_BITS, a, b, (mpfr_ptr)0);
    int want = n_cases(4);
    for (int draws = 0; t.cases < want && draws < MAX_DRAWS * want; draws++) {
        ngd_text x;
        memset(&x, 0, sizeof x);
        swa_ngd p;
        draw_ngd(&rng, thm, &x, &p);
        const char *q = x.q;
        char delta[32], claim_hi[160], claim_lo[160], hi[64], lo[64], oracle[200];
        swa_dec(delta, sizeof delta, swa_log_uniform(&rng, 1e-10, 1e-3), 2);
        swa_ngd_slope(a, &p);
        bool renyi = t.cases % 2 == 0;
        if (renyi) {
            mpfr_set_str(b, q, 10, MPFR_RNDN);
            mpfr_mul(b, b, a, MPFR_RNDN);
        } else {
            double gap = swa_ngd_eps(b, a, delta);
            cr_expect(gap < 1e-30, "oracle self-check: golden section vs closed form %g", gap);
        }
        if (mpfr_cmp_d(b, 1e6) > 0 || mpfr_cmp_d(b, 1e-30) < 0)
            continue; /* outside realistic budgets */
        claims(hi, lo, sizeof hi, b);
        const char *fc = renyi ? "\"renyi_order\": \"%s\", \"renyi_value\": \"%s\""
                               : "\"delta\": \"%s\", \"eps\": \"%s\"";
        snprintf(claim_hi, sizeof claim_hi, fc, renyi ? q : delta, hi);
        snprintf(claim_lo, sizeof claim_lo, fc, renyi ? q : delta, lo);
        mpfr_snprintf(oracle, sizeof oracle, "%s = %.20Re (slope a = %.20Re)",
                      renyi ? "renyi_value" : "eps", b, a);
        char params[1024], ca[2048], cb[2048];
        ngd_params_json(params, sizeof params, thm, &x, renyi);
        const char *f = CERT_HEAD "noisy-gd\", \"parameters\": {%s}, \"claim\": {%s}}";
        snprintf(ca, sizeof ca, f, params, claim_hi);
        snprintf(cb, sizeof cb, f, params, claim_lo);
        check_pair(&t, ca, cb, UL_VERDICT_UNSUPPORTED, oracle);
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
    report(&t);
    cr_expect_eq(t.cases, want, "only %d cases drawn", t.cases);
}

Test(sweep_noisy_gd, g7, .fini = teardown, .timeout = 3600)
{
    sweep_ngd(SWA_G7, "noisy-gd g7", 0x96D70007ull);
}

Test(sweep_noisy_gd, g9, .fini = teardown, .timeout = 3600)
{
    sweep_ngd(SWA_G9, "noisy-gd g9", 0x96D70009ull);
}

Test(sweep_noisy_gd, g15, .fini = teardown, .timeout = 3600)
{
    sweep_ngd(SWA_G15, "noisy-gd g15", 0x96D70015ull);
}

Test(sweep_noisy_gd, thm51, .fini = teardown, .timeout = 3600)
{
    sweep_ngd(SWA_T51, "noisy-gd thm51", 0x96D70051ull);
}

/* ==== dp-sgd-group ========================================================== */

/* The sampling rate, log-uniform in range: q itself, or (one case in three) batch and n with
 * n = 1000·2^i·5^j so that q = batch/n is an exact decimal for the oracle.
 * Fills q and the parameters' JSON for the rate. */
static void draw_rate(swa_rng *rng, const double range[2], char *q, size_t qlen, char *json,
                      size_t len)
{
    double qd = swa_log_uniform(rng, range[0], range[1]);
    if (swa_uniform(rng, 0, 1) < 1.0 / 3) {
        unsigned long n = 1000UL << (int)swa_uniform(rng, 0, 5);
        for (int j = (int)swa_uniform(rng, 0, 3); j > 0; j--)
            n *= 5;
        long batch = lround(qd * (double)n);
        batch = batch < 1 ? 1 : batch;
        mpq_t r;
        mpq_init(r);
        mpq_set_ui(r, (unsigned long)batch, n);
        mpq_canonicalize(r);
        swa_dec_exact(q, qlen, r);
        mpq_clear(r);
        snprintf(json, len, "\"batch\": %ld, \"n\": %lu", batch, n);
    } else {
        swa_dec(q, qlen, qd, 3);
        snprintf(json, len, "\"q\": \"%s\"", q);
    }
}

/* Where a DP-SGD sweep draws: q, σ, steps, the group ε; the least log δ
 * and the range of optimal orders it keeps. */
typedef struct {
    double q[2], sigma[2], eps[2], log_delta_min, alpha[2];
    unsigned long steps[2];
} dp_ranges;

/* The group δ at the claimed group ε (ε' = ε/k, the per-example δ' at the
 * best order, times Σ_{i<k} e^{iε'}); a bound (unsupported below). */
static void sweep_dp(const char *name, uint64_t seed, const dp_ranges *g, int small)
{
    tally t = {.name = name};
    swa_rng rng;
    swa_rng_seed(&rng, seed);
    mpfr_t ld;
    mpfr_init2(ld, SWA_BITS);
    int want = n_cases(small);
    double amax = 0;
    for (int draws = 0; t.cases < want && draws < MAX_DRAWS * want; draws++) {
        char q[64], rate[96], sigma[32], eps[32], hi[64], lo[64], oracle[200];
        draw_rate(&rng, g->q, q, sizeof q, rate, sizeof rate);
        swa_dec(sigma, sizeof sigma, swa_uniform(&rng, g->sigma[0], g->sigma[1]), 3);
        unsigned long steps = swa_log_int(&rng, g->steps[0], g->steps[1]);
        unsigned long k = swa_log_int(&rng, 1, 8);
        swa_dec(eps, sizeof eps, swa_log_uniform(&rng, g->eps[0], g->eps[1]), 4);
        int cv = (int)swa_uniform(&rng, 0, 3); /* 0: default, 1: bbghs, 2: mironov */
        double alpha;
        int rc = swa_dpsgd_log_delta(ld, &alpha, q, sigma, steps, k, eps,
                                     cv == 2 ? SWA_MIRONOV : SWA_BBGHS, g->alpha[1]);
        cr_expect_neq(rc, -2,
                      "oracle self-check failed (quadrature error or not a minimum) at "
                      "q %s sigma %s steps %lu k %lu eps %s alpha %.17g",
                      q, sigma, steps, k, eps, alpha);
        if (rc != 0 || alpha < g->alpha[0] || mpfr_cmp_d(ld, log(0.5)) > 0 ||
            mpfr_cmp_d(ld, g->log_delta_min) < 0)
            continue;
        amax = alpha > amax ? alpha : amax;
        mpfr_exp(ld, ld, MPFR_RNDN);
        claims(hi, lo, sizeof hi, ld);
        mpfr_snprintf(oracle, sizeof oracle, "group delta = %.20Re at alpha* = %.10g", ld, alpha);
        const char *conv = conv_json(cv);
        char a[1024], b[1024];
        const char *f = CERT_HEAD "dp-sgd-group\", \"parameters\": {%s, \"sigma\": \"%s\", "
                                  "\"steps\": %lu, \"group_size\": %lu%s}, \"claim\": "
                                  "{\"eps\": \"%s\", \"delta\": \"%s\"}}";
        snprintf(a, sizeof a, f, rate, sigma, steps, k, conv, eps, hi);
        snprintf(b, sizeof b, f, rate, sigma, steps, k, conv, eps, lo);
        check_pair(&t, a, b, UL_VERDICT_UNSUPPORTED, oracle);
    }
    mpfr_clear(ld);
    report(&t);
    if (soak())
        fprintf(stderr, "  largest optimal order among the cases: %.6g\n", amax);
    cr_expect_eq(t.cases, want, "only %d cases drawn", t.cases);
}

/* Training-like settings: δ from 0.5 down to e^-700, orders up to 5000. */
Test(sweep_dp_sgd_group, delta_at_eps, .fini = teardown, .timeout = 3600)
{
    const dp_ranges g = {{1e-3, 0.1}, {0.7, 4}, {0.5, 30}, -700, {1, 5000}, {10, 10000}};
    sweep_dp("dp-sgd-group delta", 0xD95C0001ull, &g, 2);
}

/* Large optimal orders (256 < α* ≤ 5000; the handler widens its search past
 * 256): light noise budgets and small group ε, δ down to e^-2300. */
Test(sweep_dp_sgd_group, large_order, .fini = teardown, .timeout = 3600)
{
    const dp_ranges g = {{1e-4, 1e-2}, {1, 10}, {0.05, 5}, -2300, {256, 5000}, {1, 1000}};
    sweep_dp("dp-sgd-group large order", 0xD95C0002ull, &g, 1);
}
