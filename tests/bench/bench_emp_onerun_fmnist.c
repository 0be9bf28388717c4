/* tests/bench/bench_emp_onerun_fmnist.c — Fashion-MNIST logistic-
 * regression audits in ONE training run that refute a mis-noised
 * certificate with LiRA-calibrated scores where the loss score alone does
 * not (issue 15).
 *
 * The learner.  Projected noisy GD (emp/learner.h, PNGD rule): L2 logistic
 * regression on rows of norm 1, per-sample gradients clipped at C = 1, the
 * mean over the N training rows plus λw, w ← Π_R(w − η·g + √(2η)σ·ξ),
 * T steps from N(0, init²).  Seen as a release of the noisy mean gradient,
 * step t adds N(0, s²) with s = σ·√(2/η) to g_t, whose ℓ2 sensitivity to
 * adding or removing one row (the others fixed, N ≥ n_D rows before) is at
 * most 2C/(n_D + 1) (|(Σ + g)/(N + 1) − Σ/N| ≤ |g|/(N + 1) + |Σ|/(N(N + 1))).
 * The projection is post-processing and the start is data-independent, so by
 * adaptive composition of Gaussian mechanisms (Dong, Roth, Su 2022, Cor.
 * 3.3) the learner is μ-GDP in each row with μ = √T·Δ/s: exactly the
 * "gaussian-mechanism" certificate of T releases of sensitivity Δ and noise
 * s (README, method gaussian-mechanism).
 *
 * The mis-noised certificate.  examples/attack-onerun-fmnist-cert.json
 * states s = S_CERT on each of the T releases, sensitivity 0.002 ≥ 2/1001,
 * and the claim (1, 1e-5); `ulaudit audit` finds it supported — for the
 * noise it states.  The learner here runs with s = S_CERT/NOISE_CUT (100
 * times less noise than certified).
 *
 * The canaries.  Canary i is normalise(IMG_W·image_i + u_i), u_i a random
 * unit vector (nearly orthogonal to the data and to the other canaries, so
 * it is memorised alone and its inclusion does not move the other
 * canaries), with the image's label flipped; the image part makes the
 * canaries unequally hard (their margins under models without them differ
 * widely), which is what defeats the raw loss score.
 *
 * The audit (Steinke, Nasr, Jagielski 2023, stats/eps_lb.h ONERUN): the m
 * canaries are each included by an independent fair coin; ONE training run
 * on D plus the included canaries; the attacker ranks the canaries and
 * guesses the top r "IN" (r on the grid fixed in advance, Bonferroni over
 * it).  The hypotheses: one run, independent fair coins, and the (ε, δ)
 * claim for each canary's inclusion with the others fixed — which is what
 * the certificate claims (its Δ bounds adding or removing one row).  The
 * guesses may use anything independent of the coins: REF reference runs,
 * each on D plus the canaries of its OWN fair coins (drawn independently of
 * the audit's), give each canary's LiRA fit (Carlini et al. 2022,
 * emp/score.h): φ = the canary's margin y·wᵀx (the logit-scaled confidence
 * of logistic regression), Gaussians fitted to the references where the
 * canary was IN and where it was OUT, score = their log-likelihood ratio at
 * the target run's φ (online LiRA).  References trained on D alone would
 * not do: the included canaries' image parts shift every canary's margin
 * (measured: all of them by +0.3 to +1), a shift the references must share.
 *
 * Printed: the certificate's audit verdict, its ε at the stated and at the
 * true noise (the Gaussian profile in doubles, stats/gdp.h), the AUC and the
 * one-run ε_lb of the loss score and of LiRA, and for comparison the largest ε_lb that ANY
 * multi-run attack could certify with the same number of training runs
 * (1 + REF, split between the worlds, perfect separation, the joint test).
 * PASS when LiRA refutes the claim and the loss score does not.
 *
 * Then the one-run UNLEARNING audit (issue 15): the IN canaries are learned
 * and then unlearned by K_UNLEARN noisy steps on D, the OUT canaries never
 * seen, the attacker guesses which were unlearned (unlearning_audit states
 * the theorem's hypotheses for unlearning: a group guarantee, compared at
 * twice its ε).  Without Fashion-MNIST (tools/bench-deps.sh) the bench
 * prints SKIPPED.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit/audit.h"
#include "cert/cert.h"
#include "emp/data.h"
#include "stats/eps_lb.h"
#include "stats/gdp.h"
#include "emp/learner.h"
#include "emp/model.h"
#include "emp/rng.h"
#include "emp/score.h"
#include "num/encl.h"
#include "num/input.h"

#define FMNIST "/usr/share/datasets/fashion-mnist/"
#ifndef N_D
#define N_D 1000 /* training rows */
#endif
#ifndef M_CANARIES
#define M_CANARIES 1000 /* canaries (rows N_D … N_D + M − 1, labels flipped) */
#endif
#define T_STEPS 100
#define LAMBDA 0.002
#define RADIUS 10.0
#define INIT_STD 0.01
#ifndef K_UNLEARN
#define K_UNLEARN 10 /* unlearning steps in the one-run unlearning audit */
#endif
#define REF 32 /* reference runs, each with its own canary coins */
#ifndef S_CERT
#define S_CERT 0.08 /* the certificate's per-step noise on the mean gradient */
#endif
#define DELTA_CERT 0.002 /* its sensitivity, >= 2C/(n_D + 1) */
#define CERT_FILE "examples/attack-onerun-fmnist-cert.json"
#ifndef NOISE_CUT
#define NOISE_CUT 100.0 /* the learner's noise is S_CERT/NOISE_CUT */
#endif
#define SEED 2026u
#ifndef IMG_W
#define IMG_W 0.5 /* weight of the image in a canary, beside a unit random direction */
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ε(δ) of the certificate's composition: μ = √T·Δ/s (gdp.h, doubles). */
static double cert_eps(double s, double delta)
{
    double mu = sqrt((double)T_STEPS) * DELTA_CERT / s;
    return ul_emp_gdp_eps(mu, delta);
}

/* The audit of the example certificate (its verdict's name, or "?"). */
static const char *cert_verdict(void)
{
    ul_cert *c = NULL;
    ul_audit_report rep;
    char err[512];
    const char *v = "?";
    ul_audit_report_init(&rep);
    ul_num_precision want = {.digits = 6, .start_bits = 128, .max_bits = 4096};
    if (ul_cert_load(CERT_FILE, &c, err, sizeof err) == UL_OK &&
        ul_audit(c, &want, &rep, err, sizeof err) == UL_OK)
        v = ul_verdict_name(rep.verdict);
    else
        fprintf(stderr, "bench_emp_onerun_fmnist: %s\n", err);
    ul_cert_free(c);
    return v;
}

/* Trains M runs (run0 …) on ds from the Gaussian start into W (p×M) for
 * T_STEPS steps; then, when retain is not NULL, K more noisy steps (numbered
 * T_STEPS …) on retain: unlearning by noisy fine-tuning on the retained data
 * (the Langevin unlearning of Chien et al. for removals). */
static int train(const ul_model *mo, const ul_dataset *ds, const ul_dataset *retain, size_t K,
                 double sigma, uint32_t run0, size_t M, double *W)
{
    char err[256];
    ul_pngd_params par = {
        .eta = 1.0 / (0.25 + LAMBDA), .sigma = sigma, .radius = RADIUS, .seed = SEED};
    ul_learner_init_gaussian(W, ds->d, M, SEED, run0, 0, INIT_STD);
    ul_status st = ul_pngd_train(mo, ds, &par, M, run0, 0, T_STEPS, W, NULL, NULL, err, sizeof err);
    if (st == UL_OK && retain)
        st = ul_pngd_train(mo, retain, &par, M, run0, T_STEPS, K, W, NULL, NULL, err, sizeof err);
    if (st != UL_OK) {
        fprintf(stderr, "bench_emp_onerun_fmnist: %s\n", err);
        return 1;
    }
    return 0;
}

static double margin(const double *w, const double *x, double y, size_t d)
{
    double s = 0;
    for (size_t k = 0; k < d; k++)
        s += w[k] * x[k];
    return y * s;
}

/* The certified bound of `method` (stats/eps_lb.h) at α = 0.05 and δ
 * (NAN on an error, printed). */
static double bound(ul_emp_lb_method method, const char *delta, const double *in, size_t n_in,
                    const double *out, size_t n_out)
{
    mpfi_t a, dl;
    mpfi_init2(a, 128), mpfi_init2(dl, 128);
    ul_num_set_valid(a, "0.05");
    ul_num_set_valid(dl, delta);
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = method;
    char err[256];
    double e = ul_emp_eps_lb_value(in, n_in, out, n_out, a, dl, &o, err, sizeof err);
    if (isnan(e))
        fprintf(stderr, "bench_emp_onerun_fmnist: %s\n", err);
    mpfi_clear(a), mpfi_clear(dl);
    return e;
}

/* The joint test's bound at perfect separation with k_in + k_out runs
 * (k_in, k_out ≤ 64): what any multi-run attack could certify at best. */
static double multirun_ceiling(size_t k_in, size_t k_out)
{
    double in[64], out[64];
    for (size_t i = 0; i < k_in; i++)
        in[i] = 1;
    for (size_t i = 0; i < k_out; i++)
        out[i] = 0;
    return bound(UL_EMP_LB_JOINT, "1e-5", in, k_in, out, k_out);
}

/* Mann–Whitney AUC (pairs; ties ½). */
static double auc(const double *in, size_t n_in, const double *out, size_t n_out)
{
    double c = 0;
    for (size_t i = 0; i < n_in; i++)
        for (size_t j = 0; j < n_out; j++)
            c += in[i] > out[j] ? 1 : in[i] == out[j] ? 0.5 : 0;
    return c / ((double)n_in * (double)n_out);
}

/* Loads D (first N_D rows) and the canaries (next M, labels flipped). */
static int load(ul_dataset *D, ul_dataset *C)
{
    ul_dataset all = {0};
    char err[512];
    if (ul_data_read_idx_binary(FMNIST "train-images-idx3-ubyte.gz",
                                FMNIST "train-labels-idx1-ubyte.gz", 0, 6, UL_LABELS_PM1,
                                N_D + M_CANARIES, &all, err, sizeof err) != UL_OK) {
        fprintf(stderr, "bench_emp_onerun_fmnist: %s\n", err);
        return 1;
    }
    ul_data_normalize_rows(&all);
    size_t d = all.d;
    D->n = N_D, D->d = d, C->n = M_CANARIES, C->d = d;
    D->x = malloc(N_D * d * sizeof *D->x), D->y = malloc(N_D * sizeof *D->y);
    C->x = malloc(M_CANARIES * d * sizeof *C->x), C->y = malloc(M_CANARIES * sizeof *C->y);
    if (!D->x || !D->y || !C->x || !C->y)
        abort();
    memcpy(D->x, all.x, N_D * d * sizeof *D->x);
    memcpy(D->y, all.y, N_D * sizeof *D->y);
    /* canary i: normalise(IMG_W·image_i + u_i), u_i a random unit vector
     * (nearly orthogonal to everything else: memorised alone, no transfer
     * to other canaries), label flipped; the image part makes the canaries
     * unequally hard (their margins under models without them differ) */
    double *u = malloc(d * sizeof *u);
    if (!u)
        abort();
    for (size_t i = 0; i < M_CANARIES; i++) {
        double *x = C->x + i * d, nu = 0, nx = 0;
        ul_rng_normals(SEED, 0x7ffffffeu, 0, i * d, d, u);
        for (size_t k = 0; k < d; k++)
            nu += u[k] * u[k];
        for (size_t k = 0; k < d; k++)
            x[k] = IMG_W * all.x[(N_D + i) * d + k] + u[k] / sqrt(nu), nx += x[k] * x[k];
        for (size_t k = 0; k < d; k++)
            x[k] /= sqrt(nx);
        C->y[i] = -all.y[N_D + i];
    }
    free(u);
    ul_dataset_free(&all);
    return 0;
}

/* D plus the canaries whose coin is IN. */
static ul_dataset with_canaries(const ul_dataset *D, const ul_dataset *C, const int *coin)
{
    size_t d = D->d, n = D->n;
    for (size_t i = 0; i < C->n; i++)
        n += coin[i];
    ul_dataset T = {
        .n = n, .d = d, .x = malloc(n * d * sizeof(double)), .y = malloc(n * sizeof(double))};
    if (!T.x || !T.y)
        abort();
    memcpy(T.x, D->x, D->n * d * sizeof(double));
    memcpy(T.y, D->y, D->n * sizeof(double));
    for (size_t i = 0, j = D->n; i < C->n; i++)
        if (coin[i]) {
            memcpy(T.x + j * d, C->x + i * d, d * sizeof(double));
            T.y[j++] = C->y[i];
        }
    return T;
}

/* Scores of every canary: loss (−ℓ of the target run) and LiRA online
 * against the REF reference runs, each trained on D plus the canaries of
 * its own fair coins (refcoin, drawn independently of coin: the guesses
 * stay functions of the output and of randomness independent of S); split
 * by the audit's coin into in/out arrays. */
static void canary_scores(const ul_dataset *C, const int *coin, const int *refcoin, const double *w,
                          const double *Wref, double *loss_in, double *loss_out, double *lira_in,
                          double *lira_out, size_t *n_in, size_t *n_out)
{
    size_t d = C->d;
    *n_in = *n_out = 0;
    for (size_t i = 0; i < C->n; i++) {
        const double *x = C->x + i * d;
        double phi = margin(w, x, C->y[i], d), ref_in[REF], ref_out[REF], s;
        size_t ki = 0, ko = 0;
        for (int r = 0; r < REF; r++) {
            double f = margin(Wref + (size_t)r * d, x, C->y[i], d);
            if (refcoin[(size_t)r * C->n + i])
                ref_in[ki++] = f;
            else
                ref_out[ko++] = f;
        }
        ul_score_lira f;
        char err[128];
        int online = ki >= 2 && ko >= 2;
        if (ul_score_lira_fit(&f, online, ref_in, ki, ref_out, ko, err, sizeof err) != UL_OK)
            abort(); /* REF = 32: fewer than 2 OUT references has probability 33·2^−32 */
        ul_score_lira_apply(&f, &phi, 1, &s);
        /* −ℓ = −log(1 + e^(−φ)) */
        double l = -(phi > 0 ? log1p(exp(-phi)) : -phi + log1p(exp(phi)));
        if (coin[i])
            loss_in[*n_in] = l, lira_in[(*n_in)++] = s;
        else
            loss_out[*n_out] = l, lira_out[(*n_out)++] = s;
    }
}

/* Trains the REF reference runs, run r on D plus the canaries of its coins
 * (then, K > 0, unlearns them: K steps on D). */
static int train_refs(const ul_model *mo, const ul_dataset *D, const ul_dataset *C, size_t K,
                      double sigma, int *refcoin, double *Wref)
{
    for (int r = 0; r < REF; r++) {
        int *c = refcoin + (size_t)r * C->n;
        for (size_t i = 0; i < C->n; i++)
            c[i] = ul_rng_uniform(SEED, 0x7ffffff0u - (uint32_t)r, 0, i) < 0.5;
        ul_dataset T = with_canaries(D, C, c);
        int bad =
            train(mo, &T, K ? D : NULL, K, sigma, 1 + (uint32_t)r, 1, Wref + (size_t)r * D->d);
        ul_dataset_free(&T);
        if (bad)
            return 1;
    }
    return 0;
}

typedef struct {
    size_t n_in;
    double auc_loss, auc_lira, eps_loss, eps_lira;
} audit_result;

/* One one-run audit: the target run (D plus the canaries of `coin`; K > 0:
 * then unlearned by K steps on D), the references alike with their own
 * coins, the scores, and the one-run bounds at δ. */
static int one_run_audit(const ul_dataset *D, const ul_dataset *C, const int *coin, size_t K,
                         double sigma, const char *delta, audit_result *res)
{
    ul_dataset T = with_canaries(D, C, coin);
    ul_model mo = ul_logreg_model(LAMBDA, 1.0);
    size_t d = D->d, n_out;
    double *w = malloc(d * sizeof *w), *Wref = malloc(REF * d * sizeof *Wref);
    int *refcoin = malloc((size_t)REF * C->n * sizeof *refcoin);
    double *sc = malloc(4 * C->n * sizeof *sc); /* loss in/out, LiRA in/out */
    if (!w || !Wref || !refcoin || !sc)
        abort();
    int bad = train(&mo, &T, K ? D : NULL, K, sigma, 0, 1, w) ||
              train_refs(&mo, D, C, K, sigma, refcoin, Wref);
    if (!bad) {
        double *li = sc, *lo = sc + C->n, *ri = sc + 2 * C->n, *ro = sc + 3 * C->n;
        canary_scores(C, coin, refcoin, w, Wref, li, lo, ri, ro, &res->n_in, &n_out);
        res->auc_loss = auc(li, res->n_in, lo, n_out);
        res->auc_lira = auc(ri, res->n_in, ro, n_out);
        res->eps_loss = bound(UL_EMP_LB_ONERUN, delta, li, res->n_in, lo, n_out);
        res->eps_lira = bound(UL_EMP_LB_ONERUN, delta, ri, res->n_in, ro, n_out);
    }
    ul_dataset_free(&T);
    free(w), free(Wref), free(refcoin), free(sc);
    return bad;
}

/* One-run UNLEARNING audit: the canaries of the coins are learned and then
 * unlearned (K_UNLEARN steps on D), the others never seen; the attacker
 * guesses which canaries were unlearned.  The theorem needs M(S) to be
 * (ε, δ)-DP in each coordinate of S.  A group-unlearning guarantee
 * (ε_g, δ_g) says that for EVERY unlearned set U the output is
 * (ε_g, δ_g)-indistinguishable from the reference R(D) (retraining without
 * the canaries, which does not depend on S); so M(S) and M(S') (S' one
 * coordinate flipped) are both within (ε_g, δ_g) of R(D), and by the weak
 * triangle inequality for the hockey-stick divergence M is (2ε_g,
 * (1 + e^(ε_g))·δ_g)-DP in S_i.  A guarantee for unlearning ONE record does
 * not give this (U holds ~m/2 canaries): the comparison is with twice a
 * group claim.  δ' = (1 + e)·1e-5 covers every ε_g ≤ 1. */
static int unlearning_audit(const ul_dataset *D, const ul_dataset *C, const int *coin, double sigma)
{
    audit_result u;
    if (one_run_audit(D, C, coin, K_UNLEARN, sigma, "3.7183e-5", &u))
        return 1;
    printf("  one-run UNLEARNING audit (the IN canaries learned, then unlearned by %d noisy "
           "steps on D; OUT never seen): AUC loss %.4f, LiRA %.4f; eps_lb at delta' = "
           "(1 + e) 1e-5: loss %.4f, LiRA %.4f\n",
           K_UNLEARN, u.auc_loss, u.auc_lira, u.eps_loss, u.eps_lira);
    double e = fmax(u.eps_loss, u.eps_lira) / 2;
    if (e > 0)
        printf("    refutes every group-unlearning claim (eps_g, 1e-5) with eps_g < %.4f "
               "(= eps_lb/2, eps_g <= 1)\n",
               fmin(e, 1));
    else
        printf("    refutes no group-unlearning claim\n");
    return 0;
}

int main(void)
{
    if (access(FMNIST "train-images-idx3-ubyte.gz", R_OK) != 0) {
        printf("bench_emp_onerun_fmnist: SKIPPED (no Fashion-MNIST; tools/bench-deps.sh)\n");
        return 0;
    }
    ul_num_init();
    double t0 = now();
    ul_dataset D = {0}, C = {0};
    if (load(&D, &C))
        return 1;
    int coin[M_CANARIES];
    for (size_t i = 0; i < M_CANARIES; i++) /* fair coins, independent of everything else */
        coin[i] = ul_rng_uniform(SEED, 0x7fffffffu, 0, i) < 0.5;
    double eta = 1.0 / (0.25 + LAMBDA), s_true = S_CERT / NOISE_CUT;
    double sigma = s_true * sqrt(eta / 2); /* s = σ·√(2/η) */
    audit_result a;
    if (one_run_audit(&D, &C, coin, 0, sigma, "1e-5", &a))
        return 1;
    printf("bench_emp_onerun_fmnist: Fashion-MNIST 0 vs 6, n_D = %d, d = %zu, %d canaries "
           "(%zu IN), T = %d, one target run + %d reference runs (%.1f s)\n",
           N_D, D.d, M_CANARIES, a.n_in, T_STEPS, REF, now() - t0);
    printf("  certificate %s: gaussian-mechanism, %d releases, sensitivity %g, s = %g: audit %s, "
           "eps(1e-5) = %.4f (claim 1); the learner's s = %g: eps(1e-5) = %.4f\n",
           CERT_FILE, T_STEPS, DELTA_CERT, S_CERT, cert_verdict(), cert_eps(S_CERT, 1e-5), s_true,
           cert_eps(s_true, 1e-5));
    printf("  AUC over the canaries: loss score %.4f, LiRA (online, %d references) %.4f\n",
           a.auc_loss, REF, a.auc_lira);
    printf("  one-run eps_lb (SNJ23, alpha 0.05, delta 1e-5): loss score %.4f, LiRA %.4f\n",
           a.eps_loss, a.eps_lira);
    printf("  any multi-run attack with the same %d training runs: eps_lb <= %.4f (perfect "
           "separation)\n",
           1 + REF, multirun_ceiling((1 + REF) / 2, (1 + REF + 1) / 2));
    int pass = a.eps_lira > 1 && a.eps_loss <= 1;
    printf("  %s: LiRA %s the claim (1, 1e-5), the loss score %s\n", pass ? "PASS" : "NOT MET",
           a.eps_lira > 1 ? "refutes" : "does not refute",
           a.eps_loss > 1 ? "does too" : "does not");
    int rc = unlearning_audit(&D, &C, coin, sigma);
    ul_dataset_free(&D), ul_dataset_free(&C);
    return rc;
}
