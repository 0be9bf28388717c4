/* fuzz/data_check.h — the contract of the data readers (emp/data.h) as the
 * data harnesses check it: on failure a message and an empty output; on
 * success n·d within UL_DATA_MAX_CELLS, buffers for all of it (every cell is
 * read, so ASan sees a short buffer) and, when asked, finite cells only. */
#ifndef UL_FUZZ_DATA_CHECK_H
#define UL_FUZZ_DATA_CHECK_H

#include <math.h>
#include <stdbool.h>

#include "common.h"
#include "emp/data.h"

static inline void fuzz_check_dataset(ul_status st, ul_dataset *ds, const char *err, bool finite)
{
    if (st != UL_OK) {
        FUZZ_CHECK(err[0], "refusal without a message");
        FUZZ_CHECK(ds->n == 0 && ds->d == 0 && !ds->x && !ds->y, "refusal left a data set");
        return;
    }
    FUZZ_CHECK(ds->n > 0 && ds->d > 0 && ds->x && ds->y, "empty data set accepted");
    FUZZ_CHECK(ds->n <= UL_DATA_MAX_CELLS / ds->d, "n = %zu, d = %zu over the limit", ds->n, ds->d);
    for (size_t i = 0; i < ds->n * ds->d; i++)
        FUZZ_CHECK(!finite || isfinite(ds->x[i]), "x[%zu] = %g is not finite", i, ds->x[i]);
    for (size_t i = 0; i < ds->n; i++)
        FUZZ_CHECK(!finite || isfinite(ds->y[i]), "y[%zu] = %g is not finite", i, ds->y[i]);
    ul_dataset_free(ds);
}

#endif
