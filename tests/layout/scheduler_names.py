#!/usr/bin/env python3
"""A scheduler is named only in its own folder.

Everything yard knows of one batch scheduler lives in src/backends/<name>/ (its backend and
its script language) and registers from there; nothing else under src/ names it, so that a
scheduler is added or removed by its folder alone. This test lists every line under src/
(tests and fixtures aside) that names a scheduler outside its folder: its name, its
commands, its directive prefix or its variables. Slurm is the exception: sbatch's options
are yard's own job language, so its words are everywhere.

Usage: scheduler_names.py SOURCE_DIR   (exit 1 and the lines, when there are any)
"""
import os
import re
import sys
import tempfile

# Each scheduler's words, by its folder's name. qsub, qstat and qdel are a family's.
WORDS = {
    'sge': ['sge', 'grid engine', 'gridengine', 'qconf', 'qacct', 'qrsh', 'sge_task_id'],
    'oar': ['oar', 'oarsub', 'oarstat', 'oardel', 'oarsh', 'oar_nodefile'],
    'lsf': ['lsf', 'bsub', 'bjobs', 'bkill', 'blaunch', 'lsb_jobid', 'lsb_jobindex', 'openlava'],
    'pbs': ['pbs', 'openpbs', 'qsub', 'qstat', 'qdel', 'pbsdsh'],
    'torque': ['torque'],
    'htcondor': ['htcondor', 'condor', 'condor_submit', 'condor_q', 'condor_rm'],
    'flux': ['flux'],
}
# Folders that may name each other: PBS Pro's and Torque's share a language and commands.
FAMILIES = [{'pbs', 'torque'}]
SHARED = {'qsub': {'pbs', 'torque', 'sge'}, 'qstat': {'pbs', 'torque', 'sge'}, 'qdel': {'pbs', 'torque', 'sge'}}
# sbatch's own option named after another scheduler.
SLURM_WORDS = ['ignore-pbs']


def allowed_in(folder):
    for family in FAMILIES:
        if folder in family:
            return family
    return {folder} if folder else set()


def patterns():
    out = []
    for scheduler, words in WORDS.items():
        for w in words:
            out.append((scheduler, w, re.compile(r'(?<![a-z0-9])' + re.escape(w) + r'(?![a-z0-9])')))
    return out


def offending_lines(source):
    found = []
    pats = patterns()
    src = os.path.join(source, 'src')
    for root, dirs, files in os.walk(src):
        dirs.sort()
        rel = os.path.relpath(root, src).split(os.sep)
        folder = rel[1] if len(rel) > 1 and rel[0] in ('backends', 'frontends') else None
        allowed = allowed_in(folder)
        for name in sorted(files):
            if '_test' in name or 'testing' in name or 'fixture' in name:
                continue
            path = os.path.join(root, name)
            try:
                with open(path, encoding='utf-8') as f:
                    lines = f.read().split('\n')
            except (UnicodeDecodeError, OSError):
                continue
            for number, line in enumerate(lines, 1):
                low = line.lower()
                for w in SLURM_WORDS:
                    low = low.replace(w, '')
                words = sorted({w for s, w, p in pats
                                if s not in allowed and not (SHARED.get(w, set()) & allowed) and p.search(low)})
                if words:
                    found.append(f'{os.path.relpath(path, source)}:{number}: names {", ".join(words)}: {line.strip()[:120]}')
    return found


def self_test():
    """The check finds a name planted outside its folder and none inside it."""
    with tempfile.TemporaryDirectory() as d:
        for rel, text in [('src/core/a.h', '// as qsub -W depend takes them\n'),
                          ('src/backends/pbs/b.h', '// qsub, qstat, Torque\n'),
                          ('src/backends/sge/c.h', '// qsub -cwd\n'),
                          ('src/backends/slurm/d.cpp', 'w.add("--ignore-pbs");\n'),
                          ('src/cli/e_test.cpp', '// bsub\n'),
                          ('src/jobtext/f.cpp', 'void flux_words();\n')]:
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            with open(os.path.join(d, rel), 'w', encoding='utf-8') as f:
                f.write(text)
        found = offending_lines(d)
        want = ['src/core/a.h:1: names qsub', 'src/jobtext/f.cpp:1: names flux']
        got = [line.split(':', 3)[0] + ':' + line.split(':', 3)[1] + ':' + line.split(':', 3)[2] for line in found]
        if got != want:
            print('scheduler_names.py: its self-test found', found, 'expected', want)
            return False
    return True


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().split('\n')[-1])
        return 2
    if not self_test():
        return 1
    found = offending_lines(sys.argv[1])
    for line in found:
        print(line)
    if found:
        print(f'{len(found)} line(s) under src/ name a scheduler outside its folder (src/backends/NAME/): '
              'say what the code needs of a scheduler instead, or move the code into the folder')
        return 1
    print('every scheduler is named only in its own folder')
    return 0


if __name__ == '__main__':
    sys.exit(main())
