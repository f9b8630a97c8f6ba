"""The queue limits every stand-in lists (config.py DEFAULTS `queue_*`), and the small
value formats the listing commands share.

    queue_max_walltime      seconds a job may run at most (0: no limit)
    queue_default_walltime  seconds a job gets when it asks for none (0: none)
    queue_max_cpus          CPUs one job may ask for at most (0: no limit)
    queue_max_mem           MiB one job may ask for at most (0: no limit)

The limits are listed (PBS/Torque `qstat -Q -f`, LSF `bqueues -l`, Flux `flux queue list`),
not enforced: a job asking for more is still accepted. /work/notes/queue-formats.md and
the schedulers' pages (PBS.md, TORQUE.md, LSF.md, FLUX.md) give the sources.
"""

import math

KEYS = ("queue_max_walltime", "queue_default_walltime", "queue_max_cpus", "queue_max_mem")


class Limits:
    """An instance's queue limits; None where the setting is 0 (no limit)."""

    def __init__(self, cfg):
        def get(key):
            try:
                value = float(cfg.get(key) or 0)
            except (TypeError, ValueError):
                value = 0.0
            if value <= 0 or math.isinf(value) or math.isnan(value):
                return None
            return int(value) if value == int(value) else value

        self.max_walltime = get("queue_max_walltime")
        self.default_walltime = get("queue_default_walltime")
        self.max_cpus = get("queue_max_cpus")
        self.max_mem = get("queue_max_mem")
        if self.max_cpus is not None:
            self.max_cpus = int(self.max_cpus)


def hms(seconds):
    """PBS/Torque duration: HH:MM:SS, hours not wrapped (720:00:00)."""
    s = int(round(seconds))
    return "%02d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def pbs_size(mib):
    """PBS/Torque size as an admin would set it: the largest of kb, mb, gb, tb that
    divides the amount exactly (16384 MiB -> 16gb, 1536 -> 1536mb)."""
    kb = int(round(mib * 1024))
    for unit, factor in (("tb", 1024 ** 3), ("gb", 1024 ** 2), ("mb", 1024)):
        if kb % factor == 0:
            return "%d%s" % (kb // factor, unit)
    return "%dkb" % kb


def lsf_mem(mib):
    """LSF 10 limit size: scaled to the largest unit (K, M, G, T) giving at least 1, an
    integer when whole, else one decimal (48 G, 48.8 G, 500 M)."""
    value, unit = float(mib) * 1024, "K"
    for next_unit in ("M", "G", "T"):
        if value < 1024:
            break
        value, unit = value / 1024, next_unit
    number = "%d" % value if value == int(value) else "%.1f" % value
    return number, unit
