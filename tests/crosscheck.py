#!/usr/bin/python3
"""Cross-implementation check of NormLab's model against an independent PyTorch one.

For one case (a scheme, possibly with non-default components), this script
  1. trains a tiny run with normlab-cli (a few steps, so the weights are no longer at init),
  2. exports its weights (export-weights) and a validation batch with the core's
     logits and loss (eval-batch), both as safetensors,
  3. recomputes logits and loss here, in float64, from the equations of
     docs/SCHEMES.md (the design the C++ follows), written independently of the C++ code
     (LayerNorm, RMSNorm, GELU, RoPE and attention by hand, no torch.nn modules),
  4. fails if they differ by more than the tolerance below.
The core computes in float32 (observed differences ~5e-7): tolerance 2e-5 absolute on logits, 2e-6 on the loss.
Uses Debian's python3-torch; no safetensors package is needed (the format is parsed here).
"""
import argparse
import json
import math
import os
import struct
import subprocess
import sys

import torch

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


# ---- the reference model ---------------------------------------------------------------------
def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * w + b


def rms_norm(x, w, eps):
    return x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps) * w


def gelu(x):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def silu(x):
    return x / (1.0 + torch.exp(-x))


def unit(x, eps):
    return x / (torch.sqrt((x * x).sum(-1, keepdim=True)) + eps)


class Reference:
    def __init__(self, W, cfg, branch_alpha):
        self.W, self.cfg, self.m = W, cfg, cfg["model"]
        self.branch = branch_alpha
        self.d, self.H = self.m["d_model"], self.m["n_heads"]
        self.dh = self.d // self.H
        self.ngpt = self.m["layout"] == "ngpt"
        dn = self.m["deepnorm"]
        n = self.m["n_layers"]
        self.alpha = (dn["alpha"] if dn["alpha"] is not None else (2 * n) ** 0.25) if dn["residual"] else 1.0

    def norm(self, x, prefix):
        w = self.W[prefix + ".weight"]
        if self.m["norm"] == "rmsnorm":
            return rms_norm(x, w, self.m["norm_eps"])
        return layer_norm(x, w, self.W[prefix + ".bias"], self.m["norm_eps"])

    def linear(self, x, prefix):
        y = x @ self.W[prefix + ".weight"].T
        if prefix + ".bias" in self.W:
            y = y + self.W[prefix + ".bias"]
        return y

    def rope(self, x):  # x: (B, H, T, dh), rotate-half form, base 10000
        T, dh = x.shape[2], x.shape[3]
        inv = 1.0 / (10000.0 ** (torch.arange(0, dh, 2, dtype=torch.float64) / dh))
        ang = torch.arange(T, dtype=torch.float64)[:, None] * inv[None, :]
        cos, sin = torch.cos(torch.cat([ang, ang], -1)), torch.sin(torch.cat([ang, ang], -1))
        x1, x2 = x[..., : dh // 2], x[..., dh // 2:]
        return x * cos + torch.cat([-x2, x1], -1) * sin

    def attention(self, x, p):
        B, T, d = x.shape
        H, dh = self.H, self.dh
        qkv = self.linear(x, p + ".qkv")
        q, k, v = (qkv[..., i * d:(i + 1) * d].reshape(B, T, H, dh).transpose(1, 2) for i in range(3))
        if self.m["positions"] == "rope":
            q, k = self.rope(q), self.rope(k)
        scale = 1.0 / math.sqrt(dh)
        if self.ngpt:
            sqk = (self.W[p + ".s_qk"] * math.sqrt(d)).reshape(1, H, 1, dh)   # s = θ·(1/(1/√d))
            if self.m["ngpt"]["qk_norm"]:
                q, k = unit(q, self.m["ngpt"]["eps"]), unit(k, self.m["ngpt"]["eps"])
            q, k = q * sqk, k * sqk
            scale = math.sqrt(dh)
        att = (q @ k.transpose(-1, -2)) * scale
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        att = torch.softmax(att.masked_fill(mask, float("-inf")), -1)
        y = att @ v                                                          # (B, H, T, dh)
        nf = self.m["normformer"]
        if nf["head_scale"] and nf["head_scale_placement"] == "before_out_proj":
            y = y * self.W[p + ".head_scale"].reshape(1, H, 1, 1)
        o = self.linear(y.transpose(1, 2).reshape(B, T, d), p + ".out")
        if nf["head_scale"] and nf["head_scale_placement"] == "after_out_proj":
            o = (o.reshape(B, T, H, dh) * self.W[p + ".head_scale"].reshape(1, 1, H, 1)).reshape(B, T, d)
        if nf["post_attn_norm"]:
            o = self.norm(o, p + ".post_norm")
        return o

    def mlp(self, x, p):
        h = self.linear(x, p + ".fc1")
        act = self.m["activation"]
        if act == "swiglu":
            f = h.shape[-1] // 2
            u, g = h[..., :f], h[..., f:]
            if self.ngpt:
                u = u * self.W[p + ".s_u"]
                g = g * self.W[p + ".s_v"] * math.sqrt(self.d)
            a = u * silu(g)
        elif act == "gelu":
            a = gelu(h)
        else:
            a = torch.clamp(h, min=0)
        if self.m["normformer"]["ffn_norm"]:
            a = self.norm(a, p + ".ffn_norm")
        return self.linear(a, p + ".fc2")

    def block(self, x, i):
        p = f"blocks.{i}"
        if self.ngpt:
            eps = self.m["ngpt"]["eps"]
            s = self.m["ngpt"]["alpha_init"] * math.sqrt(self.d)               # s_init / s_scale
            aA, aM = (self.W[p + ".alpha_A"] * s).abs(), (self.W[p + ".alpha_M"] * s).abs()
            x = unit(x + aA * (unit(self.attention(x, p + ".attn"), eps) - x), eps)
            return unit(x + aM * (unit(self.mlp(x, p + ".mlp"), eps) - x), eps)
        a, b = self.alpha, self.branch
        lam = self.W.get(p + ".res_scale")
        if self.m["layout"] == "post":
            x = self.norm(a * x + b * self.attention(x, p + ".attn"), p + ".norm1")
            r = a * x if lam is None else a * x * lam
            return self.norm(r + b * self.mlp(x, p + ".mlp"), p + ".norm2")
        x = a * x + b * self.attention(self.norm(x, p + ".norm1"), p + ".attn")
        r = a * x if lam is None else a * x * lam
        return r + b * self.mlp(self.norm(x, p + ".norm2"), p + ".mlp")

    def logits(self, idx):
        T = idx.shape[1]
        x = self.W["tok_emb.weight"][idx]
        if self.m.get("embed_scale"):
            x = x * math.sqrt(self.d)
        if self.m["positions"] == "learned":
            x = x + self.W["pos_emb"][:T]
        elif self.m["positions"] == "sinusoidal":
            d = self.d
            pe = torch.zeros(T, d, dtype=torch.float64)
            pos = torch.arange(T, dtype=torch.float64)[:, None]
            i = torch.arange(0, d, 2, dtype=torch.float64)
            pe[:, 0::2] = torch.sin(pos / 10000.0 ** (i / d))
            pe[:, 1::2] = torch.cos(pos / 10000.0 ** (i[: d // 2] / d))
            x = x + pe
        for i in range(self.m["n_layers"]):
            x = self.block(x, i)
        if self.m["final_norm"]:
            x = self.norm(x, "final_norm")
        out = self.W["lm_head"] if "lm_head" in self.W else self.W["tok_emb.weight"]
        z = x @ out.T
        if self.ngpt:
            z = z * (self.W["s_z"] * math.sqrt(self.d))
        return z


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
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
