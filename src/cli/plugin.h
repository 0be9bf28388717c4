/* src/cli/plugin.h — the plugin ulaudit-attack.so, loaded on demand.
 *
 * The plugin holds the empirical attack stack and everything that draws with
 * cairo (src/emp: OpenBLAS, cairo, zlib, OpenMP), so that the commands that
 * do not draw start without those libraries (README, start-up).  `attack`
 * runs inside it; `audit --html` and `calibrate --html` ask it for their
 * figures. */
#ifndef UL_CLI_PLUGIN_H
#define UL_CLI_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>

#define UL_CLI_PLUGIN_NAME "ulaudit-attack.so"

/* The directory of the running binary, with its trailing slash, in dir. */
bool ul_cli_exe_dir(char *dir, size_t len);

/* The plugin's symbol `name`, loading the plugin on first use:
 * $ULAUDIT_ATTACK_PLUGIN, else beside the binary (the build tree), else
 * ../lib/ulaudit/ beside it (an installed tree).  NULL, with one line on
 * stderr starting "ulaudit COMMAND:", when the plugin does not load or has no
 * such symbol. */
void *ul_cli_plugin_symbol(const char *command, const char *name);

#endif
