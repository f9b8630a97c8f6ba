"""The submit description file: its lines, macros and queue statements.

As condor_submit reads it (htcondor/htcondor @ 7491a145: src/condor_utils/config.cpp
Parse_macros, src/condor_utils/submit_utils.cpp parse_q_args/is_queue_statement,
src/condor_submit.V6/submit.cpp submit_jobs):
  * `key = value` (keys case-insensitive), `#` comment lines, blank lines, a trailing `\\`
    continuing a line; `+Attr = value` and `MY.Attr = value` go into the job ad as they are;
  * `$(name)` expands another key, a queue variable or `$(Cluster)`/`$(ClusterId)`,
    `$(Process)`/`$(ProcId)`, `$(Step)`, `$(ItemIndex)`/`$(Row)`; `$(name:default)`,
    `$ENV(NAME)`, `$(DOLLAR)` (a `$`); an unknown name expands to nothing; `$$(...)` stays;
  * `queue [N]`, `queue [N] [VAR[,VAR...]] in|from (items)` (the list may run over several
    lines up to `)`; `in` items split at commas and blanks, `from` one item a line);
    VAR defaults to `Item`. Several queue statements add procs to the one cluster.
A line that is neither gives `invalid queue statement.` (HTCONDOR.md).
"""

import os
import re

from standin.htcondor_common import unsupported

QUEUE_RE = re.compile(r"^(?:queue|iterate)(?:\s+(.*))?$", re.I | re.S)
NAME_RE = re.compile(r"^[A-Za-z0-9_.]+$")
MACRO_RE = re.compile(r"(?<!\$)\$(ENV)?\(([^()$]*)\)", re.I)
DOLLAR = "\x00DOLLAR\x00"


class SubmitSyntaxError(Exception):
    """A parse error at a line: errmsg, the error stack's extra text."""

    def __init__(self, line, errmsg, extra=""):
        super().__init__(errmsg)
        self.line, self.errmsg, self.extra = line, errmsg, extra


class QueueStatement:
    def __init__(self, line, count, variables, items):
        self.line, self.count, self.variables, self.items = line, count, variables, items

    def procs(self):
        """[(live variables)] in ProcId order: each item `count` times."""
        out = []
        for index, item in enumerate(self.items):
            for step in range(self.count):
                live = {"step": str(step), "itemindex": str(index), "row": str(index)}
                if item is not None:
                    values = item if isinstance(item, list) else [item]
                    for i, var in enumerate(self.variables):
                        live[var.lower()] = values[i] if i < len(values) else ""
                out.append(live)
        return out


class SubmitFile:
    """The statements of a submit description, read in order."""

    def __init__(self, text, filename):
        self.filename = filename
        self.physical = text.replace("\r\n", "\n").split("\n")
        if self.physical and self.physical[-1] == "":
            self.physical.pop()
        self.pos = 0          # next physical line (0-based)
        self.line = 0         # number of the last physical line read

    def _getline(self):
        """The next logical line, trimmed (continuations joined), or None at the end."""
        parts = []
        while self.pos < len(self.physical):
            raw = self.physical[self.pos]
            self.pos += 1
            self.line = self.pos
            text = raw.strip()
            if text.endswith("\\"):
                parts.append(text[:-1])
                continue
            parts.append(text)
            return "".join(parts).strip()
        return "".join(parts).strip() if parts else None

    def rest_has_data(self):
        """True (and the line number read) when a non-comment line follows."""
        while True:
            text = self._getline()
            if text is None:
                return False
            if text and not text.startswith("#"):
                return True

    def statements(self):
        """Yield ('set', line, key, value), ('plus', line, name, value) and
        ('queue', line, args) in order; raises SubmitSyntaxError."""
        while True:
            text = self._getline()
            if text is None:
                return
            if not text or text.startswith("#"):
                continue
            m = QUEUE_RE.match(text)
            if m:
                yield ("queue", self.line, (m.group(1) or "").strip())
                continue
            yield self._assignment(text)

    def _assignment(self, text):
        m = re.match(r"^([^\s=:]*)\s*([=:]|@=|\+=)?\s*(.*)$", text, re.S)
        name, op, rhs = m.group(1), m.group(2), m.group(3)
        if op != "=":
            raise SubmitSyntaxError(
                self.line, "invalid queue statement.",
                'Submit:-1:Error "%s", Line %d: cannot parse: %s\n'
                % (self.filename, self.line, text))
        if name.startswith(("+", "-")) and len(name) > 1:
            return ("plus", self.line, name[1:], rhs if name[0] == "+" else "")
        if name.lower().startswith("my.") and len(name) > 3:
            return ("plus", self.line, name[3:], rhs)
        if not NAME_RE.match(name):
            raise SubmitSyntaxError(
                self.line, "",
                'Submit:-1:Error "%s", Line %d: Illegal Identifier: <%s>\n'
                % (self.filename, self.line, name))
        return ("set", self.line, name.lower(), rhs)

    # ------------------------------------------------------------ queue statements

    def parse_queue(self, args, line):
        """A queue statement's (expanded) arguments -> QueueStatement."""
        m = re.match(r"^(.*?)(?:^|\s)(in|from|matching)(?:\s+(.*)|\s*(\(.*))?$", args, re.I | re.S)
        if not m:
            return QueueStatement(line, self._count(args, line), [], [None])
        head, keyword = m.group(1).strip(), m.group(2).lower()
        tail = m.group(3) or m.group(4) or ""
        words = [w for w in re.split(r"[\s,]+", head) if w]
        count = 1
        if words and re.match(r"^\d+$", words[0]):
            count = int(words.pop(0))
        variables = words or ["Item"]
        if keyword == "matching" or tail.strip().startswith("["):
            raise unsupported("condor_submit", "'queue ... %s' or slices" % keyword)
        items = self._items(tail.strip(), keyword, line)
        if keyword == "in":
            items = [[w] for text in items for w in re.split(r"[\s,]+", text) if w]
        else:
            items = [[w for w in re.split(r"[\s,]+", text) if w] for text in items]
        return QueueStatement(line, count, variables, items)

    def _count(self, text, line):
        text = text.strip()
        if not text:
            return 1
        if not re.match(r"^[+]?\d+$", text):
            raise SubmitSyntaxError(line, "Invalid Queue count expression")
        return int(text)

    def _items(self, tail, keyword, line):
        """The item lines: `(a, b)` on the queue line, `(` followed by lines up to `)`,
        or the words after `in` on the line itself."""
        if not tail.startswith("("):
            if keyword == "from":
                raise unsupported("condor_submit", "'queue ... from FILE'")
            return [tail]
        body = tail[1:]
        if ")" in body:
            return [body[:body.index(")")]]
        lines = [body] if body.strip() else []
        while True:
            text = self._getline()
            if text is None:
                raise SubmitSyntaxError(
                    self.line, "Reached end of file without finding closing brace ')'")
            if text.startswith(")"):
                return [t for t in lines if t.strip() and not t.strip().startswith("#")]
            lines.append(text)


class Hash:
    """The submit hash: keys (lower case) -> raw values, and their expansion."""

    def __init__(self, predefined=None):
        self.values = dict(predefined or {})
        self.plus = []          # [(name, raw value)] in order; a later one replaces
        self.lines = {}         # key -> line number it was set on

    def set(self, key, value, line=0):
        self.values[key.lower()] = value
        self.lines[key.lower()] = line

    def set_plus(self, name, value):
        self.plus = [(n, v) for n, v in self.plus if n.lower() != name.lower()]
        self.plus.append((name, value))

    def raw(self, *keys):
        for key in keys:
            if key.lower() in self.values:
                return self.values[key.lower()]
        return None

    def expand(self, text, live):
        """Every $(...) in text, repeatedly (a value may hold macros itself)."""
        if text is None:
            return None

        def lookup(m):
            inner = m.group(2)
            name, default = (inner.split(":", 1) + [None])[:2] if ":" in inner else (inner, None)
            key = name.strip().lower()
            if m.group(1):
                return os.environ.get(name.strip(), default or "")
            if key == "dollar":
                return DOLLAR
            if key in live:
                return live[key]
            if key in self.values:
                return self.values[key]
            return default if default is not None else ""
        for _ in range(64):
            new = MACRO_RE.sub(lookup, text)
            if new == text:
                break
            text = new
        return text.replace(DOLLAR, "$")

    def get(self, live, *keys):
        """The expanded value of the first key set, stripped; None if none is."""
        value = self.raw(*keys)
        return None if value is None else self.expand(value, live).strip()
