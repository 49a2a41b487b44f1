#!/usr/bin/env python3
"""bench/run.py keeps what it measured when part of a benchmark fails or is cut off — on a GPU machine lent
for 30 minutes, with 10 a call, a benchmark that loses everything to one compiler error or one time limit
costs the whole measurement.

1. torch.compile fails (an interpreter that refuses `--compile`): the other contestants are measured, the
   report says `failed` in its cells and names the failure, and the run exits 0.
2. Stopped after its first configuration (SIGTERM, as `timeout` stops it): results.json (and the file `--raw`
   names) already holds that configuration, and `--from-results` draws a report from it.
3. Two runs of other schemes with the same contestants make one report (`--from-results A B`); runs with
   other contestants are refused.
4. `--skip-measured A B` leaves out what those results hold (a benchmark spread over several leases), not
   what was measured at another precision or with other core switches (NORMLAB_CUDA_KERNELS); a file that is
   not results is refused.

    python3 tests/bench_partial.py --build2 BUILD --python2 PYTHON --workdir DIR
"""
import argparse
import glob
import json
import os
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(os.path.dirname(HERE), "bench", "run.py")


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def bench(args, work, tag, extra, python2):
    tmp = os.path.join(work, tag)
    os.makedirs(tmp)
    env = dict(os.environ, TMPDIR=tmp)
    cmd = [sys.executable, RUN, "--device", "cpu", "--build", "none", "--build2", args.build2, "--python", "none",
           "--python2", python2, "--sizes", "small", "--reps", "1", "--steps", "2", "--warmup", "1", "--threads", "2",
           "--throughput-only", "--out", os.path.join(work, tag + ".md")] + extra
    return cmd, env, tmp


def raw_results(tmp):
    found = glob.glob(os.path.join(tmp, "normlab-bench-*", "results.json"))
    if len(found) != 1:
        fail(f"{tmp}: expected one results.json, found {found}")
    with open(found[0]) as f:
        return found[0], json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build2", required=True)
    ap.add_argument("--python2", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    work = os.path.abspath(args.workdir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # An interpreter whose torch.compile fails, as inductor can on a new GPU or driver.
    broken = os.path.join(work, "python-compile-fails")
    with open(broken, "w") as f:
        f.write(f'#!/bin/sh\ncase " $* " in *" --compile "*) echo "InductorError: no compiler for this device" >&2;'
                f' exit 1;; esac\nexec {args.python2} "$@"\n')
    os.chmod(broken, 0o755)

    # 1. torch.compile fails: the others are measured.
    cmd, env, tmp = bench(args, work, "broken", ["--schemes", "pre_ln"], broken)
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        fail(f"a failed contestant ended the benchmark (exit {out.returncode}): {out.stderr[-1500:]}")
    with open(os.path.join(work, "broken.md")) as f:
        report = f.read()
    row = next((line for line in report.splitlines() if line.startswith("| small | pre_ln | ")), None)
    if row is None or "failed" not in row or row.count(" failed ") != 1:
        fail(f"the throughput row should say failed for torch.compile alone: {row}")
    if "Contestants that failed" not in report or "InductorError" not in report:
        fail("the report does not name the failure")
    _, raw = raw_results(tmp)
    r = raw["results"]["small/pre_ln"]
    if "compile-" not in "".join(r.get("failed", {})) or not r.get("normlab-2") or not any(
            k.startswith("pytorch-") and r[k] for k in r):
        fail(f"results.json should hold the core's and eager's steps and compile's failure: {sorted(r)}")
    print("ok 1: torch.compile failed, the core and eager PyTorch measured, the report says so")

    # 2. Stopped after its first configuration: what it measured is on disk.
    cmd, env, tmp = bench(args, work, "cut", ["--schemes", "post_ln,ngpt", "--no-compile",
                                              "--raw", os.path.join(work, "cut-raw.json")], args.python2)
    p = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    for line in p.stderr:
        if line.startswith("small  post_ln"):
            p.send_signal(signal.SIGTERM)
            break
    p.stderr.read()
    p.wait(timeout=120)
    if p.returncode == 0:
        fail("the benchmark was not stopped before its second configuration (nothing to check)")
    cut, raw = raw_results(tmp)
    if sorted(raw["results"]) != ["small/post_ln"]:
        fail(f"a stopped benchmark should keep its first configuration: {sorted(raw['results'])}")
    with open(os.path.join(work, "cut-raw.json")) as f:   # --raw: the same, where the caller asked
        if json.load(f) != raw:
            fail("--raw's file differs from the scratch folder's results.json")
    drawn = os.path.join(work, "cut-redrawn.md")
    out = subprocess.run([sys.executable, RUN, "--from-results", cut, "--out", drawn], capture_output=True, text=True)
    if out.returncode != 0 or "| small | post_ln | " not in open(drawn).read():
        fail(f"--from-results could not draw the stopped benchmark: {out.stderr[-1500:]}")
    print("ok 2: stopped after post_ln, its results kept and drawn")

    # 3. Two benchmarks of other schemes, one report; other contestants refused.
    cmd, env, tmp = bench(args, work, "rest", ["--schemes", "ngpt", "--no-compile"], args.python2)
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        fail(f"the second benchmark failed: {out.stderr[-1500:]}")
    rest, _ = raw_results(tmp)
    merged = os.path.join(work, "merged.md")
    out = subprocess.run([sys.executable, RUN, "--from-results", cut, rest, "--out", merged],
                         capture_output=True, text=True)
    text = open(merged).read() if out.returncode == 0 else ""
    if "| small | post_ln | " not in text or "| small | ngpt | " not in text:
        fail(f"--from-results A B should draw both schemes: {out.stderr[-1500:]}")
    # A table still being measured (a lease drew small post_ln, another medium ngpt) is drawn with what it has, and
    # names the machine the results were measured on, not this one.
    with open(cut) as f:
        a = json.load(f)
    with open(rest) as f:
        b = json.load(f)
    if not a.get("machine", {}).get("cpu"):
        fail(f"the results should record the machine they were measured on: {a.get('machine')}")
    a["machine"]["cpu"] = "a GPU machine elsewhere"
    b["results"] = {"medium/ngpt": b["results"]["small/ngpt"]}
    for name, d in (("elsewhere-a.json", a), ("elsewhere-b.json", b)):
        with open(os.path.join(work, name), "w") as f:
            json.dump(d, f)
    partial = os.path.join(work, "partial.md")
    out = subprocess.run([sys.executable, RUN, "--from-results", os.path.join(work, "elsewhere-a.json"),
                          os.path.join(work, "elsewhere-b.json"), "--out", partial], capture_output=True, text=True)
    text = open(partial).read() if out.returncode == 0 else ""
    if "| small | post_ln | " not in text or "| medium | ngpt | " not in text or "| small | ngpt | " in text \
            or "Machine: a GPU machine elsewhere" not in text:
        fail(f"a partial table from elsewhere should be drawn as it stands, naming its machine: {out.stderr[-1500:]}")
    # A GPU benchmark's results, drawn here without a GPU: the targets are issue 25's (2x eager at the small size,
    # 1.3x eager and 1x compile at GPT-2 small's shape, Pre-LN's MFU, nGPT against Pre-LN), the GPU as recorded.
    def rec(core, eager, compiled):
        return {"params": {}, "normlab-2": [core], "rep_normlab-2": [core], "pytorch-2.11": [eager],
                "rep_pytorch-2.11": [eager], "compile-2.11": [compiled], "rep_compile-2.11": [compiled]}
    gpu = {"results": {"small/pre_ln": rec(1.0, 8.0, 6.0), "small/ngpt": rec(2.0, 3.0, 9.0),
                       "gpu/pre_ln": rec(40.0, 64.0, 50.0), "gpu/ngpt": rec(50.0, 70.0, 45.0),
                       "gpu/pre_ln_glu": rec(46.0, 70.0, 50.0)},
           "probe": {}, "store": None, "lever": {}, "fused": {}, "gui": None, "overhead": {},
           "impls": [{"name": "normlab-2", "kind": "core", "label": "NormLab"},
                     {"name": "pytorch-2.11", "kind": "peer", "label": "eager"},
                     {"name": "compile-2.11", "kind": "peer", "label": "compile"}],
           "core_env": {"NORMLAB_CUDA_KERNELS": "1"}, "machine": {"cpu": "a GPU server", "cores": 16, "memory": "-",
                                                                  "os": "-", "blas": "-", "gpu": "NVIDIA H200"},
           "args": {"reps": 1, "steps": 15, "warmup": 5, "threads": 16, "device": "cuda", "python2": "/nowhere/python3",
                    "precision": "bf16"}}
    with open(os.path.join(work, "gpu-results.json"), "w") as f:
        json.dump(gpu, f)
    out = subprocess.run([sys.executable, RUN, "--from-results", os.path.join(work, "gpu-results.json"), "--out",
                          os.path.join(work, "gpu.md")], capture_output=True, text=True)
    text = open(os.path.join(work, "gpu.md")).read() if out.returncode == 0 else ""
    # Pre-LN at 40 ms: 624 M FLOPs a token x 32,768 tokens / 0.040 s over the H200's 989.4 TFLOP/s = 51.7 %
    for want in ("| `normlab-2` ≥ 2.0× `pytorch-2.11` (eager) at the small size, every scheme measured (2) | lowest 1.50× (ngpt) | **no** |",
                 "| `normlab-2` ≥ 1.3× `pytorch-2.11` (eager) at the gpu size, every scheme measured (3) | lowest 1.40× (ngpt) | yes |",
                 "| `normlab-2` ≥ 1.0× `compile-2.11` at the gpu size, every scheme measured (3) | lowest 0.90× (ngpt) | **no** |",
                 "| Pre-LN's MFU ≥ 45% at the gpu size | 51.7% | yes |",
                 "| nGPT's step ≤ 10% slower than Pre-LN's at the gpu size | +25.0% | **no** |",
                 "| the same against Pre-LN with nGPT's MLP (`pre_ln_glu`, the nGPT paper's baseline; it reports 10–17 %)"
                 " | +8.7% | yes |",
                 "Machine: a GPU server"):
        if want not in text:
            fail(f"the GPU report should hold {want!r}: {out.stderr[-1500:]}\n{text[text.find('## Targets'):][:1500]}")
    targets = text[text.find("## Targets"):]
    if "≥ 1.2×" in targets[:targets.find("\n## ", 5)]:
        fail("a GPU report should not judge the CPU's targets")
    other = subprocess.run([sys.executable, RUN, "--from-results", cut, raw_results(os.path.join(work, "broken"))[0],
                            "--out", os.path.join(work, "refused.md")], capture_output=True, text=True)
    if other.returncode == 0 or "other contestants" not in other.stderr:
        fail(f"results of other contestants should be refused: {other.returncode} {other.stderr[-500:]}")
    print("ok 3: two benchmarks drawn as one, a partial one as it stands, a GPU one with its targets; other contestants refused")

    # 4. A benchmark spread over leases: the configurations earlier results hold are left out, the rest
    #    measured; results of another precision or other core switches skip nothing; a file that is not results
    #    is refused.
    cmd, env, tmp = bench(args, work, "next", ["--schemes", "post_ln,ngpt,pre_ln", "--no-compile",
                                               "--skip-measured", cut, rest], args.python2)
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        fail(f"the benchmark with --skip-measured failed: {out.stderr[-1500:]}")
    _, raw = raw_results(tmp)
    if sorted(raw["results"]) != ["small/pre_ln"]:
        fail(f"post_ln and ngpt were measured already; only pre_ln should be: {sorted(raw['results'])}")
    for scheme, where in (("post_ln", os.path.basename(cut)), ("ngpt", os.path.basename(rest))):
        if f"{scheme:10s} measured in {where}: skipped" not in out.stderr:
            fail(f"the log should say where {scheme} was measured: {out.stderr[-1500:]}")
    cmd, env, tmp = bench(args, work, "other-precision", ["--schemes", "post_ln", "--no-compile", "--precision", "bf16",
                                                          "--skip-measured", cut], args.python2)
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0 or sorted(raw_results(tmp)[1]["results"]) != ["small/post_ln"] \
            or "skips nothing: it was measured in fp32" not in out.stderr:
        fail(f"results in fp32 should skip nothing of a bf16 benchmark: {out.stderr[-1500:]}")
    cmd, env, tmp = bench(args, work, "other-kernels", ["--schemes", "post_ln", "--no-compile", "--skip-measured", cut],
                          args.python2)
    out = subprocess.run(cmd, env=dict(env, NORMLAB_CUDA_KERNELS="0"), capture_output=True, text=True, timeout=600)
    if out.returncode != 0 or sorted(raw_results(tmp)[1]["results"]) != ["small/post_ln"] \
            or "with {'NORMLAB_CUDA_KERNELS': '1'}; this run is fp32" not in out.stderr:
        fail(f"results with the CUDA kernels on should skip nothing of a run with them off: {out.stderr[-1500:]}")
    # results written before the kernels were on by default record no switch: they meant off
    with open(cut) as f:
        old = json.load(f)
    old["core_env"] = {}
    before = os.path.join(work, "before-default.json")
    with open(before, "w") as f:
        json.dump(old, f)
    cmd, env, tmp = bench(args, work, "before-default", ["--schemes", "post_ln", "--no-compile", "--skip-measured",
                                                         before], args.python2)
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0 or sorted(raw_results(tmp)[1]["results"]) != ["small/post_ln"] \
            or "with no core switches; this run is fp32" not in out.stderr:
        fail(f"results from before the kernels' default should skip nothing of a run with them on: {out.stderr[-1500:]}")
    cmd, env, tmp = bench(args, work, "not-results", ["--schemes", "post_ln", "--no-compile",
                                                      "--skip-measured", os.path.join(work, "merged.md")], args.python2)
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode == 0 or "--skip-measured:" not in out.stderr or "merged.md is not a results file" not in out.stderr:
        fail(f"a file that is not results should be refused, naming it: {out.returncode} {out.stderr[-500:]}")
    print("ok 4: --skip-measured measured only what the earlier results did not hold")


if __name__ == "__main__":
    main()
