#!/usr/bin/env python3
"""Data-parallel training on this machine: 1 process × 2 threads against 2 processes × 1 thread.

    bench/data_parallel.py [--cli build/app/normlab-cli] [--reps 3] [--steps 40] [--threads 2] [--out FILE.md]

Contestants, alternated within each repetition (this VM drifts ±20% over minutes), for N = --threads:
  1x2          one process, LibTorch on N threads (the single-process baseline);
  2x1 overlap  two ranks (Gloo, torchrun variables set by hand), N/2 threads each, gradient buckets
               all-reduced from hooks during the backward pass;
  2x1 after    the same with every bucket all-reduced after the backward pass.
(The labels say 1x2 and 2x1 for any N.)
The global batch is the same for all (16 × 128 tokens), so tokens/s compare directly. Reported:
median tokens/s over steps 5.. of each run (train/tokens_per_s), the median over repetitions,
ratios to 1x2, and the all-reduce wait per step (dist/allreduce_wait_s: time the step waited for
gradients after its backward pass) with the bytes all-reduced per step. Probes are off.
"""
import argparse
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = [("small", dict(d_model=128, n_layers=4, n_heads=4, d_ff=512)),
         ("medium", dict(d_model=256, n_layers=6, n_heads=8, d_ff=1024))]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def series(store, name):
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    rows = db.execute("SELECT p.step, p.value FROM points p JOIN series s ON s.id = p.series_id WHERE s.name = ?"
                      " ORDER BY p.step", (name,)).fetchall()
    info = json.loads(db.execute("SELECT info FROM runs").fetchone()[0])
    db.close()
    return [v for s, v in rows if s >= 5], info


THREADS = 2


def one(cli, exp, work, kind):
    store = os.path.join(work, f"{kind.replace(' ', '-')}.sqlite")
    for suf in ("", "-wal", "-shm"):
        if os.path.exists(store + suf):
            os.remove(store + suf)
    if kind == "1x2":
        subprocess.run([cli, "run", exp, "--store", store, "--threads", str(THREADS)], check=True, capture_output=True)
    else:
        port = str(free_port())
        procs = []
        for r in range(2):
            env = dict(os.environ, RANK=str(r), WORLD_SIZE="2", LOCAL_RANK=str(r), LOCAL_WORLD_SIZE="2",
                       MASTER_ADDR="127.0.0.1", MASTER_PORT=port, NORMLAB_DIST_OVERLAP="1" if "overlap" in kind else "0")
            procs.append(subprocess.Popen([cli, "run", exp, "--store", store, "--threads", str(max(1, THREADS // 2))], env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        for p in procs:
            if p.wait() != 0:
                sys.exit(f"{kind}: a rank failed: {p.stderr.read().decode()[-2000:]}")
    tps, info = series(store, "train/tokens_per_s")
    wait, _ = series(store, "dist/allreduce_wait_s")
    return statistics.median(tps), (statistics.median(wait) if wait else None), info


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "normlab-cli"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--threads", type=int, default=2, help="threads of the single process; each rank gets half")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    global THREADS
    THREADS = args.threads
    work = tempfile.mkdtemp(prefix="normlab-dpbench-")
    kinds = ["1x2", "2x1 overlap", "2x1 after"]
    lines = [f"`bench/data_parallel.py --reps {args.reps} --steps {args.steps} --threads {THREADS}` on {os.cpu_count()} cores"
             f" (1 × {THREADS} threads against 2 × {max(1, THREADS // 2)}):"
             f" global batch 16 × 128 tokens, Pre-LN, AdamW, probes off; median tokens/s of steps 5–{args.steps - 1},"
             " median of the repetitions.", "",
             f"| size | parameters | all-reduced per step | 1 process × {THREADS} threads | 2 × {max(1, THREADS // 2)},"
             f" overlapped | 2 × {max(1, THREADS // 2)}, after backward | 2 ranks overlapped / 1 process"
             " | all-reduce wait per step (overlapped / after) |",
             "|---|---|---|---|---|---|---|---|"]
    for size, model in SIZES:
        exp = {"name": f"dp-bench-{size}", "base": {
            "model": dict(model, context=128), "optim": {"lr": 1e-3},
            "train": {"steps": args.steps, "batch_size": 16, "eval_every": 0, "checkpoint_every": 0, "device": "cpu",
                      "checkpoint_seconds": 0},
            "probes": {"grads_every": 0, "forward_every": 0, "gains_every": 0, "cond_every": 0},
            "data": {"source": "markov", "markov": {"order": 2, "alphabet": 16}}},
            "variants": [{"scheme": "pre_ln"}]}
        path = os.path.join(work, f"{size}.json")
        with open(path, "w") as f:
            json.dump(exp, f)
        res = {k: [] for k in kinds}
        waits = {k: [] for k in kinds}
        info = {}
        for rep in range(args.reps):
            order = kinds if rep % 2 == 0 else list(reversed(kinds))
            for k in order:
                tps, wait, inf = one(args.cli, path, work, k)
                res[k].append(tps)
                if wait is not None:
                    waits[k].append(wait)
                if "distributed" in inf:
                    info = inf
            print(f"{size} rep {rep + 1}: " + ", ".join(f"{k} {res[k][-1]:.0f} tok/s" for k in kinds) +
                  (f" (1x{THREADS}, 2x{max(1, THREADS // 2)})" if THREADS != 2 else ""), flush=True)
        med = {k: statistics.median(v) for k, v in res.items()}
        d = info.get("distributed", {})
        mb = d.get("allreduce_bytes_per_step", 0) / 2 ** 20
        lines.append(f"| {size} | {info.get('parameters', 0) / 1e6:.2f} M | {mb:.1f} MiB in {d.get('gradient_buckets')}"
                     f" bucket(s) | {med['1x2']:.0f} | {med['2x1 overlap']:.0f} | {med['2x1 after']:.0f}"
                     f" | **{med['2x1 overlap'] / med['1x2']:.2f}×** | {statistics.median(waits['2x1 overlap']) * 1e3:.1f}"
                     f" / {statistics.median(waits['2x1 after']) * 1e3:.1f} ms |")
    report = "\n".join(lines)
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report + "\n")


if __name__ == "__main__":
    main()
