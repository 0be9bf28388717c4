#!/usr/bin/env python3
r"""tools/readme-check.py — the shell examples of README.md and of the man pages, run and compared with
what they show.

    tools/readme-check.py [README.md | man/PAGE.1 ...] [--build DIR] [--verbose]      (make test-readme)

Without file arguments: README.md, then every man/*.[1-9] page.

What runs in README.md.  A fenced block opened by ``` , ```sh or ```console whose lines include one
starting with "$ " is a session: each "$ " line is a command, the lines after it (up to the next "$ " line or the
block's end) the output README shows.  A block with no "$ " line (a usage synopsis, a Slurm script, an
install line) is not run; nor are ```pycon blocks (python/tests/test_readme.py doctests those), ```c
or ```json.  A block can opt out with an HTML comment on the line just before its fence (blank lines
between allowed), always with a reason:

    <!-- readme-check: skip (downloads a data set) -->

What runs in a man page.  A .nf/.fi block with a line starting "$ " once decoded, read the same way (a
command ending in \, | or && continues on the next line).  Decoded means what `man -l PAGE | col -b`
shows: requests (.RS, .ft, .\" ...) print nothing, .sp a blank line; \- is -, \e a backslash, \& \| \^
vanish, \fB...\fR font changes are dropped, \(xx and \[name] are the characters of ROFF_CHARS below
(\(*h is θ, \(em —, \(aq ').  Each block run is also checked against man itself when man and col
are installed: its decoded lines, indentation aside, must be lines man shows, else the block fails (an
escape the decoder misreads).  A roff comment before .nf (.PP, .RS or blank lines between allowed)
opts a block out, with a reason:

    .\" readme-check: skip (needs the installed Python package)

A man page shows the markers below as they are: "..." is written \&... on a line of its own (a line
starting with "." is a roff request).

How.  Each block gets a fresh temporary directory holding a symbolic link to every top-level entry of
the repository (audits/, examples/, tests/, build/, ...), so README's relative paths read the checkout
and the files a command writes land in the temporary directory, removed afterwards.  A command whose
shown file is absent — `$ cat NAME` where NAME does not exist there — creates NAME with the text shown
(README's way of giving a small certificate a reader types in).  A ```c block whose first line is
`/* NAME */` is written as NAME into the next session's directory (README's C example, prog.c); its
`pkg-config --cflags --libs ulaudit` finds a ulaudit.pc the checker writes from src/lib/ulaudit.pc.in
for the build tree (include/, build/libulaudit.so, LD_LIBRARY_PATH=build): the installed .pc itself
is tested by make test-install.  Each command runs through /bin/sh
with build/ first on PATH (`ulaudit` is build/ulaudit), LC_ALL=C.UTF-8, SOURCE_DATE_EPOCH=0 (the
reports' generation time fixed), ULAUDIT_HELP=text (help prints text instead of opening man), and a
time limit of 60 s per command (README's long runs are skipped by comment, with the reason).

Compared.  What a terminal shows: stdout and stderr together (README shows error messages where the
user sees them).  Trailing blanks on each line and trailing blank lines are ignored.  The exit status
must be 0 unless the command's last shown line is "(exit N)": then it must be N.  Volatile or
elided text:
  - a line that is only "…" (or "...") matches any number of lines, none included;
  - "…" (or "...") inside a line matches any text within that line.
A mismatch prints the file and line, the command, a diff (the file's lines, then the program's)
and fails (exit 1); every block is run and every failure listed.  Exit 0 when all pass.
"""
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

FENCE_RUN = re.compile(r"^```(sh|console)?\s*$")
FENCE_ANY = re.compile(r"^```")
C_FILE = re.compile(r"^/\* ([\w.-]+) \*/$")
SKIP = re.compile(r"^<!--\s*readme-check:\s*skip\s*\((.+)\)\s*-->\s*$")
EXIT = re.compile(r"^\(exit (\d+)\)$")
ELLIPSIS = re.compile(r"…|\.\.\.")
TIMEOUT = 60
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAN_PAGE = re.compile(r"\.[1-9]$")
ROFF_SKIP = re.compile(r'^\.\\"\s*readme-check:\s*skip\s*\((.+)\)\s*$')
# roff's named characters as `man -l PAGE | col -b` shows them under LC_ALL=C.UTF-8 (groff_char(7), read
# off Debian's groff; its man.local keeps -, \-, ', `, ^ and ~ ASCII).  \[uXXXX] is the code point.
ROFF_CHARS = {"*a": "α", "*b": "β", "*c": "ξ", "*d": "δ", "*e": "ε", "*g": "γ", "*h": "θ", "*k": "κ",
              "*l": "λ", "*m": "μ", "*r": "ρ", "*s": "σ", "*y": "η", "*L": "Λ", "*D": "Δ", "*S": "Σ",
              "*G": "Γ", "*p": "π", "+-": "±", "->": "→", "<-": "←", "<=": "≤", ">=": "≥", "aq": "'",
              "bu": "•", "dq": '"', "em": "—", "en": "–", "gr": "∇", "if": "∞", "lq": "“", "md": "⋅",
              "mi": "−", "mu": "×", "pc": "·", "rq": "”", "sr": "√", "12": "½", "14": "¼", "34": "¾",
              "co": "©", "de": "°", "tm": "™", "ua": "↑", "da": "↓", "==": "≡", "~=": "≈", "!=": "≠",
              "**": "∗", "ti": "~", "ha": "^", "rs": "\\", "sl": "/", "oq": "‘", "cq": "’", "hy": "‐",
              "ga": "`", "'e": "é", "S1": "¹", "S2": "²", "S3": "³"}
# an escape: \(xx, \[name], \f<font> (one letter, (xx or [name]), \s<size>, or one character
ROFF_ESC = re.compile(r"\\(\((..)|\[([^\]]*)\]|f(\(..|\[[^\]]*\]|.)|s[-+]?\d|\"|.)")


def blocks(lines):
    """Yields (fence_line_no, info, body_lines, skip_reason) for every fenced block."""
    i = 0
    while i < len(lines):
        if not FENCE_ANY.match(lines[i]):
            i += 1
            continue
        start, info = i, lines[i][3:].strip()
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        k = start - 1  # the skip comment may be separated from the fence by blank lines
        while k >= 0 and not lines[k].strip():
            k -= 1
        m = SKIP.match(lines[k]) if k >= 0 else None
        yield start + 1, info, lines[start + 1:j], (m.group(1) if m else None)
        i = j + 1


def roff_text(line):
    """One text line of a .nf block as man shows it: escapes decoded, fonts dropped, comments cut."""
    def esc(m):
        name = m.group(2) or m.group(3)
        if name is not None:  # unknown: U+FFFD, which man_renders reports in a $ block
            if re.fullmatch(r"u[0-9A-F]{4,5}", name):
                return chr(int(name[1:], 16))
            return ROFF_CHARS.get(name, "\ufffd")
        c = m.group(1)
        if c[0] in "fs" and len(c) > 1 or c in ("&", "|", "^", ")", ",", "/", "c"):
            return ""  # font and size changes, zero-width and thin-space escapes
        if c == '"':
            return "\0"  # a comment: the rest of the line goes (cut below)
        return {"e": "\\", "\\": "\\", "-": "-", " ": " ", "~": " ", "0": " ", "'": "'", "`": "`",
                ".": ".", "t": "\t"}.get(c, "\ufffd")
    return ROFF_ESC.sub(esc, line).split("\0")[0]


def roff_blocks(lines):
    """Yields (nf_line_no, "nf", decoded_body_lines, skip_reason) for every .nf/.fi block of a man page.
    Requests inside the block (.RS, .ft, .\\" ...) print nothing, .sp a blank line; a skip comment
    may stand before .nf with requests (.PP, .RS 4) or blank lines between."""
    i = 0
    while i < len(lines):
        if not re.match(r"^\.nf\b", lines[i]):
            i += 1
            continue
        start, body, j = i, [], i + 1
        while j < len(lines) and not re.match(r"^\.fi\b", lines[j]):
            line = lines[j]
            if re.match(r"^\.sp\b", line):
                body.append("")
            elif not line.startswith((".", "'")):
                body.append(roff_text(line))
            j += 1
        k, reason = start - 1, None
        while k >= 0 and (not lines[k].strip() or re.match(r"^\.(PP|P|LP|RS|IP|in|sp|br)\b", lines[k])):
            k -= 1
        if k >= 0 and ROFF_SKIP.match(lines[k]):
            reason = ROFF_SKIP.match(lines[k]).group(1)
        yield start + 1, "nf", body, reason
        i = j + 1


def sessions(body, first_line):
    """Splits a block's lines into (line_no, command, shown_output_lines)."""
    out = []
    for n, line in enumerate(body):
        if line.startswith("$ "):
            out.append((first_line + n + 1, line[2:], []))
        elif out and out[-1][1].rstrip().endswith(("\\", "|", "&&")):
            out[-1] = (out[-1][0], out[-1][1] + "\n" + line, out[-1][2])
        elif out:
            out[-1][2].append(line)
    return out


def line_regex(shown):
    parts = ELLIPSIS.split(shown)
    return re.compile("^" + ".*".join(re.escape(p) for p in parts) + "$")


def matches(shown, got):
    """README's lines against the program's, with "…" lines and "…" in lines as wildcards."""
    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(shown):
            r = j == len(got)
        elif ELLIPSIS.fullmatch(shown[i].strip()):
            r = any(go(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and line_regex(shown[i]).match(got[j]) is not None and go(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    return go(0, 0)


def trim(lines):
    lines = [l.rstrip() for l in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def workdir(root):
    d = tempfile.mkdtemp(prefix="readme-check-")
    for name in os.listdir(root):
        if name != ".git":
            os.symlink(os.path.join(root, name), os.path.join(d, name))
    return d


def pkgconfig_dir(root, build, tmp):
    """A ulaudit.pc for the build tree, as make install writes one for PREFIX (src/lib/ulaudit.pc.in)."""
    with open(os.path.join(root, "src/lib/ulaudit.pc.in"), encoding="utf-8") as f:
        pc = f.read()
    pc = pc.replace("@PREFIX@", root).replace("@LIBDIR@", os.path.join(root, build)).replace("@VERSION@", "0")
    with open(os.path.join(tmp, "ulaudit.pc"), "w", encoding="utf-8") as f:
        f.write(pc)
    return tmp


def run_block(root, env, name, fence_no, cmds, files, verbose):
    """Runs one block's commands in order in one temporary directory; returns the failures."""
    failures = []
    d = workdir(root)
    try:
        for name, text in files.items():
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(text)
        for line_no, cmd, shown in cmds:
            shown = trim(shown)
            want_exit = 0
            if shown and EXIT.match(shown[-1]):
                want_exit = int(EXIT.match(shown[-1]).group(1))
                shown = shown[:-1]
            try:  # only to spot `cat NAME`; a command sh itself rejects is not ours to judge
                words = shlex.split(cmd, comments=True) if "\n" not in cmd else []
            except ValueError:
                words = []
            if len(words) == 2 and words[0] == "cat" and not os.path.lexists(os.path.join(d, words[1])):
                with open(os.path.join(d, words[1]), "w", encoding="utf-8") as f:
                    f.write("\n".join(shown) + "\n")
            t0 = time.monotonic()
            try:
                p = subprocess.run(["/bin/sh", "-c", cmd], cwd=d, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
                got, status = trim(p.stdout.decode("utf-8", "replace").split("\n")), p.returncode
            except subprocess.TimeoutExpired:
                got, status = ["(timed out after %d s)" % TIMEOUT], -1
            secs = time.monotonic() - t0
            if verbose:
                print("  line %d (%.2f s): $ %s" % (line_no, secs, cmd))
            same = matches(shown, got)
            if not same or status != want_exit:
                a, b = ([], []) if same else (shown, got)  # the lines matched: only the status differs
                diff = difflib.unified_diff(a + ["(exit %d)" % want_exit], b + ["(exit %d)" % status],
                                            "%s line %d" % (name, line_no), "what it prints", lineterm="",
                                            n=2)
                failures.append("%s:%d (block at line %d): $ %s\n%s" % (name, line_no, fence_no, cmd,
                                                                       "\n".join(diff)))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return failures


def main(argv):
    root = ROOT
    docs, build, verbose = [], "build", False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--build" and args:
            build = args.pop(0)
        elif a == "--verbose":
            verbose = True
        elif a.startswith("-"):
            print("readme-check: unknown option %s (usage: readme-check.py [README.md|man/PAGE.1 ...] "
                  "[--build DIR] [--verbose])" % a, file=sys.stderr)
            return 2
        else:
            docs.append(os.path.abspath(a))
    if not docs:
        man = os.path.join(root, "man")
        docs = [os.path.join(root, "README.md")] + sorted(
            os.path.join(man, f) for f in os.listdir(man) if MAN_PAGE.search(f))
    env = dict(os.environ)
    env.update(PATH=os.path.join(root, build) + os.pathsep + env.get("PATH", "/usr/bin:/bin"),
               LC_ALL="C.UTF-8", SOURCE_DATE_EPOCH="0", ULAUDIT_HELP="text")
    for k in ("ULAUDIT_LIBRARY", "LANG", "LANGUAGE", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"):  # a fresh shell
        env.pop(k, None)
    pcdir = tempfile.mkdtemp(prefix="readme-check-pc-")
    env.update(PKG_CONFIG_PATH=pkgconfig_dir(root, build, pcdir),
               LD_LIBRARY_PATH=os.path.join(root, build) + os.pathsep + env.get("LD_LIBRARY_PATH", ""))
    try:
        return check(docs, root, env, verbose)
    finally:
        shutil.rmtree(pcdir, ignore_errors=True)


_rendered = {}


def man_renders(path, body):
    """Whether `man -l PAGE | col -bx` shows the decoded block, indentation aside: the decoder checked
    against groff itself.  True when man or col is missing (nothing to check against)."""
    if not (shutil.which("man") and shutil.which("col")):
        return True
    if path not in _rendered:
        env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="200", MAN_KEEP_FORMATTING="")
        p = subprocess.run(["/bin/sh", "-c", 'man -l "$0" | col -bx', path], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        _rendered[path] = [l.strip() for l in p.stdout.decode("utf-8", "replace").split("\n")]
    got, want = _rendered[path], [l.strip() for l in trim(body)]
    return any(got[k:k + len(want)] == want for k in range(len(got) - len(want) + 1))


def doc_blocks(path):
    """(name, blocks) of README.md (fenced blocks) or a man page (.nf/.fi blocks)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if MAN_PAGE.search(path):
        return os.path.relpath(path, ROOT), roff_blocks(lines)
    return os.path.relpath(path, ROOT), blocks(lines)


def check(docs, root, env, verbose):
    t0, ran, skipped, commands, failures, counts = time.monotonic(), 0, [], 0, [], []
    for path in docs:
        name, blist = doc_blocks(path)
        t1, ran1, cmds1, files = time.monotonic(), 0, 0, {}
        for fence_no, info, body, reason in blist:
            if info == "c" and body and C_FILE.match(body[0]):
                files[C_FILE.match(body[0]).group(1)] = "\n".join(body) + "\n"
                continue
            runnable = info == "nf" or FENCE_RUN.match("```" + info)
            if not runnable or not any(l.startswith("$ ") for l in body):
                continue
            if reason:
                skipped.append("%s:%d: %s" % (name, fence_no, reason))
                continue
            if info == "nf" and not man_renders(path, body):
                failures.append("%s:%d: the block as decoded is not what man shows (a roff escape the "
                                "checker misreads?)\n%s" % (name, fence_no, "\n".join(body)))
            cmds = sessions(body, fence_no)
            ran1, cmds1 = ran1 + 1, cmds1 + len(cmds)
            if verbose:
                print("%s: block at line %d" % (name, fence_no))
            failures += run_block(root, env, name, fence_no, cmds, files, verbose)
            files = {}
        counts.append("  %-28s %2d blocks, %3d commands, %5.1f s"
                      % (name, ran1, cmds1, time.monotonic() - t1))
        ran, commands = ran + ran1, commands + cmds1
    for f in failures:
        print(f + "\n")
    for s in skipped:
        print("skipped " + s)
    if verbose:
        print("\n".join(counts))
    print("readme-check: %d blocks (%d commands) run, %d skipped, %d failed, %.1f s"
          % (ran, commands, len(skipped), len(failures), time.monotonic() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
