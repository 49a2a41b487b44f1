// The Layers tab against depth (widgets/chartsview_layers.cpp): x the layer, a line per run at
// the step its slider picks, each run's last point at or before it (runs that record at different
// intervals side by side), following a live run at the slider's end and staying put elsewhere,
// seed groups as one line with a band; and `normlab figure --view layers --at-step`, which draws
// it for print and refuses what it cannot draw. A probe some runs shown lack (nGPT's eigen learning
// rates beside BranchNorm runs): the chart's footer names them, as `normlab figure` does, which refuses
// a figure of runs that all lack it. The Gradients tab leaves out the heatmap of a run whose model has
// no such weight (nGPT's norm1), and its figure the heatmaps with nothing to draw.
#include "core/store/store.h"
#include "core/train/probes.h"
#include "tests/figure_util.h"
#include "widgets/chartsview.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <cmath>

using namespace normlab;
using normlab::test::pdf_text;
using normlab::test::run;

namespace {
const char* kProbe = "hidden/cos_tokens";

// run k, layer l at step s: k + l/10 + s/1000
double value(int k, int l, int64_t s) { return k + 0.1 * l + 0.001 * static_cast<double>(s); }

void settle() {
    for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
}
}  // namespace

class TestLayerProfile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;
    std::vector<int64_t> ids_;

    // Run 0 (seed 1) and run 1 (seed 2, same settings) record 4 layers every 10 steps to step 20;
    // run 2 (another width) every 25 steps to 25.
    void write(Store& s, int64_t id, int k, int64_t from, int64_t to, int64_t every) {
        RunWriter w(s, id);
        for (int64_t st = from; st <= to; st += every)
            for (int l = 0; l < 4; ++l) w.layer(kProbe, l, st, value(k, l, st));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QLocale::setDefault(QLocale::c());
        store_ = dir_.filePath("layers.sqlite");
        Store s(store_.toStdString());
        for (int k = 0; k < 3; ++k) {
            nlohmann::json cfg = {{"model", {{"d_model", k == 2 ? 128 : 64}}}, {"train", {{"seed", k == 1 ? 2 : 1}}}};
            const int64_t id = s.create_run(QString("run %1").arg(k).toStdString(), "branchnorm", cfg, k + 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            write(s, id, k, 0, k == 2 ? 25 : 20, k == 2 ? 25 : 10);
            ids_.push_back(id);
        }
    }

    void againstDepthAtTheSlidersStep() {
        Store s(store_.toStdString());
        ChartsView view;
        view.resize(1280, 720);
        view.setRuns(ids_, s);
        view.show();
        view.tabs()->setCurrentIndex(3);
        auto* series = view.findChild<QComboBox*>("layerSeries");
        auto* axis = view.findChild<QComboBox*>("layerAxis");
        auto* slider = view.findChild<QSlider*>("layerStep");
        auto* label = view.findChild<QLabel*>("layerStepLabel");
        QVERIFY(series && axis && slider && label);
        series->setCurrentIndex(series->findData(kProbe));
        settle();
        QVERIFY(!slider->isVisible());
        QCOMPARE(view.layerChart()->curves().size(), size_t(12));   // over the steps: a line per run and layer

        axis->setCurrentIndex(axis->findData(1));
        settle();
        QVERIFY(slider->isVisible());
        QCOMPARE(slider->maximum(), 3);   // the steps any run recorded: 0, 10, 20, 25
        QCOMPARE(slider->value(), 3);
        QCOMPARE(label->text(), QString("25"));
        QCOMPARE(view.layerChart()->xTitle(), QString("layer (step 25)"));
        auto check = [&](int64_t at_ab, int64_t at_c) {
            const auto& c = view.layerChart()->curves();
            QCOMPARE(c.size(), size_t(3));
            for (int k = 0; k < 3; ++k) {
                QVERIFY2(c[k].label.startsWith(QString("run %1").arg(k)), qPrintable(c[k].label));
                QCOMPARE(c[k].x, (std::vector<double>{0, 1, 2, 3}));
                for (int l = 0; l < 4; ++l) QCOMPARE(c[k].y[l], value(k, l, k == 2 ? at_c : at_ab));
                QVERIFY(c[k].markers && !c[k].smooth);
            }
        };
        check(20, 25);   // runs 0 and 1 at their last point before 25
        slider->setValue(1);
        settle();
        QCOMPARE(label->text(), QString("10"));
        check(10, 0);

        // A live run: off the end the slider stays at its step; at the end it follows the new one.
        {
            Store w(store_.toStdString());
            write(w, ids_[0], 0, 30, 30, 10);
        }
        view.refresh(s);
        settle();
        QCOMPARE(label->text(), QString("10"));
        slider->setValue(slider->maximum());
        settle();
        QCOMPARE(label->text(), QString("30"));
        {
            Store w(store_.toStdString());
            write(w, ids_[0], 0, 40, 40, 10);
        }
        view.refresh(s);
        settle();
        QCOMPARE(label->text(), QString("40"));
        QCOMPARE(view.layerChart()->curves()[0].y[2], value(0, 2, 40));

        // Runs that differ only by seed: one line, their mean, with a band.
        view.setGrouping(1);
        slider->setValue(2);   // step 20, where runs 0 and 1 both recorded
        settle();
        const auto& g = view.layerChart()->curves();
        QCOMPARE(g.size(), size_t(2));
        const Curve& mean = g[0].band_lo.empty() ? g[1] : g[0];
        QVERIFY2(mean.label.contains(QString::fromUtf8("×2")), qPrintable(mean.label));
        QCOMPARE(mean.x.size(), size_t(4));
        QVERIFY(std::abs(mean.y[3] - (value(0, 3, 20) + value(1, 3, 20)) / 2) < 1e-12);
        view.setGrouping(0);

        // For scripts: a step before any run recorded says so; none recorded says which probe.
        QString err;
        QVERIFY(view.showLayersAt(-1, &err));
        QCOMPARE(label->text(), QString("40"));
        QVERIFY(view.showLayersAt(24, &err));
        QCOMPARE(label->text(), QString("20"));
        series->setCurrentIndex(series->findData("cond/q"));
        QVERIFY(!view.showLayersAt(10, &err));
        QVERIFY2(err.contains("recorded no cond/q"), qPrintable(err));

        // Back over the steps: a line per layer again, the slider hidden.
        series->setCurrentIndex(series->findData(kProbe));
        axis->setCurrentIndex(axis->findData(0));
        settle();
        QVERIFY(!slider->isVisible());
        QCOMPARE(view.layerChart()->xTitle(), QString("step"));
        QCOMPARE(view.layerChart()->curves().size(), size_t(12));
    }

    void figureAtAStep() {
        const QString pdf = dir_.filePath("depth.pdf");
        QString out, err;
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "2", "3", "--view", "layers", "--probe", kProbe, "--at-step", "20", "--out", pdf,
                                   "--store", store_},
                     &out, &err),
                 0);
        const QString text = pdf_text(pdf);
        QVERIFY2(text.contains("layer (step 20)"), qPrintable(text));
        QVERIFY2(text.contains("run 2"), qPrintable(text));
        // refused before anything is written, naming the option
        const QString none = dir_.filePath("none.pdf");
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "--view", "loss", "--at-step", "20", "--out", none, "--store", store_}, &out, &err), 2);
        QVERIFY2(err.contains("--at-step draws --view layers"), qPrintable(err));
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "--view", "layers", "--probe", "cond/q", "--at-step", "10", "--out", none, "--store", store_},
                     &out, &err),
                 2);
        QVERIFY2(err.contains("--at-step: these runs recorded no cond/q"), qPrintable(err));
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "--view", "layers", "--at-step", "1.5", "--out", none, "--store", store_}, &out, &err), 2);
        QVERIFY2(err.contains("--at-step needs a whole step"), qPrintable(err));
        QVERIFY(!QFile::exists(none));
    }

    // An nGPT run (id 4, last) beside the BranchNorm runs: its eigen learning rates are its own.
    void runsThatLackTheProbeAreNamed() {
        {
            Store s(store_.toStdString());
            const int64_t id = s.create_run("ngpt run", "ngpt", nlohmann::json::object(), 4);
            s.mark_running(id, "cpu", nlohmann::json::object());
            RunWriter w(s, id);
            for (int64_t st = 0; st <= 20; st += 10)
                for (int l = 0; l < 4; ++l) {
                    w.layer("gain_mean/alpha_A", l, st, 0.05 + 0.001 * l);
                    w.distribution(summarize("gain/alpha_A", l, st, std::vector<double>(32, 0.05 + 0.001 * l), 8));
                }
            w.flush();
            ids_.push_back(id);
        }
        Store s(store_.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(1280, 720);
        view.setRuns(std::vector<int64_t>{ids_[0], ids_[3]}, s);
        view.show();
        QString err;
        QVERIFY2(view.showView("layers", "", "", "gain_mean/alpha_A", &err), qPrintable(err));
        settle();
        QCOMPARE(view.runsLacking(), QStringList{"run 0"});
        QVERIFY(view.nothingDrawn().isEmpty());
        QVERIFY2(view.layerChart()->footer().contains("nothing recorded by 1 of 2 runs: run 0"), qPrintable(view.layerChart()->footer()));
        QVERIFY2(view.showView("gains", "", "", "gain/alpha_A", &err), qPrintable(err));   // the gains' box plots: under them
        settle();
        auto* hist = view.findChild<LineChart*>("histChart");
        QVERIFY2(hist->footer().contains("nothing recorded by 1 of 2 runs: run 0"), qPrintable(hist->footer()));
        view.setRuns(std::vector<int64_t>{ids_[3]}, s);   // the nGPT run alone: nothing to say
        settle();
        QVERIFY(view.runsLacking().isEmpty());
        QVERIFY2(!hist->footer().contains("nothing recorded"), qPrintable(hist->footer()));
        view.setRuns(std::vector<int64_t>{ids_[0], ids_[1]}, s);   // none has it: the empty hint says why, the footer nothing
        settle();
        QVERIFY(view.showView("layers", "", "", "gain_mean/alpha_A", &err));
        settle();
        QCOMPARE(view.runsLacking().size(), 2);
        QVERIFY2(view.nothingDrawn().contains("only in nGPT runs"), qPrintable(view.nothingDrawn()));
        QVERIFY2(!view.layerChart()->footer().contains("nothing recorded"), qPrintable(view.layerChart()->footer()));

        // normlab figure: "4 runs" drew one run's boxes and said nothing of the others
        const QString pdf = dir_.filePath("some.pdf"), none = dir_.filePath("nothing.pdf");
        QString out;
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "4", "--view", "gains", "--out", pdf, "--store", store_}, &out, &err), 0);
        QVERIFY2(out.contains("not drawn, as they recorded none of what it shows: run 0\n"), qPrintable(out));
        QVERIFY2(pdf_text(pdf).contains("ngpt run") && !pdf_text(pdf).contains("run 0"), qPrintable(pdf_text(pdf)));
        QCOMPARE(run(NORMLAB_APP, {"figure", "4", "--view", "layers", "--probe", "gain_mean/alpha_A", "--out", pdf, "--store", store_},
                     &out, &err),
                 0);
        QVERIFY2(!out.contains("not drawn"), qPrintable(out));
        // and a figure of nothing but its axes is refused, saying why
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "2", "--view", "layers", "--probe", "gain_mean/alpha_A", "--out", none, "--store", store_},
                     &out, &err),
                 2);
        QVERIFY2(err.contains("--view layers --probe gain_mean/alpha_A: none of the 2 runs has recorded what it draws. "
                              "It exists only in nGPT runs. Nothing was written."),
                 qPrintable(err));
        // in English whatever language the figure's words were to be in
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "2", "--view", "layers", "--probe", "gain_mean/alpha_A", "--language", "de", "--out", none,
                                   "--store", store_},
                     &out, &err),
                 2);
        QVERIFY2(err.contains("none of the 2 runs has recorded what it draws. It exists only in nGPT runs. Nothing was written."),
                 qPrintable(err));
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "--view", "gains", "--out", none, "--store", store_}, &out, &err), 2);
        QVERIFY2(err.contains("--view gains: the run has not recorded what it draws. It is recorded every probes.gains_every steps"),
                 qPrintable(err));
        QVERIFY(!QFile::exists(none));
    }

    // The Gradients tab's heatmaps, one a run, of a weight only some runs' models have (norm1: not
    // nGPT's): the run whose model has none is left out, not shown as an empty "no data yet"; a run
    // that has recorded no gradient yet keeps its heatmap, which says so. A figure draws neither.
    void heatmapsOfRunsWithoutTheWeightAreLeftOut() {
        std::vector<int64_t> ids;
        {
            Store s(store_.toStdString());
            auto make = [&](const char* name, const char* scheme, std::vector<const char*> weights) {
                const int64_t id = s.create_run(name, scheme, nlohmann::json::object(), 10);
                s.mark_running(id, "cpu", nlohmann::json::object());
                RunWriter w(s, id);
                for (int64_t st = 0; st <= 20; st += 10)
                    for (const char* wt : weights)
                        for (int l = 0; l < 4; ++l) w.layer(std::string("grad_l2/") + wt, l, st, 1e-3 * (l + 1) * (st + 1));
                w.flush();
                ids.push_back(id);
            };
            make("pre-ln run", "pre_ln", {"fc2", "norm1"});
            make("ngpt run", "ngpt", {"fc2"});
            make("fresh run", "pre_ln", {});
        }
        Store s(store_.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(1280, 720);
        view.setRuns(ids, s);
        view.show();
        auto shown = [&] {
            QStringList t;
            for (auto* h : view.findChildren<Heatmap*>())
                if (h->isVisible()) t << h->shortTitle();
            t.sort();
            return t;
        };
        QString err;
        QVERIFY2(view.showView("gradients", "norm1", "l2", "", &err), qPrintable(err));
        settle();
        QCOMPARE(shown(), (QStringList{"fresh run", "pre-ln run"}));
        auto* lines = view.findChild<LineChart*>("gradChart");
        QVERIFY(lines);
        QVERIFY2(lines->footer().contains("nothing recorded by 2 of 3 runs: ngpt run, fresh run"), qPrintable(lines->footer()));
        QVERIFY2(view.showView("gradients", "fc2", "l2", "", &err), qPrintable(err));   // a weight every model has
        settle();
        QCOMPARE(shown(), (QStringList{"fresh run", "ngpt run", "pre-ln run"}));
        QVERIFY2(view.showView("gradients", "norm1", "l2", "", &err), qPrintable(err));   // and back
        settle();
        QCOMPARE(shown(), (QStringList{"fresh run", "pre-ln run"}));

        // the whole panel for print: the lines and one heatmap, of the run with norm1's gradients
        const QString pdf = dir_.filePath("norm1.pdf");
        QStringList args{"figure"};
        for (int64_t id : ids) args << QString::number(id);
        QString out;
        QCOMPARE(run(NORMLAB_APP, args + QStringList{"--view", "gradients", "--weight", "norm1", "--norm", "l2", "--panel", "--out", pdf, "--store", store_},
                     &out, &err),
                 0);
        QVERIFY2(out.contains("not drawn, as they recorded none of what it shows: ngpt run, fresh run\n"), qPrintable(out));
        const QString text = pdf_text(pdf);
        QVERIFY2(text.contains("pre-ln run") && !text.contains("ngpt run") && !text.contains("fresh run"), qPrintable(text));

        // The nGPT run alone: its model has no norm1, which the empty chart says, not "recorded … yet"; a
        // figure of it is refused so. The run yet to record anything: "yet".
        view.setRuns(std::vector<int64_t>{ids[1]}, s);
        settle();
        QVERIFY2(view.showView("gradients", "norm1", "l2", "", &err), qPrintable(err));
        settle();
        QVERIFY2(view.nothingDrawn().startsWith("None of the shown runs' models has the weight norm1.\nEvery scheme's blocks have it "
                                                "but nGPT's"),
                 qPrintable(view.nothingDrawn()));
        QVERIFY(shown().isEmpty());
        const QString none = dir_.filePath("none.pdf");
        QCOMPARE(run(NORMLAB_APP, {"figure", QString::number(ids[1]), "--view", "gradients", "--weight", "norm1", "--norm", "l2", "--out", none, "--store", store_},
                     &out, &err),
                 2);
        QVERIFY2(err.contains("the run has not recorded what it draws. Every scheme's blocks have it but nGPT's"), qPrintable(err));
        QVERIFY(!QFile::exists(none));
        view.setRuns(std::vector<int64_t>{ids[2]}, s);
        settle();
        QVERIFY2(view.nothingDrawn().startsWith("None of the shown runs has recorded"), qPrintable(view.nothingDrawn()));
        QCOMPARE(shown(), QStringList{"fresh run"});
    }
};

QTEST_MAIN(TestLayerProfile)
#include "test_layer_profile.moc"
