/* tests/cli_run.c — running the built binary from the CLI tests. */
#include "cli_run.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *slurp(int fd)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    lseek(fd, 0, SEEK_SET);
    ssize_t n;
    while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (cap - len < 2)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    return buf;
}

/* Runs the binary with the NULL-terminated argument list. */
run_result run(const char *first, ...)
{
    const char *argv[32] = {ULAUDIT_BIN};
    int argc = 1;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a != NULL && argc < 31; a = va_arg(ap, const char *))
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;

    char out_path[] = "/tmp/ulaudit-cli-out-XXXXXX";
    char err_path[] = "/tmp/ulaudit-cli-err-XXXXXX";
    int out_fd = mkstemp(out_path), err_fd = mkstemp(err_path);
    cr_assert(out_fd >= 0 && err_fd >= 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        execv(ULAUDIT_BIN, (char *const *)argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    run_result r = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out_fd), slurp(err_fd)};
    close(out_fd);
    close(err_fd);
    unlink(out_path);
    unlink(err_path);
    return r;
}

void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

const char *field(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v), "missing JSON field '%s'", key);
    return json_object_get_string(v);
}

void expect_usage_error(const char *must_mention, run_result r)
{
    cr_assert_eq(r.status, 2, "exit %d for input mentioning %s; stderr: %s", r.status,
                 must_mention, r.err);
    cr_assert_str_empty(r.out, "stdout must stay empty, got: %s", r.out);
    cr_assert(strstr(r.err, must_mention), "stderr should name '%s': %s", must_mention, r.err);
    char *nl = strchr(r.err, '\n');
    cr_assert(nl != NULL && nl[1] == '\0', "expected one line on stderr: %s", r.err);
    run_free(&r);
}
