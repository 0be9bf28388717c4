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
#include <string.h>

#include "cli/calc_internal.h"

static const calc_quantity QUANTITIES[] = {
    {"theta",
     "E_{e^E}(N(0,1) || N(R,1)) = theta_{e^E}(R), the Gaussian hockey-stick divergence",
     "ulaudit calc theta --eps 1 --r 0.5",
     {{"eps", "E", "privacy parameter, any real (negative uses reciprocity), |E| <= 1e9", NULL},
      {"r", "R", "distance of the means over sigma, 0 <= R <= 1e9", NULL}},
     2,
     calc_run_theta},
    {"gauss-sigma",
     "the smallest sigma with theta_{e^E}(S/sigma) <= D",
     "ulaudit calc gauss-sigma --eps 1 --delta 1e-5 --sensitivity 2",
     {{"eps", "E", "privacy parameter, 0 <= E <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"sensitivity", "S", "l2 sensitivity, 0 < S <= 1e100 (default 1)", "1"}},
     3,
     calc_run_gauss_sigma},
    {"gauss-eps",
     "the smallest eps >= 0 with theta_{e^eps}(R) <= D",
     "ulaudit calc gauss-eps --r 0.5 --delta 1e-5",
     {{"r", "R", "distance of the means over sigma, 0 <= R <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL}},
     2,
     calc_run_gauss_eps},
    {"contraction",
     "delta after T clipping + noise steps: delta_0 * prod theta_{e^E}(R_t), or the adaptive "
     "recursion",
     "ulaudit calc contraction --eps 1 --r 2 --steps 10 --delta0 0.1 --mode adaptive",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"r", "R", "diameter/sigma per step: one value, or a comma list of T values", NULL},
      {"steps", "T", "number of noisy steps, 0..100000000", NULL},
      {"delta0", "D0", "starting delta, 0 < D0 <= 1 (default 1)", "1"},
      {"mode", "M", "product or adaptive (default product)", "product"}},
     5,
     calc_run_contraction},
    {"contraction-steps",
     "the least T with delta_T <= D (constant R)",
     "ulaudit calc contraction-steps --eps 1 --r 1.5 --delta 1e-6 --mode adaptive",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"r", "R", "diameter/sigma, one value", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"delta0", "D0", "starting delta, 0 < D0 <= 1 (default 1)", "1"},
      {"mode", "M", "product or adaptive (default product)", "product"},
      {"max-steps", "N", "give up after N steps (default 100000000)", "100000000"}},
     6,
     calc_run_contraction_steps},
    {"contraction-sigma",
     "the smallest constant sigma with delta_T <= D after T steps of diameter DIAM",
     "ulaudit calc contraction-sigma --eps 1 --diameter 2 --steps 8 --delta 1e-5",
     {{"eps", "E", "target eps, 0 <= E <= 1e9", NULL},
      {"diameter", "DIAM", "diameter of the pre-noise set (2*C_2 for model clipping)", NULL},
      {"steps", "T", "number of noisy steps, 1..100000000", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"delta0", "D0", "starting delta, 0 < D0 <= 1 (default 1)", "1"},
      {"mode", "M", "product or adaptive (default product)", "product"}},
     6,
     calc_run_contraction_sigma},
    {"rdp-to-dp",
     "eps from one RDP point (alpha, rdp) at delta",
     "ulaudit calc rdp-to-dp --alpha 32 --rdp 0.5 --delta 1e-5 --conversion bbghs",
     {{"alpha", "A", "Renyi order, 1 < A <= 1e12", NULL},
      {"rdp", "V", "Renyi divergence at A, 0 <= V <= 1e12", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"conversion", "C", "mironov or bbghs (default bbghs)", "bbghs"}},
     4,
     calc_run_rdp_to_dp},
    {"gauss-rdp-eps",
     "eps of the Gaussian mechanism (r = sensitivity/sigma) through RDP at the best alpha",
     "ulaudit calc gauss-rdp-eps --r 0.5 --delta 1e-5",
     {{"r", "R", "sensitivity/sigma, 0 < R <= 1e9", NULL},
      {"delta", "D", "target, 0 < D < 1", NULL},
      {"conversion", "C", "mironov or bbghs (default bbghs)", "bbghs"}},
     3,
     calc_run_gauss_rdp_eps},
    {"sgm-rdp",
     "RDP of the Poisson-subsampled Gaussian at order A (integer or fractional)",
     "ulaudit calc sgm-rdp --q 0.01 --sigma 1.1 --alpha 8",
     {{"q", "Q", "sampling rate, 0 <= Q <= 1", NULL},
      {"sigma", "S", "noise multiplier sigma/sensitivity, 1e-3 <= S <= 1e6", NULL},
      {"alpha", "A", "Renyi order, 1 < A <= 10000", NULL}},
     3,
     calc_run_sgm_rdp},
    {"pld-compose",
     "delta(eps) of the T-fold (subsampled) Gaussian by FFT privacy-loss composition, a proven "
     "bracket",
     "ulaudit calc pld-compose --r 0.1 --steps 1000 --eps 1",
     {{"r", "R", "sensitivity/sigma, 0 < R <= 1000", NULL},
      {"steps", "T", "number of compositions, 1..999999999", NULL},
      {"eps", "E", "|E| <= 1000", NULL},
      {"q", "Q", "Poisson sampling rate, 0 < Q <= 1 (default 1: no subsampling)", "1"},
      {"adjacency", "A", "both, add or remove (default both: the max)", "both"},
      {"rel-width", "W", "target relative width of the bracket (default 1e-3)", "1e-3"},
      {"fft", "F", "auto, double or long (default auto)", "auto"}},
     7,
     calc_run_pld_compose},
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
    fprintf(out, "usage: ulaudit calc QUANTITY [flags] [--digits N] [--max-bits B] [--json]\n\n"
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
                 "                 precision_bits, cap_hit, and quantity-specific fields\n\n"
                 "Exit codes: 0 success, 2 usage or input error, 3 precision cap reached\n"
                 "(the enclosure printed is sound but has fewer digits than asked).\n");
}

int ul_cli_calc(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        ul_cli_calc_help(argc < 1 ? stderr : stdout);
        return argc < 1 ? UL_EXIT_USAGE : UL_EXIT_OK;
    }
    const calc_quantity *q = NULL;
    for (size_t i = 0; i < N_QUANTITIES; i++)
        if (strcmp(argv[0], QUANTITIES[i].name) == 0)
            q = &QUANTITIES[i];
    if (q == NULL) {
        fprintf(stderr, "ulaudit calc: unknown quantity '%s' (known:", argv[0]);
        for (size_t i = 0; i < N_QUANTITIES; i++)
            fprintf(stderr, " %s", QUANTITIES[i].name);
        fprintf(stderr, "; see ulaudit calc --help)\n");
        return UL_EXIT_USAGE;
    }

    const char *values[UL_CLI_MAX_FLAGS];
    ul_cli_common common;
    char err[256];
    if (ul_cli_parse(argc - 1, argv + 1, q->flags, q->nflags, values, &common, err, sizeof err)) {
        fprintf(stderr, "ulaudit calc %s: %s\n", q->name, err);
        return UL_EXIT_USAGE;
    }
    if (common.help) {
        printf("usage: ulaudit calc %s [flags] [--digits N] [--max-bits B] [--json]\n\n", q->name);
        print_quantity_help(stdout, q);
        return UL_EXIT_OK;
    }
    return q->run(q, values, &common);
}
