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
     started again (`remote follow` re-attaches): no gap, no duplicate.
  4. `remote cancel` mid-run (the run keeps its checkpoint), `remote resume`: the mirror drops
     the rows the resume rewrites and ends equal to the server's store.
  5. a stream that is garbage, and one cut mid-row: the follower says so, keeps every row of
     the last complete snapshot and writes nothing outside the mirror store.
Runs sshd in the foreground as its child, ended with it even when this script is killed
(PR_SET_PDEATHSIG), and stops the shared connections. Fails, never skips, when sshd cannot start.
"""
import argparse
import ctypes
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print("remote_ssh: FAILED: " + msg, flush=True)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sshd:
    """A real sshd on 127.0.0.1 with everything in `work`."""

    def __init__(self, work, cli_dir, env=None):
        self.work, self.pid = work, None
        sshd = shutil.which("sshd") or "/usr/sbin/sshd"
        if not os.path.exists(sshd):
            fail("sshd is not installed; scripts/setup.sh installs openssh-server")
        for k in ("host_key", "user_key", "other_key"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(work, k)], check=True)
        shutil.copy(os.path.join(work, "user_key.pub"), os.path.join(work, "authorized_keys"))
        os.makedirs("/run/sshd", exist_ok=True)
        self.port = free_port()
        user = os.environ.get("USER") or subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
        with open(os.path.join(work, "sshd_config"), "w") as f:
            f.write(f"Port {self.port}\nListenAddress 127.0.0.1\nHostKey {work}/host_key\n"
                    f"AuthorizedKeysFile {work}/authorized_keys\nPidFile {work}/sshd.pid\nStrictModes no\n"
                    "UsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                    "PermitRootLogin prohibit-password\nMaxStartups 50\nMaxSessions 50\n"
                    f"SetEnv NORMLAB_TEST_PATH={cli_dir}" + "".join(f" {k}={v}" for k, v in (env or {}).items()) + "\n")
        with open(os.path.join(work, "ssh_config"), "w") as f:
            # "refused" names the host differently: a shared connection is keyed by host, port and user.
            for alias, key, host in (("gpu", "user_key", "127.0.0.1"), ("refused", "other_key", "localhost")):
                f.write(f"Host {alias}\n  HostName {host}\n  Port {self.port}\n  User {user}\n"
                        f"  IdentityFile {work}/{key}\n  IdentitiesOnly yes\n  StrictHostKeyChecking no\n"
                        f"  UserKnownHostsFile {work}/known_hosts\n  LogLevel ERROR\n  PasswordAuthentication no\n"
                        "  KbdInteractiveAuthentication no\n")
        # In the foreground (-D) as this script's child, told to end when this script ends
        # (PR_SET_PDEATHSIG): a test killed by a timeout leaves no sshd listening.
        def die_with_parent():
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
        self.proc = subprocess.Popen([sshd, "-D", "-f", os.path.join(work, "sshd_config"), "-E",
                                      os.path.join(work, "sshd.log")], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, preexec_fn=die_with_parent)
        self.pid = self.proc.pid
        for _ in range(200):
            if self.proc.poll() is not None:
                fail("sshd did not start: " + self.proc.stderr.read() + open(os.path.join(work, "sshd.log")).read())
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            time.sleep(0.05)
        else:
            fail("sshd did not listen on 127.0.0.1:%d within 10 s" % self.port)

    def stop(self):
        if self.pid:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.pid = None


def store_rows(path):
    """{(run name, series, layer): {step: value}} and {(run name, dist, layer, step): row} of a store."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    pts, dists, runs = {}, {}, {}
    for rid, name, status, steps in db.execute("SELECT id, name, status, steps_done FROM runs"):
        runs[name] = (status, steps)
        for sname, layer, step, value in db.execute(
                "SELECT s.name, s.layer, p.step, p.value FROM series s JOIN points p ON p.series_id=s.id WHERE s.run_id=?",
                (rid,)):
            pts.setdefault((name, sname, layer), {})[step] = value
        for row in db.execute("SELECT name, layer, step, count, min, q1, median, q3, max, mean, std, hist_lo, hist_hi,"
                              " hist FROM distributions WHERE run_id=?", (rid,)):
            dists[(name,) + row[:3]] = row[3:]
    db.close()
    return runs, pts, dists


def same_stores(server, mirror, what):
    sr, sp, sd = store_rows(server)
    mr, mp, md = store_rows(mirror)
    if sr != mr:
        fail(f"{what}: runs differ: server {sr}, mirror {mr}")
    if sp.keys() != mp.keys():
        fail(f"{what}: series differ: only on the server {sorted(sp.keys() - mp.keys())[:5]},"
             f" only in the mirror {sorted(mp.keys() - sp.keys())[:5]}")
    n = 0
    for k in sp:
        if sp[k] != mp[k]:
            missing = sorted(set(sp[k]) - set(mp[k]))[:5]
            extra = sorted(set(mp[k]) - set(sp[k]))[:5]
            fail(f"{what}: series {k} differs (missing steps {missing}, extra steps {extra})")
        n += len(sp[k])
    if sd != md:
        fail(f"{what}: distributions differ ({len(sd)} on the server, {len(md)} in the mirror)")
    print(f"  {what}: {len(sr)} runs, {n} points and {len(sd)} distributions, server == mirror", flush=True)


def experiment(name, steps, n_runs=2):
    variants = [{"name": v, "scheme": s} for v, s in (("Pre-LN", "pre_ln"), ("nGPT", "ngpt"), ("Post-LN", "post_ln"))][:n_runs]
    return {"name": name,
            "base": {"model": {"d_model": 32, "n_layers": 2, "n_heads": 4, "d_ff": 64, "context": 16},
                     "train": {"steps": steps, "batch_size": 4, "eval_every": 50, "threads": 1,
                               "checkpoint_every": 100},
                     "data": {"source": "markov", "markov": {"length": 5000}},
                     "probes": {"gains_every": 20}},
            "variants": variants}


class Remote:
    def __init__(self, cli, work, sshd):
        self.cli, self.work = cli, work
        self.env = dict(os.environ)
        self.env["NORMLAB_SSH"] = f"ssh -F '{work}/ssh_config'"
        # A short folder: a socket path holds at most 107 bytes, and a build folder may be deep.
        self.env["NORMLAB_SSH_CONTROL_DIR"] = tempfile.mkdtemp(prefix="nl-cs-")

    def args(self, *a, remote_store=None, store=None, remote_cli=None):
        out = [self.cli, "remote", *a, "--remote-cli", remote_cli or self.cli]
        if remote_store:
            out += ["--remote-store", remote_store]
        if store:
            out += ["--store", store]
        return out

    def run(self, *a, timeout=300, env=None, **kw):
        t0 = time.time()
        r = subprocess.run(self.args(*a, **kw), capture_output=True, text=True, timeout=timeout, env=env or self.env)
        return r, time.time() - t0

    def popen(self, *a, **kw):
        return subprocess.Popen(self.args(*a, **kw), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.env, start_new_session=True)

    def close_shared(self):
        for f in os.listdir(self.env["NORMLAB_SSH_CONTROL_DIR"]):
            subprocess.run(["ssh", "-F", f"{self.work}/ssh_config", "-o",
                            f"ControlPath={self.env['NORMLAB_SSH_CONTROL_DIR']}/{f}", "-O", "exit", "gpu"],
                           capture_output=True)
        shutil.rmtree(self.env["NORMLAB_SSH_CONTROL_DIR"], ignore_errors=True)


def status_of(store, run_id):
    if not os.path.exists(store):
        return None, 0
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT status, steps_done FROM runs WHERE id=?", (run_id,)).fetchone()
    except sqlite3.OperationalError:
        row = None
    db.close()
    return row if row else (None, 0)


def wait_for(cond, what, timeout=120):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if cond():
            return
        time.sleep(0.1)
    fail("timed out waiting for " + what)


def case_check(rm, work):
    print("1. remote check", flush=True)
    r, _ = rm.run("check", "gpu")
    if r.returncode != 0 or "NormLab" not in r.stdout or "store" not in r.stdout:
        fail(f"check of a good server: exit {r.returncode}: {r.stdout} {r.stderr}")
    print("  good server:", r.stdout.strip(), flush=True)
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
    print(f"  fetched weights ({os.path.getsize(weights)} bytes) and checkpoint ({os.path.getsize(ckpt)} bytes):"
          " the server's bytes; --out onto the store refused", flush=True)
    # remote list: the server's list, picked and sorted there; its TEXT reaches that list as one quoted word
    r, _ = rm.run("list", "gpu", "NGPT", "--status", "finished", "--sort", "-id", "--json", remote_store=server)
    listed = json.loads(r.stdout) if r.returncode == 0 else None
    if not listed or [x["scheme"] for x in listed] != ["ngpt"] or listed[0]["status"] != "finished":
        fail(f"remote list NGPT --status finished --json: exit {r.returncode}: {r.stdout} {r.stderr}")
    r, _ = rm.run("list", "gpu", f"$(touch {canary}) x", "--json", remote_store=server)
    if r.returncode != 0 or json.loads(r.stdout) != [] or os.path.exists(canary):
        fail(f"remote list with $(...) in its text: exit {r.returncode}: {r.stdout} {r.stderr}")
    r, _ = rm.run("list", "gpu", "--sort", "loss", remote_store=server)
    if r.returncode != 2 or "--sort loss: give one of" not in r.stderr:
        fail(f"remote list --sort loss: the server's refusal did not come back: exit {r.returncode}: {r.stderr}")
    print("  remote list: picked, sorted and as JSON on the server; its text quoted", flush=True)
    return server, mirror


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
    f = rm.popen("follow", "gpu", "--runs", ids, remote_store=server, store=mirror)
    wait_for(lambda: status_of(mirror, 1)[1] >= 100, "the mirror to reach step 100")
    # Kill the follower's ssh: it must reconnect by itself.
    kids = subprocess.run(["pgrep", "-P", str(f.pid)], capture_output=True, text=True).stdout.split()
    if not kids:
        fail("the follower runs no ssh child")
    for k in kids:
        os.kill(int(k), signal.SIGKILL)
    before = status_of(mirror, 1)[1]
    wait_for(lambda: status_of(mirror, 1)[1] > before + 100, "the mirror to advance after ssh was killed")
    # Kill the follower itself (and its ssh), then follow again: it re-attaches.
    os.killpg(f.pid, signal.SIGKILL)
    f.wait()
    r, _ = rm.run("follow", "gpu", remote_store=server, store=mirror)
    if r.returncode != 0 or "ended" not in r.stderr:
        fail(f"follow again: exit {r.returncode}: {r.stderr}")
    if status_of(server, first)[0] != "finished":
        fail("the server's run did not finish: " + str(status_of(server, first)))
    same_stores(server, mirror, "after a killed ssh and a killed follower")


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


def fast_writer(cli, store, rate, seconds):
    """A run that writes `rate` points a second for `seconds` (64 series), committed every 0.1 s."""
    exp = store + ".fast.json"
    with open(exp, "w") as f:
        json.dump(experiment("fast", 1, n_runs=1), f)
    subprocess.run([cli, "run", exp, "--store", store], check=True, capture_output=True)
    with open(f"/proc/{os.getpid()}/stat") as f:
        start = f.read().rsplit(")", 1)[1].split()[19]
    db = sqlite3.connect(store, timeout=60)
    cols = [r[1] for r in db.execute("PRAGMA table_info(runs)") if r[1] != "id"]
    db.execute(f"INSERT INTO runs({','.join(cols)}) SELECT {','.join(cols)} FROM runs WHERE id=1")
    rid = db.execute("SELECT MAX(id) FROM runs").fetchone()[0]
    db.execute("UPDATE runs SET name='fast writer', status='running', pid=?, proc_start=?, host=?, steps_done=0,"
               " heartbeat=? WHERE id=?", (os.getpid(), start, socket.gethostname(), time.time(), rid))
    series = []
    # What the window draws: the loss chart and the per-layer gradient heatmaps.
    names = [("train/loss", -1), ("train/lr", -1), ("train/grad_norm", -1), ("val/loss", -1)]
    names += [(f"grad_{n}/{w}", layer) for n in ("l1", "l2") for w in ("fc1", "fc2", "q", "k", "v", "o") for layer in range(5)]
    for name, layer in names[:64]:
        db.execute("INSERT INTO series(run_id, name, layer) VALUES(?,?,?)", (rid, name, layer))
        series.append(db.execute("SELECT last_insert_rowid()").fetchone()[0])
    db.commit()
    print(rid, flush=True)
    per_tick = int(rate / 10)
    steps_per_tick = max(1, per_tick // len(series))
    step, t0 = 0, time.time()
    for tick in range(int(seconds * 10)):
        rows = [(sid, s, float(s) * 1e-3 + sid) for s in range(step, step + steps_per_tick) for sid in series]
        db.executemany("INSERT INTO points(series_id, step, value) VALUES(?,?,?)", rows)
        step += steps_per_tick
        db.execute("UPDATE runs SET steps_done=?, heartbeat=? WHERE id=?", (step, time.time(), rid))
        db.commit()
        time.sleep(max(0.0, t0 + (tick + 1) * 0.1 - time.time()))
    db.execute("UPDATE runs SET status='finished', ended_at=? WHERE id=?", (time.time(), rid))
    db.commit()


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
    work = a.workdir or tempfile.mkdtemp(prefix="normlab-remote-")
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
