/* src/bounds/bounds_util.c — interval helpers shared by the files of src/bounds/
 * (see bounds_util.h for what each one guarantees). */
#include "bounds/bounds_util.h"

#include "num/input.h"

#include "num/encl.h"

void ul_bounds_interval_min(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b)
{
    /* min is increasing in each argument, so the ends of the result are the
     * mins of the ends; the temporaries let out alias a or b. */
    mpfr_t lo, hi;
    mpfr_inits2(mpfi_get_prec(out), lo, hi, (mpfr_ptr)0);
    mpfr_min(lo, &a->left, &b->left, MPFR_RNDD);
    mpfr_min(hi, &a->right, &b->right, MPFR_RNDU);
    mpfi_interv_fr(out, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

void ul_bounds_interval_max(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b)
{
    /* max is increasing in each argument too */
    mpfr_t lo, hi;
    mpfr_inits2(mpfi_get_prec(out), lo, hi, (mpfr_ptr)0);
    mpfr_max(lo, &a->left, &b->left, MPFR_RNDD);
    mpfr_max(hi, &a->right, &b->right, MPFR_RNDU);
    mpfi_interv_fr(out, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

void ul_bounds_sigma_from_radius_bracket(mpfi_ptr sigma, const char *num_text, mpfr_srcptr safe_r,
                                         mpfr_srcptr unsafe_r, mpfr_prec_t p)
{
    /* N / r is decreasing in r (N > 0): the largest r (unsafe) gives the lower end,
     * the smallest (safe) the upper end, which is the σ that is certified
     * to meet the target. */
    mpfi_t n;
    mpfi_init2(n, p);
    ul_num_set_valid(n, num_text);
    mpfi_set_prec(sigma, p);
    mpfr_t lo, hi;
    mpfr_inits2(p, lo, hi, (mpfr_ptr)0);
    mpfr_div(lo, &n->left, unsafe_r, MPFR_RNDD);
    mpfr_div(hi, &n->right, safe_r, MPFR_RNDU);
    mpfi_interv_fr(sigma, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpfi_clear(n);
}

double ul_bounds_golden_min_d(ul_bounds_fn_d f, const void *ctx, double a, double b, double tol,
                              int max_iter, double *f_min)
{
    const double g = 0.6180339887498949; /* (√5 − 1)/2 */
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = f(ctx, c), fd = f(ctx, d);
    for (int it = 0; it < max_iter && b - a > tol; it++) {
        if (fc <= fd) {
            b = d, d = c, fd = fc;
            c = b - g * (b - a);
            fc = f(ctx, c);
        } else {
            a = c, c = d, fc = fd;
            d = a + g * (b - a);
            fd = f(ctx, d);
        }
    }
    *f_min = fc <= fd ? fc : fd;
    return fc <= fd ? c : d;
}
