#!/usr/bin/python3
"""tests/browser/check_report.py — checks an HTML report (the page contract of
src/report/html.h) as Chromium headless loaded and drew it.  Python's
standard library only.  Run by tools/test-browser.sh; three commands:

  check_report.py page NAME --html F --dom DOM --netlog NET --png PNG --json J
      the page F as written, its DOM as Chromium dumped it, Chromium's net
      log and screenshot of it, and the command's --json output J:
        static   every src/href (but <a href>)/url() is data: or #fragment, no
                 executable <script>, the Content-Security-Policy meta says
                 default-src 'none';
        network  no URL request made for the page (Chromium's own background
                 requests are told apart by their initiator) but data:;
        verdict  <p id="verdict" class="verdict verdict-V">V</p> in the DOM,
                 V the JSON's "verdict", also the embedded object's;
        numbers  at least one <span class="num" data-key=PATH>, each one's
                 text equal to the value at PATH in J and in the embedded
                 <script type="application/json" id="ulaudit-report">, a
                 number's literal character for character;
        figures  at least --min-figures <figure class="figure" id="fig-N">,
                 each holding an inline <svg>;
        page-pixels  the screenshot is not blank (below).
  check_report.py figures-page OUT.html LAYOUT.json PAGE.html...
      every figure's <svg> of the pages, each in a cell of its own (its ids
      prefixed so that pages do not share ids), on one page to screenshot.
  check_report.py figures LAYOUT.json PNG
      each cell of that screenshot is not blank.

Not blank: at least MIN_INK of the pixels differ from the most common colour
and there are more than two colours (anti-aliased text and curves make many;
a flat fill or a one-colour frame does not).  Each failure is one line on
stderr, "check_report: NAME: CHECK: what"; exit 1 when any.
"""

import argparse
import html.parser
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngstat  # noqa: E402

# Fractions of non-background pixels below which a region counts as blank.
# A plot with axes, labels and curves is well above 1% (the checker prints
# each figure's); a page's is of its 1200x3000 window, where three short
# lines of text (tests/browser/fixtures/bad-blank-figure.html) make 0.07%,
# so 0.03% (about one line) is asked; a white page or figure is 0.
MIN_INK_PAGE = 0.0003
MIN_INK_FIGURE = 0.01
CELL_WIDTH = 480
CELL_GAP = 24

FAILURES = []


def fail(name, check, what):
    FAILURES.append("check_report: %s: %s: %s" % (name, check, what))


class Literal(str):
    """A JSON number kept as the literal it was written as."""


def load_json(text):
    return json.loads(text, parse_float=Literal, parse_int=Literal)


def as_text(value):
    """The characters a span shows for a JSON value (html.h): a string's
    characters, a number's literal; true/false/null as JSON writes them."""
    if isinstance(value, str):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return None  # an object or an array shows no single number


def at_path(obj, path):
    """The value at PATH (keys and array indexes joined by "."); a key that
    itself holds a dot (tpr_at_fpr's "0.01") is matched whole."""
    parts = path.split(".")
    i = 0
    while i < len(parts):
        if isinstance(obj, list):
            if not parts[i].isdigit() or int(parts[i]) >= len(obj):
                raise KeyError(path)
            obj, i = obj[int(parts[i])], i + 1
            continue
        if not isinstance(obj, dict):
            raise KeyError(path)
        for j in range(len(parts), i, -1):
            key = ".".join(parts[i:j])
            if key in obj:
                obj, i = obj[key], j
                break
        else:
            raise KeyError(path)
    return obj


class Page(html.parser.HTMLParser):
    """What the checks need of a document: the verdict paragraph, the num
    spans, the embedded JSON, the figures, and every resource reference."""

    URL_ATTRS = ("src", "href", "xlink:href", "srcset", "poster", "data", "action",
                 "formaction", "background", "ping")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.verdicts, self.spans, self.figures, self.refs = [], [], [], []
        self.scripts, self.csp, self.styles = [], [], []
        self._stack = []  # open elements we collect text for: [kind, data, text]
        self._figure = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        for k, v in attrs:
            if v is not None and (k in self.URL_ATTRS and not (tag == "a" and k == "href")):
                self.refs.append((tag, k, v))
            if k == "style" and v:
                self.styles.append(v)
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp.append(a.get("content") or "")
        if tag == "figure" and "figure" in classes:
            self._figure = [a.get("id"), 0]
            self.figures.append(self._figure)
        if tag == "svg" and self._figure is not None:
            self._figure[1] += 1
        kind = None
        if tag == "p" and a.get("id") == "verdict":
            kind = ("verdict", classes)
        elif tag == "span" and "num" in classes and "data-key" in a:
            kind = ("span", a["data-key"])
        elif tag == "script":
            kind = ("script", a.get("type"), a.get("id"))
        elif tag == "style":
            kind = ("style",)
        if kind:
            self._stack.append([tag, kind, []])

    def handle_endtag(self, tag):
        if tag == "figure":
            self._figure = None
        if self._stack and self._stack[-1][0] == tag:
            _, kind, text = self._stack.pop()
            text = "".join(text)
            {"verdict": lambda: self.verdicts.append((kind[1], text)),
             "span": lambda: self.spans.append((kind[1], text)),
             "script": lambda: self.scripts.append((kind[1], kind[2], text)),
             "style": lambda: self.styles.append(text)}[kind[0]]()

    def handle_data(self, data):
        for entry in self._stack:
            entry[2].append(data)


def parse_page(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    p.close()
    return p


def check_static(name, src):
    """What would make a request, read from the page as written."""
    for tag, attr, value in src.refs:
        v = value.strip().lower()
        if not (v.startswith("data:") or v.startswith("#")):
            fail(name, "static", "<%s %s=\"%s\"> refers outside the file" % (tag, attr, value))
    for css in src.styles:
        for m in re.finditer(r"url\(\s*['\"]?([^'\")\s]*)|@import", css):
            target = (m.group(1) or "").lower()
            if m.group(0) == "@import" or not (target.startswith("data:") or target.startswith("#")):
                fail(name, "static", "style refers outside the file: %s" % m.group(0))
    for stype, _, _ in src.scripts:
        if stype != "application/json":
            fail(name, "static", "an executable <script> (type %s)" % (stype or "none"))
    if not any("default-src 'none'" in c for c in src.csp):
        fail(name, "static", "no <meta http-equiv=\"Content-Security-Policy\"> with default-src 'none'")


def page_requests(netlog_path):
    """URLs of the requests Chromium's net log shows made for the page: those
    whose initiator is an origin (the page's is "null", a file: origin) or
    whose isolation key is the file: site; the browser's own requests
    (component updates, time, sign-in) carry "not an origin"."""
    with open(netlog_path, encoding="utf-8") as f:
        log = json.load(f)
    types = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    urls = []
    for ev in log.get("events", []):
        if types.get(ev.get("type")) != "URL_REQUEST_START_JOB":
            continue
        p = ev.get("params", {})
        mine = (p.get("initiator", "not an origin") != "not an origin"
                or "file://" in p.get("network_isolation_key", "")
                or "site=file://" in p.get("site_for_cookies", ""))
        if mine and not p.get("url", "").startswith("data:"):
            urls.append(p.get("url", "?"))
    return urls


def check_network(name, netlog_path):
    try:
        urls = page_requests(netlog_path)
    except (OSError, ValueError, KeyError) as e:
        fail(name, "network", "net log %s unreadable (%s)" % (netlog_path, e))
        return
    for url in sorted(set(urls)):
        fail(name, "network", "the page requested %s" % url)


def check_verdict(name, dom, want, embedded):
    if embedded is not None and embedded.get("verdict") != want:
        fail(name, "verdict", "embedded JSON verdict %r, --json says %r"
             % (embedded.get("verdict"), want))
    if len(dom.verdicts) != 1:
        fail(name, "verdict", "%d elements <p id=\"verdict\"> in the DOM, not 1" % len(dom.verdicts))
        return
    classes, text = dom.verdicts[0]
    if text.strip() != want or "verdict" not in classes or "verdict-%s" % want not in classes:
        fail(name, "verdict", "<p id=\"verdict\" class=\"%s\">%s</p>, the JSON says %r"
             % (" ".join(classes), text.strip(), want))


def check_numbers(name, dom, report, embedded):
    if not dom.spans:
        fail(name, "numbers", "no <span class=\"num\" data-key=...> in the DOM")
    for key, text in dom.spans:
        for label, obj in (("--json", report), ("embedded JSON", embedded)):
            if obj is None:
                continue
            try:
                want = as_text(at_path(obj, key))
            except KeyError:
                fail(name, "numbers", "data-key %r is not a path of the %s" % (key, label))
                continue
            if text != want:
                fail(name, "numbers", "data-key %r shows %r, the %s has %r" % (key, text, label, want))


def embedded_json(name, dom):
    found = [t for stype, sid, t in dom.scripts
             if stype == "application/json" and sid == "ulaudit-report"]
    if len(found) != 1:
        fail(name, "numbers", "%d <script type=\"application/json\" id=\"ulaudit-report\">, not 1"
             % len(found))
        return None
    try:
        return load_json(found[0])
    except ValueError as e:
        fail(name, "numbers", "the embedded JSON does not parse (%s)" % e)
        return None


def check_pixels(name, check, image, box, min_ink):
    ink, colours = pngstat.region_stats(image, box)
    if ink < min_ink or colours <= 2:
        fail(name, check, "blank: %.4f%% of %dx%d pixels drawn (need %.2f%%), %d colour(s)"
             % (100 * ink, box[2], box[3], 100 * min_ink, colours))
    return ink, colours


def cmd_page(args):
    name = args.name
    src, dom = parse_page(args.html), parse_page(args.dom)
    with open(args.json, encoding="utf-8") as f:
        report = load_json(f.read())
    embedded = embedded_json(name, dom)
    check_static(name, src)
    check_network(name, args.netlog)
    check_verdict(name, dom, report.get("verdict"), embedded)
    check_numbers(name, dom, report, embedded)
    if len(dom.figures) < args.min_figures:
        fail(name, "figures", "%d <figure class=\"figure\">, expected at least %d"
             % (len(dom.figures), args.min_figures))
    for fid, n_svg in dom.figures:
        if n_svg < 1:
            fail(name, "figures", "<figure id=\"%s\"> holds no inline <svg>" % fid)
    try:
        image = pngstat.read(args.png)
    except (OSError, pngstat.PngError) as e:
        fail(name, "page-pixels", "screenshot %s unreadable (%s)" % (args.png, e))
        return
    ink, colours = check_pixels(name, "page-pixels", image, (0, 0, image[0], image[1]), MIN_INK_PAGE)
    print("%s: %d spans, %d figures, page %.2f%% drawn, %s colours"
          % (name, len(dom.spans), len(dom.figures), 100 * ink, colours))


def svg_of_figures(text):
    """(figure id, svg text) for each <figure class="figure">'s first <svg>,
    as written in the page."""
    out = []
    for m in re.finditer(r"<figure\b[^>]*>", text):
        if not re.search(r"\bclass=\"[^\"]*\bfigure\b", m.group(0)):
            continue
        fid = re.search(r"\bid=\"([^\"]*)\"", m.group(0))
        end = text.find("</figure>", m.end())
        body = text[m.end():end if end >= 0 else len(text)]
        start, stop = body.find("<svg"), body.rfind("</svg>")
        if start >= 0 and stop > start:
            out.append((fid.group(1) if fid else "?", body[start:stop + 6]))
    return out


def svg_size(svg):
    tag = svg[:svg.find(">") + 1]
    vb = re.search(r"viewBox=\"\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)", tag)
    if vb:
        return float(vb.group(1)), float(vb.group(2))
    w = re.search(r"\bwidth=\"([\d.]+)", tag)
    h = re.search(r"\bheight=\"([\d.]+)", tag)
    return (float(w.group(1)), float(h.group(1))) if w and h else (4.0, 3.0)


def cell_svg(svg, prefix, width, height):
    """The svg drawn at width x height px, its ids (and references to them)
    prefixed so that figures of different pages do not share ids."""
    svg = re.sub(r"\bid=\"", 'id="%s' % prefix, svg)
    svg = re.sub(r"(href=\"#|url\(#)", r"\g<1>%s" % prefix, svg)
    head_end = svg.find(">")
    head = re.sub(r"\s(width|height)=\"[^\"]*\"", "", svg[:head_end])
    return '%s width="%d" height="%d"%s' % (head, width, height, svg[head_end:])


def cmd_figures_page(args):
    cells, parts, columns = [], [], [CELL_GAP, CELL_GAP]
    for k, path in enumerate(args.pages):
        with open(path, encoding="utf-8") as f:
            figures = svg_of_figures(f.read())
        for fid, svg in figures:
            vw, vh = svg_size(svg)
            w, h = CELL_WIDTH, max(1, round(CELL_WIDTH * vh / vw))
            col = 0 if columns[0] <= columns[1] else 1
            x, y = CELL_GAP + col * (CELL_WIDTH + CELL_GAP), columns[col]
            columns[col] += h + CELL_GAP
            cells.append({"page": path, "figure": fid, "box": [x, y, w, h]})
            parts.append('<div style="position:absolute;left:%dpx;top:%dpx;width:%dpx;height:%dpx">%s</div>'
                         % (x, y, w, h, cell_svg(svg, "p%d-" % k, w, h)))
    with open(args.out, "w", encoding="utf-8") as f:
        f.write('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><style>body{margin:0;'
                'background:#fff}</style></head><body>\n%s\n</body></html>\n' % "\n".join(parts))
    layout = {"width": 2 * CELL_WIDTH + 3 * CELL_GAP, "height": max(columns), "cells": cells}
    with open(args.layout, "w", encoding="utf-8") as f:
        json.dump(layout, f, indent=1)
    print("%d,%d" % (layout["width"], layout["height"]))


def cmd_figures(args):
    with open(args.layout, encoding="utf-8") as f:
        layout = json.load(f)
    try:
        image = pngstat.read(args.png)
    except (OSError, pngstat.PngError) as e:
        fail("figures", "figure-pixels", "screenshot %s unreadable (%s)" % (args.png, e))
        return
    for cell in layout["cells"]:
        x, y, w, h = cell["box"]
        name = "%s %s" % (os.path.basename(cell["page"]), cell["figure"])
        if x + w > image[0] or y + h > image[1]:
            fail(name, "figure-pixels", "outside the %dx%d screenshot" % (image[0], image[1]))
            continue
        ink, colours = check_pixels(name, "figure-pixels", image, (x, y, w, h), MIN_INK_FIGURE)
        print("%s: %.2f%% drawn, %s colours" % (name, 100 * ink, colours))


def cmd_crop(args):
    width, height, bpp, rows = pngstat.read(args.png)
    w, h = min(args.width, width), min(args.height, height)
    pngstat.write_rgb(args.out, w, [r[:w * bpp] for r in rows[:h]], bpp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("page")
    p.add_argument("name")
    for opt in ("--html", "--dom", "--netlog", "--png", "--json"):
        p.add_argument(opt, required=True)
    p.add_argument("--min-figures", type=int, default=1)
    p = sub.add_parser("figures-page")
    p.add_argument("out")
    p.add_argument("layout")
    p.add_argument("pages", nargs="+")
    p = sub.add_parser("figures")
    p.add_argument("layout")
    p.add_argument("png")
    p = sub.add_parser("crop")
    p.add_argument("png")
    p.add_argument("out")
    p.add_argument("width", type=int)
    p.add_argument("height", type=int)
    args = ap.parse_args()
    {"page": cmd_page, "figures-page": cmd_figures_page, "figures": cmd_figures,
     "crop": cmd_crop}[args.cmd](args)
    for line in FAILURES:
        print(line, file=sys.stderr)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
