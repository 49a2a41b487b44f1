"""bench/run.py's contestants: the core from each build, the PyTorch peers on each interpreter."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def python_torch(py):
    """The torch version a Python interpreter imports, or None."""
    if not py or not os.access(py, os.X_OK):
        return None
    out = subprocess.run([py, "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else None


def short_version(v):
    return ".".join(v.split("+")[0].split(".")[:2])


def implementations(args):
    """The contestants: NormLab's core from each build, PyTorch eager on each interpreter, torch.compile on 2.x.

    Each is {"name", "kind": core|peer, "label", "cmd": [...]} ; the config path and the common flags follow cmd."""
    impls = []
    for name, build, label in (("normlab", args.build, "Debian LibTorch + OpenBLAS"),
                               ("normlab-2", args.build2, "PyPI LibTorch")):
        if build and build != "none":
            exe = os.path.join(build, "bench", "normlab-bench")
            if os.access(exe, os.X_OK) or args.dry_run:
                graph = ["--cuda-graph", "auto"] if name == "normlab-2" and args.device.startswith("cuda") else []
                impls.append({"name": name, "kind": "core", "label": f"NormLab, {label}",
                              "cmd": [exe, "train", "--device", args.device] + graph})
                if name == "normlab-2" and args.device.startswith("cuda") and not args.no_graph_pair:
                    # The same build with its step not captured: what the CUDA graph buys, paired.
                    impls.append({"name": "normlab-2-nograph", "kind": "core",
                                  "label": f"NormLab, {label}, no CUDA graph",
                                  "cmd": [exe, "train", "--device", args.device, "--cuda-graph", "off"]})
                if name == "normlab-2" and getattr(args, "ahead_pair", False):
                    # The same build reading each step's loss before queueing the next (train_loop.h's step ahead off).
                    impls.append({"name": "normlab-2-noahead", "kind": "core",
                                  "label": f"NormLab, {label}, no step ahead",
                                  "cmd": ["env", "NORMLAB_STEP_AHEAD=0", exe, "train", "--device", args.device] + graph})
            elif build != args.build2_default:
                sys.exit(f"{exe} is missing: build first")
    seen = set()
    for py in (args.python, args.python2):
        if not py or py == "none":
            continue
        v = python_torch(py) or ("2.x" if args.dry_run else None)
        if v is None or v in seen:
            continue
        seen.add(v)
        sv = short_version(v)
        peer = [py, os.path.join(HERE, "peer.py"), "--device", args.device]
        impls.append({"name": f"pytorch-{sv}", "kind": "peer", "label": f"PyTorch {sv} eager", "cmd": peer,
                      "version": v})
        if not v.startswith("1.") and not args.no_compile:
            impls.append({"name": f"compile-{sv}", "kind": "peer", "label": f"PyTorch {sv} torch.compile",
                          "cmd": peer + ["--compile"], "version": v})
            if args.autotune:
                impls.append({"name": f"autotune-{sv}", "kind": "peer",
                              "label": f"PyTorch {sv} torch.compile max-autotune-no-cudagraphs",
                              "cmd": peer + ["--compile", "--compile-mode", "max-autotune-no-cudagraphs"],
                              "version": v})
    return impls
