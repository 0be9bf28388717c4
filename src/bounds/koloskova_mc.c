/* src/bounds/koloskova_mc.c — model clipping (bounds/koloskova_mc.h): the
 * theorem certified by brackets of the exact diameter ratios and δ0 (how:
 * bounds/koloskova_common.c). */
#include "bounds/koloskova_mc.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_util.h"
#include "bounds/gaussian.h"
#include "num/deadline.h"
#include "num/input.h"

/* ==== model clipping ========================================================== */

/* The problem in exact rationals. */
typedef struct {
    mpq_t eps, c2, c1, lr, c0, sigma0, diameter;
    mpq_t *sigma;
    size_t n_sigma;
    bool init_noise; /* σ0 > 0 */
} mc_exact;

static void mc_exact_init(mc_exact *x)
{
    mpq_inits(x->eps, x->c2, x->c1, x->lr, x->c0, x->sigma0, x->diameter, NULL);
    x->sigma = NULL;
    x->n_sigma = 0;
    x->init_noise = false;
}

static void mc_exact_clear(mc_exact *x)
{
    mpq_clears(x->eps, x->c2, x->c1, x->lr, x->c0, x->sigma0, x->diameter, NULL);
    for (size_t i = 0; i < x->n_sigma; i++)
        mpq_clear(x->sigma[i]);
    free(x->sigma);
}
/* Reads and checks a model-clipping problem (the σ list only when
 * need_sigma).  Input errors first (syntax, magnitude, list length, enums),
 * then every precondition of the theorem, decided exactly. */
/* The numbers of a model-clipping problem, read exactly (names as CLI flags). */
static ul_status mc_read_numbers(const ul_kol_mc_problem *pb, bool need_sigma, mc_exact *x,
                                 char *err, size_t errlen)
{
    ul_num_init();
    if (pb->variant != UL_KOL_CC1 && pb->variant != UL_KOL_CC2)
        return ul_fail(err, errlen, UL_EINPUT, "variant: must be cc1 or cc2");
    if (pb->init != UL_KOL_INIT_BALL && pb->init != UL_KOL_INIT_BOX)
        return ul_fail(err, errlen, UL_EINPUT, "init: must be the ball (clip) or the box (clamp)");
    if (pb->mode != UL_CONTRACTION_PRODUCT && pb->mode != UL_CONTRACTION_ADAPTIVE)
        return ul_fail(err, errlen, UL_EINPUT, "mode: must be product or adaptive");
    if (pb->steps > UL_CONTRACTION_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT, "steps: must be at most %lu (got %lu)",
                       UL_CONTRACTION_MAX_STEPS, pb->steps);
    ul_status st = ul_kol_read_rat(x->eps, "eps", pb->eps, "-" UL_GAUSS_MAX_ABS_EPS, false,
                                   UL_GAUSS_MAX_ABS_EPS, false, err, errlen);
    if (st == UL_OK)
        st = ul_kol_read_param(x->c2, "c2", pb->c2, err, errlen);
    if (st == UL_OK && pb->variant == UL_KOL_CC2) {
        st = ul_kol_read_param(x->c1, "c1", pb->c1, err, errlen);
        if (st == UL_OK)
            st = ul_kol_read_param(x->lr, "lr", pb->lr, err, errlen);
    }
    if (st == UL_OK && need_sigma)
        st = ul_kol_read_sigma_list(&x->sigma, &x->n_sigma, pb->sigma, pb->n_sigma, pb->steps, err,
                                    errlen);
    bool has_sigma0 = pb->sigma0 != NULL;
    if (st == UL_OK && has_sigma0)
        st = ul_kol_read_param(x->sigma0, "sigma0", pb->sigma0, err, errlen);
    x->init_noise = st == UL_OK && has_sigma0 && mpq_sgn(x->sigma0) > 0;
    if (st == UL_OK && x->init_noise)
        st = ul_kol_read_param(x->c0, "c0", pb->c0, err, errlen);
    return st;
}

/* The theorem's preconditions (docs/neural-unlearning.md, "Model clipping"), decided exactly. */
static ul_status mc_preconditions(const ul_kol_mc_problem *pb, bool need_sigma, const mc_exact *x,
                                  ul_preconditions *pre, char *err, size_t errlen)
{
    bool has_sigma0 = pb->sigma0 != NULL;
    ul_kol_pre_builder b;
    ul_kol_pre_begin(&b);
    ul_kol_pre_put(&b, &ul_kol_pre_eps_nonneg, ul_kol_holds_if(mpq_sgn(x->eps) >= 0), pb->eps);
    ul_kol_pre_put(&b, &ul_kol_pre_c2, ul_kol_holds_if(mpq_sgn(x->c2) > 0), pb->c2);
    if (pb->variant == UL_KOL_CC2) {
        ul_kol_pre_put(&b, &ul_kol_pre_c1, ul_kol_holds_if(mpq_sgn(x->c1) > 0), pb->c1);
        ul_kol_pre_put(&b, &ul_kol_pre_lr, ul_kol_holds_if(mpq_sgn(x->lr) > 0), pb->lr);
    }
    if (need_sigma) {
        size_t bad = 0;
        while (bad < x->n_sigma && mpq_sgn(x->sigma[bad]) > 0)
            bad++;
        ul_kol_pre_put(&b, &ul_kol_pre_sigma, ul_kol_holds_if(bad == x->n_sigma),
                       bad < x->n_sigma ? pb->sigma[bad] : NULL);
    }
    if (has_sigma0) {
        ul_kol_pre_put(&b, &ul_kol_pre_sigma0, ul_kol_holds_if(mpq_sgn(x->sigma0) >= 0),
                       pb->sigma0);
        if (x->init_noise) {
            ul_kol_pre_put(&b, &ul_kol_pre_c0, ul_kol_holds_if(mpq_sgn(x->c0) > 0), pb->c0);
            if (pb->init == UL_KOL_INIT_BOX)
                ul_kol_pre_put(&b, &ul_kol_pre_dim, ul_kol_holds_if(pb->dim >= 1), "0");
        }
    }
    return ul_kol_pre_finish(&b, pre, err, errlen);
}

/* D = 2·C2 (cc1) or 2·(C2 + lr·C1) (cc2), docs/neural-unlearning.md, "Model clipping", and r_t =
 * D/σ_t within contraction.h's domain.  D itself has no limit of its own: every
 * C2, C1, lr of their domains (≤ 1e100) is taken, the bounds see only r_t,
 * and ul_kol_mc_sigma_min scales by D exactly (a D above 1e100 was refused
 * as "c2: the diameter", a derived number, even for C2 ≤ 1e100). */
static ul_status mc_diameter_exact(const ul_kol_mc_problem *pb, mc_exact *x, char *err,
                                   size_t errlen)
{
    ul_status st = UL_OK;
    if (pb->variant == UL_KOL_CC2) {
        mpq_mul(x->diameter, x->lr, x->c1);
        mpq_add(x->diameter, x->diameter, x->c2);
    } else {
        mpq_set(x->diameter, x->c2);
    }
    mpq_add(x->diameter, x->diameter, x->diameter);

    mpq_t r, lim;
    mpq_inits(r, lim, NULL);
    ul_num_mpq_valid(lim, UL_GAUSS_MAX_R); /* a constant within the exact limits */
    for (size_t i = 0; i < x->n_sigma && st == UL_OK; i++) {
        mpq_div(r, x->diameter, x->sigma[i]);
        if (mpq_cmp(r, lim) > 0)
            st = ul_fail(err, errlen, UL_EINPUT,
                         "sigma: the ratio diameter/sigma must be at most %s (got sigma '%s')",
                         UL_GAUSS_MAX_R, pb->sigma[i]);
    }
    mpq_clears(r, lim, NULL);
    return st;
}

static ul_status mc_read(const ul_kol_mc_problem *pb, bool need_sigma, ul_preconditions *pre,
                         mc_exact *x, char *err, size_t errlen)
{
    ul_status st = mc_read_numbers(pb, need_sigma, x, err, errlen);
    if (st == UL_OK)
        st = mc_preconditions(pb, need_sigma, x, pre, err, errlen);
    if (st == UL_OK)
        st = mc_diameter_exact(pb, x, err, errlen);
    return st;
}

/* log δ0 ⊇ log θ_{e^ε}(D0/σ0) at out's precision (docs/neural-unlearning.md, "Model clipping": the
 * start of the chain after clipping to C0 and adding N(0, σ0²I)); [0, 0] without
 * initial noise. */
static void mc_log_delta0(mpfi_ptr out, const mc_exact *x, const ul_kol_mc_problem *pb)
{
    if (!x->init_noise) {
        mpfi_set_ui(out, 0);
        return;
    }
    mpfr_prec_t p = mpfi_get_prec(out) + 16;
    mpfi_t e, r, s;
    mpfi_init2(e, p);
    mpfi_init2(r, p);
    mpfi_init2(s, p);
    mpfi_set_q(e, x->eps);
    ul_kol_initial_diameter(r, x->c0, pb->init, pb->dim);
    mpfi_set_q(s, x->sigma0);
    mpfi_div(r, r, s);
    ul_gauss_log_theta_enclose(out, e, r);
    mpfi_clear(e);
    mpfi_clear(r);
    mpfi_clear(s);
}

/* The decimal corners of a problem at `digits` digits. */
typedef struct {
    char **r_lo, **r_hi;
    size_t n;
    char *d0_lo, *d0_hi; /* NULL: δ0 = 1 */
    bool d0_lo_zero;     /* the low corner's δ0 is 0 */
    bool exact;          /* both corners are the exact problem */
} mc_corners;

static void mc_corners_clear(mc_corners *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->r_lo[i]);
        free(c->r_hi[i]);
    }
    free(c->r_lo);
    free(c->r_hi);
    free(c->d0_lo);
    free(c->d0_hi);
}

/* The corners' r_i texts; false when out of memory (entries NULL). */
static bool mc_corners_r(mc_corners *c, const mc_exact *x, long digits)
{
    bool ok = true;
    mpq_t r;
    mpq_init(r);
    for (size_t i = 0; i < c->n && ok; i++) {
        mpq_div(r, x->diameter, x->sigma[i]);
        char *ex = ul_kol_rat_exact_text(r, (size_t)digits + 40);
        if (ex != NULL) {
            c->r_lo[i] = ex;
            c->r_hi[i] = strdup(ex);
        } else {
            c->exact = false;
            c->r_lo[i] = ul_kol_rat_round_text(r, digits, false);
            c->r_hi[i] = ul_kol_rat_round_text(r, digits, true);
            int cmp;
            if (c->r_hi[i] != NULL && ul_num_decimal_compare(c->r_hi[i], UL_GAUSS_MAX_R, &cmp) &&
                cmp > 0) {
                free(c->r_hi[i]); /* r ≤ 1e9 exactly (mc_read): 1e9 still bounds it */
                c->r_hi[i] = strdup(UL_GAUSS_MAX_R);
            }
        }
        ok = c->r_lo[i] != NULL && c->r_hi[i] != NULL;
    }
    mpq_clear(r);
    return ok;
}

/* The corners at `digits` digits; UL_ENOMEM when the n texts of r_i (sized
 * by the σ list and the digits) cannot be had: c is then empty. */
static ul_status mc_corners_make(mc_corners *c, const mc_exact *x, const ul_kol_mc_problem *pb,
                                 long digits, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->r_lo = calloc(x->n_sigma + 1, sizeof *c->r_lo);
    c->r_hi = calloc(x->n_sigma + 1, sizeof *c->r_hi);
    bool room = c->r_lo != NULL && c->r_hi != NULL; /* n_sigma may be 0: test the pointers */
    c->n = room ? x->n_sigma : 0;
    c->exact = true;
    if (!room || !mc_corners_r(c, x, digits)) {
        mc_corners_clear(c);
        memset(c, 0, sizeof *c);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "sigma: out of memory for the corners of %zu values at %ld digits",
                       x->n_sigma, digits);
    }
    c->d0_lo = c->d0_hi = NULL;
    c->d0_lo_zero = false;
    if (x->init_noise) {
        c->exact = false;
        mpfi_t l;
        mpfi_init2(l, (mpfr_prec_t)(digits * 3.33) + 64);
        mc_log_delta0(l, x, pb);
        if (mpfr_sgn(&l->right) < 0)
            c->d0_hi = ul_num_format_exp(&l->right, (int)digits, MPFR_RNDU);
        int cmp;
        if (c->d0_hi != NULL && ul_num_decimal_compare(c->d0_hi, "1", &cmp) && cmp >= 0) {
            free(c->d0_hi);
            c->d0_hi = NULL;
        }
        if (mpfr_inf_p(&l->left)) {
            c->d0_lo_zero = true;
        } else {
            c->d0_lo = ul_num_format_exp(&l->left, (int)digits, MPFR_RNDD);
            if (strcmp(c->d0_lo, "0") == 0)
                c->d0_lo_zero = true;
        }
        mpfi_clear(l);
    }
    return UL_OK;
}

static ul_contraction_problem mc_corner_problem(const ul_kol_mc_problem *pb, const mc_corners *c,
                                                bool high)
{
    ul_contraction_problem cp;
    cp.eps = pb->eps;
    cp.r = (const char *const *)(high ? c->r_hi : c->r_lo);
    cp.n_r = c->n;
    cp.steps = pb->steps;
    cp.delta0 = high ? c->d0_hi : c->d0_lo;
    cp.mode = pb->mode;
    return cp;
}

/* Digits of the first decimal brackets: the digits asked for, a guard, and
 * log10 T (a relative error in r is paid once per step).  The brackets
 * double from there until the two corners agree. */
static long mc_first_digits(const ul_num_precision *want, unsigned long steps)
{
    return want->digits + 16 + (long)ceil(log10(2.0 + (double)steps));
}

/* The time budget (num/deadline.h), asked before every round of the loops
 * below that double their digits: UL_ETIME naming what was being computed. */
static bool out_of_time(ul_status *st, const char *what, long digits, char *err, size_t errlen)
{
    if (!ul_deadline_passed())
        return false;
    *st = ul_fail(err, errlen, UL_ETIME, "computing %s at %ld digits", what, digits);
    return true;
}

static long max_digits_for(const ul_num_precision *want)
{
    return (long)((double)ul_num_max_bits(want) * 0.30103) + 1;
}

/* UL_ENOMEM for the exact text of the diameter (its digits grow with the
 * input's numbers: policy of num/status.h). */
static ul_status diameter_no_memory(const mc_exact *x, char *err, size_t errlen)
{
    return ul_fail(err, errlen, UL_ENOMEM,
                   "diameter: out of memory for its exact text (%zu digits)",
                   mpz_sizeinbase(mpq_numref(x->diameter), 10));
}

ul_status ul_kol_mc_diameter(const ul_kol_mc_problem *pb, ul_preconditions *pre, char **diameter,
                             char *err, size_t errlen)
{
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(pb, false, pre, &x, err, errlen);
    *diameter = NULL;
    if (st == UL_OK) {
        *diameter =
            ul_kol_rat_exact_text(x.diameter, (size_t)-1); /* sums and products of decimals */
        if (*diameter == NULL)                             /* so NULL is out of memory */
            st = diameter_no_memory(&x, err, errlen);
    }
    mc_exact_clear(&x);
    return st;
}

typedef struct {
    const mc_exact *x;
    const ul_kol_mc_problem *pb;
} mc_delta0_ctx;

static ul_status eval_delta0(ul_num_value *out, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const mc_delta0_ctx *c = ctx;
    if (!c->x->init_noise) {
        /* δ0 = 1: any starting pair (docs/neural-unlearning.md, "Model clipping") */
        mpfi_set_ui(out->enclosure, 1);
        out->is_log = false;
        return UL_OK;
    }
    mc_log_delta0(out->enclosure, c->x, c->pb);
    out->is_log = true;
    return UL_OK;
}

ul_status ul_kol_mc_delta0_certified(const ul_kol_mc_problem *pb, const ul_num_precision *want,
                                     ul_preconditions *pre, ul_num_value *delta0,
                                     ul_num_report *rep, char *err, size_t errlen)
{
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(pb, false, pre, &x, err, errlen);
    if (st == UL_OK) {
        mc_delta0_ctx c = {&x, pb};
        st = ul_num_adaptive_eval(eval_delta0, &c, want, delta0, rep, err, errlen);
    }
    mc_exact_clear(&x);
    return st;
}

ul_status ul_kol_mc_delta_certified(const ul_kol_mc_problem *pb, const ul_num_precision *want,
                                    ul_preconditions *pre, ul_num_value *delta, bool *floor_reached,
                                    ul_num_report *rep, char *err, size_t errlen)
{
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(pb, true, pre, &x, err, errlen);
    if (st != UL_OK) {
        mc_exact_clear(&x);
        return st;
    }
    ul_num_precision corner_want = *want;
    corner_want.digits = want->digits + 1;
    long max_digits = max_digits_for(want);
    ul_num_value lo, hi;
    ul_num_value_init(&lo, 64);
    ul_num_value_init(&hi, 64);
    for (long digits = mc_first_digits(want, pb->steps);; digits *= 2) {
        if (out_of_time(&st, "the model-clipping delta_T", digits, err, errlen))
            break;
        mc_corners c;
        if ((st = mc_corners_make(&c, &x, pb, digits, err, errlen)) != UL_OK)
            break;
        ul_contraction_problem cp = mc_corner_problem(pb, &c, true);
        ul_num_report r_hi = {0, false}, r_lo = {0, false};
        bool floor_hi = false, floor_lo = false;
        ul_status st_lo = UL_OK;
        st = ul_contraction_delta_certified(&cp, &corner_want, &hi, &floor_hi, &r_hi, err, errlen);
        if ((st == UL_OK || st == UL_ECAP) && !c.exact && !c.d0_lo_zero) {
            cp = mc_corner_problem(pb, &c, false);
            st_lo = ul_contraction_delta_certified(&cp, &corner_want, &lo, &floor_lo, &r_lo, err,
                                                   errlen);
        }
        mc_corners_clear(&c);
        if ((st != UL_OK && st != UL_ECAP) || (st_lo != UL_OK && st_lo != UL_ECAP)) {
            st = st != UL_OK && st != UL_ECAP ? st : st_lo;
            break;
        }
        /* combine: lower end from the low corner, upper end from the high one */
        *rep = r_hi;
        ul_kol_report_merge(rep, &r_lo);
        *floor_reached = floor_hi;
        mpfr_prec_t p = mpfi_get_prec(hi.enclosure);
        if (mpfi_get_prec(lo.enclosure) > p)
            p = mpfi_get_prec(lo.enclosure);
        mpfr_t l, h;
        mpfr_inits2(p, l, h, (mpfr_ptr)0);
        mpfi_get_right(h, hi.enclosure);
        if (c.exact)
            mpfi_get_left(l, hi.enclosure);
        else if (c.d0_lo_zero || floor_lo)
            mpfr_set_inf(l, -1);
        else
            mpfi_get_left(l, lo.enclosure);
        if (mpfr_greater_p(l, h)) /* cannot happen (monotone corners); stay sound */
            mpfr_set_inf(l, -1);
        mpfi_set_prec(delta->enclosure, p);
        mpfi_interv_fr(delta->enclosure, l, h);
        delta->is_log = true;
        mpfr_clears(l, h, (mpfr_ptr)0);
        if (floor_hi) {
            st = UL_OK;
            break;
        }
        if (ul_num_value_narrow_enough(delta, want->digits)) {
            st = UL_OK;
            break;
        }
        if (st == UL_ECAP || st_lo == UL_ECAP || c.exact || 2 * digits > max_digits) {
            rep->cap_hit = true;
            st = ul_fail(err, errlen, UL_ECAP,
                         "precision cap of %ld bits reached before %d digits were certain",
                         (long)ul_num_max_bits(want), want->digits);
            break;
        }
    }
    ul_num_value_clear(&lo);
    ul_num_value_clear(&hi);
    mc_exact_clear(&x);
    return st;
}

ul_status ul_kol_mc_least_steps(const ul_kol_mc_problem *pb, const char *delta,
                                unsigned long max_steps, ul_preconditions *pre,
                                unsigned long *steps, ul_num_report *rep, char *err, size_t errlen)
{
    /* the σ list must be one constant σ; steps is not used (check it as 1) */
    ul_kol_mc_problem one = *pb;
    one.steps = 1;
    if (pb->n_sigma != 1)
        return ul_fail(err, errlen, UL_EINPUT, "sigma: the least T needs one constant sigma");
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(&one, true, pre, &x, err, errlen);
    mpq_t d;
    mpq_init(d);
    if (st == UL_OK)
        st = ul_kol_read_rat(d, "delta", delta, "0", true, "1", true, err, errlen);
    mpq_clear(d);
    if (st != UL_OK) {
        mc_exact_clear(&x);
        return st;
    }
    ul_num_precision dummy = {17, 0, 0};
    long max_digits = max_digits_for(&dummy);
    rep->bits_used = 0;
    rep->cap_hit = false;
    unsigned long t_hi = 0;
    bool have_hi = false;
    for (long digits = mc_first_digits(&dummy, 1000);; digits *= 2) {
        if (out_of_time(&st, "the least T of model clipping", digits, err, errlen))
            break;
        mc_corners c;
        if ((st = mc_corners_make(&c, &x, &one, digits, err, errlen)) != UL_OK)
            break;
        ul_contraction_problem cp = mc_corner_problem(&one, &c, true);
        ul_num_report r = {0, false};
        unsigned long t_lo = 0;
        st = ul_contraction_least_steps(&cp, delta, max_steps, &t_hi, &r, err, errlen);
        ul_kol_report_merge(rep, &r);
        ul_status st_lo = UL_OK;
        bool exact = c.exact;
        if (st == UL_OK)
            have_hi = true;
        bool stop = st == UL_EINPUT || st == UL_ENOMEM; /* another round would fail alike */
        if (!exact && !c.d0_lo_zero && !stop) {
            cp = mc_corner_problem(&one, &c, false);
            st_lo = ul_contraction_least_steps(&cp, delta, max_steps, &t_lo, &r, err, errlen);
            ul_kol_report_merge(rep, &r);
        }
        mc_corners_clear(&c);
        if (exact || stop)
            break;
        /* the low corner bounds every true δ_t from below (UL_ENOROOT); or no memory */
        if (st_lo == UL_ENOROOT || st_lo == UL_ENOMEM) {
            st = st_lo;
            break;
        }
        if (st == UL_OK && st_lo == UL_OK && t_lo == t_hi)
            break;
        if (2 * digits > max_digits) {
            rep->cap_hit = true;
            st = ul_fail(err, errlen, have_hi ? UL_ECAP : st,
                         "could not decide the least T within the precision cap%s",
                         have_hi ? " (the T reported suffices)" : "");
            break;
        }
    }
    if (have_hi)
        *steps = t_hi;
    mc_exact_clear(&x);
    return st;
}

/* out ⊇ the smallest σ of one corner problem.  The search runs at the
 * diameter 1 and scales by the exact D: δ_T sees D and σ only through
 * r_t = D/σ (docs/neural-unlearning.md, "Model clipping"), so σ* = D/r* with r* the largest
 * admissible r, which does not depend on D (contraction.c, ul_contraction_sigma_min:
 * σ* ∈ [D/r_unsafe, D/r_safe]); mpfi_mul_q rounds outward.  Passing D itself
 * would hold D to contraction-sigma's --diameter limit (1e100), which no
 * flag of model clipping states.  out is NaN when the search set nothing
 * (UL_ECAP without a bracket), never a value of an earlier round scaled
 * twice. */
static ul_status mc_corner_sigma(const ul_contraction_problem *cp, const mc_exact *x,
                                 const char *delta, const ul_num_precision *want, mpfi_ptr out,
                                 ul_num_report *rep, char *err, size_t errlen)
{
    mpfr_set_nan(&out->left);
    mpfr_set_nan(&out->right);
    ul_status st = ul_contraction_sigma_min(cp, "1", delta, want, out, rep, err, errlen);
    mpfi_mul_q(out, out, x->diameter);
    return st;
}

ul_status ul_kol_mc_sigma_min(const ul_kol_mc_problem *pb, const char *delta,
                              const ul_num_precision *want, ul_preconditions *pre, mpfi_ptr sigma,
                              ul_num_report *rep, char *err, size_t errlen)
{
    mc_exact x;
    mc_exact_init(&x);
    ul_status st = mc_read(pb, false, pre, &x, err, errlen);
    if (st != UL_OK) {
        mc_exact_clear(&x);
        return st;
    }
    ul_num_precision corner_want = *want;
    corner_want.digits = want->digits + 1;
    long max_digits = max_digits_for(want);
    mpfi_t lo;
    mpfi_init2(lo, 64);
    rep->bits_used = 0;
    rep->cap_hit = false;
    for (long digits = mc_first_digits(want, pb->steps);; digits *= 2) {
        if (out_of_time(&st, "the smallest sigma of model clipping", digits, err, errlen))
            break;
        mc_corners c;
        if ((st = mc_corners_make(&c, &x, pb, digits, err, errlen)) != UL_OK)
            break;
        ul_contraction_problem cp = mc_corner_problem(pb, &c, true);
        ul_num_report r = {0, false};
        st = mc_corner_sigma(&cp, &x, delta, &corner_want, sigma, &r, err, errlen);
        ul_kol_report_merge(rep, &r);
        ul_status st_lo = UL_OK;
        bool exact = !x.init_noise, lo_zero = c.d0_lo_zero;
        if ((st == UL_OK || st == UL_ECAP) && !exact && !lo_zero) {
            cp = mc_corner_problem(pb, &c, false);
            st_lo = mc_corner_sigma(&cp, &x, delta, &corner_want, lo, &r, err, errlen);
            ul_kol_report_merge(rep, &r);
        }
        mc_corners_clear(&c);
        if (exact || (st != UL_OK && st != UL_ECAP) || (st_lo != UL_OK && st_lo != UL_ECAP)) {
            if (st == UL_OK)
                st = st_lo;
            break;
        }
        /* σ* is nondecreasing in δ0: [low corner's lower end, high corner's upper end] */
        mpfr_t l, h;
        mpfr_inits2(mpfi_get_prec(sigma), l, h, (mpfr_ptr)0);
        mpfi_get_right(h, sigma);
        if (lo_zero)
            mpfr_set_zero(l, 1);
        else
            mpfr_set(l, &lo->left, MPFR_RNDD);
        mpfi_interv_fr(sigma, l, h);
        mpfr_clears(l, h, (mpfr_ptr)0);
        ul_num_value v;
        ul_num_value_init(&v, mpfi_get_prec(sigma));
        mpfi_set(v.enclosure, sigma);
        bool narrow = ul_num_value_narrow_enough(&v, want->digits);
        ul_num_value_clear(&v);
        if (narrow && st == UL_OK && st_lo == UL_OK)
            break;
        if (st == UL_ECAP || st_lo == UL_ECAP || 2 * digits > max_digits) {
            rep->cap_hit = true;
            st = ul_fail(err, errlen, UL_ECAP,
                         "precision cap of %ld bits reached before %d digits were certain",
                         (long)ul_num_max_bits(want), want->digits);
            break;
        }
    }
    mpfi_clear(lo);
    mc_exact_clear(&x);
    return st;
}
