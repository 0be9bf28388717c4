/* src/calc/domain.c — a domain (num/domain.h) as the JSON object the
 * library lists with each flag (ulaudit_calc_list). */
#include "calc/domain.h"

json_object *ul_calc_domain_json(const ul_calc_domain *d)
{
    json_object *o = json_object_new_object();
    if (d->type == UL_DOMAIN_WORDS) {
        json_object *list = json_object_new_array();
        for (size_t i = 0; d->choices[i] != NULL; i++)
            json_object_array_add(list, json_object_new_string(d->choices[i]));
        json_object_object_add(o, "type", json_object_new_string("enum"));
        json_object_object_add(o, "choices", list);
        return o;
    }
    const char *type = d->type == UL_DOMAIN_INTEGER ? "integer" : "real";
    json_object_object_add(o, "type", json_object_new_string(type));
    json_object_object_add(o, "lo", d->lo != NULL ? json_object_new_string(d->lo) : NULL);
    json_object_object_add(o, "lo_open", json_object_new_boolean(d->lo_open));
    json_object_object_add(o, "hi", d->hi != NULL ? json_object_new_string(d->hi) : NULL);
    json_object_object_add(o, "hi_open", json_object_new_boolean(d->hi_open));
    json_object_object_add(o, "units", json_object_new_string(d->units));
    return o;
}
