#!/usr/bin/env python3
"""Side by side: where the GPU time of a training step goes in two or more
Chrome traces (normlab-bench train --profile, bench/peer.py --profile).

For each trace: the wall span from the first to the last GPU kernel, the GPU's
busy time (the union of kernel intervals) and idle share, kernels launched,
and the GPU time per kernel family (GEMM, attention, elementwise, reduction,
norm, optimizer (foreach), copy, other), then the heaviest kernels by name;
and where the trace recorded its operators' shapes, the GPU time by part of
the model (embed, attention, mlp, residual, head, loss; forward and backward;
the optimizer's step) and the heaviest operators by part, name and input shape
(bench/trace_ops.py says how a kernel is traced to them).

    profile_summary.py core.json peer.json [--steps N] [--top 15]
"""
import argparse
import collections
import json
import re
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_ops  # noqa: E402

FAMILIES = [("gemm", r"gemm|sm90_xmma|cutlass|cublas|nvjet|matmul|gemv"),
            ("attention", r"flash|fmha|attention|sdpa|efficient"),
            ("optimizer (foreach)", r"multi_tensor|foreach"),
            ("norm", r"layer_norm|layernorm|rms|norm_kernel|vectorized_layer"),
            ("reduction", r"reduce|sum|norm"),
            ("copy/cast", r"copy|cast|bfloat16_copy|to_copy"),
            ("elementwise", r"elementwise|vectorized|unrolled|pointwise|triton_poi|triton_per|triton_red")]


def family(name):
    n = name.lower()
    for fam, pat in FAMILIES:
        if re.search(pat, n):
            return fam
    return "other"


def load(path):
    with open(path) as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    kernels = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel", "gpu_memcpy", "gpu_memset")]
    return events, kernels


def summarize(path, steps, top):
    events, ks = load(path)
    ks.sort(key=lambda e: e["ts"])
    if not ks:
        return {"path": path, "error": "no GPU kernels in the trace"}
    start, end = ks[0]["ts"], max(e["ts"] + e["dur"] for e in ks)
    busy = trace_ops.covered([(e["ts"], e["ts"] + e["dur"]) for e in ks])
    fam, by_name = collections.Counter(), collections.Counter()
    for e in ks:
        fam[family(e["name"])] += e["dur"]
        by_name[e["name"][:90]] += e["dur"]
    n = max(1, steps)
    return {"path": path, "span_ms": (end - start) / 1000 / n, "busy_ms": busy / 1000 / n,
            "idle": 1 - busy / (end - start), "kernels": len(ks) / n,
            "families": {k: v / 1000 / n for k, v in fam.most_common()},
            "top": [(k, v / 1000 / n) for k, v in by_name.most_common(top)],
            **trace_ops.summarize_ops(events, ks, steps, top)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--steps", type=int, default=1, help="steps in each trace: figures are per step")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--json", help="also write the summaries here")
    args = ap.parse_args()
    sums = [summarize(p, args.steps, args.top) for p in args.traces]
    for s in sums:
        if "error" in s:
            print(f"{s['path']}: {s['error']}")
            continue
        print(f"== {s['path']}: per step {s['span_ms']:.1f} ms span, GPU busy {s['busy_ms']:.1f} ms"
              f" (idle {s['idle']:.0%}), {s['kernels']:.0f} kernels")
        print("   " + ", ".join(f"{k} {v:.1f}" for k, v in s["families"].items()))
        for name, ms in s["top"]:
            print(f"   {ms:7.2f} ms  {name}")
        st = s.get("steady")
        if st:
            print(f"   steady state ({st['steps']} steps): a step every {st['step_ms']:.2f} ms; GPU busy {st['busy_ms']:.2f} ms,"
                  f" idle {st['idle_in_step_ms']:.2f} ms inside the step and {st['between_steps_ms']:.2f} ms between steps")
        if s["parts"]:
            # once running: the steady steps alone, where the trace has them; else every step, warm-up included
            steady = "steady_parts" in s
            parts, ops = (s["steady_parts"], s["steady_ops"]) if steady else (s["parts"], s["ops"])
            print(f"   by part of the model (GPU ms per step, {'the steady steps' if steady else 'every step'}): "
                  + ", ".join(f"{k} {v:.1f}" for k, v in parts.items())
                  + (f"; no operator: {s['unattributed_ms']:.1f}" if s["unattributed_ms"] >= 0.05 else ""))
            if steady:
                print("   every step, warm-up and the run's start and end included: "
                      + ", ".join(f"{k} {v:.1f}" for k, v in s["parts"].items()))
            for part, name, shape, ms in ops:
                print(f"   {ms:7.2f} ms  {part:22} {name} {shape}")
    with_parts = [x for x in sums if x.get("parts")]
    key = "steady_parts" if all("steady_parts" in x for x in with_parts) else "parts"
    if len(with_parts) > 1:
        # side by side: GPU ms per step of each part, in the first trace's order
        names = [os.path.basename(x["path"]) for x in with_parts]
        rows = list(with_parts[0][key])
        rows += sorted({k for x in with_parts[1:] for k in x[key]} - set(rows))
        w = max(len(r) for r in rows)
        print(f"== by part, GPU ms per step{' (the steady steps)' if key == 'steady_parts' else ''}: " + " | ".join(names))
        for r in rows:
            print(f"   {r:{w}}  " + "  ".join(f"{x[key].get(r, 0.0):8.2f}" for x in with_parts))
        print(f"   {'total':{w}}  " + "  ".join(f"{sum(x[key].values()):8.2f}" for x in with_parts))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(sums, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
