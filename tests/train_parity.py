#!/usr/bin/env python3
"""Training-step parity of NormLab against x-transformers (issue 29, item 2).

For each scheme x-transformers covers, this script
  1. trains a tiny run with normlab-cli for N steps (warm-up, cosine decay, AdamW with
     its two parameter groups, gradient clipping that bites) and exports the exact tokens
     every step drew (export-batches) and its weights after the last step;
  2. gets the run's step-0 weights: the same experiment with a learning rate of 1e-30
     for one step keeps its initial weights to the last bit (same seed, same init);
  3. builds the same network from x-transformers' own modules (Decoder with pre_norm,
     sandwich norm, head scale, post-activation LN, learned residual scales or a
     constant residual scale), loads the step-0 weights, and replays the N steps on the
     same batches with torch.optim.AdamW, torch's clip_grad_norm_ and the schedule written
     here from docs/CONFIG.md — in float64;
  4. compares, step by step, the loss, the learning rate and the per-layer gradient norms
     NormLab recorded (mean |dL/dW| and Frobenius norm of every layer's fc2, attention
     output and query/key/value weights, before clipping), and every weight after the
     last step.

Where x-transformers' formulation differs from NormLab's it is mapped, and said here:
  - its LayerNorm has no bias; NormLab's has one: x-transformers' LayerNorm modules are
    replaced by ones with a bias (the block structure stays x-transformers');
  - "sandwich_norm" normalises the output of both branches; NormFormer's post-attention
    LN is on the attention branch only: the FFN branch's post-norm is removed;
  - DeepNorm (removed from x-transformers 2.x) is its post-norm decoder with the constant
    residual scale alpha = (2N)^(1/4) (scale_residual_constant); its beta init is NormLab's,
    loaded with the weights;
  - NormLab's fused qkv weight is split into to_q, to_k, to_v; HeadScale (H) becomes
    head_scale_params (1, H, 1, 1), applied before the output projection in both;
  - positions are off in both (x-transformers' absolute embedding is scaled by d^-1/2), and the tied
    output embedding is used without x-transformers' default logit scale d^-1/2 (tie_embedding_scale=1).
Tolerances are stated below, against NormLab's float32 and the float64 replay here.
"""
import argparse
import json
import math
import os
import sqlite3
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crosscheck import read_safetensors, train_and_export  # noqa: E402  (no safetensors package needed)

from x_transformers import Decoder, TransformerWrapper  # noqa: E402
import x_transformers.x_transformers as xt  # noqa: E402

STEPS = 10
# Measured (x-transformers 2.31.10, torch 2.11, 10 steps): |dloss| <= 6.3e-7, gradient norms <= 4.2e-6 relative,
# weights <= 1.8e-6 — float32 rounding. The tolerances leave ~10x; one step with a wrong weight-decay group,
# learning rate, clipping or norm placement moves weights by ~1e-3.
LOSS_TOL = 5e-6       # |loss NormLab - loss replay|, every step
GRAD_RTOL = 5e-5      # relative, per layer and weight, every recorded step
WEIGHT_TOL = 2e-5     # max |weight NormLab - weight replay| after the last step (lr 3e-3: weights move ~3e-2)

D, L, H, FF, T, B = 32, 2, 4, 128, 16, 4

CASES = {
    "pre_ln": ("pre_ln", {}),
    "post_ln": ("post_ln", {}),
    "normformer": ("normformer", {}),
    "normformer_resscale": ("normformer", {"model": {"normformer": {"res_scale": True}}}),
    "deepnorm": ("deepnorm", {}),
}


class BiasLayerNorm(nn.Module):
    """LayerNorm with weight and bias, in place of x-transformers' bias-less one."""

    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.eps = eps

    def forward(self, x):
        return F.layer_norm(x, (x.shape[-1],), self.weight, self.bias, self.eps)


def experiment(case, steps, lr):
    scheme, overrides = CASES[case]
    variant = json.loads(json.dumps(overrides))
    variant.setdefault("model", {}).update({"positions": "none", "bias": False, "dropout": 0.0})
    variant["name"], variant["scheme"] = case, scheme
    return {"name": "parity-" + case,
            "base": {"model": {"d_model": D, "n_layers": L, "n_heads": H, "d_ff": FF, "context": T},
                     "optim": {"lr": lr, "weight_decay": 0.1, "grad_clip": 1.5,
                               "schedule": {"kind": "cosine", "warmup": 3, "min_lr_ratio": 0.1}},
                     "train": {"steps": steps, "batch_size": B, "threads": 1, "eval_every": 0, "seed": 3},
                     "probes": {"grads_every": 1, "forward_every": 0, "gains_every": 0, "cond_every": 0},
                     "data": {"source": "markov", "markov": {"length": 20000}}},
            "variants": [variant]}


def recorded(prefix, run_id):
    db = sqlite3.connect(f"file:{prefix}.sqlite?mode=ro", uri=True)
    rows = db.execute("SELECT s.name, s.layer, p.step, p.value FROM points p JOIN series s ON s.id = p.series_id"
                      " WHERE s.run_id = ?", (int(run_id),)).fetchall()
    out = {}
    for name, layer, step, value in rows:
        out[(name, layer, step)] = value
    return out


def learning_rate(cfg, step):
    """docs/CONFIG.md: linear warm-up lr*t/warmup for t <= warmup, then cosine to min_lr_ratio*lr; step s (from 0)
    trains with t = s + 1, so the first step has lr/warmup, never 0."""
    o, s = cfg["optim"], cfg["optim"]["schedule"]
    t = step + 1
    if t <= s["warmup"]:
        return o["lr"] * t / s["warmup"]
    floor = o["lr"] * s["min_lr_ratio"]
    progress = min(max((t - s["warmup"]) / max(1, cfg["train"]["steps"] - s["warmup"]), 0.0), 1.0)
    return floor + (o["lr"] - floor) * 0.5 * (1 + math.cos(math.pi * progress))


def build(cfg):
    m = cfg["model"]
    scheme = m["scheme"] if "scheme" in m else cfg.get("scheme")
    nf = m["normformer"]
    pre = m["layout"] == "pre"
    kwargs = dict(dim=D, depth=L, heads=H, attn_dim_head=D // H, ff_mult=FF / D, ff_no_bias=True, pre_norm=pre,
                  attn_head_scale=nf["head_scale"], sandwich_norm=nf["post_attn_norm"], ff_post_act_ln=nf["ffn_norm"],
                  scale_residual=nf["res_scale"])
    if m["deepnorm"]["residual"]:
        kwargs["scale_residual_constant"] = (2 * L) ** 0.25   # DeepNorm's decoder-only alpha
    # tied output embedding without x-transformers' default 1/sqrt(d) logit scale (NormLab: logits = x E^T)
    model = TransformerWrapper(num_tokens=256, max_seq_len=T, use_abs_pos_emb=False, tie_embedding=True, tie_embedding_scale=1.0,
                               attn_layers=Decoder(**kwargs))
    # a final norm where NormLab has one (x-transformers: only after pre-norm layers)
    model.attn_layers.final_norm = BiasLayerNorm(D, m["norm_eps"]) if m["final_norm"] else nn.Identity()
    if nf["res_scale"]:   # NormLab's ResScale scales the residual around the FFN only (examples/normlab_model.py)
        for i, layer in enumerate(model.attn_layers.layers):
            if i % 2 == 0:
                layer[2].residual_scale = None
    # x-transformers' bias-less LayerNorms → LayerNorms with a bias (NormLab's)
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if isinstance(child, xt.LayerNorm):
                setattr(parent, name, BiasLayerNorm(child.gamma.shape[0], m["norm_eps"]))
    if nf["post_attn_norm"]:   # NormFormer: a post-norm on the attention branch only
        for i, layer in enumerate(model.attn_layers.layers):
            if i % 2 == 1:
                layer[0][1] = None
    return model.double(), scheme


def ff_parts(layer):
    """x-transformers' FeedForward as (fc1, fc2, post-activation LN or None): its Sequential drops absent parts."""
    linears = [mod for mod in layer[1].ff.modules() if isinstance(mod, nn.Linear)]
    norms = [mod for mod in layer[1].ff.modules() if isinstance(mod, BiasLayerNorm)]
    return linears[0], linears[-1], norms[0] if norms else None


def load(model, W, cfg):
    """NormLab's weights (docs/WEIGHTS.md) into the x-transformers model; returns (name → x-transformers param) pairs."""
    m = cfg["model"]
    pairs = {"tok_emb.weight": model.token_emb.emb.weight}
    layers = model.attn_layers.layers
    pre = m["layout"] == "pre"
    for i in range(L):
        attn, ff = layers[2 * i], layers[2 * i + 1]
        b = f"blocks.{i}."
        norm_slot = 0 if pre else 2   # the pre-branch norm, or the post-main one
        pairs[b + "norm1.weight"], pairs[b + "norm1.bias"] = attn[0][norm_slot].weight, attn[0][norm_slot].bias
        pairs[b + "norm2.weight"], pairs[b + "norm2.bias"] = ff[0][norm_slot].weight, ff[0][norm_slot].bias
        a = attn[1]
        pairs[b + "attn.out.weight"] = a.to_out.weight
        if m["normformer"]["head_scale"]:
            pairs[b + "attn.head_scale"] = a.head_scale_params
        if m["normformer"]["post_attn_norm"]:
            pairs[b + "attn.post_norm.weight"], pairs[b + "attn.post_norm.bias"] = attn[0][1].weight, attn[0][1].bias
        fc1, fc2, ffn_norm = ff_parts(ff)
        pairs[b + "mlp.fc1.weight"], pairs[b + "mlp.fc2.weight"] = fc1.weight, fc2.weight
        if m["normformer"]["ffn_norm"]:
            pairs[b + "mlp.ffn_norm.weight"], pairs[b + "mlp.ffn_norm.bias"] = ffn_norm.weight, ffn_norm.bias
        if m["normformer"]["res_scale"]:
            pairs[b + "res_scale"] = ff[2].residual_scale
    if m["final_norm"]:
        fn = model.attn_layers.final_norm
        pairs["final_norm.weight"], pairs["final_norm.bias"] = fn.weight, fn.bias
    with torch.no_grad():
        for i in range(L):
            q, k, v = W[f"blocks.{i}.attn.qkv.weight"].split(D, 0)
            a = layers[2 * i][1]
            a.to_q.weight.copy_(q), a.to_k.weight.copy_(k), a.to_v.weight.copy_(v)
        for name, p in pairs.items():
            p.copy_(W[name.split("@")[0]].reshape(p.shape))
    unmapped = set(W) - {n.split("@")[0] for n in pairs} - {f"blocks.{i}.attn.qkv.weight" for i in range(L)}
    if unmapped:
        sys.exit(f"NormLab weights with no place in the x-transformers model: {sorted(unmapped)}")
    return pairs


def weights_now(model, pairs):
    """The replay's weights under NormLab's names (qkv fused again)."""
    out = {n: p.detach().reshape(-1) for n, p in pairs.items() if "@" not in n}
    for i in range(L):
        a = model.attn_layers.layers[2 * i][1]
        out[f"blocks.{i}.attn.qkv.weight"] = torch.cat([a.to_q.weight, a.to_k.weight, a.to_v.weight]).detach().reshape(-1)
    return out


def check(case, cli, workdir):
    prefix = os.path.join(workdir, case)
    args = argparse.Namespace(cli=cli)
    run_id, store = train_and_export(args, prefix, experiment(case, STEPS, 3e-3))
    subprocess.run([cli, "export-batches", run_id, "--steps", f"0..{STEPS - 1}", "--out", prefix + ".batches.safetensors"] + store,
                   check=True, capture_output=True)
    train_and_export(args, prefix + "-init", experiment(case, 1, 1e-30))
    W0, meta = read_safetensors(prefix + "-init.weights.safetensors")
    WN, _ = read_safetensors(prefix + ".weights.safetensors")
    batches, _ = read_safetensors(prefix + ".batches.safetensors")
    cfg = json.loads(meta["config"])
    cfg["train"]["steps"] = STEPS
    cfg["optim"]["lr"] = 3e-3
    rec = recorded(prefix, run_id)
    if cfg["model"]["deepnorm"]["residual"] and abs(rec[("deepnorm/alpha", -1, 0)] - (2 * L) ** 0.25) > 1e-12:
        sys.exit(f"{case}: NormLab's DeepNorm alpha {rec[('deepnorm/alpha', -1, 0)]} is not (2N)^(1/4) = {(2 * L) ** 0.25}")
    model, _ = build(cfg)
    pairs = load(model, W0, cfg)
    # AdamW's two groups as NormLab forms them: decay on matrices and embeddings only
    decay, no_decay = [], []
    for n, p in model.named_parameters():
        (decay if (p.ndim == 2) else no_decay).append(p)
    o = cfg["optim"]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": o["weight_decay"]}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=o["lr"], betas=(o["beta1"], o["beta2"]), eps=o["eps"])
    watched = {"fc2": lambda i: ff_parts(model.attn_layers.layers[2 * i + 1])[1].weight,
               "o": lambda i: model.attn_layers.layers[2 * i][1].to_out.weight,
               "q": lambda i: model.attn_layers.layers[2 * i][1].to_q.weight,
               "k": lambda i: model.attn_layers.layers[2 * i][1].to_k.weight,
               "v": lambda i: model.attn_layers.layers[2 * i][1].to_v.weight}
    worst = {"loss": 0.0, "lr": 0.0, "grad": 0.0, "weight": 0.0}
    clipped = 0
    for k, step in enumerate(batches["steps"].tolist()):
        lr = learning_rate(cfg, step)
        worst["lr"] = max(worst["lr"], abs(lr - rec[("train/lr", -1, step)]))
        for g in opt.param_groups:
            g["lr"] = lr
        tok = batches["tokens"][k]
        opt.zero_grad()
        logits = model(tok[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, 256), tok[:, 1:].reshape(-1))
        loss.backward()
        worst["loss"] = max(worst["loss"], abs(loss.item() - rec[("train/loss", -1, step)]))
        for w, param in watched.items():
            for i in range(L):
                g = param(i).grad
                for series, mine in ((f"grad_l1/{w}", g.abs().mean().item()), (f"grad_l2/{w}", g.norm().item())):
                    theirs = rec.get((series, i, step))
                    if theirs is None:
                        sys.exit(f"{case}: NormLab recorded no {series} for layer {i} at step {step}")
                    worst["grad"] = max(worst["grad"], abs(mine - theirs) / max(abs(theirs), 1e-30))
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), o["grad_clip"])
        clipped += norm.item() > o["grad_clip"]
        opt.step()
    mine = weights_now(model, pairs)
    for name, t in WN.items():
        worst["weight"] = max(worst["weight"], (mine[name] - t.reshape(-1)).abs().max().item())
    from importlib.metadata import version
    print(f"{case}: {STEPS} steps ({clipped} clipped), against x-transformers {version('x-transformers')}: "
          f"max |dloss| {worst['loss']:.2e} (tol {LOSS_TOL:g}), |dlr| {worst['lr']:.1e}, "
          f"grad norms rel {worst['grad']:.2e} (tol {GRAD_RTOL:g}), weights {worst['weight']:.2e} (tol {WEIGHT_TOL:g})")
    if clipped == 0 or clipped == STEPS:
        sys.exit(f"{case}: {clipped} of {STEPS} steps clipped; the test would not see both paths of clipping")
    if not (worst["loss"] <= LOSS_TOL and worst["lr"] <= 1e-12 and worst["grad"] <= GRAD_RTOL and worst["weight"] <= WEIGHT_TOL):
        sys.exit(f"{case}: NormLab's training step and x-transformers' disagree")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    torch.manual_seed(0)
    check(args.case, args.cli, args.workdir)


if __name__ == "__main__":
    main()
