#!/usr/bin/env python3
"""Runs the examples of the README and the documentation site, so that they cannot drift.

The rules a page of README.md or docs/ follows, for its writers:
* Code is fenced (```); an indented code block is an error, since it could hide a command
  that no test runs.
* A ```console block is run: each line starting with "$ " is a command (a line ending in a
  backslash goes on with the next, one opening a here-document <<'EOF' takes its lines to
  EOF), the lines after it up to the next command are the
  output it claims. `...` alone on a line stands for any lines, `...` inside a line for
  any text, and a run of blanks for any blanks. A command with no lines after it has its
  output unchecked. It must exit 0, unless it ends with the comment `# exit N`.
* The commands of one page run in order in one sandbox of their own: a fresh HOME and
  XDG directories where a user's are by default (so a daemon of their own, stopped at the
  end), the working directory a
  copy of the repository's examples/ under `examples/`, `yard` of this build first on
  PATH. Variables exported and `cd` carry over to the next command.
* A block that cannot run here says so just before it: `<!-- doc-test: skip REASON -->`.
  Every skip is listed with its reason.
* A block that another test runs (one that needs an install, say) names it just before it:
  `<!-- doc-test: run-by TEST -->`, TEST a test that ctest runs (else the block fails): a
  name given to add_test() in a CMakeLists.txt of the repository, a GoogleTest test
  (`Suite.Name`), or a Python suite's file (`SlurmCommands.formats`). Listed apart from
  the skips.
* A page about a scheduler that has no server in Debian may say `<!-- doc-test: stand-in
  NAME -->` (pbs, torque, lsf, htcondor, flux): its sandbox then starts that stand-in
  scheduler (tests/stand-in-schedulers/start.sh) before the page's first command, its
  commands first on PATH, and stops it (stop.sh) at the end.
* A block whose one command serves until stopped (`yard web serve`) says so just before
  it: `<!-- doc-test: serve URL -->`. Its command is started in the background, the page
  goes on once URL answers (any HTTP status; within 30 s, or the block fails with what the
  command printed), and the server is stopped (SIGTERM to its process group) when the
  page ends.
* A block whose commands show what comes true a while after (a scheduler seen down after
  its calls failed) says so just before it: `<!-- doc-test: until SECONDS -->`. Each of
  its commands is run again, every half second, until it exits and prints as the page
  says, or SECONDS have passed (then it fails as any other).
* A ```python block is run by python3 in the page's sandbox, this build's module first on
  its path, each block in an interpreter of its own: it must exit 0 (its `assert`s are
  its checks). A skip comment works as for console blocks.
* Other blocks (```yaml, ```text, ...) are not run.

Usage: doc_examples.py --bin DIR --root DIR [PAGE...]   (default: README.md and docs/**/*.md)
Exit 1 naming the page and line of every failure.
"""

import argparse
import glob
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
SKIP = re.compile(r"<!--\s*doc-test:\s*skip\s+(.+?)\s*-->")
# The sandbox's own server: no proxy, and its own certificate (a page may make one) taken as is.
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                       urllib.request.HTTPSHandler(context=ssl._create_unverified_context()))
SERVE = re.compile(r"<!--\s*doc-test:\s*serve\s+(\S+)\s*-->")
RUN_BY = re.compile(r"<!--\s*doc-test:\s*run-by\s+(\S+)\s*-->")
UNTIL = re.compile(r"<!--\s*doc-test:\s*until\s+(\d+)\s*-->")
STAND_IN = re.compile(r"<!--\s*doc-test:\s*stand-in\s+(\w+)\s*-->")
EXIT = re.compile(r"\s#\s*exit\s+(\d+)\s*$")
HEREDOC = re.compile(r"<<-?\s*'?\"?(\w+)'?\"?")


class Command:
    def __init__(self, line, text):
        self.line, self.text, self.expected, self.rc = line, text, [], 0
        m = EXIT.search(text)
        if m:
            self.rc = int(m.group(1))


def blocks(path, shown):
    """The page's fenced blocks: (first line, language, lines, skip reason, directive: ("serve", URL), ("until", seconds) or None); and errors."""
    out, errors = [], []
    lines = open(path, encoding="utf-8").read().split("\n")
    i, skip, directive, in_list = 0, None, None, False
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if m:
            indent, fence, lang = m.groups()
            body, j = [], i + 1
            while j < len(lines) and not lines[j].strip().startswith(fence):
                body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
                j += 1
            if j == len(lines):
                errors.append("%s:%d: a ``` block that never ends" % (shown, i + 1))
            out.append((i + 1, lang, body, skip, directive))
            skip, directive, i = None, None, j + 1
            continue
        s = SKIP.search(line)
        v = SERVE.search(line)
        u = UNTIL.search(line)
        r = RUN_BY.search(line)
        if s:
            skip = s.group(1)
        elif v:
            directive = ("serve", v.group(1))
        elif u:
            directive = ("until", int(u.group(1)))
        elif r:
            directive = ("run-by", r.group(1))
        elif line.strip():
            skip = skip if line.strip().startswith("<!--") else None
            directive = directive if line.strip().startswith("<!--") else None
        # An indented code block: four blanks after a blank line, outside a list item.
        if line.strip() and not line.startswith(" "):
            in_list = bool(re.match(r"^\s*([-*+]|\d+\.)\s", line))
        if (line.startswith("    ") and line.strip() and i > 0 and not lines[i - 1].strip()
                and not in_list):
            errors.append("%s:%d: an indented code block: fence it (```console to have it run, "
                          "```text if it is not a command)" % (shown, i + 1))
            while i + 1 < len(lines) and (lines[i + 1].startswith("    ") or not lines[i + 1].strip()):
                i += 1
        i += 1
    return out, errors


def commands(first, body):
    cmds, k = [], 0
    while k < len(body):
        line = body[k]
        if line.startswith("$ "):
            text, start = line[2:], first + 1 + k
            while text.endswith("\\") and k + 1 < len(body):
                k += 1
                text = text + "\n" + body[k]  # the backslash kept: bash joins the lines
            here = HEREDOC.search(text)
            if here:  # a here-document's lines belong to the command, to its end word
                while k + 1 < len(body):
                    k += 1
                    text += "\n" + body[k]
                    if body[k] == here.group(1):
                        break
            cmds.append(Command(start, text))
        elif cmds:
            cmds[-1].expected.append(line)
        k += 1
    for c in cmds:
        while c.expected and not c.expected[-1].strip():
            c.expected.pop()
    return cmds


def pattern(line):
    parts = [re.escape(p) for p in line.rstrip().split("...")]
    text = ".*".join(parts)
    return re.compile(re.sub(r"(\\ )+", r"\\s+", text) + r"\s*$")


def matches(expected, got, e=0, g=0):
    """Whether the output lines `got` are those `expected` (with its wildcards)."""
    while e < len(expected):
        if expected[e].strip() == "...":
            return any(matches(expected, got, e + 1, k) for k in range(g, len(got) + 1))
        if g >= len(got) or not pattern(expected[e]).match(got[g].rstrip()):
            return False
        e, g = e + 1, g + 1
    return g == len(got)


class Sandbox:
    def __init__(self, bindir, root, stand_in=None):
        self.dir = tempfile.mkdtemp(prefix="yard-doc-")
        self.stand_ins = os.path.join(root, "tests", "stand-in-schedulers")
        self.stand_in_state = os.path.join(self.dir, "stand-in") if stand_in else None
        work = os.path.join(self.dir, "work")
        shutil.copytree(os.path.join(root, "examples"), os.path.join(work, "examples"))
        # The XDG directories where a user's are by default (~/.local/state, ~/.config), so
        # that a page may name them so.
        for d in ("run", ".local/state", ".config/switchyard"):
            os.makedirs(os.path.join(self.dir, d), exist_ok=True)
        self.env = dict(os.environ, HOME=self.dir, XDG_RUNTIME_DIR=os.path.join(self.dir, "run"),
                        XDG_STATE_HOME=os.path.join(self.dir, ".local", "state"),
                        XDG_CONFIG_HOME=os.path.join(self.dir, ".config"),
                        PATH=bindir + os.pathsep + os.environ.get("PATH", ""), TERM="dumb",
                        COLUMNS="100", LC_ALL="C.UTF-8")
        self.env.pop("YARD_SOCKET", None)
        self.state = os.path.join(self.dir, "shell-state")
        setup = "cd %s\n" % shlex_quote(work)
        if stand_in:  # its commands first on PATH, before any daemon starts
            r = subprocess.run(["bash", os.path.join(self.stand_ins, "start.sh"), self.stand_in_state, stand_in],
                               env=self.env, capture_output=True, text=True, timeout=60)
            if r.returncode != 0:
                raise RuntimeError("the %s stand-in did not start: %s" % (stand_in, r.stderr))
            setup += r.stdout.strip() + "\n"
        with open(self.state, "w") as f:
            f.write(setup)
        self.servers = []  # (Popen, its output file) of serve blocks, stopped by close()
        self.bindir = bindir
        # The build's Python module: build/python beside build/src/cli.
        self.python_dir = os.path.normpath(os.path.join(bindir, "..", "..", "python"))

    def run(self, cmd):
        script = ('. %s\n%s\nrc=$?\n{ export -p; echo "cd $(printf %%q "$PWD")"; } > %s\nexit $rc\n'
                  % (shlex_quote(self.state), cmd, shlex_quote(self.state)))
        try:
            r = subprocess.run(["bash", "-c", script], env=self.env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=180)
            return r.returncode, r.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            return -1, (e.output or b"").decode("utf-8", "replace") + "\n(timed out after 180 s)"

    def serve(self, cmd, url):
        """Starts `cmd` in the background, in its own session; (0, "") once `url` answers,
        else (1, why, with what it printed)."""
        log = os.path.join(self.dir, "serve-%d.log" % len(self.servers))
        out = open(log, "wb")
        p = subprocess.Popen(["bash", "-c", ". %s\nexec %s" % (shlex_quote(self.state), cmd)], env=self.env,
                             stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        out.close()
        self.servers.append(p)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if p.poll() is not None:
                return 1, "it exited %d before %s answered:\n%s" % (p.returncode, url, open(log).read())
            try:
                NO_PROXY.open(url, timeout=2).close()
                return 0, ""
            except urllib.error.HTTPError:
                return 0, ""  # it answers, whatever it says
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        return 1, "%s did not answer within 30 s; it printed:\n%s" % (url, open(log).read())

    def python(self, code):
        """Runs a page's Python in the shell's directory, with this build's module."""
        path = os.path.join(self.dir, "block.py")
        with open(path, "w") as f:
            f.write(code)
        return self.run("PYTHONPATH=%s${PYTHONPATH:+:$PYTHONPATH} python3 %s"
                        % (shlex_quote(self.python_dir), shlex_quote(path)))

    def close(self):
        for p in self.servers:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        if os.path.exists(os.path.join(self.dir, "run", "switchyard")):
            subprocess.run([os.path.join(self.bindir, "yard"), "server", "stop", "--kill-jobs"],
                           env=self.env, capture_output=True, timeout=120)
        if self.stand_in_state:
            subprocess.run(["bash", os.path.join(self.stand_ins, "stop.sh"), self.stand_in_state],
                           capture_output=True, timeout=120)
        shutil.rmtree(self.dir, ignore_errors=True)


def shlex_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def declared_tests(root):
    """The tests ctest knows, by name: add_test(NAME ...) in the repository's CMakeLists.txt
    files, each GoogleTest test (Suite.Name, of TEST and TEST_F in the C++ sources), and each
    file of a Python suite (yard_pytest_suite(PREFIX): PREFIX.NAME of its test_NAME.py)."""
    names = set()
    tops = ("src", "tests", "bench", "fuzz", "packaging")  # not the build trees
    files = [os.path.join(root, "CMakeLists.txt")]
    for top in tops:
        files += glob.glob(os.path.join(root, top, "**", "CMakeLists.txt"), recursive=True)
    for f in files:
        text = open(f, encoding="utf-8").read()
        names.update(re.findall(r"add_test\(\s*NAME\s+([\w.:/-]+)", text))
        for prefix in re.findall(r"yard_pytest_suite\(\s*(\w+)", text):
            for py in glob.glob(os.path.join(os.path.dirname(f), "test_*.py")):
                names.add(prefix + "." + os.path.basename(py)[len("test_"):-len(".py")])
    for top in tops:
        for f in glob.glob(os.path.join(root, top, "**", "*.cpp"), recursive=True):
            text = open(f, encoding="utf-8", errors="replace").read()
            names.update(a + "." + b for a, b in re.findall(r"^TEST(?:_F)?\(\s*(\w+)\s*,\s*(\w+)\s*\)", text, re.M))
    return names


def check_page(path, shown, bindir, root, elsewhere):
    """(commands run, skips, failures) of one page; blocks run by other tests go into `elsewhere`."""
    found, failures = blocks(path, shown)
    ran, skips, box = 0, [], None
    stand_in = STAND_IN.search(open(path, encoding="utf-8").read())
    stand_in = stand_in.group(1) if stand_in else None
    try:
        for first, lang, body, skip, directive in found:
            if lang == "python":
                if skip:
                    skips.append("%s:%d: %s" % (shown, first, skip))
                    continue
                box = box or Sandbox(bindir, root, stand_in)
                rc, out = box.python("\n".join(body))
                ran += 1
                if rc != 0:
                    failures.append("%s:%d: the Python block exited %d; it printed:\n%s"
                                    % (shown, first, rc, indent(out)))
                continue
            if lang != "console":
                continue
            cmds = commands(first, body)
            if not cmds:
                failures.append("%s:%d: a console block without a command ($ ...)" % (shown, first))
                continue
            if skip:
                skips.append("%s:%d: %s" % (shown, first, skip))
                continue
            if directive and directive[0] == "run-by":
                if directive[1] in declared_tests(root):
                    elsewhere.append("%s:%d: run by %s" % (shown, first, directive[1]))
                else:
                    failures.append("%s:%d: run-by %s: no add_test() of that name" % (shown, first, directive[1]))
                continue
            box = box or Sandbox(bindir, root, stand_in)
            if directive and directive[0] == "serve":
                if len(cmds) != 1:
                    failures.append("%s:%d: a serve block holds one command" % (shown, first))
                    continue
                rc, why = box.serve(cmds[0].text, directive[1])
                ran += 1
                if rc != 0:
                    failures.append("%s:%d: `%s`: %s" % (shown, cmds[0].line, cmds[0].text, indent(why)))
                continue
            until = directive[1] if directive and directive[0] == "until" else 0
            for c in cmds:
                deadline = time.monotonic() + until
                while True:
                    rc, out = box.run(c.text)
                    got = out.rstrip("\n").split("\n") if out.strip() else []
                    if (rc == c.rc and (not c.expected or matches(c.expected, got))) or time.monotonic() >= deadline:
                        break
                    time.sleep(0.5)  # an `until` block: what it shows comes true within its seconds
                ran += 1
                if rc != c.rc:
                    failures.append("%s:%d: `%s` exited %d, the page says %d; it printed:\n%s"
                                    % (shown, c.line, c.text, rc, c.rc, indent(out)))
                elif c.expected and not matches(c.expected, got):
                    failures.append("%s:%d: `%s` printed what the page does not show.\n  the page:\n%s\n"
                                    "  printed:\n%s" % (shown, c.line, c.text,
                                                        indent("\n".join(c.expected)), indent(out)))
    finally:
        if box:
            box.close()
    return ran, skips, failures


def indent(text):
    return "\n".join("    | " + l for l in text.rstrip("\n").split("\n"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the directory holding this build's yard")
    ap.add_argument("--root", required=True, help="the repository")
    ap.add_argument("pages", nargs="*")
    a = ap.parse_args()
    pages = a.pages or [os.path.join(a.root, "README.md")] + sorted(
        glob.glob(os.path.join(a.root, "docs", "**", "*.md"), recursive=True))
    total, all_skips, all_failures, elsewhere = 0, [], [], []
    for p in pages:
        shown = os.path.relpath(p, a.root)
        ran, skips, failures = check_page(p, shown, os.path.abspath(a.bin), a.root, elsewhere)
        print("%-40s %3d commands run, %d blocks skipped, %d failures" % (shown, ran, len(skips),
                                                                         len(failures)))
        total += ran
        all_skips += skips
        all_failures += failures
    for s in elsewhere:
        print("elsewhere: " + s)
    for s in all_skips:
        print("skipped: " + s)
    for f in all_failures:
        print("FAILED: " + f, file=sys.stderr)
    print("%d commands run from %d pages, %d blocks run by other tests, %d blocks skipped, %d failures"
          % (total, len(pages), len(elsewhere), len(all_skips), len(all_failures)))
    return 1 if all_failures else 0


if __name__ == "__main__":
    sys.exit(main())
