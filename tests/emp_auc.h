/* tests/emp_auc.h — the AUC by its definition, for the score tests
 * (test_emp_attack.c, test_emp_lira.c, test_emp_rmia.c): an independent
 * reference for the ROC code of stats/stats.h. */
#ifndef UL_TESTS_EMP_AUC_H
#define UL_TESTS_EMP_AUC_H

#include <stddef.h>

/* Mann–Whitney AUC by counting pairs: P[IN > OUT] + ½ P[IN = OUT]. */
static inline double auc_pairs(const double *in, size_t n_in, const double *out, size_t n_out)
{
    double c = 0;
    for (size_t i = 0; i < n_in; i++)
        for (size_t j = 0; j < n_out; j++)
            c += in[i] > out[j] ? 1 : in[i] == out[j] ? 0.5 : 0;
    return c / ((double)n_in * (double)n_out);
}

#endif
