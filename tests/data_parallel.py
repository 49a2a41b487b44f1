#!/usr/bin/env python3
"""Data-parallel training against a single process, trace for trace; and a rank killed mid-run.

    tests/data_parallel.py --cli normlab-cli [--launcher env|torchrun|srun] [--torchrun PATH]
                           [--ranks 2] [--steps 40] [--workdir DIR] [--out REPORT.md]
    tests/data_parallel.py --cli normlab-cli --kill [--launcher env|srun]

Equality: experiments/all_schemes.json (the six schemes, nGPT's renormalisation and the
BranchNorm/DeepNorm factors included, on a synthetic Markov source) shrunk to a few seconds a run
and trained once by one process and once by --ranks processes with the same seed and global batch;
every recorded series of every run is compared step by step (the timing series excepted). The two
differ only in the order floats are summed: the ranks' gradients are averaged by an all-reduce and
each rank's loss is a mean over its slice of the batch. Tolerances: the first step's loss within
1e-6 relative, every value of every series within 1e-4 relative (or 1e-7 absolute), which the
measured differences (printed) stay well under.

--kill: trains one long run with 2 ranks, SIGKILLs rank 1 once the run is under way, and checks
that rank 0 exits within 20 s with a message that names the lost peer, and that the run is not
left `running` in the store. Then the same with rank 0 killed: rank 1 must exit within 20 s.
Then (env launcher) Ctrl-C to rank 0 mid-run: both ranks stop as cancelled, and a 2-rank
`resume` ends at the trace of an uninterrupted single process, nGPT's renormalisation included.
The scratch folder the SIGKILLed rank 1 leaves in TMPDIR is removed by the next rank to start.

Launchers: env sets RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT by
hand; torchrun runs `torchrun --standalone --nproc-per-node N --no-python normlab-cli run ...`;
srun runs `srun -n N --cpus-per-task 1 normlab-cli run ...` inside an existing Slurm cluster.
Exit status 1 when anything differs.
"""
import argparse
import fcntl
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRST_TOL, ALL_TOL, ABS_TOL = 1e-6, 1e-4, 1e-7
TIMING = ("train/wall_s", "train/tokens_per_s", "dist/allreduce_wait_s")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_store(store):
    """{run name: (status, message, info, {(series, layer): {step: value}})}."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    out = {}
    for rid, name, status, message, info in db.execute("SELECT id, name, status, message, info FROM runs ORDER BY id"):
        ser = {}
        for sname, layer, step, value in db.execute(
                "SELECT s.name, s.layer, p.step, p.value FROM series s JOIN points p ON p.series_id = s.id"
                " WHERE s.run_id = ?", (rid,)):
            ser.setdefault((sname, layer), {})[step] = value
        out[name] = (status, message, json.loads(info or "{}"), ser)
    db.close()
    return out


def launch(args, ranks, cli_args, logs, extra_env=None):
    """Starts the ranks; returns the Popen objects (one for torchrun/srun, which start their own)."""
    env = dict(os.environ, **(extra_env or {}))
    for k in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        env.pop(k, None)
    if args.launcher == "env":
        port = str(free_port())
        procs = []
        for r in range(ranks):
            e = dict(env, RANK=str(r), WORLD_SIZE=str(ranks), LOCAL_RANK=str(r), LOCAL_WORLD_SIZE=str(ranks),
                     MASTER_ADDR="127.0.0.1", MASTER_PORT=port)
            procs.append(subprocess.Popen([args.cli] + cli_args, env=e, stdout=open(logs[r], "w"),
                                          stderr=subprocess.STDOUT))
        return procs
    if args.launcher == "torchrun":
        cmd = [args.torchrun, "--standalone", f"--nproc-per-node={ranks}", "--no-python", args.cli] + cli_args
    else:
        cmd = ["srun", "-n", str(ranks), "--cpus-per-task=1", "--kill-on-bad-exit=1", args.cli] + cli_args
    return [subprocess.Popen(cmd, env=env, stdout=open(logs[0], "w"), stderr=subprocess.STDOUT,
                             start_new_session=True)]


def experiment(work, steps, long_run=False):
    with open(os.path.join(ROOT, "experiments", "all_schemes.json")) as f:
        exp = json.load(f)
    exp["name"] = "data-parallel"
    exp["base"]["model"].update(d_model=64, n_layers=3, n_heads=4, d_ff=256, context=64)
    # on the CPU on any machine: the one process and the ranks alike (Gloo)
    exp["base"]["train"].update(steps=steps, batch_size=8, eval_every=10, threads=1, checkpoint_every=10, device="cpu")
    exp["base"]["optim"]["schedule"]["warmup"] = 10
    exp["base"]["probes"] = {"grads_every": 5, "forward_every": 5, "gains_every": 20, "cond_every": 20,
                             "expected_grad_batches": 2}
    if long_run:
        exp["variants"] = [{"scheme": "pre_ln"}]
    path = os.path.join(work, "long.json" if long_run else "dp.json")
    with open(path, "w") as f:
        json.dump(exp, f)
    return path, exp


def clean(store):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(store + suffix):
            os.remove(store + suffix)


def refuses_too_few_gpus(args, path):
    """--device cuda with more processes on a node than GPUs: refused before the rendezvous, naming the field."""
    env = dict(os.environ, RANK="0", WORLD_SIZE="8", LOCAL_RANK="0", LOCAL_WORLD_SIZE="8", MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(free_port()))
    store = os.path.join(os.path.dirname(path), "gpus.sqlite")
    r = subprocess.run([args.cli, "run", path, "--device", "cuda", "--store", store], env=env, capture_output=True,
                       text=True, timeout=60)
    ok = r.returncode == 2 and "train.device" in r.stderr and not os.path.exists(store)
    print(f"8 processes per node with --device cuda: exit {r.returncode}: {r.stderr.strip().splitlines()[-1:]}")
    return ok


def equality(args, work):
    path, exp = experiment(work, args.steps)
    if not refuses_too_few_gpus(args, path):
        return 1
    one, many = os.path.join(work, "one.sqlite"), os.path.join(work, "ranks.sqlite")
    clean(one), clean(many)
    t0 = time.monotonic()
    out = subprocess.run([args.cli, "run", path, "--store", one], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"single process failed ({out.returncode}):\n{out.stderr[-2000:]}")
    t1 = time.monotonic()
    logs = [os.path.join(work, f"rank{r}.log") for r in range(args.ranks)]
    procs = launch(args, args.ranks, ["run", path, "--store", many], logs)
    codes = [p.wait(timeout=1800) for p in procs]
    t2 = time.monotonic()
    if any(codes):
        for log in logs:
            if os.path.exists(log):
                print(f"--- {log}\n" + open(log).read()[-3000:])
        sys.exit(f"{args.launcher} launch failed: exit codes {codes}")
    print(f"1 process: {len(exp['variants'])} runs in {t1 - t0:.1f} s; {args.ranks} ranks ({args.launcher}):"
          f" {t2 - t1:.1f} s", flush=True)
    a, b = read_store(one), read_store(many)
    failed = False
    lines = ["| scheme | step-0 loss rel. diff | max rel. diff, train/loss | max rel. diff, any series | series"
             " compared | world size, backend, launcher | ok |", "|---|---|---|---|---|---|---|"]
    for name, (_, _, _, sa) in a.items():
        status, message, info, sb = b.get(name, ("missing", "", {}, {}))
        dist = info.get("distributed", {})
        problems = []
        if status != "finished":
            problems.append(f"status {status} {message}")
        if dist.get("world_size") != args.ranks or dist.get("backend") != "gloo":
            problems.append(f"info.distributed is {dist}")
        expected_launcher = {"env": "env", "torchrun": "torchrun", "srun": "slurm"}[args.launcher]
        if dist.get("launcher") != expected_launcher:
            problems.append(f"launcher {dist.get('launcher')} ≠ {expected_launcher}")
        worst, worst_series, loss_worst, first = 0.0, "", 0.0, None
        compared = 0
        for key, pts in sa.items():
            if key[0] in TIMING:
                continue
            other = sb.get(key)
            if other is None or set(other) != set(pts):
                problems.append(f"series {key[0]}[{key[1]}] missing or with other steps")
                continue
            compared += 1
            for step, va in pts.items():
                vb = other[step]
                if va is None or vb is None:
                    if va != vb:
                        problems.append(f"{key[0]} step {step}: {va} vs {vb}")
                    continue
                d = abs(va - vb)
                rel = d / abs(va) if abs(va) > 0 else d
                if key[0] == "train/loss":
                    loss_worst = max(loss_worst, rel)
                    if step == min(pts):
                        first = rel
                if d > ABS_TOL and rel > worst:
                    worst, worst_series = rel, f"{key[0]}[{key[1]}]@{step}"
        if first is None or first > FIRST_TOL:
            problems.append(f"step-0 loss differs by {first}")
        if worst > ALL_TOL:
            problems.append(f"{worst_series} differs by {worst:.2e}")
        failed |= bool(problems)
        lines.append(f"| {name} | {first or 0:.1e} | {loss_worst:.1e} | {worst:.1e} ({worst_series or '-'}) | {compared}"
                     f" | {dist.get('world_size')}, {dist.get('backend')}, {dist.get('launcher')}"
                     f" | {'yes' if not problems else '**no**: ' + '; '.join(problems[:3])} |")
    report = "\n".join([f"{len(a)} schemes, {args.steps} steps, d 64 × 3 layers, global batch 8 × 64, 1 process against"
                        f" {args.ranks} ranks launched by {args.launcher}; tolerances: step-0 loss ≤ {FIRST_TOL:g},"
                        f" every value ≤ {ALL_TOL:g} relative (or ≤ {ABS_TOL:g} absolute).", ""] + lines)
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report + "\n")
    return 1 if failed else 0


def kill_test(args, work, victim):
    path, _ = experiment(work, 100000, long_run=True)
    store = os.path.join(work, f"kill{victim}.sqlite")
    clean(store)
    logs = [os.path.join(work, f"kill{victim}-rank{r}.log") for r in range(2)]
    procs = launch(args, 2, ["run", path, "--store", store], logs)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        time.sleep(0.5)
        if any(p.poll() is not None for p in procs):
            break
        try:
            db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
            row = db.execute("SELECT steps_done FROM runs").fetchone()
            db.close()
            if row and row[0] >= 20:
                break
        except sqlite3.Error:
            pass
    if any(p.poll() is not None for p in procs):
        sys.exit("a rank ended before the kill:\n" + "".join(open(l).read()[-2000:] for l in logs))
    if args.launcher == "env":
        pids = [p.pid for p in procs]
    else:   # srun: find the ranks by their command line
        pids = sorted(int(x) for x in subprocess.run(["pgrep", "-f", f"{args.cli} run {path}"], capture_output=True,
                                                     text=True).stdout.split() if int(x) != procs[0].pid)
        pids = [p for p in pids if open(f"/proc/{p}/environ", "rb").read().find(b"SLURM_PROCID=") >= 0]
        pids.sort(key=lambda p: int(open(f"/proc/{p}/environ", "rb").read().split(b"SLURM_PROCID=")[1].split(b"\0")[0]))
    t0 = time.monotonic()
    os.kill(pids[victim], signal.SIGKILL)
    survivor = procs[1 - victim] if args.launcher == "env" else procs[0]
    try:
        code = survivor.wait(timeout=60)
    except subprocess.TimeoutExpired:
        survivor.kill()
        sys.exit(f"rank {1 - victim} still ran 60 s after rank {victim} was killed")
    took = time.monotonic() - t0
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
    log = open(logs[1 - victim if args.launcher == "env" else 0]).read()
    # The store is opened (read-write) by `list`, which marks a run left by a dead writer interrupted.
    listing = json.loads(subprocess.run([args.cli, "list", "--store", store, "--json"], capture_output=True, text=True).stdout)
    status = read_store(store)
    (name, (st, message, _, _)), = status.items()
    # A run whose writer (rank 0) was killed is `interrupted` from the next open on (as list shows it).
    if st == "running" and listing and listing[0]["status"] == "interrupted":
        st = "interrupted"
    print(f"rank {victim} killed: the other exited with {code} after {took:.1f} s; the run is {st}: {message}")
    print("  last lines of its log: " + " | ".join(log.strip().splitlines()[-3:]))
    ok = took < 20 and code != 0 and st in ("failed", "interrupted")
    if victim == 1:
        ok = ok and st == "failed" and ("rank" in message or "peer" in message or "Connection" in message)
    if not ok:
        print(listing)
    return 0 if ok else 1


def scratch_folders(tmp):
    return sorted(n for n in os.listdir(tmp) if n.startswith(("normlab-rank", ".normlab-rank")))


def locked(folder):
    """Whether a live rank holds the scratch folder's lock."""
    try:
        fd = os.open(os.path.join(folder, ".lock"), os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def rendezvous_test(args, work):
    """Every rank honours NORMLAB_DIST_TIMEOUT and names what it waited for: a rank whose MASTER_PORT is held by
    another program (it accepts and never answers), rank 0 whose peer never comes, and a timeout that is no number."""
    path, _ = experiment(work, 100000, long_run=True)
    failures = 0

    def one(rank, port, timeout, expect, code_ok=lambda c: c != 0, limit=None):
        nonlocal failures
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", LOCAL_RANK=str(rank), LOCAL_WORLD_SIZE="2",
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), NORMLAB_DIST_TIMEOUT=timeout)
        store = os.path.join(work, f"rdv{rank}.sqlite")
        clean(store)
        t0 = time.monotonic()
        try:
            r = subprocess.run([args.cli, "run", path, "--store", store], env=env, capture_output=True, text=True,
                               timeout=60)
        except subprocess.TimeoutExpired:
            print(f"  rank {rank}, NORMLAB_DIST_TIMEOUT={timeout}: still waiting after 60 s")
            failures += 1
            return
        took = time.monotonic() - t0
        last = (r.stderr.strip().splitlines() or [""])[-1]
        ok = code_ok(r.returncode) and all(e in r.stderr for e in expect) and (limit is None or took < limit)
        print(f"  rank {rank}, NORMLAB_DIST_TIMEOUT={timeout}: exit {r.returncode} after {took:.1f} s: {last}")
        failures += 0 if ok else 1

    with socket.socket() as squatter:   # another program on the port: it accepts, and never says a word
        squatter.bind(("127.0.0.1", 0))
        squatter.listen(8)
        one(1, squatter.getsockname()[1], "3", ["MASTER_PORT", "3 s"], limit=15)
    one(0, free_port(), "3", ["rank 1 of 2 never arrived", "3 s"], limit=15)
    one(1, free_port(), "inf", ["NORMLAB_DIST_TIMEOUT", "1 to 86400"], code_ok=lambda c: c == 2)
    return 1 if failures else 0


def interrupt_test(args, work):
    """Ctrl-C to rank 0 stops both ranks at the same step (cancelled, exit 130); a data-parallel
    resume from rank 0's checkpoint then ends at the trace one uninterrupted process writes."""
    path, exp = experiment(work, 200, long_run=True)
    exp["variants"] = [{"scheme": "ngpt", "optim": {"lr": 3e-3}}]
    with open(path, "w") as f:
        json.dump(exp, f)
    store, one = os.path.join(work, "interrupt.sqlite"), os.path.join(work, "interrupt-one.sqlite")
    clean(store), clean(one)
    subprocess.run([args.cli, "run", path, "--store", one], check=True, capture_output=True)
    logs = [os.path.join(work, f"interrupt-rank{r}.log") for r in range(2)]
    procs = launch(args, 2, ["run", path, "--store", store], logs)
    while True:
        time.sleep(0.2)
        try:
            db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
            row = db.execute("SELECT checkpoint FROM runs").fetchone()
            db.close()
            if row and row[0]:
                break
        except sqlite3.Error:
            pass
        if any(p.poll() is not None for p in procs):
            sys.exit("a rank ended before the interrupt")
    os.kill(procs[0].pid, signal.SIGINT)
    codes = [p.wait(timeout=60) for p in procs]
    (st, msg, _, _), = read_store(store).values()
    procs = launch(args, 2, ["resume", "1", "--store", store], [l + ".resume" for l in logs])
    codes2 = [p.wait(timeout=600) for p in procs]
    (st2, msg2, _, sb), = read_store(store).values()
    (_, _, _, sa), = read_store(one).values()
    worst = 0.0
    same_steps = True
    for key, pts in sa.items():
        if key[0] in TIMING:
            continue
        other = sb.get(key, {})
        same_steps &= set(other) == set(pts)
        for step, va in pts.items():
            vb = other.get(step)
            if va is not None and vb is not None and abs(va - vb) > ABS_TOL:
                worst = max(worst, abs(va - vb) / max(abs(va), 1e-12))
    print(f"interrupt: rank exit codes {codes}, run {st} ({msg}); resumed: {codes2}, run {st2};"
          f" every series against one process: same steps {same_steps}, max rel. diff {worst:.1e}")
    ok = codes == [130, 130] and st == "cancelled" and codes2 == [0, 0] and st2 == "finished" and same_steps \
        and worst <= ALL_TOL
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--launcher", choices=("env", "torchrun", "srun"), default="env")
    ap.add_argument("--torchrun", default="torchrun")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--kill", action="store_true")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    args.cli = os.path.abspath(args.cli)
    work = args.workdir or tempfile.mkdtemp(prefix="normlab-dp-")
    os.makedirs(work, exist_ok=True)
    if args.kill:
        # The ranks' scratch folders go to a TMPDIR of the test's own, where what they leave is seen.
        tmp = os.path.join(work, "tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        os.environ["TMPDIR"] = tmp
        failed = kill_test(args, work, 1)
        left = scratch_folders(tmp)   # rank 1 was SIGKILLed: its folder stays, locked by no one
        failed |= kill_test(args, work, 0)
        if args.launcher == "env":
            failed |= interrupt_test(args, work) | rendezvous_test(args, work)
        # The next rank to start removed what the killed one left, and ranks that ended removed
        # their own (under srun, rank 1 is killed by srun when rank 0 dies: its folder may stay,
        # but never locked, so the next rank removes it).
        now = scratch_folders(tmp)
        print(f"scratch folders: {left} left by the killed rank 1; {now} at the end")
        swept = len(left) == 1 and left[0] not in now
        ended = not now if args.launcher == "env" else not any(locked(os.path.join(tmp, n)) for n in now)
        return failed | (0 if swept and ended else 1)
    return equality(args, work)


if __name__ == "__main__":
    sys.exit(main())
