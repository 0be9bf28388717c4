/* src/report/html_svg.c — an SVG document inlined in the report's page
 * (html_svg.h). */
#include "report/html_svg.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

static bool starts(const char *s, const char *end, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(end - s) >= n && memcmp(s, lit, n) == 0;
}

/* s past the "<...>" construct that starts at s (prolog, comment,
 * DOCTYPE), or NULL when it does not end. */
static const char *skip_construct(const char *s, const char *end)
{
    const char *close = starts(s, end, "<!--") ? "-->" : ">";
    size_t n = strlen(close);
    for (const char *q = s + 1; q + n <= end; q++)
        if (memcmp(q, close, n) == 0)
            return q + n;
    return NULL;
}

/* The start of the <svg element, or NULL. */
static const char *svg_start(const char *s, const char *end)
{
    for (;;) {
        while (s < end && isspace((unsigned char)*s))
            s++;
        if (starts(s, end, "<svg") && s + 4 < end &&
            (isspace((unsigned char)s[4]) || s[4] == '>'))
            return s;
        if (!starts(s, end, "<?") && !starts(s, end, "<!"))
            return NULL;
        if ((s = skip_construct(s, end)) == NULL)
            return NULL;
    }
}

/* Is the text a well-formed candidate: no NUL, no script, ends with </svg>? */
static bool acceptable(const char *s, const char *end)
{
    if (memchr(s, '\0', (size_t)(end - s)) != NULL)
        return false;
    for (const char *q = s; q + 7 <= end; q++)
        if (q[0] == '<' && strncasecmp(q + 1, "script", 6) == 0)
            return false;
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    return end - s >= 6 && memcmp(end - 6, "</svg>", 6) == 0;
}

/* Past an xmlns declaration ` xmlns="..."` or ` xmlns:p="..."` at s, or s. */
static const char *skip_xmlns(const char *s, const char *end)
{
    if (!starts(s, end, " xmlns"))
        return s;
    const char *q = s + 6;
    if (q < end && *q == ':')
        while (q < end && (isalnum((unsigned char)*q) || *q == ':' || *q == '-' || *q == '_'))
            q++;
    if (!starts(q, end, "=\""))
        return s;
    const char *close = memchr(q + 2, '"', (size_t)(end - q - 2));
    return close == NULL ? s : close + 1;
}

ul_status ul_html_svg_inline(FILE *f, const char *svg, size_t len, const char *prefix,
                             char *err, size_t errlen)
{
    const char *end = svg + len;
    const char *s = svg == NULL ? NULL : svg_start(svg, end);
    if (s == NULL || !acceptable(s, end))
        return ul_fail(err, errlen, UL_EINPUT,
                       "not an SVG document (an <svg> element, without script, ending with "
                       "</svg>)");
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    /* the markers after which a name of the document's id space begins */
    static const char *const marks[] = {" id=\"", "\tid=\"", "\nid=\"", "href=\"#", "url(#"};
    while (s < end) {
        const char *q = skip_xmlns(s, end);
        if (q != s) {
            s = q;
            continue;
        }
        size_t k = 0, nm = sizeof marks / sizeof *marks;
        while (k < nm && !starts(s, end, marks[k]))
            k++;
        if (k < nm) {
            fputs(marks[k], f);
            fputs(prefix, f);
            s += strlen(marks[k]);
        } else {
            fputc(*s++, f);
        }
    }
    return UL_OK;
}
