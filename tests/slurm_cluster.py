#!/usr/bin/env python3
"""A real single-node Slurm cluster, a sweep on it, a merge, and a data-parallel run under srun.

    tests/slurm_cluster.py --cli normlab-cli [--workdir DIR] [--keep]

Starts munged and slurmctld/slurmd from Debian's munge and slurm-wlm (installed by
scripts/setup.sh; this script installs nothing) with every file - key, sockets, state, logs,
slurm.conf (SLURM_CONF) - in a scratch folder, so nothing under /etc or /run is touched. Then:
  1. `normlab-cli sweep EXP --slurm --submit --dir D` for a 4-run experiment (2 runs per task
     for the second half: --runs-per-task is exercised by a second, 2-task sweep);
  2. waits for the array job (squeue), checks `sweep --status`, merges the task stores with
     `normlab-cli merge` (twice: the second adds nothing) and checks 4 finished runs whose
     series are complete (every step of train/loss, the final val/loss);
  3. the same sweep submitted over ssh (a real sshd on 127.0.0.1 as the login node:
     `normlab-cli remote sweep`), every task store followed live into one local store, equal
     to the task stores row for row; a second sweep cancelled over ssh (`remote cancel --sweep`);
  4. `srun -n 2 normlab-cli run` trains one run data-parallel and compares every series with a
     single process (tests/data_parallel.py --launcher srun), then kills a rank under srun.
Stops the daemons it started by their pids. Needs root (slurmd runs jobs as their users):
when Slurm cannot start, it says why and fails (exit 1), never skips silently.
"""
import argparse
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(msg):
    print("slurm_cluster: FAILED: " + msg, flush=True)
    sys.exit(1)


class Cluster:
    def __init__(self, work):
        self.work = work
        self.pids = []
        self.env = dict(os.environ)

    def start(self):
        for tool in ("munged", "slurmctld", "slurmd", "sbatch", "srun", "squeue"):
            if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}"):
                fail(f"{tool} is not installed; scripts/setup.sh installs slurm-wlm and munge")
        if os.geteuid() != 0:
            fail("this test starts slurmd, which must run as root; run the tests as root (CI does)")
        w = self.work
        for d in ("munge", "state", "spool", "log"):
            os.makedirs(os.path.join(w, d), exist_ok=True)
        os.chmod(os.path.join(w, "munge"), 0o700)
        key = os.path.join(w, "munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        sock = os.path.join(w, "munge", "munge.socket")
        munge_pid = os.path.join(w, "munge", "munged.pid")
        r = subprocess.run(["munged", "--force", f"--key-file={key}", f"--socket={sock}", f"--pid-file={munge_pid}",
                            f"--log-file={w}/log/munged.log", f"--seed-file={w}/munge/seed"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail("munged did not start: " + (r.stderr or r.stdout).strip())
        self.pids.append(self.pid_of(munge_pid))
        host = socket.gethostname().split(".")[0]
        node = subprocess.run(["slurmd", "-C"], capture_output=True, text=True).stdout.splitlines()[0]
        conf = os.path.join(w, "slurm.conf")
        with open(conf, "w") as f:
            f.write(f"""ClusterName=normlab-test
SlurmctldHost={host}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmctldPort={self.free_port()}
SlurmdPort={self.free_port()}
SrunPortRange={self.free_port() // 2 * 2}-{self.free_port() // 2 * 2 + 200}
StateSaveLocation={w}/state
SlurmdSpoolDir={w}/spool
SlurmctldPidFile={w}/slurmctld.pid
SlurmdPidFile={w}/slurmd.pid
SlurmctldLogFile={w}/log/slurmctld.log
SlurmdLogFile={w}/log/slurmd.log
{node}
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
""")
        self.env["SLURM_CONF"] = conf
        for daemon, pidfile in (("slurmctld", "slurmctld.pid"), ("slurmd", "slurmd.pid")):
            r = subprocess.run([daemon, "-f", conf] if daemon == "slurmctld" else [daemon, "-f", conf],
                               env=self.env, capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"{daemon} did not start: {(r.stderr or r.stdout).strip()}\n" + self.tail_logs())
            self.pids.append(self.pid_of(os.path.join(w, pidfile)))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            r = subprocess.run(["sinfo", "-h", "-o", "%T"], env=self.env, capture_output=True, text=True)
            if r.stdout.strip() in ("idle", "mixed", "allocated"):
                print(f"slurm: node {host} {r.stdout.strip()} after {time.monotonic() - deadline + 60:.1f} s", flush=True)
                return
            time.sleep(0.5)
        fail("the Slurm node did not become idle within 60 s:\n" + self.tail_logs())

    @staticmethod
    def free_port():
        with socket.socket() as s:
            s.bind(("", 0))
            return s.getsockname()[1]

    def pid_of(self, pidfile):
        for _ in range(100):
            try:
                return int(open(pidfile).read().strip())
            except (OSError, ValueError):
                time.sleep(0.05)
        fail(f"no pid file {pidfile}:\n" + self.tail_logs())

    def tail_logs(self):
        out = ""
        for name in ("slurmctld.log", "slurmd.log", "munged.log"):
            p = os.path.join(self.work, "log", name)
            if os.path.exists(p):
                out += f"--- {name}\n" + "".join(open(p, errors="replace").readlines()[-15:])
        return out

    def stop(self):
        for pid in reversed(self.pids):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        for pid in self.pids:
            while time.monotonic() < deadline:
                try:
                    os.kill(pid, 0)
                    time.sleep(0.1)
                except ProcessLookupError:
                    break
            else:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def wait_job(cluster, job, timeout=600):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = subprocess.run(["squeue", "-h", "-j", job, "-o", "%T"], env=cluster.env, capture_output=True, text=True)
        if not r.stdout.strip():
            return
        time.sleep(1)
    fail(f"job {job} still in the queue after {timeout} s:\n" + cluster.tail_logs())


def check_store(store, names, steps):
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    runs = db.execute("SELECT id, name, status, steps_done FROM runs ORDER BY name").fetchall()
    problems = []
    if sorted(r[1] for r in runs) != sorted(names):
        problems.append(f"runs {[r[1] for r in runs]}, expected {sorted(names)}")
    for rid, name, status, done in runs:
        loss = db.execute("SELECT count(*) FROM points p JOIN series s ON s.id = p.series_id"
                          " WHERE s.run_id = ? AND s.name = 'train/loss'", (rid,)).fetchone()[0]
        val = db.execute("SELECT max(p.step) FROM points p JOIN series s ON s.id = p.series_id"
                         " WHERE s.run_id = ? AND s.name = 'val/loss'", (rid,)).fetchone()[0]
        if status != "finished" or done != steps or loss != steps or val != steps:
            problems.append(f"{name}: {status}, {done} steps, {loss} train losses, last val/loss at {val}")
    db.close()
    return problems


def sweep_over_ssh(cluster, cli, work, path, exp, steps):
    """`remote sweep` through an sshd on 127.0.0.1 (the login node): followed live, then a cancel."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import remote_ssh
    ssh_work = os.path.join(work, "sshd")
    os.makedirs(ssh_work)
    sshd = remote_ssh.Sshd(ssh_work, os.path.dirname(cli), env={"SLURM_CONF": cluster.env["SLURM_CONF"]})
    rm = remote_ssh.Remote(cli, ssh_work, sshd)
    try:
        d = os.path.join(work, "over ssh")
        mirror = os.path.join(work, "mirror.sqlite")
        t = time.monotonic()
        r, _ = rm.run("sweep", "gpu", path, "--dir", d, "--cpus-per-task", "1", store=mirror, timeout=600)
        if r.returncode != 0:
            fail(f"remote sweep: exit {r.returncode}: {r.stderr}")
        print(f"remote sweep over ssh: followed to the end in {time.monotonic() - t:.0f} s", flush=True)
        stores = sorted(os.path.join(d, "stores", f) for f in os.listdir(os.path.join(d, "stores")) if f.endswith(".sqlite"))
        want_pts, want_runs = {}, {}
        for st in stores:
            runs, pts, _ = remote_ssh.store_rows(st)
            want_runs.update(runs)
            want_pts.update(pts)
        got_runs, got_pts, _ = remote_ssh.store_rows(mirror)
        if got_runs != want_runs or got_pts != want_pts:
            fail(f"remote sweep: the mirror differs from the task stores: {got_runs} vs {want_runs}")
        if sorted(got_runs) != sorted(v["name"] for v in exp["variants"]) or any(v[0] != "finished" for v in got_runs.values()):
            fail(f"remote sweep: runs in the mirror: {got_runs}")
        print(f"remote sweep: {len(got_runs)} runs, {sum(len(v) for v in got_pts.values())} points, mirror == task stores",
              flush=True)
        # A long sweep, cancelled over ssh: the job ends and the follower with it.
        long = dict(exp, name="slurm-cancel", base=dict(exp["base"], train=dict(exp["base"]["train"], steps=200000)))
        lpath = os.path.join(work, "long.json")
        with open(lpath, "w") as f:
            json.dump(long, f)
        d2 = os.path.join(work, "cancel over ssh")
        r, _ = rm.run("sweep", "gpu", lpath, "--dir", d2, "--cpus-per-task", "1", "--detach", timeout=120)
        if r.returncode != 0:
            fail(f"remote sweep --detach: {r.stderr}")
        job = r.stdout.strip()
        mirror2 = os.path.join(work, "mirror2.sqlite")
        f = rm.popen("follow", "gpu", "--sweep", d2, store=mirror2)
        wait_for_rows = time.monotonic()
        while time.monotonic() - wait_for_rows < 120:
            if os.path.exists(mirror2) and remote_ssh.status_of(mirror2, 1)[1] > 0:
                break
            time.sleep(0.5)
        else:
            fail("remote follow --sweep: no run arrived in 120 s")
        r, _ = rm.run("cancel", "gpu", "--sweep", d2, timeout=60)
        if r.returncode != 0:
            fail(f"remote cancel --sweep: {r.stderr}")
        out, err = f.communicate(timeout=120)
        q = subprocess.run(["squeue", "-h", "-j", job], env=cluster.env, capture_output=True, text=True)
        if q.stdout.strip():
            fail(f"job {job} still queued after remote cancel --sweep: {q.stdout}")
        runs, _, _ = remote_ssh.store_rows(mirror2)
        if not runs or any(v[0] in ("running", "queued") for v in runs.values()):
            fail(f"after remote cancel --sweep the mirror's runs are {runs}; follower said: {err}")
        print(f"remote cancel --sweep: job {job} gone, the follower ended ({f.returncode}); runs {runs}", flush=True)
    finally:
        rm.close_shared()
        sshd.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--keep", action="store_true", help="leave the cluster running (prints SLURM_CONF)")
    args = ap.parse_args()
    cli = os.path.abspath(args.cli)
    work = os.path.abspath(args.workdir or tempfile.mkdtemp(prefix="normlab-slurm-"))
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    cluster = Cluster(os.path.join(work, "cluster"))
    os.makedirs(cluster.work)
    t0 = time.monotonic()
    try:
        cluster.start()
        # A 4-run experiment: two schemes × two seeds on the Markov source (no corpus needed).
        steps = 30
        exp = {"name": "slurm-sweep",
               "base": {"model": {"d_model": 32, "n_layers": 2, "n_heads": 2, "d_ff": 64, "context": 32},
                        "optim": {"lr": 1e-3}, "train": {"steps": steps, "batch_size": 4, "eval_every": 10},
                        "data": {"source": "markov", "markov": {"order": 2, "alphabet": 16}}},
               "variants": [{"name": f"{scheme} seed {seed}", "scheme": scheme, "train": {"seed": seed}}
                            for scheme in ("pre_ln", "ngpt") for seed in (1, 2)]}
        path = os.path.join(work, "sweep.json")
        with open(path, "w") as f:
            json.dump(exp, f)
        jobs = {}
        for label, extra in (("one-run-per-task", []), ("two-runs-per-task", ["--runs-per-task", "2"])):
            d = os.path.join(work, label)
            r = subprocess.run([cli, "sweep", path, "--slurm", "--submit", "--dir", d, "--cpus-per-task", "1"] + extra,
                               env=cluster.env, capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"sweep --submit ({label}) failed ({r.returncode}): {r.stderr}")
            jobs[label] = (r.stdout.strip(), d)
            print(f"{label}: submitted job {r.stdout.strip()}", flush=True)
        for label, (job, d) in jobs.items():
            wait_job(cluster, job)
            st = subprocess.run([cli, "sweep", "--status", d], capture_output=True, text=True)
            print(st.stdout, flush=True)
            tasks = json.load(open(os.path.join(d, "sweep.json")))["tasks"]
            if st.returncode != 0 or "4 finished" not in st.stdout:
                logs = "".join(open(os.path.join(d, "logs", f)).read()[-1500:] for f in sorted(os.listdir(os.path.join(d, "logs"))))
                fail(f"{label}: sweep --status says:\n{st.stdout}\n{logs}")
            stores = sorted(os.path.join(d, "stores", f) for f in os.listdir(os.path.join(d, "stores")) if f.endswith(".sqlite"))
            if len(stores) != tasks:
                fail(f"{label}: {len(stores)} task stores for {tasks} tasks")
            merged = os.path.join(d, "merged.sqlite")
            for attempt in (1, 2):
                r = subprocess.run([cli, "merge"] + stores + ["--into", merged], capture_output=True, text=True)
                if r.returncode != 0:
                    fail(f"merge failed: {r.stderr}")
                want = "4 runs added, 0 updated, 0 already there" if attempt == 1 else "0 runs added, 0 updated, 4 already there"
                if want not in r.stdout:
                    fail(f"merge #{attempt}: {r.stdout.strip()} (expected {want})")
                print(f"merge #{attempt}: {r.stdout.strip()}", flush=True)
            problems = check_store(merged, [v["name"] for v in exp["variants"]], steps)
            if problems:
                fail(f"{label}: merged store: {problems}")
            print(f"{label}: 4 finished runs with complete series in {merged}", flush=True)
        sweep_over_ssh(cluster, cli, work, path, exp, steps)
        # Data-parallel under srun, against one process; then a rank killed under srun.
        dp = [sys.executable, os.path.join(ROOT, "tests", "data_parallel.py"), "--cli", cli, "--launcher", "srun",
              "--steps", "30", "--workdir", os.path.join(work, "srun")]
        r = subprocess.run(dp, env=cluster.env, text=True)
        if r.returncode != 0:
            fail("srun -n 2: the data-parallel trace differs from one process (above)")
        r = subprocess.run(dp + ["--kill"], env=cluster.env, text=True)
        if r.returncode != 0:
            fail("srun -n 2: killing a rank did not end the other in time (above)")
        print(f"slurm_cluster: passed in {time.monotonic() - t0:.0f} s", flush=True)
        return 0
    finally:
        if args.keep:
            print(f"cluster left running: export SLURM_CONF={cluster.env['SLURM_CONF']}")
        else:
            cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
