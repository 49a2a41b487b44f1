"""What tests/remote_ssh.py and tests/slurm_cluster.py share: a real sshd on 127.0.0.1, the
`normlab-cli remote` they drive through it, and the stores they compare (docs/REMOTE.md,
"What the tests do")."""
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
