/* fuzz/fuzz_csv.c — libFuzzer harness: the CSV reader (ul_data_read_csv).
 *
 * Input: one control byte, then the file.  The control byte b picks the
 * label column (b % 7 − 3: −3 … 3, negative from the end) and the header
 * mode (b / 7 % 3 − 1: auto, none, header).  Contract (emp/data.h): every
 * cell finite, n·d within the limit, an empty output and a message on
 * refusal (fuzz/data_check.h). */
#include "common.h"
#include "data_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int label_col = data[0] % 7 - 3;
    int header = data[0] / 7 % 3 - 1;
    const char *path = fuzz_file("data.csv", data + 1, size - 1);
    ul_dataset ds = {0};
    char err[1024] = "";
    ul_status st = ul_data_read_csv(path, label_col, header, &ds, err, sizeof err);
    fuzz_check_dataset(st, &ds, err, true);
    return 0;
}
