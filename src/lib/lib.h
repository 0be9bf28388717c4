/* src/lib/lib.h — what the files of the public API (the .c files of src/lib) share:
 * the status mapping, the message writer, the precision options and the
 * caller's limits (include/ulaudit.h, "Limits").  Not exported (ulaudit.map
 * exports ulaudit_* only). */
#ifndef UL_LIB_LIB_H
#define UL_LIB_LIB_H

#include <stdbool.h>
#include <stddef.h>

#include "num/adaptive.h"
#include "num/encl.h"
#include "num/status.h"
#include "ulaudit.h"

#define UL_API __attribute__((visibility("default")))

/* The public status of a library status; UL_ETIME while the caller's cancel
 * flag is raised is ULAUDIT_ECANCEL. */
ulaudit_status ul_lib_status(ul_status st);

/* Writes the message into err (NULL-safe) and returns st. */
ulaudit_status ul_lib_fail(char *err, size_t errlen, ulaudit_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The precision request of opt (NULL or zero fields: the defaults). */
ulaudit_status ul_lib_options(const ulaudit_options *opt, ul_num_precision *want, char *err,
                              size_t errlen);

/* When the caller's cancel flag is raised (ulaudit_limits_set): frees *out
 * (NULL-safe), sets it to NULL, writes "cancelled: ..." naming what was
 * being done, and returns true.  A call ends with it, so that a raised flag
 * returns nothing, whatever the work had reached. */
bool ul_lib_cancelled(char **out, const char *what, char *err, size_t errlen);

#endif
