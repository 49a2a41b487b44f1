"""bench/run.py's sections 2 and 4: what probes cost, and NormFormer's and nGPT's step over Pre-LN's."""
import os
import statistics

from common import log, median, run_json


def probe_overhead(bench, args, s):
    """Probe overhead (at size s: the small one), pre_ln and normformer, alternating."""
    probe = {}
    for scheme in ["pre_ln", "normformer"]:
        base = [bench, "train", "--scheme", scheme, "--d", str(s["d"]), "--layers", str(s["layers"]), "--heads",
                str(s["heads"]), "--dff", str(s["dff"]), "--ctx", str(s["ctx"]), "--batch", str(s["batch"]),
                "--device", args.device, "--steps", str(max(args.steps, 40)), "--warmup", str(args.warmup),
                "--threads", str(args.threads)]
        # Probes cost on 1 step in 10, so means, not medians. Two estimates: back-to-back runs with and
        # without probes (ratio of mean step times, median over repetitions), and, free of the machine's
        # drift, within each probed run: all its steps against its unprobed steps.
        p = probe.setdefault(scheme, {"off": [], "default": [], "paired": [], "within": []})
        for rep in range(args.reps):
            pair = {}
            for mode in (("off", "default") if rep % 2 == 0 else ("default", "off")):
                ms = run_json(base + ["--probes", mode])["step_ms"]
                p[mode].extend(ms)
                pair[mode] = statistics.mean(ms)
                if mode == "default":
                    plain = [t for i, t in enumerate(ms) if (args.warmup + i) % 10 != 0]
                    p["within"].append(statistics.mean(ms) / statistics.mean(plain) - 1)
            p["paired"].append(pair["default"] / pair["off"] - 1)
        log(f"probes {scheme}: paired {median(p['paired']):+.1%}, within-run {median(p['within']):+.1%}")
    return probe


def scheme_overhead(bench, args, tmp, common):
    """Back to back (small size): NormFormer vs Pre-LN, nGPT vs Pre-LN with nGPT's MLP."""
    overhead = {}
    for base_s, scheme in [("pre_ln", "normformer"), ("pre_ln_glu", "ngpt")]:
        ratios = []
        for rep in range(max(args.reps, 5)):   # a few percent to resolve on a drifting VM: more pairs
            means = {}
            for sc in ((base_s, scheme) if rep % 2 == 0 else (scheme, base_s)):
                ms = run_json([bench, "train", "--config", os.path.join(tmp, f"small-{sc}.json"), "--device", args.device]
                              + common)["step_ms"]
                means[sc] = statistics.mean(ms)
            ratios.append(means[scheme] / means[base_s] - 1)
        overhead[scheme] = {"base": base_s, "ratios": ratios}
        log(f"overhead {scheme} over {base_s}: {median(ratios):+.1%} ({', '.join(f'{r:+.0%}' for r in ratios)})")
    return overhead
