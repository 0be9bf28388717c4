#!/usr/bin/python3
"""tests/browser/check_report.py — checks the HTML reports (the page contract
of src/report/html.h) as one Chromium headless loads and draws them, driven
over the DevTools protocol (tests/browser/cdp.py).  Python's standard library
only.  Run by tools/test-browser.sh:

  check_report.py run PAGES [--shot HTML=PNG]... [--timeout S]
      PAGES: lines "NAME JSON HTML OUTPREFIX EXPECT" read as they are
      written (the reports are made while the fixtures are checked), up to a
      line END (--wait seconds at most), the page HTML as the
      command wrote it, the command's --json output JSON, where the page's
      DOM, requests and screenshots go, and EXPECT "-" (every check must
      pass) or the check a negative fixture must fail.  Each page is opened
      in a tab of its own, 1200 px wide, and checked:
        static   the file as written: every src/href (but <a href>)/url() is
                 data: or #fragment, no executable <script>, the
                 Content-Security-Policy meta says default-src 'none';
        network  every URL the page's tab requested (Network.requestWillBe-
                 Sent, from before the navigation to the screenshots) is the
                 page's own file: URL or a data: URL;
        verdict  <p id="verdict" class="verdict verdict-V">V</p> in the DOM
                 after load, V the JSON's "verdict", also the embedded one's;
        numbers  at least one <span class="num" data-key=PATH>, each one's
                 text equal to the value at PATH in JSON and in the embedded
                 <script type="application/json" id="ulaudit-report">, a
                 number's literal character for character;
        figures  at least one <figure class="figure">; each holds an inline
                 <svg>, or is data-missing="true" with no <svg> and a
                 non-empty <p class="why"> (a curve the method does not have);
        page-pixels    the full-page screenshot is not blank;
        figure-pixels  each figure with an svg: the svg's box, cropped from
                 the screenshot of the figure's box, is not blank (a missing
                 figure has nothing to draw and is exempt);
        browser  a step Chromium did not answer within --timeout seconds
                 (or answered with an error): names the page and the step,
                 and the pages after it are not checked.
      --shot HTML=PNG writes the top 1200 x --shot-height of HTML to PNG.

Not blank: at least MIN_INK of the pixels differ from the most common colour
and there are more than two colours (anti-aliased text and curves make many;
a flat fill or a one-colour frame does not).  Each failure is one line,
"check_report: NAME: CHECK: what", on stderr and in OUTPREFIX.check; exit 1
when a page's failures are not the expected ones.
"""

import argparse
import base64
import html.parser
import json
import math
import os
import pathlib
import re
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
import pngstat  # noqa: E402

# Fractions of non-background pixels below which a region counts as blank.
# A plot with axes, labels and curves is well above 1% (the checker prints
# each figure's); a page's is of its whole document, at least the 1200x900
# viewport, where three short lines of text make about 0.1% (a report's
# 2700 px, 10%), so 0.03% (about one line) is asked; a white page or figure
# is 0.
MIN_INK_PAGE = 0.0003
MIN_INK_FIGURE = 0.01
WIDTH = 1200
VIEW_HEIGHT = 900
# The full page is checked drawn at half its size: a quarter of the pixels
# to encode, decode and count (text still anti-aliases to many colours, and
# the fraction drawn hardly changes); the figures at full size.
PAGE_SCALE = 0.5

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
            self._figure = {"id": a.get("id"), "missing": a.get("data-missing") == "true",
                            "svg": 0, "why": []}
            self.figures.append(self._figure)
        if tag == "svg" and self._figure is not None:
            self._figure["svg"] += 1
        kind = None
        if tag == "p" and "why" in classes and self._figure is not None:
            kind = ("why", self._figure)
        elif tag == "p" and a.get("id") == "verdict":
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
             "why": lambda: kind[1]["why"].append(text),
             "style": lambda: self.styles.append(text)}[kind[0]]()

    def handle_data(self, data):
        for entry in self._stack:
            entry[2].append(data)


def parse_page(text):
    p = Page()
    p.feed(text)
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


def check_network(name, page_url, urls):
    """Every request the page made (Network.requestWillBeSent in its own
    target, where the browser's background requests are not) is the page
    itself or a data: URL."""
    for url in sorted(set(urls)):
        if url != page_url and not url.startswith("data:"):
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


def check_figures(name, dom):
    """At least one figure; each holds its inline svg, or is a missing one
    (data-missing="true") with no svg that says why in a non-empty p.why."""
    if not dom.figures:
        fail(name, "figures", "no <figure class=\"figure\"> in the DOM")
    for f in dom.figures:
        why = "".join(f["why"]).strip()
        if not f["missing"] and f["svg"] < 1:
            fail(name, "figures", "<figure id=\"%s\"> holds no inline <svg>" % f["id"])
        elif f["missing"] and (f["svg"] or not why):
            fail(name, "figures", "<figure id=\"%s\" data-missing=\"true\"> %s"
                 % (f["id"], "holds an <svg>" if f["svg"] else "has no <p class=\"why\"> text"))


def check_pixels(name, check, image, box, min_ink):
    ink, colours = pngstat.region_stats(image, box)
    if ink < min_ink or colours <= 2:
        fail(name, check, "blank: %.4f%% of %dx%d pixels drawn (need %.2f%%), %d colour(s)"
             % (100 * ink, box[2], box[3], 100 * min_ink, colours))
    return ink, colours


# What the page shows, read in the browser after load: the DOM as it is now,
# the document's size and each figure's box in page coordinates (its
# viewport rect plus the scroll offsets) with its svg's box inside it.
PROBE = r"""JSON.stringify({
  html: document.documentElement.outerHTML,
  width: document.documentElement.scrollWidth,
  height: document.documentElement.scrollHeight,
  figures: Array.from(document.querySelectorAll("figure.figure")).map(function (f) {
    var r = f.getBoundingClientRect(), s = f.querySelector("svg");
    var q = s ? s.getBoundingClientRect() : null;
    return {id: f.id, missing: f.getAttribute("data-missing") === "true",
            box: [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height],
            svg: q ? [q.left - r.left, q.top - r.top, q.width, q.height] : null};
  })})"""


def pixel_box(box):
    """The whole pixels covering box = (x, y, w, h) in CSS px (scale 1)."""
    x0, y0 = math.floor(box[0]), math.floor(box[1])
    return x0, y0, math.ceil(box[0] + box[2]) - x0, math.ceil(box[1] + box[3]) - y0


def capture(browser, session, box, path, fast=True, scale=1):
    """The screenshot of box (page coordinates, beyond the viewport if need
    be) drawn at scale, written to path and decoded.  fast: Chromium's
    optimizeForSpeed,
    whose PNG rows are all Up-filtered, which pngstat undoes on whole rows
    (about 20 times faster to decode than the default encoding's Paeth rows)."""
    x, y, w, h = pixel_box(box)
    params = {"format": "png", "captureBeyondViewport": True, "optimizeForSpeed": fast,
              "clip": {"x": x, "y": y, "width": max(w, 1), "height": max(h, 1), "scale": scale}}
    data = base64.b64decode(browser.send("Page.captureScreenshot", params, session)["data"])
    with open(path, "wb") as f:
        f.write(data)
    return pngstat.decode(data)


def open_tab(browser, url, step):
    """URL loaded in a new tab WIDTH px wide, the network watched from before
    the navigation: (target id, session id).  step[0] names the step under
    way, for the failure message of a timeout."""
    step[0] = "Target.createTarget"
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    step[0] = "Target.attachToTarget"
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for method, params in (("Network.enable", {}), ("Page.enable", {}),
                           ("Emulation.setDeviceMetricsOverride",
                            {"width": WIDTH, "height": VIEW_HEIGHT, "deviceScaleFactor": 1,
                             "mobile": False})):
        step[0] = method
        browser.send(method, params, session)
    step[0] = "Page.navigate"
    nav = browser.send("Page.navigate", {"url": url}, session)
    if nav.get("errorText"):
        raise cdp.CdpError(nav["errorText"])
    step[0] = "Page.loadEventFired"
    browser.wait_event("Page.loadEventFired", session)
    return target, session


def render(browser, url, prefix, step):
    """The page at url as Chromium shows it: its DOM, the URLs it requested,
    its full screenshot and one of each figure (prefix.png, prefix.fig-N.png,
    prefix.dom.html, prefix.requests.json)."""
    target, session = open_tab(browser, url, step)
    step[0] = "Runtime.evaluate"
    probe = json.loads(browser.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                                    session)["result"]["value"])
    step[0] = "Page.captureScreenshot (page)"
    page = capture(browser, session, (0, 0, probe["width"], probe["height"]), prefix + ".png",
                   scale=PAGE_SCALE)
    for k, fig in enumerate(probe["figures"]):
        step[0] = "Page.captureScreenshot (figure %s)" % fig["id"]
        fig["image"] = capture(browser, session, fig["box"], "%s.fig-%d.png" % (prefix, k + 1))
    requests = [ev["request"]["url"] for ev in browser.take_events("Network.requestWillBeSent", session)]
    step[0] = "Target.closeTarget"
    browser.send("Target.closeTarget", {"targetId": target})
    browser.drop_session(session)
    with open(prefix + ".dom.html", "w", encoding="utf-8") as f:
        f.write(probe["html"])
    with open(prefix + ".requests.json", "w", encoding="utf-8") as f:
        json.dump(requests, f, indent=1)
    return probe, page, requests


def check_figure_pixels(name, figures):
    """Each drawn figure's svg, cropped from the figure's own screenshot, is
    not blank; a missing figure (data-missing="true") draws nothing."""
    for fig in figures:
        if fig["missing"] or fig["svg"] is None:
            continue  # no svg: check_figures says whether that is allowed
        width, height = fig["image"][0], fig["image"][1]
        x, y, w, h = pixel_box(fig["svg"])
        x, y = max(x, 0), max(y, 0)
        w, h = min(w, width - x), min(h, height - y)
        if w <= 0 or h <= 0:
            fail(name, "figure-pixels", "%s: its svg has no area on screen" % fig["id"])
            continue
        ink, colours = check_pixels(name, "figure-pixels", fig["image"], (x, y, w, h),
                                    MIN_INK_FIGURE)
        print("%s %s: %.2f%% drawn, %s colours" % (name, fig["id"], 100 * ink, colours))


def check_page(browser, name, json_path, html_path, prefix):
    """Every check of one page; a browser that stops answering raises."""
    with open(html_path, encoding="utf-8") as f:
        check_static(name, parse_page(f.read()))
    with open(json_path, encoding="utf-8") as f:
        report = load_json(f.read())
    url = pathlib.Path(html_path).resolve().as_uri()
    step = ["start"]
    try:
        probe, page, requests = render(browser, url, prefix, step)
    except (cdp.CdpError, KeyError, ValueError, pngstat.PngError) as e:
        raise cdp.CdpError("%s: %s" % (step[0], e)) from e
    dom = parse_page(probe["html"])
    embedded = embedded_json(name, dom)
    check_network(name, url, requests)
    check_verdict(name, dom, report.get("verdict"), embedded)
    check_numbers(name, dom, report, embedded)
    check_figures(name, dom)
    ink, colours = check_pixels(name, "page-pixels", page, (0, 0, page[0], page[1]), MIN_INK_PAGE)
    print("%s: %d spans, %d figures (%d missing), %dx%d page %.2f%% drawn, %s colours"
          % (name, len(dom.spans), len(dom.figures), sum(f["missing"] for f in dom.figures),
             page[0], page[1], 100 * ink, colours))
    check_figure_pixels(name, probe["figures"])


def judge(name, expect, prefix):
    """0 when the page's failures are as expected: none ("-"), or at least
    one of the check EXPECT (a negative fixture); else 1, saying why."""
    with open(prefix + ".check", "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in FAILURES))
    if expect == "-":
        for line in FAILURES:
            print(line, file=sys.stderr)
        return 1 if FAILURES else 0
    if any(line.startswith("check_report: %s: %s: " % (name, expect)) for line in FAILURES):
        return 0
    print("check_report: negative fixture %s did not fail the %s check:" % (name, expect),
          file=sys.stderr)
    for line in FAILURES or ["(no failure at all)"]:
        print("    " + line, file=sys.stderr)
    return 1


def take_shot(browser, html_path, out, height):
    """The top WIDTH x height of a page (its default, smaller PNG encoding)."""
    step = ["start"]
    target, session = open_tab(browser, pathlib.Path(html_path).resolve().as_uri(), step)
    full = json.loads(browser.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                                   session)["result"]["value"])["height"]
    capture(browser, session, (0, 0, WIDTH, min(height, full)), out, fast=False)
    browser.send("Target.closeTarget", {"targetId": target})
    browser.drop_session(session)
    print("check_report: wrote %s (%d bytes)" % (out, os.path.getsize(out)))


def page_lines(path, wait):
    """The lines of PAGES as they are written, up to the line END (the
    reports are written while the fixtures are checked); a file without END
    after wait seconds raises CdpError."""
    deadline = time.monotonic() + wait
    with open(path, encoding="utf-8") as f:
        pending = ""
        while True:
            pending += f.readline()
            if not pending.endswith("\n"):
                if time.monotonic() > deadline:
                    raise cdp.CdpError("%s: no END line within %g s: the pages after the last one"
                                       " are not checked" % (path, wait))
                time.sleep(0.1)
                continue
            line, pending = pending.split(), ""
            if line == ["END"]:
                return
            if line:
                yield line


def cmd_run(args):
    # SIGTERM unwinds (SystemExit) so that Chromium is killed on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    bad = 0
    with cdp.Chromium(args.chromium, args.timeout, args.log) as browser:
        try:
            for name, json_path, html_path, prefix, expect in page_lines(args.pages, args.wait):
                del FAILURES[:]
                try:
                    check_page(browser, name, json_path, html_path, prefix)
                except cdp.CdpError as e:
                    fail(name, "browser", str(e))
                    judge(name, "-", prefix)
                    raise cdp.CdpError("the pages after %s are not checked" % name) from e
                bad += judge(name, expect, prefix)
            for shot in args.shot:
                html_path, out = shot.split("=", 1)
                take_shot(browser, html_path, out, args.shot_height)
        except cdp.CdpError as e:
            print("check_report: %s" % e, file=sys.stderr)
            return 1
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("pages", help="lines NAME JSON HTML OUTPREFIX EXPECT, then END")
    p.add_argument("--chromium", default="chromium")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds for each step")
    p.add_argument("--wait", type=float, default=300.0, help="seconds for PAGES to end")
    p.add_argument("--log", default=os.devnull, help="Chromium's stdout and stderr")
    p.add_argument("--shot", action="append", default=[], metavar="HTML=PNG")
    p.add_argument("--shot-height", type=int, default=1600)
    args = ap.parse_args()
    return cmd_run(args)


if __name__ == "__main__":
    sys.exit(main())
