/* src/emp/attack.c — running the game, scoring, and the verdict. */
#include "emp/attack.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <mpfi.h>
#include <nettle/sha2.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounds/noisygd.h"
#include "io/escape.h"
#include "emp/score.h"
#include "stats/eps_lb.h"
#include "stats/gdp.h"
#include "num/encl.h"
#include "num/input.h"

/* ---- running ------------------------------------------------------------------ */

/* SHA-256 (by nettle) of n, d, x and y, host byte order: the data a
 * checkpoint's models were trained on. */
static void data_digest(const ul_dataset *ds, uint8_t out[SHA256_DIGEST_SIZE])
{
    struct sha256_ctx c;
    uint64_t nd[2] = {ds->n, ds->d};
    sha256_init(&c);
    sha256_update(&c, sizeof nd, (const uint8_t *)nd);
    sha256_update(&c, ds->n * ds->d * sizeof(double), (const uint8_t *)ds->x);
    sha256_update(&c, ds->n * sizeof(double), (const uint8_t *)ds->y);
    sha256_digest(&c, SHA256_DIGEST_SIZE, out);
}

ul_status ul_attack_prepare(ul_attack_state *st, ul_attack_config *cfg, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    st->cfg = cfg;
    size_t target = 0;
    ul_status s = UL_OK;
    if (cfg->target >= 0)
        target = (size_t)cfg->target;
    else
        s = ul_exp_pick_target(&cfg->design, &cfg->data, &target, err, errlen);
    if (s == UL_OK)
        s = ul_exp_plan_build(&st->plan, &cfg->design, &cfg->data, target, err, errlen);
    if (s != UL_OK)
        return s;
    data_digest(&st->plan.data, st->data_sha256);
    st->p = cfg->design.model.ops->nparams(&cfg->design.model, st->plan.data.d);
    if (st->p > ((size_t)1 << 28) / cfg->chunk ||
        (cfg->save_models && st->p > ((size_t)1 << 28) / cfg->runs))
        return ul_fail(err, errlen, UL_EINPUT, "runs: %zu runs x %zu parameters is too much memory",
                       cfg->save_models ? cfg->runs : cfg->chunk, st->p);
    /* the shard records the loss and LR scores; LiRA is computed from the loss */
    int rec = (cfg->scores & (UL_SCORE_LOSS | UL_SCORE_LR)) |
              ((cfg->scores & UL_SCORE_LIRA) ? UL_SCORE_LOSS : 0);
    s = ul_shard_log_init(&st->log, st->p, cfg->runs, cfg->chunk, rec, cfg->save_models, err,
                          errlen);
    if (s != UL_OK)
        return s;
    st->W_in = malloc(st->p * cfg->chunk * sizeof *st->W_in);
    st->W_out = malloc(st->p * cfg->chunk * sizeof *st->W_out);
    if (!st->W_in || !st->W_out) /* chunk x p: the input's (policy: num/status.h) */
        return ul_fail(err, errlen, UL_ENOMEM,
                       "out of memory for a chunk of %zu runs x %zu parameters", cfg->chunk,
                       st->p);
    return ul_attack_set_slice(st, 0, 1, err, errlen);
}

ul_status ul_attack_set_slice(ul_attack_state *st, size_t i, size_t k, char *err, size_t errlen)
{
    size_t n = st->log.nchunks;
    if (k < 1 || i >= k || k > n)
        return ul_fail(err, errlen, UL_EINPUT,
                       "shard %zu/%zu: need 0 <= i < k <= %zu (the number of chunks of %zu runs)",
                       i, k, n, st->cfg->chunk);
    if (st->done)
        return ul_fail(err, errlen, UL_EINPUT, "shard: chosen after runs were done");
    size_t c0, c1;
    ul_shard_slice(n, i, k, &c0, &c1);
    ul_attack_set_range(st, c0, c1);
    return UL_OK;
}

void ul_attack_set_range(ul_attack_state *st, size_t c0, size_t c1)
{
    ul_shard_file_close(&st->file);
    st->c0 = c0, st->c1 = c1, st->next = c0, st->done = 0;
    size_t a = c0 * st->cfg->chunk, b = c1 * st->cfg->chunk;
    st->total = (b < st->cfg->runs ? b : st->cfg->runs) - (a < st->cfg->runs ? a : st->cfg->runs);
}

ul_shard_id ul_attack_id(const ul_attack_state *st)
{
    ul_shard_id id = {.target = st->plan.target, .c0 = st->c0, .c1 = st->c1};
    memcpy(id.cfg_sha256, st->cfg->sha256, 64);
    memcpy(id.data_sha256, st->data_sha256, 32);
    return id;
}

ul_status ul_attack_step(ul_attack_state *st, char *err, size_t errlen)
{
    const ul_attack_config *cfg = st->cfg;
    if (st->next >= st->c1)
        return UL_OK;
    size_t run0, M, nf, c = st->next;
    ul_shard_chunk(&st->log, c, &run0, &M, &nf);
    const ul_dataset *D = &st->plan.data;
    size_t t = st->plan.target;
    ul_status s = ul_exp_run(&cfg->design, &st->plan, run0, M, st->W_in, st->W_out, err, errlen);
    if (s == UL_OK)
        s = ul_shard_add(&st->log, c, st->W_in, st->W_out, &cfg->design.model, D->x + t * D->d,
                         D->d, D->y[t], err, errlen);
    if (s == UL_OK && st->file.f)
        s = ul_shard_file_append(&st->file, &st->log, c, err, errlen);
    if (s == UL_OK)
        st->next++, st->done += M;
    return s;
}

void ul_attack_state_free(ul_attack_state *st)
{
    if (!st)
        return;
    ul_exp_plan_free(&st->plan);
    ul_shard_log_free(&st->log);
    ul_shard_file_close(&st->file);
    free(st->W_in);
    free(st->W_out);
    memset(st, 0, sizeof *st);
}

/* ---- checkpoints and shards (emp/shard.h) ---------------------------------------------- */

ul_status ul_attack_checkpoint_start(ul_attack_state *st, const char *path, char *err,
                                     size_t errlen)
{
    ul_shard_id id = ul_attack_id(st);
    ul_shard_file_close(&st->file);
    return ul_shard_file_create(&st->file, path, &st->log, &id, err, errlen);
}

ul_status ul_attack_checkpoint_load(ul_attack_state *st, const char *path, char *err, size_t errlen)
{
    ul_shard_id id = ul_attack_id(st);
    ul_shard_read rd;
    ul_shard_file_close(&st->file);
    ul_status s = ul_shard_file_resume(&st->file, path, &st->log, &id, &rd, err, errlen);
    if (s != UL_OK)
        return s;
    st->ckpt_cut = rd.cut;
    st->next = st->c0 + rd.got;
    st->done = 0;
    for (size_t c = st->c0; c < st->next; c++) {
        size_t run0, M, nf;
        ul_shard_chunk(&st->log, c, &run0, &M, &nf);
        st->done += M;
    }
    return UL_OK;
}

ul_status ul_attack_merge_stream(ul_attack_state *st, FILE *f, const char *name, char *err,
                                 size_t errlen)
{
    ul_shard_id id = ul_attack_id(st);
    id.c0 = id.c1 = 0; /* any slice */
    ul_shard_read rd;
    ul_status s = ul_shard_file_read(f, name, &st->log, &id, &rd, err, errlen);
    if (s == UL_OK && rd.got != rd.c1 - rd.c0) {
        for (size_t i = 0; i < rd.got; i++) {
            ul_shard_rec *r = &st->log.rec[rd.c0 + i];
            free(r->loss), free(r->mom), free(r->test), free(r->models);
            memset(r, 0, sizeof *r);
        }
        s = ul_io_escaped(ul_fail(err, errlen, UL_EINPUT,
                                   "%s: refused: an incomplete shard (%zu of its %zu chunks; "
                                   "finish it with --resume)",
                                   name, rd.got, rd.c1 - rd.c0),
                           err, errlen);
    }
    return s;
}

/* ---- stale temporary files ------------------------------------------------------------ */

/* The pid of ".<name>.tmp.<pid>.<n>" (the pattern of ul_io_write_atomic,
 * cert/cert.c) for one of the names, or 0 when entry is not one. */
static long temp_owner(const char *entry, const char *const *names, size_t n_names)
{
    for (size_t i = 0; i < n_names; i++) {
        size_t len = strlen(names[i]);
        const char *s = entry + 1 + len;
        if (entry[0] != '.' || strncmp(entry + 1, names[i], len) != 0 ||
            strncmp(s, ".tmp.", 5) != 0)
            continue;
        s += 5;
        char *end;
        if (*s < '1' || *s > '9')
            return 0;
        errno = 0;
        long pid = strtol(s, &end, 10);
        if (errno || *end != '.' || end[1] < '0' || end[1] > '9')
            return 0;
        for (s = end + 1; *s >= '0' && *s <= '9'; s++)
            ;
        return *s == '\0' ? pid : 0;
    }
    return 0;
}

size_t ul_attack_clean_temps(const char *dir, const char *const *names, size_t n_names, char *err,
                             size_t errlen)
{
    DIR *d = opendir(dir);
    size_t removed = 0;
    bool reported = false;
    if (d == NULL)
        return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        long pid = temp_owner(e->d_name, names, n_names);
        /* only a dead writer's file: kill(pid, 0) fails with ESRCH when no
         * process has that id (POSIX kill()); ours counts as alive */
        if (pid <= 0 || pid == (long)getpid() || (pid_t)pid != pid || kill((pid_t)pid, 0) == 0 ||
            errno != ESRCH)
            continue;
        struct stat sb;
        if (fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0) {
            removed++;
        } else if (!reported) {
            ul_fail(err, errlen, UL_EINPUT, "%s/%s: cannot remove the stale temporary file: %s",
                    dir, e->d_name, strerror(errno));
            ul_io_escape_message(err, errlen);
            reported = true;
        }
    }
    closedir(d);
    return removed;
}

/* K of "rank-R-of-K.bin" or "rank-R-of-K-fit.bin" (0 ≤ R < K), else 0. */
static long rank_count(const char *entry)
{
    char *end;
    if (strncmp(entry, "rank-", 5) != 0 || entry[5] < '0' || entry[5] > '9')
        return 0;
    errno = 0;
    long r = strtol(entry + 5, &end, 10);
    if (errno || strncmp(end, "-of-", 4) != 0 || end[4] < '1' || end[4] > '9')
        return 0;
    long k = strtol(end + 4, &end, 10);
    if (errno || r >= k || (strcmp(end, ".bin") != 0 && strcmp(end, "-fit.bin") != 0))
        return 0;
    return k;
}

ul_status ul_attack_resume_layout(const char *dir, int ranks, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    long other = 0;
    bool plain = false;
    if (d == NULL)
        return UL_OK;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        long k = rank_count(e->d_name);
        if (k > 0 && k != ranks && (other == 0 || k < other))
            other = k; /* the smallest: the same message whatever readdir's order */
        plain = plain || strcmp(e->d_name, "checkpoint.bin") == 0;
    }
    closedir(d);
    ul_status st = UL_OK;
    if (other > 0 && ranks > 1)
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s: --resume: the directory holds the checkpoints of a run over %ld MPI "
                     "ranks (rank-*-of-%ld.bin), not %d: resume with mpirun -n %ld, or start "
                     "afresh without --resume",
                     dir, other, other, ranks, other);
    else if (other > 0)
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s: --resume: the directory holds the checkpoints of a run over %ld MPI "
                     "ranks (rank-*-of-%ld.bin): resume with mpirun -n %ld ulaudit-mpi, or start "
                     "afresh without --resume",
                     dir, other, other, other);
    else if (plain && ranks > 1)
        st = ul_fail(err, errlen, UL_EINPUT,
                     "%s: --resume: the directory holds the checkpoint of a run without MPI "
                     "(checkpoint.bin), not of %d ranks: resume with ulaudit attack, or start "
                     "afresh without --resume",
                     dir, ranks);
    return ul_io_escaped(st, err, errlen);
}

/* ---- statistics --------------------------------------------------------------------- */

/* α_each = α/S as an enclosure. */
static void alpha_each(mpfi_ptr out, const char *alpha, int n_scores)
{
    ul_num_set_valid(out, alpha); /* validated by the configuration reader or the CLI */
    mpfi_div_ui(out, out, (unsigned long)n_scores);
}

static const char *const SCORE_NAMES[] = {"loss", "gaussian-lr", "lira-online", "lira-offline",
                                          "rmia"};
static const int NAMED_BITS[] = {UL_SCORE_LOSS, UL_SCORE_LR, UL_SCORE_LIRA_ONLINE,
                                 UL_SCORE_LIRA_OFFLINE, UL_SCORE_RMIA};

int ul_attack_score_bit(const char *name)
{
    for (int i = 0; name && i < UL_ATTACK_MAX_SCORES; i++)
        if (strcmp(name, SCORE_NAMES[i]) == 0)
            return NAMED_BITS[i];
    return 0;
}

const char *ul_attack_score_name(int bit)
{
    for (int i = 0; i < UL_ATTACK_MAX_SCORES; i++)
        if (bit == NAMED_BITS[i])
            return SCORE_NAMES[i];
    return NULL;
}

/* The divisor of α for the score `bit` among n_scores (attack.h): S without
 * a primary (Bonferroni across the scores); with one, 1 for the primary (all
 * of α) and S − 1 for each exploratory score (Bonferroni among them only). */
static unsigned level_divisor(int bit, int primary, int n_scores)
{
    if (!primary)
        return (unsigned)n_scores;
    return bit == primary || n_scores < 2 ? 1u : (unsigned)(n_scores - 1);
}

/* The scores' levels: one enclosure per divisor used (attack.h). */
typedef struct {
    mpfi_t level[UL_ATTACK_MAX_SCORES + 1]; /* α/j at index j (1 … S) */
    int primary, n_scores;
} score_levels;

static void levels_init(score_levels *L, const char *alpha, int primary, int n_scores)
{
    L->primary = primary, L->n_scores = n_scores;
    for (int j = 0; j <= UL_ATTACK_MAX_SCORES; j++) {
        mpfi_init2(L->level[j], 128);
        alpha_each(L->level[j], alpha, j > 0 ? j : 1);
    }
}

static void levels_clear(score_levels *L)
{
    for (int j = 0; j <= UL_ATTACK_MAX_SCORES; j++)
        mpfi_clear(L->level[j]);
}

/* Sets the level of score s (its bit set) and returns it. */
static mpfi_srcptr level_of(const score_levels *L, ul_attack_score *s)
{
    s->alpha_divisor = level_divisor(s->bit, L->primary, L->n_scores);
    s->role = !L->primary ? NULL : s->bit == L->primary ? "primary" : "exploratory";
    mpfi_srcptr a = L->level[s->alpha_divisor];
    mpfr_snprintf(s->alpha, sizeof s->alpha, "%.6Rg", &a->left);
    return a;
}

/* The interval of TPR − FPR at tp of n_in and fp of n_out (lo rounded
 * down, hi up), each binomial bound at level α_each/(2m), m = n_in + n_out
 * + 2 thresholds (every OUT and IN order statistic: the point is chosen
 * among all of them, so Bonferroni over that family, not over the ε
 * bound's grid). */
static ul_status advantage_bounds(mpfr_ptr adv_lo, mpfr_ptr adv_hi, unsigned long tp,
                                  size_t n_in, unsigned long fp, size_t n_out, mpfi_srcptr a_each,
                                  char *err, size_t errlen)
{
    mpfi_t lev;
    mpfi_init2(lev, 128);
    /* Bonferroni over a family fixed before the data: the thresholds at the
     * k-th largest OUT score (k = 0..n_out) and IN score (k = 0..n_in), two
     * bounds each.  The best point is one of them whatever the ties; the
     * number of distinct scores (used before) depends on the data and, with
     * ties, undercounts the family (eps_lb.h: ALL is not covered with ties). */
    mpfi_div_ui(lev, a_each, 2 * ((unsigned long)n_in + (unsigned long)n_out + 2));
    mpfr_t tpr_lo, tpr_hi, fpr_lo, fpr_hi;
    mpfr_inits2(128, tpr_lo, tpr_hi, fpr_lo, fpr_hi, (mpfr_ptr)0);
    ul_status st = ul_emp_cp_lower(tpr_lo, tp, n_in, lev, 8, err, errlen);
    if (st == UL_OK || st == UL_ECAP)
        st = ul_emp_cp_upper(tpr_hi, tp, n_in, lev, 8, err, errlen);
    if (st == UL_OK || st == UL_ECAP)
        st = ul_emp_cp_lower(fpr_lo, fp, n_out, lev, 8, err, errlen);
    if (st == UL_OK || st == UL_ECAP)
        st = ul_emp_cp_upper(fpr_hi, fp, n_out, lev, 8, err, errlen);
    if (st == UL_ECAP)
        st = UL_OK; /* the bounds are sound anyway, only wider */
    mpfr_sub(adv_lo, tpr_lo, fpr_hi, MPFR_RNDD);
    mpfr_sub(adv_hi, tpr_hi, fpr_lo, MPFR_RNDU);
    mpfr_clears(tpr_lo, tpr_hi, fpr_lo, fpr_hi, (mpfr_ptr)0);
    mpfi_clear(lev);
    return st;
}

/* The advantage interval at the ROC point of largest TPR − FPR
 * (advantage_bounds). */
static ul_status advantage_interval(ul_attack_score *s, mpfi_srcptr a_each, char *err,
                                    size_t errlen)
{
    const ul_emp_roc *r = &s->roc;
    size_t best = 0;
    double adv = -INFINITY;
    for (size_t i = 0; i < r->n_points; i++) {
        double a = r->points[i].tpr - r->points[i].fpr;
        if (a > adv)
            adv = a, best = i;
    }
    s->advantage = adv;
    unsigned long tp = (unsigned long)llround(r->points[best].tpr * (double)s->n_in);
    unsigned long fp = (unsigned long)llround(r->points[best].fpr * (double)s->n_out);
    return advantage_bounds(s->adv_lo, s->adv_hi, tp, s->n_in, fp, s->n_out, a_each, err,
                            errlen);
}

/* The claim's advantage ceiling, rounded up, and where it comes from. */
static void ceiling_of(mpfr_ptr ceiling, char *source, size_t source_len,
                       const ul_attack_scoring *sc)
{
    mpfi_t e, d, c, t;
    mpfi_init2(e, 256), mpfi_init2(d, 256), mpfi_init2(c, 256), mpfi_init2(t, 256);
    mpfr_set_inf(ceiling, 1);
    if (sc->eps && sc->eps[0]) {
        /* (e^ε − 1 + 2δ)/(e^ε + 1): Kairouz, Oh, Viswanath 2015, the largest
         * TPR − FPR in the (ε, δ) privacy region. */
        ul_num_set_valid(e, sc->eps); /* the claim's fields, validated where read */
        ul_num_set_valid(d, sc->delta);
        mpfi_exp(e, e);
        mpfi_mul_ui(d, d, 2);
        mpfi_sub_ui(c, e, 1);
        mpfi_add(c, c, d);
        mpfi_add_ui(t, e, 1);
        mpfi_div(c, c, t);
        mpfr_min(ceiling, ceiling, &c->right, MPFR_RNDU);
        snprintf(source, source_len,
                 "(e^eps - 1 + 2 delta)/(e^eps + 1) at (%s, %s)", sc->eps, sc->delta);
    }
    if (sc->renyi_order && sc->renyi_order[0]) {
        /* Chourasia & Shah 2023, Thm 4.1, eq. (10) */
        ul_num_set_valid(t, sc->renyi_order);
        ul_num_set_valid(e, sc->renyi_value);
        ul_ngd_mi_ceiling_enclose(c, t, e);
        if (mpfr_cmp(&c->right, ceiling) < 0) {
            mpfr_set(ceiling, &c->right, MPFR_RNDU);
            snprintf(source, source_len,
                     "Chourasia-Shah Thm 4.1 (eq. 10) at Renyi (%s, %s)", sc->renyi_order,
                     sc->renyi_value);
        }
    }
    if (mpfr_cmp_ui(ceiling, 1) > 0)
        mpfr_set_ui(ceiling, 1, MPFR_RNDU);
    mpfi_clear(e), mpfi_clear(d), mpfi_clear(c), mpfi_clear(t);
}

static void claim_ceiling(ul_attack_result *res, const ul_attack_scoring *sc)
{
    ceiling_of(res->ceiling, res->ceiling_source, sizeof res->ceiling_source, sc);
}

static void result_init(ul_attack_result *res)
{
    memset(res, 0, sizeof *res);
    for (int i = 0; i < UL_ATTACK_MAX_SCORES; i++) {
        mpfr_inits2(128, res->score[i].adv_lo, res->score[i].adv_hi, (mpfr_ptr)0);
        res->score[i].roc.points = NULL;
        mpfr_init2(res->score[i].roc.eps_lb, 128);
        mpfr_init2(res->score[i].eps_max, 128);
        mpfr_set_zero(res->score[i].eps_max, 1);
        res->score[i].gdp_mu = res->score[i].gdp_eps = NAN;
    }
    mpfr_init2(res->eps_max, 128);
    mpfr_set_zero(res->eps_max, 1);
    res->claim_eps = NAN;
    mpfr_init2(res->ceiling, 128);
    mpfr_set_inf(res->ceiling, 1);
    res->verdict = "no claim";
    ul_audit_report_init(&res->audit);
}

void ul_attack_result_clear(ul_attack_result *res)
{
    if (!res)
        return;
    for (int i = 0; i < UL_ATTACK_MAX_SCORES; i++) {
        mpfr_clears(res->score[i].adv_lo, res->score[i].adv_hi, (mpfr_ptr)0);
        ul_emp_roc_clear(&res->score[i].roc);
        mpfr_clear(res->score[i].eps_max);
        free(res->score[i].values);
    }
    mpfr_clears(res->ceiling, res->eps_max, (mpfr_ptr)0);
    memset(res, 0, sizeof *res);
}

/* Out of memory for the `what` scores of n_in + n_out runs or models, counts
 * the input chose (policy: num/status.h). */
static ul_status scores_room(char *err, size_t errlen, const char *what, size_t n_in,
                             size_t n_out)
{
    return ul_fail(err, errlen, UL_ENOMEM, "%s scores: out of memory for %zu + %zu runs", what,
                   n_in, n_out);
}

/* The attack's ε lower bound (attack.h): the JOINT test of stats/eps_lb.h,
 * two-sided, geometric weights. */
static ul_emp_lb_opts attack_lb_opts(void)
{
    ul_emp_lb_opts o = ul_emp_lb_defaults();
    o.method = UL_EMP_LB_JOINT;
    o.geometric = true;
    return o;
}

/* ul_attack_eps_max, and the double estimate that chose the test (est
 * NULL: not wanted). */
static ul_status eps_max_est(mpfr_ptr eps_max, size_t n_in, size_t n_out, mpfi_srcptr alpha_each,
                             mpfi_srcptr delta, unsigned long *divisor, double *est, char *err,
                             size_t errlen)
{
    /* a perfect separation: every IN score (1) above every OUT score (0) */
    double *v = malloc((n_in + n_out) * sizeof *v);
    if (!v)
        return scores_room(err, errlen, "perfect-separation", n_in, n_out);
    for (size_t i = 0; i < n_in + n_out; i++)
        v[i] = i < n_in ? 1.0 : 0.0;
    ul_emp_lb_opts o = attack_lb_opts();
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    ul_status st = ul_emp_eps_lb(&r, v, n_in, v + n_in, n_out, alpha_each, delta, &o, err, errlen);
    if (st == UL_ECAP)
        st = UL_OK; /* sound, only looser */
    if (st == UL_OK)
        mpfr_set(eps_max, r.eps_lb, MPFR_RNDD);
    if (st == UL_OK && divisor)
        *divisor = r.divisor;
    if (st == UL_OK && est)
        *est = r.estimate;
    ul_emp_lb_clear(&r);
    free(v);
    return st;
}

ul_status ul_attack_eps_max(mpfr_ptr eps_max, size_t n_in, size_t n_out, mpfi_srcptr alpha_each,
                            mpfi_srcptr delta, unsigned long *divisor, char *err, size_t errlen)
{
    return eps_max_est(eps_max, n_in, n_out, alpha_each, delta, divisor, NULL, err, errlen);
}

static ul_status score_stats(ul_attack_score *s, int bit, const double *in, size_t n_in,
                             const double *out, size_t n_out, const score_levels *L,
                             const char *delta, char *err, size_t errlen)
{
    s->bit = bit;
    s->name = ul_attack_score_name(bit);
    mpfi_srcptr a_each = level_of(L, s);
    s->n_in = n_in, s->n_out = n_out;
    s->values = malloc((n_in + n_out) * sizeof *s->values);
    if (!s->values)
        return scores_room(err, errlen, s->name, n_in, n_out);
    memcpy(s->values, in, n_in * sizeof *in);
    memcpy(s->values + n_in, out, n_out * sizeof *out);
    mpfi_t dl;
    mpfi_init2(dl, 128);
    if (ul_num_set_decimal(dl, delta && delta[0] ? delta : "0") != UL_OK) {
        mpfi_clear(dl);
        return ul_fail(err, errlen, UL_EINPUT, "delta: not a decimal number the statistics can use");
    }
    /* ul_emp_roc_compute_opts initialises roc (also its eps_lb) itself.
     * The bound is the JOINT test of stats/eps_lb.h (two-sided, order-statistic
     * thresholds on a grid fixed before the data, one exact p-value each,
     * weighted Bonferroni over the grid only, the geometric weights that
     * favour the extreme order statistics). */
    mpfr_clear(s->roc.eps_lb);
    ul_emp_lb_opts o = attack_lb_opts();
    ul_status st =
        ul_emp_roc_compute_opts(&s->roc, in, n_in, out, n_out, a_each, dl, &o, err, errlen);
    if (st == UL_ECAP)
        st = UL_OK; /* the bound is sound anyway, only looser */
    if (st == UL_OK)
        st = ul_attack_eps_max(s->eps_max, n_in, n_out, a_each, dl, NULL, err, errlen);
    mpfi_clear(dl);
    if (st != UL_OK)
        return st; /* roc stays initialised (stats.h), cleared with the result */
    /* the GDP estimate (stats/gdp.h: Dong, Roth, Su 2022 Def. 2.5 and
     * Cor. 2.13), at the claimed δ when there is one in (0, 1) */
    double dd = delta && delta[0] ? strtod(delta, NULL) : 0;
    s->gdp_mu = ul_emp_gdp_mu_from_auc(s->roc.auc);
    s->gdp_eps = dd > 0 && dd < 1 ? ul_emp_gdp_eps(s->gdp_mu, dd) : NAN;
    return advantage_interval(s, a_each, err, errlen);
}

/* The claimed ε rounded up (the verdict's side), or false without one. */
static bool claim_eps_hi(mpfr_ptr eps_hi, const char *eps)
{
    if (!eps || !eps[0])
        return false;
    mpfi_t e;
    mpfi_init2(e, 128);
    ul_num_set_valid(e, eps);
    mpfr_set(eps_hi, &e->right, MPFR_RNDU);
    mpfi_clear(e);
    return true;
}

/* The verdict: a score refutes when its ε lower bound exceeds the claimed
 * ε (rounded up) or its advantage lower end exceeds the ceiling. */
static void verdict(ul_attack_result *res, const ul_attack_scoring *sc)
{
    res->has_claim = (sc->eps && sc->eps[0]) || (sc->renyi_order && sc->renyi_order[0]);
    if (!res->has_claim)
        return;
    claim_ceiling(res, sc);
    mpfr_t eps_hi;
    mpfr_init2(eps_hi, 128);
    if (!claim_eps_hi(eps_hi, sc->eps)) /* the claim rounded up: refute only beyond it */
        mpfr_set_inf(eps_hi, 1);
    res->verdict = "consistent";
    for (int k = 0; k < res->n_scores; k++) {
        ul_attack_score *s = &res->score[k];
        s->refutes = mpfr_cmp(s->roc.eps_lb, eps_hi) > 0 || mpfr_cmp(s->adv_lo, res->ceiling) > 0;
        /* with a primary score only it decides (attack.h): the exploratory
         * ones' levels were not paid for out of its α */
        if (s->refutes && (!sc->primary || s->bit == sc->primary))
            res->verdict = "refuted";
    }
    mpfr_clear(eps_hi);
}

/* LiRA scores (emp/score.h) from loss scores (−ℓ, run order), as attack.h
 * describes: φ = log(p/(1 − p)), p = e^(−ℓ); fit on the first halves
 * (online: both worlds; offline: OUT only), the other runs scored.  buf
 * holds n_in + n_out doubles; *k_in, *k_out receive the scored counts
 * (IN scores at buf, OUT scores at buf + *k_in). */
static ul_status lira_scores(int online, const double *loss_in, size_t n_in, const double *loss_out,
                             size_t n_out, double *buf, size_t *k_in, size_t *k_out, char *err,
                             size_t errlen)
{
    size_t f_in = online ? n_in / 2 : 0, f_out = n_out / 2;
    if ((online && f_in < 2) || f_out < 2 || f_out == n_out || f_in == n_in)
        return ul_fail(err, errlen, UL_EINPUT,
                       "lira-%s score: needs >= 4 runs per world (half fit, half test)",
                       online ? "online" : "offline");
    double *phi = malloc((n_in + n_out) * sizeof *phi);
    if (!phi) /* one per run: the input's (policy: num/status.h) */
        return scores_room(err, errlen, "lira", n_in, n_out);
    for (size_t i = 0; i < n_in + n_out; i++) /* ℓ = −score */
        phi[i] = ul_score_logit_conf(-(i < n_in ? loss_in[i] : loss_out[i - n_in]));
    ul_score_lira fit;
    ul_status st = ul_score_lira_fit(&fit, online, phi, f_in, phi + n_in, f_out, err, errlen);
    if (st == UL_OK) {
        *k_in = n_in - f_in, *k_out = n_out - f_out;
        ul_score_lira_apply(&fit, phi + f_in, *k_in, buf);
        ul_score_lira_apply(&fit, phi + n_in + f_out, *k_out, buf + *k_in);
    }
    free(phi);
    return st;
}

/* The LiRA scores asked for in sc->scores, each with its statistics, into
 * res->score[*i …]. */
static ul_status lira_stats(ul_attack_result *res, int *i, const ul_attack_scoring *sc,
                            const ul_attack_values *v, const score_levels *L, const char *delta,
                            char *err, size_t errlen)
{
    static const int bit[2] = {UL_SCORE_LIRA_ONLINE, UL_SCORE_LIRA_OFFLINE};
    ul_status st = UL_OK;
    double *buf = malloc((v->n_in + v->n_out) * sizeof *buf);
    if (!buf)
        return scores_room(err, errlen, "lira", v->n_in, v->n_out);
    for (int o = 0; o < 2 && st == UL_OK; o++) {
        if (!(sc->scores & bit[o]))
            continue;
        size_t k_in = 0, k_out = 0;
        st = lira_scores(o == 0, v->loss_in, v->n_in, v->loss_out, v->n_out, buf, &k_in, &k_out,
                         err, errlen);
        ul_attack_score *s = &res->score[*i];
        if (st == UL_OK && (st = score_stats(s, bit[o], buf, k_in, buf + k_in, k_out, L, delta,
                                             err, errlen)) == UL_OK)
            s->in0 = v->n_in - k_in, s->out0 = v->n_out - k_out; /* after the fitting runs */
        (*i)++;
    }
    free(buf);
    return st;
}

/* ---- what a sample size can certify (attack.h) ------------------------------ */

/* RMIA's references are given (sc->W_ref: no run is spent on them), else
 * they are the first ⌊k_out/2⌋ OUT runs (attack.h, UL_SCORE_RMIA).  The one
 * test of where they come from: the fit (rmia_fit) and the capacity
 * (scored_counts) both ask it. */
static bool rmia_refs_given(const ul_attack_scoring *sc)
{
    return sc->W_ref != NULL;
}

/* RMIA's a and γ as used: the scoring's, 0 meaning the default (attack.h) */
static double rmia_a_of(const ul_attack_scoring *sc)
{
    return sc->rmia_a > 0 ? sc->rmia_a : UL_RMIA_A_DEFAULT;
}

static double rmia_gamma_of(const ul_attack_scoring *sc)
{
    return sc->rmia_gamma > 0 ? sc->rmia_gamma : UL_RMIA_GAMMA_DEFAULT;
}

/* The scored runs of one score from `runs` runs per world: LiRA and
 * gaussian-lr fit on the first ⌊runs/2⌋ of a world (attack.h, emp/shard.h),
 * online LiRA and gaussian-lr in both worlds, offline LiRA in OUT only;
 * RMIA scores every run when its references are given, else (references
 * from the run) every IN run and the OUT runs after the references, as
 * offline LiRA. */
static void scored_counts(const ul_attack_scoring *sc, int bit, size_t runs, size_t *n_in,
                          size_t *n_out)
{
    size_t fit = runs / 2;
    *n_in = bit == UL_SCORE_LR || bit == UL_SCORE_LIRA_ONLINE ? runs - fit : runs;
    bool all_out = bit == UL_SCORE_LOSS || (bit == UL_SCORE_RMIA && rmia_refs_given(sc));
    *n_out = all_out ? runs : runs - fit;
}

static const int SCORE_BITS[UL_ATTACK_MAX_SCORES] = {
    UL_SCORE_LOSS, UL_SCORE_LR, UL_SCORE_LIRA_ONLINE, UL_SCORE_LIRA_OFFLINE, UL_SCORE_RMIA};

/* The largest perfect-separation bound over the scores in dec->scores
 * (the deciding ones) with `runs` runs per world (certified, rounded
 * down). */
static ul_status capacity_at(ul_attack_capacity *cap, const ul_attack_scoring *dec, size_t runs,
                             mpfi_srcptr a_each, mpfi_srcptr delta, char *err, size_t errlen)
{
    mpfr_t e;
    mpfr_init2(e, 128);
    mpfr_set_zero(cap->eps_max, 1);
    ul_status st = UL_OK;
    for (int b = 0; b < UL_ATTACK_MAX_SCORES && st == UL_OK; b++) {
        size_t n_in, n_out;
        unsigned long div = 0;
        double est = 0;
        scored_counts(dec, SCORE_BITS[b], runs, &n_in, &n_out);
        if (!(dec->scores & SCORE_BITS[b]) || n_in == 0 || n_out == 0)
            continue;
        st = eps_max_est(e, n_in, n_out, a_each, delta, &div, &est, err, errlen);
        if (st == UL_OK && (cap->level_divisor == 0 || mpfr_cmp(e, cap->eps_max) > 0)) {
            mpfr_set(cap->eps_max, e, MPFR_RNDD);
            cap->level_divisor = div, cap->n_in = n_in, cap->n_out = n_out, cap->estimate = est;
        }
    }
    mpfr_clear(e);
    return st;
}

/* The search in doubles.  At zero errors the best test (the extreme order
 * statistic, k = 0) sees F ~ Beta(1, n) (the lemma of stats/eps_lb.h), and
 * its p-value is at least P[e^ε·F + δ ≥ 1] = (1 − (1 − δ)e^{−ε})^n (the
 * event on which the other world's count may be all of it), so rejecting at
 * level L needs (1 − (1 − δ)e^{−ε})^n ≤ L: ε ≤ log((1 − δ)/(1 − L^{1/n})),
 * the one-sided Clopper–Pearson bound at zero errors (Clopper & Pearson
 * 1934).  The least n whose bound passes eps is
 * ⌊log L / log(1 − (1 − δ)e^{−ε})⌋ + 1; the least runs per world giving some
 * score that many scored runs in a world follow from scored_counts. */
static double closed_form_eps(double n, double level, double delta)
{
    return log((1 - delta) / -expm1(log(level) / n)); /* log((1 − δ)/(1 − L^{1/n})) */
}

static size_t runs_guess(const ul_attack_scoring *dec, double level, double delta, double eps)
{
    double n = floor(log(level) / log1p(-(1 - delta) * exp(-eps))) + 1;
    if (!(n >= 1) || n > (double)UL_ATTACK_MAX_RUNS)
        return 0;
    size_t best = 0;
    for (int b = 0; b < UL_ATTACK_MAX_SCORES; b++) {
        if (!(dec->scores & SCORE_BITS[b]))
            continue;
        for (size_t r = (size_t)n; r <= 2 * (size_t)n + 1; r = r == (size_t)n ? 2 * r - 1 : r + 1) {
            size_t n_in, n_out;
            scored_counts(dec, SCORE_BITS[b], r, &n_in, &n_out);
            if ((double)(n_in > n_out ? n_in : n_out) >= n) {
                best = best == 0 || r < best ? r : best;
                break;
            }
        }
    }
    return best;
}

/* Certifying above this many runs per world costs seconds (a perfect
 * separation of 2 × runs scores): the doubles' lower bound is given alone. */
#define CERTIFY_RUNS_MAX 100000

/* The least runs per world whose capacity passes eps_hi, found in doubles
 * and certified once (attack.h).  r0 = runs_guess, a lower bound of the
 * runs needed (the closed form is a lower bound of the best test's
 * p-value).  Its certified capacity comes with the test's double estimate:
 * when r0 passes it is the least; otherwise the gap between the closed
 * form and the estimate at r0 (the JOINT test's grid of false rates,
 * stats/eps_lb_joint.c, nearly constant in n) corrects the target and the
 * closed form gives r1, certified once: r1 suffices when it passes (the
 * least lies in (r0, r1]); when it does not, r0 is reported, uncertified
 * (*certified false: "at least r0"). */
static ul_status runs_needed(size_t *out, bool *certified, const ul_attack_capacity *now,
                             const ul_attack_scoring *dec, mpfi_srcptr a_each, mpfi_srcptr delta,
                             mpfr_srcptr eps_hi, char *err, size_t errlen)
{
    *out = 0, *certified = false;
    double level = mpfr_get_d(&a_each->left, MPFR_RNDD) / (double)now->level_divisor,
           dd = mpfr_get_d(&delta->left, MPFR_RNDD), target = mpfr_get_d(eps_hi, MPFR_RNDU);
    size_t r = runs_guess(dec, level, dd, target);
    if (r == 0)
        return UL_OK;
    *out = r;
    ul_attack_capacity c = {.level_divisor = 0};
    mpfr_init2(c.eps_max, 128);
    ul_status st = UL_OK;
    for (int pass = 0; pass < 2 && r <= CERTIFY_RUNS_MAX && st == UL_OK; pass++) {
        c.level_divisor = 0;
        st = capacity_at(&c, dec, r, a_each, delta, err, errlen);
        if (st != UL_OK || mpfr_cmp(c.eps_max, eps_hi) > 0) {
            *out = st == UL_OK ? r : *out, *certified = st == UL_OK;
            break;
        }
        /* the doubles' correction (pass 0 only), with 0.2% to spare */
        double n = (double)(c.n_in > c.n_out ? c.n_in : c.n_out);
        double gap = closed_form_eps(n, level, dd) - c.estimate;
        size_t r1 = runs_guess(dec, level, dd, target + fmax(gap, 0) + 0.002 * target);
        if (pass == 1 || r1 <= r || r1 > UL_ATTACK_MAX_RUNS)
            break;
        r = r1;
    }
    mpfr_clear(c.eps_max);
    return st;
}

/* α divided by the scores (attack.h) and δ ("" or NULL: 0) as enclosures. */
static ul_status capacity_levels(mpfi_ptr a_each, mpfi_ptr dl, int n_scores, const char *alpha,
                                 const char *delta, char *err, size_t errlen)
{
    alpha_each(a_each, alpha, n_scores > 0 ? n_scores : 1);
    if (ul_num_set_decimal(dl, delta && delta[0] ? delta : "0") != UL_OK)
        return ul_fail(err, errlen, UL_EINPUT, "delta: not a decimal number the statistics can use");
    return UL_OK;
}

static int reported_scores(int scores)
{
    int n = 0;
    for (int b = 0; b < UL_ATTACK_MAX_SCORES; b++)
        n += !!(scores & SCORE_BITS[b]);
    return n;
}

/* The ε the claim states at the claimed δ, rounded up (the verdict's
 * side): its ε, else a Rényi claim's (Mironov 2017, "Rényi differential
 * privacy", Prop. 3: (q, ρ)-RDP implies (ρ + log(1/δ)/(q − 1), δ)-DP),
 * which needs δ ∈ (0, 1).  False when there is none. */
static bool claim_eps_at_delta(mpfr_ptr eps_hi, bool *renyi, const ul_attack_scoring *sc)
{
    *renyi = false;
    if (claim_eps_hi(eps_hi, sc->eps))
        return true;
    if (!sc->renyi_order || !sc->renyi_order[0] || !sc->delta || !sc->delta[0])
        return false;
    mpfi_t q, v, d;
    mpfi_init2(q, 128), mpfi_init2(v, 128), mpfi_init2(d, 128);
    ul_num_set_valid(q, sc->renyi_order); /* validated where read */
    ul_num_set_valid(v, sc->renyi_value);
    bool ok = ul_num_set_decimal(d, sc->delta) == UL_OK && mpfr_sgn(&d->left) > 0 &&
              mpfr_cmp_ui(&d->right, 1) < 0 && mpfr_cmp_ui(&q->left, 1) > 0;
    if (ok) {
        mpfi_log(d, d);
        mpfi_neg(d, d); /* log(1/δ) */
        mpfi_sub_ui(q, q, 1);
        mpfi_div(d, d, q);
        mpfi_add(d, d, v);
        mpfr_set(eps_hi, &d->right, MPFR_RNDU);
        *renyi = true;
    }
    mpfi_clear(q), mpfi_clear(v), mpfi_clear(d);
    return ok;
}

/* The advantage side (attack.h): the largest certified advantage lower
 * bound of the scores at these counts (a perfect separation: TPR = 1, FPR
 * = 0, the interval of advantage_bounds), rounded down, and the claim's
 * ceiling (rounded up; NAN without a claim). */
static ul_status capacity_advantage(ul_attack_capacity *cap, const ul_attack_scoring *sc,
                                    size_t runs, mpfi_srcptr a_each, char *err, size_t errlen)
{
    mpfr_t lo, hi;
    mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
    cap->adv_max = 0;
    ul_status st = UL_OK;
    for (int b = 0; b < UL_ATTACK_MAX_SCORES && st == UL_OK; b++) {
        size_t n_in, n_out;
        scored_counts(sc, SCORE_BITS[b], runs, &n_in, &n_out);
        if (!(sc->scores & SCORE_BITS[b]) || n_in == 0 || n_out == 0)
            continue;
        st = advantage_bounds(lo, hi, (unsigned long)n_in, n_in, 0, n_out, a_each, err, errlen);
        double a = mpfr_get_d(lo, MPFR_RNDD);
        cap->adv_max = st == UL_OK && a > cap->adv_max ? a : cap->adv_max;
    }
    cap->ceiling = NAN;
    if ((sc->eps && sc->eps[0]) || (sc->renyi_order && sc->renyi_order[0])) {
        char src[128];
        ceiling_of(hi, src, sizeof src, sc);
        cap->ceiling = mpfr_get_d(hi, MPFR_RNDU);
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return st;
}

ul_status ul_attack_capacity_of(ul_attack_capacity *cap, const ul_attack_scoring *sc,
                                size_t runs, char *err, size_t errlen)
{
    memset(cap, 0, sizeof *cap);
    mpfr_init2(cap->eps_max, 128);
    mpfr_set_zero(cap->eps_max, 1);
    cap->claim_eps = NAN;
    mpfi_t a_each, dl;
    mpfi_init2(a_each, 128), mpfi_init2(dl, 128);
    mpfr_t eps_hi;
    mpfr_init2(eps_hi, 128);
    /* with a primary only it decides, at all of α (attack.h) */
    int deciding = sc->primary ? sc->primary : sc->scores;
    ul_attack_scoring dec = *sc;
    dec.scores = deciding;
    ul_status st = capacity_levels(a_each, dl, reported_scores(deciding), sc->alpha, sc->delta,
                                   err, errlen);
    if (st == UL_OK)
        st = capacity_at(cap, &dec, runs, a_each, dl, err, errlen);
    if (st == UL_OK)
        st = capacity_advantage(cap, &dec, runs, a_each, err, errlen);
    if (st == UL_OK && claim_eps_at_delta(eps_hi, &cap->renyi, sc)) {
        cap->claim_eps = mpfr_get_d(eps_hi, MPFR_RNDU);
        if (cap->level_divisor && mpfr_cmp(cap->eps_max, eps_hi) <= 0)
            st = runs_needed(&cap->runs_needed, &cap->runs_certified, cap, &dec, a_each, dl,
                             eps_hi, err, errlen);
    }
    mpfr_clear(eps_hi);
    mpfi_clear(a_each), mpfi_clear(dl);
    return st;
}

void ul_attack_capacity_clear(ul_attack_capacity *cap)
{
    if (cap)
        mpfr_clear(cap->eps_max);
}

/* The result's capacity: the largest ε_lb and advantage lower bound its
 * scores could certify (each from its own counts, at the result's α/S),
 * the claim's ε at its δ, and when that is not below the ε capacity the
 * runs per world that could certify more (from the first deciding score's
 * runs per world: its fitting runs in0 and its scored ones n_in). */
static ul_status capacity_of_result(ul_attack_result *res, const ul_attack_scoring *sc,
                                    const score_levels *L, const char *delta, char *err,
                                    size_t errlen)
{
    mpfr_t lo, hi;
    mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
    ul_status st = UL_OK;
    /* with a primary only it decides (attack.h): its counts at all of α */
    int deciding = sc->primary ? sc->primary : sc->scores, first = -1;
    ul_attack_scoring dec = *sc;
    dec.scores = deciding;
    mpfi_srcptr a_each = L->level[sc->primary ? 1 : res->n_scores];
    for (int k = 0; k < res->n_scores && st == UL_OK; k++) {
        const ul_attack_score *s = &res->score[k];
        if (!(s->bit & deciding))
            continue;
        first = first < 0 ? k : first;
        if (mpfr_cmp(s->eps_max, res->eps_max) > 0 || k == first)
            mpfr_set(res->eps_max, s->eps_max, MPFR_RNDD);
        st = advantage_bounds(lo, hi, (unsigned long)s->n_in, s->n_in, 0, s->n_out, a_each, err,
                              errlen);
        double a = mpfr_get_d(lo, MPFR_RNDD);
        res->adv_max = st == UL_OK && a > res->adv_max ? a : res->adv_max;
    }
    bool renyi = false;
    mpfi_t dl;
    mpfi_init2(dl, 128);
    if (st == UL_OK && claim_eps_at_delta(hi, &renyi, sc) &&
        ul_num_set_decimal(dl, delta) == UL_OK) {
        res->claim_eps = mpfr_get_d(hi, MPFR_RNDU), res->claim_eps_renyi = renyi;
        ul_attack_capacity now = {.level_divisor = 0};
        mpfr_init2(now.eps_max, 128);
        /* the divisor of the best test at these counts (one more bound) */
        size_t runs = first < 0 ? 0 : res->score[first].in0 + res->score[first].n_in;
        if (mpfr_cmp(res->eps_max, hi) <= 0)
            st = capacity_at(&now, &dec, runs, a_each, dl, err, errlen);
        if (st == UL_OK && now.level_divisor)
            st = runs_needed(&res->runs_needed, &res->runs_certified, &now, &dec, a_each, dl, hi,
                             err, errlen);
        mpfr_clear(now.eps_max);
    }
    mpfi_clear(dl);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return st;
}

ul_status ul_attack_score_values(ul_attack_result *res, const ul_attack_scoring *sc,
                                 const ul_attack_values *v, size_t p, char *err, size_t errlen)
{
    result_init(res);
    res->p = p;
    int lira = sc->scores & UL_SCORE_LIRA;
    if (lira && !v->loss_in)
        return ul_fail(err, errlen, UL_EINPUT,
                       "the LiRA scores need the loss scores (the target record)");
    /* the loss score feeds LiRA: then it is reported only when asked for */
    bool loss = v->loss_in && (!lira || (sc->scores & UL_SCORE_LOSS));
    if (!loss && !v->lr_in && !lira && !v->rmia_in)
        return ul_fail(err, errlen, UL_EINPUT,
                       "no score to compute (the loss score needs the target record)");
    int computed = (loss ? UL_SCORE_LOSS : 0) | (v->lr_in ? UL_SCORE_LR : 0) | lira |
                   (v->rmia_in ? UL_SCORE_RMIA : 0);
    if (sc->primary && !(computed & sc->primary))
        return ul_fail(err, errlen, UL_EINPUT,
                       "primary score %s: not among the scores computed (the loss and LiRA "
                       "scores need the target record)",
                       ul_attack_score_name(sc->primary) ? ul_attack_score_name(sc->primary)
                                                         : "?");
    res->n_scores = reported_scores(computed);
    score_levels L;
    levels_init(&L, sc->alpha, sc->primary, res->n_scores);
    res->primary = ul_attack_score_name(sc->primary);
    mpfi_srcptr shown = L.level[level_divisor(0, sc->primary, res->n_scores)];
    mpfr_snprintf(res->alpha_each, sizeof res->alpha_each, "%.6Rg", &shown->left);
    const char *delta = sc->delta && sc->delta[0] ? sc->delta : "0";
    ul_status st = UL_OK;
    int i = 0;
    if (loss)
        st = score_stats(&res->score[i++], UL_SCORE_LOSS, v->loss_in, v->n_in, v->loss_out,
                         v->n_out, &L, delta, err, errlen);
    if (st == UL_OK && v->lr_in) {
        ul_attack_score *s = &res->score[i++];
        st = score_stats(s, UL_SCORE_LR, v->lr_in, v->lr_n_in, v->lr_out, v->lr_n_out, &L, delta,
                         err, errlen);
        s->in0 = v->lr_in0, s->out0 = v->lr_out0;
    }
    if (st == UL_OK && lira)
        st = lira_stats(res, &i, sc, v, &L, delta, err, errlen);
    if (st == UL_OK && v->rmia_in) {
        ul_attack_score *s = &res->score[i++];
        st = score_stats(s, UL_SCORE_RMIA, v->rmia_in, v->rmia_n_in, v->rmia_out, v->rmia_n_out,
                         &L, delta, err, errlen);
        s->in0 = v->rmia_in0, s->out0 = v->rmia_out0;
        res->rmia_a = rmia_a_of(sc), res->rmia_gamma = rmia_gamma_of(sc); /* the record */
    }
    if (st == UL_OK)
        verdict(res, sc);
    if (st == UL_OK)
        st = capacity_of_result(res, sc, &L, delta, err, errlen);
    levels_clear(&L);
    return st;
}

/* log Pr(·|θ) of model W for the target, and for the pop_n population
 * records: −ℓ, the cross-entropy loss of the record's label (emp/score.h). */
static double log_pr_target(const ul_attack_scoring *sc, const double *W, size_t p)
{
    double lx;
    ul_score_loss(sc->model, sc->x, sc->d, sc->y, W, p, 1, &lx);
    return lx;
}

static void log_pr_population(const ul_attack_scoring *sc, const double *W, size_t p, double *lz)
{
    for (size_t i = 0; i < sc->pop_n; i++)
        ul_score_loss(sc->model, sc->pop_x + i * sc->d, sc->d, sc->pop_y[i], W, p, 1, lz + i);
}

/* The RMIA fit (emp/score.h) on the reference models: sc->W_ref, else the
 * first *f_out OUT models (attack.h: UL_SCORE_RMIA). */
static ul_status rmia_fit(ul_score_rmia *f, const ul_attack_scoring *sc, const double *W_out,
                          size_t k_out, size_t p, size_t *f_out, char *err, size_t errlen)
{
    bool given = rmia_refs_given(sc);
    const double *W_ref = given ? sc->W_ref : W_out;
    size_t k_ref = given ? sc->k_ref : k_out / 2, m = sc->pop_n;
    *f_out = given ? 0 : k_ref;
    f->log_pz = NULL;
    if (k_ref < 1 || *f_out == k_out || m < 1)
        return ul_fail(err, errlen, UL_EINPUT,
                       m < 1 ? "rmia score: needs population records"
                             : "rmia score: needs >= 2 OUT models (half references, half scored) "
                               "or reference models");
    double *l = malloc(k_ref * (m + 1) * sizeof *l);
    if (!l) /* the input's counts (policy: num/status.h) */
        return ul_fail(err, errlen, UL_ENOMEM,
                       "rmia score: out of memory for %zu reference models x %zu records", k_ref,
                       m);
    for (size_t r = 0; r < k_ref; r++) {
        l[r] = log_pr_target(sc, W_ref + r * p, p);
        log_pr_population(sc, W_ref + r * p, p, l + k_ref + r * m);
    }
    ul_status st = ul_score_rmia_fit(f, l, l + k_ref, k_ref, m, rmia_a_of(sc), rmia_gamma_of(sc),
                                     err, errlen);
    free(l);
    return st;
}

/* The RMIA scores of the scored models into buf (IN first) and v. */
static ul_status rmia_values(const ul_attack_scoring *sc, const double *W_in, size_t k_in,
                             const double *W_out, size_t k_out, size_t p, double *buf,
                             ul_attack_values *v, char *err, size_t errlen)
{
    ul_score_rmia f;
    size_t f_out;
    ul_status st = rmia_fit(&f, sc, W_out, k_out, p, &f_out, err, errlen);
    double *lz = st == UL_OK ? malloc(sc->pop_n * sizeof *lz) : NULL;
    if (st == UL_OK && !lz)
        st = ul_fail(err, errlen, UL_ENOMEM, "rmia score: out of memory for %zu records",
                     sc->pop_n);
    size_t n_out = k_out - f_out;
    for (size_t j = 0; st == UL_OK && j < k_in + n_out; j++) {
        const double *W = j < k_in ? W_in + j * p : W_out + (f_out + j - k_in) * p;
        log_pr_population(sc, W, p, lz);
        buf[j] = ul_score_rmia_one(&f, log_pr_target(sc, W, p), lz);
    }
    if (st == UL_OK) {
        v->rmia_in = buf, v->rmia_out = buf + k_in;
        v->rmia_n_in = k_in, v->rmia_n_out = n_out;
        v->rmia_in0 = 0, v->rmia_out0 = f_out;
    }
    free(lz);
    ul_score_rmia_free(&f);
    return st;
}

/* The scores of released models (emp/score.h), then their statistics. */
ul_status ul_attack_score_models(ul_attack_result *res, const ul_attack_scoring *sc,
                                 const double *W_in, size_t k_in, const double *W_out, size_t k_out,
                                 size_t p, char *err, size_t errlen)
{
    int want = sc->scores;
    if (want & UL_SCORE_LIRA)
        want |= UL_SCORE_LOSS; /* LiRA is computed from the loss scores */
    if (!(sc->model && sc->x))
        want &= ~(UL_SCORE_LOSS | UL_SCORE_LIRA | UL_SCORE_RMIA);
    if ((want & UL_SCORE_LR) && (k_in < 4 || k_out < 4))
        return result_init(res), ul_fail(err, errlen, UL_EINPUT,
                                         "gaussian-lr score: needs >= 4 models per world (half "
                                         "fit, half test)");
    if (!want || k_in < 1 || k_out < 1)
        return result_init(res), ul_fail(err, errlen, UL_EINPUT,
                                         !want ? "no score to compute (the loss score needs the "
                                                 "target record)"
                                               : "need at least one model per world");
    double *buf = malloc(3 * (k_in + k_out) * sizeof *buf);
    if (!buf)
        return result_init(res), scores_room(err, errlen, "model", k_in, k_out);
    ul_attack_values v = {0};
    ul_status st = UL_OK;
    if (want & UL_SCORE_LOSS) {
        v.loss_in = buf, v.loss_out = buf + k_in, v.n_in = k_in, v.n_out = k_out;
        ul_score_loss(sc->model, sc->x, sc->d, sc->y, W_in, p, k_in, buf);
        ul_score_loss(sc->model, sc->x, sc->d, sc->y, W_out, p, k_out, buf + k_in);
    }
    if (want & UL_SCORE_LR) {
        /* fit on the first half of each world, test on the second */
        size_t f_in = k_in / 2, f_out = k_out / 2;
        double *lr = buf + k_in + k_out;
        ul_score_lr fit;
        st = ul_score_lr_fit(&fit, W_in, f_in, W_out, f_out, p, err, errlen);
        if (st == UL_OK) {
            ul_score_lr_apply(&fit, W_in + f_in * p, k_in - f_in, lr);
            ul_score_lr_apply(&fit, W_out + f_out * p, k_out - f_out, lr + k_in - f_in);
            ul_score_lr_free(&fit);
            v.lr_in = lr, v.lr_out = lr + k_in - f_in;
            v.lr_n_in = k_in - f_in, v.lr_n_out = k_out - f_out;
            v.lr_in0 = f_in, v.lr_out0 = f_out;
        }
    }
    if (st == UL_OK && (want & UL_SCORE_RMIA))
        st = rmia_values(sc, W_in, k_in, W_out, k_out, p, buf + 2 * (k_in + k_out), &v, err,
                         errlen);
    if (st == UL_OK)
        st = ul_attack_score_values(res, sc, &v, p, err, errlen);
    else
        result_init(res);
    free(buf);
    return st;
}

/* ---- the whole experiment ------------------------------------------------------------ */

static ul_status audit_certificate(ul_attack_result *res, const ul_attack_config *cfg, char *err,
                                   size_t errlen)
{
    if (cfg->certificate_text == NULL && cfg->certificate_path == NULL)
        return UL_OK;
    const char *text = cfg->certificate_text;
    ul_num_precision want = {.digits = 6, .start_bits = 128, .max_bits = 65536};
    ul_status st = ul_audit_load(cfg->certificate_path, text, text ? strlen(text) : 0, &want,
                                 &res->audit, res->audit_method, sizeof res->audit_method, err,
                                 errlen);
    res->has_audit = st == UL_OK;
    return st;
}

ul_attack_scoring ul_attack_config_scoring(const ul_attack_config *cfg)
{
    return (ul_attack_scoring){.scores = cfg->scores,
                               .primary = cfg->primary,
                               .alpha = cfg->alpha,
                               .eps = cfg->eps,
                               .delta = cfg->delta,
                               .renyi_order = cfg->renyi_order,
                               .renyi_value = cfg->renyi_value,
                               .W_ref = cfg->ref_w,
                               .k_ref = cfg->ref_k,
                               .rmia_a = cfg->rmia_a,
                               .rmia_gamma = cfg->rmia_gamma};
}

/* RMIA on the runs' models (attack.h: save_models keeps them), the
 * configuration's population (its references, a and γ are in sc already:
 * ul_attack_config_scoring); *buf (malloc'd) holds the scores v points to. */
static ul_status finish_rmia(const ul_attack_state *st, ul_attack_scoring *sc, ul_attack_values *v,
                             double **buf, char *err, size_t errlen)
{
    const ul_attack_config *cfg = st->cfg;
    const ul_dataset *D = &st->plan.data;
    size_t runs = cfg->runs, t = st->plan.target;
    double *W = ul_shard_models(&st->log);
    *buf = W ? malloc(2 * runs * sizeof **buf) : NULL;
    if (!*buf) {
        free(W);
        return ul_fail(err, errlen, UL_ENOMEM,
                       "rmia score: out of memory for the models of 2 x %zu runs", runs);
    }
    sc->model = &cfg->design.model;
    sc->x = D->x + t * D->d, sc->d = D->d, sc->y = D->y[t];
    sc->pop_x = cfg->population.x, sc->pop_y = cfg->population.y, sc->pop_n = cfg->population.n;
    ul_status s = rmia_values(sc, W, runs, W + runs * st->p, runs, st->p, *buf, v, err, errlen);
    free(W);
    return s;
}

ul_status ul_attack_finish(ul_attack_result *res, ul_attack_state *st, char *err, size_t errlen)
{
    const ul_attack_config *cfg = st->cfg;
    const ul_dataset *D = &st->plan.data;
    ul_attack_scoring sc = ul_attack_config_scoring(cfg);
    double *loss, *lr;
    ul_status s = ul_shard_scores(&st->log, &loss, &lr, err, errlen);
    if (s != UL_OK) {
        result_init(res);
        return s;
    }
    size_t runs = cfg->runs, half = st->log.half;
    ul_attack_values v = {.loss_in = loss,
                          .loss_out = loss ? loss + runs : NULL,
                          .n_in = runs,
                          .n_out = runs,
                          .lr_in = lr,
                          .lr_out = lr ? lr + runs - half : NULL,
                          .lr_n_in = runs - half,
                          .lr_n_out = runs - half,
                          .lr_in0 = half,
                          .lr_out0 = half};
    double *rbuf = NULL;
    if (cfg->scores & UL_SCORE_RMIA)
        s = finish_rmia(st, &sc, &v, &rbuf, err, errlen);
    if (s == UL_OK)
        s = ul_attack_score_values(res, &sc, &v, st->p, err, errlen);
    else
        result_init(res);
    free(loss), free(lr), free(rbuf);
    if (s != UL_OK)
        return s;
    res->target = st->plan.target, res->n = D->n, res->d = D->d, res->runs = runs;
    return audit_certificate(res, cfg, err, errlen);
}

/* ---- the ε–δ figure's curves (attack.h) ------------------------------------------- */

ul_status ul_attack_eps_lb_curve(const ul_attack_result *res, int k, const char *alpha,
                                 const double *delta, size_t n, double *eps_lb, char *err,
                                 size_t errlen)
{
    if (k < 0 || k >= res->n_scores)
        return ul_fail(err, errlen, UL_EINPUT, "score %d: the result has %d", k, res->n_scores);
    const ul_attack_score *s = &res->score[k];
    mpfi_t a_each, dl;
    mpfi_init2(a_each, 128), mpfi_init2(dl, 128);
    alpha_each(a_each, alpha, s->alpha_divisor ? (int)s->alpha_divisor : res->n_scores);
    ul_emp_lb_opts o = attack_lb_opts();
    ul_emp_lb_result r;
    ul_emp_lb_init(&r);
    ul_status st = UL_OK;
    for (size_t i = 0; i < n && st == UL_OK; i++) {
        if (!(delta[i] > 0 && delta[i] < 1)) {
            st = ul_fail(err, errlen, UL_EINPUT, "delta[%zu] = %g: outside (0, 1)", i, delta[i]);
            break;
        }
        mpfi_set_d(dl, delta[i]); /* the double itself: the bound is at that δ */
        st = ul_emp_eps_lb(&r, s->values, s->n_in, s->values + s->n_in, s->n_out, a_each, dl, &o,
                           err, errlen);
        st = st == UL_ECAP ? UL_OK : st; /* sound, only looser */
        eps_lb[i] = st == UL_OK ? mpfr_get_d(r.eps_lb, MPFR_RNDD) : 0;
    }
    ul_emp_lb_clear(&r);
    mpfi_clear(a_each), mpfi_clear(dl);
    return st;
}

size_t ul_attack_cert_points(const ul_audit_curve *c, double *delta, double *eps)
{
    bool d_of_e = c->x_key && strcmp(c->x_key, "eps") == 0;
    size_t m = 0;
    for (size_t i = 0; i < c->n && i < UL_AUDIT_CURVE_MAX_POINTS; i++) {
        double d = d_of_e ? c->hi[i] : c->x[i], e = d_of_e ? c->x[i] : c->hi[i];
        if (!(d > 0 && d < 1) || !(e >= 0))
            continue;
        size_t j = m++; /* insertion: δ ascending */
        for (; j > 0 && delta[j - 1] > d; j--)
            delta[j] = delta[j - 1], eps[j] = eps[j - 1];
        delta[j] = d, eps[j] = e;
    }
    return m;
}

/* ---- output ------------------------------------------------------------------------ */

static void fmt_mpfr(char *out, size_t len, mpfr_srcptr x, mpfr_rnd_t rnd)
{
    if (mpfr_inf_p(x))
        snprintf(out, len, "%s", mpfr_sgn(x) > 0 ? "inf" : "-inf");
    else
        mpfr_snprintf(out, len, rnd == MPFR_RNDD ? "%.6RDg" : "%.6RUg", x);
}

/* A finite double as the shortest decimal that reads back as it (%.{1..17}g:
 * 17 digits always do), so a value read from a configuration prints as
 * written there (0.3, not 0.29999999999999999) and still reproduces it. */
static void fmt_shortest(char *out, size_t len, double x)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(out, len, "%.*g", digits, x);
        if (strtod(out, NULL) == x)
            return;
    }
}

/* RMIA's constants (attack.h), to reproduce its scores. */
static void rmia_text(FILE *f, const ul_attack_result *res)
{
    char a[32], g[32];
    fmt_shortest(a, sizeof a, res->rmia_a);
    fmt_shortest(g, sizeof g, res->rmia_gamma);
    fprintf(f, "  RMIA a %s, gamma %s (Zarifzadeh et al. 2024, Sec. 3)\n", a, g);
}

/* The GDP estimate, labelled as one (stats/gdp.h). */
static void gdp_text(FILE *f, const ul_attack_score *s)
{
    fprintf(f, "  GDP estimate (an estimate, not a bound): mu %.4g", s->gdp_mu);
    if (!isnan(s->gdp_eps))
        fprintf(f, ", eps %.4g at the claimed delta", s->gdp_eps);
    fputc('\n', f);
}

/* What these runs can certify at most, and the runs a claim beyond it needs. */
static void capacity_text(FILE *f, const ul_attack_result *res)
{
    if (res->n_scores == 0)
        return;
    char m[64];
    fmt_mpfr(m, sizeof m, res->eps_max, MPFR_RNDD);
    fprintf(f,
            "capacity: at most eps %s and advantage %.6g can be certified from these runs (a "
            "perfect separation)\n",
            m, res->adv_max);
    if (res->claim_eps_renyi)
        fprintf(f, "  the Renyi claim implies eps <= %.6g at the claimed delta (Mironov 2017 Prop. 3)\n",
                res->claim_eps);
    if (res->runs_needed)
        fprintf(f,
                "  the claim's eps is not below it: no run of this size can refute it by the eps "
                "bound; use >= %zu runs per world%s\n",
                res->runs_needed, res->runs_certified ? "" : " (a lower bound)");
    if (res->has_claim && mpfr_get_d(res->ceiling, MPFR_RNDU) >= res->adv_max)
        fprintf(f, "  the claim's advantage ceiling is not below it: the advantage test cannot "
                   "refute it\n");
}

int ul_attack_exit_code(const ul_attack_result *res)
{
    if (strcmp(res->verdict, "refuted") == 0)
        return 1;
    /* the audit's own convention (audit/audit.h): 0 supported, 1
     * unsupported, refuted or invalid, 3 inconclusive */
    return res->has_audit ? ul_verdict_exit_code(res->audit.verdict) : 0;
}

/* Why a certificate that is not supported establishes nothing
 * (ulaudit-audit(1), the verdicts' table). */
static const char *cert_failure(ul_verdict v)
{
    switch (v) {
    case UL_VERDICT_UNSUPPORTED:
        return "its theorem, computed soundly, does not reach its claim";
    case UL_VERDICT_REFUTED:
        return "its claim is provably false";
    case UL_VERDICT_INVALID:
        return "a precondition of its theorem fails";
    default:
        return "its audit did not decide (precision cap or time budget)";
    }
}

/* The verdict's lines: the attack's, then what the certificate's audit
 * adds, then the exit status (ul_attack_exit_code). */
static void verdict_text(FILE *f, const ul_attack_result *res)
{
    fprintf(f, "verdict: %s\n", res->verdict);
    if (strcmp(res->verdict, "refuted") == 0)
        fprintf(f, "  an attack beat the claim with confidence >= 1 - alpha: the claimed guarantee "
                   "is false for this learner\n");
    else if (strcmp(res->verdict, "consistent") == 0)
        fprintf(f, "  no attack beat the claim; this does not prove it (an audit only bounds "
                   "from below)\n");
    if (res->has_audit && res->audit.verdict != UL_VERDICT_SUPPORTED)
        fprintf(f, "  the certificate is %s: %s, so no proven guarantee covers this learner%s\n",
                ul_verdict_name(res->audit.verdict), cert_failure(res->audit.verdict),
                strcmp(res->verdict, "refuted") == 0 ? "" : ", whatever the attack found");
    fprintf(f, "exit status %d\n", ul_attack_exit_code(res));
}

char *ul_attack_result_text(const ul_attack_result *res)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    if (res->runs)
        fprintf(f, "target: row %zu of n = %zu (d = %zu, %zu parameters), %zu runs per world\n",
                res->target, res->n, res->d, res->p, res->runs);
    for (int k = 0; k < res->n_scores; k++) {
        const ul_attack_score *s = &res->score[k];
        char lb[64], lo[64], hi[64];
        fmt_mpfr(lb, sizeof lb, s->roc.eps_lb, MPFR_RNDD);
        fmt_mpfr(lo, sizeof lo, s->adv_lo, MPFR_RNDD);
        fmt_mpfr(hi, sizeof hi, s->adv_hi, MPFR_RNDU);
        if (s->role) /* a pre-registered primary (attack.h) */
            fprintf(f, "score %s (%zu IN, %zu OUT; %s, alpha %s%s):\n", s->name, s->n_in,
                    s->n_out, s->role, s->alpha,
                    strcmp(s->role, "primary") == 0 ? ", decides the verdict" : ", never decides");
        else
            fprintf(f, "score %s (%zu IN, %zu OUT):\n", s->name, s->n_in, s->n_out);
        fprintf(f, "  AUC %.4f; TPR at FPR 1e-3 / 1e-2 / 1e-1:", s->roc.auc);
        for (int l = 0; l < UL_EMP_N_FPR_LEVELS; l++)
            if (s->roc.tpr_defined[l])
                fprintf(f, "%s %.4f", l ? " /" : "", s->roc.tpr_at_fpr[l]);
            else
                fprintf(f, "%s n/a", l ? " /" : ""); /* fewer than 1/level OUT runs */
        fprintf(f, "\n  advantage %.4f, interval [%s, %s] at level 1 - %s\n", s->advantage, lo, hi,
                s->alpha);
        fprintf(f,
                "  empirical eps lower bound %s (joint test, %lu tests, geometric Bonferroni)%s\n",
                lb, s->roc.n_thresholds,
                !s->refutes                                           ? ""
                : s->role && strcmp(s->role, "exploratory") == 0 ? "  <-- beats the claim "
                                                                     "(exploratory: not the verdict)"
                                                                   : "  <-- beats the claim");
        if (mpfr_sgn(s->roc.eps_lb) > 0 && isfinite(s->roc.threshold))
            fprintf(f,
                    "    rule: IN iff score >= %.17g; %lu false positives of %zu, %lu false "
                    "negatives of %zu\n",
                    s->roc.threshold, s->roc.fp, s->n_out, s->roc.fn, s->n_in);
        if (s->bit == UL_SCORE_RMIA)
            rmia_text(f, res);
        gdp_text(f, s);
    }
    capacity_text(f, res);
    if (res->has_claim) {
        char c[64];
        fmt_mpfr(c, sizeof c, res->ceiling, MPFR_RNDU);
        fprintf(f, "claim: advantage ceiling %s by %s\n", c, res->ceiling_source);
    }
    if (res->has_audit && res->audit.recomputed.label[0])
        fprintf(f, "certificate (%s): %s; %s = [%s, %s]\n", res->audit_method,
                ul_verdict_name(res->audit.verdict), res->audit.recomputed.label,
                res->audit.recomputed.lo, res->audit.recomputed.hi);
    else if (res->has_audit) /* nothing recomputed (e.g. invalid): say why */
        fprintf(f, "certificate (%s): %s: %s\n", res->audit_method,
                ul_verdict_name(res->audit.verdict), res->audit.explanation);
    verdict_text(f, res);
    /* a memory stream fails to close only when it could not grow (a text of
     * fixed lines per score, at most 4 scores): NULL, not a cut text */
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static json_object *jnum_mpfr(mpfr_srcptr x, mpfr_rnd_t rnd)
{
    char s[64];
    fmt_mpfr(s, sizeof s, x, rnd);
    return json_object_new_string(s);
}

/* A double for JSON: null when NAN, "inf" (as fmt_mpfr) when infinite
 * (JSON has no infinity). */
static json_object *jnum_d(double x)
{
    if (isnan(x))
        return NULL;
    return isinf(x) ? json_object_new_string(x > 0 ? "inf" : "-inf") : json_object_new_double(x);
}

/* A double exactly, in the fewest digits (fmt_shortest), for JSON. */
static json_object *jnum_exact(double x)
{
    char t[32];
    fmt_shortest(t, sizeof t, x);
    return json_object_new_double_s(x, t);
}

char *ul_attack_result_json(const ul_attack_result *res)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "format", json_object_new_string("ulaudit-attack-result/1"));
    if (res->runs) {
        json_object_object_add(o, "target", json_object_new_int64((int64_t)res->target));
        json_object_object_add(o, "n", json_object_new_int64((int64_t)res->n));
        json_object_object_add(o, "d", json_object_new_int64((int64_t)res->d));
        json_object_object_add(o, "runs", json_object_new_int64((int64_t)res->runs));
    }
    json_object_object_add(o, "parameters", json_object_new_int64((int64_t)res->p));
    json_object_object_add(o, "alpha_per_score", json_object_new_string(res->alpha_each));
    if (res->primary)
        json_object_object_add(o, "primary", json_object_new_string(res->primary));
    json_object *arr = json_object_new_array();
    for (int k = 0; k < res->n_scores; k++) {
        const ul_attack_score *s = &res->score[k];
        json_object *j = json_object_new_object();
        json_object_object_add(j, "name", json_object_new_string(s->name));
        json_object_object_add(j, "alpha", json_object_new_string(s->alpha));
        if (s->role)
            json_object_object_add(j, "role", json_object_new_string(s->role));
        json_object_object_add(j, "n_in", json_object_new_int64((int64_t)s->n_in));
        json_object_object_add(j, "n_out", json_object_new_int64((int64_t)s->n_out));
        json_object_object_add(j, "auc", json_object_new_double(s->roc.auc));
        json_object *tp = json_object_new_object();
        static const char *const level_key[UL_EMP_N_FPR_LEVELS] = {"0.001", "0.01", "0.1"};
        for (int l = 0; l < UL_EMP_N_FPR_LEVELS; l++) /* null: fewer than 1/level OUT runs */
            json_object_object_add(
                tp, level_key[l],
                s->roc.tpr_defined[l] ? json_object_new_double(s->roc.tpr_at_fpr[l]) : NULL);
        json_object_object_add(j, "tpr_at_fpr", tp);
        json_object_object_add(j, "advantage", json_object_new_double(s->advantage));
        json_object_object_add(j, "advantage_lo", jnum_mpfr(s->adv_lo, MPFR_RNDD));
        json_object_object_add(j, "advantage_hi", jnum_mpfr(s->adv_hi, MPFR_RNDU));
        json_object_object_add(j, "eps_lower_bound", jnum_mpfr(s->roc.eps_lb, MPFR_RNDD));
        json_object_object_add(j, "eps_method", json_object_new_string("joint-geometric"));
        json_object_object_add(j, "thresholds",
                               json_object_new_int64((int64_t)s->roc.n_thresholds));
        if (mpfr_sgn(s->roc.eps_lb) > 0 && isfinite(s->roc.threshold)) {
            json_object_object_add(j, "threshold", json_object_new_double(s->roc.threshold));
            json_object_object_add(j, "fp", json_object_new_int64((int64_t)s->roc.fp));
            json_object_object_add(j, "fn", json_object_new_int64((int64_t)s->roc.fn));
        }
        json_object_object_add(j, "refutes", json_object_new_boolean(s->refutes));
        json_object_object_add(j, "eps_max_certifiable", jnum_mpfr(s->eps_max, MPFR_RNDD));
        if (s->bit == UL_SCORE_RMIA) { /* its constants, to reproduce it (attack.h) */
            json_object_object_add(j, "rmia_a", jnum_exact(res->rmia_a));
            json_object_object_add(j, "rmia_gamma", jnum_exact(res->rmia_gamma));
        }
        json_object_object_add(j, "gdp_mu_estimate", jnum_d(s->gdp_mu));
        json_object_object_add(j, "gdp_eps_estimate", jnum_d(s->gdp_eps));
        json_object_array_add(arr, j);
    }
    json_object_object_add(o, "scores", arr);
    json_object_object_add(o, "eps_max_certifiable", jnum_mpfr(res->eps_max, MPFR_RNDD));
    json_object_object_add(o, "runs_needed",
                           res->runs_needed ? json_object_new_int64((int64_t)res->runs_needed)
                                            : NULL);
    json_object_object_add(o, "runs_needed_certified",
                           res->runs_needed ? json_object_new_boolean(res->runs_certified) : NULL);
    json_object_object_add(o, "advantage_max_certifiable", jnum_d(res->adv_max));
    if (res->claim_eps_renyi)
        json_object_object_add(o, "renyi_claim_eps_at_delta", jnum_d(res->claim_eps));
    if (res->has_claim) {
        json_object_object_add(o, "advantage_ceiling", jnum_mpfr(res->ceiling, MPFR_RNDU));
        json_object_object_add(o, "ceiling_source", json_object_new_string(res->ceiling_source));
    }
    if (res->has_audit) {
        json_object *a = json_object_new_object();
        json_object_object_add(a, "method", json_object_new_string(res->audit_method));
        json_object_object_add(a, "verdict",
                               json_object_new_string(ul_verdict_name(res->audit.verdict)));
        json_object_object_add(
            a, "key",
            json_object_new_string(res->audit.recomputed.key ? res->audit.recomputed.key : ""));
        json_object_object_add(a, "lo", json_object_new_string(res->audit.recomputed.lo));
        json_object_object_add(a, "hi", json_object_new_string(res->audit.recomputed.hi));
        json_object_object_add(a, "explanation", json_object_new_string(res->audit.explanation));
        json_object_object_add(o, "certificate", a);
    }
    json_object_object_add(o, "verdict", json_object_new_string(res->verdict));
    json_object_object_add(o, "exit_code", json_object_new_int(ul_attack_exit_code(res)));
    const char *txt =
        json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    char *out = txt ? malloc(strlen(txt) + 2) : NULL;
    if (out)
        sprintf(out, "%s\n", txt);
    json_object_put(o);
    return out;
}
