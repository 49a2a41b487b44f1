"""bench/run.py's GPU columns: tokens/s, model-FLOPs utilisation and GPU memory per contestant."""
import statistics


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
    for size, s in sizes:
        for scheme in schemes:
            if (size, scheme) not in results:   # a table still being measured, lease by lease
                continue
            r = results[(size, scheme)]
            fpt = flops_per_token(s, glu=scheme in ("ngpt", "pre_ln_glu"))
            cells = [size, scheme]
            for i in impls:
                ms = median(r.get(i["name"], []))
                if ms != ms:   # the contestant failed
                    cells.append("failed")
                    continue
                tps = s["batch"] * s["ctx"] / (ms / 1000)
                mem = r.get("memory_gib", {}).get(i["name"])
                mfu = f"{fpt * tps / peak:.1%}" if peak else "–"
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
