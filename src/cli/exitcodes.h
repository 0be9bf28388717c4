/* src/cli/exitcodes.h — the exit codes of the command-line contract
 * (docs/design.md, "Exit codes"). */
#ifndef UL_CLI_EXITCODES_H
#define UL_CLI_EXITCODES_H

enum {
    UL_EXIT_OK = 0,           /* success; for audit: claim supported */
    UL_EXIT_REJECTED = 1,     /* audit: unsupported, refuted or invalid */
    UL_EXIT_USAGE = 2,        /* usage or input error; also out of memory for a size the input
                               * chose (UL_ENOMEM, num/status.h: a smaller input is the remedy) */
    UL_EXIT_INCONCLUSIVE = 3, /* precision cap reached before a decision */
};

#endif
