/* tests/cli_run.h — running the built binary from the CLI tests. */
#ifndef UL_TESTS_CLI_RUN_H
#define UL_TESTS_CLI_RUN_H

#include <json-c/json.h>

#ifndef ULAUDIT_BIN
#define ULAUDIT_BIN "build/ulaudit"
#endif

/* Exit status (-1 when killed), stdout and stderr of one run. */
typedef struct {
    int status;
    char *out;
    char *err;
} run_result;

/* Runs the binary with the NULL-terminated argument list. */
run_result run(const char *first, ...);
void run_free(run_result *r);

/* A string field of a JSON object; the test fails when it is missing. */
const char *field(json_object *o, const char *key);

/* Asserts exit 2, empty stdout and one stderr line naming must_mention; frees r. */
void expect_usage_error(const char *must_mention, run_result r);

#endif
