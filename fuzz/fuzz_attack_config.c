/* fuzz/fuzz_attack_config.c — libFuzzer harness: the attack configuration
 * reader (ul_attack_config_load).
 *
 * Input: the bytes of a configuration file (seeds: the .json files of
 * examples/ and tests/data/attack-tiny.json; tools/fuzz-seeds.sh), written as
 * config.json in the harness's temporary directory beside small data files
 * a configuration may name: data.csv, data.libsvm, images.idx, labels.idx.
 *
 * Two kinds of input are skipped, because they are the environment's cost
 * and not the reader's: a data file name with a '/' (the reader would open
 * /dev/zero or a system file as asked), and sizes the schema allows but
 * that allocate gigabytes (synthetic n·d, LIBSVM dim: over FUZZ_MAX_CELLS).
 *
 * Contract (emp/attack.h): a refusal has a message and leaves the
 * configuration empty; an accepted one has data rows, runs >= 2, chunk in
 * 1 … runs, and a claim given in pairs. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"
#include "common.h"
#include "emp/attack.h"

#define FUZZ_MAX_CELLS 65536.0

static char *config;

static const char CSV[] = "x1,x2,label\n0.5,1,1\n-1,2,0\n3,0.25,1\n0,0,0\n1,1,1\n2,-1,0\n";
static const char LIBSVM[] = "1 1:0.5 2:1\n0 1:-1 3:2\n1 2:3\n0 1:1 2:1 3:1\n1 3:0.5\n0 1:2\n";

static void write_fixture(const char *name, const void *data, size_t n)
{
    char *path = fuzz_path(name);
    fuzz_write(path, data, n);
    free(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    config = fuzz_path("config.json");
    write_fixture("data.csv", CSV, sizeof CSV - 1);
    write_fixture("data.libsvm", LIBSVM, sizeof LIBSVM - 1);
    /* six 2x2 images (IDX rank 3) and their labels 0/1 */
    static const unsigned char img[16 + 24] = {0, 0, 8, 3, 0,   0,   0,  6, 0, 0, 0, 2,   0, 0,
                                               0, 2, 1, 2, 3,   4,   9,  8, 7, 6, 0, 255, 0, 255,
                                               5, 5, 5, 5, 200, 100, 50, 0, 1, 1, 1, 1};
    static const unsigned char lab[8 + 6] = {0, 0, 8, 1, 0, 0, 0, 6, 0, 1, 0, 1, 0, 1};
    write_fixture("images.idx", img, sizeof img);
    write_fixture("labels.idx", lab, sizeof lab);
    return 0;
}

/* A number or numeric string's value (0 when neither). */
static double num(const ul_json_value *v)
{
    return v && (v->type == UL_JSON_NUMBER || v->type == UL_JSON_STRING) ? strtod(v->text, NULL)
                                                                         : 0;
}

static bool names_a_path(const ul_json_value *v)
{
    return v && v->type == UL_JSON_STRING && strchr(v->text, '/');
}

/* See the header: inputs the harness does not run. */
static bool skipped(const uint8_t *data, size_t size)
{
    ul_json_doc *doc = NULL;
    char err[256];
    if (ul_json_parse((const char *)data, size, &doc, err, sizeof err) != UL_OK)
        return false; /* the reader refuses it too */
    const ul_json_value *root = ul_json_root(doc), *d = ul_json_get(root, "data");
    bool skip = names_a_path(ul_json_get(d, "images")) || names_a_path(ul_json_get(d, "labels")) ||
                names_a_path(ul_json_get(d, "path")) ||
                names_a_path(ul_json_get(root, "certificate")) ||
                !(num(ul_json_get(d, "n")) * num(ul_json_get(d, "d")) <= FUZZ_MAX_CELLS) ||
                !(num(ul_json_get(d, "dim")) <= FUZZ_MAX_CELLS / 8);
    ul_json_free(doc);
    return skip;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (skipped(data, size))
        return 0;
    fuzz_write(config, data, size);
    ul_attack_config cfg;
    char err[1024] = "";
    if (ul_attack_config_load(config, &cfg, err, sizeof err) != UL_OK) {
        FUZZ_CHECK(err[0], "refusal without a message");
        FUZZ_CHECK(!cfg.data.x && !cfg.certificate_path && !cfg.certificate_text,
                   "refusal left a configuration");
        return 0;
    }
    FUZZ_CHECK(cfg.data.n >= 2 && cfg.data.d >= 1 && cfg.data.x, "no data accepted");
    FUZZ_CHECK(cfg.runs >= 2 && cfg.chunk >= 1 && cfg.chunk <= cfg.runs, "runs %zu, chunk %zu",
               cfg.runs, cfg.chunk);
    FUZZ_CHECK(!cfg.eps[0] == !cfg.delta[0] || cfg.renyi_order[0], "eps without delta");
    FUZZ_CHECK(cfg.target < (long)cfg.data.n, "target %ld of %zu rows", cfg.target, cfg.data.n);
    ul_attack_config_free(&cfg);
    return 0;
}
