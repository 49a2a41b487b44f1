#!/usr/bin/python3
"""The PyTorch eager peer: the same model as NormLab's core, as a researcher would write it.

Reads a NormLab run configuration (the JSON `normlab-cli preset` prints, with sizes
filled in), builds the same architecture with torch.nn modules, and times training
steps the way normlab-bench does: from drawing the batch to the end of the optimizer
step, including the host sync for the loss. Prints one JSON line.

    peer.py --config CFG.json --steps 30 --warmup 5 --threads 2 [--compile [--compile-mode M]] [--device cpu]
"""
import argparse
import contextlib
import json
import math
import os
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

SDPA = hasattr(F, "scaled_dot_product_attention")


# --profile: the parts of the model and the step as named spans, the core's ProfileScope names
# (bench/trace_ops.py gives each kernel its part by them); otherwise nothing, so torch.compile sees no span
SCOPES = False


def scope(name):
    return torch.profiler.record_function("normlab::" + name) if SCOPES else contextlib.nullcontext()


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def make_norm(m, dim):
    return RMSNorm(dim, m["norm_eps"]) if m["norm"] == "rmsnorm" else nn.LayerNorm(dim, eps=m["norm_eps"])


def unit(x, eps):
    return x / (x.norm(dim=-1, keepdim=True) + eps)


def rope_tables(T, dh, device):
    inv = 1.0 / (10000.0 ** (torch.arange(0, dh, 2, device=device, dtype=torch.float32) / dh))
    ang = torch.outer(torch.arange(T, device=device, dtype=torch.float32), inv)
    emb = torch.cat([ang, ang], -1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat([-x[..., h:], x[..., :h]], -1)


class Attention(nn.Module):
    def __init__(self, m):
        super().__init__()
        d, H = m["d_model"], m["n_heads"]
        self.m, self.H, self.dh = m, H, d // H
        self.qkv = nn.Linear(d, 3 * d, bias=m["bias"])
        self.out = nn.Linear(d, d, bias=m["bias"])
        nf = m["normformer"]
        self.head_scale = nn.Parameter(torch.ones(H)) if nf["head_scale"] else None
        self.post_norm = make_norm(m, d) if nf["post_attn_norm"] else None
        self.ngpt = m["layout"] == "ngpt"
        if self.ngpt:
            self.s_qk = nn.Parameter(torch.full((d,), d ** -0.5))

    def forward(self, x, rope):
        with scope("attention"):
            return self._forward(x, rope)

    def _forward(self, x, rope):
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.H, self.dh).permute(2, 0, 3, 1, 4)
        if rope is not None:
            cos, sin = rope
            q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        scale = self.dh ** -0.5
        if self.ngpt:
            sqk = (self.s_qk * d ** 0.5).view(1, self.H, 1, self.dh)
            if self.m["ngpt"]["qk_norm"]:
                q, k = unit(q, self.m["ngpt"]["eps"]), unit(k, self.m["ngpt"]["eps"])
            q, k = q * sqk, k * sqk
            scale = self.dh ** 0.5
        if SDPA:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=scale)
        else:
            att = (q @ k.transpose(-2, -1)) * scale
            mask = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
            y = att.masked_fill(mask, float("-inf")).softmax(-1) @ v
        hs = self.m["normformer"]["head_scale_placement"]
        if self.head_scale is not None and hs == "before_out_proj":
            y = y * self.head_scale.view(1, self.H, 1, 1)
        o = self.out(y.transpose(1, 2).reshape(B, T, d))
        if self.head_scale is not None and hs == "after_out_proj":
            o = (o.view(B, T, self.H, self.dh) * self.head_scale.view(1, 1, self.H, 1)).view(B, T, d)
        if self.post_norm is not None:
            o = self.post_norm(o)
        return o


class MLP(nn.Module):
    def __init__(self, m):
        super().__init__()
        d, f = m["d_model"], m["d_ff"]
        self.m, self.swiglu = m, m["activation"] == "swiglu"
        self.fc1 = nn.Linear(d, 2 * f if self.swiglu else f, bias=m["bias"])
        self.fc2 = nn.Linear(f, d, bias=m["bias"])
        self.ffn_norm = make_norm(m, f) if m["normformer"]["ffn_norm"] else None
        self.ngpt = m["layout"] == "ngpt"
        if self.ngpt:
            self.s_u = nn.Parameter(torch.ones(f))
            self.s_v = nn.Parameter(torch.ones(f))

    def forward(self, x):
        with scope("mlp"):
            return self._forward(x)

    def _forward(self, x):
        h = self.fc1(x)
        if self.swiglu:
            u, g = h.chunk(2, -1)
            if self.ngpt:
                u, g = u * self.s_u, g * (self.s_v * self.m["d_model"] ** 0.5)
            a = u * F.silu(g)
        else:
            a = F.gelu(h) if self.m["activation"] == "gelu" else F.relu(h)
        if self.ffn_norm is not None:
            a = self.ffn_norm(a)
        return self.fc2(a)


class Block(nn.Module):
    def __init__(self, m):
        super().__init__()
        d = m["d_model"]
        self.m, self.layout = m, m["layout"]
        dn = m["deepnorm"]
        n = m["n_layers"]
        self.alpha = (dn["alpha"] or (2 * n) ** 0.25) if dn["residual"] else 1.0
        self.attn, self.mlp = Attention(m), MLP(m)
        if self.layout != "ngpt":
            self.norm1, self.norm2 = make_norm(m, d), make_norm(m, d)
        self.res_scale = nn.Parameter(torch.ones(d)) if m["normformer"]["res_scale"] else None
        if self.layout == "ngpt":
            self.alpha_A = nn.Parameter(torch.full((d,), d ** -0.5))
            self.alpha_M = nn.Parameter(torch.full((d,), d ** -0.5))

    def forward(self, x, rope, branch):
        with scope("residual"):   # what the block does besides its attention and MLP (their own spans)
            return self._forward(x, rope, branch)

    def _forward(self, x, rope, branch):
        if self.layout == "ngpt":
            eps, s = self.m["ngpt"]["eps"], self.m["ngpt"]["alpha_init"] * self.m["d_model"] ** 0.5
            x = unit(x + (self.alpha_A * s).abs() * (unit(self.attn(x, rope), eps) - x), eps)
            return unit(x + (self.alpha_M * s).abs() * (unit(self.mlp(x), eps) - x), eps)
        # As a researcher would write it: multiply only where a factor is in use.
        res = (lambda t: t) if self.alpha == 1.0 else (lambda t: self.alpha * t)
        if torch.is_tensor(branch):   # under torch.compile: a tensor, so a new α_t is no new graph
            br = lambda t: branch * t
        else:
            br = (lambda t: t) if branch == 1.0 else (lambda t: branch * t)
        if self.layout == "post":
            x = self.norm1(res(x) + br(self.attn(x, rope)))
            r = res(x) if self.res_scale is None else res(x) * self.res_scale
            return self.norm2(r + br(self.mlp(x)))
        x = res(x) + br(self.attn(self.norm1(x), rope))
        r = res(x) if self.res_scale is None else res(x) * self.res_scale
        return r + br(self.mlp(self.norm2(x)))


class GPT(nn.Module):
    def __init__(self, m):
        super().__init__()
        d, V = m["d_model"], m["vocab_size"]
        self.m = m
        self.tok_emb = nn.Embedding(V, d)
        self.pos_emb = nn.Parameter(torch.zeros(m["context"], d)) if m["positions"] == "learned" else None
        self.blocks = nn.ModuleList(Block(m) for _ in range(m["n_layers"]))
        self.final_norm = make_norm(m, d) if m["final_norm"] else None
        self.lm_head = None if m["tie_embeddings"] else nn.Parameter(torch.randn(V, d) * 0.02)
        self.s_z = nn.Parameter(torch.full((V,), d ** -0.5)) if m["layout"] == "ngpt" else None
        self.branch = 1.0
        self.init_weights()

    @torch.no_grad()
    def init_weights(self):
        """The configuration's init (docs/CONFIG.md), so both implementations train the same model."""
        m = self.m
        d, L, std = m["d_model"], m["n_layers"], m["init_std"]
        ngpt, xavier = m["layout"] == "ngpt", m["init"] == "xavier"
        emb_std = d ** -0.5 if (ngpt or xavier) else std
        for e in [self.tok_emb.weight, self.pos_emb, self.lm_head]:
            if e is not None:
                nn.init.normal_(e, 0.0, emb_std)

        def rows(w, r0, n, normal_std):   # rows [r0, r0+n) with their own fans
            block = w[r0:r0 + n]
            if ngpt:
                block.normal_(0.0, d ** -0.5)
            elif xavier:
                b = math.sqrt(6.0 / (block.shape[0] + block.shape[1]))
                block.uniform_(-b, b)
            else:
                block.normal_(0.0, normal_std)

        def xavier_normal(w, r0, n, gain):
            w[r0:r0 + n].normal_(0.0, gain * math.sqrt(2.0 / (n + w.shape[1])))

        dn = m["deepnorm"]
        beta = dn["beta"] if dn["beta"] is not None else (8 * L) ** -0.25
        f = m["d_ff"]
        for b in self.blocks:
            qkv, out, fc1, fc2 = b.attn.qkv.weight, b.attn.out.weight, b.mlp.fc1.weight, b.mlp.fc2.weight
            for s in range(3):
                rows(qkv, s * d, d, std)
            rows(out, 0, d, std / math.sqrt(2 * L))
            for r in range(0, fc1.shape[0], f):
                rows(fc1, r, f, std)
            rows(fc2, 0, d, std / math.sqrt(2 * L))
            if dn["init"] and not ngpt:
                xavier_normal(qkv, 0, d, 1.0)
                xavier_normal(qkv, d, d, 1.0)
                xavier_normal(qkv, 2 * d, d, beta)
                xavier_normal(out, 0, d, beta)
                for r in range(0, fc1.shape[0], f):
                    xavier_normal(fc1, r, f, beta)
                xavier_normal(fc2, 0, d, beta)
            for lin in (b.attn.qkv, b.attn.out, b.mlp.fc1, b.mlp.fc2):
                if lin.bias is not None:
                    lin.bias.zero_()

    def forward(self, idx):
        T = idx.shape[1]
        with scope("embed"):
            x = self.tok_emb(idx)
            if self.pos_emb is not None:
                x = x + self.pos_emb[:T]
            rope = rope_tables(T, self.m["d_model"] // self.m["n_heads"], idx.device) if self.m["positions"] == "rope" else None
        for b in self.blocks:
            x = b(x, rope, self.branch)
        with scope("head"):
            if self.final_norm is not None:
                x = self.final_norm(x)
            logits = x @ (self.lm_head if self.lm_head is not None else self.tok_emb.weight).t()
            if self.s_z is not None:
                logits = logits * (self.s_z * self.m["d_model"] ** 0.5)
        return logits

    @torch.no_grad()
    def renormalize(self):
        with scope("renormalize"):
            self._renormalize()

    def _renormalize(self):
        eps = self.m["ngpt"]["eps"]
        self.tok_emb.weight.copy_(unit(self.tok_emb.weight, eps))
        if self.lm_head is not None:
            self.lm_head.copy_(unit(self.lm_head, eps))
        for b in self.blocks:
            for w, dim in ((b.attn.qkv.weight, 1), (b.attn.out.weight, 0), (b.mlp.fc1.weight, 1), (b.mlp.fc2.weight, 0)):
                w.copy_(w / (w.norm(dim=dim, keepdim=True) + eps))


def gpu_memory_in_use(dev):
    """GiB of the GPU in use (total - free: the allocator's reservation and the context), as the core reports it."""
    if dev.type != "cuda":
        return None
    free, total = torch.cuda.mem_get_info(dev)
    return (total - free) / 2**30


def corpus_bytes():
    root = os.environ.get("NORMLAB_CORPUS_DIR", "/usr/share/games/fortunes")
    data = bytearray()
    for name in sorted(os.listdir(root)):
        p = os.path.join(root, name)
        if os.path.isfile(p) and not name.endswith((".dat", ".u8")):
            with open(p, "rb") as f:
                data += f.read()
    return torch.tensor(list(data), dtype=torch.long)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--compile", action="store_true")
    ap.add_argument("--compile-mode", default=None, help="torch.compile mode (default: default)")
    ap.add_argument("--bf16", action="store_true", help="autocast the forward pass to bfloat16 (fp32 weights)")
    ap.add_argument("--tf32", action="store_true", help="float32 matmuls on the GPU's TF32 tensor cores")
    ap.add_argument("--profile", metavar="TRACE.json", help="write a torch.profiler Chrome trace of the steps")
    args = ap.parse_args()
    if args.tf32:
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    with open(args.config) as f:
        cfg = json.load(f)
    m, o, t = cfg["model"], cfg["optim"], cfg["train"]
    dev = torch.device(args.device)
    model = GPT(m).to(dev)
    ngpt = m["layout"] == "ngpt"
    if ngpt:
        model.renormalize()
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": o["weight_decay"]},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=o["lr"], betas=(o["beta1"], o["beta2"]), eps=o["eps"])
    step_fn = torch.compile(model, mode=args.compile_mode) if args.compile else model
    if args.compile and m["branchnorm"]["enabled"]:
        # A Python float α_t would be a guard: torch.compile would recompile at every step.
        del model.branch
        model.register_buffer("branch", torch.ones((), device=dev), persistent=False)
    data = corpus_bytes().to(dev)
    n_train = int(len(data) * 0.9)
    B, T = t["batch_size"], m["context"]
    g = torch.Generator(device="cpu").manual_seed(1)
    bn = m["branchnorm"]
    times = []
    prof = None
    if args.profile:
        global SCOPES
        SCOPES = True
        acts = [torch.profiler.ProfilerActivity.CPU] + ([torch.profiler.ProfilerActivity.CUDA] if dev.type == "cuda" else [])
        prof = torch.profiler.profile(activities=acts, record_shapes=True)
        prof.__enter__()
    def one_step(step):
        """One training step, as normlab-bench times it: from drawing the batch to the loss on the host (ms)."""
        t0 = time.perf_counter()
        ix = torch.randint(0, n_train - T - 1, (B,), generator=g).to(dev)
        win = data[ix[:, None] + torch.arange(T + 1, device=dev)]
        x, y = win[:, :-1], win[:, 1:]
        if bn["enabled"]:
            if torch.is_tensor(model.branch):
                model.branch.fill_(min(1.0, step / bn["T"]))
            else:
                model.branch = min(1.0, step / bn["T"])
        with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=args.bf16):
            logits = step_fn(x)
        with scope("loss"):
            loss = F.cross_entropy(logits.float().view(-1, logits.size(-1)), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        with scope("grad_norm"):
            torch.nn.utils.clip_grad_norm_(model.parameters(), o["grad_clip"])
        with scope("optimizer"):
            opt.step()
        if ngpt:
            model.renormalize()
        loss.item()
        return (time.perf_counter() - t0) * 1000

    for step in range(args.warmup + args.steps):
        with scope("step"):   # the step's span in a profile (bench/trace_ops.py: the GPU's time between steps)
            ms = one_step(step)
        if step >= args.warmup:
            times.append(ms)
    if prof is not None:
        prof.__exit__(None, None, None)
        prof.export_chrome_trace(args.profile)
    med = statistics.median(times)
    print(json.dumps({"impl": "pytorch-compile" if args.compile else "pytorch", "step_ms": times,
                      "compile_mode": args.compile_mode,
                      "step_ms_median": med, "tokens_per_s": B * T / (med / 1000),
                      "parameters": sum(p.numel() for p in model.parameters()),
                      "torch": torch.__version__, "threads": torch.get_num_threads(),
                      "memory_gib": gpu_memory_in_use(dev)}))


if __name__ == "__main__":
    sys.exit(main())
