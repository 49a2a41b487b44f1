"""What bench/run.py and its section modules share: logging, running a contestant, the median."""
import json
import statistics
import subprocess
import sys


def log(*a):
    print(*a, file=sys.stderr, flush=True)


class ContestantError(RuntimeError):
    """A benchmark command that failed; `why` is its exit status and the last line it printed."""

    def __init__(self, cmd, code, stderr, stdout):
        super().__init__(f"{' '.join(cmd)} failed (exit {code}): {stderr.strip()[-2000:]} {stdout.strip()[-500:]}")
        last = [x for x in (stderr + "\n" + stdout).splitlines() if x.strip()]
        self.why = f"exit {code}: {last[-1].strip()[:300] if last else 'nothing printed'}"


def run_json(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise ContestantError(cmd, out.returncode, out.stderr, out.stdout)
    return json.loads(out.stdout.strip().splitlines()[-1])


def median(xs):
    return statistics.median(xs) if xs else float("nan")
