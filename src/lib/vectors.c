/* src/lib/vectors.c — the reference vectors through the public API
 * (include/ulaudit.h, "reference vectors"): a family's rows for a test
 * harness, and `ulaudit vectors check` on RESULTS text.  Both are the
 * functions of src/vectors/check.h the command calls, so the JSON is the
 * command's byte for byte. */
#include <stdlib.h>

#include "lib/lib.h"
#include "vectors/check.h"
#include "vectors/vectors.h"

UL_API ulaudit_status ulaudit_vectors_rows(const char *family, int digits, char **json,
                                           char *err, size_t errlen)
{
    *json = NULL;
    if (family == NULL)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "family: missing (required)");
    if (ul_lib_cancelled(NULL, "starting", err, errlen)) /* raised before the call */
        return ULAUDIT_ECANCEL;
    ul_status st = ul_vchk_rows_json(family, digits != 0 ? digits : UL_VEC_DEFAULT_DIGITS, json,
                                     err, errlen);
    if (ul_lib_cancelled(json, "generating the vectors", err, errlen))
        return ULAUDIT_ECANCEL;
    return ul_lib_status(st);
}

UL_API ulaudit_status ulaudit_vectors_check(const char *family, const char *results, size_t len,
                                            const char *name, int rows, char **json,
                                            char *err, size_t errlen)
{
    *json = NULL;
    if (family == NULL || results == NULL)
        return ul_lib_fail(err, errlen, ULAUDIT_EINPUT, "%s: missing (required)",
                           family == NULL ? "family" : "results");
    if (ul_lib_cancelled(NULL, "starting", err, errlen))
        return ULAUDIT_ECANCEL;
    const char *label = name != NULL ? name : "RESULTS";
    ul_vchk_result r;
    ul_status st = ul_vchk_run_text(family, label, results, len, &r, err, errlen);
    if (st == UL_OK) {
        *json = ul_vchk_json(&r, label, rows != 0);
        ul_vchk_free(&r);
    }
    if (ul_lib_cancelled(json, "checking the results", err, errlen))
        return ULAUDIT_ECANCEL;
    return ul_lib_status(st);
}
