"""bench/run.py's raw results: written after every configuration, read back (several runs into one report),
and the cells of the report drawn from them (a failed contestant has none)."""
import json
import os
import sys

from common import median


def paired_ratio(r, peer, core="normlab"):
    """Median over repetitions of peer/core step time, each pair measured in the same repetition (nan where
    either failed)."""
    return median([p / c for p, c in zip(r.get("rep_" + peer, []), r.get("rep_" + core, []))])


def measured(results, sizes, schemes):
    """(size, its spec, scheme) of each configuration the results hold, in the table's order: a table still being
    measured, lease by lease, has gaps."""
    return [(size, s, scheme) for size, s in sizes for scheme in schemes if (size, scheme) in results]


def ms_cell(r, name):
    """A contestant's pooled median ms/step, or why there is none."""
    if r.get(name):
        return f"{median(r[name]):.1f}"
    return "failed" if name in r.get("failed", {}) else "–"


def ratio_cell(x, bold=True):
    if x != x:  # nan: a contestant failed
        return "–"
    return f"**{x:.2f}×**" if bold else f"{x:.2f}×"


def core_env():
    """The switches that change what the core's step runs, as the core reads them: its CUDA kernels, on unless the
    environment sets NORMLAB_CUDA_KERNELS=0 (since 2026-11-26; results written before hold {} for off)."""
    return {"NORMLAB_CUDA_KERNELS": "0" if os.environ.get("NORMLAB_CUDA_KERNELS") == "0" else "1"}


def save_raw(path, results, impls, args, probe=None, store=None, lever=None, fused=None, gui=None, overhead=None):
    """The raw measurements as --from-results reads them; written after every configuration too, so that a
    benchmark stopped by a time limit keeps what it measured."""
    with open(path + ".tmp", "w") as f:
        json.dump({"results": {f"{k[0]}/{k[1]}": v for k, v in results.items()}, "probe": probe or {}, "store": store,
                   "lever": lever or {}, "fused": fused or {}, "gui": gui, "overhead": overhead or {},
                   "impls": impls, "core_env": core_env(), "machine": getattr(args, "machine", None), "args": {k: getattr(args, k) for k in
                                            ("reps", "steps", "warmup", "threads", "device", "python2",
                                             "precision")}}, f)
    os.replace(path + ".tmp", path)


def load_raw(paths):
    """The first file's raw results with every file's configurations added (the same contestants in each)."""
    raw, results = None, {}
    for path in paths:
        with open(path) as f:
            one = json.load(f)
        if raw is not None and [i["name"] for i in one["impls"]] != [i["name"] for i in raw["impls"]]:
            sys.exit(f"--from-results: {path} has other contestants than {paths[0]}")
        raw = raw or one
        results.update({tuple(k.split("/")): v for k, v in one["results"].items()})
    return raw, results


def measured_elsewhere(paths, precision, names):
    """The configurations ((size, scheme) → the file) that earlier runs' raw results, with these contestants at
    this precision and the same core switches (core_env), already hold for each contestant — a time, or a failure (a compiler error comes back the
    same): a GPU lease goes on where the last one stopped, and --from-results draws all the files as one table.
    A configuration a time limit cut off was never written, so it is measured again."""
    done = {}
    for path in paths:
        try:
            with open(path) as f:
                one = json.load(f)
            precision_there = one.get("args", {}).get("precision", "fp32")
            names_there = [i["name"] for i in one["impls"]]
            env_there = one.get("core_env", {})
            results = one["results"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.exit(f"--skip-measured: {path} is not a results file of bench/run.py ({e}); give the results-*.json"
                     " a benchmark wrote (its --raw, or the results.json its last line names)")
        if precision_there != precision or names_there != names or env_there != core_env():
            print(f"--skip-measured: {path} skips nothing: it was measured in {precision_there} by "
                  f"{', '.join(names_there)} with {env_there or 'no core switches'}; this run is {precision} by "
                  f"{', '.join(names)} with {core_env() or 'no core switches'}", file=sys.stderr)
            continue
        for key, r in results.items():
            if all(r.get(n) or n in r.get("failed", {}) for n in names):
                done.setdefault(tuple(key.split("/")), os.path.basename(path))
    return done
