"""bench/python/run.sh's measurement: prints the table."""

import concurrent.futures
import os
import sys
import time

import switchyard


def f(i):
    return i * i


def pool(n):
    start = time.monotonic()
    with concurrent.futures.ProcessPoolExecutor(2) as ex:
        futures = [ex.submit(f, i) for i in range(n)]
        submitted = time.monotonic()
        assert [x.result() for x in futures] == [i * i for i in range(n)]
    return submitted - start, time.monotonic() - start


def yard(n):
    ex = switchyard.Executor(mem="200M")
    switchyard.ping()  # the daemon started before the clock
    start = time.monotonic()
    jobs = [ex.submit(f, i) for i in range(n)]
    submitted = time.monotonic()
    assert [j.result() for j in jobs] == [i * i for i in range(n)]
    return submitted - start, time.monotonic() - start


def sbatch(n, yard_program):
    # The same calls as shell jobs through Slurm's sbatch as a front end to yard, each its
    # own process, then yard wait for them all.
    import subprocess
    line = subprocess.run([yard_program, "slurm-commands", "env", "--replace"], check=True, capture_output=True,
                          text=True).stdout
    path = subprocess.run(["bash", "-c", line + 'printf %s "$PATH"'], check=True, capture_output=True, text=True).stdout
    env = dict(os.environ, PATH=path)
    start = time.monotonic()
    ids = [subprocess.run(["sbatch", "--parsable", "-o", "/dev/null", "--wrap", f"echo $(({i} * {i}))"], env=env,
                          check=True, capture_output=True, text=True).stdout.strip() for i in range(n)]
    submitted = time.monotonic()
    subprocess.run([yard_program, "wait"] + ids, check=True, stdout=subprocess.DEVNULL)
    return submitted - start, time.monotonic() - start


def main():
    n = int(sys.argv[1])
    p_sub, p_all = pool(n)
    y_sub, y_all = yard(n)
    s_sub, s_all = sbatch(n, sys.argv[2])
    switchyard._client.request("shutdown")
    print(f"{n} calls of f(i), then every result            submissions/s   to the last result (s)   vs pool")
    print(f"concurrent.futures.ProcessPoolExecutor(2)     {n / p_sub:13.0f}   {p_all:22.2f}   {1:7.2f}")
    print(f"switchyard.Executor (local backend)           {n / y_sub:13.0f}   {y_all:22.2f}   {y_all / p_all:7.2f}")
    print(f"sbatch --parsable --wrap (front end, local)   {n / s_sub:13.0f}   {s_all:22.2f}   {s_all / p_all:7.2f}")


if __name__ == "__main__":
    main()
