/* src/report/html_svg.h — private to src/report/html*.c: an SVG document
 * made fit to sit inline in an HTML page beside other figures. */
#ifndef UL_REPORT_HTML_SVG_H
#define UL_REPORT_HTML_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "num/status.h"

/* Writes svg[0..len) to f from its <svg element on: the XML prolog,
 * comments and DOCTYPE before it dropped; every id="X" written
 * id="PREFIXX" and every reference to it (href="#X", xlink:href="#X",
 * url(#X)) rewritten to match, so that two figures (cairo names its glyphs
 * and clips glyph0-1, clip1 in every document) do not share ids; the
 * xmlns declarations dropped (the HTML parser puts <svg> in the SVG
 * namespace, and they are the page's only URLs).  UL_EINPUT ("not an SVG
 * document") when no <svg element starts it, or it holds a NUL, a
 * <script or a </svg> missing. */
ul_status ul_html_svg_inline(FILE *f, const char *svg, size_t len, const char *prefix,
                             char *err, size_t errlen);

#endif
