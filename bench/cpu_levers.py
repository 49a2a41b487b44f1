"""bench/run.py's CPU levers: the BLAS pin (with and without ATen's AVX-512 kernels on the peer) and the
core's fused CPU kernels against LibTorch's eager ops, each alternated within a repetition."""
import json
import os
import subprocess

from common import log, median

HERE = os.path.dirname(os.path.abspath(__file__))


def has_avx512():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags
    except OSError:
        pass
    return False


def levers(bench, path, args):
    """Both implementations with the environment's BLAS pin and without it (pre_ln, small)."""
    out = {}
    base_env = dict(os.environ)
    unpinned = {k: v for k, v in base_env.items() if k not in ("OPENBLAS_CORETYPE", "NORMLAB_CPU_TUNED")}
    cases = [("as configured", base_env, base_env),
             ("BLAS unpinned", unpinned, unpinned)]
    if has_avx512():   # without AVX-512 the peer would die of SIGILL
        cases.append(("BLAS unpinned, peer with ATen AVX-512 too", unpinned, dict(unpinned, ATEN_CPU_CAPABILITY="avx512")))
    common = ["--steps", "20", "--warmup", str(args.warmup), "--threads", str(args.threads)]
    for name, core_env, peer_env in cases:
        core, peer = [], []
        for rep in range(args.reps):
            c = json.loads(subprocess.run([bench, "train", "--config", path] + common, env=core_env, check=True,
                                          capture_output=True, text=True).stdout.splitlines()[-1])
            p = json.loads(subprocess.run([args.python, os.path.join(HERE, "peer.py"), "--config", path] + common,
                                          env=peer_env, check=True, capture_output=True, text=True).stdout.splitlines()[-1])
            core.append(c["step_ms_median"])
            peer.append(p["step_ms_median"])
            blas, tuning = c["blas_core"], c["cpu_tuning"]
        out[name] = {"core": median(core), "peer": median(peer),
                     "ratio": median([b / a for a, b in zip(core, peer)]), "blas": blas, "tuning": tuning}
        log(f"lever {name}: core {out[name]['core']:.1f} ms, peer {out[name]['peer']:.1f} ms ({blas}; {tuning})")
    return out


def kernel_levers(bench, tmp, sizes, schemes, args):
    """The core with its fused CPU kernels and with LibTorch's eager ops instead, alternated (same binary)."""
    out = {}
    common = ["--steps", "20", "--warmup", str(args.warmup), "--threads", str(args.threads)]
    cases = [(size, sc) for size, _ in sizes for sc in ("pre_ln", "normformer", "ngpt", "pre_ln_glu") if sc in schemes]
    for size, scheme in cases:
        path = os.path.join(tmp, f"{size}-{scheme}.json")
        eager, fused, ratios = [], [], []
        for rep in range(args.reps):
            pair = {}
            for mode in (("1", "0") if rep % 2 == 0 else ("0", "1")):
                env = dict(os.environ, NORMLAB_FUSED_KERNELS=mode)
                r = json.loads(subprocess.run([bench, "train", "--config", path] + common, env=env, check=True,
                                              capture_output=True, text=True).stdout.splitlines()[-1])
                pair[mode] = r["step_ms_median"]
            eager.append(pair["0"])
            fused.append(pair["1"])
            ratios.append(pair["0"] / pair["1"])
        out[f"{size}/{scheme}"] = {"eager": median(eager), "fused": median(fused), "speedup": median(ratios)}
        log(f"fused kernels {size} {scheme}: eager ops {median(eager):.1f} ms, fused {median(fused):.1f} ms"
            f" ({median(ratios):.2f}×)")
    return out
