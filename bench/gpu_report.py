"""bench/run.py's GPU columns: tokens/s, model-FLOPs utilisation and GPU memory per contestant."""
import statistics

from raw import measured


def median(xs):
    return statistics.median(xs) if xs else float("nan")


# Dense peaks (TFLOP/s) by GPU name, as core/flops.cpp holds them: (name, second word, fp32, tf32, bf16)
PEAKS = [("H100", "PCIE", 51.2, 378.0, 756.0), ("H100", "NVL", 60.0, 417.5, 835.0), ("H100", "", 66.9, 494.7, 989.4),
         ("GH200", "", 66.9, 494.7, 989.4), ("H200", "", 66.9, 494.7, 989.4), ("A100", "", 19.5, 156.0, 312.0),
         ("L40S", "", 91.6, 183.0, 362.0)]


def flops_per_token(s, glu=False, vocab=256):
    """Training FLOPs per token, as core/flops.cpp counts them (6 x matmul weights + 12 L T d)."""
    d, f, L, T = s["d"], s["dff"], s["layers"], s["ctx"]
    per_layer = 4 * d * d + (2 * d * f if glu else d * f) + f * d
    return 6 * (L * per_layer + vocab * d) + 12 * L * T * d


def model_flops_utilisation(s, scheme, ms, peak):
    """A step of `ms` milliseconds at size `s` against the device's `peak` FLOP/s."""
    return flops_per_token(s, glu=scheme in ("ngpt", "pre_ln_glu")) * s["batch"] * s["ctx"] / (ms / 1000) / peak


def gpu_peak(name, precision):
    n = name.upper()
    for has, also, fp32, tf32, bf16 in PEAKS:
        if has in n and (not also or also in n):
            return {"fp32": fp32, "tf32": tf32, "bf16": bf16}[precision] * 1e12
    return 0.0


def gpu_table(args, results, sizes, schemes, impls, w):
    """Tokens/s, model-FLOPs utilisation and GPU memory of every contestant (CUDA runs)."""
    name = args.machine.get("gpu", "")   # recorded where it was measured (bench/run.py's measuring_machine)
    precision = getattr(args, "precision", "fp32")
    peak = gpu_peak(name, precision)
    w("")
    w(f"Tokens/s, MFU (model FLOPs per token as core/flops.h counts them x tokens/s, over the {name or 'GPU'}'s"
      f" dense {precision} peak, {peak / 1e12:.1f} TFLOP/s) and GPU memory in use at the end (the caching allocator's"
      " reservation and the CUDA context):")
    w("")
    head = "| size | scheme | " + " | ".join(f"`{i['name']}` tokens/s · MFU · GiB" for i in impls) + " |"
    w(head)
    w("|" + "---|" * (head.count("|") - 1))
    for size, s, scheme in measured(results, sizes, schemes):
        r = results[(size, scheme)]
        cells = [size, scheme]
        for i in impls:
            ms = median(r.get(i["name"], []))
            if ms != ms:   # the contestant failed
                cells.append("failed")
                continue
            tps = s["batch"] * s["ctx"] / (ms / 1000)
            mem = r.get("memory_gib", {}).get(i["name"])
            mfu = f"{model_flops_utilisation(s, scheme, ms, peak):.1%}" if peak else "–"
            cells.append(f"{tps:,.0f} · {mfu} · {mem:.1f}" if mem is not None else f"{tps:,.0f} · {mfu} · –")
        w("| " + " | ".join(cells) + " |")
    w("")
    # what became of each configuration's graph (a contestant with it off says so once)
    graphs = [(f"{k[0]} {k[1]}", i, st) for k in sorted(results) for i, st in results[k].get("cuda_graph", {}).items()
              if st != "off"]
    off = sorted({i for r in results.values() for i, st in r.get("cuda_graph", {}).items() if st == "off"})
    if graphs or off:
        w("The core's training step as a CUDA graph (train.cuda_graph): " +
          "; ".join(f"{where} `{i}` {st}" for where, i, st in graphs) +
          "".join(f"; `{i}` off" for i in off) + ".")
        w("")


# Issue 25's targets on a GPU, by size: the core against eager PyTorch (the small size is launch-bound, where a
# captured step is the lever), against torch.compile at GPT-2 small's shape, Pre-LN's MFU there, and nGPT's
# step against Pre-LN's.
GPU_TARGETS = {"eager": {"small": 2.0, "medium": 1.3, "gpu": 1.3}, "compile": {"gpu": 1.0}, "pre_ln_mfu": 0.45,
               "ngpt_over_pre_ln": 0.10}


def gpu_targets(args, results, sizes, impls, ratios, w):
    """The Targets table's rows for a CUDA benchmark (the core with its default CUDA graph: the first core)."""
    core = next(i for i in impls if i["kind"] == "core")["name"]
    peers = {p["name"].split("-")[0]: p["name"] for p in impls if p["kind"] == "peer"}

    def rows(peer, goals, what):
        for size, _ in sizes:
            goal = goals.get(size)
            rs = {k: x for k, x in ratios.get((core, peer), {}).items() if k[0] == size and x == x}
            if goal is None or not rs:
                continue
            worst = min(rs, key=rs.get)
            w(f"| `{core}` ≥ {goal:.1f}× `{peer}`{' ' + what if what else ''} at the {size} size, every scheme measured"
              f" ({len(rs)}) |"
              f" lowest {rs[worst]:.2f}× ({worst[1]}) | {'yes' if rs[worst] >= goal else '**no**'} |")

    if "pytorch" in peers:
        rows(peers["pytorch"], GPU_TARGETS["eager"], "(eager)")
    if "compile" in peers:
        rows(peers["compile"], GPU_TARGETS["compile"], "")
    gpu = dict(sizes).get("gpu")
    pre, ngpt = results.get(("gpu", "pre_ln"), {}), results.get(("gpu", "ngpt"), {})
    if gpu and pre.get(core):
        peak = gpu_peak(args.machine.get("gpu", ""), getattr(args, "precision", "fp32"))
        if peak:
            mfu = model_flops_utilisation(gpu, "pre_ln", median(pre[core]), peak)
            goal = GPU_TARGETS["pre_ln_mfu"]
            w(f"| Pre-LN's MFU ≥ {goal:.0%} at the gpu size | {mfu:.1%} | {'yes' if mfu >= goal else '**no**'} |")
    if gpu and pre.get(core) and ngpt.get(core):
        over = median(ngpt[core]) / median(pre[core]) - 1
        goal = GPU_TARGETS["ngpt_over_pre_ln"]
        w(f"| nGPT's step ≤ {goal:.0%} slower than Pre-LN's at the gpu size | {over:+.1%} |"
          f" {'yes' if over <= goal else '**no**'} |")
    glu = results.get(("gpu", "pre_ln_glu"), {})
    if gpu and glu.get(core) and ngpt.get(core):
        # the nGPT paper's baseline has nGPT's MLP (SwiGLU, 2 × 4d wide, RoPE, untied, no biases): what its
        # 10-17 % measure; against plain Pre-LN the wider MLP's GEMMs count too
        over = median(ngpt[core]) / median(glu[core]) - 1
        goal = GPU_TARGETS["ngpt_over_pre_ln"]
        w(f"| the same against Pre-LN with nGPT's MLP (`pre_ln_glu`, the nGPT paper's baseline; it reports 10–17 %) |"
          f" {over:+.1%} | {'yes' if over <= goal else '**no**'} |")
