/* src/emp/attack.h — a membership-inference audit of an unlearning claim:
 * the configured experiment (emp/experiment.h) run many times, the scores
 * (emp/score.h), certified statistics (stats/stats.h), and the claim beside
 * them.
 *
 * Configuration ("ulaudit-attack/1", README "Attack configurations"): data,
 * model, learner, unlearning, target, runs, seed, attack, claim and
 * certificate.  A claim is (eps, delta) or a Rényi pair (renyi_order,
 * renyi_value); a certificate ("auto" or a file) is audited by the audit
 * engine, and "auto" writes the Langevin certificate of the configured PNGD
 * learner itself (strongly convex logistic regression on unit-norm rows).
 *
 * Statistics.  Each score s ∈ {loss, gaussian-lr, lira-online, lira-offline, rmia} gets the level α/S
 * (S = number of scores: Bonferroni across scores), so every "refuted"
 * below holds with probability ≥ 1 − α over the runs.  A PRE-REGISTERED
 * primary score (attack.primary, --primary: named before the data are seen)
 * gets all of α and alone decides the verdict, so its "refuted" holds with
 * probability ≥ 1 − α whatever the other scores do, and adding a score never
 * lowers its bound; the other S − 1 scores are exploratory, each at
 * α/(S − 1) (Bonferroni among them: a simultaneous statement about them at
 * 1 − α, separate from the primary's), reported but never deciding:
 *   - the certified empirical ε lower bound at the claimed δ: the JOINT
 *     test of stats/eps_lb.h (order-statistic thresholds on a grid fixed
 *     before the data, two-sided, one exact p-value per threshold, a
 *     weighted Bonferroni over the grid's m tests only: geometric weights);
 *   - the advantage TPR − FPR at the threshold where the ROC's advantage is
 *     largest, with a (1 − α/S) interval from Clopper–Pearson bounds
 *     (Bonferroni over the 2(n_in + n_out + 2) bounds of the thresholds at
 *     every OUT and IN order statistic, a family fixed before the data: the
 *     point is chosen among all of them, ties or not);
 *   - the advantage ceiling of the claim: (e^ε − 1 + 2δ)/(e^ε + 1) for an
 *     (ε, δ) claim (the privacy region of Kairouz, Oh, Viswanath 2015) and
 *     Thm 4.1 of Chourasia & Shah 2023 (eq. 10) for a Rényi claim.
 * Verdict: "refuted" when some ε lower bound exceeds the claimed ε or some
 * advantage lower bound exceeds the ceiling; "consistent" otherwise (the
 * attack did not beat the claim — which never proves it); "no claim" when
 * none was given.
 *
 * Long runs are cut into chunks of `chunk` runs; each chunk leaves a record
 * of its scores (emp/shard.h), appended to a checkpoint that resumes with
 * bit-identical results because a run's model depends only on its number
 * (and its chunk).  Shards of the chunks run anywhere and merge into the
 * same result.
 */
#ifndef UL_EMP_ATTACK_H
#define UL_EMP_ATTACK_H

#include <mpfr.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "audit/audit.h"
#include "audit/curve.h"
#include "emp/experiment.h"
#include "emp/shard.h"
#include "stats/stats.h"

#define UL_ATTACK_FORMAT "ulaudit-attack/1"

/* Scores computed from the recorded ones (beside emp/shard.h's
 * UL_SCORE_LOSS and UL_SCORE_LR, which a run records): LiRA (emp/score.h,
 * Carlini et al. 2022) on the target's logit-scaled confidence, computed
 * from the loss scores.  Online: Gaussian fits of both worlds on the first
 * ⌊k/2⌋ runs of each, the other runs scored.  Offline: a fit of the OUT
 * world on its first ⌊k_out/2⌋ runs, every IN run and the other OUT runs
 * scored.  The scored runs never enter a fit, so given the fit they are
 * i.i.d. per world and the bounds stay valid.  For ONE target the offline
 * score ranks runs exactly as the loss score does (φ and (φ − μ)/σ are
 * increasing functions of −ℓ); online it is a two-sided (quadratic) test
 * that gains when the worlds' spreads differ. */
enum { UL_SCORE_LIRA_ONLINE = 4, UL_SCORE_LIRA_OFFLINE = 8 };
#define UL_SCORE_LIRA (UL_SCORE_LIRA_ONLINE | UL_SCORE_LIRA_OFFLINE)
/* RMIA (emp/score.h, Zarifzadeh et al. 2024): the target against
 * population records, with reference models given (ul_attack_scoring.W_ref:
 * every model scored) or taken from the run itself (the first ⌊k_out/2⌋
 * OUT models, the reference half offline LiRA fits on; the other runs
 * scored).  Released models (ul_attack_score_models), or a configuration's
 * runs when it keeps their models (save_models: a run's record holds
 * scores, not the models' probabilities on a population).  The capacity
 * (ul_attack_capacity_of) counts its scored runs: every run of both worlds
 * with references given, else those of offline LiRA (all IN runs, the OUT
 * runs after the ⌊k_out/2⌋ references).
 *
 * Its two constants (Zarifzadeh et al. 2024, §3), configuration fields
 * attack.rmia_a and attack.rmia_gamma, recorded in the result:
 *   a ∈ (0, 1]: the offline approximation Pr(x) = (1 + a)/2 · mean_r
 *     Pr(x|θ_r) + (1 − a)/2 (§3, "offline"; the authors' default 0.3,
 *     privacy_meter's offline_a);
 *   γ > 0: the threshold of the pairwise likelihood ratio, Score_MIA(x; θ)
 *     = Pr_z[LR_θ(x, z) ≥ γ] (§3, the score's definition; default 1).
 * (0 is not a value of a: in ul_attack_scoring 0 means the default.) */
enum { UL_SCORE_RMIA = 16 };
#define UL_RMIA_A_DEFAULT 0.3
#define UL_RMIA_GAMMA_DEFAULT 1.0
#define UL_ATTACK_MAX_SCORES 5
#define UL_ATTACK_MAX_RUNS 1000000
#define UL_ATTACK_TEXT 64

typedef struct {
    ul_exp_design design;
    ul_dataset data; /* loaded and prepared (binary ±1 labels, scaled rows) */
    char data_desc[256];
    long target; /* row in data, or −1: adversarial */
    size_t runs, chunk;
    int scores; /* UL_SCORE_* bits (emp/shard.h, and LiRA's above) */
    int primary; /* the pre-registered primary score's bit, 0: none (Bonferroni) */
    char alpha[UL_ATTACK_TEXT];
    /* the claim (texts empty when absent) */
    char eps[UL_ATTACK_TEXT], delta[UL_ATTACK_TEXT];
    char renyi_order[UL_ATTACK_TEXT], renyi_value[UL_ATTACK_TEXT];
    char *certificate_path; /* a certificate file, or NULL */
    char *certificate_text; /* "auto": the generated certificate, or NULL */
    bool save_models;
    /* RMIA (UL_SCORE_RMIA): attack.population (its rows prepared as the
     * data's: scaled to norm 1 when the data are; labels ±1) and
     * attack.reference_models (ref_k models of p parameters, NULL: the first
     * half of the OUT runs) */
    ul_dataset population;
    double *ref_w;
    size_t ref_k;
    double rmia_a, rmia_gamma; /* attack.rmia_a, attack.rmia_gamma (defaults above) */
    char sha256[65]; /* of the configuration file's bytes */
} ul_attack_config;

/* Reads and checks a configuration file; data files are read relative to
 * the configuration's directory.  UL_EINPUT with the JSON path or file and
 * the rule.  On failure cfg is empty (nothing to free). */
ul_status ul_attack_config_load(const char *path, ul_attack_config *cfg, char *err, size_t errlen);
void ul_attack_config_free(ul_attack_config *cfg);

/* The running state: the plan, one chunk's models, and the records of the
 * chunks done (emp/shard.h: scores, not models, unless save_models).  A
 * state trains the chunks [c0, c1) of its slice in order (all of them
 * unless ul_attack_set_slice chose a shard). */
typedef struct {
    const ul_attack_config *cfg;
    ul_exp_plan plan;
    size_t p;                /* parameters per model */
    size_t c0, c1, next;     /* the slice's chunks; the next one to train */
    size_t done, total;      /* runs per world finished / in the slice */
    double *W_in, *W_out;    /* one chunk: p × chunk each */
    ul_shard_log log;        /* the chunks' records */
    ul_shard_file file;      /* the checkpoint being appended (file.f NULL: none) */
    long long ckpt_cut;      /* bytes of a record cut off mid-write that the last
                                checkpoint load dropped (0: none): the caller says so */
    uint8_t data_sha256[32]; /* SHA-256 of the prepared data (n, d, x, y) */
} ul_attack_state;

/* Picks the target, builds the plan (takes cfg->data) and allocates. */
ul_status ul_attack_prepare(ul_attack_state *st, ul_attack_config *cfg, char *err, size_t errlen);
/* Shard i of k (0 ≤ i < k ≤ number of chunks): the chunks ⌊i·n/k⌋ …
 * ⌊(i+1)·n/k⌋ − 1 (emp/shard.h).  Before any step. */
ul_status ul_attack_set_slice(ul_attack_state *st, size_t i, size_t k, char *err, size_t errlen);
/* Any range of chunks [c0, c1) (c0 ≤ c1 ≤ number of chunks), e.g. one
 * phase of an MPI rank; closes the checkpoint, keeps the records. */
void ul_attack_set_range(ul_attack_state *st, size_t c0, size_t c1);
/* Runs the next chunk of the slice (done advances) and appends its record
 * to the checkpoint when one is open; no-op when the slice is done. */
ul_status ul_attack_step(ul_attack_state *st, char *err, size_t errlen);
void ul_attack_state_free(ul_attack_state *st);

/* This state's file identity (configuration, data, target, slice). */
ul_shard_id ul_attack_id(const ul_attack_state *st);

/* Checkpoints (and shard files: the same format, emp/shard.h, version 03).
 * _start writes a fresh file at path (header only) that every step then
 * appends to; _load verifies the file at path (every digest, the
 * configuration, the data, the shape, target and slice), restores the
 * records and continues appending after them.  A record cut off mid-write
 * at the end (the writer killed) is dropped and its chunk runs again:
 * ckpt_cut holds its length, for the caller to report.  A refused file:
 * UL_EINPUT, the path and the reason, and nothing restored (done stays 0). */
ul_status ul_attack_checkpoint_start(ul_attack_state *st, const char *path, char *err,
                                     size_t errlen);
ul_status ul_attack_checkpoint_load(ul_attack_state *st, const char *path, char *err,
                                    size_t errlen);

/* Merging shards: reads a complete shard file (or any stream holding one,
 * name for messages) into st, refusing another configuration, data or
 * shape, a slice that overlaps chunks already read, and an incomplete
 * shard.  After all of them ul_attack_finish refuses gaps. */
ul_status ul_attack_merge_stream(ul_attack_state *st, FILE *f, const char *name, char *err,
                                 size_t errlen);

/* Removes, from the directory dir, the temporary files that
 * ul_io_write_atomic (io/file.h) leaves when its process is killed
 * mid-write (SIGKILL, power loss): regular files named
 * ".<name>.tmp.<pid>.<n>" for one of the n_names names, whose process
 * <pid> no longer exists.  Files of a live process (this one included) and
 * every other name are left alone.  Returns how many were removed; the
 * first one that could not be removed is described in err (the others are
 * skipped silently).  A directory that cannot be read removes nothing. */
size_t ul_attack_clean_temps(const char *dir, const char *const *names, size_t n_names, char *err,
                             size_t errlen);

/* Whether the checkpoints in the directory dir were written by a run of
 * the same layout as this one, which --resume continues: ranks = this
 * run's MPI ranks (1 without MPI).  The MPI build names its checkpoints
 * "rank-R-of-K.bin" and "rank-R-of-K-fit.bin" (cli/attack.c), one process
 * "checkpoint.bin"; a rank count that differs would find no file of its
 * own and start over, leaving the others.  UL_EINPUT naming the directory
 * and the rank count it holds when a rank file of K ≠ ranks is there, or
 * (ranks > 1) checkpoint.bin; UL_OK otherwise (a directory that cannot be
 * read included: opening the checkpoint then says why). */
ul_status ul_attack_resume_layout(const char *dir, int ranks, char *err, size_t errlen);

/* The UL_SCORE_* bit of a score's name ("loss", "gaussian-lr",
 * "lira-online", "lira-offline"), 0 for any other text; and the name of a
 * bit (NULL for none).  The one list of the names (configuration, flags). */
int ul_attack_score_bit(const char *name);
const char *ul_attack_score_name(int bit);

/* One score's statistics. */
typedef struct {
    const char *name; /* "loss", "gaussian-lr", "lira-online", "lira-offline" or "rmia" */
    int bit;          /* its UL_SCORE_* bit */
    /* its level: α/alpha_divisor (S, or 1 for the primary, S − 1 for an
     * exploratory score), as text for the report; role "primary",
     * "exploratory" or NULL (no primary: Bonferroni across all scores) */
    unsigned alpha_divisor;
    char alpha[UL_ATTACK_TEXT];
    const char *role;
    size_t n_in, n_out;
    ul_emp_roc roc;        /* ROC, AUC, TPR@FPR, certified ε lower bound */
    double advantage;      /* TPR − FPR at the best-advantage threshold */
    mpfr_t adv_lo, adv_hi; /* its interval (lo rounded down, hi up) */
    bool refutes;
    /* the scores themselves, IN first (n_in) then OUT (n_out), for the
     * per-run file; the scored runs of a world are the runs in0 … in0 +
     * n_in − 1 (out0 …): the runs before them fitted the score (LiRA,
     * gaussian-lr) */
    double *values;
    size_t in0, out0;
    /* the Gaussian-DP ESTIMATE (stats/gdp.h; never a bound): μ̂ from the
     * AUC and its ε at the claimed δ (NAN without a δ in (0, 1)) */
    double gdp_mu, gdp_eps;
    /* the largest ε lower bound these counts can certify (capacity below) */
    mpfr_t eps_max;
} ul_attack_score;

typedef struct {
    size_t target, n, d, p, runs;
    char alpha_each[UL_ATTACK_TEXT]; /* α / number of scores (no primary), else
                                        the exploratory scores' α/(S − 1) */
    const char *primary;             /* the primary score's name, NULL: none */
    int n_scores;
    ul_attack_score score[UL_ATTACK_MAX_SCORES];
    bool has_claim;
    mpfr_t ceiling; /* the claim's advantage ceiling (rounded up) */
    char ceiling_source[128];
    const char *verdict; /* "consistent", "refuted", "no claim" */
    bool has_audit;
    ul_audit_report audit; /* the certificate's audit */
    char audit_method[32];
    char explanation[1024];
    /* the capacity of the sample (ul_attack_capacity): the largest ε_lb and
     * advantage lower bound of any score (a perfect separation), the
     * claim's ε at its δ (NAN: none; claim_eps_renyi: a Rényi claim's,
     * Mironov 2017 Prop. 3), and when the claim's ε is not below eps_max
     * the runs per world that could certify more (0: not needed or no ε);
     * runs_certified: the certified capacity at runs_needed passes the
     * claim (else runs_needed is a lower bound of the runs needed) */
    mpfr_t eps_max;
    double adv_max, claim_eps;
    bool claim_eps_renyi;
    size_t runs_needed;
    bool runs_certified;
    /* RMIA's constants as used (attack.h, UL_SCORE_RMIA), for the record;
     * 0 when RMIA was not computed */
    double rmia_a, rmia_gamma;
} ul_attack_result;

/* ---- what a sample size can certify ---------------------------------------
 *
 * The largest ε lower bound a score's test can certify from n_in IN and
 * n_out OUT scores is the one of a perfect separation (every IN score above
 * every OUT score): the JOINT test's p-value at a threshold grows with the
 * false counts, so no other data gives a larger bound at the same counts.
 * It is computed by running the attack's own test (stats/eps_lb.h, JOINT,
 * geometric weights, level α/S) on such scores, certified and rounded down.
 * A claim whose ε is at or above it cannot be refuted by that score's bound
 * whatever the learner does. */
typedef struct {
    mpfr_t eps_max;      /* the largest over the scores (rounded down) */
    unsigned long level_divisor; /* the best test ran at α/S/level_divisor */
    size_t n_in, n_out;  /* the counts of the score that reaches it */
    double estimate;     /* the double estimate that chose its test (stats/eps_lb.h) */
    /* The advantage test (attack.h) at a perfect separation: its largest
     * lower bound over the scores (TPR = 1 and FPR = 0 under the same
     * Clopper–Pearson bounds and Bonferroni family), rounded down; a
     * claim whose advantage ceiling (rounded up; NAN: no claim) is at or
     * above it cannot be refuted by the advantage test either. */
    double adv_max, ceiling;
    /* The claim's ε at the claimed δ, rounded up (NAN: none): its ε, or for
     * a Rényi-only claim the (ε(δ), δ) it implies, ε(δ) = value +
     * log(1/δ)/(order − 1) (Mironov 2017, "Rényi differential privacy",
     * Prop. 3; renyi true), which needs δ ∈ (0, 1). */
    double claim_eps;
    bool renyi;
    size_t runs_needed;  /* least runs per world with eps_max > claim_eps;
                            0 when claim_eps is below eps_max or absent */
    bool runs_certified; /* the certified capacity at runs_needed passes
                            claim_eps (false: runs_needed is only a lower
                            bound of the runs needed) */
} ul_attack_capacity;

/* The capacity for `runs` runs (models) per world of the scores in the
 * UL_SCORE_* bits sc->scores, with the fitting rule of the scores (LiRA and
 * gaussian-lr fit on the first ⌊runs/2⌋ of a world, emp/shard.h; RMIA's
 * references are the first ⌊runs/2⌋ OUT runs unless sc->W_ref gives them,
 * UL_SCORE_RMIA above), sc->alpha
 * (the whole α: divided by the number of scores here; with sc->primary only
 * the primary score counts, at all of α: it alone decides) and the claim of sc
 * (eps, delta — "" or NULL: 0 — renyi_order, renyi_value; "" or NULL:
 * none).  runs_needed: searched in doubles from the closed form of the
 * best test at zero errors (attack.c), a lower bound of the runs needed,
 * corrected by the test's double estimate there, and certified at the
 * value found (at most twice, never above 100000 runs per world):
 * runs_certified says the certified capacity at runs_needed passes the
 * claim; when it is false runs_needed is only a lower bound.
 * Initialises cap (clear with ul_attack_capacity_clear, also after an
 * error). */
typedef struct ul_attack_scoring ul_attack_scoring;
ul_status ul_attack_capacity_of(ul_attack_capacity *cap, const ul_attack_scoring *sc, size_t runs,
                                char *err, size_t errlen);
void ul_attack_capacity_clear(ul_attack_capacity *cap);

/* The largest ε lower bound of the attack's test from n_in and n_out scores
 * (a perfect separation) at level alpha_each (already divided by the
 * number of scores) and delta; *divisor receives the level divisor of the
 * test that reached it (NULL: not wanted). */
ul_status ul_attack_eps_max(mpfr_ptr eps_max, size_t n_in, size_t n_out, mpfi_srcptr alpha_each,
                            mpfi_srcptr delta, unsigned long *divisor, char *err, size_t errlen);

/* Scores the released models W_in (p×k_in) and W_out (p×k_out) — the
 * trained ones of a state, or models read from disk.  x/y: the target
 * record (x NULL: no loss score).  Claims and α come from cfg-like fields:
 * eps/delta/renyi texts may be empty.  res is initialised here; clear it
 * with ul_attack_result_clear (also after an error). */
struct ul_attack_scoring {
    const ul_model *model; /* for the loss score (NULL: none) */
    const double *x;       /* target features (d), NULL: none */
    size_t d;
    double y;
    int scores; /* UL_SCORE_* bits, LiRA's included */
    int primary; /* one bit of scores: the pre-registered primary (0: none) */
    const char *alpha, *eps, *delta, *renyi_order, *renyi_value;
    /* RMIA (UL_SCORE_RMIA): pop_n population records (rows of pop_x, d
     * features each, labels ±1 in pop_y), and k_ref reference models W_ref
     * (p × k_ref; NULL: the first half of the OUT models); rmia_a (offline
     * a ∈ (0, 1]) and rmia_gamma (γ > 0), 0: the defaults UL_RMIA_A_DEFAULT
     * and UL_RMIA_GAMMA_DEFAULT (above) */
    const double *pop_x, *pop_y;
    size_t pop_n;
    const double *W_ref;
    size_t k_ref;
    double rmia_a, rmia_gamma;
};

ul_status ul_attack_score_models(ul_attack_result *res, const ul_attack_scoring *sc,
                                 const double *W_in, size_t k_in, const double *W_out, size_t k_out,
                                 size_t p, char *err, size_t errlen);

/* The same from scores already computed (NULL arrays: that score not
 * computed); sc->model and sc->x are not used.  The LiRA bits of
 * sc->scores add the LiRA scores computed from the loss scores (in run
 * order); when a LiRA bit is set, the loss score itself is reported only
 * if UL_SCORE_LOSS is set too. */
typedef struct {
    const double *loss_in, *loss_out; /* n_in, n_out loss scores */
    size_t n_in, n_out;
    const double *lr_in, *lr_out; /* the held-out gaussian-lr scores */
    size_t lr_n_in, lr_n_out;
    size_t lr_in0, lr_out0; /* the run numbers of the first held-out ones */
    const double *rmia_in, *rmia_out; /* the scored runs' RMIA scores (NULL: none) */
    size_t rmia_n_in, rmia_n_out;
    size_t rmia_in0, rmia_out0;
} ul_attack_values;

ul_status ul_attack_score_values(ul_attack_result *res, const ul_attack_scoring *sc,
                                 const ul_attack_values *v, size_t p, char *err, size_t errlen);

/* A configuration's scores, α and claim as a scoring (its texts, borrowed). */
ul_attack_scoring ul_attack_config_scoring(const ul_attack_config *cfg);

/* All of it once every chunk is recorded (all of a state's own, or merged
 * shards): scores, statistics, claim, certificate.  Refuses gaps. */
ul_status ul_attack_finish(ul_attack_result *res, ul_attack_state *st, char *err, size_t errlen);
void ul_attack_result_clear(ul_attack_result *res);

/* ---- the ε–δ figure's curves ----------------------------------------------
 *
 * The certified empirical lower bound of score k of the result as a curve
 * ε_lb(δ): at each delta[i] (in (0, 1)) the attack's own test (JOINT,
 * geometric weights, the score's level α/alpha_divisor with alpha the whole
 * α the result was computed with: searched in doubles and certified once, stats/eps_lb.h)
 * on that score's values, rounded down to a double.  Each point holds with
 * probability ≥ 1 − α/S; the points are pointwise, not a band simultaneous
 * in δ.  Each costs one certified bound (about 70 ms at 512 runs per
 * world): the caller chooses few δ and one score.  UL_EINPUT names
 * "delta" (outside (0, 1)) or the score. */
ul_status ul_attack_eps_lb_curve(const ul_attack_result *res, int k, const char *alpha,
                                 const double *delta, size_t n, double *eps_lb, char *err,
                                 size_t errlen);

/* The certificate's curve (audit/curve.h) as (δ, ε) points for the ε–δ
 * figure, δ ascending: δ(ε) curves give (hi[i], x[i]), ε(δ) curves (x[i],
 * hi[i]) — the certified ceiling, the end that does not favour the claim;
 * points with a NAN or δ outside (0, 1) are left out.  Returns how many
 * were written (0 when the curve has none: n = 0). */
size_t ul_attack_cert_points(const ul_audit_curve *c, double *delta, double *eps);

/* The exit status of a result, by the command line's contract
 * (cli/exitcodes.h, the audit's ul_verdict_exit_code): 1 when the attack
 * refuted the claim, or when the certificate audited beside it is
 * unsupported, refuted or invalid (its guarantee is not established, whatever
 * the attack found); else 3 when the certificate's audit is inconclusive;
 * else 0 (consistent, or no claim, with no certificate or a supported one). */
int ul_attack_exit_code(const ul_attack_result *res);

/* The result as text (for a terminal) and as JSON (stable keys, README);
 * malloc'd, NULL when out of memory.  Both state the exit status and, when
 * the certificate is not supported, that its guarantee is not established. */
char *ul_attack_result_text(const ul_attack_result *res);
char *ul_attack_result_json(const ul_attack_result *res);

#endif
