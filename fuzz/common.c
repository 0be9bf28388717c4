/* fuzz/common.c — the harnesses' temporary directory and file writing
 * (fuzz/common.h). */
#include "common.h"

#include <string.h>
#include <unistd.h>

static char tmpdir[64];

/* Removes the directory's files (the harnesses make no subdirectories). */
static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", tmpdir);
}

const char *fuzz_tmpdir(void)
{
    if (tmpdir[0])
        return tmpdir;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ulfuzz.XXXXXX");
    FUZZ_CHECK(mkdtemp(tmpdir) != NULL, "cannot create a temporary directory");
    atexit(remove_tmpdir);
    return tmpdir;
}

char *fuzz_path(const char *name)
{
    const char *dir = fuzz_tmpdir();
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    FUZZ_CHECK(p != NULL, "out of memory");
    snprintf(p, len, "%s/%s", dir, name);
    return p;
}

void fuzz_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "cannot write %s", path);
    FUZZ_CHECK(fwrite(data, 1, n, f) == n && fclose(f) == 0, "cannot write %s", path);
}

const char *fuzz_file(const char *name, const void *data, size_t n)
{
    static struct {
        const char *name;
        char *path;
    } files[8];
    size_t i = 0;
    while (i < 8 && files[i].name && strcmp(files[i].name, name) != 0)
        i++;
    FUZZ_CHECK(i < 8, "more than 8 input files");
    if (!files[i].name) {
        files[i].name = name;
        files[i].path = fuzz_path(name);
    }
    fuzz_write(files[i].path, data, n);
    return files[i].path;
}
