// Beyond one machine, without LibTorch or a cluster: the launchers'
// variables, the Slurm job-array script, and merging run stores (the real
// engines are exercised by tests/data_parallel.py and tests/slurm_cluster.py).
#include "core/dist/launch.h"
#include "core/dist/slurm.h"
#include "core/errors.h"
#include "core/palette.h"
#include "core/store/store.h"
#include "core/train/probes.h"
#include "tests/test_util.h"

#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

using namespace normlab;
namespace fs = std::filesystem;

namespace {
LaunchInfo launch_with(const std::map<std::string, std::string>& env) {
    return detect_launch([&](const char* k) -> const char* {
        auto it = env.find(k);
        return it == env.end() ? nullptr : it->second.c_str();
    });
}
std::string config_path(const std::map<std::string, std::string>& env) {
    try {
        launch_with(env);
    } catch (const ConfigError& e) {
        return e.path();
    }
    return "";
}
}  // namespace

class TestScaleOut : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void alone() {
        QVERIFY(!launch_with({}).distributed());
        QVERIFY(!launch_with({{"WORLD_SIZE", "1"}, {"RANK", "0"}}).distributed());
        // An sbatch script or array task: Slurm variables, one process.
        QVERIFY(!launch_with({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}, {"SLURM_ARRAY_TASK_ID", "3"}}).distributed());
    }

    void torchrunVariables() {
        const LaunchInfo li = launch_with({{"WORLD_SIZE", "4"}, {"RANK", "3"}, {"LOCAL_RANK", "1"}, {"LOCAL_WORLD_SIZE", "2"},
                                           {"MASTER_ADDR", "node1"}, {"MASTER_PORT", "29400"},
                                           {"TORCHELASTIC_RUN_ID", "x"}});
        QVERIFY(li.distributed());
        QCOMPARE(li.rank, 3);
        QCOMPARE(li.world_size, 4);
        QCOMPARE(li.local_rank, 1);
        QCOMPARE(li.local_world_size, 2);
        QCOMPARE(li.master_addr, std::string("node1"));
        QCOMPARE(li.master_port, 29400);
        QCOMPARE(li.launcher, std::string("torchrun"));
        QCOMPARE(launch_with({{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"MASTER_ADDR", "h"}}).launcher, std::string("env"));
        QCOMPARE(launch_with({{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"MASTER_ADDR", "h"}}).master_port, 29500);
        // Each bad or missing variable is named.
        QCOMPARE(config_path({{"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}}), std::string("RANK"));
        QCOMPARE(config_path({{"WORLD_SIZE", "2"}, {"RANK", "2"}, {"MASTER_ADDR", "h"}}), std::string("RANK"));
        QCOMPARE(config_path({{"WORLD_SIZE", "two"}, {"RANK", "0"}}), std::string("WORLD_SIZE"));
        QCOMPARE(config_path({{"WORLD_SIZE", "2"}, {"RANK", "1"}}), std::string("MASTER_ADDR"));
        QCOMPARE(config_path({{"WORLD_SIZE", "2"}, {"RANK", "1"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "99999"}}),
                 std::string("MASTER_PORT"));
    }

    void slurmStep() {
        QCOMPARE(first_slurm_host("node[03-05,9],gpu1"), std::string("node03"));
        QCOMPARE(first_slurm_host("vm"), std::string("vm"));
        QCOMPARE(first_slurm_host("a1,b[1-2]"), std::string("a1"));
        std::map<std::string, std::string> env{{"SLURM_PROCID", "1"}, {"SLURM_STEP_NUM_TASKS", "2"}, {"SLURM_LOCALID", "1"},
                                               {"SLURM_STEP_TASKS_PER_NODE", "2"}, {"SLURM_STEP_NODELIST", "gpu[07-08]"},
                                               {"SLURM_JOB_ID", "1234"}, {"SLURM_STEP_ID", "0"}};
        const LaunchInfo li = launch_with(env);
        QVERIFY(li.distributed());
        QCOMPARE(li.launcher, std::string("slurm"));
        QCOMPARE(li.rank, 1);
        QCOMPARE(li.local_world_size, 2);
        QCOMPARE(li.master_addr, std::string("gpu07"));
        // Every task computes the same port; another step of the job another one.
        const int port = li.master_port;
        QVERIFY(port >= 20000 && port < 40000);
        env["SLURM_PROCID"] = "0";
        QCOMPARE(launch_with(env).master_port, port);
        env["SLURM_STEP_ID"] = "1";
        QVERIFY(launch_with(env).master_port != port);
        env["SLURM_PROCID"] = "5";
        QCOMPARE(config_path(env), std::string("SLURM_PROCID"));
    }

    void sbatchScript() {
        SlurmSweep s;
        s.cli = "/opt/normlab/bin/normlab-cli";
        s.experiment = "/home/a b/exp.json";
        s.name = "depth";
        s.dir = "/scratch/sw";
        s.run_names = {"a", "b", "c", "d", "e"};
        s.runs_per_task = 2;
        s.max_parallel = 2;
        s.cpus_per_task = 4;
        s.gpus_per_task = 1;
        s.partition = "gpu";
        s.time = "01:30:00";
        QCOMPARE(s.tasks(), 3);
        check_sweep(s);
        const std::string sc = sbatch_script(s);
        for (const char* want : {"#SBATCH --array=0-2%2\n", "#SBATCH --cpus-per-task=4\n", "#SBATCH --gpus-per-task=1\n",
                                 "#SBATCH --partition=gpu\n", "#SBATCH --time=01:30:00\n", "FIRST=$((TASK * 2))",
                                 "LAST=4; fi", "'/home/a b/exp.json'", "--index \"$FIRST-$LAST\"",
                                 "stores/task-%03d.sqlite"})
            QVERIFY2(sc.find(want) != std::string::npos, want);
        // The description round-trips through sweep.json.
        const SlurmSweep back = SlurmSweep::from_json(s.to_json());
        QCOMPARE(sbatch_script(back), sc);
        QCOMPARE(back.store_of(2), std::string("/scratch/sw/stores/task-002.sqlite"));
        s.time = "an hour";
        try {
            check_sweep(s);
            QFAIL("a bad --time was accepted");
        } catch (const ConfigError& e) {
            QCOMPARE(e.path(), std::string("--time"));
        }
    }

    void mergeStores() {
        const std::string a = path("a.sqlite"), b = path("b.sqlite"), into = path("merged.sqlite");
        int64_t r1 = 0;
        const std::string ckpt = path("a.sqlite.checkpoints");
        fs::create_directories(ckpt);
        {
            Store s(a);
            const int64_t ex = s.add_experiment("exp", "exp.json", {{"base", {}}});
            r1 = s.create_run("first", "pre_ln", {{"scheme", "pre_ln"}, {"n", 1}}, 1, ex, {"t1"});
            const int64_t r2 = s.create_run("second", "ngpt", {{"scheme", "ngpt"}}, 2, ex, {});
            for (int64_t r : {r1, r2}) {
                s.mark_running(r, "cpu", {});
                RunWriter w(s, r);
                for (int i = 0; i < 50; ++i) w.scalar("train/loss", i, 5.0 - 0.01 * i - r);
                w.layer("grad_l2/fc2", 1, 0, 0.25);
                w.distribution(summarize("gain/ln", 0, 0, std::vector<double>{1, 2, 3, 4}, 8));
                w.flush();
            }
            s.set_notes(r1, "a note");
            std::ofstream(ckpt + "/run-1-step-50.pt") << "weights";
            s.set_checkpoint(r1, ckpt + "/run-1-step-50.pt");
            s.finish_run(r1, RunStatus::Finished, 50, "", 4.0);
            s.heartbeat(r1, 50);
            s.finish_run(r2, RunStatus::Cancelled, 20, "stopped", std::nan(""));
            s.heartbeat(r2, 20);
            s.set_run_color(r2, "#123456");   // chosen by the user: kept by the merge
        }
        {
            Store s(b);   // a run of its own, and one more store to merge
            s.create_run("third", "post_ln", {{"scheme", "post_ln"}}, 3);
        }
        Store m(into);
        auto rep = m.merge_from(a);
        QCOMPARE(rep.added, 2);
        QCOMPARE(m.merge_from(b).added, 1);
        QCOMPARE(m.runs().size(), size_t(3));
        // Default colours follow the new ids (every task store's run 1 would otherwise share one); chosen ones stay.
        const RunInfo third = m.find_run("third");
        QCOMPARE(third.color, default_run_color(third.id));
        QVERIFY(third.color != m.find_run("first").color);
        QCOMPARE(m.find_run("second").color, std::string("#123456"));
        const RunInfo first = m.find_run("first");
        QCOMPARE(first.status, RunStatus::Finished);
        QCOMPARE(first.notes, std::string("a note"));
        QCOMPARE(first.tags, std::vector<std::string>{"t1"});
        QCOMPARE(first.steps_done, int64_t(50));
        QVERIFY(first.experiment_id > 0);
        QVERIFY(fs::exists(first.checkpoint));
        QVERIFY(first.checkpoint.find("merged.sqlite.checkpoints/run-" + std::to_string(first.id) + "-step-50.pt") !=
                std::string::npos);
        int64_t loss = 0;
        for (auto& si : m.series(first.id))
            if (si.name == "train/loss") {
                loss = si.id;
                QCOMPARE(si.count, int64_t(50));
            }
        QCOMPARE(m.points(loss)[10].value, 5.0 - 0.1 - 1);
        QCOMPARE(m.distributions(first.id).size(), size_t(1));
        QCOMPARE(m.distributions(first.id)[0].max, 4.0);
        // Twice: nothing added. The experiment is one row. Its progress still reaches every series of the
        // source (the runs found here count as merged), rising, after each.
        std::vector<std::pair<int64_t, int64_t>> heard;
        rep = m.merge_from(a, false, nullptr, [&](int64_t done, int64_t total) { heard.emplace_back(done, total); });
        QCOMPARE(rep.added, 0);
        QCOMPARE(rep.unchanged, 2);
        int64_t source_series = 0;
        {
            Store s(a, Store::Mode::ReadOnly);
            for (auto& r : s.runs()) source_series += static_cast<int64_t>(s.series(r.id).size());
        }
        QVERIFY(source_series > 0);
        QVERIFY(!heard.empty());
        QCOMPARE(heard.back(), std::make_pair(source_series, source_series));
        for (size_t i = 1; i < heard.size(); ++i) QVERIFY(heard[i].first >= heard[i - 1].first);
        QCOMPARE(m.runs().size(), size_t(3));
        // The source trains "second" further: brought up to date, keeping the name given here.
        const int64_t second_here = m.find_run("second").id;
        m.rename_run(second_here, "second (renamed here)");
        {
            Store s(a);
            const int64_t r2 = s.find_run("second").id;
            s.claim_run(r2, RunStatus::Cancelled, "cpu", {});
            RunWriter w(s, r2);
            for (int i = 50; i < 80; ++i) w.scalar("train/loss", i, 1.0);
            w.flush();
            s.finish_run(r2, RunStatus::Finished, 80, "", 3.0);
            s.heartbeat(r2, 80);
        }
        heard.clear();
        rep = m.merge_from(a, false, nullptr, [&](int64_t done, int64_t total) { heard.emplace_back(done, total); });
        QCOMPARE(rep.updated, 1);
        QCOMPARE(rep.unchanged, 1);
        QCOMPARE(heard.back(), std::make_pair(source_series, source_series));   // one series a step while merged
        QVERIFY(heard.size() >= 2);
        const RunInfo second = *m.run(second_here);
        QCOMPARE(second.name, std::string("second (renamed here)"));
        QCOMPARE(second.status, RunStatus::Finished);
        QCOMPARE(second.steps_done, int64_t(80));
        for (auto& si : m.series(second.id))
            if (si.name == "train/loss") QCOMPARE(si.count, int64_t(80));
        // Refused inputs are left exactly as they were; nothing is merged from them.
        const std::string junk = path("junk.sqlite");
        std::ofstream(junk) << "not a store at all";
        const std::string before = test::read_bytes(junk);
        QVERIFY(test::store_error([&] { m.merge_from(junk); }).find("junk.sqlite") != std::string::npos);
        QCOMPARE(test::read_bytes(junk), before);
        QVERIFY(!test::store_error([&] { m.merge_from(into); }).empty());
        QVERIFY(!test::store_error([&] { m.merge_from(path("absent.sqlite")); }).empty());
        QVERIFY(!fs::exists(path("absent.sqlite")));
        QCOMPARE(m.runs().size(), size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestScaleOut)
#include "test_scale_out.moc"
