/* src/stats/eps_lb_internal.h — what the test families of stats/eps_lb.h
 * share (eps_lb_common.c), and each family's entry point.  Internal to
 * src/stats: the public API is stats/eps_lb.h.
 *
 * One file per family, each called by ul_emp_eps_lb (eps_lb.c) on ascending
 * copies a (IN scores) and b (OUT scores) after its checks:
 *   eps_lb_family.c  FAMILY  two Clopper–Pearson bounds per grid test
 *   eps_lb_all.c     ALL     every distinct threshold (the legacy statistic)
 *                    LEVELS  the same thresholds, L − 1 of them declared
 *   eps_lb_fixed.c   FIXED and SPLIT (a pilot chooses the FIXED threshold)
 *   eps_lb_joint.c   JOINT   one p-value per grid test
 *   eps_lb_sum.c     SUM     a weighted sum over order statistics
 *   eps_lb_tiebreak.c        ties broken at random (opts.tie_seed), any rank method
 *   onerun.c         ONERUN  one training run (Steinke, Nasr, Jagielski 2023)
 * The statements and proofs these rely on are in stats/eps_lb.h.
 */
#ifndef UL_STATS_EPS_LB_INTERNAL_H
#define UL_STATS_EPS_LB_INTERNAL_H

#include "stats/eps_lb.h"

/* One threshold test: direction, counts, rule, and its double estimate. */
typedef struct {
    int dir;              /* +1 forward, −1 reversed */
    unsigned long fp, fn; /* design/observed counts as the lemma prescribes */
    double threshold;     /* rule "IN iff score ≥ threshold" */
    double est;
} ul_lb_candidate;

/* ---- doubles: ranking, sorting, counting ------------------------------------ */

double ul_lb_ratio_of(const ul_emp_lb_opts *o);
double ul_lb_eps_counts_d(unsigned long fp, unsigned long n_out, unsigned long fn,
                          unsigned long n_in, double beta, double delta);
int ul_lb_cmp_double(const void *a, const void *b);
ul_status ul_lb_no_room(char *err, size_t errlen, const char *what, size_t n_in, size_t n_out);
double *ul_lb_sorted_copy(const double *s, size_t n);
size_t ul_lb_count_ge(const double *a, size_t n, double t);
double ul_lb_beta_d(mpfi_srcptr alpha, double div);
/* o->ratio's rule (stats/eps_lb.h): 0 (the method's default) or in (1, 16];
 * UL_EINPUT naming "ratio" otherwise. */
ul_status ul_lb_check_ratio(const ul_emp_lb_opts *o, char *err, size_t errlen);

/* ---- tied scores (eps_lb_common.c) ------------------------------------------- */

/* The share of the scores of ascending a, b equal to another score. */
double ul_lb_ties_fraction(const double *a, size_t n_in, const double *b, size_t n_out);

/* ---- ties broken at random (eps_lb_tiebreak.c) ------------------------------- */

/* The tie-broken copies: in/out hold r(s) + U (r the index of s among the
 * ascending distinct values values[0 … nv) of both worlds, U uniform from
 * the seed); ties_fraction that of the scores as given (as
 * ul_lb_ties_fraction). */
typedef struct {
    double *values, *in, *out;
    size_t nv;
    double ties_fraction;
} ul_lb_untied;

ul_status ul_lb_tie_break(ul_lb_untied *t, const double *in, size_t n_in, const double *out,
                          size_t n_out, uint64_t seed, char *err, size_t errlen);
void ul_lb_untied_free(ul_lb_untied *t);
/* A tie-broken threshold x back on the scores' scale: the value v (rule
 * "score > v, or score = v and its U ≥ *u"); ±∞ and *u = NAN outside. */
double ul_lb_untie_value(const ul_lb_untied *t, double x, double *u);

/* ---- the family's tests (the lemma of stats/eps_lb.h) ------------------------ */

ul_lb_candidate ul_lb_forward_test(const double *a, size_t n_in, const double *b, size_t n_out,
                                   unsigned long k);
ul_lb_candidate ul_lb_reversed_test(const double *a, size_t n_in, const double *b, size_t n_out,
                                    unsigned long j);
size_t ul_lb_grid_of(unsigned long n, const ul_emp_lb_opts *o, unsigned long *ks, size_t cap);
size_t ul_lb_family_size(size_t n_in, size_t n_out, const ul_emp_lb_opts *o);
ul_lb_candidate *ul_lb_family_tests(const double *a, size_t n_in, const double *b, size_t n_out,
                                    const ul_emp_lb_opts *o, double beta, double delta,
                                    size_t *count);

/* ---- certification ----------------------------------------------------------- */

void ul_lb_record(ul_emp_lb_result *res, const ul_lb_candidate *c, mpfr_srcptr e, size_t n_in,
                  size_t n_out);
ul_status ul_lb_certify_best(ul_emp_lb_result *res, const ul_lb_candidate *c, size_t nc,
                             size_t n_in, size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                             unsigned long m, char *err, size_t errlen);

/* A test's p-value in doubles at ε (it increases in ε; `level` may end
 * the computation early once the value is above it). */
typedef double (*ul_lb_pvalue_d_fn)(const void *test, double eps, double delta, double level);
double ul_lb_search_eps_d(ul_lb_pvalue_d_fn p, const void *test, double delta, double level,
                          int halvings);

/* A test's certified p-value bound at ε (rounded up; it increases in ε). */
typedef ul_status (*ul_lb_pvalue_upper_fn)(mpfr_ptr p, const void *test, mpfr_srcptr eps,
                                           mpfi_srcptr delta, char *err, size_t errlen);
ul_status ul_lb_certify_eps(mpfr_ptr e, ul_lb_pvalue_upper_fn pv, const void *test, double est,
                            int tries, mpfr_prec_t prec, mpfi_srcptr level, mpfi_srcptr delta,
                            char *err, size_t errlen);

/* ---- the families (a, b ascending; checked by ul_emp_eps_lb) ----------------- */

ul_status ul_lb_run_family(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                           size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                           const ul_emp_lb_opts *o, char *err, size_t errlen);
ul_status ul_lb_run_all(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                        size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, char *err,
                        size_t errlen);
ul_status ul_lb_run_levels(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                           size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                           unsigned long levels, char *err, size_t errlen);
/* FIXED on ascending arrays at threshold t; SPLIT on the scores as given
 * (their order chooses the pilot). */
ul_status ul_lb_run_fixed(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                          size_t n_out, double t, mpfi_srcptr alpha, mpfi_srcptr delta, char *err,
                          size_t errlen);
ul_status ul_lb_run_split(ul_emp_lb_result *res, const double *in, size_t n_in, const double *out,
                          size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                          const ul_emp_lb_opts *o, char *err, size_t errlen);
/* JOINT's geometric weights: UL_EINPUT "ratio" when a grid is too long
 * for them (checked before any family runs). */
ul_status ul_lb_check_weights(size_t n_in, size_t n_out, const ul_emp_lb_opts *o, char *err,
                              size_t errlen);
ul_status ul_lb_run_joint(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                          size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta,
                          const ul_emp_lb_opts *o, char *err, size_t errlen);
ul_status ul_lb_run_sum(ul_emp_lb_result *res, const double *a, size_t n_in, const double *b,
                        size_t n_out, mpfi_srcptr alpha, mpfi_srcptr delta, const ul_emp_lb_opts *o,
                        char *err, size_t errlen);

#endif
