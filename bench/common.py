"""What bench/run.py and its section modules share: logging, running a contestant, the median."""
import json
import statistics
import subprocess
import sys


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run_json(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {out.returncode}): {out.stderr.strip()[-2000:]}"
                           f" {out.stdout.strip()[-500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def median(xs):
    return statistics.median(xs) if xs else float("nan")
