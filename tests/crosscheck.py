#!/usr/bin/python3
"""Cross-implementation check of NormLab's model against an independent PyTorch one.

For one case (a scheme, possibly with non-default components), this script
  1. trains a tiny run with normlab-cli (a few steps, so the weights are no longer at init),
  2. exports its weights (export-weights) and a validation batch with the core's
     logits and loss (eval-batch), both as safetensors,
  3. recomputes logits and loss here, in float64, from the equations of
     docs/SCHEMES.md (the design the C++ follows), written independently of the C++ code
     (LayerNorm, RMSNorm, GELU, RoPE and attention by hand, no torch.nn modules; examples/normlab_model.py),
  4. fails if they differ by more than the tolerance below.
The core computes in float32 (observed differences ~5e-7): tolerance 2e-5 absolute on logits, 2e-6 on the loss.
Uses Debian's python3-torch; no safetensors package is needed (the format is parsed here).
"""
import argparse
import json
import os
import struct
import subprocess
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples"))
from normlab_model import Reference  # noqa: E402  (the independent model, shared with the Python recipe)

LOGIT_TOL = 2e-5
LOSS_TOL = 2e-6

CASES = {
    "post_ln": ("post_ln", {}),
    "pre_ln": ("pre_ln", {}),
    "normformer": ("normformer", {}),
    "deepnorm": ("deepnorm", {}),
    "branchnorm": ("branchnorm", {"model": {"branchnorm": {"T": 20}}}),  # α_t = 8/20 after 8 steps
    "ngpt": ("ngpt", {"optim": {"lr": 0.01}}),
    "pre_ln_rope_swiglu_rms": ("pre_ln", {"model": {"positions": "rope", "activation": "swiglu", "norm": "rmsnorm",
                                                    "bias": False}}),
    "normformer_fairseq_resscale": ("normformer", {"model": {"normformer": {"head_scale_placement": "after_out_proj",
                                                                            "res_scale": True}}}),
    "post_ln_sinusoidal_relu_untied": ("post_ln", {"model": {"positions": "sinusoidal", "activation": "relu",
                                                             "tie_embeddings": False, "init": "xavier",
                                                             "embed_scale": True}}),
    "ngpt_no_qknorm": ("ngpt", {"model": {"ngpt": {"qk_norm": False}, "positions": "none"}, "optim": {"lr": 0.01}}),
}

DTYPES = {"F32": torch.float32, "F64": torch.float64, "I64": torch.int64, "I32": torch.int32, "U8": torch.uint8}


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    body = data[8 + n:]
    meta = header.pop("__metadata__", {})
    tensors = {}
    for name, h in header.items():
        b, e = h["data_offsets"]
        t = torch.frombuffer(bytearray(body[b:e]), dtype=DTYPES[h["dtype"]]).reshape(h["shape"])
        tensors[name] = t.to(torch.float64) if t.is_floating_point() else t
    return tensors, meta


def train_and_export(args, prefix, exp):
    """Trains `exp` into PREFIX.sqlite (a fresh store) and exports the run's weights; returns
    the run's id and the --store arguments."""
    for suffix in (".sqlite", ".sqlite-wal", ".sqlite-shm"):
        if os.path.exists(prefix + suffix):
            os.remove(prefix + suffix)
    with open(prefix + ".json", "w") as f:
        json.dump(exp, f)
    store = ["--store", prefix + ".sqlite"]
    run = subprocess.run([args.cli, "run", prefix + ".json"] + store, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"normlab-cli run failed ({run.returncode}): {run.stderr}")
    run_id = run.stdout.split()[0]
    subprocess.run([args.cli, "export-weights", run_id, prefix + ".weights.safetensors"] + store, check=True)
    return run_id, store


def check_batches(args):
    """export-batches: the tokens each training step drew. A run whose learning rate is 1e-30
    keeps its initial weights to the last bit (an update of ~1e-30 vanishes against weights of
    ~1e-2 in float32), so the train loss recorded at every step must be the reference model's
    loss, with the exported weights, on the exported batch of that step."""
    prefix = os.path.join(args.workdir, "batches")
    steps = 12
    exp = {"name": "crosscheck-batches",
           "base": {"model": {"d_model": 32, "n_layers": 2, "n_heads": 4, "d_ff": 64, "context": 16},
                    "optim": {"lr": 1e-30, "schedule": {"kind": "constant", "warmup": 0}},
                    "train": {"steps": steps, "batch_size": 4, "threads": 1, "eval_every": 0},
                    "data": {"source": "markov", "markov": {"length": 5000}}},
           "variants": [{"name": "pre_ln", "scheme": "pre_ln"}]}
    run_id, store = train_and_export(args, prefix, exp)
    subprocess.run([args.cli, "export-batches", run_id, "--steps", f"0..{steps - 1}", "--out", prefix + ".batches.safetensors"]
                   + store, check=True, capture_output=True)
    bad = subprocess.run([args.cli, "export-batches", run_id, "--steps", f"0..{steps}", "--out", prefix + ".x.safetensors"]
                         + store, capture_output=True, text=True)
    if bad.returncode != 2 or "--steps" not in bad.stderr or os.path.exists(prefix + ".x.safetensors"):
        sys.exit(f"a range past the run's steps was not refused naming --steps: {bad.returncode} {bad.stderr}")
    W, wmeta = read_safetensors(prefix + ".weights.safetensors")
    B, bmeta = read_safetensors(prefix + ".batches.safetensors")
    if list(B["tokens"].shape) != [steps, 4, 17] or B["steps"].tolist() != list(range(steps)):
        sys.exit(f"export-batches: tokens {list(B['tokens'].shape)}, steps {B['steps'].tolist()}")
    import sqlite3
    db = sqlite3.connect(f"file:{prefix}.sqlite?mode=ro", uri=True)
    recorded = dict(db.execute("SELECT p.step, p.value FROM points p JOIN series s ON s.id = p.series_id"
                               " WHERE s.run_id = ? AND s.name = 'train/loss'", (int(run_id),)).fetchall())
    ref = Reference(W, json.loads(wmeta["config"]), 1.0)
    worst = 0.0
    for i, step in enumerate(B["steps"].tolist()):
        tok = B["tokens"][i]
        logits = ref.logits(tok[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 256), tok[:, 1:].reshape(-1)).item()
        worst = max(worst, abs(loss - recorded[step]))
    print(f"batches: {steps} steps exported; max |reference loss on the exported batch - recorded train/loss| = {worst:.3e}"
          f" (tolerance {LOSS_TOL:g})")
    if worst > LOSS_TOL:
        sys.exit("export-batches: the exported batches are not what the steps trained on")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--case", required=True, choices=sorted(CASES) + ["batches"])
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    if args.case == "batches":
        return check_batches(args)
    scheme, overrides = CASES[args.case]
    base = {"model": {"d_model": 32, "n_layers": 2, "n_heads": 4, "d_ff": 64, "context": 16},
            "optim": {"lr": 0.005, "schedule": {"kind": "constant", "warmup": 0}},
            "train": {"steps": 8, "batch_size": 4, "threads": 1, "eval_every": 0},
            "data": {"source": "markov", "markov": {"length": 5000}}}
    variant = dict(overrides)
    variant["name"] = args.case
    variant["scheme"] = scheme
    exp = {"name": "crosscheck-" + args.case, "base": base, "variants": [variant]}
    prefix = os.path.join(args.workdir, args.case)
    run_id, store = train_and_export(args, prefix, exp)
    subprocess.run([args.cli, "eval-batch", run_id, prefix + ".eval.safetensors", "--batch", "3", "--seed", "11"] + store,
                   check=True, capture_output=True)

    W, wmeta = read_safetensors(prefix + ".weights.safetensors")
    E, emeta = read_safetensors(prefix + ".eval.safetensors")
    cfg = json.loads(wmeta["config"])
    ref = Reference(W, cfg, float(json.loads(emeta["branch_alpha"])))
    tokens = E["tokens"]
    logits = ref.logits(tokens[:, :-1])
    loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 256), tokens[:, 1:].reshape(-1)).item()
    dl = (logits - E["logits"]).abs().max().item()
    dloss = abs(loss - E["loss"].item())
    print(f"{args.case}: scheme {scheme}, {len(W)} tensors, branch α {ref.branch:.3f}, DeepNorm α {ref.alpha:.4f}")
    print(f"  max |Δlogit| = {dl:.3e} (tolerance {LOGIT_TOL:g}), |Δloss| = {dloss:.3e} (tolerance {LOSS_TOL:g}),"
          f" loss core {E['loss'].item():.6f} reference {loss:.6f}")
    if not (dl <= LOGIT_TOL and dloss <= LOSS_TOL):
        sys.exit(f"{args.case}: the core and the reference disagree")


if __name__ == "__main__":
    main()
