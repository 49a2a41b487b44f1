"""The machine a benchmark runs on, as bench/run.py's report names it and its raw results record it."""
import os
import platform
import subprocess


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            mem = f"{int(f.readline().split()[1]) / 1048576:.0f} GiB"
    except OSError:
        pass
    blas = os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem, "os": platform.platform(), "blas": blas}


def measuring_machine(args):
    """This machine as the report names it, with its GPU (by the 2.x interpreter) when measuring on CUDA; kept in
    the raw results, so that a table drawn from them elsewhere (--from-results) names where they were measured."""
    m = machine()
    if args.device.startswith("cuda"):
        try:
            q = subprocess.run([args.python2, "-c", "import torch; print(torch.cuda.get_device_name(), torch.version.cuda,"
                                " torch.__version__, sep='|')"], capture_output=True, text=True)
            name, cuda, torch_version = (q.stdout.strip().split("|") + ["", "", ""])[:3]
        except OSError:
            name = cuda = torch_version = ""
        m["gpu"] = name
        m["cpu"] += f"; GPU {name or 'unknown'}" + (f", CUDA {cuda}, PyTorch {torch_version}" if cuda else "")
    return m
