/* src/calc/table.c — the quantity table of `ulaudit calc` and of the
 * library's ulaudit_calc: one row per quantity with its flags, a one-line
 * summary, an example, and the function of src/calc that computes it.
 * Every reported value is an enclosure [lo, hi] printed with lo rounded
 * down and hi rounded up (docs/design.md, "Command-line contract").
 */
#include <stdio.h>
#include <string.h>

#include "calc/internal.h"

/* Every quantity's time budget (issue 12, bounded time on hostile input):
 * ul_calc_run sets it as the process deadline (num/deadline.h), which the
 * library's loops ask between rounds; past it the answer is inconclusive
 * (exit 3) with the reason, never a hang.  The default is audit's; it is
 * an object of its own, so that a flag left at it is told by its address
 * from one given as the same text (calc/run.c). */
const char ul_calc_budget_default[] = UL_CALC_DEFAULT_MAX_SECONDS;
#define CALC_MAX_SECONDS_FLAG                                                                      \
    {"max-seconds", "S",                                                                           \
     "time budget in seconds, 1e-9 to 1e9, 0: none (default " UL_CALC_DEFAULT_MAX_SECONDS          \
     "; past it exit 3)",                                                                          \
     ul_calc_budget_default}

static const ul_calc_quantity QUANTITIES[] = {
    {"theta",
     "E_{e^E}(N(0,1) || N(R,1)) = theta_{e^E}(R), the Gaussian hockey-stick divergence",
     "ulaudit calc theta --eps 1 --r 0.5",
     {{"eps", "E", "privacy parameter, any real (negative uses reciprocity)", NULL},
      {"r", "R", "distance of the means over sigma", NULL},
      CALC_MAX_SECONDS_FLAG},
     3,
     {{"eps", &ul_domain_eps_any, ""}, {"r", &ul_domain_r, ""}},
     ul_calc_theta},
    {"gauss-sigma",
     "the smallest sigma with theta_{e^E}(S/sigma) <= D",
     "ulaudit calc gauss-sigma --eps 1 --delta 1e-5 --sensitivity 2",
     {{"eps", "E", "privacy parameter", NULL},
      {"delta", "D", "target", NULL},
      {"sensitivity", "S", "l2 sensitivity", "1"},
      CALC_MAX_SECONDS_FLAG},
     4,
     {{"eps", &ul_domain_eps, ""}, {"delta", &ul_domain_delta, ""}, {"sensitivity", &ul_domain_sensitivity, " (default 1)"}},
     ul_calc_gauss_sigma},
    {"gauss-eps",
     "the smallest eps >= 0 with theta_{e^eps}(R) <= D",
     "ulaudit calc gauss-eps --r 0.5 --delta 1e-5",
     {{"r", "R", "distance of the means over sigma", NULL},
      {"delta", "D", "target", NULL},
      CALC_MAX_SECONDS_FLAG},
     3,
     {{"r", &ul_domain_r, ""}, {"delta", &ul_domain_delta, ""}},
     ul_calc_gauss_eps},
    {"contraction",
     "delta after T clipping + noise steps: delta_0 * prod theta_{e^E}(R_t), or the adaptive "
     "recursion",
     "ulaudit calc contraction --eps 1 --r 2 --steps 10 --delta0 0.1 --mode adaptive",
     {{"eps", "E", "target eps", NULL},
      {"r", "R", "diameter/sigma per step: one value, or a comma list of T values", NULL},
      {"steps", "T", "number of noisy steps, 0..100000000", NULL},
      {"delta0", "D0", "starting delta", "1"},
      {"mode", "M", "", "product"},
      CALC_MAX_SECONDS_FLAG},
     6,
     {{"eps", &ul_domain_eps, ""}, {"delta0", &ul_domain_delta0, " (default 1)"}, {"mode", &ul_domain_mode, " (default product)"}},
     ul_calc_contraction},
    {"contraction-steps",
     "the least T with delta_T <= D (constant R)",
     "ulaudit calc contraction-steps --eps 1 --r 1.5 --delta 1e-6 --mode adaptive",
     {{"eps", "E", "target eps", NULL},
      {"r", "R", "diameter/sigma, one value", NULL},
      {"delta", "D", "target", NULL},
      {"delta0", "D0", "starting delta", "1"},
      {"mode", "M", "", "product"},
      {"max-steps", "N", "give up after N steps (default 100000000)", "100000000"},
      CALC_MAX_SECONDS_FLAG},
     7,
     {{"eps", &ul_domain_eps, ""},
      {"delta0", &ul_domain_delta0, " (default 1)"},
      {"mode", &ul_domain_mode, " (default product)"},
      {"delta", &ul_domain_delta, ""}},
     ul_calc_contraction_steps},
    {"contraction-sigma",
     "the smallest constant sigma with delta_T <= D after T steps of diameter DIAM",
     "ulaudit calc contraction-sigma --eps 1 --diameter 2 --steps 8 --delta 1e-5",
     {{"eps", "E", "target eps", NULL},
      {"diameter", "DIAM", "diameter of the pre-noise set (2*C_2 for model clipping)", NULL},
      {"steps", "T", "number of noisy steps, 1..100000000", NULL},
      {"delta", "D", "target", NULL},
      {"delta0", "D0", "starting delta", "1"},
      {"mode", "M", "", "product"},
      CALC_MAX_SECONDS_FLAG},
     7,
     {{"eps", &ul_domain_eps, ""},
      {"delta0", &ul_domain_delta0, " (default 1)"},
      {"mode", &ul_domain_mode, " (default product)"},
      {"delta", &ul_domain_delta, ""}},
     ul_calc_contraction_sigma},
    {"rdp-to-dp",
     "eps from one RDP point (alpha, rdp) at delta",
     "ulaudit calc rdp-to-dp --alpha 32 --rdp 0.5 --delta 1e-5 --conversion bbghs",
     {{"alpha", "A", "Renyi order", NULL},
      {"rdp", "V", "Renyi divergence at A", NULL},
      {"delta", "D", "target", NULL},
      {"conversion", "C", "", "bbghs"},
      CALC_MAX_SECONDS_FLAG},
     5,
     {{"alpha", &ul_domain_alpha, ""}, {"rdp", &ul_domain_rdp, ""}, {"delta", &ul_domain_delta, ""}, {"conversion", &ul_domain_conversion, " (default bbghs)"}},
     ul_calc_rdp_to_dp},
    {"gauss-rdp-eps",
     "eps of the Gaussian mechanism (r = sensitivity/sigma) through RDP at the best alpha",
     "ulaudit calc gauss-rdp-eps --r 0.5 --delta 1e-5",
     {{"r", "R", "sensitivity/sigma", NULL},
      {"delta", "D", "target", NULL},
      {"conversion", "C", "", "bbghs"},
      CALC_MAX_SECONDS_FLAG},
     4,
     {{"r", &ul_domain_r_pos, ""}, {"delta", &ul_domain_delta, ""}, {"conversion", &ul_domain_conversion, " (default bbghs)"}},
     ul_calc_gauss_rdp_eps},
    {"sgm-rdp",
     "RDP of the Poisson-subsampled Gaussian at order A (integer or fractional)",
     "ulaudit calc sgm-rdp --q 0.01 --sigma 1.1 --alpha 8",
     {{"q", "Q", "sampling rate", NULL},
      {"sigma", "S", "noise multiplier sigma/sensitivity", NULL},
      {"alpha", "A", "Renyi order", NULL},
      CALC_MAX_SECONDS_FLAG},
     4,
     {{"q", &ul_domain_q, ""}, {"sigma", &ul_domain_sigma, ""}, {"alpha", &ul_domain_alpha_sgm, ""}},
     ul_calc_sgm_rdp},
    {"pld-compose",
     "delta(eps), or eps(delta), of the composed (subsampled) Gaussian by FFT privacy-loss "
     "composition, a proven bracket",
     "ulaudit calc pld-compose --sigma 1.1 --q 0.01 --steps 1000 --eps 1",
     {{"sigma", "S", "noise multiplier (noise std over sensitivity 1), with --steps (or --r)",
       "none"},
      {"sensitivity", "SENS", "l2 sensitivity of each step (default 1)", "none"},
      {"r", "R", "sensitivity/sigma, 0 < R <= 1000 (read as sigma 1, sensitivity R)", "none"},
      {"q", "Q", "Poisson sampling rate", "1"},
      {"steps", "T", "number of compositions, 1..999999999", "none"},
      {"phases", "LIST",
       "SIGMA:Q:STEPS[:SENS],... phases of different noise (instead of --sigma/--q/--steps)",
       "none"},
      {"eps", "E", "", "none"},
      {"delta", "D", "", "none"},
      {"adjacency", "A", "both, add, remove or replace (default both: the max)", "both"},
      {"rel-width", "W", "target relative width of the bracket (default 1e-3)", "1e-3"},
      {"fft", "F", "auto, double or long (default auto)", "auto"},
      CALC_MAX_SECONDS_FLAG},
     12,
     {{"q", &ul_domain_q_pos, " (default 1: no subsampling)"},
      {"eps", &ul_domain_eps_pld, ": report delta(eps) (or give --delta)"},
      {"delta", &ul_domain_delta, ": report eps(delta) (or give --eps)"}},
     ul_calc_pld_compose},
    {"noisygd-k",
     "the least K_Abar (unlearning steps) whose Thm G.15 deletion bound is <= eps-dd (Chourasia "
     "& Shah)",
     "ulaudit calc noisygd-k --q 2 --l 1 --lambda 0.01 --beta 1 --sigma 0.001 --eta 0.5 "
     "--n 60000 --eps-dd 0.01",
     {{"q", "Q", "Renyi order, 0 < Q <= 1e12 (precondition q_gt_1: Q > 1)", NULL},
      {"l", "L", "Lipschitz constant (or clip norm) of the loss", NULL},
      {"lambda", "LAMBDA", "L2 regularisation", NULL},
      {"beta", "BETA", "smoothness of the per-record loss", NULL},
      {"sigma", "S", "the paper's sigma (step noise variance 2*ETA*S^2)", NULL},
      {"eta", "ETA", "step size", NULL},
      {"n", "N", "database size, whole number 1..1e18", NULL},
      {"eps-dd", "E", "deletion target (Renyi of order Q, not an (eps, delta)), 0 < E <= 1e12",
       NULL},
      {"init-var", "V", "initialisation variance per coordinate", "none"},
      {"form", "F",
       "tight (the proof's bound) or stated (the relaxed one Thm 5.1 uses) (default tight)",
       "tight"},
      {"max-k", "K", "give up after K steps, 1..999999999 (default none: no limit)", "none"},
      CALC_MAX_SECONDS_FLAG},
     12,
     {{"l", &ul_domain_nonneg, ""},
      {"lambda", &ul_domain_positive, ""},
      {"beta", &ul_domain_nonneg, ""},
      {"sigma", &ul_domain_positive, ""},
      {"eta", &ul_domain_nonneg, " (precondition: ETA < 1/(LAMBDA + BETA))"},
      {"init-var", &ul_domain_positive,
       ", checked against sigma^2/(lambda(1 - eta*lambda/2)) (default none: not checked)"}},
     ul_calc_noisygd_k},
    {"noisygd-sigma",
     "the smallest Noisy-GD sigma (step noise variance 2*eta*sigma^2) reaching an RDP target "
     "(Thm G.7, G.9) or a deletion target (Thm G.15)",
     "ulaudit calc noisygd-sigma --kind g15 --q 2 --l 1 --eta 0.5 --n 60000 --lambda 0.01 "
     "--beta 1 --kabar 100 --eps-dd 0.01",
     {{"kind", "KIND",
       "g7 (RDP of K steps, any loss), g9 (RDP, convex) or g15 (deletion after K_Abar steps)",
       NULL},
      {"q", "Q", "Renyi order, 0 < Q <= 1e12 (precondition q_gt_1: Q > 1)", NULL},
      {"l", "L", "Lipschitz constant (or clip norm) of the loss", NULL},
      {"eta", "ETA", "step size", NULL},
      {"n", "N", "database size, whole number 1..1e18", NULL},
      {"lambda", "LAMBDA", "L2 regularisation", "none"},
      {"beta", "BETA", "smoothness of the loss", "none"},
      {"k", "K", "iterations, whole 0..1e300 (g7; g9 optional; default none: g9's sup over K)",
       "none"},
      {"kabar", "KBAR", "unlearning iterations K_Abar, whole 0..1e300 (g15; default none)", "none"},
      {"eps-dp", "E", "RDP target of order Q, 0 < E <= 1e12 (g7, g9; default none)", "none"},
      {"eps-dd", "E", "deletion target of order Q, 0 < E <= 1e12 (g15; default none)", "none"},
      {"form", "F", "g15's form: tight or stated (default tight)", "tight"},
      CALC_MAX_SECONDS_FLAG},
     13,
     {{"l", &ul_domain_nonneg, ""},
      {"eta", &ul_domain_nonneg, " (g9, g15 precondition: ETA < 1/(LAMBDA+BETA))"},
      {"lambda", &ul_domain_positive, " (g9, g15; default none)"},
      {"beta", &ul_domain_nonneg, " (g9, g15; default none)"}},
     ul_calc_noisygd_sigma},
    {"model-clipping-t",
     "the least T with delta_T <= D for model clipping at a constant sigma (Koloskova et al. "
     "2025)",
     "ulaudit calc model-clipping-t --eps 1 --c2 1 --sigma 1 --delta 1e-5",
     {{"eps", "E", "target eps", NULL},
      {"c2", "C2", "model-clipping radius, 0 < C2 <= 1e100 (pre-noise diameter 2*C2)", NULL},
      {"sigma", "S", "per-step noise std (N(0, S^2 I)), 0 < S <= 1e100, D/S <= 1e9", NULL},
      {"delta", "D", "target", NULL},
      {"variant", "V",
       "cc1 (diameter 2*C2) or cc2 (gradient clipped to C1: diameter 2*(C2 + LR*C1)) "
       "(default cc1)",
       "cc1"},
      {"c1", "C1", "cc2's gradient clip, 0 < C1 <= 1e100 (cc2 only; default none)", "none"},
      {"lr", "LR", "cc2's largest learning rate, 0 < LR <= 1e100 (cc2 only; default none)", "none"},
      {"c0", "C0", "initial clip radius, 0 < C0 <= 1e100 (with --sigma0; default none)", "none"},
      {"sigma0", "S0",
       "initial noise std, 0 <= S0 <= 1e100: delta_0 = theta_{e^E}(D0/S0) (default none: "
       "delta_0 = 1)",
       "none"},
      {"init", "I",
       "initial clip: ball (D0 = 2*C0) or box [-C0,C0]^DIM (D0 = 2*C0*sqrt(DIM)) (default ball)",
       "ball"},
      {"dim", "DIM", "dimension d of the box, 1..999999999 (--init box; default none)", "none"},
      {"mode", "M",
       "product (default: the non-adaptive bound the paper's theorem states) or adaptive (the "
       "code's)",
       "product"},
      {"max-steps", "N", "give up after N steps, 1..999999999 (default 100000000)", "100000000"},
      CALC_MAX_SECONDS_FLAG},
     14,
     {{"eps", &ul_domain_eps, ""}, {"delta", &ul_domain_delta, ""}},
     ul_calc_model_clipping_t},
    {"model-clipping-sigma",
     "the smallest constant sigma with delta_T <= D after T model-clipping steps (Koloskova et "
     "al. 2025)",
     "ulaudit calc model-clipping-sigma --eps 1 --c2 1 --steps 8 --delta 1e-5",
     {{"eps", "E", "target eps", NULL},
      {"c2", "C2", "model-clipping radius, 0 < C2 <= 1e100 (pre-noise diameter 2*C2)", NULL},
      {"steps", "T", "number of noisy steps, 1..100000000", NULL},
      {"delta", "D", "target", NULL},
      {"variant", "V", "cc1 or cc2, as for model-clipping-t (default cc1)", "cc1"},
      {"c1", "C1", "cc2's gradient clip, 0 < C1 <= 1e100 (cc2 only; default none)", "none"},
      {"lr", "LR", "cc2's largest learning rate, 0 < LR <= 1e100 (cc2 only; default none)", "none"},
      {"c0", "C0", "initial clip radius, 0 < C0 <= 1e100 (with --sigma0; default none)", "none"},
      {"sigma0", "S0", "initial noise std, 0 <= S0 <= 1e100 (default none: delta_0 = 1)", "none"},
      {"init", "I", "ball or box, as for model-clipping-t (with --sigma0; default ball)", "ball"},
      {"dim", "DIM", "dimension d of the box, 1..999999999 (--init box; default none)", "none"},
      {"mode", "M",
       "product (default: the paper's non-adaptive theorem) or adaptive (the public code's "
       "recursion)",
       "product"},
      CALC_MAX_SECONDS_FLAG},
     13,
     {{"eps", &ul_domain_eps, ""}, {"delta", &ul_domain_delta, ""}},
     ul_calc_model_clipping_sigma},
    {"output-perturbation-sigma",
     "the smallest sigma with theta_{e^E}(2*C0/sigma) <= D (output perturbation), beside the "
     "classic calibration",
     "ulaudit calc output-perturbation-sigma --c0 1 --eps 1 --delta 1e-5",
     {{"c0", "C0", "radius of the clip before the noise, 0 < C0 <= 1e100", NULL},
      {"eps", "E", "target eps, 0 < E <= 1e9 (the classic domain E < 1: reported, not enforced)",
       NULL},
      {"delta", "D", "target", NULL},
      CALC_MAX_SECONDS_FLAG},
     4,
     {{"delta", &ul_domain_delta, ""}},
     ul_calc_output_perturbation_sigma},
    {"langevin-sigma",
     "the smallest Langevin sigma with eps_DP(K, sigma, S) <= E (Chien et al., strongly convex)",
     "ulaudit calc langevin-sigma --n 11982 --m 0.011982 --L 0.261982 --M 1 --eps 0.5 --delta "
     "8.3458521115005842e-5 --K 1",
     {{"n", "N", "dataset size", NULL},
      {"m", "M", "strong convexity constant m > 0 (lambda of the L2 term)", NULL},
      {"L", "L", "smoothness constant, m <= L", NULL},
      {"M", "M", "Lipschitz constant / gradient clip norm > 0", NULL},
      {"eps", "E", "target (eps, delta)-unlearning eps > 0", NULL},
      {"delta", "D", "target delta", NULL},
      {"K", "K", "unlearning steps per request, 0..999999999", NULL},
      {"S", "S", "points removed per request (default 1)", "1"},
      {"eta", "H", "step size, eta <= 1/L (default none: 1/L)", "none"},
      {"rate", "R", "", "corrected"},
      {"T", "T", "learning iterations: only none (run to convergence; Thm 3.2 needs it)", "none"},
      CALC_MAX_SECONDS_FLAG},
     12,
     {{"n", &ul_domain_dataset_size, ""},
      {"delta", &ul_domain_delta, ""},
      {"rate", &ul_domain_rate, " (default corrected; equal in this case)"}},
     ul_calc_langevin_sigma},
    {"langevin-k",
     "the least K >= 0 with eps_DP(K, sigma, S) <= E, with the eps it reaches and the alpha used",
     "ulaudit calc langevin-k --n 11982 --m 0.011982 --L 0.261982 --M 1 --eps 0.5 --delta "
     "8.3458521115005842e-5 --sigma 0.05",
     {{"n", "N", "dataset size", NULL},
      {"m", "M", "strong convexity constant m > 0", NULL},
      {"L", "L", "smoothness constant, m <= L", NULL},
      {"M", "M", "Lipschitz constant / gradient clip norm > 0", NULL},
      {"eps", "E", "target eps > 0", NULL},
      {"delta", "D", "target delta", NULL},
      {"sigma", "S", "the Langevin sigma (noise variance 2*eta*sigma^2 per step) > 0", NULL},
      {"S", "S", "points removed per request (default 1)", "1"},
      {"eta", "H", "step size, eta <= 1/L (default none: 1/L)", "none"},
      {"rate", "R", "", "corrected"},
      {"T", "T", "learning iterations: only none (run to convergence; Thm 3.2 needs it)", "none"},
      CALC_MAX_SECONDS_FLAG},
     12,
     {{"n", &ul_domain_dataset_size, ""},
      {"delta", &ul_domain_delta, ""},
      {"rate", &ul_domain_rate, " (default corrected; equal in this case)"}},
     ul_calc_langevin_k},
};

#define N_QUANTITIES (sizeof QUANTITIES / sizeof QUANTITIES[0])

size_t ul_calc_count(void)
{
    return N_QUANTITIES;
}

const ul_calc_quantity *ul_calc_at(size_t i)
{
    return i < N_QUANTITIES ? &QUANTITIES[i] : NULL;
}

const ul_calc_quantity *ul_calc_find(const char *name)
{
    for (size_t i = 0; i < N_QUANTITIES; i++)
        if (strcmp(name, QUANTITIES[i].name) == 0)
            return &QUANTITIES[i];
    return NULL;
}

int ul_calc_library_nflags(const ul_calc_quantity *q)
{
    /* the budget (last in every row) is the command line's and --batch's
     * default; the library applies none unless it is passed (calc/run.c),
     * so its listing leaves it out */
    bool last_is_budget =
        q->nflags > 0 && q->flags[q->nflags - 1].default_value == ul_calc_budget_default;
    return q->nflags - (last_is_budget ? 1 : 0);
}

/* The input entry of flag i, by name (never by position). */
static const ul_calc_input *input_of(const ul_calc_quantity *q, int i)
{
    for (int k = 0; k < UL_CALC_MAX_INPUTS && q->inputs[k].flag != NULL; k++)
        if (strcmp(q->inputs[k].flag, q->flags[i].name) == 0)
            return &q->inputs[k];
    return NULL;
}

const ul_calc_domain *ul_calc_flag_domain(const ul_calc_quantity *q, int i)
{
    const ul_calc_input *in = input_of(q, i);
    return in != NULL ? in->domain : NULL;
}

void ul_calc_flag_help(const ul_calc_quantity *q, int i, char *out, size_t len)
{
    const ul_calc_input *in = input_of(q, i);
    if (in == NULL) {
        snprintf(out, len, "%s", q->flags[i].help);
        return;
    }
    char rule[128];
    ul_calc_domain_rule(in->domain, q->flags[i].meta, rule, sizeof rule);
    snprintf(out, len, "%s%s%s%s", q->flags[i].help, q->flags[i].help[0] != '\0' ? ", " : "", rule,
             in->tail);
}
