/* src/calc/domain.h — the domains of the calculator's inputs, each written
 * once: its type, its range with open or closed ends, its units.  One
 * table row names a domain; a quantity's row attaches it to a flag
 * (calc/table.c), and from it come the rule in the flag's help text
 * (ul_calc_flag_help: "0 < D < 1"), the check before the quantity runs,
 * with the message naming the flag and the broken end (ul_calc_domain_check,
 * the words of num/input.h: "delta: must be < 1 (got '2')"), and the domain
 * the library lists (ulaudit_calc_list).  The bounds of src/bounds keep
 * their own checks: they guard the library's other callers. */
#ifndef ul_calc_domain_h
#define ul_calc_domain_h

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "num/status.h"

typedef enum {
    UL_CALC_REAL, /* a decimal read exactly (num/input.h) */
    UL_CALC_ENUM, /* one word of a list */
} ul_calc_domain_type;

typedef struct ul_calc_domain {
    const char *name;     /* e.g. "delta" */
    ul_calc_domain_type type;
    const char *lo;       /* decimal text; NULL: no lower end */
    bool lo_open;         /* lo excluded */
    const char *hi;       /* decimal text; NULL: no upper end */
    bool hi_open;         /* hi excluded */
    const char *units;    /* "" when none */
    const char *const *choices; /* UL_CALC_ENUM: the words, NULL-terminated */
} ul_calc_domain;

/* The named domains (calc/domain.c). */
extern const ul_calc_domain ul_calc_domain_eps_any;     /* |E| <= 1e9 */
extern const ul_calc_domain ul_calc_domain_eps;         /* 0 <= E <= 1e9 */
extern const ul_calc_domain ul_calc_domain_delta;       /* 0 < D < 1 */
extern const ul_calc_domain ul_calc_domain_delta0;      /* 0 < D0 <= 1 */
extern const ul_calc_domain ul_calc_domain_r;           /* 0 <= R <= 1e9 */
extern const ul_calc_domain ul_calc_domain_r_pos;       /* 0 < R <= 1e9 */
extern const ul_calc_domain ul_calc_domain_sensitivity; /* 0 < S <= 1e100 */
extern const ul_calc_domain ul_calc_domain_alpha;       /* 1 < A <= 1e12 */
extern const ul_calc_domain ul_calc_domain_rdp;         /* 0 <= V <= 1e12 */
extern const ul_calc_domain ul_calc_domain_q;           /* 0 <= Q <= 1 */
extern const ul_calc_domain ul_calc_domain_sigma;       /* 1e-3 <= S <= 1e6 */
extern const ul_calc_domain ul_calc_domain_alpha_sgm;   /* 1 < A <= 10000 */
extern const ul_calc_domain ul_calc_domain_mode;        /* product or adaptive */
extern const ul_calc_domain ul_calc_domain_conversion;  /* mironov or bbghs */
extern const ul_calc_domain ul_calc_domain_rate;        /* printed or corrected */

/* The rule with the flag's placeholder meta, e.g. "0 < D < 1", "|E| <= 1e9",
 * "product or adaptive". */
void ul_calc_domain_rule(const ul_calc_domain *d, const char *meta, char *out, size_t len);

/* UL_OK when text lies in the domain; else UL_EINPUT with
 * "NAME: must be ... (got 'TEXT')" in err (NAME: the flag without dashes;
 * "must be product or adaptive" for a list of words). */
ul_status ul_calc_domain_check(const ul_calc_domain *d, const char *name, const char *text,
                               char *err, size_t errlen);

/* The domain as a JSON object: type "real" with lo, lo_open, hi, hi_open,
 * units; type "enum" with choices. */
json_object *ul_calc_domain_json(const ul_calc_domain *d);

#endif
