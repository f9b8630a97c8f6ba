"""Snakemake 7.21 (Debian's) runs a workflow with `--cluster sbatch` through the front
ends, each rule a job of yard's (the README's example)."""

import os
import re

SNAKEFILE = """
rule all:
    input: "summary.txt"

rule part:
    output: "part_{n}.txt"
    shell: "echo part {wildcards.n} in job $SLURM_JOB_ID > {output}"

rule summary:
    input: expand("part_{n}.txt", n=[1, 2, 3])
    output: "summary.txt"
    shell: "cat {input} > {output}"
"""


def test_snakemake_runs_a_workflow_with_cluster_sbatch(shell):
    shell.write("Snakefile", SNAKEFILE)
    code, out, err = shell.run("snakemake --cluster sbatch --jobs 4 --latency-wait 30", check=False)
    assert code == 0, out + err
    summary = open(os.path.join(shell.cwd, "summary.txt")).read().splitlines()
    assert [re.sub(r"\d+$", "N", line) for line in summary] == [f"part {n} in job N" for n in (1, 2, 3)]
    jobs = {line.split()[-1] for line in summary}
    assert len(jobs) == 3  # three jobs of their own, each known to sacct as completed
    # (Snakemake is done once a job's script wrote its marker, before yard saw the job end.)
    expected = sorted(f"{j}|COMPLETED" for j in jobs)
    states = lambda: sorted(shell.run("sacct -X -n -P -o JobID,State -j " + ",".join(sorted(jobs)))[1].splitlines())
    shell.until(lambda: states() == expected)
    assert states() == expected
    assert "Submitted batch job" in err + out  # snakemake's log shows each job's id as sbatch said it
