/* fuzz/fuzz_modelio.c — libFuzzer harness: released model files, .npy and
 * raw f64 / f32 (ul_modelio_read, ul_modelio_append).
 *
 * Input: one control byte b, then the file.  b % 4 picks the format (auto,
 * npy, f64, f32), b / 4 % 4 the file name's extension (.npy, .f64, .f32,
 * .dat: what auto goes by), b / 16 % 4 the parameter count p (0 = inferred,
 * 1, 2, 3), and bit 7 reads the file twice through ul_modelio_append (the
 * command line's list of files).  Contract (emp/modelio.h): every value
 * finite, k·p within the limit and, with p given, p parameters per model;
 * on failure a message and the output as it was. */
#include <math.h>
#include <stdbool.h>

#include "common.h"
#include "emp/modelio.h"

static void check_set(const ul_model_set *s, size_t p)
{
    FUZZ_CHECK(s->k > 0 && s->p > 0 && s->w, "empty set accepted");
    FUZZ_CHECK(p == 0 || s->p == p, "p = %zu asked, %zu read", p, s->p);
    FUZZ_CHECK(s->k <= UL_MODELIO_MAX_VALUES / s->p, "k = %zu, p = %zu over the limit", s->k, s->p);
    for (size_t i = 0; i < s->k * s->p; i++)
        FUZZ_CHECK(isfinite(s->w[i]), "w[%zu] = %g is not finite", i, s->w[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    ul_modelio_format fmt = (ul_modelio_format)(data[0] % 4);
    static const char *const names[4] = {"model.npy", "model.f64", "model.f32", "model.dat"};
    size_t p = data[0] / 16 % 4;
    bool twice = data[0] & 0x80;
    const char *path = fuzz_file(names[data[0] / 4 % 4], data + 1, size - 1);
    char err[1024] = "";
    ul_model_set s = {0};
    ul_status st;
    if (!twice) {
        st = ul_modelio_read(path, fmt, p, &s, err, sizeof err);
        FUZZ_CHECK(st == UL_OK || (err[0] && !s.w && !s.k), "refusal without message or emptied");
    } else {
        s.p = p;
        st = ul_modelio_append(&s, path, fmt, err, sizeof err);
        FUZZ_CHECK(st == UL_OK || (err[0] && !s.w && !s.k), "refusal without message or emptied");
        if (st == UL_OK) {
            /* inputs are at most a few KiB: twice the set is far within the limit */
            ul_model_set before = s;
            st = ul_modelio_append(&s, path, fmt, err, sizeof err);
            FUZZ_CHECK(st == UL_OK, "the same file appended twice: %s", err);
            FUZZ_CHECK(s.k == 2 * before.k && s.p == before.p, "append: k %zu -> %zu", before.k,
                       s.k);
        }
    }
    if (st == UL_OK)
        check_set(&s, p);
    ul_model_set_free(&s);
    return 0;
}
