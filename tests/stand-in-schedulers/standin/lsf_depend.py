"""bsub -w 'dependency_expression': parsing, checking at submission, and evaluation.

    done(ID)  ended(ID)  exit(ID[,[op] code])  started(ID)  ID (= done)  "name"  name*
    && || ! ( )
ID is a job (`12`), an array (`12`: all its elements), elements (`12[3]`, `12[1-4]`),
or a job name of the submitter's (quoted or not; a trailing * matches a prefix): every
job it names must satisfy the condition.

Evaluation is OpenLava's mbd.dep.c (evalDepCond, evalJobDep), three-valued: "ok" (TRUE),
"wait" (FALSE: not yet) and "never" (INVALID: a job the condition needs has finished the
other way, or is no longer known). An atom is TRUE when every job it names satisfies it,
INVALID as soon as one that does not has finished, else FALSE. AND: INVALID if either
side is (left first), FALSE if one is, else TRUE; OR: TRUE if either is, a FALSE left
side makes an INVALID right side FALSE; NOT: TRUE for FALSE or INVALID, FALSE for TRUE.
"""

import re

from standin.lsf_common import not_submitted, parse_id, unsupported

CONDITIONS = ("done", "ended", "exit", "started")
UNSUPPORTED = ("post_done", "post_err", "external", "numdone", "numended", "numexit",
               "numhold", "numpend", "numrun", "numstart")
TOKEN_RE = re.compile(r'\s*(&&|\|\||!=|>=|<=|==|[!()<>,]|"[^"]*"|[^\s&|!(),<>=]+)')


def syntax_error(text):
    return not_submitted("%s: Dependency condition syntax error" % text)


def tokens(text):
    out, pos = [], 0
    while pos < len(text.rstrip()):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise syntax_error(text)
        out.append(m.group(1))
        pos = m.end()
    return out


class Parser:
    def __init__(self, text):
        self.text, self.toks, self.i = text, tokens(text), 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise syntax_error(self.text)
        self.i += 1
        return tok

    def parse(self):
        if not self.toks:
            raise syntax_error(self.text)
        tree = self.expr()
        if self.peek() is not None:
            raise syntax_error(self.text)
        return tree

    def expr(self):
        tree = self.term()
        while self.peek() == "||":
            self.take()
            tree = ["or", tree, self.term()]
        return tree

    def term(self):
        tree = self.factor()
        while self.peek() == "&&":
            self.take()
            tree = ["and", tree, self.factor()]
        return tree

    def factor(self):
        tok = self.peek()
        if tok == "!":
            self.take()
            return ["not", self.factor()]
        if tok == "(":
            self.take()
            tree = self.expr()
            self.take(")")
            return tree
        word = self.take()
        if word in CONDITIONS + UNSUPPORTED and self.peek() == "(":
            if word in UNSUPPORTED:
                raise unsupported("bsub", "the dependency condition %s()" % word)
            self.take("(")
            target = self.operand(self.take())
            op, code = None, None
            if word == "exit" and self.peek() == ",":
                self.take()
                if self.peek() in ("==", "!=", ">", "<", ">=", "<="):
                    op = self.take()
                code = self.take()
                if not re.match(r"^\d+$", code):
                    raise syntax_error(self.text)
                op, code = op or "==", int(code)
            self.take(")")
            return ["cond", word, target, op, code]
        return ["cond", "done", self.operand(word), None, None]

    def operand(self, tok):
        if tok in ("&&", "||", "!", "(", ")", ","):
            raise syntax_error(self.text)
        if tok.startswith('"'):
            return {"name": tok[1:-1], "shown": tok[1:-1]}
        if tok[0].isdigit():
            ref = parse_id(tok)
            if ref is None:
                raise syntax_error(self.text)
            return {"seq": ref[0], "indices": ref[1], "shown": tok}
        return {"name": tok, "shown": tok}


def parse(text):
    return Parser(text).parse()


def _named(cur, name, owner):
    if name.endswith("*"):
        rows = cur.execute("SELECT seq FROM jobs WHERE kind IN ('job', 'array') AND owner=? "
                           "AND substr(json_extract(attrs, '$.name'), 1, ?)=? ORDER BY seq",
                           (owner, len(name) - 1, name[:-1]))
    else:
        rows = cur.execute("SELECT seq FROM jobs WHERE kind IN ('job', 'array') AND owner=? "
                           "AND json_extract(attrs, '$.name')=? ORDER BY seq", (owner, name))
    return [r["seq"] for r in rows]


def resolve(cur, tree, owner):
    """Check every job the expression names exists (LSF refuses the job otherwise:
    `<id>: No matching job found. Job not submitted.`); names become job numbers."""
    if tree[0] in ("and", "or"):
        resolve(cur, tree[1], owner)
        resolve(cur, tree[2], owner)
    elif tree[0] == "not":
        resolve(cur, tree[1], owner)
    else:
        target = tree[2]
        if "name" in target:
            target["seqs"] = _named(cur, target["name"], owner)
            found = bool(target["seqs"])
        else:
            found = _units(cur, target) is not None
        if not found:
            raise not_submitted("%s: No matching job found" % target["shown"])


COLUMNS = "rid, kind, idx, phase, how, exit_status, start_time, run_count"


def _units(cur, target):
    """The job rows a target names (an array: its elements), or None if none is known."""
    units = []
    for seq in target.get("seqs", [target.get("seq")]):
        row = cur.execute("SELECT %s FROM jobs WHERE seq=? AND kind IN ('job', 'array')"
                          % COLUMNS, (seq,)).fetchone()
        if row is None:
            continue
        if row["kind"] == "job":
            if target.get("indices") is None:
                units.append(row)
            continue
        subs = cur.execute("SELECT %s FROM jobs WHERE parent=? ORDER BY idx" % COLUMNS,
                           (row["rid"],)).fetchall()
        wanted = target.get("indices")
        units += [s for s in subs if wanted is None or s["idx"] in wanted]
    return units or None


def _holds(kind, job, op, code):
    done = job["phase"] == "done"
    ok = done and job["how"] == "ok"
    if kind == "done":
        return ok
    if kind == "ended":
        return done
    if kind == "started":
        return bool(job["start_time"]) or job["run_count"] > 0
    if not done or ok:
        return False                                        # exit
    value = job["exit_status"] or 0
    return op is None or {"==": value == code, "!=": value != code, ">": value > code,
                          "<": value < code, ">=": value >= code, "<=": value <= code}[op]


def evaluate(cur, tree):
    """'ok', 'wait' or 'never' (TRUE, FALSE, INVALID)."""
    kind = tree[0]
    if kind == "or":
        left = evaluate(cur, tree[1])
        if left == "ok":
            return "ok"
        right = evaluate(cur, tree[2])
        return "ok" if right == "ok" else ("wait" if left == "wait" else right)
    if kind == "and":
        left = evaluate(cur, tree[1])
        if left == "never":
            return "never"
        right = evaluate(cur, tree[2])
        if left == "wait":
            return "never" if right == "never" else "wait"
        return right
    if kind == "not":
        return "wait" if evaluate(cur, tree[1]) == "ok" else "ok"
    _, cond, target, op, code = tree
    units = _units(cur, target)
    if units is None:
        return "never"                  # forgotten (CLEAN_PERIOD): no job record left
    for job in units:
        if not _holds(cond, job, op, code):
            return "never" if job["phase"] == "done" else "wait"
    return "ok"
