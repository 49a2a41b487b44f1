#!/usr/bin/env python3
"""A bf16 run tracks its fp32 twin (issue 25 item 1).

Trains tests/data/precision.json — every scheme, 100 steps — in fp32 and in
bf16 (autocast: matmuls and attention in bfloat16, fp32 master weights,
norms, softmax, loss and probes), on the CPU in CI (LibTorch's CPU autocast)
or on a GPU (--device cuda), and checks for every scheme:
  - the bf16 run really computed in bf16: its step-0 loss differs from fp32's,
    by less than 1e-3 relative;
  - it tracks fp32: the mean train loss of the last 10 steps and the final
    validation loss each within 2 % relative (bf16 keeps 8 bits of mantissa:
    its matmuls differ by ~4e-3 relative, which the training loop averages);
  - both recorded the same series (every probe ran in fp32 on the same steps)
    and the bf16 run's info says "precision": "bf16".
Then a checkpoint moves between precisions: the bf16 run's final checkpoint
holds float32 weights that an fp32 export reads (normlab-cli export-weights).

    precision_parity.py --cli build-torch2/app/normlab-cli --workdir DIR [--device cpu|cuda]
    precision_parity.py --compare FP32.sqlite [TF32.sqlite] BF16.sqlite     (stores trained already)
"""
import argparse
import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPERIMENT = os.path.join(HERE, "data", "precision.json")
TOL_STEP0, TOL_END = 1e-3, 0.02


def runs(store):
    c = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    out = {}
    for rid, name, status, info in c.execute("select id, name, status, info from runs order by id"):
        def pts(series):
            return [v for (v,) in c.execute("select p.value from points p join series s on s.id = p.series_id"
                                             " where s.run_id = ? and s.name = ? order by p.step", (rid, series))]
        names = {n for (n,) in c.execute("select name from series where run_id = ?", (rid,))}
        out[name] = {"id": rid, "status": status, "info": json.loads(info or "{}"), "train": pts("train/loss"),
                     "val": pts("val/loss"), "series": names - {"train/tokens_per_s", "train/wall_s", "train/mfu"}}
    return out


def compare(fp32, other, label):
    failures, rows = [], []
    for name, a in fp32.items():
        b = other.get(name)
        if b is None:
            failures.append(f"{label}: no run {name}")
            continue
        if a["status"] != b["status"]:
            failures.append(f"{name}: fp32 {a['status']}, {label} {b['status']}")
            continue
        step0 = abs(a["train"][0] - b["train"][0]) / abs(a["train"][0])
        tail_a, tail_b = sum(a["train"][-10:]) / 10, sum(b["train"][-10:]) / 10
        tail = abs(tail_a - tail_b) / abs(tail_a)
        val = abs(a["val"][-1] - b["val"][-1]) / abs(a["val"][-1])
        rows.append(f"{name:11s} step-0 {step0:.1e}  last-10 train {tail_a:.4f} vs {tail_b:.4f} ({tail:.2%})"
                    f"  final val {a['val'][-1]:.4f} vs {b['val'][-1]:.4f} ({val:.2%})")
        if label == "bf16":
            if step0 == 0:
                failures.append(f"{name}: the bf16 run's step-0 loss equals fp32's: it did not compute in bf16")
            if b["info"].get("precision") != "bf16":
                failures.append(f"{name}: info.precision is {b['info'].get('precision')!r}, not 'bf16'")
        if step0 > TOL_STEP0:
            failures.append(f"{name}: step-0 loss differs by {step0:.2e} > {TOL_STEP0}")
        if tail > TOL_END or val > TOL_END:
            failures.append(f"{name}: {label} ends {tail:.2%} (train) / {val:.2%} (val) from fp32, over {TOL_END:.0%}")
        if a["series"] != b["series"]:
            failures.append(f"{name}: series differ: {sorted(a['series'] ^ b['series'])}")
    print(f"{label} against fp32:")
    print("\n".join("  " + r for r in rows))
    return failures


def f32_weights(path):
    """Names of the tensors of a safetensors file whose dtype is not F32."""
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
    return [k for k, v in header.items() if k != "__metadata__" and v["dtype"] != "F32"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli")
    ap.add_argument("--workdir")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--compare", nargs="+", metavar="STORE")
    args = ap.parse_args()
    if args.compare:
        stores = args.compare
    else:
        if not args.cli or not args.workdir:
            ap.error("--cli and --workdir, or --compare")
        shutil.rmtree(args.workdir, ignore_errors=True)
        os.makedirs(args.workdir)
        stores = []
        for p in ("fp32", "bf16"):
            store = os.path.join(args.workdir, f"{p}.sqlite")
            subprocess.run([args.cli, "run", EXPERIMENT, "--store", store, "--device", args.device, "--precision", p,
                            "--threads", "2"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            stores.append(store)
    base = runs(stores[0])
    failures = []
    for store in stores[1:]:
        label = "bf16" if "bf16" in os.path.basename(store) else "tf32" if "tf32" in os.path.basename(store) else store
        failures += compare(base, runs(store), label)
    if not args.compare:
        bf = runs(stores[1])
        for name in ("pre_ln", "ngpt"):
            out = os.path.join(args.workdir, f"{name}.safetensors")
            subprocess.run([args.cli, "export-weights", str(bf[name]["id"]), out, "--store", stores[1]],
                           check=True, stdout=subprocess.DEVNULL)
            if f32_weights(out):
                failures.append(f"{name}: the bf16 run's checkpoint holds non-fp32 tensors {f32_weights(out)[:3]}")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("every scheme's bf16 run tracks fp32")
    return 0


if __name__ == "__main__":
    sys.exit(main())
