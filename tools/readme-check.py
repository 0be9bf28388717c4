#!/usr/bin/env python3
"""tools/readme-check.py — README.md's shell examples, run and compared with what README shows.

    tools/readme-check.py [README.md] [--build DIR] [--verbose]      (make test-readme)

What runs.  A fenced block opened by ``` , ```sh or ```console whose lines include one starting with
"$ " is a session: each "$ " line is a command, the lines after it (up to the next "$ " line or the
block's end) the output README shows.  A block with no "$ " line (a usage synopsis, a Slurm script, an
install line) is not run; nor are ```pycon blocks (python/tests/test_readme.py doctests those), ```c
or ```json.  A block can opt out with an HTML comment on the line just before its fence (blank lines
between allowed), always with a reason:

    <!-- readme-check: skip (downloads a data set) -->

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
A mismatch prints the block's README line, the command, a diff (README's lines, then the program's)
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


def sessions(body, first_line):
    """Splits a block's lines into (line_no, command, shown_output_lines)."""
    out = []
    for n, line in enumerate(body):
        if line.startswith("$ "):
            out.append((first_line + n + 1, line[2:], []))
        elif out and out[-1][1].endswith("\\"):
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


def run_block(root, env, fence_no, cmds, files, verbose):
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
            words = shlex.split(cmd, comments=True) if "\n" not in cmd else []
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
                                            "README.md line %d" % line_no, "what it prints", lineterm="", n=2)
                failures.append("README.md:%d (block at line %d): $ %s\n%s" % (line_no, fence_no, cmd,
                                                                              "\n".join(diff)))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return failures


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    readme, build, verbose = os.path.join(root, "README.md"), "build", False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--build" and args:
            build = args.pop(0)
        elif a == "--verbose":
            verbose = True
        elif a.startswith("-"):
            print("readme-check: unknown option %s (usage: readme-check.py [README.md] [--build DIR] "
                  "[--verbose])" % a, file=sys.stderr)
            return 2
        else:
            readme = os.path.abspath(a)
    env = dict(os.environ)
    env.update(PATH=os.path.join(root, build) + os.pathsep + env.get("PATH", "/usr/bin:/bin"),
               LC_ALL="C.UTF-8", SOURCE_DATE_EPOCH="0", ULAUDIT_HELP="text")
    for k in ("ULAUDIT_LIBRARY", "LANG", "LANGUAGE", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"):  # a fresh shell
        env.pop(k, None)
    pcdir = tempfile.mkdtemp(prefix="readme-check-pc-")
    env.update(PKG_CONFIG_PATH=pkgconfig_dir(root, build, pcdir),
               LD_LIBRARY_PATH=os.path.join(root, build) + os.pathsep + env.get("LD_LIBRARY_PATH", ""))
    try:
        return check(readme, root, env, verbose)
    finally:
        shutil.rmtree(pcdir, ignore_errors=True)


def check(readme, root, env, verbose):
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    t0, ran, skipped, commands, failures, files = time.monotonic(), 0, [], 0, [], {}
    for fence_no, info, body, reason in blocks(lines):
        if info == "c" and body and C_FILE.match(body[0]):
            files[C_FILE.match(body[0]).group(1)] = "\n".join(body) + "\n"
            continue
        if not FENCE_RUN.match("```" + info) or not any(l.startswith("$ ") for l in body):
            continue
        if reason:
            skipped.append("README.md:%d: %s" % (fence_no, reason))
            continue
        cmds = sessions(body, fence_no)
        ran, commands = ran + 1, commands + len(cmds)
        if verbose:
            print("block at line %d" % fence_no)
        failures += run_block(root, env, fence_no, cmds, files, verbose)
        files = {}
    for f in failures:
        print(f + "\n")
    for s in skipped:
        print("skipped " + s)
    print("readme-check: %d blocks (%d commands) run, %d skipped, %d failed, %.1f s"
          % (ran, commands, len(skipped), len(failures), time.monotonic() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
