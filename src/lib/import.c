/* src/lib/import.c — ulaudit_import of include/ulaudit.h: the importers of
 * `ulaudit import` (cert/import.h) behind the public API.  Contracts: see
 * include/ulaudit.h. */
#include "ulaudit.h"

#include "cert/import.h"

#define UL_API __attribute__((visibility("default")))

UL_API ulaudit_status ulaudit_import(const char *format, const char *text, size_t len,
                                     const char *const *names, const char *const *values,
                                     size_t n, char **certificate, char *err, size_t errlen)
{
    if (certificate == NULL) {
        (void)ul_fail(err, errlen, UL_EINPUT, "import: certificate (the output) must not be NULL");
        return ULAUDIT_EINPUT;
    }
    *certificate = NULL;
    ul_import_options opt = {.flag_prefix = ""};
    if (n > 0 && (names == NULL || values == NULL)) {
        (void)ul_fail(err, errlen, UL_EINPUT, "import: names and values must be given (n = %zu)",
                      n);
        return ULAUDIT_EINPUT;
    }
    for (size_t i = 0; i < n; i++)
        if (ul_import_options_set(&opt, names[i], values[i], err, errlen) != UL_OK)
            return ULAUDIT_EINPUT;
    /* every refusal of an import is an input error (cert/import.h) */
    return ul_import(format, text, len, &opt, certificate, err, errlen) == UL_OK ? ULAUDIT_OK
                                                                                 : ULAUDIT_EINPUT;
}
