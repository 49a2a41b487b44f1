#!/usr/bin/env python3
"""The core on a CUDA GPU against the same core on the CPU: every scheme, same seed, same data.

    scripts/gpu_check.py --cli build-torch2/app/normlab-cli [--steps 60] [--workdir DIR] [--out REPORT.md]

Trains experiments/all_schemes.json (the six schemes on a synthetic Markov source, so no corpus is
needed) shrunk to a few minutes, once with --device cpu and once with --device cuda, into two stores;
then compares each run's train/loss step by step and checks that the CUDA run recorded its device and
every probe series the CPU run recorded. Needs a NormLab built against a CUDA LibTorch
(scripts/setup-torch2.sh) and a GPU; CI has none, so this is run by hand on a GPU machine.
Exit status 1 when a trace leaves the tolerance or a series is missing.

Tolerances (float32 on both; the GPU sums in another order, cuBLAS picks other GEMM kernels and, on
LibTorch 2.x, attention runs through fused SDPA): the first step's loss within 1e-5 relative (one
forward pass), every step within 2e-3 relative (differences compound through the optimizer).
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRST_TOL, ALL_TOL = 1e-5, 2e-3


def cli(exe, *args):
    out = subprocess.run([exe, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"normlab-cli {' '.join(args)} failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return out.stdout


def read_store(store):
    """{run name: (status, device, {(series, layer): {step: value}})}, straight from the SQLite store."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    out = {}
    for rid, name, status, device in db.execute("SELECT id, name, status, device FROM runs ORDER BY id"):
        ser = {}
        for sname, layer, step, value in db.execute(
                "SELECT s.name, s.layer, p.step, p.value FROM series s JOIN points p ON p.series_id = s.id"
                " WHERE s.run_id = ?", (rid,)):
            ser.setdefault((sname, layer), {})[step] = value
        out[name] = (status, device, ser)
    db.close()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--against", default="cuda", help="the device compared with the CPU (cpu: a dry run of this script)")
    ap.add_argument("--out", default=None, help="also write the report (Markdown) here")
    args = ap.parse_args()
    work = args.workdir or tempfile.mkdtemp(prefix="normlab-gpu-")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(ROOT, "experiments", "all_schemes.json")) as f:
        exp = json.load(f)
    exp["name"] = "gpu-check"
    exp["base"]["model"].update(d_model=64, n_layers=3, n_heads=4, d_ff=256, context=64)
    exp["base"]["train"].update(steps=args.steps, batch_size=8, eval_every=20)
    exp["base"]["optim"]["schedule"]["warmup"] = 10
    exp["base"]["probes"] = {"grads_every": 5, "forward_every": 5, "gains_every": 20, "cond_every": 20}
    path = os.path.join(work, "gpu_check.json")
    with open(path, "w") as f:
        json.dump(exp, f)
    stores, secs = {}, {}
    for key, dev in (("cpu", "cpu"), ("cuda", args.against)):
        stores[key] = os.path.join(work, f"{key}.sqlite")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(stores[key] + suffix):
                os.remove(stores[key] + suffix)
        t0 = time.monotonic()
        cli(args.cli, "run", path, "--device", dev, "--store", stores[key])
        secs[key] = time.monotonic() - t0
        print(f"{dev}: trained {len(exp['variants'])} runs in {secs[dev]:.1f} s", flush=True)

    lines = ["| scheme | device recorded | step-0 loss CPU | step-0 loss CUDA | step-0 rel. diff | max rel. diff, all steps"
             " | final loss CPU / CUDA | series CPU / CUDA | ok |", "|---|---|---|---|---|---|---|---|---|"]
    failed = False
    cpu, gpu = read_store(stores["cpu"]), read_store(stores["cuda"])
    for name, (_, _, sc) in cpu.items():
        status, device, sg = gpu.get(name, ("missing", "", {}))
        lc, lg = sc[("train/loss", -1)], sg.get(("train/loss", -1), {})
        steps = sorted(set(lc) & set(lg))
        if not steps:
            failed = True
            lines.append(f"| {name} | {device} | run {status}, no loss recorded | | | | | | **no** |")
            continue
        rel = [abs(lc[s] - lg[s]) / abs(lc[s]) for s in steps]
        missing = sorted(set(sc) - set(sg))
        ok = (status == "finished" and device.startswith(args.against) and not missing
              and len(steps) == len(lc) and rel[0] <= FIRST_TOL and max(rel) <= ALL_TOL)
        failed |= not ok
        why = " (missing " + ", ".join(m[0] for m in missing[:3]) + ")" if missing else ""
        lines.append(f"| {name} | {device} | {lc[steps[0]]:.6f} | {lg[steps[0]]:.6f} | {rel[0]:.1e}"
                     f" | {max(rel):.1e} | {lc[steps[-1]]:.4f} / {lg[steps[-1]]:.4f} | {len(sc)} / {len(sg)}"
                     f" | {'yes' if ok else '**no**' + why} |")
    report = "\n".join([f"GPU check: {len(cpu)} schemes, {args.steps} steps, d 64 × 3 layers, batch 8 × 64;"
                        f" CPU {secs['cpu']:.0f} s, CUDA {secs['cuda']:.0f} s (whole CLI runs, start-up included);"
                        f" tolerances: step 0 ≤ {FIRST_TOL:g}, every step ≤ {ALL_TOL:g} relative.", ""] + lines)
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
