/* src/num/domain.h — the domains of the inputs, each declared once: its
 * type (a real, an integer, one word of a list), its range with open or
 * closed ends as exact decimal text, its units.  Every reader of the same
 * quantity uses the same declaration:
 *   the certified bounds (src/bounds: ul_num_read_domain, the check that
 *     guards every caller of the library),
 *   the certificate reader (io/fields.h: a ul_field_spec's .domain),
 *   the calculator (calc/table.c: a flag's input row; its help text's rule
 *     is generated here, ul_domain_rule, and its check is ul_domain_check).
 * The refusal names the input and the broken end in the words of
 * num/input.h ("delta: must be < 1 (got '2')"), whoever reads it.
 *
 * It lives in num/ (the lowest layer, beside the exact decimal reader it
 * drives) so that bounds, io and calc can all include it; the JSON form of
 * a domain, which needs json-c, stays with its one user (calc/domain.h). */
#ifndef UL_NUM_DOMAIN_H
#define UL_NUM_DOMAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "num/encl.h"
#include "num/status.h"

typedef enum {
    UL_DOMAIN_REAL,    /* a decimal read exactly (num/input.h) */
    UL_DOMAIN_INTEGER, /* a decimal whose exact value is whole (a count when lo >= 0) */
    UL_DOMAIN_WORDS,   /* one word of a list */
} ul_domain_type;

typedef struct ul_domain {
    const char *name; /* e.g. "delta" */
    ul_domain_type type;
    const char *lo;   /* decimal text; NULL: no lower end */
    bool lo_open;     /* lo excluded */
    const char *hi;   /* decimal text; NULL: no upper end */
    bool hi_open;     /* hi excluded */
    const char *units;          /* "" when none */
    const char *const *choices; /* UL_DOMAIN_WORDS: the words, NULL-terminated */
} ul_domain;

/* ---- the shared domains (num/domain.c) ------------------------------------ */
/* privacy parameters */
extern const ul_domain ul_domain_eps_any;   /* |E| <= 1e9 (theta's reciprocity) */
extern const ul_domain ul_domain_eps;       /* 0 <= E <= 1e9 */
extern const ul_domain ul_domain_delta;     /* 0 < D < 1 */
extern const ul_domain ul_domain_delta0;    /* 0 < D0 <= 1 */
/* the Gaussian mechanism */
extern const ul_domain ul_domain_r;           /* 0 <= R <= 1e9 */
extern const ul_domain ul_domain_r_pos;       /* 0 < R <= 1e9 */
extern const ul_domain ul_domain_sensitivity; /* 0 < S <= 1e100 */
/* Rényi DP and the subsampled Gaussian */
extern const ul_domain ul_domain_alpha;     /* 1 < A <= 1e12 */
extern const ul_domain ul_domain_rdp;       /* 0 <= V <= 1e12 */
extern const ul_domain ul_domain_q;         /* 0 <= Q <= 1 */
extern const ul_domain ul_domain_q_pos;     /* 0 < Q <= 1 */
extern const ul_domain ul_domain_sigma;     /* 1e-3 <= S <= 1e6 */
extern const ul_domain ul_domain_alpha_sgm; /* 1 < A <= 10000 */
/* eps read from a Rényi bound (up to the Rényi limit 1e12) */
extern const ul_domain ul_domain_eps_renyi;   /* 0 <= E <= 1e12 */
extern const ul_domain ul_domain_eps_renyi_pos; /* 0 < E <= 1e12: an unlearning, deletion
                                                   * or RDP target eps */
/* the privacy-loss distribution's limit (bounds/pld.h) */
extern const ul_domain ul_domain_eps_pld; /* |E| <= 1000 */
/* the problems of Langevin and descent-to-delete unlearning */
extern const ul_domain ul_domain_dataset_size; /* whole, 1 <= N <= 1e15 */
extern const ul_domain ul_domain_dimension;    /* whole, 1 <= D <= 1e15 */
/* a real of a problem up to the program's largest constant 1e100:
 * smoothness, Lipschitz and LSI constants, step sizes, noise scales, radii */
extern const ul_domain ul_domain_positive; /* 0 < C <= 1e100 */
extern const ul_domain ul_domain_nonneg;   /* 0 <= C <= 1e100 */
/* lists of words */
extern const ul_domain ul_domain_mode;       /* product or adaptive */
extern const ul_domain ul_domain_conversion; /* mironov or bbghs */
extern const ul_domain ul_domain_rate;       /* printed or corrected */

/* The rule with the input's placeholder meta, e.g. "0 < D < 1",
 * "|E| <= 1e9", "whole number 1..1e15", "product or adaptive". */
void ul_domain_rule(const ul_domain *d, const char *meta, char *out, size_t len);

/* UL_OK when text lies in the domain; else UL_EINPUT with
 * "NAME: must be ... (got 'TEXT')" in err (the words of ul_num_read_checked;
 * an integer out of its range is refused by its end first, then
 * "NAME: must be an integer (got 'TEXT')"; a list: "must be a or b"). */
UL_MUST_CHECK ul_status ul_domain_check(const ul_domain *d, const char *name, const char *text,
                                        char *err, size_t errlen);

/* A real or integer domain: ul_domain_check, then text into x at x's
 * precision (the bounds' reading of their decimal inputs). */
UL_MUST_CHECK ul_status ul_num_read_domain(mpfi_ptr x, const ul_domain *d, const char *name,
                                           const char *text, char *err, size_t errlen);

#endif
