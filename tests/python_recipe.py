#!/usr/bin/env python3
"""The Python recipe (examples/notebook_recipe.py) end to end, in the PyTorch 2.x environment.

Trains a two-run experiment with normlab-cli, exports one run's weights and a validation batch,
runs the recipe with the given interpreter (pandas, matplotlib, safetensors, PyTorch 2.x) and
checks what a notebook user would: a PNG with both runs plotted, both runs' final losses printed,
and the loss recomputed in PyTorch from the exported weights equal to the core's (the recipe
exits 1 otherwise).

    python_recipe.py --cli build-torch2/app/normlab-cli --python .venv-torch2/bin/python --workdir DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    w = lambda name: os.path.join(args.workdir, name)  # noqa: E731
    exp = {"name": "recipe",
           "base": {"model": {"d_model": 32, "n_layers": 2, "n_heads": 4, "d_ff": 64, "context": 16},
                    "train": {"steps": 30, "batch_size": 4, "threads": 1, "eval_every": 0},
                    "data": {"source": "markov", "markov": {"length": 5000}}},
           "variants": [{"name": "Pre-LN", "scheme": "pre_ln"}, {"name": "nGPT", "scheme": "ngpt"}]}
    with open(w("recipe.json"), "w") as f:
        json.dump(exp, f)
    store = ["--store", w("runs.sqlite")]
    for cmd in (["run", w("recipe.json")], ["export-weights", "nGPT", w("ngpt.safetensors")],
                ["eval-batch", "nGPT", w("batch.safetensors"), "--batch", "3"]):
        subprocess.run([args.cli, *cmd, *store], check=True, capture_output=True)
    out = subprocess.run([args.python, os.path.join(ROOT, "examples", "notebook_recipe.py"), "--store", w("runs.sqlite"),
                          "--weights", w("ngpt.safetensors"), "--eval", w("batch.safetensors"), "--out", w("loss.png")],
                         capture_output=True, text=True)
    print(out.stdout + out.stderr)
    if out.returncode != 0:
        sys.exit(f"the recipe failed ({out.returncode})")
    for must in ("Pre-LN", "nGPT", "loss on the batch: PyTorch"):
        if must not in out.stdout:
            sys.exit(f"the recipe's output lacks {must!r}")
    with open(w("loss.png"), "rb") as f:
        head = f.read(8)
    if head != b"\x89PNG\r\n\x1a\n" or os.path.getsize(w("loss.png")) < 10000:
        sys.exit("loss.png is not a plot")
    print("recipe ok")


if __name__ == "__main__":
    main()
