#!/usr/bin/env python3
"""From NormLab to a notebook: a run store read with sqlite3 + pandas, a comparison plotted
with matplotlib, exported weights loaded with safetensors into PyTorch and evaluated.

    examples/notebook_recipe.py --store runs.sqlite --weights run.safetensors [--eval batch.safetensors]
                                [--out loss.png]

The store and weight files come from normlab-cli (docs/STORE.md, docs/WEIGHTS.md):
    normlab-cli run experiments/quick_look.json --store runs.sqlite
    normlab-cli export-weights Post-LN run.safetensors --store runs.sqlite
    normlab-cli eval-batch Post-LN batch.safetensors --store runs.sqlite

The five lines a notebook needs are the ones marked ①–⑤ below. Needs pandas, matplotlib,
safetensors and PyTorch (scripts/setup-torch2.sh installs them into .venv-torch2).
"""
import argparse
import json
import os
import sqlite3
import sys

import matplotlib
matplotlib.use("Agg")   # no display needed; in a notebook, leave this out
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
from safetensors import safe_open  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from normlab_model import Reference  # noqa: E402  (NormLab's model in plain PyTorch)

LOSS = """SELECT r.name AS run, p.step, p.value AS loss
          FROM runs r JOIN series s ON s.run_id = r.id JOIN points p ON p.series_id = s.id
          WHERE s.name = ? AND s.layer = -1 ORDER BY r.id, p.step"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", required=True)
    ap.add_argument("--weights", required=True)
    ap.add_argument("--eval", help="a batch from normlab-cli eval-batch: its loss is recomputed here")
    ap.add_argument("--out", default="loss.png")
    args = ap.parse_args()

    # ① every run's training loss, one row per step (read-only: the app may be writing)
    df = pd.read_sql_query(LOSS, sqlite3.connect(f"file:{args.store}?mode=ro", uri=True), params=("train/loss",))
    # ② one column per run, smoothed over 10 steps
    ax = df.pivot(index="step", columns="run", values="loss").rolling(10, min_periods=1).mean().plot()
    ax.set_ylabel("training loss (nats, mean of 10 steps)")
    plt.savefig(args.out, dpi=150, bbox_inches="tight")
    final = df.groupby("run", sort=False)["loss"].last()
    print("final training loss per run:\n" + final.to_string())

    # ③ the exported weights and the configuration they were trained with
    with safe_open(args.weights, "pt") as f:
        W = {k: f.get_tensor(k).double() for k in f.keys()}
        meta = f.metadata()
    cfg = json.loads(meta["config"])
    print(f"{meta['run_name']}: {sum(t.numel() for t in W.values()):,} parameters, scheme {cfg['scheme']}")
    if not args.eval:
        return 0
    with safe_open(args.eval, "pt") as f:
        tokens, core_loss = f.get_tensor("tokens"), f.get_tensor("loss").item()
        branch = float(json.loads(f.metadata()["branch_alpha"]))
    # ④ the model in PyTorch, ⑤ its loss on the batch
    logits = Reference(W, cfg, branch).logits(tokens[:, :-1])
    loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1)).item()
    print(f"loss on the batch: PyTorch {loss:.6f}, NormLab {core_loss:.6f}")
    return 0 if abs(loss - core_loss) <= 2e-6 else 1


if __name__ == "__main__":
    sys.exit(main())
