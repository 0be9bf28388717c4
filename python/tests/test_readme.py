"""README.md's "### Python" section runs: every ```pycon block in it is a doctest,
run in order in one namespace from the repository's root, so the README shows
the calls' real output and cannot drift from them."""
import doctest
import os
import re

from conftest import ROOT

README = os.path.join(ROOT, "README.md")


def python_blocks():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    section = re.search(r"^### Python\n(.*?)(?=^#{1,3} )", text, re.S | re.M).group(1)
    return re.findall(r"^```pycon\n(.*?)^```", section, re.S | re.M)


def test_readme_python_section_has_examples():
    assert len(python_blocks()) >= 5


def test_readme_python_examples_give_their_shown_output(monkeypatch):
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs = {}
    for i, block in enumerate(python_blocks()):
        test = parser.get_doctest(block, globs, "README.md Python block %d" % (i + 1), README, 0)
        runner.run(test, clear_globs=False)
        globs = test.globs  # (a DocTest copies its globals) one namespace for every block
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "README's Python examples differ from their real output (above)"
