"""What every flux command shares: settings, job ids (FLUIDs and their encodings), idsets,
messages, and the words for a broker out of reach.

Facts from flux-core (flux-framework/flux-core, v0.65.0 and master @ 4a5e79f):
src/common/libutil/fluid.c (FLUID layout [ts:40 id:14 seq:10], base58 alphabet, the `ƒ`
or `f` prefix, fluid_parse), src/bindings/python/flux/util.py (CLIMain's
`%(name)s: %(levelname)s: %(message)s`), flux/core/handle.py and
src/common/libflux/connector_local.c (`Unable to connect to Flux: broker socket %s was
not found`). FLUX.md lists what is UNVERIFIED.
"""

import locale
import os
import re
import sys
import time

from standin import core

DEFAULTS = {
    "inactive_age": 1000000000,   # job-manager.inactive-age-limit: seconds kept INACTIVE
    "feasibility": 1,             # 1: refuse an unsatisfiable job at submission (the
                                  # ingest feasibility validator); 0: accept it, it then
                                  # fails with an `alloc` exception (the scheduler denies it)
    "queues": "",                 # named queues, comma separated ("": none configured)
    "uri": "local:///run/flux/local",  # FLUX_URI of the instance
    "instance_uptime": 0.0,       # seconds the instance had been up when the first job came
    "shell_utf8": 0,              # 1: the job shell's locale is UTF-8 (FLUX_JOB_ID `ƒ...`)
}

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B58_VALUE = {c: i for i, c in enumerate(B58)}
TS_BITS, ID_BITS, SEQ_BITS = 40, 14, 10


class FluxError(Exception):
    """A command's refusal: the whole stderr text and the exit status."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.message, self.status = message, status


def error(cmd, text):
    """CLIMain's logging of an exception: `flux-submit: ERROR: <text>`, exit 1."""
    return FluxError("flux-%s: ERROR: %s\n" % (cmd, text), 1)


def usage_error(prog, usage, text):
    """argparse's refusal: the usage line, then `<prog>: error: <text>`, exit 2."""
    return FluxError("usage: %s\n%s: error: %s\n" % (usage, prog, text), 2)


def unsupported(what):
    """What the stand-in does not do (FLUX.md): exit 2, never a Flux message."""
    return FluxError("flux: the stand-in does not support %s\n" % what, 2)


def write_err(text):
    sys.stderr.buffer.write(text.encode("utf-8", "surrogateescape"))
    sys.stderr.flush()


def write_out(text):
    sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
    sys.stdout.flush()


def cfg_value(cfg, key):
    return cfg.get(key, DEFAULTS[key])


# =============================================================== FLUIDs

def command_utf8(environ=None):
    """fluid.c is_utf8_locale() in a flux command: MB_CUR_MAX > 1, CODESET "UTF-8" and no
    FLUX_F58_FORCE_ASCII. The commands are Python programs, as flux's are: Python coerces
    the C locale to C.UTF-8 unless LC_ALL is set (PEP 538), so only LC_ALL=C (or POSIX,
    or a non-UTF-8 locale) gives the ASCII `f`."""
    environ = os.environ if environ is None else environ
    if environ.get("FLUX_F58_FORCE_ASCII"):
        return False
    try:
        return locale.nl_langinfo(locale.CODESET) == "UTF-8"
    except (AttributeError, ValueError):
        return False


def b58(n):
    if n == 0:
        return B58[0]
    out = []
    while n:
        n, rem = divmod(n, 58)
        out.append(B58[rem])
    return "".join(reversed(out))


def f58(fluid, utf8=None):
    """The F58 form: `ƒ` + base58 in a UTF-8 locale, else `f` + base58."""
    if utf8 is None:
        utf8 = command_utf8()
    return ("\u0192" if utf8 else "f") + b58(fluid)


def encode(fluid, to, utf8=None):
    """flux job id --to / {{id.X}}: dec, f58, f58plain, hex, dothex, kvs; None if unknown."""
    words = [(fluid >> s) & 0xFFFF for s in (48, 32, 16, 0)]
    forms = {"dec": str(fluid), "f58plain": "f" + b58(fluid), "hex": "0x%x" % fluid,
             "dothex": "%04x.%04x.%04x.%04x" % tuple(words),
             "kvs": "job.%04x.%04x.%04x.%04x" % tuple(words)}
    if to == "f58":
        return f58(fluid, utf8)
    return forms.get(to)


def _valid(value):
    return value if 0 <= value < (1 << 64) and value >> (ID_BITS + SEQ_BITS) < (1 << TS_BITS) \
        else None


def parse_jobid(text):
    """fluid_parse(): dotted hex (`job.` prefix allowed), F58 (`ƒ` or `f`), `0x` hex or
    decimal; leading and trailing blanks allowed. The integer, or None if invalid
    (mnemonic words and emoji are not decoded by the stand-in)."""
    s = text.lstrip()
    if s.startswith("job."):
        s = s[4:]
    if "." in s:
        m = re.match(r"^([0-9a-fA-F]{1,4})\.([0-9a-fA-F]{1,4})\.([0-9a-fA-F]{1,4})\."
                     r"([0-9a-fA-F]{1,4})$", s)
        if not m:
            return None
        value = 0
        for part in m.groups():
            value = (value << 16) | int(part, 16)
        return _valid(value)
    if "-" in s:
        return None                         # mnemonic words
    for prefix in ("\u0192", "f"):
        if s.startswith(prefix):
            digits = s[len(prefix):]
            if not digits or len(digits) > 12 or any(c not in B58_VALUE for c in digits):
                return None
            value = 0
            for c in digits:
                value = value * 58 + B58_VALUE[c]
            return _valid(value)
    s = s.rstrip()
    if re.match(r"^0x[0-9a-fA-F]+$", s):
        return _valid(int(s, 16))
    if re.match(r"^[0-9]+$", s):
        return _valid(int(s))
    return None


def next_fluid(cur, store):
    """fluid_generate(): [ms since the instance began:40 | generator id 0:14 | seq:10],
    increasing. The instance began when start.sh created it, `instance_uptime` earlier."""
    uptime = float(cfg_value(store.cfg, "instance_uptime"))
    epoch = os.stat(os.path.join(store.dir, core.CONFIG_NAME)).st_mtime - uptime
    ts = max(0, int((time.time() - epoch) * 1000))
    last = int(store.meta("flux_last_fluid", "0", cur=cur))
    last_ts, last_seq = last >> (ID_BITS + SEQ_BITS), last & ((1 << SEQ_BITS) - 1)
    seq = 0
    if ts <= last_ts and last:
        ts, seq = last_ts, last_seq + 1
        if seq >= (1 << SEQ_BITS):
            ts, seq = ts + 1, 0
    fluid = (ts << (ID_BITS + SEQ_BITS)) | seq
    if fluid >= (1 << 63):
        raise FluxError("flux: the stand-in's FLUIDs are exhausted (instance_uptime too "
                        "large)\n", 2)
    store.set_meta(cur, "flux_last_fluid", fluid)
    return fluid


# =============================================================== idsets

def parse_idset(text):
    """RFC 22 idset `1-4,7` (or `[1-4,7]`) -> sorted ids, or None if malformed."""
    s = text.strip()
    if s.startswith("[") and s.endswith("]"):
        s = s[1:-1]
    out = set()
    for part in s.split(","):
        m = re.match(r"^(\d+)(?:-(\d+))?$", part.strip())
        if not m:
            return None
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if hi < lo:
            return None
        out.update(range(lo, hi + 1))
    return sorted(out)


def encode_idset(ids, brackets=False):
    """[0, 1, 2, 5] -> `0-2,5` (with brackets: `[0-2,5]` when more than one id)."""
    ids, parts, i = sorted(ids), [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        parts.append(str(ids[i]) if i == j else "%d-%d" % (ids[i], ids[j]))
        i = j + 1
    text = ",".join(parts)
    return "[%s]" % text if brackets and len(ids) > 1 else text


# =============================================================== jobs and users

def find_job(cur, fluid):
    if fluid is None or fluid >= (1 << 63):
        return None                         # no FLUID the stand-in made is that large
    row = cur.execute("SELECT * FROM jobs WHERE seq=? AND kind='job'", (fluid,)).fetchone()
    return core.decode(row) if row is not None else None


def find_for_ctl(cur, cfg, text):
    """standin-ctl preempt/node-fail ID: a job id in any encoding."""
    fluid = parse_jobid(text)
    job = find_job(cur, fluid) if fluid is not None else None
    return [job] if job else []


def display_id(job):
    return "f" + b58(job["seq"])


def user_name(uid=None):
    return core.user_info(os.getuid() if uid is None else uid)[0]


# =============================================================== out of reach

def socket_path(cfg):
    """The broker socket a command would connect to: FLUX_URI's, else the instance's."""
    uri = os.environ.get("FLUX_URI") or str(cfg_value(cfg, "uri"))
    return uri[len("local://"):] if uri.startswith("local://") else uri


def refused(cmd):
    """The broker cannot be reached (outage, or the server is not running): flux.Flux()
    raises OSError(ENOENT, "Unable to connect to Flux: broker socket ... was not found")
    and CLIMain logs it; exit 1."""
    def report(store):
        write_err("flux-%s: ERROR: Unable to connect to Flux: broker socket %s was not "
                  "found\n" % (cmd, socket_path(store.cfg)))
        sys.exit(1)
    return report


def client(cmd):
    """The instance for flux-<cmd>, once its arguments were accepted."""
    return core.client_store("flux", refused(cmd))
