/* fuzz/fuzz_idx.c — libFuzzer harness: the IDX reader, plain and gzip
 * (ul_data_read_idx).
 *
 * Input: two bytes k (little-endian), then the labels file (the next
 * k % (size − 2 + 1) bytes), then the images file (the rest).  Contract
 * (emp/data.h): pixels p/255 in [0, 1], n·d within the limit, an empty output
 * and a message on refusal (fuzz/data_check.h). */
#include "common.h"
#include "data_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t k = (data[0] | (size_t)data[1] << 8) % (size - 2 + 1);
    const char *labels = fuzz_file("labels.idx", data + 2, k);
    const char *images = fuzz_file("images.idx", data + 2 + k, size - 2 - k);
    ul_dataset ds = {0};
    char err[1024] = "";
    ul_status st = ul_data_read_idx(images, labels, &ds, err, sizeof err);
    for (size_t i = 0; st == UL_OK && i < ds.n * ds.d; i++)
        FUZZ_CHECK(ds.x[i] >= 0 && ds.x[i] <= 1, "pixel %zu = %g outside [0, 1]", i, ds.x[i]);
    fuzz_check_dataset(st, &ds, err, true);
    return 0;
}
