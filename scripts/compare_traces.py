#!/usr/bin/env python3
"""Two builds or two devices of the core, trace against trace: every scheme, same seed, same data.

    scripts/compare_traces.py --cli A [--device cpu] [--cli-b B] [--device-b cuda]
                              [--steps 60] [--workdir DIR] [--out REPORT.md]

Trains experiments/all_schemes.json (the six schemes on a synthetic Markov source, so no corpus is
needed) shrunk to about a minute, once with side A (--cli on --device) and once with side B
(--cli-b, default the same CLI, on --device-b), into two stores; then compares each run's
train/loss step by step and checks that side B recorded its device and every series side A did.
Exit status 1 when a trace leaves the tolerance or a series is missing.

Its two uses, and why the results differ at all (float32 on both sides):
  * the GPU check (by hand on a GPU machine; CI has none): --cli build-torch2/app/normlab-cli
    --device-b cuda. The GPU sums in another order, cuBLAS picks other GEMM kernels, and with
    LibTorch 2.x unprobed steps run attention through fused SDPA.
  * LibTorch 1.13 against 2.x on the CPU (CTest libtorch_versions_agree in the 2.x build):
    --cli build/app/normlab-cli --cli-b build-torch2/app/normlab-cli. Debian's 1.13 multiplies with
    OpenBLAS and runs NormLab's fused attention kernel, which calls BLAS's sgemm_; PyPI's 2.x
    multiplies with its own MKL, exports no sgemm_, and so runs attention as SDPA (unprobed steps)
    or eager ops (probed steps).
Tolerances: the first step's loss within 1e-5 relative (one forward pass: rounding only), every
step within 2e-3 relative (differences compound through the optimizer, but training stays the same).
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
    ap.add_argument("--cli", required=True, help="side A's normlab-cli")
    ap.add_argument("--device", default="cpu", help="side A's device")
    ap.add_argument("--cli-b", default=None, help="side B's normlab-cli (default: side A's)")
    ap.add_argument("--device-b", default="cuda", help="side B's device")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--out", default=None, help="also write the report (Markdown) here")
    args = ap.parse_args()
    args.cli_b = args.cli_b or args.cli
    work = args.workdir or tempfile.mkdtemp(prefix="normlab-traces-")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(ROOT, "experiments", "all_schemes.json")) as f:
        exp = json.load(f)
    exp["name"] = "compare-traces"
    exp["base"]["model"].update(d_model=64, n_layers=3, n_heads=4, d_ff=256, context=64)
    exp["base"]["train"].update(steps=args.steps, batch_size=8, eval_every=20, threads=1)
    exp["base"]["optim"]["schedule"]["warmup"] = 10
    exp["base"]["probes"] = {"grads_every": 5, "forward_every": 5, "gains_every": 20, "cond_every": 20}
    path = os.path.join(work, "compare_traces.json")
    with open(path, "w") as f:
        json.dump(exp, f)
    sides = {"a": (args.cli, args.device), "b": (args.cli_b, args.device_b)}
    stores, secs = {}, {}
    for key, (cli, dev) in sides.items():
        stores[key] = os.path.join(work, f"{key}.sqlite")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(stores[key] + suffix):
                os.remove(stores[key] + suffix)
        t0 = time.monotonic()
        out = subprocess.run([cli, "run", path, "--device", dev, "--store", stores[key]], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"{cli} run --device {dev} failed ({out.returncode}):\n{out.stderr[-2000:]}")
        secs[key] = time.monotonic() - t0
        print(f"side {key} ({cli}, {dev}): trained {len(exp['variants'])} runs in {secs[key]:.1f} s", flush=True)

    lines = ["| scheme | device B | step-0 loss A | step-0 loss B | step-0 rel. diff | max rel. diff, all steps"
             " | final loss A / B | series A / B | ok |", "|---|---|---|---|---|---|---|---|---|"]
    failed = False
    a, b = read_store(stores["a"]), read_store(stores["b"])
    for name, (_, _, sa) in a.items():
        status, device, sb = b.get(name, ("missing", "", {}))
        la, lb = sa[("train/loss", -1)], sb.get(("train/loss", -1), {})
        steps = sorted(set(la) & set(lb))
        if not steps:
            failed = True
            lines.append(f"| {name} | {device} | run {status}, no loss recorded | | | | | | **no** |")
            continue
        rel = [abs(la[s] - lb[s]) / abs(la[s]) for s in steps]
        missing = sorted(set(sa) - set(sb))
        ok = (status == "finished" and device.startswith(args.device_b) and not missing
              and len(steps) == len(la) and rel[0] <= FIRST_TOL and max(rel) <= ALL_TOL)
        failed |= not ok
        why = " (missing " + ", ".join(m[0] for m in missing[:3]) + ")" if missing else ""
        lines.append(f"| {name} | {device} | {la[steps[0]]:.6f} | {lb[steps[0]]:.6f} | {rel[0]:.1e}"
                     f" | {max(rel):.1e} | {la[steps[-1]]:.4f} / {lb[steps[-1]]:.4f} | {len(sa)} / {len(sb)}"
                     f" | {'yes' if ok else '**no**' + why} |")
    report = "\n".join([f"A = `{args.cli}` on {args.device}, B = `{args.cli_b}` on {args.device_b}: {len(a)} schemes,"
                        f" {args.steps} steps, d 64 × 3 layers, batch 8 × 64; A {secs['a']:.0f} s, B {secs['b']:.0f} s"
                        f" (whole CLI runs, start-up included); tolerances: step 0 ≤ {FIRST_TOL:g}, every step ≤"
                        f" {ALL_TOL:g} relative.", ""] + lines)
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
