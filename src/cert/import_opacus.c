/* src/cert/import_opacus.c — `ulaudit import opacus`: the JSON export of an
 * Opacus accountant.
 *
 * Opacus's accountants (opacus/accountants/accountant.py, rdp.py, prv.py,
 * gdp.py) keep `history`, a list of (noise_multiplier, sample_rate,
 * num_steps) tuples, consecutive steps with the same pair merged into one
 * tuple; state_dict() is {"history": history, "mechanism": "rdp" | "prv" |
 * "gdp"}.  Either is read: the bare list [[sigma, q, steps], ...] or that
 * object, which may also carry the claim as "epsilon" and "delta".
 *
 * What Opacus implies and the certificate writes: Poisson sampling at rate
 * sample_rate (the sampled Gaussian mechanism its analysis bounds, Mironov,
 * Talwar, Zhang 2019, "Rényi Differential Privacy of the Sampled Gaussian
 * Mechanism"; opacus/accountants/analysis/rdp.py) and add/remove neighbours
 * (the relation that analysis is for).  Each history entry is one phase, its
 * numbers copied as written.
 */
#include <stdio.h>
#include <string.h>

#include "cert/import_internal.h"

static const char *const MECHANISMS[] = {"rdp", "prv", "gdp", NULL};

/* One history entry [noise_multiplier, sample_rate, steps] at path. */
static ul_status read_entry(const ul_json_value *e, const char *path, ul_import_run *r,
                            char *err, size_t errlen)
{
    if (e->type != UL_JSON_ARRAY || e->count != 3)
        return ul_import_refuse(e, path,
                                "[noise_multiplier, sample_rate, steps] (an entry of Opacus's "
                                "accountant.history)",
                                err, errlen);
    char p[3][UL_JSON_PATH_MAX + 32];
    static const char *const what[] = {"noise_multiplier", "sample_rate", "steps"};
    for (size_t k = 0; k < 3; k++) {
        char idx[UL_JSON_PATH_MAX];
        ul_json_path_index(idx, sizeof idx, path, k);
        snprintf(p[k], sizeof p[k], "%s (%s)", idx, what[k]);
    }
    const char *sigma, *rate;
    unsigned long steps;
    ul_status st = ul_import_decimal(e->items[0], p[0], &ul_domain_sigma, "noise multiplier",
                                     &sigma, err, errlen);
    if (st == UL_OK)
        st = ul_import_decimal(e->items[1], p[1], &ul_domain_q_pos, "sample rate", &rate, err,
                               errlen);
    if (st == UL_OK)
        st = ul_import_count(e->items[2], p[2], &ul_import_domain_steps, "number of steps",
                             &steps, err, errlen);
    if (st == UL_OK)
        st = ul_import_add_phase(r, sigma, p[0], rate, p[1], steps, path, err, errlen);
    return st;
}

static ul_status read_history(const ul_json_value *h, const char *path, ul_import_run *r,
                              char *err, size_t errlen)
{
    if (h->type != UL_JSON_ARRAY || h->count == 0)
        return ul_import_refuse(h, path,
                                "a non-empty list [[noise_multiplier, sample_rate, steps], ...] "
                                "(Opacus's accountant.history)",
                                err, errlen);
    for (size_t i = 0; i < h->count; i++) {
        char p[UL_JSON_PATH_MAX];
        ul_json_path_index(p, sizeof p, path, i);
        ul_status st = read_entry(h->items[i], p, r, err, errlen);
        if (st != UL_OK)
            return st;
    }
    return UL_OK;
}

/* The state_dict form: {"history", "mechanism", "epsilon", "delta"}. */
static ul_status read_state(const ul_json_value *root, ul_import_run *r, const char **mechanism,
                            char *err, size_t errlen)
{
    const ul_field_spec specs[] = {
        {.name = "history", .type = UL_FIELD_ANY, .required = true,
         .doc = "Opacus's accountant.history: [[noise_multiplier, sample_rate, steps], ...]"},
        {.name = "mechanism", .type = UL_FIELD_STRING, .choices = MECHANISMS,
         .doc = "the accountant's mechanism(): rdp, prv or gdp"},
    };
    ul_cert_values v;
    ul_status st = ul_import_read_top(r, root, specs, 2, &v, err, errlen);
    if (st != UL_OK)
        return st;
    *mechanism = v.v[1].present ? v.v[1].text : NULL;
    return read_history(v.v[0].json, "$.history", r, err, errlen);
}

ul_status ul_import_opacus(const ul_json_value *root, ul_import_run *r, char *err, size_t errlen)
{
    const char *mechanism = NULL;
    ul_status st;
    if (root->type == UL_JSON_ARRAY) {
        st = read_history(root, "$", r, err, errlen);
    } else if (root->type == UL_JSON_OBJECT) {
        st = read_state(root, r, &mechanism, err, errlen);
    } else {
        return ul_import_refuse(root, "$",
                                "an Opacus export: the list accountant.history "
                                "[[noise_multiplier, sample_rate, steps], ...] or the object "
                                "accountant.state_dict() {\"history\": [...], \"mechanism\": ...}",
                                err, errlen);
    }
    if (st != UL_OK)
        return st;
    fprintf(r->src,
            " Read: %s of an Opacus accountant%s%s%s, %zu entr%s (noise_multiplier, "
            "sample_rate, steps), each one phase, its numbers as written; the audit recomputes "
            "the run with its own certified accountants, whichever accountant the claim came "
            "from. Sampling: Poisson at each entry's sample_rate (Opacus's accountants bound "
            "the sampled Gaussian mechanism, Mironov, Talwar, Zhang 2019).",
            root->type == UL_JSON_ARRAY ? "the history" : "the state_dict",
            mechanism != NULL ? " (mechanism \"" : "", mechanism != NULL ? mechanism : "",
            mechanism != NULL ? "\")" : "", r->n, r->n == 1 ? "y" : "ies");
    r->adj_reading = "Opacus's accountants bound add/remove neighbours, one record added or "
                     "removed; the file does not say otherwise";
    return UL_OK;
}
