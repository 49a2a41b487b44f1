#!/usr/bin/env python3
"""Crash consistency of NormLab's run store and resume, end to end.

Trains a tiny run uninterrupted (the reference), then, trial after trial,
starts the same run, kills it with SIGKILL at a random moment (checkpoint
writes and commits included: it checkpoints every few steps), sometimes kills
the resume as well, and resumes until it finishes. After every kill it checks
what the store promises (docs/RELIABILITY.md):

  * PRAGMA integrity_check is ok;
  * the killed run is `interrupted` (once a store is opened) or finished;
  * no committed row is lost: every point the store held right after the kill
    at a step up to the last checkpoint is still there, unchanged, at the end;
  * the resumed run's every series equals the reference step for step, values
    bit-identical (wall time and throughput aside), its distributions too,
    and its final losses.

  crash_consistency.py --cli build/app/normlab-cli --workdir DIR [--kills N] [--long] [--seed S]

--long runs 40 kills (20 runs, half of them killed twice). Exit 0 when every
trial held; the last line says 'N passed, M failed'.
"""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

NONDETERMINISTIC = {"train/wall_s", "train/tokens_per_s"}


def experiment(steps):
    return {
        "name": "crash",
        "base": {
            "scheme": "pre_ln",
            "model": {"d_model": 32, "n_layers": 2, "n_heads": 4, "d_ff": 64, "context": 32},
            "train": {"steps": steps, "batch_size": 4, "eval_every": 25, "threads": 1, "checkpoint_every": 7,
                      "device": ARGS.device},
            "probes": {"grads_every": 5, "forward_every": 5, "gains_every": 20, "cond_every": 50},
            "data": {"source": "markov", "markov": {"length": 20000}},
        },
    }


def cli(args, store, check=True):
    p = subprocess.run([ARGS.cli, *args, "--store", store], capture_output=True, text=True, timeout=600)
    if check and p.returncode != 0:
        raise AssertionError(f"normlab-cli {' '.join(args)} exited {p.returncode}: {p.stderr[-2000:]}")
    return p


def export(store):
    j = json.loads(cli(["export", "1", "--json"], store).stdout)
    series = {(s["name"], s["layer"]): {p[0]: p[1] for p in s["points"]} for s in j["series"]}
    dists = {(d["name"], d["layer"], d["step"]): d for d in j["distributions"]}
    return j["run"], series, dists


def snapshot_points(store):
    """Points committed right after a kill, read from a copy (the original stays untouched)."""
    tmp = store + ".snap"
    for ext in ("", "-wal", "-shm"):
        if os.path.exists(store + ext):
            shutil.copyfile(store + ext, tmp + ext)
        elif os.path.exists(tmp + ext):
            os.remove(tmp + ext)
    con = sqlite3.connect(tmp)
    ok = con.execute("PRAGMA integrity_check").fetchone()[0]
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    rows, ckpt = [], None
    if {"points", "series", "runs"} <= tables:
        rows = con.execute(
            "SELECT s.name, s.layer, p.step, p.value FROM points p JOIN series s ON s.id = p.series_id"
            " WHERE s.run_id = 1").fetchall()
        ckpt = con.execute("SELECT checkpoint, steps_done FROM runs WHERE id = 1").fetchone()
    con.close()
    for ext in ("", "-wal", "-shm"):
        if os.path.exists(tmp + ext):
            os.remove(tmp + ext)
    return ok, rows, ckpt


def checkpoint_step(path):
    base = os.path.basename(path or "")
    if "-step-" not in base:
        return -1
    return int(base.split("-step-")[1].split(".")[0])


def kill_at_random(cmd, duration, rng):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0.2, duration))
    finished = p.poll() is not None
    if not finished:
        p.send_signal(signal.SIGKILL)
    p.wait()
    return finished


def compare(ref, got, what):
    ref_run, ref_series, ref_dists = ref
    run, series, dists = got
    errors = []
    if run["status"] != "finished":
        errors.append(f"{what}: status {run['status']}")
    if run["final_loss"] != ref_run["final_loss"]:
        errors.append(f"{what}: final val loss {run['final_loss']} != {ref_run['final_loss']}")
    ftl = run["info"].get("final_train_loss"), ref_run["info"].get("final_train_loss")
    if ftl[0] != ftl[1]:
        errors.append(f"{what}: final_train_loss {ftl[0]} != {ftl[1]}")
    for key, pts in ref_series.items():
        mine = series.get(key, {})
        if sorted(mine) != sorted(pts):
            missing = sorted(set(pts) - set(mine))
            extra = sorted(set(mine) - set(pts))
            errors.append(f"{what}: {key} steps differ (missing {missing[:8]}{'...' if len(missing) > 8 else ''},"
                          f" extra {extra[:8]})")
        elif key[0] not in NONDETERMINISTIC:
            diff = [s for s in pts if pts[s] != mine[s]]
            if diff:
                errors.append(f"{what}: {key} values differ at steps {diff[:8]}")
    if set(series) != set(ref_series):
        errors.append(f"{what}: series differ: {sorted(set(series) ^ set(ref_series))[:6]}")
    if set(dists) != set(ref_dists):
        errors.append(f"{what}: distributions differ at {sorted(set(dists) ^ set(ref_dists))[:6]}")
    else:
        for k, d in ref_dists.items():
            if d != dists[k]:
                errors.append(f"{what}: distribution {k} differs")
                break
    return errors


def main():
    rng = random.Random(ARGS.seed)
    os.makedirs(ARGS.workdir, exist_ok=True)
    exp = os.path.join(ARGS.workdir, "crash.json")
    with open(exp, "w") as f:
        json.dump(experiment(ARGS.steps), f)
    ref_store = os.path.join(ARGS.workdir, "reference.sqlite")
    for ext in ("", "-wal", "-shm"):
        if os.path.exists(ref_store + ext):
            os.remove(ref_store + ext)
    shutil.rmtree(ref_store + ".checkpoints", ignore_errors=True)
    t0 = time.time()
    cli(["run", exp], ref_store)
    duration = time.time() - t0
    ref = export(ref_store)
    print(f"reference: {ARGS.steps} steps in {duration:.1f} s", flush=True)

    passed = failed = kills = 0
    trials = 20 if ARGS.long and ARGS.kills is None else (ARGS.kills or 5)
    for t in range(trials):
        store = os.path.join(ARGS.workdir, f"trial{t}.sqlite")
        for ext in ("", "-wal", "-shm"):
            if os.path.exists(store + ext):
                os.remove(store + ext)
        shutil.rmtree(store + ".checkpoints", ignore_errors=True)
        errors = []
        cmd = [ARGS.cli, "run", exp, "--store", store]
        rounds = 2 if (ARGS.long or rng.random() < 0.5) else 1
        notes = []
        for r in range(rounds):
            done = kill_at_random(cmd, duration, rng)
            if done:
                notes.append("finished before the kill")
                break
            kills += 1
            ok, rows, row = snapshot_points(store)
            if ok != "ok":
                errors.append(f"integrity_check after kill {r}: {ok}")
            if row is None:
                notes.append("killed before the run was created")
                if r == rounds - 1:
                    cli(["run", exp], store)
                continue
            ckpt, steps_done = row
            status = cli(["list"], store).stdout
            if "finished" in status:
                notes.append("finished as it was killed")
                break
            if "interrupted" not in status and "queued" not in status:
                errors.append(f"after kill {r} the run is not interrupted: {status!r}")
            cstep = checkpoint_step(ckpt)
            notes.append(f"killed after step {steps_done}, checkpoint at {cstep}")
            committed = [(n, l, s, v) for (n, l, s, v) in rows if s < cstep or (s == cstep and n == "val/loss")]
            cmd = [ARGS.cli, "resume", "1", "--store", store]
            # The last round resumes to the end and checks that nothing committed was lost.
            if r == rounds - 1:
                cli(["resume", "1"], store)
                _, series, _ = got = export(store)
                lost = [(n, l, s) for (n, l, s, v) in committed
                        if (v is None and series.get((n, l), {}).get(s, 0) is not None)
                        or (v is not None and series.get((n, l), {}).get(s) != v and n not in NONDETERMINISTIC)]
                if lost:
                    errors.append(f"{len(lost)} committed points lost or changed, e.g. {lost[:5]}")
        got = export(store)
        errors += compare(ref, got, f"trial {t}")
        tmp_left = [f for f in os.listdir(store + ".checkpoints")] if os.path.isdir(store + ".checkpoints") else []
        if any(f.endswith(".tmp") for f in tmp_left) or len(tmp_left) > 1:
            errors.append(f"checkpoint folder holds {tmp_left}")
        if errors:
            failed += 1
            print(f"trial {t}: FAILED ({'; '.join(notes)})", flush=True)
            for e in errors:
                print("   ", e, flush=True)
        else:
            passed += 1
            print(f"trial {t}: ok ({'; '.join(notes)})", flush=True)
    print(f"{kills} kills in {trials} runs, each resumed to the end")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--kills", type=int, default=None, help="runs to kill (default 5; 20 with --long)")
    ap.add_argument("--long", action="store_true")
    ap.add_argument("--device", default="cpu", help="train on this device (cuda: on a GPU machine)")
    ap.add_argument("--steps", type=int, default=160)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ARGS = ap.parse_args()
    print(f"seed {ARGS.seed}", flush=True)
    sys.exit(main())
