"""Slurm's own formats and words, character for character where Slurm 22.05 fixes them
(its sources: squeue/print.c, sacct/print.c and common/print_fields.c, sbatch.c,
scancel.c, api/job_info.c, sinfo/opts.c), and `yard slurm-commands env`."""

import os
import re
import subprocess

SQUEUE_HEADER = "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)"
SACCT_HEADER = ("JobID           JobName  Partition    Account  AllocCPUS      State ExitCode \n"
                "------------ ---------- ---------- ---------- ---------- ---------- -------- ")


def submit(shell, *words):
    _, out, _ = shell.run("sbatch --parsable " + " ".join(words))
    return out.strip()


def test_squeue_columns_widths_and_array_lines(shell):
    running = submit(shell, "-J a-very-long-name --wrap 'sleep 300'")
    array = submit(shell, "-J arr -a 1-6%1 --wrap 'sleep 300'")
    try:
        _, out, _ = shell.run("squeue")
        lines = out.splitlines()
        assert lines[0] == SQUEUE_HEADER
        mine = [l for l in lines if l.split()[0] == running]
        assert len(mine) == 1 and re.fullmatch(r" +\d+ +local a-very-l +\S+ +R +\d+:\d\d +1 \S+", mine[0]), mine
        # An array's pending elements are one line, ARRAY_[2-6], unless -r.
        pending = [l for l in lines if l.split()[0].startswith(array + "_[")]
        assert pending and pending[0].split()[0] == f"{array}_[2-6]" and "(JobArrayTaskLimit)" in pending[0]
        _, out, _ = shell.run("squeue -r -h -o '%i %t'")
        assert f"{array}_6 PD" in out.splitlines()
        # -O: 20 wide each, no separator; a width and suffix of one's own.
        _, out, _ = shell.run(f"squeue -O 'JobID,Name:.5 ,State' -j {running}")
        assert out.splitlines() == ["JOBID               " + " NAME " + "STATE               ",
                                    f"{running:<20}" + "a-ver " + "RUNNING             "]
    finally:  # the CPUs back for the next tests, whatever happened here
        shell.run(f"scancel {running} {array}")


def test_squeue_refusals_in_slurms_words(shell):
    code, out, err = shell.run("squeue -j 99999", check=False)
    assert (code, out, err) == (1, "", "slurm_load_jobs error: Invalid job id specified\n")
    code, _, err = shell.run("squeue -t bogus", check=False)
    assert code == 1 and "Invalid job state specified: BOGUS" in err
    code, _, err = shell.run("squeue --bogus", check=False)
    assert code == 1 and "unrecognized option '--bogus'" in err


def test_sacct_fields_widths_parsable_and_states(shell):
    done = submit(shell, "-J done --wrap true")
    failed = submit(shell, "-J failed --wrap 'exit 3'")
    shell.until(lambda: "FAILED" in shell.run(f"sacct -X -n -P -o State -j {failed}")[1])
    shell.until(lambda: "COMPLETED" in shell.run(f"sacct -X -n -P -o State -j {done}")[1])
    _, out, _ = shell.run(f"sacct -j {done},{failed}")
    assert out.startswith(SACCT_HEADER + "\n")
    rows = out.splitlines()[2:]
    assert [r.split()[0] for r in rows] == [done, f"{done}.batch", f"{done}.extern", failed, f"{failed}.batch",
                                            f"{failed}.extern"]
    assert all(r.endswith(" ") for r in rows)
    assert rows[3].split()[-2:] == ["FAILED", "3:0"]
    _, out, _ = shell.run(f"sacct -X -p -o jobid,state,exit -j {done}")  # -p: a | after each field; prefixes
    assert out.splitlines() == ["JobID|State|ExitCode|", f"{done}|COMPLETED|0:0|"]
    _, out, _ = shell.run(f"sacct -X -n -o JobID%-5,State%4 -j {done}")
    assert out == f"{done:<5} COM+ \n"
    code, _, err = shell.run("sacct -o Bogus", check=False)
    assert (code, err) == (1, 'sacct: error: Invalid field requested: "Bogus"\n')
    code, _, err = shell.run("sacct -S yesterdayish", check=False)
    assert (code, err) == (1, "Invalid time specification (pos=0): yesterdayish\n")


def test_sbatch_words_and_exit_statuses(shell):
    code, out, err = shell.run("sbatch", check=False, stdin="")
    assert (code, err) == (1, "sbatch: error: Batch script is empty!\n")
    code, _, err = shell.run("sbatch", check=False, stdin="echo no interpreter\n")
    assert code == 1 and err.startswith("sbatch: error: This does not look like a batch script.")
    code, _, err = shell.run("sbatch --bogus x.sh", check=False)
    assert code == 255 and "unrecognized option '--bogus'" in err
    code, _, err = shell.run("sbatch --wrap true extra", check=False)
    assert (code, err) == (1, "sbatch: error: Script arguments not permitted with --wrap option\n")
    _, out, _ = shell.run("sbatch", stdin="#!/bin/sh\necho from stdin\n")
    job = re.fullmatch(r"Submitted batch job (\d+)\n", out).group(1)
    shell.until(lambda: "COMPLETED" in shell.run(f"sacct -X -n -P -o State,JobName -j {job}")[1])
    assert shell.run(f"sacct -X -n -P -o JobName -j {job}")[1] == "sbatch\n"
    assert open(os.path.join(shell.cwd, f"slurm-{job}.out")).read() == "from stdin\n"


def test_scancel_scontrol_sinfo_sacctmgr(shell):
    assert shell.run("scancel 99999", check=False)[:3] == (0, "", "")  # unknown: quiet, as scancel
    code, _, err = shell.run("scancel -n nosuch 99999", check=False)
    assert code == 1 and err == "scancel: error: Kill job error on job id 99999: Invalid job id specified\n"
    job = submit(shell, "-J shown --wrap 'sleep 300'")
    try:
        _, out, _ = shell.run(f"scontrol show job {job}")
        assert out.startswith(f"JobId={job} JobName=shown\n   UserId=")
        assert "\n   JobState=" in out and out.endswith("   Power=\n   \n\n")
        code, _, err = shell.run("scontrol show job 99999", check=False)
        assert (code, err) == (1, "slurm_load_jobs error: Invalid job id specified\n")
    finally:
        shell.run(f"scancel {job}")
    _, out, _ = shell.run("sinfo")
    lines = out.splitlines()
    assert lines[0] == "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST"
    assert re.fullmatch(r"local\*    +up +infinite +1 +(idle|mix) \S+", lines[1]), lines
    _, out, _ = shell.run("sacctmgr -P -n list user")
    assert out.count("|") == 2 and out.endswith("|None\n")



def test_scontrol_hold_and_release_as_squeue_shows_them(shell):
    sleeper = submit(shell, "--wrap 'sleep 300'")
    waiting = submit(shell, f"-d afterany:{sleeper} --wrap 'echo released > released.txt'")
    shell.run(f"scontrol hold {waiting}")
    assert shell.run(f"squeue -h -o '%i %t %r' -j {waiting}")[1] == f"{waiting} PD JobHeldUser\n"
    shell.run(f"scancel {sleeper}")
    # Its parent ended and a job submitted after it ran: the held one still waits.
    later = submit(shell, "--wrap true")
    shell.until(lambda: "COMPLETED" in shell.run(f"sacct -X -n -P -o State -j {later}")[1])
    assert shell.run(f"squeue -h -o '%t %r' -j {waiting}")[1] == "PD JobHeldUser\n"
    shell.run(f"scontrol release {waiting}")
    shell.until(lambda: "COMPLETED" in shell.run(f"sacct -X -n -P -o State -j {waiting}")[1])
    assert open(os.path.join(shell.cwd, "released.txt")).read() == "released\n"

def test_env_puts_the_commands_first_and_never_hides_a_real_slurm_unasked(shell, tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "sbatch").write_text("#!/bin/sh\necho real\n")
    (fake / "sbatch").chmod(0o755)
    env = dict(shell.env, PATH=f"{fake}:/usr/bin:/bin")
    yard = os.environ.get("YARD", "yard")
    p = subprocess.run([yard, "slurm-commands", "env"], env=env, capture_output=True, text=True)
    assert p.returncode == 1 and p.stdout == "" and f"a real Slurm is on PATH ({fake}/sbatch)" in p.stderr
    p = subprocess.run([yard, "slurm-commands", "env", "--replace"], env=env, capture_output=True, text=True)
    assert p.returncode == 0 and re.fullmatch(r"export PATH='/.+/slurm-commands'\":\$PATH\"\n", p.stdout)
    out = subprocess.run(["bash", "-c", p.stdout + "sbatch --version"], env=env, capture_output=True, text=True).stdout
    assert "yard" in out
