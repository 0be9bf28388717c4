/* tests/test_emp_files.c — file helpers of the empirical module's tests. */
#include "test_emp_files.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

unsigned char *emp_test_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s missing", path);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(*len + 1);
    cr_assert_eq(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

void emp_test_write(const char *path, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    cr_assert_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
}

char *emp_test_mkdtemp(void)
{
    char *d = strdup("/tmp/ulaudit-emp-test-XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    return d;
}

void emp_test_rm_rf(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%.500s'", dir);
    cr_assert_eq(system(cmd), 0);
}

const char *emp_test_put(const char *dir, const char *name, const void *bytes, size_t len)
{
    static char path[8][600];
    static int k;
    char *p = path[k++ % 8];
    snprintf(p, sizeof path[0], "%.300s/%.200s", dir, name);
    emp_test_write(p, bytes, len);
    return p;
}

pid_t emp_test_dead_pid(void)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0)
        _exit(0);
    cr_assert_eq(waitpid(pid, NULL, 0), pid);
    return pid;
}
