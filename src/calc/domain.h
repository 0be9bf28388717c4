/* src/calc/domain.h — the calculator's view of the input domains.  The
 * domains themselves are declared once, one layer down (num/domain.h:
 * type, range, units, rule text), where the bounds and the certificate
 * reader use the same declarations; a quantity's row attaches one to a flag
 * (calc/table.c), and from it come the rule in the flag's help text
 * (ul_calc_flag_help: "0 < D < 1"), the check before the quantity runs
 * (ul_calc_domain_check, "delta: must be < 1 (got '2')"), and the domain the
 * library lists (ulaudit_calc_list, ul_calc_domain_json). */
#ifndef UL_CALC_DOMAIN_H
#define UL_CALC_DOMAIN_H

#include <json-c/json.h>

#include "num/domain.h"

/* The names the calculator's clients use (calc/run.c, src/lib, tests). */
typedef ul_domain ul_calc_domain;
#define UL_CALC_REAL UL_DOMAIN_REAL
#define UL_CALC_INTEGER UL_DOMAIN_INTEGER
#define UL_CALC_ENUM UL_DOMAIN_WORDS
#define ul_calc_domain_rule ul_domain_rule
#define ul_calc_domain_check ul_domain_check

/* The domain as a JSON object: type "real" or "integer" with lo, lo_open,
 * hi, hi_open, units; type "enum" with choices. */
json_object *ul_calc_domain_json(const ul_calc_domain *d);

#endif
