/* fuzz/fuzz_libsvm.c — libFuzzer harness: the LIBSVM reader
 * (ul_data_read_libsvm).
 *
 * Input: one control byte, then the file.  The control byte b picks the
 * dimension: b % 8 (0 = inferred from the largest index).  Contract
 * (emp/data.h): n·d within the limit, no index above dim, an empty output
 * and a message on refusal (fuzz/data_check.h). */
#include "common.h"
#include "data_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t dim = data[0] % 8;
    const char *path = fuzz_file("data.libsvm", data + 1, size - 1);
    ul_dataset ds = {0};
    char err[1024] = "";
    ul_status st = ul_data_read_libsvm(path, dim, &ds, err, sizeof err);
    FUZZ_CHECK(st != UL_OK || dim == 0 || ds.d == dim, "dim %zu asked, %zu read", dim, ds.d);
    fuzz_check_dataset(st, &ds, err, false);
    return 0;
}
