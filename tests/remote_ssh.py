#!/usr/bin/env python3
"""Training on a server over ssh, against a real OpenSSH server on 127.0.0.1.

    tests/remote_ssh.py --cli normlab-cli [--workdir DIR] [--keep]
    tests/remote_ssh.py --cli normlab-cli --fast-writer STORE [--rate 100000] [--seconds 10]
        writes a run into STORE (made by normlab-cli) at RATE points a second, as a trainer
        would (status running, this process as its writer), then finishes it; prints its id
    tests/remote_ssh.py --cli normlab-cli --serve DIR
        starts the sshd only, prints one JSON line (the NORMLAB_SSH to use, the control folder)
        and stops it when its standard input closes (what tests/test_remote_gui.cpp uses)

Starts Debian's sshd (openssh-server, installed by scripts/setup.sh) with a scratch host key,
authorized key and config in the work folder, on a free loopback port, and reaches it through a
client config with an alias ("gpu"), as a user's ~/.ssh/config would; NORMLAB_SSH names that
config, as GIT_SSH_COMMAND would. The "server" is this machine's own build. Checked:
  1. `remote check`: versions, store and GPUs; a wrong host, a refused key, a server without
     NormLab and one speaking another stream protocol each fail with a message that says so.
  2. `remote run` with an experiment, a remote store and a local store whose names hold spaces,
     quotes and $(...): nothing is executed, the runs train detached and are followed live;
     every point and distribution of the server's store equals the mirror's; `remote fetch`
     brings the server's weights and checkpoint byte for byte, and refuses an --out onto the store.
  3. the follower's ssh killed mid-run (it reconnects), and the follower itself killed and
     started again (`remote follow` re-attaches): no gap, no duplicate. The first follower speaks
     --json, as the window's does: its status, progress and connection events are checked.
  4. `remote cancel` mid-run (the run keeps its checkpoint), `remote resume`: the mirror drops
     the rows the resume rewrites and ends equal to the server's store.
  5. a stream that is garbage, and one cut mid-row: the follower says so, keeps every row of
     the last complete snapshot and writes nothing outside the mirror store.
Runs sshd in the foreground as its child, ended with it even when this script is killed
(PR_SET_PDEATHSIG), and stops the shared connections. Fails, never skips, when sshd cannot start.
"""
import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

from remote_ssh_util import Remote, Sshd, experiment, fail, fast_writer, same_stores, status_of, store_rows, wait_for  # noqa: F401


def case_check(rm, work):
    print("1. remote check", flush=True)
    r, _ = rm.run("check", "gpu")
    if r.returncode != 0 or "NormLab" not in r.stdout or "store" not in r.stdout:
        fail(f"check of a good server: exit {r.returncode}: {r.stdout} {r.stderr}")
    print("  good server:", r.stdout.strip(), flush=True)
    r, _ = rm.run("check", "gpu", "--json")
    try:
        c = json.loads(r.stdout)
    except ValueError:
        fail(f"check --json: exit {r.returncode}, not JSON: {r.stdout!r} {r.stderr}")
    if (c.get("info", {}).get("protocol") != 1 or "store" not in c["info"] or not isinstance(c.get("gpus"), list)
            or any(set(g) != {"name", "total_mib", "free_mib"} for g in c["gpus"])):
        fail(f"check --json: {c}")
    r, dt = rm.run("check", "nohost.invalid", timeout=60)
    if r.returncode == 0 or "nohost.invalid" not in r.stderr or "ssh" not in r.stderr:
        fail(f"a wrong host: exit {r.returncode}: {r.stderr}")
    print(f"  wrong host ({dt:.1f} s): {r.stderr.strip()}", flush=True)
    r, dt = rm.run("check", "refused", timeout=60)
    if r.returncode == 0 or "refused the login" not in r.stderr:
        fail(f"a refused key: exit {r.returncode}: {r.stderr}")
    print(f"  refused key ({dt:.1f} s): {r.stderr.strip()}", flush=True)
    r, _ = rm.run("check", "gpu", remote_cli="/nonexistent/normlab-cli")
    if r.returncode == 0 or "not installed" not in r.stderr:
        fail(f"a server without NormLab: exit {r.returncode}: {r.stderr}")
    print("  no NormLab there:", r.stderr.strip(), flush=True)
    old = os.path.join(work, "old normlab-cli")
    with open(old, "w") as f:
        f.write("#!/bin/sh\necho '{\"protocol\": 99, \"normlab\": \"9.9.9\", \"host\": \"x\"}'\n")
    os.chmod(old, 0o755)
    r, _ = rm.run("check", "gpu", remote_cli=old)
    if r.returncode == 0 or "protocol 99" not in r.stderr:
        fail(f"an incompatible NormLab: exit {r.returncode}: {r.stderr}")
    print("  incompatible NormLab:", r.stderr.strip(), flush=True)
    other = os.path.join(work, "other normlab-cli")
    with open(other, "w") as f:
        f.write("#!/bin/sh\necho '{\"protocol\": \"1\", \"normlab\": 3}'\n")
    os.chmod(other, 0o755)
    r, _ = rm.run("check", "gpu", remote_cli=other)
    if r.returncode == 0 or "is not NormLab's" not in r.stderr or "json.exception" in r.stderr:
        fail(f"another program's JSON: exit {r.returncode}: {r.stderr}")
    print("  another program's JSON:", r.stderr.strip(), flush=True)


def case_run(rm, work):
    print("2. remote run: names with spaces, quotes and $(...), followed live", flush=True)
    canary = os.path.join(work, "pwned")
    name = f"it's \"quoted\" $(touch {canary}) `touch {canary}`"
    exp = os.path.join(work, "exp $(touch x) 'q'.json")
    with open(exp, "w") as f:
        json.dump(experiment(name, 300), f)
    server = os.path.join(work, "server $(touch pwned) 'store'.sqlite")
    mirror = os.path.join(work, "mirror it's.sqlite")
    r, dt = rm.run("run", "gpu", exp, remote_store=server, store=mirror)
    if r.returncode != 0:
        fail(f"remote run: exit {r.returncode}: {r.stderr}")
    if os.path.exists(canary) or os.path.exists(os.path.join(work, "x")):
        fail("a name reached the remote shell unquoted: $(...) ran")
    if "running" not in r.stderr or "finished" not in r.stderr:
        fail("the follower did not report the runs live: " + r.stderr)
    print(f"  trained and followed in {dt:.1f} s", flush=True)
    same_stores(server, mirror, "after remote run")
    # The detached process's log there: fresh runs start, with no warning that work was lost.
    logs = "".join(open(os.path.join(server + ".logs", f)).read() for f in os.listdir(server + ".logs"))
    if "finished after" not in logs or "restart" in logs:
        fail("the detached training's log: " + logs[-600:])
    # Weights and checkpoint fetched on demand: the server's bytes, never onto the mirror store.
    weights = os.path.join(work, "fetched weights.safetensors")
    r, _ = rm.run("fetch", "gpu", "1", "--out", weights, remote_store=server)
    direct = os.path.join(work, "direct.safetensors")
    subprocess.run([rm.cli, "export-weights", "1", direct, "--store", server], check=True, capture_output=True)
    if r.returncode != 0 or open(weights, "rb").read() != open(direct, "rb").read():
        fail(f"remote fetch: exit {r.returncode}: {r.stderr}; or the weights differ from the server's export")
    ckpt = os.path.join(work, "fetched.pt")
    r, _ = rm.run("fetch", "gpu", "1", "--checkpoint", "--out", ckpt, remote_store=server, store=mirror)
    db = sqlite3.connect(f"file:{server}?mode=ro", uri=True)
    stored = db.execute("SELECT checkpoint FROM runs WHERE id=1").fetchone()[0]
    db.close()
    src = stored if os.path.isabs(stored) else os.path.join(os.path.dirname(server), stored)
    if r.returncode != 0 or open(ckpt, "rb").read() != open(src, "rb").read():
        fail(f"remote fetch --checkpoint: exit {r.returncode}: {r.stderr}")
    # `show` of the mirrored run says where it trains and gives the fetch command; pasted into a shell
    # as it is (the server's store's name holds spaces, quotes and $(...)), it brings the same bytes.
    shown = subprocess.run([rm.cli, "show", "1", "--store", mirror], capture_output=True, text=True, env=rm.env)
    line = next((l for l in shown.stdout.splitlines() if l.startswith("  checkpoint  ")), "")
    if "  server      gpu, run 1 in " not in shown.stdout or "; here: normlab-cli remote fetch gpu 1 " not in line:
        fail("show of a mirrored run does not say its server and how to fetch its checkpoint: " + shown.stdout[:600])
    pasted = os.path.join(work, "pasted.pt")
    command = line.split("; here: ", 1)[1].replace("--out FILE", "--out " + pasted).replace("normlab-cli", rm.cli, 1)
    r = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=rm.env, timeout=300)
    if r.returncode != 0 or open(pasted, "rb").read() != open(src, "rb").read() or os.path.exists(canary):
        fail(f"show's fetch command, pasted: exit {r.returncode}: {r.stderr} ({command})")
    before = open(mirror, "rb").read()
    r, _ = rm.run("fetch", "gpu", "1", "--out", mirror, remote_store=server, store=mirror)
    if r.returncode != 2 or open(mirror, "rb").read() != before:
        fail(f"remote fetch onto the mirror store was not refused: exit {r.returncode}: {r.stderr}")
    # The server's store and checkpoint are inputs too (this server shares the file system, as a
    # cluster's home folders do): an --out onto them is refused before anything is fetched.
    theirs = open(server, "rb").read()
    for args in (("--out", server), ("--out", server + "-wal"), ("--checkpoint", "--out", src)):
        r, _ = rm.run("fetch", "gpu", "1", *args, remote_store=server, store=mirror)
        if r.returncode != 2 or "Nothing was written" not in r.stderr or open(server, "rb").read() != theirs:
            fail(f"remote fetch {' '.join(args)} onto the server's own files was not refused: exit {r.returncode}: {r.stderr}")
    if open(src, "rb").read() != open(ckpt, "rb").read():
        fail("the server's checkpoint changed under a refused fetch")
    print(f"  fetched weights ({os.path.getsize(weights)} bytes) and checkpoint ({os.path.getsize(ckpt)} bytes):"
          " the server's bytes; --out onto the store refused", flush=True)
    case_fetch_stopped(rm, work, server, mirror)
    # remote list: the server's list, picked and sorted there; its TEXT reaches that list as one quoted word
    r, _ = rm.run("list", "gpu", "NGPT", "--status", "finished", "--sort", "-id", "--json", remote_store=server)
    listed = json.loads(r.stdout) if r.returncode == 0 else None
    if not listed or [x["scheme"] for x in listed] != ["ngpt"] or listed[0]["status"] != "finished":
        fail(f"remote list NGPT --status finished --json: exit {r.returncode}: {r.stdout} {r.stderr}")
    # (its last word matches no run: the runs' tags hold the canary's path, and a word such as "x" matched
    # them wherever the random temporary folder's name held an x)
    r, _ = rm.run("list", "gpu", f"$(touch {canary}) no-such-run", "--json", remote_store=server)
    if r.returncode != 0 or json.loads(r.stdout) != [] or os.path.exists(canary):
        fail(f"remote list with $(...) in its text: exit {r.returncode}: {r.stdout} {r.stderr}")
    r, _ = rm.run("list", "gpu", "--sort", "loss", remote_store=server)
    if r.returncode != 2 or "--sort loss: give one of" not in r.stderr:
        fail(f"remote list --sort loss: the server's refusal did not come back: exit {r.returncode}: {r.stderr}")
    print("  remote list: picked, sorted and as JSON on the server; its text quoted", flush=True)
    return server, mirror


def scratch_folder():
    """A new temporary folder whose path `remote list NGPT` cannot match: the runs' tags hold a path in
    it, and the random part of mkdtemp's name may spell "ngpt" (about one run in 300,000)."""
    while True:
        work = tempfile.mkdtemp(prefix="normlab-remote-")
        if "ngpt" not in work.lower():
            return work
        os.rmdir(work)


def point_checkpoint(mirror, server_run, path):
    """Makes the mirror say that the server's run `server_run` has its checkpoint at `path` there."""
    db = sqlite3.connect(mirror)
    for rid, info in db.execute("SELECT id, info FROM runs").fetchall():
        info = json.loads(info)
        if info.get("remote", {}).get("run") == server_run:
            info["remote"]["checkpoint"] = path
            db.execute("UPDATE runs SET info=? WHERE id=?", (json.dumps(info), rid))
    db.commit()
    db.close()


def case_fetch_stopped(rm, work, server, mirror):
    """A long fetch shows how far it is and stops on Ctrl-C with nothing written; a checkpoint
    gone from the server is said, with nothing written."""
    big = os.path.join(work, "big checkpoint.pt")
    with open(big, "wb") as f:
        f.truncate(8 << 30)   # sparse: 8 GiB that take no disk there, 20 s or more over ssh here
    point_checkpoint(mirror, 2, big)
    out = os.path.join(work, "big fetched.pt")
    f = rm.popen("fetch", "gpu", "2", "--checkpoint", "--out", out, remote_store=server, store=mirror)
    wait_for(lambda: os.path.exists(out + ".tmp") and os.path.getsize(out + ".tmp") > (64 << 20), "the fetch to bring 64 MiB",
             timeout=60)
    f.send_signal(signal.SIGINT)
    try:
        _, err = f.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        f.kill()
        fail("remote fetch did not stop within 30 s of Ctrl-C")
    if f.returncode != 130 or "stopped; nothing was written to" not in err or os.path.exists(out) or os.path.exists(out + ".tmp"):
        fail(f"remote fetch stopped by Ctrl-C: exit {f.returncode}, {err!r}; it left {os.listdir(work)}")
    if "fetching run 2's checkpoint from gpu: " not in err or " of 8.59 GB (" not in err:
        fail(f"a long fetch did not say how far it was: {err!r}")
    point_checkpoint(mirror, 2, os.path.join(work, "gone.pt"))
    r, _ = rm.run("fetch", "gpu", "2", "--checkpoint", "--out", out, remote_store=server, store=mirror)
    if r.returncode == 0 or "gone.pt" not in r.stderr or os.path.exists(out) or os.path.exists(out + ".tmp"):
        fail(f"fetch of a checkpoint gone from the server: exit {r.returncode}: {r.stderr}")
    print("  a long fetch: its progress, stopped by Ctrl-C with nothing written; a checkpoint gone: "
          + r.stderr.strip().splitlines()[-1], flush=True)


def case_reconnect(rm, work):
    print("3. the connection dropped, the follower killed and started again", flush=True)
    exp = os.path.join(work, "long.json")
    with open(exp, "w") as f:
        json.dump(experiment("long", 1500), f)
    server, mirror = os.path.join(work, "server3.sqlite"), os.path.join(work, "mirror3.sqlite")
    r, _ = rm.run("run", "gpu", exp, "--detach", remote_store=server, store=mirror)
    if r.returncode != 0:
        fail("remote run --detach: " + r.stderr)
    ids = r.stdout.strip()
    first = int(ids.split(",")[0])
    # As the window follows: --json, its news as JSON lines on standard output, read as they come: the
    # follower writes a sync's rows into the mirror before it tells of them, so a follower killed the
    # moment the mirror moves may not have told yet (it was, and the test failed under load).
    f = rm.popen("follow", "gpu", "--runs", ids, "--json", remote_store=server, store=mirror)
    lines = []

    def read_lines():
        for line in iter(f.stdout.readline, ""):
            lines.append(line)
    reader = threading.Thread(target=read_lines, daemon=True)
    reader.start()

    def told_step_beyond(step):
        for line in list(lines):
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if e.get("event") == "progress" and e.get("local_id") == 1 and e.get("step", 0) > step:
                return True
        return False
    def noted(kind):
        for line in list(lines):
            try:
                if json.loads(line).get("kind") == kind:
                    return True
            except ValueError:
                continue
        return False
    wait_for(lambda: status_of(mirror, 1)[1] >= 100 and told_step_beyond(0), "the mirror to reach step 100")
    # The server's training held still while the follower is without its ssh: under load the
    # reconnection took longer than the rest of run 1, which ended unseen by progress events (the
    # test failed so, now and then); stopped, the run is certain to go on after the follower is back.
    trainer = trainer_of(server)
    os.kill(trainer, signal.SIGSTOP)
    try:
        # Kill the follower's ssh: it must reconnect by itself.
        kids = subprocess.run(["pgrep", "-P", str(f.pid)], capture_output=True, text=True).stdout.split()
        if not kids:
            fail("the follower runs no ssh child")
        for k in kids:
            os.kill(int(k), signal.SIGKILL)
        wait_for(lambda: noted("reconnected"), "the follower to reconnect after its ssh was killed")
    finally:
        os.kill(trainer, signal.SIGCONT)
    before = status_of(mirror, 1)[1]
    if status_of(mirror, 1)[0] != "running" or before >= 1400:
        fail(f"run 1 was to be running, far from its end, while the follower reconnected: {status_of(mirror, 1)}")
    wait_for(lambda: status_of(mirror, 1)[1] > before + 100, "the mirror to advance after ssh was killed")
    wait_for(lambda: told_step_beyond(before), "the follower to tell of a step after its ssh was killed")
    # Kill the follower itself (and its ssh), then follow again: it re-attaches.
    os.killpg(f.pid, signal.SIGKILL)
    f.wait()
    reader.join(timeout=30)
    err = f.stderr.read()
    check_events("".join(lines), err, first)
    r, _ = rm.run("follow", "gpu", remote_store=server, store=mirror)
    if r.returncode != 0 or "ended" not in r.stderr:
        fail(f"follow again: exit {r.returncode}: {r.stderr}")
    if status_of(server, first)[0] != "finished":
        fail("the server's run did not finish: " + str(status_of(server, first)))
    same_stores(server, mirror, "after a killed ssh and a killed follower")


def trainer_of(store):
    """The detached `normlab-cli resume --if-queued --store STORE ...` that trains the runs there."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = [a.decode(errors="replace") for a in fh.read().split(b"\0")]
        except OSError:
            continue
        if len(argv) > 3 and argv[1] == "resume" and "--if-queued" in argv and store in argv:
            return int(pid)
    fail(f"no process trains the runs of {store}")


def check_events(out, err, first):
    """What `remote follow --json` said while its ssh was killed: every line an event, each note's
    kind, the run's status and its progress with a step that only grows, and nothing on stderr."""
    events = []
    for line in out.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            fail(f"remote follow --json printed a line that is not JSON: {line!r}")
    notes = [e.get("kind") for e in events if e.get("event") == "note"]
    if notes[:1] != ["following"] or "retrying" not in notes or "reconnected" not in notes:
        fail(f"remote follow --json: notes {notes}, expected following, then retrying and reconnected; stderr: {err}")
    retry = next(e for e in events if e.get("kind") == "retrying")
    if not retry.get("why") or not isinstance(retry.get("in_s"), int) or "reconnecting in" not in retry.get("text", ""):
        fail(f"remote follow --json: a retry without its reason and wait: {retry}")
    said = [e for e in events if e.get("event") == "status" and e.get("run") == f"run {first}"]
    running = [e for e in said if e.get("status") == "running"]
    if not running or any(e.get("name") != "Pre-LN" or e.get("local_id") != 1 for e in said):
        fail(f"remote follow --json: run {first}'s status events {said}")
    steps = [e["step"] for e in events if e.get("event") == "progress" and e.get("local_id") == 1]
    if len(steps) < 2 or steps != sorted(set(steps)):
        fail(f"remote follow --json: progress steps {steps}: at least two, each later than the one before")
    p = next(e for e in events if e.get("event") == "progress")
    if p.get("total") != 1500 or not p.get("tokens_per_s", 0) > 0 or p.get("dest") != "gpu":
        fail(f"remote follow --json: a progress event without its total, speed or server: {p}")
    if err.strip():
        fail(f"remote follow --json wrote to stderr with no error: {err!r}")
    print(f"  --json: {len(events)} events, notes {notes}, progress at steps {steps[0]}..{steps[-1]}", flush=True)


def case_cancel_resume(rm, work):
    print("4. remote cancel and resume", flush=True)
    exp = os.path.join(work, "cancel.json")
    with open(exp, "w") as f:
        json.dump(experiment("cancel", 3000, n_runs=1), f)
    server, mirror = os.path.join(work, "server4.sqlite"), os.path.join(work, "mirror4.sqlite")
    f = rm.popen("run", "gpu", exp, remote_store=server, store=mirror)
    wait_for(lambda: status_of(mirror, 1)[1] >= 300, "the mirror to reach step 300")
    r, _ = rm.run("cancel", "gpu", "1", remote_store=server)
    if r.returncode != 0 or not r.stdout.startswith("1\tcancelled\tPre-LN"):
        fail(f"remote cancel: {r.stdout} {r.stderr}")
    out, err = f.communicate(timeout=60)
    if f.returncode != 130 or status_of(mirror, 1)[0] != "cancelled":
        fail(f"after remote cancel the follower exits 130 with the run cancelled; got {f.returncode}, "
             f"{status_of(mirror, 1)}: {err}")
    cut = status_of(server, 1)[1]
    print(f"  cancelled at step {cut}", flush=True)
    same_stores(server, mirror, "after cancel")
    r, _ = rm.run("resume", "gpu", "1", remote_store=server)
    if r.returncode != 0:
        fail("remote resume: " + r.stderr)
    r, _ = rm.run("follow", "gpu", "--runs", "1", remote_store=server, store=mirror)
    if r.returncode != 0 or status_of(mirror, 1)[0] != "finished":
        fail(f"follow after resume: exit {r.returncode}, {status_of(mirror, 1)}: {r.stderr}")
    same_stores(server, mirror, "after resume")
    # A finished run: the server's answer comes back as it is, nothing changed there.
    r, _ = rm.run("cancel", "gpu", "1", remote_store=server)
    if r.returncode != 0 or r.stdout != "1\tfinished\tPre-LN (nothing to cancel)\n" or status_of(server, 1)[0] != "finished":
        fail(f"remote cancel of a finished run: exit {r.returncode}: {r.stdout!r} {r.stderr}")


def case_bad_stream(rm, work, cli):
    print("5. a garbage stream, a message of the wrong shape and a stream cut mid-row", flush=True)
    fake = os.path.join(work, "fake_ssh.py")
    # Speaks for a server: a hello, one complete snapshot, then garbage or a cut line.
    with open(fake, "w") as f:
        f.write(r'''import json, sys
mode = sys.argv[1]
row = {"name": "fake", "scheme": "pre_ln", "config": {}, "status": "running", "steps_done": 1, "info": {},
       "host": "fake", "writer": "fake/1/1", "pid": 1}
print(json.dumps({"t": "hello", "protocol": 1, "normlab": "x", "host": "fake", "store": "/fake.sqlite"}), flush=True)
sys.stdin.readline()
print(json.dumps({"t": "run", "id": 1, "row": row}))
print(json.dumps({"t": "points", "run": 1, "name": "train/loss", "layer": -1, "p": [[0, 5.0], [1, 4.0]]}))
print(json.dumps({"t": "sync", "at": 0}), flush=True)
print(json.dumps({"t": "points", "run": 1, "name": "train/loss", "layer": -1, "p": [[2, 3.0]]}))
if mode == "garbage":
    print("\x00\x01 this is no JSON", flush=True)
elif mode == "mistyped":
    print(json.dumps({"t": ["points"], "run": 1}), flush=True)
else:
    sys.stdout.write('{"t":"points","run":1,"name":"train/loss","layer":-1,"p":[[3,2.')
    sys.stdout.flush()
''')
    for mode in ("garbage", "mistyped", "cut"):
        sub = os.path.join(work, "bad-" + mode)
        os.makedirs(sub)
        mirror = os.path.join(sub, "mirror.sqlite")
        env = dict(rm.env, NORMLAB_SSH=f"{sys.executable} {fake} {mode}")
        r = subprocess.run([cli, "remote", "follow", "gpu", "--runs", "1", "--retries", "0", "--store", mirror],
                           capture_output=True, text=True, timeout=60, env=env)
        if r.returncode == 0:
            fail(f"{mode}: the follower accepted a bad stream: {r.stderr}")
        want = {"garbage": "not JSON", "mistyped": "malformed message", "cut": "lost gpu"}[mode]
        if want not in r.stderr:
            fail(f"{mode}: the message does not say what happened: {r.stderr}")
        _, pts, _ = store_rows(mirror)
        if pts != {("fake", "train/loss", -1): {0: 5.0, 1: 4.0}}:
            fail(f"{mode}: the mirror does not hold exactly the complete snapshot: {pts}")
        left = sorted(os.listdir(sub))
        if any(not n.startswith("mirror.sqlite") for n in left):
            fail(f"{mode}: files written outside the mirror store: {left}")
        print(f"  {mode}: {r.stderr.strip().splitlines()[-1]}", flush=True)


def serve(cli, work):
    os.makedirs(work, exist_ok=True)
    work = os.path.realpath(work)
    sshd = Sshd(work, os.path.dirname(cli))
    rm = Remote(cli, work, sshd)
    try:
        print(json.dumps({"ssh": rm.env["NORMLAB_SSH"], "control_dir": rm.env["NORMLAB_SSH_CONTROL_DIR"]}), flush=True)
        sys.stdin.read()
    finally:
        rm.close_shared()
        sshd.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--workdir")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--serve")
    ap.add_argument("--fast-writer")
    ap.add_argument("--rate", type=float, default=100000)
    ap.add_argument("--seconds", type=float, default=10)
    a = ap.parse_args()
    if a.fast_writer:
        fast_writer(os.path.abspath(a.cli), a.fast_writer, a.rate, a.seconds)
        return
    if a.serve:
        serve(os.path.abspath(a.cli), a.serve)
        return
    cli = os.path.abspath(a.cli)
    work = a.workdir or scratch_folder()
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    work = os.path.realpath(work)
    sshd = Sshd(work, os.path.dirname(cli))
    rm = Remote(cli, work, sshd)
    t0 = time.time()
    try:
        case_check(rm, work)
        case_run(rm, work)
        case_reconnect(rm, work)
        case_cancel_resume(rm, work)
        case_bad_stream(rm, work, cli)
    finally:
        rm.close_shared()
        sshd.stop()
    print(f"remote_ssh: all cases passed in {time.time() - t0:.0f} s", flush=True)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
