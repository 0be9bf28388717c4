/* src/stats/roc_hull.h — the ROC's convex hull, for comparisons with
 * jax_privacy (the hull its `epsilon_clopper_pearson` takes its Bonferroni
 * count from; tests/bench/jax_cp.h reproduces that baseline).
 */
#ifndef UL_STATS_ROC_HULL_H
#define UL_STATS_ROC_HULL_H

#include <stddef.h>

/* The vertices of the ROC's convex hull (its upper concave majorant, in
 * counts: fp false positives, tp true positives, from (0, 0) to (n_out,
 * n_in); collinear points dropped), as jax_privacy's `_pareto_frontier`
 * keeps them.  fp, tp need room for n_in + n_out + 1 entries; returns the
 * number of vertices, 0 when the sorted copies of the scores cannot be had
 * (out of memory).  For comparisons with jax_privacy only: a Bonferroni
 * count taken from this data-dependent set is not covered by the lemma of
 * stats/eps_lb.h. */
size_t ul_emp_roc_hull(const double *in, size_t n_in, const double *out, size_t n_out,
                       unsigned long *fp, unsigned long *tp);

#endif
