/* src/cli/main.c — `ulaudit`: dispatch to commands. */
#include <stdio.h>
#include <string.h>

#include "cli/attack.h"
#include "cli/audit.h"
#include "cli/calc.h"
#include "cli/exitcodes.h"
#include "cli/vectors.h"
#include "num/encl.h"

#define ULAUDIT_VERSION "0.1.0"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ulaudit COMMAND [flags]\n\n"
            "ulaudit checks claims of certified machine unlearning with certified\n"
            "(interval, arbitrary-precision) arithmetic.\n\n"
            "Commands:\n"
            "  calc QUANTITY   certified calculator: theta, gauss-sigma, gauss-eps,\n"
            "                  contraction, contraction-steps, contraction-sigma,\n"
            "                  rdp-to-dp, gauss-rdp-eps, sgm-rdp, pld-compose,\n"
            "                  noisygd-k, noisygd-sigma, model-clipping-t,\n"
            "                  model-clipping-sigma, output-perturbation-sigma,\n"
            "                  langevin-sigma, langevin-k\n"
            "                  example: ulaudit calc theta --eps 1 --r 0.5\n"
            "                  ulaudit calc --help lists every quantity and flag\n"
            "  audit CERT.json recompute the guarantee a certificate cites and give the\n"
            "                  verdict (supported, unsupported, refuted, invalid,\n"
            "                  inconclusive) with its explanation and forensics\n"
            "                  example: ulaudit audit audits/output-perturbation-classic-eps10.json\n"
            "  calibrate CERT.json\n"
            "                  print the certificate completed with the parameter (sigma)\n"
            "                  that makes its claim supported; --out FILE writes it atomically\n"
            "  vectors --out DIR [--digits N] [--only FAMILY]\n"
            "                  write the certified reference vectors (CSV + manifest)\n"
            "                  that double-precision accountants can be tested against\n"
            "  attack CONFIG.json [--out DIR]\n"
            "                  train and unlearn with the real noisy-GD learners many\n"
            "                  times and attack them (membership inference): empirical\n"
            "                  eps lower bound beside the claim; also scores released\n"
            "                  models (--in-models, --out-models)\n"
            "  help            this text\n\n"
            "Flags:\n"
            "  --help          help (also after a command: ulaudit calc theta --help)\n"
            "  --version       the version\n\n"
            "Every command takes --json (one JSON object on stdout).  Exit codes: 0\n"
            "success, 1 claim rejected (audit) or refuted (attack), 2 usage or input error, 3 inconclusive.\n"
            "See man ulaudit and README.md.\n");
}

int main(int argc, char **argv)
{
    ul_num_init();
    int rc;
    if (argc < 2) {
        usage(stderr);
        rc = UL_EXIT_USAGE;
    } else if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
               strcmp(argv[1], "help") == 0) {
        usage(stdout);
        rc = UL_EXIT_OK;
    } else if (strcmp(argv[1], "--version") == 0) {
        printf("ulaudit %s\n", ULAUDIT_VERSION);
        rc = UL_EXIT_OK;
    } else if (strcmp(argv[1], "calc") == 0) {
        rc = ul_cli_calc(argc - 2, argv + 2);
    } else if (strcmp(argv[1], "audit") == 0) {
        rc = ul_cli_audit(argc - 2, argv + 2);
    } else if (strcmp(argv[1], "calibrate") == 0) {
        rc = ul_cli_calibrate(argc - 2, argv + 2);
    } else if (strcmp(argv[1], "attack") == 0) {
        rc = ul_cli_attack(argc - 2, argv + 2);
    } else if (strcmp(argv[1], "vectors") == 0) {
        rc = ul_cli_vectors(argc - 2, argv + 2);
    } else {
        fprintf(stderr, "ulaudit: unknown command '%s' (see ulaudit --help)\n", argv[1]);
        rc = UL_EXIT_USAGE;
    }
    ul_num_shutdown();
    return rc;
}
