/* src/cli/plugin.c — finding and loading ulaudit-attack.so (plugin.h). */
#include "cli/plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool ul_cli_exe_dir(char *dir, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", dir, len - 1);
    if (n <= 0)
        return false;
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (slash == NULL)
        return false;
    slash[1] = '\0';
    return true;
}

/* The first readable candidate of plugin.h's list, opened; NULL with a
 * message on stderr when none loads. */
static void *load_plugin(const char *command)
{
    const char *env = getenv("ULAUDIT_ATTACK_PLUGIN");
    char dir[PATH_MAX], tried[2][PATH_MAX + 64];
    int n = 0;
    if (env != NULL && env[0] != '\0') {
        snprintf(tried[n++], sizeof tried[0], "%s", env);
    } else if (ul_cli_exe_dir(dir, sizeof dir)) {
        snprintf(tried[n++], sizeof tried[0], "%s%s", dir, UL_CLI_PLUGIN_NAME);
        snprintf(tried[n++], sizeof tried[0], "%s../lib/ulaudit/%s", dir, UL_CLI_PLUGIN_NAME);
    }
    for (int i = 0; i < n; i++) {
        if (access(tried[i], R_OK) != 0)
            continue;
        void *h = dlopen(tried[i], RTLD_NOW | RTLD_LOCAL);
        if (h == NULL)
            fprintf(stderr, "ulaudit %s: cannot load %s: %s\n", command, tried[i], dlerror());
        return h;
    }
    fprintf(stderr, "ulaudit %s: the plugin %s was not found (looked %s%s%s; set "
                    "ULAUDIT_ATTACK_PLUGIN)\n", command, UL_CLI_PLUGIN_NAME,
            n > 0 ? tried[0] : "nowhere", n > 1 ? ", " : "", n > 1 ? tried[1] : "");
    return NULL;
}

/* OpenMP threads that wait sleep instead of spinning: libgomp reads
 * OMP_WAIT_POLICY once, when it is loaded, i.e. with the plugin (the binary
 * does not link it), so setting it here, before dlopen, is enough (no
 * re-execution as in the MPI main of shard_mpi.c).  Spinning threads made
 * `--threads 2` slower than 1 on the shared 2-core machine (issue 16); an
 * explicit OMP_WAIT_POLICY is kept (setenv's 0). */
void *ul_cli_plugin_symbol(const char *command, const char *name)
{
    static void *handle;
    if (handle == NULL) {
        setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
        handle = load_plugin(command);
    }
    if (handle == NULL)
        return NULL;
    void *f = dlsym(handle, name);
    if (f == NULL)
        fprintf(stderr, "ulaudit %s: %s has no %s\n", command, UL_CLI_PLUGIN_NAME, name);
    return f;
}
