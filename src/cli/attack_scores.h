/* src/cli/attack_scores.h — `ulaudit attack --scores IN,OUT`: the certified
 * statistics and verdict for per-run scores from any attack tool. */
#ifndef UL_CLI_ATTACK_SCORES_H
#define UL_CLI_ATTACK_SCORES_H

#include <stdio.h>

void ul_cli_attack_scores_help(FILE *out);

/* argv: the arguments after "attack" (they include --scores).  Exit codes:
 * 0 consistent or no claim, 1 refuted, 2 bad input. */
int ul_cli_attack_scores(int argc, char **argv);

#endif
