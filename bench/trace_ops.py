"""Which operator, at which shape and in which part of the model, launched each
GPU kernel of a Kineto Chrome trace (normlab-bench train --profile,
bench/peer.py --profile; both record input shapes).

A kernel names the CPU operator that launched it by its "External id" (the
innermost operator running when it was launched); where a trace lacks it, the
launch's runtime call (same "correlation") is placed in the innermost
operator on its thread that encloses it. The part of the model is the
innermost enclosing user scope named "normlab::PART" (the core's
ProfileScope, the peer's record_function): embed, attention, mlp, residual,
head, loss, grad_norm, optimizer, renormalize. A kernel of the backward pass
runs inside the autograd engine's "evaluate_function: XBackward0" on another
thread, outside any forward scope: the trace's forward-backward flow (or,
without one, the node's "Sequence number") leads to the forward operator that
recorded the node, and that operator's part and shape are the backward
kernel's ("∇ aten::mul"); NormLab's own autograd functions
record their forward as such an operator (FunctionScope, core/model/profile_scope.h),
so their kernels both ways are named by them ("∇ normlab::ngpt_update").
"""
import bisect
import collections

SCOPE = "normlab::"
STEP = "normlab::step"   # a whole training step's span: not a part, the boundary of one
BACKWARD = "autograd::engine::evaluate_function: "
TYPES = {"c10::BFloat16": "bf16", "float": "f32", "c10::Half": "f16", "double": "f64", "long int": "i64",
         "int": "i32", "bool": "bool", "unsigned char": "u8"}


def _shape(op):
    """'[32,1024,768] bf16' for an operator's tensor inputs (at most three)."""
    args = op.get("args", {})
    dims, types = args.get("Input Dims") or [], args.get("Input type") or []
    parts = []
    for i, d in enumerate(dims):
        if isinstance(d, list) and d:
            t = TYPES.get(types[i], types[i]) if i < len(types) else ""
            parts.append("[" + ",".join(str(x) for x in d) + "]" + (f" {t}" if t else ""))
        if len(parts) == 3:
            break
    return " ".join(parts)


class Threads:
    """The CPU operators and user scopes of each thread, nested by their intervals."""

    def __init__(self, events):
        by_tid = collections.defaultdict(list)
        for e in events:
            if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation", "python_function"):
                by_tid[(e.get("pid"), e.get("tid"))].append(e)
        self.parent = {}       # id(event) -> enclosing event
        self.starts = {}       # thread -> sorted start times
        self.ops = {}          # thread -> events in start order
        for key, evs in by_tid.items():
            evs.sort(key=lambda e: (e["ts"], -e.get("dur", 0)))
            stack = []
            for e in evs:
                # (sorted by start, outer first: the enclosing operators are those on the stack that end after it)
                while stack and stack[-1]["ts"] + stack[-1].get("dur", 0) < e["ts"] + e.get("dur", 0) - 1e-3:
                    stack.pop()
                self.parent[id(e)] = stack[-1] if stack else None
                stack.append(e)
            self.ops[key] = evs
            self.starts[key] = [e["ts"] for e in evs]

    def innermost(self, key, ts):
        """The innermost operator of thread `key` running at time `ts`."""
        evs, starts = self.ops.get(key), self.starts.get(key)
        if not evs:
            return None
        i = bisect.bisect_right(starts, ts) - 1
        e = evs[i] if i >= 0 else None
        while e is not None and not (e["ts"] <= ts <= e["ts"] + e.get("dur", 0)):
            e = self.parent.get(id(e))
        return e

    def ancestors(self, e):
        while e is not None:
            yield e
            e = self.parent.get(id(e))


def enclosing_backward(th, op):
    """The autograd engine's evaluate_function span that `op` runs in, if any."""
    for a in th.ancestors(op):
        if a["name"].startswith(BACKWARD):
            return a
    return None


def _starting_at(th, key, ts):
    """The innermost operator of thread `key` that starts at `ts` exactly (a flow event's anchor)."""
    evs, starts = th.ops.get(key), th.starts.get(key)
    if not evs:
        return None
    i = bisect.bisect_left(starts, ts)
    best = None
    while i < len(evs) and evs[i]["ts"] == ts:
        best = evs[i]   # sorted outer first: the last with this start is the innermost
        i += 1
    return best


def forward_of_nodes(th, events):
    """{id(an evaluate_function span): the forward operator that recorded its autograd node}.

    The trace's own forward-backward flows say it ("fwdbwd": one end at the forward operator, the other at
    the node's function); where a trace has none, the node's sequence number does: the last operator outside
    the backward pass that carries it (operators record the number the next node will take, so the ones
    before the operator that made the node carry it too)."""
    links = {}
    ends = collections.defaultdict(dict)
    for e in events:
        if e.get("cat") == "fwdbwd" and e.get("ph") in ("s", "f"):
            ends[e.get("id")][e["ph"]] = e
    for pair in ends.values():
        if "s" not in pair or "f" not in pair:
            continue
        s, f = pair["s"], pair["f"]
        fwd = _starting_at(th, (s.get("pid"), s.get("tid")), s["ts"])
        fn = _starting_at(th, (f.get("pid"), f.get("tid")), f["ts"])
        node = enclosing_backward(th, fn) if fn is not None else None
        if fwd is not None and node is not None:
            links[id(node)] = fwd
    by_seq = {}
    for evs in th.ops.values():
        for e in evs:   # in start order: the last one wins
            seq = e.get("args", {}).get("Sequence number")
            if e.get("cat") == "cpu_op" and seq is not None and enclosing_backward(th, e) is None:
                by_seq[seq] = e
    for evs in th.ops.values():
        for e in evs:
            if e["name"].startswith(BACKWARD) and id(e) not in links:
                fwd = by_seq.get(e.get("args", {}).get("Sequence number"))
                if fwd is not None:
                    links[id(e)] = fwd
    return links


def attribute(events, kernels):
    """{(part, direction, operator, shape): µs} over the kernels, and the kernels' µs no operator claims."""
    th = Threads(events)
    by_ext = {}
    for evs in th.ops.values():
        for e in evs:
            a = e.get("args", {})
            if e.get("cat") == "cpu_op" and "External id" in a:
                by_ext.setdefault(a["External id"], e)
    runtime = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            runtime[e["args"]["correlation"]] = e

    def part_of(op):
        for a in th.ancestors(op):
            if a.get("cat") == "user_annotation" and a["name"].startswith(SCOPE) and a["name"] != STEP:
                return a["name"][len(SCOPE):]
        return None

    def backward_node(op):
        return enclosing_backward(th, op)

    forward_of = forward_of_nodes(th, events)

    out, unclaimed = collections.Counter(), 0.0
    for k in kernels:
        a = k.get("args", {})
        op = by_ext.get(a.get("External id"))
        if op is None and a.get("correlation") in runtime:
            r = runtime[a["correlation"]]
            op = th.innermost((r.get("pid"), r.get("tid")), r["ts"])
        if op is None:
            unclaimed += k["dur"]
            continue
        node = backward_node(op)
        if node is not None:
            fwd = forward_of.get(id(node))
            name = node["name"][len(BACKWARD):]
            part = part_of(fwd) if fwd is not None else None
            key = (part or "other", "backward", f"∇ {fwd['name']}" if fwd is not None else name,
                   _shape(fwd) if fwd is not None else _shape(op))
        else:
            part = part_of(op)
            # outside the model's forward pass (the step's own parts, building the model, drawing the batch)
            key = (part or "other", "step" if part is None or part in STEP_PARTS else "forward", op["name"], _shape(op))
        out[key] += k["dur"]
    return out, unclaimed


def covered(intervals):
    """The length covered by (start, end) intervals."""
    total, cur_s, cur_e = 0.0, None, None
    for s, e in sorted(intervals):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    return total + (cur_e - cur_s if cur_e is not None else 0.0)


def steady_steps(events, kernels):
    """The kernels of each steady training step (all but the first and the last of the steps' spans,
    "normlab::step", the core's loop and peer.py's, which build and finish): each kernel belongs to the step
    during which it was launched (its runtime call's time, or its operator's). None when the trace has fewer
    than three steps."""
    steps = sorted((e for e in events if e.get("ph") == "X" and e.get("cat") == "user_annotation"
                    and e.get("name") == STEP), key=lambda e: e["ts"])
    if len(steps) < 3:
        return None
    starts = [e["ts"] for e in steps]
    runtime = {e["args"]["correlation"]: e for e in events if e.get("ph") == "X"
               and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
    ops = {e["args"]["External id"]: e for e in events if e.get("ph") == "X" and e.get("cat") == "cpu_op"
           and "External id" in e.get("args", {})}
    per = [[] for _ in steps]
    for k in kernels:
        a = k.get("args", {})
        at = runtime.get(a.get("correlation")) or ops.get(a.get("External id"))
        if at is None:
            continue
        i = bisect.bisect_right(starts, at["ts"]) - 1
        if i >= 0 and at["ts"] <= steps[i]["ts"] + steps[i].get("dur", 0):
            per[i].append(k)
    return [ks for ks in per[1:-1] if ks]


def step_timeline(events, kernels, per_step=None):
    """Where the GPU's time goes between training steps: a steady step's window runs from its first kernel's
    start to its last kernel's end (steady_steps). Over the steady steps, the medians of: the time from one
    window's start to the next's (a step), the GPU busy inside a window, idle inside it, and the gap from one
    window's end to the next's start (the host's work between steps, or a synchronisation, when the GPU has
    nothing queued). None when the trace has fewer than three steps."""
    per = steady_steps(events, kernels) if per_step is None else per_step
    if not per:
        return None
    spans = [[(k["ts"], k["ts"] + k["dur"]) for k in ks] for ks in per]
    windows = [(min(s for s, _ in ks), max(e for _, e in ks), covered(ks)) for ks in spans]
    if len(windows) < 2:
        return None
    med = lambda xs: sorted(xs)[len(xs) // 2] if len(xs) % 2 else 0.5 * sum(sorted(xs)[len(xs) // 2 - 1:len(xs) // 2 + 1])
    pairs = list(zip(windows, windows[1:]))
    return {"steps": len(windows),
            "step_ms": med([b[0] - a[0] for a, b in pairs]) / 1000,
            "busy_ms": med([w[2] for w in windows]) / 1000,
            "idle_in_step_ms": med([w[1] - w[0] - w[2] for w in windows]) / 1000,
            "between_steps_ms": med([max(0.0, b[0] - a[1]) for a, b in pairs]) / 1000}


# the parts of a step outside the model's forward and backward passes
STEP_PARTS = {"grad_norm", "optimizer", "renormalize", "zero_grad"}


def summarize_ops(events, kernels, steps, top):
    """GPU ms per step by part of the model (forward, backward, the step's own) and the heaviest operators:
    over the whole trace (parts, ops: its `steps` steps, warm-up and the run's start and end included) and
    over the steady steps alone (steady_parts, steady_ops), which is what a step costs once running."""
    def by_part(ks, n):
        ops, unclaimed = attribute(events, ks)
        parts = collections.Counter()
        for (part, direction, _, _), us in ops.items():
            parts[f"{part} ({direction})" if direction != "step" else part] += us
        return ({k: v / 1000 / n for k, v in parts.most_common()}, unclaimed / 1000 / n,
                [(f"{part} {direction}", name, shape, us / 1000 / n)
                 for (part, direction, name, shape), us in ops.most_common(top)])
    parts, unclaimed, ops = by_part(kernels, max(1, steps))
    per = steady_steps(events, kernels)
    out = {"parts": parts, "steady": step_timeline(events, kernels, per), "unattributed_ms": unclaimed, "ops": ops}
    if per and len(per) >= 2:
        out["steady_parts"], _, out["steady_ops"] = by_part([k for ks in per for k in ks], len(per))
    return out
