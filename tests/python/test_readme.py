"""The README's Python example, run exactly as the README shows it."""

import contextlib
import io
import os
import re

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")


def test_the_readmes_example_runs_as_written():
    text = open(README).read()
    blocks = re.findall(r"^```python\n(.*?)^```$", text, re.M | re.S)
    assert len(blocks) == 1, "the README shows one Python example"
    code = blocks[0]
    assert code.startswith("import switchyard")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    expected = re.search(r"# (1024 .*)$", code, re.M).group(1)
    assert out.getvalue().strip() == expected
