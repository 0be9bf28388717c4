/* src/stats/roc_hull.c — the ROC's convex hull (stats/roc_hull.h) by
 * Andrew's monotone chain (A. M. Andrew, "Another efficient algorithm for
 * convex hulls in two dimensions", Inf. Process. Lett. 9 (1979)). */
#include "stats/roc_hull.h"

#include <stdlib.h>

#include "stats/eps_lb_internal.h"
#include "stats/stats.h"

/* The cross product (a − o) × (b − o) of the points (x, y)[o, a, b]: ≥ 0
 * when o → a → b does not turn clockwise, i.e. a is not above the chord
 * o–b and leaves the upper hull (the monotone chain's test). */
static double cross3(const unsigned long *x, const unsigned long *y, size_t o, size_t a, size_t b)
{
    return ((double)x[a] - (double)x[o]) * ((double)y[b] - (double)y[o]) -
           ((double)y[a] - (double)y[o]) * ((double)x[b] - (double)x[o]);
}

size_t ul_emp_roc_hull(const double *in, size_t n_in, const double *out, size_t n_out,
                       unsigned long *fp, unsigned long *tp)
{
    double *a = ul_lb_sorted_copy(in, n_in), *b = ul_lb_sorted_copy(out, n_out);
    if (!a || !b) {
        free(a), free(b);
        return 0; /* out of memory (a hull has at least its vertex (0, 0)) */
    }
    size_t m = ul_emp_roc_counts(a, n_in, b, n_out, fp, tp, NULL), h = 1;
    for (size_t i = 1; i <= m; i++) { /* upper hull by the monotone chain, in place */
        fp[h] = fp[i], tp[h] = tp[i];
        while (h >= 2 && cross3(fp, tp, h - 2, h - 1, h) >= 0) {
            fp[h - 1] = fp[h], tp[h - 1] = tp[h];
            h--;
        }
        h++;
    }
    free(a);
    free(b);
    return h;
}
