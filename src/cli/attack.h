/* src/cli/attack.h — `ulaudit attack` (membership-inference audits). */
#ifndef UL_CLI_ATTACK_H
#define UL_CLI_ATTACK_H

#include <stdio.h>

void ul_cli_attack_help(FILE *out);
int ul_cli_attack(int argc, char **argv);

#endif
