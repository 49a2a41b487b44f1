#!/usr/bin/python3
"""NormLab's benchmarks, side by side with PyTorch in one run; writes docs/PERFORMANCE.md.

    bench/run.py [--build build] [--reps 3] [--steps 25] [--quick] [--out docs/PERFORMANCE.md]

1. Training throughput, every scheme at two sizes: the core (normlab-bench, through
   train_run) against the PyTorch eager peer (bench/peer.py, the same architecture
   built from the core's own preset JSON), same threads, same optimizer. The two
   alternate (core, peer, core, peer, ...) so that load from elsewhere on the machine
   hits both alike; the step times of all repetitions are pooled and the medians
   compared. On a CUDA machine torch.compile is added as a second peer.
2. Probe overhead: the core with the default probes against probes off.
3. Store throughput: rows written per second, seconds to load a 10^6-point series.
4. nGPT's and NormFormer's step-time overhead over Pre-LN (from 1).
5. GUI event-loop latency while a run trains and the charts update (the app's --measure-latency).
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

from cpu_levers import kernel_levers, levers
from common import ContestantError, log, median, run_json
from contestants import implementations, python_torch
from gpu_report import gpu_table, gpu_targets
from machine import measuring_machine
from raw import load_raw, measured, measured_elsewhere, ms_cell, paired_ratio, ratio_cell, save_raw
from overheads import probe_overhead, scheme_overhead

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCHEMES = ["post_ln", "pre_ln", "normformer", "deepnorm", "branchnorm", "ngpt", "pre_ln_glu"]
# Pre-LN with nGPT's MLP and positions: the baseline for nGPT's overhead, as in the nGPT paper.
VARIANTS = {"pre_ln_glu": ("pre_ln", {"activation": "swiglu", "positions": "rope", "bias": False, "tie_embeddings": False})}
SIZES = [("small", dict(d=128, layers=4, heads=4, dff=512, ctx=128, batch=16)),
         ("medium", dict(d=256, layers=6, heads=8, dff=1024, ctx=128, batch=16)),
         # GPT-2 small's shape (124M with GPT-2's 50k vocabulary; 85M + 0.2M with NormLab's 256 bytes): a GPU's size
         ("gpu", dict(d=768, layers=12, heads=12, dff=3072, ctx=1024, batch=32))]
TARGETS = {"ratio": 1.0, "ratio_eager2": 1.2, "ratio_compile": 1.0, "probe": 0.05, "store_rows": 200000, "load_s": 1.0,
           "ngpt": 0.25, "normformer": 0.06}


def spread(xs):
    """Interquartile range as a fraction of the median."""
    if len(xs) < 4:
        return float("nan")
    q = statistics.quantiles(xs, n=4)
    return (q[2] - q[0]) / statistics.median(xs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="the core built on Debian's LibTorch (none: leave it out)")
    build2_default = os.path.join(ROOT, "build-torch2")
    ap.add_argument("--build2", default=build2_default,
                    help="the core built on PyPI's LibTorch 2.x (scripts/setup-torch2.sh); left out when absent")
    ap.add_argument("--python", default="/usr/bin/python3", help="interpreter of the PyTorch 1.13 peer (none: leave out)")
    ap.add_argument("--python2", default=None,
                    help="interpreter of the PyTorch 2.x peers (default: .venv-torch2, else this interpreter)")
    ap.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    ap.add_argument("--no-graph-pair", action="store_true",
                    help="on CUDA, leave out the 2.x core with train.cuda_graph off (paired with the captured one)")
    ap.add_argument("--ahead-pair", action="store_true",
                    help="add the 2.x core without its step ahead (NORMLAB_STEP_AHEAD=0: each step's loss read before "
                         "the next step is queued, as the peers read theirs)")
    ap.add_argument("--autotune", action="store_true", help="add torch.compile mode max-autotune-no-cudagraphs")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--steps", type=int, default=25)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--quick", action="store_true", help="one size, pre_ln/normformer/ngpt only")
    ap.add_argument("--schemes", default=None, help="comma-separated schemes (default: all; --quick: four)")
    ap.add_argument("--precision", default="fp32", choices=["fp32", "tf32", "bf16"],
                    help="every contestant's: the core's train.precision, the peers' autocast / TF32")
    ap.add_argument("--sizes", default="small,medium", help="comma-separated: small,medium,gpu (gpu: d 768 x 12, context 1024)")
    ap.add_argument("--throughput-only", action="store_true", help="section 1 only (no probes, store, levers, GUI)")
    ap.add_argument("--throughput-from", metavar="THROUGHPUT.json",
                    help="take section 1 from an earlier run's throughput.json (same contestants) and measure the rest")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the commands section 1 would run, run nothing (keeps the CUDA path checked on CPU)")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "PERFORMANCE.md"))
    ap.add_argument("--raw", metavar="RESULTS.json",
                    help="the raw results here too (they are always in the run's scratch folder), rewritten after"
                         " every configuration")
    ap.add_argument("--from-results", metavar="RESULTS.json", nargs="+",
                    help="write the report again from a run's raw results (its last line names them), running nothing;"
                         " several files (runs of other schemes or sizes with the same contestants) make one report")
    ap.add_argument("--skip-measured", metavar="RESULTS.json", nargs="+", default=[],
                    help="leave out the configurations these earlier runs' raw results hold for every contestant"
                         " (at the same precision): a benchmark spread over several GPU leases goes on where the"
                         " last stopped; --from-results with all the files draws one table")
    args = ap.parse_args()
    if args.from_results:
        raw, results = load_raw(args.from_results)
        args.__dict__.update(raw.get("args", {}))
        # where they were measured (files written before the machine was recorded: only that it was elsewhere)
        args.machine = raw.get("machine") or {"cpu": "not recorded in the results", "cores": "?", "memory": "?",
                                               "os": "?", "blas": "?"}
        sizes = [(n, s) for n, s in SIZES if any(k[0] == n for k in results)]
        schemes = [sc for sc in SCHEMES if any(k[1] == sc for k in results)]
        write_report(args, results, raw["probe"], raw["store"], sizes, schemes, raw["impls"], raw["lever"],
                     raw["fused"], raw["gui"], raw["overhead"])
        return
    args.build2_default = build2_default
    if args.python2 is None:
        venv = os.path.join(ROOT, ".venv-torch2", "bin", "python")
        args.python2 = venv if os.access(venv, os.X_OK) else sys.executable
    cli = os.path.join(args.build if args.build != "none" else args.build2, "app", "normlab-cli")
    if not os.access(cli, os.X_OK) and not args.dry_run:
        sys.exit(f"{cli} is missing: build first (bash scripts/setup.sh)")
    impls = implementations(args)
    args.machine = measuring_machine(args)
    cores = [i for i in impls if i["kind"] == "core"]
    peers = [i for i in impls if i["kind"] == "peer"]
    if not cores or not peers:
        sys.exit("need at least one core build and one PyTorch peer: " + ", ".join(i["name"] for i in impls))
    for i in impls:
        log(f"contestant {i['name']}: {i['label']}")
    schemes = ["pre_ln", "normformer", "ngpt", "pre_ln_glu"] if args.quick else SCHEMES
    if args.schemes:
        schemes = [x for x in args.schemes.split(",") if x]
        unknown = [x for x in schemes if x not in SCHEMES]
        if unknown:
            sys.exit(f"--schemes: unknown {', '.join(unknown)}; known: {', '.join(SCHEMES)}")
    # in the order given (a GPU lease measures what matters most first)
    known = dict(SIZES)
    sizes = SIZES[:1] if args.quick else [(n, known[n]) for n in dict.fromkeys(args.sizes.split(",")) if n in known]
    done = measured_elsewhere(args.skip_measured, args.precision, [i["name"] for i in impls])
    tmp = tempfile.mkdtemp(prefix="normlab-bench-")
    raw_paths = [os.path.join(tmp, "results.json")] + ([args.raw] if args.raw else [])
    common = ["--steps", str(args.steps), "--warmup", str(args.warmup), "--threads", str(args.threads)]
    peer_flags = {"fp32": [], "tf32": ["--tf32"], "bf16": ["--bf16"]}[args.precision]

    results = {}  # (size, scheme) -> {impl: [step ms...], "rep_" + impl: [median per rep], "params": {...}}
    if args.throughput_from:
        with open(args.throughput_from) as f:
            results = {tuple(k.split("/")): v for k, v in json.load(f).items()}
        log(f"section 1 from {args.throughput_from}: {len(results)} configurations")
    for size, s in sizes:
        for scheme in schemes:
            if (size, scheme) in done:
                log(f"{size:6s} {scheme:10s} measured in {done[(size, scheme)]}: skipped")
                continue
            preset, extra = VARIANTS.get(scheme, (scheme, {}))
            if args.dry_run:
                cfg = {"model": {}, "train": {}}
            else:
                cfg = json.loads(subprocess.run([cli, "preset", preset], capture_output=True, text=True,
                                                check=True).stdout)
            cfg["model"].update(d_model=s["d"], n_layers=s["layers"], n_heads=s["heads"], d_ff=s["dff"], context=s["ctx"])
            cfg["model"].update(extra)
            cfg["train"]["batch_size"] = s["batch"]
            cfg["train"]["precision"] = args.precision
            path = os.path.join(tmp, f"{size}-{scheme}.json")
            with open(path, "w") as f:
                json.dump(cfg, f)
            r = results.setdefault((size, scheme), {"params": {}})
            for rep in range(0 if args.throughput_from else args.reps):
                # Rotate the order every repetition (and reverse it every other), so no contestant
                # always runs first, or always right after torch.compile's compiler heated the CPU.
                k = rep % len(impls)
                order = impls[k:] + impls[:k]
                if rep % 2:
                    order = order[::-1]
                for impl in order:
                    cmd = impl["cmd"] + ["--config", path] + common + (peer_flags if impl["kind"] == "peer" else [])
                    if args.dry_run:
                        print(" ".join(cmd))
                        continue
                    if impl["name"] in r.get("failed", {}):
                        continue
                    try:
                        out = run_json(cmd)
                    except ContestantError as e:
                        # One contestant's failure (a compiler error, memory) is recorded; the others go on.
                        log(f"{size} {scheme}: {impl['name']} failed: {str(e)[-1500:]}")
                        r.setdefault("failed", {})[impl["name"]] = e.why
                        continue
                    r.setdefault(impl["name"], []).extend(out["step_ms"])
                    r.setdefault("rep_" + impl["name"], []).append(out["step_ms_median"])
                    r["params"][impl["name"]] = out["parameters"]
                    if out.get("cuda_graph"):
                        r.setdefault("cuda_graph", {})[impl["name"]] = out["cuda_graph"]
                    if out.get("memory_gib") is not None:
                        r.setdefault("memory_gib", {})[impl["name"]] = max(out["memory_gib"],
                                                                          r.get("memory_gib", {}).get(impl["name"], 0))
            if args.dry_run or args.throughput_from:
                continue
            for path in raw_paths:
                save_raw(path, results, impls, args)
            log(f"{size:6s} {scheme:10s} " + "  ".join(f"{i['name']} {ms_cell(r, i['name']):>7s} ms" for i in impls)
                + "  " + "  ".join(f"{c['name']}/{p['name']} {paired_ratio(r, p['name'], c['name']):.2f}"
                                   for c in cores[:1] for p in peers))
    if args.dry_run:
        return
    if not results:
        log("every configuration asked for is measured in the --skip-measured files: nothing to do; draw them with"
            " bench/run.py --from-results")
        return
    if done:   # the report draws what this run measured
        sizes = [(n, s) for n, s in sizes if any(k[0] == n for k in results)]
        schemes = [sc for sc in schemes if any(k[1] == sc for k in results)]
    bench = cores[0]["cmd"][0]
    with open(os.path.join(tmp, "throughput.json"), "w") as f:
        json.dump({f"{k[0]}/{k[1]}": v for k, v in results.items()}, f)
    probe, overhead, store, lever, fused, gui = {}, {}, None, {}, {}, None
    if not args.throughput_only:
        probe, overhead = probe_overhead(bench, args, SIZES[0][1]), scheme_overhead(bench, args, tmp, common)
        store = run_json([bench, "store", "--points", "1000000"])
        log(f"store: {store}")
        if args.device == "cpu":
            if python_torch(args.python):
                lever = levers(bench, os.path.join(tmp, "small-pre_ln.json"), args)
            fused = kernel_levers(bench, tmp, sizes, schemes, args)
            fused["ops"] = run_json([bench, "ops", "--threads", str(args.threads), "--reps", str(max(5, args.reps))])["ops"]
            for o in fused["ops"]:
                log(f"op {o['op']} {o['shape']}: eager {o['eager_ms']:.2f} ms, fused {o['fused_ms']:.2f} ms")
        gui = gui_latency(args, tmp)
    # raw measurements first, so a report bug never loses an hour's run
    for path in raw_paths:
        save_raw(path, results, impls, args, probe, store, lever, fused, gui, overhead)
    log(f"raw results: {os.path.join(tmp, 'results.json')}")
    write_report(args, results, probe, store, sizes, schemes, impls, lever, fused, gui, overhead)


def gui_latency(args, tmp):
    """The desktop app trains experiments/quick_look.json with its charts updating live; p50/p99 event-loop lateness."""
    app = os.path.join(args.build, "app", "normlab")
    if not os.access(app, os.X_OK):
        return None
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([app, "--measure-latency", "--experiment", os.path.join(ROOT, "experiments", "quick_look.json"),
                          "--store", os.path.join(tmp, "gui.sqlite"), "--language", "en"],
                         capture_output=True, text=True, env=env)
    if out.returncode != 0:
        log(f"gui latency failed: {out.stderr.strip()[-300:]}")
        return None
    r = json.loads(out.stdout.strip().splitlines()[-1])
    log(f"gui latency: {r}")
    return r


def write_report(args, results, probe, store, sizes, schemes, impls, lever, fused, gui, scheme_overhead):
    m = args.machine
    lines = []
    w = lines.append
    w("# Performance")
    w("")
    w(f"Generated by `bench/run.py` on {datetime.date.today().isoformat()}; regenerate with `bash bench/run.sh`.")
    w("")
    cores = [i for i in impls if i["kind"] == "core"]
    peers = [i for i in impls if i["kind"] == "peer"]
    w(f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory']}; {m['os']}; BLAS {m['blas']};"
      f" device `{args.device}`; {args.threads} threads for every contestant.")
    w("")
    w("Contestants: " + "; ".join(f"`{i['name']}` = {i['label']}" for i in impls) + ".")
    w("")
    w(f"Method: every configuration runs each contestant {args.reps} times, {args.steps} timed steps each after"
      f" {args.warmup} warm-up steps (torch.compile compiles during the warm-up), in an order rotated and reversed"
      " from one repetition to the next. A step is batch → forward → backward → clipping → AdamW → (nGPT"
      " renormalization), with the host sync for the loss (each step's, before the next step starts; the core's"
      " captured step on a GPU queues the next plain step first, its step ahead, and still records every loss)."
      " The core is timed through `train_run` with probes off (its store writes included). The machine is a shared VM whose speed drifts by ±20% over minutes, so a speed ratio"
      " is the median over repetitions of the ratio of the two contestants' median step times in the same"
      " repetition; ms/step are pooled medians over all repetitions.")
    w("")
    w("## 1. Training throughput")
    w("")
    head = "| size | scheme | params | " + " | ".join(f"`{i['name']}` ms/step" for i in impls) + " |"
    w(head)
    w("|" + "---|" * (head.count("|") - 1))
    ratios = {}   # (core, peer) -> {(size, scheme): ratio}
    for size, s, scheme in measured(results, sizes, schemes):
        r = results[(size, scheme)]
        params = r["params"].get(cores[0]["name"], next(iter(r["params"].values()), None))
        cells = [size, scheme, f"{params:,}" if params else "–"] + [ms_cell(r, i["name"]) for i in impls]
        w("| " + " | ".join(cells) + " |")
        for c in cores:
            for p in peers + [x for x in cores if x is not c]:
                ratios.setdefault((c["name"], p["name"]), {})[(size, scheme)] = paired_ratio(r, p["name"], c["name"])
    w("")
    w("Speed ratios (how many times faster the core's step is than the peer's; above 1: the core is faster):")
    w("")
    pairs = [(c, p) for c in cores for p in peers]
    head = "| size | scheme | " + " | ".join(f"`{c['name']}` vs `{p['name']}`" for c, p in pairs)
    if len(cores) == 2:
        head += f" | `{cores[1]['name']}` vs `{cores[0]['name']}`"
    head += " |"
    w(head)
    w("|" + "---|" * (head.count("|") - 1))
    for size, _, scheme in measured(results, sizes, schemes):
        cells = [size, scheme] + [ratio_cell(ratios[(c["name"], p["name"])][(size, scheme)]) for c, p in pairs]
        if len(cores) == 2:
            cells.append(ratio_cell(ratios[(cores[1]["name"], cores[0]["name"])][(size, scheme)], bold=False))
        w("| " + " | ".join(cells) + " |")
    w("")
    failed = [(k, name, why) for k in sorted(results) for name, why in results[k].get("failed", {}).items()]
    if failed:
        w("Contestants that failed (the others were measured): " + "; ".join(
            f"{k[0]} {k[1]} `{name}` ({why})"
            for k, name, why in failed) + ".")
        w("")
    if args.device.startswith("cuda"):
        gpu_table(args, results, sizes, schemes, impls, w)
    w("Sizes: " + "; ".join(f"{n} = d {s['d']} × {s['layers']} layers × {s['heads']} heads, d_ff {s['dff']}, context"
                            f" {s['ctx']}, batch {s['batch']} ({s['batch'] * s['ctx']:,} tokens a step)" for n, s in sizes) +
      ". Parameter counts of every contestant are equal"
      f" ({'yes' if all(len(set(results[k]['params'].values())) <= 1 for k in results) else 'NO'}).")
    w("")
    overhead, scheme_over = {}, {}
    if probe:
        w("## 2. Probe overhead")
        w("")
        w("| scheme (small) | mean ms/step, probes off | mean ms/step, default probes | overhead, back-to-back runs | overhead within probed runs |")
        w("|---|---|---|---|---|")
        for scheme, p in probe.items():
            overhead[scheme] = median(p["within"])
            w(f"| {scheme} | {statistics.mean(p['off']):.1f} | {statistics.mean(p['default']):.1f} |"
              f" {median(p['paired']):+.1%} | **{overhead[scheme]:+.1%}** |")
        w("")
        w("Default intervals: gradients and forward probes every 10 steps, gains every 50, condition numbers every 100;"
          " probes cost only on those steps, so the means are compared. Back-to-back runs carry the VM's drift"
          " (±20%); within a probed run, its unprobed steps are the same work as a probe-free run's, so all its steps"
          " against its unprobed steps measure the probes alone — that is the figure held against the target.")
        w("")
        w("## 3. Run store")
        w("")
        w("| measure | value | target |")
        w("|---|---|---|")
        w(f"| scalar rows written per second (batched, one transaction per 0.5 s) | {store['scalar_rows_per_s']:,.0f} | ≥ {TARGETS['store_rows']:,} |")
        w(f"| per-layer rows written per second | {store['layer_rows_per_s']:,.0f} | ≥ {TARGETS['store_rows']:,} |")
        w(f"| load one series of {store['points']:,} points | {store['load_s']:.3f} s | < {TARGETS['load_s']} s |")
        w("")
        w("## 4. Scheme overhead over Pre-LN (NormLab core)")
        w("")
        w("Small size, the two schemes run back to back and alternated; the mean step times of each pair are compared"
          " and the median over repetitions reported (comparing the medians of section 1, taken minutes apart, would"
          " measure the VM's drift). NormFormer against Pre-LN; nGPT against `pre_ln_glu`, a Pre-LN with nGPT's SwiGLU"
          " MLP, RoPE, untied output and no biases — the baseline of the nGPT paper — so that the overhead measured is"
          " the normalization's, not the wider gated MLP's.")
        w("")
        w("| scheme | baseline | overhead (median) | repetitions |")
        w("|---|---|---|---|")
        for scheme, o in scheme_overhead.items():
            scheme_over[scheme] = median(o["ratios"])
            w(f"| {scheme} | {o['base']} | **{scheme_over[scheme]:+.1%}** | {', '.join(f'{r:+.1%}' for r in o['ratios'])} |")
        w("")
        w("The papers report 2–6% for NormFormer and 60–80% for nGPT's unoptimized reference.")
        w("")
    if fused:
        w("## Levers: NormLab's fused CPU kernels")
        w("")
        w("The same `normlab-bench` binary with its fused kernels (causal attention, GELU + LayerNorm, SwiGLU, nGPT's"
          " normalizations; `core/model/cpu_kernels.h`) and with `NORMLAB_FUSED_KERNELS=0`, which runs LibTorch's"
          " eager ops instead — the ops the PyTorch peer runs. Alternated; medians over the repetitions.")
        w("")
        w("| size | scheme | eager ops ms/step | fused kernels ms/step | speed-up |")
        w("|---|---|---|---|---|")
        for key, v in fused.items():
            if key == "ops":
                continue
            size, scheme = key.split("/")
            w(f"| {size} | {scheme} | {v['eager']:.1f} | {v['fused']:.1f} | **{v['speedup']:.2f}×** |")
        w("")
        if fused.get("ops"):
            w("Op by op (`normlab-bench ops`): forward + backward of each kernel against the eager LibTorch ops it"
              " replaces, in one process, alternated; medians over repetitions.")
            w("")
            w("| op | shape | eager ops ms | fused kernel ms | speed-up |")
            w("|---|---|---|---|---|")
            for o in fused["ops"]:
                w(f"| {o['op']} | {o['shape']} | {o['eager_ms']:.2f} | {o['fused_ms']:.2f} | **{o['speedup']:.2f}×** |")
            w("")
    if lever:
        w("## Levers: the CPU's kernels")
        w("")
        pin = os.environ.get("OPENBLAS_CORETYPE")
        w("pre_ln, small size; medians over the repetitions. "
          + (f"This machine's environment pins `OPENBLAS_CORETYPE={pin}`; NormLab respects a pin and then also keeps"
             " AVX-512 off." if pin else "This machine's environment sets no `OPENBLAS_CORETYPE`, so the first two"
             " rows are the same configuration measured twice.")
          + " Unpinned, OpenBLAS picks its kernel for the CPU, and on a CPU with AVX-512 NormLab also opts into"
            " LibTorch's AVX-512 elementwise kernels, which PyTorch leaves opt-in (pytorch#80252).")
        w("")
        w("| environment | OpenBLAS kernel | NormLab CPU tuning | NormLab ms/step | PyTorch ms/step | speed ratio |")
        w("|---|---|---|---|---|---|")
        for name, v in lever.items():
            w(f"| {name} | {v['blas']} | {v['tuning']} | {v['core']:.1f} | {v['peer']:.1f} | {v['ratio']:.2f}× |")
        w("")
    if probe:
        w("## 5. GUI event-loop latency")
        w("")
        if gui:
            w("The desktop app trains `experiments/quick_look.json` (two runs, 200 steps each) on its worker thread while the"
              " charts redraw from the store every 250 ms; a 10 ms timer measures how late the event loop serves it"
              " (Qt's offscreen platform, so drawing is included but not the X server).")
            w("")
            w("| p50 | p99 | samples | target p99 |")
            w("|---|---|---|---|")
            w(f"| {gui['p50_ms']:.1f} ms | {gui['p99_ms']:.1f} ms | {gui['samples']:,} | < 50 ms |")
        else:
            w("Not measured: the desktop app was not built.")
        w("")
    w("## Targets")
    w("")
    w("| target | result | met |")
    w("|---|---|---|")

    def target(core, peer, goal, what):
        rs = {k: x for k, x in ratios.get((core["name"], peer["name"]), {}).items() if x == x}
        if not rs:
            return
        lo = min(rs.values())
        worst = min(rs, key=rs.get)
        unmeasured = len(ratios[(core["name"], peer["name"])]) - len(rs)
        w(f"| `{core['name']}` ≥ {goal:.1f}× {what}, every scheme and size | lowest {lo:.2f}× ({worst[0]} {worst[1]})"
          + (f"; {unmeasured} not measured (a contestant failed)" if unmeasured else "")
          + f" | {'yes' if lo >= goal and not unmeasured else '**no**'} |")

    if args.device.startswith("cuda"):
        gpu_targets(args, results, sizes, impls, ratios, w)
    else:
        for c, p in ((c, p) for c in cores for p in peers):
            if p.get("version", "").startswith("1."):
                target(c, p, TARGETS["ratio"], f"`{p['name']}` (continuity)")
            elif p["name"].startswith("pytorch-"):
                target(c, p, TARGETS["ratio_eager2"], f"`{p['name']}`")
            elif p["name"].startswith("compile-"):
                target(c, p, TARGETS["ratio_compile"], f"`{p['name']}`")
    if overhead:
        po = max(overhead.values())
        w(f"| probes ≤ 5% of step time | {po:+.1%} | {'yes' if po <= TARGETS['probe'] else 'no'} |")
    if store:
        w(f"| store ≥ 200,000 scalar rows/s | {store['scalar_rows_per_s']:,.0f} | {'yes' if store['scalar_rows_per_s'] >= TARGETS['store_rows'] else 'no'} |")
        w(f"| 10^6-point run loads in < 1 s | {store['load_s']:.3f} s | {'yes' if store['load_s'] < TARGETS['load_s'] else 'no'} |")
    if gui:
        w(f"| GUI event-loop latency p99 < 50 ms | {gui['p99_ms']:.1f} ms | {'yes' if gui['p99_ms'] < 50 else 'no'} |")
    if scheme_over:
        nf, ng = scheme_over["normformer"], scheme_over["ngpt"]
        w(f"| NormFormer overhead ≤ 6% | {nf:+.1%} | {'yes' if nf <= TARGETS['normformer'] else 'no'} |")
        w(f"| nGPT overhead ≤ 25% | {ng:+.1%} | {'yes' if ng <= TARGETS['ngpt'] else 'no'} |")
    w("")
    notes = os.path.join(HERE, "NOTES.md")
    if os.path.exists(notes):
        with open(notes) as f:
            w(f.read().rstrip())
        w("")
    text = "\n".join(lines)
    # The busy-machine section (bench/busy.py) is measured on its own: kept as it is.
    if os.path.exists(args.out):
        old = open(args.out).read()
        begin, end = old.find("<!-- busy -->"), old.find("<!-- /busy -->")
        if 0 <= begin < end:
            text = text.replace("\n## Targets", "\n" + old[begin:end + len("<!-- /busy -->")] + "\n\n## Targets", 1)
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
