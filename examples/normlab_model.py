"""NormLab's model in plain PyTorch, from the equations of docs/SCHEMES.md.

An independent implementation (LayerNorm, RMSNorm, GELU, RoPE and attention written out, no
torch.nn modules) of every scheme NormLab trains, reading the tensors of a weight file that
`normlab-cli export-weights` wrote (docs/WEIGHTS.md). tests/crosscheck.py holds the core's
logits against it; examples/notebook_recipe.py uses it to evaluate exported weights.

    from safetensors import safe_open
    with safe_open("run.safetensors", "pt") as f:
        W = {k: f.get_tensor(k).double() for k in f.keys()}
        cfg = json.loads(f.metadata()["config"])
    logits = Reference(W, cfg, branch_alpha=1.0).logits(tokens)      # tokens: (B, T) int64

Works with PyTorch 1.13 and 2.x; computes in the dtype of the tensors given.
"""
import math

import torch


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
