"""How a stand-in starts a job's shell and cleans up after it, whatever the scheduler.

The job's stdout and stderr are opened by the job's own wrapper shell (as the job's
user), so an unwritable path gives /dev/null instead of failing the job; real batch
systems write them on the execution host and copy them at the end, here they grow
while the job runs.
"""

import os
import shutil

# Opened by the job's own shell; "$1" is the output path, "$2" the error path.
_OUT = 'if : 2>/dev/null >>"$1"; then exec 1>"$1"; else exec 1>/dev/null; fi'
_ERR = 'if : 2>/dev/null >>"$2"; then exec 2>"$2"; else exec 2>/dev/null; fi'


def wrapped_command(out, err, join, command, name="pbs_job"):
    """argv of `/bin/bash -c <redirections>; exec command...`. join: oe (both to out),
    eo (both to err) or n (separate; the same path twice is merged too)."""
    if join == "oe" or (join == "n" and out == err):
        redirect = _OUT + "; exec 2>&1"
    elif join == "eo":
        redirect = _ERR + "; exec 1>&2"
    else:
        redirect = _OUT + "; " + _ERR
    return ["/bin/bash", "-c", redirect + '; shift 2; exec "$@"', name, out, err] + list(command)


def make_tmpdir(path, uid, gid):
    os.makedirs(path, exist_ok=True)
    if os.geteuid() == 0:
        os.chown(path, uid, gid)
    os.chmod(path, 0o700)


def remove_run_files(nodefile, tmpdir):
    try:
        os.unlink(nodefile)
    except OSError:
        pass
    if os.path.isdir(tmpdir):
        shutil.rmtree(tmpdir, ignore_errors=True)


def append_notice(run, text):
    """Append the execution host's kill notice to the job's stderr (its stdout when
    joined oe). run: [out, err, join] as recorded when the job started."""
    if not run:
        return
    try:
        out, err, join = run
        target = out if join == "oe" else err
        if target != "/dev/null" and os.path.exists(target):
            with open(target, "a") as f:
                f.write(text)
    except (OSError, ValueError):
        pass
