#!/usr/bin/env python3
"""bench/trace_ops.py gives every GPU kernel of a profile its operator, input shape and part of the model,
for the core's trace (normlab-bench train --profile, the core's ProfileScope spans) and eager PyTorch's
(bench/peer.py --profile, its record_function spans) alike — what a GPU lease's `profile` step brings back
to be read on a machine without a GPU.

Here, without a GPU, both traces are recorded on the CPU (nGPT and Pre-LN, a small model, 4 steps after 1)
and every leaf operator is given a kernel the way CUDA's launches appear in a real trace: half by the
operator's "External id", half by a runtime launch call ("correlation") inside the operator. Then:
1. every kernel is claimed by an operator, and the parts add up to the kernels' time;
2. both traces have the parts of the model forward (embed, attention, mlp, residual, head, loss) and
   backward (attention, mlp, residual), and the step's (grad_norm, optimizer; renormalize for nGPT);
3. a backward kernel is named by the forward operator that recorded its autograd node ("∇ aten::…") with
   that operator's shape; the core's own autograd functions (nGPT's fused update and SwiGLU) name their
   kernels both ways ("∇ normlab::ngpt_update");
4. each trace's training steps are spans ("normlab::step"), by which the steady steps' timeline is read (the
   GPU's busy and idle time in a step and between steps);
5. bench/profile_summary.py prints the parts and the operators, and the parts of both side by side.

    python3 tests/profile_attribution.py --build2 BUILD --python2 PYTHON --workdir DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(HERE), "bench")
sys.path.insert(0, BENCH)
import trace_ops  # noqa: E402

# the core's CPU autograd functions an nGPT model uses, and the operator each records its forward as
OWN = {"NgptUpdateFn": "normlab::ngpt_update", "SwiGLUFn": "normlab::swiglu", "UnitNormFn": "normlab::unit_norm"}


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def with_kernels(path, out):
    """The CPU trace at `path` with a kernel for each leaf operator, written to `out`; their total µs."""
    with open(path) as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    th = trace_ops.Threads(events)
    has_child = {id(p) for p in th.parent.values() if p is not None}
    added, total, corr = [], 0.0, 1_000_000
    for evs in th.ops.values():
        for e in evs:
            # leaf operators, and NormLab's own functions, whose kernels a real trace shows launched from them
            own = e["name"].startswith("normlab::")
            if e.get("cat") != "cpu_op" or (id(e) in has_child and not own) or "External id" not in e.get("args", {}):
                continue
            dur = max(e.get("dur", 0), 0.5)
            corr += 1
            k = {"ph": "X", "cat": "kernel", "name": "kernel_" + e["name"], "pid": 0, "tid": 7,
                 "ts": e["ts"] + dur, "dur": dur, "args": {"correlation": corr}}
            if corr % 2:
                k["args"]["External id"] = e["args"]["External id"]
            else:   # the launch call, inside the operator, names the kernel by its correlation alone
                added.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": e["pid"],
                              "tid": e["tid"], "ts": e["ts"] + e.get("dur", 0) / 2, "dur": 0,
                              "args": {"correlation": corr}})
            added.append(k)
            total += dur
    events.extend(added)
    with open(out, "w") as f:
        json.dump({"traceEvents": events}, f)
    return total


def check(name, path, total, ngpt):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    kernels = [e for e in events if e.get("cat") == "kernel"]
    s = trace_ops.summarize_ops(events, kernels, 1, 400)
    if s["unattributed_ms"] > 0:
        fail(f"{name}: {s['unattributed_ms']:.3f} ms of kernels claimed by no operator")
    got = sum(s["parts"].values())
    if abs(got - total / 1000) > 1e-6 * max(1.0, got):
        fail(f"{name}: the parts add up to {got:.4f} ms, the kernels to {total / 1000:.4f}")
    want = [f"{p} (forward)" for p in ("embed", "attention", "mlp", "residual", "head", "loss")]
    want += [f"{p} (backward)" for p in ("attention", "mlp", "residual")]
    want += ["grad_norm", "optimizer"] + (["renormalize"] if ngpt else [])
    missing = [p for p in want if p not in s["parts"]]
    if missing:
        fail(f"{name}: no kernels in {missing}; parts: {s['parts']}")
    st = s["steady"]
    # 5 steps: the 3 steady ones; a step's kernels launched inside its span, so its window lies inside it
    if not st or st["steps"] != 3 or not (0 < st["busy_ms"] <= st["step_ms"]) or st["between_steps_ms"] < 0:
        fail(f"{name}: the steady steps' timeline is {st}")
    # the parts once running: the 3 steady steps' kernels alone, a step's worth each, every part of the model in them
    per = trace_ops.steady_steps(events, kernels)
    steady_total = sum(k["dur"] for ks in per for k in ks) / 1000 / len(per)
    got = sum(s.get("steady_parts", {}).values())
    if len(per) != 3 or abs(got - steady_total) > 1e-6 * max(1.0, got) or not 0 < steady_total < total / 1000 / 3:
        fail(f"{name}: the steady steps' parts add up to {got:.4f} ms a step, their kernels to {steady_total:.4f}")
    missing = [p for p in want if p not in s["steady_parts"]]
    if missing:
        fail(f"{name}: no kernels in {missing} in the steady steps; parts: {s['steady_parts']}")
    grads = [o for o in s["ops"] if o[0] == "mlp backward" and o[1].startswith("∇ aten::") and "[" in o[2]]
    if not grads:
        fail(f"{name}: no MLP backward kernel named by its forward operator and shape: {s['ops'][:20]}")
    if ngpt and name.startswith("core"):
        # each of the core's functions' backward nodes is traced to that function's forward, none to another
        th = trace_ops.Threads(events)
        fwd = trace_ops.forward_of_nodes(th, events)
        linked = 0
        for evs in th.ops.values():
            for e in evs:
                if not e["name"].startswith(trace_ops.BACKWARD) or "CppNode<" not in e["name"]:
                    continue
                fn = e["name"].rsplit("::", 1)[-1].rstrip(">")
                op = fwd.get(id(e))
                if fn in OWN and (op is None or op["name"] != OWN[fn]):
                    fail(f"{name}: the backward of {fn} is traced to {op['name'] if op else 'nothing'}, not {OWN[fn]}")
                linked += fn in OWN
        if linked == 0:
            fail(f"{name}: no backward node of the core's own functions in the trace")
        # without the trace's flows, the sequence numbers alone link every node the same way
        bare = [e for e in events if e.get("cat") != "fwdbwd"]
        by_seq = trace_ops.forward_of_nodes(trace_ops.Threads(bare), bare)
        th2 = trace_ops.Threads(bare)
        differ = []
        for evs in th.ops.values():
            for e in evs:
                if e["name"].startswith(trace_ops.BACKWARD) and id(e) in fwd:
                    e2 = next(x for x in th2.ops[(e.get("pid"), e.get("tid"))] if x["ts"] == e["ts"] and x["name"] == e["name"])
                    got = by_seq.get(id(e2))
                    if got is None or (got["ts"], got["name"]) != (fwd[id(e)]["ts"], fwd[id(e)]["name"]):
                        differ.append((e["name"], fwd[id(e)]["name"], got["name"] if got else None))
        if differ:
            fail(f"{name}: {len(differ)} nodes linked otherwise by sequence number than by the flows: {differ[:5]}")
        # the core's own autograd functions (here the CPU's fused nGPT kernels), both ways
        rows = {(o[0], o[1]) for o in s["ops"]}
        for want in (("residual forward", "normlab::ngpt_update"), ("residual backward", "∇ normlab::ngpt_update"),
                     ("mlp backward", "∇ normlab::swiglu")):
            if want not in rows:
                fail(f"{name}: no kernels named {want}: {sorted(rows)}")
    print(f"ok {name}: {len(kernels)} kernels in {len(s['parts'])} parts; e.g. {grads[0][1]} {grads[0][2]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build2", required=True)
    ap.add_argument("--python2", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    work = os.path.abspath(args.workdir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    cli = os.path.join(args.build2, "app", "normlab-cli")
    bench = os.path.join(args.build2, "bench", "normlab-bench")
    for scheme in ("ngpt", "pre_ln"):
        cfg = json.loads(subprocess.run([cli, "preset", scheme], check=True, capture_output=True, text=True).stdout)
        cfg["model"].update(d_model=32, n_layers=2, n_heads=2, d_ff=64, context=16)
        cfg["train"].update(batch_size=2)
        conf = os.path.join(work, scheme + ".json")
        with open(conf, "w") as f:
            json.dump(cfg, f)
        traces = {}
        for who, cmd in (("core", [bench, "train", "--config", conf, "--steps", "4", "--warmup", "1", "--threads", "1"]),
                         ("eager", [args.python2, os.path.join(BENCH, "peer.py"), "--config", conf, "--steps", "4",
                                    "--warmup", "1", "--threads", "1"])):
            raw = os.path.join(work, f"{who}-{scheme}.json")
            r = subprocess.run(cmd + ["--profile", raw], capture_output=True, text=True)
            if r.returncode != 0 or not os.path.exists(raw):
                fail(f"{who} {scheme} --profile: exit {r.returncode}\n{r.stderr[-2000:]}")
            traces[who] = os.path.join(work, f"{who}-{scheme}-kernels.json")
            check(f"{who} {scheme}", traces[who], with_kernels(raw, traces[who]), scheme == "ngpt")
        r = subprocess.run([sys.executable, os.path.join(BENCH, "profile_summary.py"), traces["core"], traces["eager"],
                            "--steps", "5", "--top", "5"], capture_output=True, text=True)
        if r.returncode != 0 or r.stdout.count("by part of the model") != 2 or "mlp (backward)" not in r.stdout \
                or "== by part, GPU ms per step (the steady steps): core-" not in r.stdout \
                or r.stdout.count("steady state (3 steps)") != 2 or r.stdout.count("GPU ms per step, the steady steps") != 2:
            fail(f"profile_summary.py {scheme}: exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-2000:]}")
    print("ok: every kernel has its operator, shape and part in both traces")

    # --profile-from: the trace begins once that many updates are done (a GPU lease traces the step replayed as a
    # CUDA graph, captured during the warm-up): 5 steps traced from 3 hold the spans of the last two alone
    conf = os.path.join(work, "pre_ln.json")
    base = [bench, "train", "--config", conf, "--steps", "4", "--warmup", "1", "--threads", "1"]
    for start, spans in ((0, 5), (3, 2), (4, 1)):
        raw = os.path.join(work, f"from-{start}.json")
        r = subprocess.run(base + ["--profile", raw, "--profile-from", str(start)], capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(raw):
            fail(f"--profile-from {start}: exit {r.returncode}\n{r.stderr[-2000:]}")
        with open(raw) as f:
            events = json.load(f)["traceEvents"]
        got = [e for e in events if e.get("ph") == "X" and e.get("name") == trace_ops.STEP]
        ops = [e for e in events if e.get("cat") == "cpu_op" and e["name"] == "aten::addmm"]
        if len(got) != spans or not ops or min(e["ts"] for e in ops) < min(e["ts"] for e in got):
            fail(f"--profile-from {start}: {len(got)} step spans (want {spans}), the first addmm before the first step: "
                 f"{bool(ops) and min(e['ts'] for e in ops) < min(e['ts'] for e in got)}")
    r = subprocess.run(base + ["--profile", os.path.join(work, "from-5.json"), "--profile-from", "5"],
                       capture_output=True, text=True)
    if r.returncode != 2 or "--profile-from 5" not in r.stderr or os.path.exists(os.path.join(work, "from-5.json")):
        fail(f"--profile-from past the run's last step: exit {r.returncode}, {r.stderr[-500:]}")
    print("ok: --profile-from traces the steps after it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
