"""The README's Python example, run exactly as the README shows it."""

import contextlib
import io
import os
import re

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")


def test_the_readmes_example_runs_as_written():
    text = open(README).read()
    section = text[text.index("## From Python"):text.index("## Installing on a cluster")]
    code = "\n".join(line[4:] for line in section.splitlines() if line.startswith("    "))
    assert code.startswith("import switchyard")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    expected = re.search(r"# (1024 .*)$", code, re.M).group(1)
    assert out.getvalue().strip() == expected
