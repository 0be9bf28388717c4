/* src/cert/import_dpacct.c — `ulaudit import dp-accounting`: a dp_accounting
 * DpEvent tree in its JSON/dict form.
 *
 * Facts from google/differential-privacy python/dp_accounting/dp_accounting:
 *   dp_event.py: each event is an attrs class; to_named_tuple() adds
 *     "module_name" and "class_name" to its fields, so its dict form is
 *     {"module_name": ..., "class_name": "GaussianDpEvent", "noise_multiplier": 1.1};
 *     GaussianDpEvent(noise_multiplier), PoissonSampledDpEvent(
 *     sampling_probability, event), SelfComposedDpEvent(event, count) (count
 *     applications of event, adaptively), ComposedDpEvent(events),
 *     NoOpDpEvent() (no privacy cost);
 *   privacy_accountant.py: NeighboringRelation ADD_OR_REMOVE_ONE = 1
 *     (the accountants' default), REPLACE_ONE = 2, REPLACE_SPECIAL = 3; the
 *     relation belongs to the accountant, not to the event.
 *
 * Read: the bare event (an object with "class_name", or "type"), or
 * {"event": ..., "neighboring_relation": ..., "epsilon": ..., "delta": ...}.
 * Supported trees: compositions (ComposedDpEvent, SelfComposedDpEvent) of
 * GaussianDpEvent (sample rate 1) and PoissonSampledDpEvent over a
 * GaussianDpEvent; NoOpDpEvent adds nothing.  Each leaf is one phase, its
 * steps the product of the counts above it, in the tree's order (phases are
 * not merged: composition adds RDP at every order, Mironov 2017 Prop. 1,
 * so the order changes nothing but the file is kept recognisable).
 * Anything else (Laplace, fixed-size batches, sampling without
 * replacement, NonPrivate, ...) is refused, naming the class and its path.
 */
#include <stdio.h>
#include <string.h>

#include "cert/import_internal.h"

static const char *const SUPPORTED[] = {"GaussianDpEvent", "PoissonSampledDpEvent",
                                        "SelfComposedDpEvent", "ComposedDpEvent", "NoOpDpEvent",
                                        NULL};
/* The other classes of dp_event.py: known, not supported. */
static const char *const UNSUPPORTED[] = {
    "NonPrivateDpEvent", "UnsupportedDpEvent", "RandomizedResponseDpEvent",
    "EpsilonDeltaDpEvent", "LaplaceDpEvent", "DiscreteLaplaceDpEvent", "DiscreteGaussianDpEvent",
    "SampledWithReplacementDpEvent", "SampledWithoutReplacementDpEvent",
    "SingleEpochTreeAggregationDpEvent", "RepeatAndSelectDpEvent", "MixtureOfGaussiansDpEvent",
    "ZCDpEvent", "ExponentialMechanismDpEvent", NULL};

#define SUPPORTED_TEXT                                                                             \
    "supported: ComposedDpEvent and SelfComposedDpEvent of GaussianDpEvent and of "              \
    "PoissonSampledDpEvent over a GaussianDpEvent; NoOpDpEvent"

typedef struct {
    ul_import_run *r;
    size_t leaves, noops;
} walk_ctx;

/* The class of event e at path (its "class_name", or "type"), checked. */
static ul_status event_class(const ul_json_value *e, const char *path, const char **cls,
                             char *err, size_t errlen)
{
    char got[128], p[UL_JSON_PATH_MAX];
    if (e == NULL || e->type != UL_JSON_OBJECT) {
        if (e != NULL)
            ul_io_describe(got, sizeof got, e);
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: must be a DpEvent object {\"class_name\": ..., ...}, got %s", path,
                       e != NULL ? got : "nothing");
    }
    const ul_json_value *c = ul_json_get(e, "class_name"), *t = ul_json_get(e, "type");
    const char *key = "class_name";
    if (c != NULL && t != NULL) /* two names for one class: they must agree, never one picked */
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: give the DpEvent's class once, as \"class_name\" or as \"type\", "
                       "not both",
                       path);
    if (c == NULL)
        c = t, key = "type";
    ul_json_path_key(p, sizeof p, path, key);
    if (c == NULL)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s.class_name: missing (the DpEvent's class, as to_named_tuple() gives "
                       "it: GaussianDpEvent, ...)",
                       path);
    if (c->type != UL_JSON_STRING) {
        ul_io_describe(got, sizeof got, c);
        return ul_fail(err, errlen, UL_EINPUT, "%s: must be a string (the DpEvent's class), got %s",
                       p, got);
    }
    const char *dot = strrchr(c->text, '.'); /* "dp_event.GaussianDpEvent" names it too */
    *cls = dot != NULL ? dot + 1 : c->text;
    if (ul_io_in_list(*cls, SUPPORTED))
        return UL_OK;
    char q[128], hint[256];
    ul_io_quote(q, sizeof q, c->text, 80);
    if (ul_io_in_list(*cls, UNSUPPORTED))
        return ul_fail(err, errlen, UL_EINPUT, "%s: %s is not supported (%s)", p, q,
                       SUPPORTED_TEXT);
    ul_io_did_you_mean(hint, sizeof hint, *cls, SUPPORTED, ul_io_list_len(SUPPORTED), "");
    return ul_fail(err, errlen, UL_EINPUT, "%s: unknown DpEvent class %s%s (%s)", p, q, hint,
                   SUPPORTED_TEXT);
}

/* The fields of e other than its class: exactly fields[0..n). */
static ul_status event_fields(ul_import_run *r, const ul_json_value *e, const char *path,
                              const ul_field_spec *fields, size_t n, ul_cert_values *v,
                              char *err, size_t errlen)
{
    static const ul_field_spec specs[3] = {
        {.name = "class_name", .type = UL_FIELD_STRING, .doc = "the DpEvent's class"},
        {.name = "type", .type = UL_FIELD_STRING, .doc = "the DpEvent's class"},
        {.name = "module_name", .type = UL_FIELD_STRING, .doc = "the DpEvent's module"},
    };
    ul_field_spec all[8];
    memcpy(all, specs, 3 * sizeof specs[0]);
    if (n > 0)
        memcpy(all + 3, fields, n * sizeof fields[0]);
    ul_cert_values got;
    ul_status st = ul_io_read_fields(r->arena, e, path, all, 3 + n, &got, err, errlen);
    *v = st == UL_OK ? (ul_cert_values){n, got.v + 3} : (ul_cert_values){0, NULL};
    return st;
}

static ul_status walk(walk_ctx *w, const ul_json_value *e, const char *path,
                      unsigned long count, char *err, size_t errlen);

/* A Gaussian leaf (rate "1"), or the Gaussian under a Poisson sampling. */
static ul_status gaussian(walk_ctx *w, const ul_json_value *e, const char *path, const char *rate,
                          const char *rate_path, unsigned long count, char *err, size_t errlen)
{
    const ul_field_spec f[] = {{.name = "noise_multiplier", .type = UL_FIELD_DECIMAL,
                                .required = true, .domain = &ul_domain_sigma,
                                .doc = "noise standard deviation over the sensitivity"}};
    ul_cert_values v;
    ul_status st = event_fields(w->r, e, path, f, 1, &v, err, errlen);
    if (st != UL_OK)
        return st;
    w->leaves++;
    return ul_import_add_phase(w->r, v.v[0].text, v.v[0].path, rate, rate_path, count, path, err,
                               errlen);
}

static ul_status poisson(walk_ctx *w, const ul_json_value *e, const char *path,
                         unsigned long count, char *err, size_t errlen)
{
    const ul_field_spec f[] = {
        {.name = "sampling_probability", .type = UL_FIELD_DECIMAL, .required = true,
         .domain = &ul_domain_q_pos, .doc = "Poisson sampling probability"},
        {.name = "event", .type = UL_FIELD_ANY, .required = true,
         .doc = "the event applied to the sample"},
    };
    ul_cert_values v;
    ul_status st = event_fields(w->r, e, path, f, 2, &v, err, errlen);
    const char *cls;
    if (st == UL_OK)
        st = event_class(v.v[1].json, v.v[1].path, &cls, err, errlen);
    if (st != UL_OK)
        return st;
    if (strcmp(cls, "GaussianDpEvent") != 0)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: PoissonSampledDpEvent over %s is not supported (a Poisson sample "
                       "feeds one GaussianDpEvent; %s)",
                       v.v[1].path, cls, SUPPORTED_TEXT);
    return gaussian(w, v.v[1].json, v.v[1].path, v.v[0].text, v.v[0].path, count, err, errlen);
}

static ul_status self_composed(walk_ctx *w, const ul_json_value *e, const char *path,
                               unsigned long count, char *err, size_t errlen)
{
    const ul_field_spec f[] = {
        {.name = "event", .type = UL_FIELD_ANY, .required = true, .doc = "the event repeated"},
        {.name = "count", .type = UL_FIELD_COUNT, .required = true, .lo = "1",
         .hi = "1000000000", .doc = "how many times it is applied"},
    };
    ul_cert_values v;
    ul_status st = event_fields(w->r, e, path, f, 2, &v, err, errlen);
    if (st != UL_OK)
        return st;
    unsigned long long steps = (unsigned long long)count * v.v[1].count; /* each <= 1e9 */
    if (steps > UL_DPSGD_MAX_STEPS)
        return ul_fail(err, errlen, UL_EINPUT,
                       "%s: %llu applications in all (the counts above it multiplied), above "
                       "the limit of %lu steps",
                       v.v[1].path, steps, (unsigned long)UL_DPSGD_MAX_STEPS);
    return walk(w, v.v[0].json, v.v[0].path, (unsigned long)steps, err, errlen);
}

static ul_status composed(walk_ctx *w, const ul_json_value *e, const char *path,
                          unsigned long count, char *err, size_t errlen)
{
    const ul_field_spec f[] = {{.name = "events", .type = UL_FIELD_ANY, .required = true,
                                .doc = "the events composed, in order"}};
    ul_cert_values v;
    ul_status st = event_fields(w->r, e, path, f, 1, &v, err, errlen);
    if (st != UL_OK)
        return st;
    const ul_json_value *a = v.v[0].json;
    if (a->type != UL_JSON_ARRAY)
        return ul_import_refuse(a, v.v[0].path, "a list of DpEvents", err, errlen);
    for (size_t i = 0; i < a->count && st == UL_OK; i++) {
        char p[UL_JSON_PATH_MAX];
        ul_json_path_index(p, sizeof p, v.v[0].path, i);
        st = walk(w, a->items[i], p, count, err, errlen);
    }
    return st;
}

/* Event e at path, applied count times. */
static ul_status walk(walk_ctx *w, const ul_json_value *e, const char *path,
                      unsigned long count, char *err, size_t errlen)
{
    const char *cls;
    ul_status st = event_class(e, path, &cls, err, errlen);
    if (st != UL_OK)
        return st;
    if (strcmp(cls, "GaussianDpEvent") == 0)
        return gaussian(w, e, path, "1", path, count, err, errlen);
    if (strcmp(cls, "PoissonSampledDpEvent") == 0)
        return poisson(w, e, path, count, err, errlen);
    if (strcmp(cls, "SelfComposedDpEvent") == 0)
        return self_composed(w, e, path, count, err, errlen);
    if (strcmp(cls, "ComposedDpEvent") == 0)
        return composed(w, e, path, count, err, errlen);
    ul_cert_values v; /* NoOpDpEvent: no fields, no privacy cost */
    w->noops++;
    return event_fields(w->r, e, path, NULL, 0, &v, err, errlen);
}

/* The accountant's neighbouring relation: its name (with or without
 * "NeighboringRelation."), or its enum value. */
static ul_status relation(ul_import_run *r, const ul_cert_value *v, char *err, size_t errlen)
{
    const char *t = v->text;
    if (v->json->type == UL_JSON_STRING && strncmp(t, "NeighboringRelation.", 20) == 0)
        t += 20;
    bool num = v->json->type == UL_JSON_NUMBER;
    if ((num && strcmp(t, "1") == 0) || (!num && strcmp(t, "ADD_OR_REMOVE_ONE") == 0)) {
        r->adj_reading = "the file's neighboring_relation ADD_OR_REMOVE_ONE";
        return UL_OK;
    }
    if ((num && strcmp(t, "2") == 0) || (!num && strcmp(t, "REPLACE_ONE") == 0)) {
        r->adjacency = "replace";
        r->adj_reading = "the file's neighboring_relation REPLACE_ONE";
        return UL_OK;
    }
    char got[128];
    ul_io_describe(got, sizeof got, v->json);
    return ul_fail(err, errlen, UL_EINPUT,
                   "%s: must be ADD_OR_REMOVE_ONE (1) or REPLACE_ONE (2), got %s (REPLACE_SPECIAL, "
                   "a record replaced by a special one, is not an adjacency of method dp-sgd)",
                   v->path, got);
}

/* The wrapper {"event", "neighboring_relation", "epsilon", "delta"}. */
static ul_status read_wrapper(const ul_json_value *root, ul_import_run *r,
                              const ul_json_value **event, char *err, size_t errlen)
{
    const ul_field_spec specs[] = {
        {.name = "event", .type = UL_FIELD_ANY, .required = true,
         .doc = "the DpEvent composed by the accountant"},
        {.name = "neighboring_relation", .type = UL_FIELD_ANY,
         .doc = "the accountant's NeighboringRelation: ADD_OR_REMOVE_ONE or REPLACE_ONE"},
    };
    ul_cert_values v;
    ul_status st = ul_import_read_top(r, root, specs, 2, &v, err, errlen);
    if (st != UL_OK)
        return st;
    *event = v.v[0].json;
    if (!v.v[1].present)
        return UL_OK;
    ul_cert_value rel = v.v[1];
    rel.text = rel.json->text != NULL ? rel.json->text : "";
    return relation(r, &rel, err, errlen);
}

ul_status ul_import_dp_accounting(const ul_json_value *root, ul_import_run *r, char *err,
                                  size_t errlen)
{
    r->adj_reading = "dp_accounting's default NeighboringRelation.ADD_OR_REMOVE_ONE: the file "
                     "does not name one";
    const ul_json_value *event = root;
    const char *path = "$";
    ul_status st = UL_OK;
    bool bare = root->type != UL_JSON_OBJECT || ul_json_get(root, "class_name") != NULL ||
                ul_json_get(root, "type") != NULL;
    if (!bare) {
        st = read_wrapper(root, r, &event, err, errlen);
        path = "$.event";
    }
    walk_ctx w = {r, 0, 0};
    if (st == UL_OK)
        st = walk(&w, event, path, 1, err, errlen);
    if (st != UL_OK)
        return st;
    fprintf(r->src,
            " Read: a dp_accounting DpEvent tree%s, %zu Gaussian leaf event%s, each one phase in "
            "the tree's order (a GaussianDpEvent outside a PoissonSampledDpEvent has sample "
            "rate 1; steps: the product of the SelfComposedDpEvent counts above it)%s, numbers "
            "as written. Sampling: Poisson (PoissonSampledDpEvent).",
            bare ? "" : " (with its accountant's settings)", w.leaves, w.leaves == 1 ? "" : "s",
            w.noops > 0 ? "; NoOpDpEvent adds nothing" : "");
    return UL_OK;
}
