/* src/cli/calc.c — `ulaudit calc QUANTITY --flags`: the certified calculator.
 *
 * Each quantity is one row of the table below: its flags, a one-line
 * summary, an example, and a function that computes and reports it
 * (calc_gauss.c, calc_accounting.c; the shared output shape is in
 * calc_report.c).  Every reported value is an enclosure [lo, hi] printed
 * with lo rounded down and hi rounded up (DESIGN.md, command-line contract).
 */
#include "cli/calc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/calc_internal.h"
#include "io/escape.h"
#include "lib/calc_api.h"
#include "num/deadline.h"

/* Every quantity's time budget (issue 12, bounded time on hostile input):
 * run_quantity sets it as the process deadline (num/deadline.h), which the
 * library's loops ask between rounds; past it the answer is inconclusive
 * (exit 3) with the reason, never a hang.  The default is audit's; it is
 * an object of its own, so that a flag left at it is told by its address
 * from one given as the same text (read_budget). */
static const char budget_default[] = CALC_DEFAULT_MAX_SECONDS;
#define CALC_MAX_SECONDS_FLAG                                                                      \
    {"max-seconds", "S",                                                                           \
     "time budget in seconds, 1e-9 to 1e9, 0: none (default " CALC_DEFAULT_MAX_SECONDS             \
     "; past it exit 3)",                                                                          \
     budget_default}

static const calc_quantity QUANTITIES[] = {
    {"theta",
     "E_{e^E}(N(0,1) || N(R,1)) = theta_{e^E}(R), the Gaussian hockey-stick divergence",
     "ulaudit calc theta --eps 1 --r 0.5",
     {{"eps", "E", "privacy parameter, any real (negative uses reciprocity), |E| <= 1e9", NULL},
      {"r", "R", "distance of the means over sigma, 0 <= R <= 1e9", NULL},
      CALC_MAX_SECONDS_FLAG},
     3,
     calc_run_theta},
    {"gauss-sigma",
     "the smallest sigma with theta_{e^E}(S/sigma) <= D",
     "ulaudit calc gauss-sigma --eps 1 --delta 1e-5 --sensitivity 2",
     {{"eps", "E", "privacy parameter, 0 <= E <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"sensitivity", "S", "l2 sensitivity, 0 < S <= 1e100 (default 1)", "1"},
      CALC_MAX_SECONDS_FLAG},
     4,
     calc_run_gauss_sigma},
    {"gauss-eps",
     "the smallest eps >= 0 with theta_{e^eps}(R) <= D",
     "ulaudit calc gauss-eps --r 0.5 --delta 1e-5",
     {{"r", "R", "distance of the means over sigma, 0 <= R <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      CALC_MAX_SECONDS_FLAG},
     3,
     calc_run_gauss_eps},
    {"contraction",
     "delta after T clipping + noise steps: delta_0 * prod theta_{e^E}(R_t), or the adaptive "
     "recursion",
     "ulaudit calc contraction --eps 1 --r 2 --steps 10 --delta0 0.1 --mode adaptive",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"r", "R", "diameter/sigma per step: one value, or a comma list of T values", NULL},
      {"steps", "T", "number of noisy steps, 0..100000000", NULL},
      {"delta0", "D0", "starting delta, 0 < D0 <= 1 (default 1)", "1"},
      {"mode", "M", "product or adaptive (default product)", "product"},
      CALC_MAX_SECONDS_FLAG},
     6,
     calc_run_contraction},
    {"contraction-steps",
     "the least T with delta_T <= D (constant R)",
     "ulaudit calc contraction-steps --eps 1 --r 1.5 --delta 1e-6 --mode adaptive",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"r", "R", "diameter/sigma, one value", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"delta0", "D0", "starting delta, 0 < D0 <= 1 (default 1)", "1"},
      {"mode", "M", "product or adaptive (default product)", "product"},
      {"max-steps", "N", "give up after N steps (default 100000000)", "100000000"},
      CALC_MAX_SECONDS_FLAG},
     7,
     calc_run_contraction_steps},
    {"contraction-sigma",
     "the smallest constant sigma with delta_T <= D after T steps of diameter DIAM",
     "ulaudit calc contraction-sigma --eps 1 --diameter 2 --steps 8 --delta 1e-5",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"diameter", "DIAM", "diameter of the pre-noise set (2*C_2 for model clipping)", NULL},
      {"steps", "T", "number of noisy steps, 1..100000000", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"delta0", "D0", "starting delta, 0 < D0 <= 1 (default 1)", "1"},
      {"mode", "M", "product or adaptive (default product)", "product"},
      CALC_MAX_SECONDS_FLAG},
     7,
     calc_run_contraction_sigma},
    {"rdp-to-dp",
     "eps from one RDP point (alpha, rdp) at delta",
     "ulaudit calc rdp-to-dp --alpha 32 --rdp 0.5 --delta 1e-5 --conversion bbghs",
     {{"alpha", "A", "Renyi order, 1 < A <= 1e12", NULL},
      {"rdp", "V", "Renyi divergence at A, 0 <= V <= 1e12", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"conversion", "C", "mironov or bbghs (default bbghs)", "bbghs"},
      CALC_MAX_SECONDS_FLAG},
     5,
     calc_run_rdp_to_dp},
    {"gauss-rdp-eps",
     "eps of the Gaussian mechanism (r = sensitivity/sigma) through RDP at the best alpha",
     "ulaudit calc gauss-rdp-eps --r 0.5 --delta 1e-5",
     {{"r", "R", "sensitivity/sigma, 0 < R <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"conversion", "C", "mironov or bbghs (default bbghs)", "bbghs"},
      CALC_MAX_SECONDS_FLAG},
     4,
     calc_run_gauss_rdp_eps},
    {"sgm-rdp",
     "RDP of the Poisson-subsampled Gaussian at order A (integer or fractional)",
     "ulaudit calc sgm-rdp --q 0.01 --sigma 1.1 --alpha 8",
     {{"q", "Q", "sampling rate, 0 <= Q <= 1", NULL},
      {"sigma", "S", "noise multiplier sigma/sensitivity, 1e-3 <= S <= 1e6", NULL},
      {"alpha", "A", "Renyi order, 1 < A <= 10000", NULL},
      CALC_MAX_SECONDS_FLAG},
     4,
     calc_run_sgm_rdp},
    {"pld-compose",
     "delta(eps), or eps(delta), of the composed (subsampled) Gaussian by FFT privacy-loss "
     "composition, a proven bracket",
     "ulaudit calc pld-compose --sigma 1.1 --q 0.01 --steps 1000 --eps 1",
     {{"sigma", "S", "noise multiplier (noise std over sensitivity 1), with --steps (or --r)",
       "none"},
      {"sensitivity", "SENS", "l2 sensitivity of each step (default 1)", "none"},
      {"r", "R", "sensitivity/sigma, 0 < R <= 1000 (read as sigma 1, sensitivity R)", "none"},
      {"q", "Q", "Poisson sampling rate, 0 < Q <= 1 (default 1: no subsampling)", "1"},
      {"steps", "T", "number of compositions, 1..999999999", "none"},
      {"phases", "LIST",
       "SIGMA:Q:STEPS[:SENS],... phases of different noise (instead of --sigma/--q/--steps)",
       "none"},
      {"eps", "E", "|E| <= 1000: report delta(eps) (or give --delta)", "none"},
      {"delta", "D", "0 < D < 1: report eps(delta) (or give --eps)", "none"},
      {"adjacency", "A", "both, add, remove or replace (default both: the max)", "both"},
      {"rel-width", "W", "target relative width of the bracket (default 1e-3)", "1e-3"},
      {"fft", "F", "auto, double or long (default auto)", "auto"},
      CALC_MAX_SECONDS_FLAG},
     12,
     calc_run_pld_compose},
    {"noisygd-k",
     "the least K_Abar (unlearning steps) whose Thm G.15 deletion bound is <= eps-dd (Chourasia "
     "& Shah)",
     "ulaudit calc noisygd-k --q 2 --l 1 --lambda 0.01 --beta 1 --sigma 0.001 --eta 0.5 "
     "--n 60000 --eps-dd 0.01",
     {{"q", "Q", "Renyi order, 0 < Q <= 1e12 (precondition q_gt_1: Q > 1)", NULL},
      {"l", "L", "Lipschitz constant (or clip norm) of the loss, 0 <= L <= 1e100", NULL},
      {"lambda", "LAMBDA", "L2 regularisation, 0 < LAMBDA <= 1e100", NULL},
      {"beta", "BETA", "smoothness of the per-record loss, 0 <= BETA <= 1e100", NULL},
      {"sigma", "S", "the paper's sigma (step noise variance 2*ETA*S^2), 0 < S <= 1e100", NULL},
      {"eta", "ETA", "step size, 0 <= ETA <= 1e100 (precondition: ETA < 1/(LAMBDA + BETA))", NULL},
      {"n", "N", "database size, whole number 1..1e18", NULL},
      {"eps-dd", "E", "deletion target (Renyi of order Q, not an (eps, delta)), 0 < E <= 1e12",
       NULL},
      {"init-var", "V",
       "initialisation variance per coordinate, 0 < V <= 1e100, checked against "
       "sigma^2/(lambda(1 - eta*lambda/2)) (default none: not checked)",
       "none"},
      {"form", "F",
       "tight (the proof's bound) or stated (the relaxed one Thm 5.1 uses) (default tight)",
       "tight"},
      {"max-k", "K", "give up after K steps, 1..999999999 (default none: no limit)", "none"},
      CALC_MAX_SECONDS_FLAG},
     12,
     calc_run_noisygd_k},
    {"noisygd-sigma",
     "the smallest Noisy-GD sigma (step noise variance 2*eta*sigma^2) reaching an RDP target "
     "(Thm G.7, G.9) or a deletion target (Thm G.15)",
     "ulaudit calc noisygd-sigma --kind g15 --q 2 --l 1 --eta 0.5 --n 60000 --lambda 0.01 "
     "--beta 1 --kabar 100 --eps-dd 0.01",
     {{"kind", "KIND",
       "g7 (RDP of K steps, any loss), g9 (RDP, convex) or g15 (deletion after K_Abar steps)",
       NULL},
      {"q", "Q", "Renyi order, 0 < Q <= 1e12 (precondition q_gt_1: Q > 1)", NULL},
      {"l", "L", "Lipschitz constant (or clip norm) of the loss, 0 <= L <= 1e100", NULL},
      {"eta", "ETA", "step size, 0 <= ETA <= 1e100 (g9, g15 precondition: ETA < 1/(LAMBDA+BETA))",
       NULL},
      {"n", "N", "database size, whole number 1..1e18", NULL},
      {"lambda", "LAMBDA", "L2 regularisation, 0 < LAMBDA <= 1e100 (g9, g15; default none)",
       "none"},
      {"beta", "BETA", "smoothness of the loss, 0 <= BETA <= 1e100 (g9, g15; default none)",
       "none"},
      {"k", "K", "iterations, whole 0..1e300 (g7; g9 optional; default none: g9's sup over K)",
       "none"},
      {"kabar", "KBAR", "unlearning iterations K_Abar, whole 0..1e300 (g15; default none)", "none"},
      {"eps-dp", "E", "RDP target of order Q, 0 < E <= 1e12 (g7, g9; default none)", "none"},
      {"eps-dd", "E", "deletion target of order Q, 0 < E <= 1e12 (g15; default none)", "none"},
      {"form", "F", "g15's form: tight or stated (default tight)", "tight"},
      CALC_MAX_SECONDS_FLAG},
     13,
     calc_run_noisygd_sigma},
    {"model-clipping-t",
     "the least T with delta_T <= D for model clipping at a constant sigma (Koloskova et al. "
     "2025)",
     "ulaudit calc model-clipping-t --eps 1 --c2 1 --sigma 1 --delta 1e-5",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"c2", "C2", "model-clipping radius, 0 < C2 <= 1e100 (pre-noise diameter 2*C2)", NULL},
      {"sigma", "S", "per-step noise std (N(0, S^2 I)), 0 < S <= 1e100, D/S <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
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
     calc_run_model_clipping_t},
    {"model-clipping-sigma",
     "the smallest constant sigma with delta_T <= D after T model-clipping steps (Koloskova et "
     "al. 2025)",
     "ulaudit calc model-clipping-sigma --eps 1 --c2 1 --steps 8 --delta 1e-5",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"c2", "C2", "model-clipping radius, 0 < C2 <= 1e100 (pre-noise diameter 2*C2)", NULL},
      {"steps", "T", "number of noisy steps, 1..100000000", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
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
     calc_run_model_clipping_sigma},
    {"output-perturbation-sigma",
     "the smallest sigma with theta_{e^E}(2*C0/sigma) <= D (output perturbation), beside the "
     "classic calibration",
     "ulaudit calc output-perturbation-sigma --c0 1 --eps 1 --delta 1e-5",
     {{"c0", "C0", "radius of the clip before the noise, 0 < C0 <= 1e100", NULL},
      {"eps", "E", "target eps, 0 < E <= 1e9 (the classic domain E < 1: reported, not enforced)",
       NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      CALC_MAX_SECONDS_FLAG},
     4,
     calc_run_output_perturbation_sigma},
    {"langevin-sigma",
     "the smallest Langevin sigma with eps_DP(K, sigma, S) <= E (Chien et al., strongly convex)",
     "ulaudit calc langevin-sigma --n 11982 --m 0.011982 --L 0.261982 --M 1 --eps 0.5 --delta "
     "8.3458521115005842e-5 --K 1",
     {{"n", "N", "dataset size, whole number 1..1e15", NULL},
      {"m", "M", "strong convexity constant m > 0 (lambda of the L2 term)", NULL},
      {"L", "L", "smoothness constant, m <= L", NULL},
      {"M", "M", "Lipschitz constant / gradient clip norm > 0", NULL},
      {"eps", "E", "target (eps, delta)-unlearning eps > 0", NULL},
      {"delta", "D", "target delta, 0 < D < 1", NULL},
      {"K", "K", "unlearning steps per request, 0..999999999", NULL},
      {"S", "S", "points removed per request (default 1)", "1"},
      {"eta", "H", "step size, eta <= 1/L (default none: 1/L)", "none"},
      {"rate", "R", "printed or corrected (default corrected; equal in this case)", "corrected"},
      {"T", "T", "learning iterations: only none (run to convergence; Thm 3.2 needs it)", "none"},
      CALC_MAX_SECONDS_FLAG},
     12,
     calc_run_langevin_sigma},
    {"langevin-k",
     "the least K >= 0 with eps_DP(K, sigma, S) <= E, with the eps it reaches and the alpha used",
     "ulaudit calc langevin-k --n 11982 --m 0.011982 --L 0.261982 --M 1 --eps 0.5 --delta "
     "8.3458521115005842e-5 --sigma 0.05",
     {{"n", "N", "dataset size, whole number 1..1e15", NULL},
      {"m", "M", "strong convexity constant m > 0", NULL},
      {"L", "L", "smoothness constant, m <= L", NULL},
      {"M", "M", "Lipschitz constant / gradient clip norm > 0", NULL},
      {"eps", "E", "target eps > 0", NULL},
      {"delta", "D", "target delta, 0 < D < 1", NULL},
      {"sigma", "S", "the Langevin sigma (noise variance 2*eta*sigma^2 per step) > 0", NULL},
      {"S", "S", "points removed per request (default 1)", "1"},
      {"eta", "H", "step size, eta <= 1/L (default none: 1/L)", "none"},
      {"rate", "R", "printed or corrected (default corrected; equal in this case)", "corrected"},
      {"T", "T", "learning iterations: only none (run to convergence; Thm 3.2 needs it)", "none"},
      CALC_MAX_SECONDS_FLAG},
     12,
     calc_run_langevin_k},
};

#define N_QUANTITIES (sizeof QUANTITIES / sizeof QUANTITIES[0])

/* ---- help and dispatch ------------------------------------------------------ */

static void print_quantity_help(FILE *out, const calc_quantity *q)
{
    fprintf(out, "  %s", q->name);
    for (int i = 0; i < q->nflags; i++)
        fprintf(out, q->flags[i].default_value ? " [--%s %s]" : " --%s %s", q->flags[i].name,
                q->flags[i].meta);
    fprintf(out, "\n      %s\n", q->summary);
    for (int i = 0; i < q->nflags; i++)
        fprintf(out, "      --%-12s %s\n", q->flags[i].name, q->flags[i].help);
    fprintf(out, "      example: %s\n\n", q->example);
}

void ul_cli_calc_help(FILE *out)
{
    fprintf(out, "usage: ulaudit calc QUANTITY [flags] [--digits N] [--max-bits B] [--json]\n"
                 "       ulaudit calc QUANTITY [flags] --batch FILE|-\n\n"
                 "Certified calculator: every value is an enclosure [lo, hi] that contains the\n"
                 "true value (lo rounded down, hi rounded up).  Numbers are read exactly from\n"
                 "their decimal text.\n\n"
                 "Quantities:\n");
    for (size_t i = 0; i < N_QUANTITIES; i++)
        print_quantity_help(out, &QUANTITIES[i]);
    fprintf(out, "Common flags:\n"
                 "  --digits N     correct significant digits, 1..5000 (default 17)\n"
                 "  --max-bits B   working-precision cap in bits, 64..4194304 (default 65536)\n"
                 "  --json         one JSON object on stdout: quantity, inputs, lo, hi, digits,\n"
                 "                 precision_bits, cap_hit, and quantity-specific fields\n"
                 "  --batch FILE   many points in one process: JSON lines (flag names as keys)\n"
                 "                 or CSV (a header of flag names); - reads stdin; one result\n"
                 "                 or {\"line\":N,\"error\":...} line per record; flags given\n"
                 "                 beside it apply to every record (man ulaudit-calc)\n\n"
                 "Exit codes: 0 success, 2 usage or input error, 3 precision cap reached\n"
                 "(the enclosure printed is sound but has fewer digits than asked).\n");
}

static const calc_quantity *find_quantity(const char *name)
{
    for (size_t i = 0; i < N_QUANTITIES; i++)
        if (strcmp(name, QUANTITIES[i].name) == 0)
            return &QUANTITIES[i];
    return NULL;
}

static void unknown_quantity(const char *name)
{
    char quoted[128];
    fprintf(calc_err(), "ulaudit calc: unknown quantity '%s' (known:",
            ul_io_escape(name, strlen(name), quoted, sizeof quoted));
    for (size_t i = 0; i < N_QUANTITIES; i++)
        fprintf(calc_err(), " %s", QUANTITIES[i].name);
    fprintf(calc_err(), "; see ulaudit calc --help)\n");
}

/* --max-seconds S (calc_read_budget's rule) into *secs; false, with the message, when it breaks the rule.  Under a
 * sink (allow_help false: the library, --batch) a defaulted budget is not
 * applied, only one given: the deadline is process-wide, and the library
 * promises threads that it keeps no global state unless asked (--batch
 * passes the default as a flag, see batch.c). */
static bool read_budget(const calc_quantity *q, const char **values, bool allow_help,
                        double *secs)
{
    int slot = -1;
    for (int i = 0; i < q->nflags; i++)
        if (strcmp(q->flags[i].name, "max-seconds") == 0)
            slot = i;
    *secs = 0;
    if (slot < 0)
        abort(); /* every row declares it (CALC_MAX_SECONDS_FLAG) */
    if (!allow_help && values[slot] == budget_default)
        values[slot] = "0"; /* as echoed in the result's inputs */
    if (calc_read_budget(values[slot], secs))
        return true;
    fprintf(calc_err(), "ulaudit calc %s: --max-seconds: must be " CALC_BUDGET_RULE " (got '%s')\n",
            q->name, values[slot]);
    return false;
}

/* Runs q under its budget, unless a caller's budget is already running. */
static int run_budgeted(const calc_quantity *q, const char **values, const ul_cli_common *common,
                        bool allow_help)
{
    double secs;
    if (!read_budget(q, values, allow_help, &secs))
        return UL_EXIT_USAGE;
    bool started = secs > 0 && ul_deadline_seconds() == 0;
    if (started)
        ul_deadline_set(secs);
    char command[64];
    snprintf(command, sizeof command, "calc %s", q->name);
    /* the command line only: the watchdog ends the process (calc_report.c
     * reaches it through the hooks main.c installs, calc.h) */
    if (started && allow_help)
        calc_backstop_arm(command, secs);
    int rc = q->run(q, values, common);
    calc_backstop_end();
    if (started)
        ul_deadline_clear();
    return rc;
}

/* Parses the flags after the quantity and runs it; returns the exit code.
 * allow_help is false under a sink (library, --batch): --help is refused. */
static int run_quantity(const calc_quantity *q, int argc, char **argv, bool allow_help)
{
    const char *values[UL_CLI_MAX_FLAGS];
    ul_cli_common common;
    char err[256];
    if (ul_cli_parse(argc, argv, q->flags, q->nflags, values, &common, err, sizeof err)) {
        fprintf(calc_err(), "ulaudit calc %s: %s\n", q->name, err);
        return UL_EXIT_USAGE;
    }
    if (common.help && !allow_help) {
        fprintf(calc_err(), "ulaudit calc %s: --help is not an input\n", q->name);
        return UL_EXIT_USAGE;
    }
    if (common.help) {
        printf("usage: ulaudit calc %s [flags] [--digits N] [--max-bits B] [--json] "
               "[--batch FILE|-]\n\n", q->name);
        print_quantity_help(stdout, q);
        return UL_EXIT_OK;
    }
    if (!allow_help)
        common.json = true;
    return run_budgeted(q, values, &common, allow_help);
}

/* Drops the trailing newline and the "ulaudit " prefix of each line. */
static void copy_message(const char *text, char *err, size_t errlen)
{
    if (err == NULL || errlen == 0)
        return;
    size_t n = 0;
    for (const char *line = text; *line != '\0' && n + 1 < errlen;) {
        if (strncmp(line, "ulaudit ", 8) == 0)
            line += 8;
        size_t len = strcspn(line, "\n");
        if (n > 0 && n + 2 < errlen)
            err[n++] = ';', err[n++] = ' ';
        size_t room = errlen - 1 - n;
        memcpy(err + n, line, len < room ? len : room);
        n += len < room ? len : room;
        line += len;
        if (*line == '\n')
            line++;
    }
    err[n] = '\0';
}

int ul_cli_calc_capture(const char *quantity, int argc, char **argv, char **json, ul_status *st,
                        char *err, size_t errlen)
{
    char *out_text = NULL, *err_text = NULL;
    size_t out_len = 0, err_len = 0;
    calc_sink sink = {open_memstream(&out_text, &out_len), open_memstream(&err_text, &err_len),
                      UL_OK};
    if (sink.out == NULL || sink.err == NULL)
        abort();
    calc_sink_set(&sink);
    const calc_quantity *q = find_quantity(quantity);
    int rc = UL_EXIT_USAGE;
    if (q == NULL)
        unknown_quantity(quantity);
    else
        rc = run_quantity(q, argc, argv, false);
    calc_sink_set(NULL);
    fclose(sink.out);
    fclose(sink.err);
    copy_message(err_text, err, errlen);
    bool said = err_len > 0;
    free(err_text);
    *json = NULL;
    *st = rc == UL_EXIT_OK ? UL_OK : rc == UL_EXIT_INCONCLUSIVE ? UL_ECAP : UL_EINPUT;
    if (sink.status != UL_OK && sink.status != UL_ECAP)
        *st = sink.status; /* ENOROOT, ETIME: the library's reason */
    if (rc != UL_EXIT_USAGE && out_len > 0) {
        *json = out_text;
        (*json)[strcspn(*json, "\n")] = '\0';
        return rc;
    }
    if (rc == UL_EXIT_INCONCLUSIVE && said) { /* no result: the budget ran out */
        free(out_text);
        return rc;
    }
    if (rc != UL_EXIT_USAGE) { /* a quantity that printed around the sink */
        *st = UL_EINPUT;
        snprintf(err, errlen, "calc %s: no result captured (the quantity writes to stdout "
                 "directly; run it with ulaudit calc)", quantity);
        rc = UL_EXIT_USAGE;
    }
    free(out_text);
    return rc;
}

size_t ul_cli_calc_count(void)
{
    return N_QUANTITIES;
}

const ul_cli_flag *ul_cli_calc_quantity(size_t i, const char **name, const char **summary,
                                        int *nflags)
{
    const calc_quantity *q = &QUANTITIES[i];
    *name = q->name;
    *summary = q->summary;
    /* the library's flags: the budget (last in every row) is the command
     * line's and --batch's default; the library applies none unless it is
     * passed (read_budget), so its listing leaves it out */
    bool last_is_budget = q->nflags > 0 && q->flags[q->nflags - 1].default_value == budget_default;
    *nflags = q->nflags - (last_is_budget ? 1 : 0);
    return q->flags;
}

int ul_cli_calc(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        ul_cli_calc_help(argc < 1 ? stderr : stdout);
        return argc < 1 ? UL_EXIT_USAGE : UL_EXIT_OK;
    }
    const calc_quantity *q = find_quantity(argv[0]);
    if (q == NULL) {
        unknown_quantity(argv[0]);
        return UL_EXIT_USAGE;
    }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--batch") == 0 || strncmp(argv[i], "--batch=", 8) == 0)
            return ul_cli_calc_batch(argv[0], argc - 1, argv + 1, i - 1);
    return run_quantity(q, argc - 1, argv + 1, true);
}
