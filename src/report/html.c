/* src/report/html.c — PLACEHOLDER until the renderer lands (issue 27). */
#include "report/html.h"

static ul_status not_yet(char **html, char *err, size_t errlen)
{
    *html = NULL;
    return ul_fail(err, errlen, UL_EINPUT, "html: the HTML report is not built yet");
}

ul_status ul_report_html_audit(const char *report_json, const ul_report_figure *figs,
                               size_t n_figs, char **html, char *err, size_t errlen)
{
    (void)report_json, (void)figs, (void)n_figs;
    return not_yet(html, err, errlen);
}

ul_status ul_report_html_calibrate(const char *completed_json, const char *report_json,
                                   const ul_report_figure *figs, size_t n_figs, char **html,
                                   char *err, size_t errlen)
{
    (void)completed_json, (void)report_json, (void)figs, (void)n_figs;
    return not_yet(html, err, errlen);
}

ul_status ul_report_html_attack(const char *result_json, const ul_report_figure *figs,
                                size_t n_figs, char **html, char *err, size_t errlen)
{
    (void)result_json, (void)figs, (void)n_figs;
    return not_yet(html, err, errlen);
}
