// The Block tab (widgets/block_diagram.h, blockview.h): each scheme's block puts its norms and
// scales where the model's code does (core/model/gpt.cpp); a toggle of the form moves them; parts
// never overlap or leave the tab at a laptop's size; blocks compared are outlined where they differ;
// a click on a part of the form's block switches its toggle in the form; `normlab figure --view block`
// draws it for print.
#include "app/gui/mainwindow.h"
#include "core/store/store.h"
#include "widgets/blockview.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"
#include "widgets/elided_label.h"
#include "tests/designer_util.h"

#include <QCheckBox>
#include <QFile>
#include <QHelpEvent>
#include <QLabel>
#include <QToolTip>
#include <QProcess>
#include <QStatusBar>
#include <QTabWidget>
#include <QtTest/QtTest>

#include <cstring>

using namespace normlab;

namespace {

ModelConfig model_of(Scheme s, const std::function<void(ModelConfig&)>& change = {}) {
    RunConfig c;
    apply_scheme(c, s);
    if (change) change(c.model);
    return c.model;
}

// The ids of a list of parts, in order.
QStringList ids(const std::vector<BlockPart>& parts) {
    QStringList out;
    for (auto& p : parts) out << p.id + (p.on ? "" : "~");
    return out;
}

QStringList all_ids(const BlockDiagram& d) {
    QStringList out;
    for (auto* p : d.parts()) out << p->id + (p->on ? "" : "~");
    return out;
}

}  // namespace

class TestBlockDiagram : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        test::isolate_window_settings();
    }

    // Where each scheme's preset puts its norms: on the stream after the sum (Post-LN), at the
    // sub-layer's input (Pre-LN), with NormFormer's inside the sub-layers.
    void schemes() {
        const BlockDiagram post = block_diagram(model_of(Scheme::PostLN));
        QCOMPARE(ids(post.stages[0].branch), (QStringList{"attn.heads", "attn.out"}));
        QCOMPARE(ids(post.stages[0].after), (QStringList{"attn.norm_after"}));
        QCOMPARE(ids(post.stages[1].branch), (QStringList{"mlp.fc1", "mlp.act", "mlp.fc2"}));
        QCOMPARE(ids(post.stages[1].after), (QStringList{"mlp.norm_after"}));
        QCOMPARE(ids(post.output), (QStringList{"logits"}));   // no final norm: the last block's LN is the output's

        const BlockDiagram pre = block_diagram(model_of(Scheme::PreLN));
        QCOMPARE(ids(pre.stages[0].branch), (QStringList{"attn.norm_in", "attn.heads", "attn.out"}));
        QVERIFY(pre.stages[0].after.empty() && pre.stages[1].after.empty());
        QCOMPARE(ids(pre.stages[1].branch), (QStringList{"mlp.norm_in", "mlp.fc1", "mlp.act", "mlp.fc2"}));
        QCOMPARE(ids(pre.output), (QStringList{"final_norm", "logits"}));
        QCOMPARE(block_part_text(pre.stages[0].branch[0]), QString("LN₁"));

        // NormFormer: HeadScale before W_O (the paper's), the post-attention LN after it, the FFN LN
        // after the activation; ResScale off in the preset
        const BlockDiagram nf = block_diagram(model_of(Scheme::NormFormer));
        QCOMPARE(ids(nf.stages[0].branch), (QStringList{"attn.norm_in", "attn.heads", "attn.head_scale", "attn.out", "attn.post_norm"}));
        QCOMPARE(ids(nf.stages[1].branch), (QStringList{"mlp.norm_in", "mlp.fc1", "mlp.act", "mlp.ffn_norm", "mlp.fc2"}));
        QVERIFY(nf.stages[1].residual_scales.empty());
        const BlockDiagram fairseq = block_diagram(model_of(Scheme::NormFormer, [](ModelConfig& m) {
            m.normformer.head_scale_placement = HeadScalePlacement::AfterOutProj;
            m.normformer.res_scale = true;
            m.norm = NormKind::RMSNorm;
        }));
        QCOMPARE(ids(fairseq.stages[0].branch), (QStringList{"attn.norm_in", "attn.heads", "attn.out", "attn.head_scale", "attn.post_norm"}));
        QCOMPARE(ids(fairseq.stages[1].residual_scales), (QStringList{"mlp.res_scale"}));
        QCOMPARE(block_part_text(fairseq.stages[1].branch[3]), QString("RMSNorm (FFN)"));

        // DeepNorm scales the residual by α = (2N)^¼ (N = 4 layers: 1.68), BranchNorm the branch by α_t
        const BlockDiagram deep = block_diagram(model_of(Scheme::DeepNorm));
        for (auto& s : deep.stages) {
            QCOMPARE(s.residual_scales.size(), size_t(1));
            QCOMPARE(block_part_text(s.residual_scales[0]), QString("× α = 1.68"));
            QVERIFY(s.branch_scales.empty());
            QCOMPARE(s.after.size(), size_t(1));
        }
        const BlockDiagram branch = block_diagram(model_of(Scheme::BranchNorm));
        for (auto& s : branch.stages) {
            QCOMPARE(ids(s.branch_scales), QStringList{s.id + ".alpha_t"});
            QVERIFY(s.residual_scales.empty());
        }

        // nGPT: no LayerNorm; each sub-layer's output normalized, h ← norm((1 − α) ⊙ h + α ⊙ h_F)
        const BlockDiagram ngpt = block_diagram(model_of(Scheme::NGPT));
        QVERIFY(!all_ids(ngpt).join(' ').contains("norm_in"));
        QCOMPARE(ids(ngpt.stages[0].branch), (QStringList{"attn.qkv", "attn.qk_norm", "attn.heads", "attn.out", "attn.norm_out"}));
        QCOMPARE(ids(ngpt.stages[0].branch_scales), QStringList{"attn.alpha"});
        QCOMPARE(ids(ngpt.stages[0].residual_scales), QStringList{"attn.keep"});
        QCOMPARE(ids(ngpt.stages[1].after), QStringList{"mlp.norm_after"});
        QCOMPARE(block_part_text(ngpt.stages[1].branch_scales[0]), QString("α_{M} ⊙"));
        QCOMPARE(block_part_text(ngpt.output[0]), QString("logits = s_{z} ⊙ h W_{out}ᵀ"));
        const BlockDiagram no_qk = block_diagram(model_of(Scheme::NGPT, [](ModelConfig& m) { m.ngpt.qk_norm = false; }));
        QCOMPARE(block_part_text(no_qk.stages[0].branch[1]), QString("s_{qk} ⊙ q, k"));
    }

    // The form offers what its toggles could add, switched off: dashed, a click away.
    void offered() {
        const QStringList toggles = {"model.normformer.head_scale", "model.normformer.post_attn_norm", "model.normformer.ffn_norm",
                                     "model.normformer.res_scale", "model.final_norm", "model.deepnorm.residual", "model.branchnorm.enabled"};
        const BlockDiagram post = block_diagram(model_of(Scheme::PostLN), [&](const QString& s) { return toggles.contains(s); });
        QCOMPARE(ids(post.stages[0].branch), (QStringList{"attn.heads", "attn.head_scale~", "attn.out", "attn.post_norm~"}));
        QCOMPARE(ids(post.stages[1].residual_scales), (QStringList{"mlp.alpha~", "mlp.res_scale~"}));
        QCOMPARE(ids(post.output), (QStringList{"final_norm~", "logits"}));
        QStringList settings;
        for (auto* p : post.parts())
            if (!p->on) settings << p->setting;
        settings.removeDuplicates();
        settings.sort();
        QStringList want = toggles;
        want.sort();
        QCOMPARE(settings, want);
        // none offered: none added
        QCOMPARE(all_ids(block_diagram(model_of(Scheme::PostLN), [](const QString&) { return false; })),
                 all_ids(block_diagram(model_of(Scheme::PostLN))));
    }

    // Outlined: against the first block; the first's own where none of the others has them alike.
    void differences() {
        const BlockDiagram post = block_diagram(model_of(Scheme::PostLN)), pre = block_diagram(model_of(Scheme::PreLN)),
                           nf = block_diagram(model_of(Scheme::NormFormer)), deep = block_diagram(model_of(Scheme::DeepNorm));
        auto d = block_differences({&post, &pre});
        QCOMPARE(QStringList(d[0].begin(), d[0].end()), (QStringList{"attn.norm_after", "mlp.norm_after"}));
        QCOMPARE(QStringList(d[1].begin(), d[1].end()), (QStringList{"attn.norm_in", "final_norm", "mlp.norm_in"}));
        d = block_differences({&post, &post});
        QVERIFY(d[0].empty() && d[1].empty());
        d = block_differences({&post, &nf, &deep});
        QVERIFY(d[0].empty());   // DeepNorm has Post-LN's norms where Post-LN has them
        QCOMPARE(QStringList(d[2].begin(), d[2].end()), (QStringList{"attn.alpha", "mlp.alpha"}));
        QVERIFY(QStringList(d[1].begin(), d[1].end()).contains("mlp.ffn_norm"));
        QVERIFY(block_differences({&post}).at(0).empty());
        // a part switched off is missing: the form's dashed parts are never "the same" as a run's
        const BlockDiagram offered = block_diagram(model_of(Scheme::PostLN), [](const QString&) { return true; });
        d = block_differences({&offered, &post});
        QVERIFY(d[0].empty() && d[1].empty());
    }

    // Every part inside the view and none over another, for every scheme side by side with the form's,
    // at the Block tab's size in a laptop's window; below kMinScale the tab scrolls instead.
    void layout() {
        BlockView view;
        view.resize(570, 380);
        std::vector<BlockPanel> panels;
        BlockPanel form;
        form.title = "The form: a name long enough to be elided in its panel, as run names of sweeps are";
        form.diagram = block_diagram(model_of(Scheme::PostLN), [](const QString&) { return true; });
        form.clickable = true;
        panels.push_back(form);
        for (Scheme s : all_schemes()) {
            BlockPanel p;
            p.title = QString::fromStdString(scheme_title(s));
            p.subtitle = QString::fromStdString(scheme_name(s));
            p.diagram = block_diagram(model_of(s));
            panels.push_back(p);
        }
        view.setPanels(panels);
        view.resize(view.minimumSize().expandedTo(QSize(570, 380)));
        QImage image(view.size(), QImage::Format_ARGB32);
        view.render(&image);
        size_t parts = 0;
        for (auto& p : panels) parts += p.diagram.parts().size();
        std::vector<BlockHit> hits;
        for (int y = 0; y < view.height(); y += 2)   // every part is found where it was drawn
            for (int x = 0; x < view.width(); x += 2)
                if (const BlockHit* h = view.hitAt(QPointF(x, y)))
                    if (std::none_of(hits.begin(), hits.end(), [h](auto& o) { return o.rect == h->rect; })) hits.push_back(*h);
        QCOMPARE(hits.size(), parts);
        const QRectF inside = QRectF(view.rect());
        for (size_t i = 0; i < hits.size(); ++i) {
            QVERIFY2(inside.contains(hits[i].rect), qPrintable(hits[i].part.id));
            for (size_t k = i + 1; k < hits.size(); ++k)
                QVERIFY2(!hits[i].rect.intersects(hits[k].rect), qPrintable(hits[i].part.id + " over " + hits[k].part.id));
        }
        // the panels take the room given, down to kMinScale of their size; the minimum makes the tab scroll
        const QSize natural = view.sizeHint();
        QVERIFY(view.minimumWidth() <= natural.width() * BlockView::kMinScale + 9);
        QVERIFY(view.minimumWidth() >= natural.width() * BlockView::kMinScale);
    }

    // A figure's rows: a column (89 mm) of the four schemes of the paper's comparison took three rows at
    // 8 pt, 305 mm tall (NormFormer's and nGPT's blocks together 1 mm too wide); a little under 8 pt they
    // take two. Never under three quarters of the font asked, nor 6 pt; the height follows the rows.
    void rows() {
        std::vector<BlockPanel> four;
        for (Scheme s : {Scheme::PostLN, Scheme::PreLN, Scheme::NormFormer, Scheme::NGPT}) {
            BlockPanel p;
            p.title = QString::fromStdString(scheme_title(s));
            p.diagram = block_diagram(model_of(s));
            four.push_back(p);
        }
        auto height = [](const BlockRows& r) {
            double h = 0;
            for (auto& row : r.rows) h += blocks_height_mm(row, 89, r.font_pt);
            return h;
        };
        BlockRows r = block_rows(four, 89, 8);
        QCOMPARE(r.rows.size(), size_t(2));
        QVERIFY2(r.font_pt < 8 && r.font_pt >= 6, qPrintable(QString::number(r.font_pt)));
        QCOMPARE(r.smallest_pt, r.font_pt);   // every row fits the width at that font
        const double two_rows = height(r);
        BlockRows at_8{};
        at_8.font_pt = 8;
        at_8.rows = {{four[0], four[1]}, {four[2]}, {four[3]}};   // as they were packed at 8 pt
        QVERIFY2(two_rows < 0.75 * height(at_8), qPrintable(QString("%1 against %2 mm").arg(two_rows).arg(height(at_8))));
        // two that fit side by side keep the font asked for
        r = block_rows({four[0], four[1]}, 89, 8);
        QCOMPARE(r.rows.size(), size_t(1));
        QCOMPARE(r.font_pt, 8.0);
        // too narrow for even one: the font stays within its bounds, and the text on paper says how small it is
        r = block_rows(four, 30, 8);
        QCOMPARE(r.rows.size(), size_t(4));
        QCOMPARE(r.font_pt, 8.0);   // shrinking to 6 pt saves no row: the font asked is kept
        QVERIFY(r.smallest_pt < 6);
        // 6 pt asked: not under it
        r = block_rows(four, 89, 6);
        QVERIFY(r.font_pt == 6.0 && r.rows.size() == 2);
    }

    // The window: the Block tab follows the form; a click on the form's dashed FFN LN switches it on in
    // the form (one step of Undo), a click on it again off; the runs selected are drawn beside it.
    void window() {
        const QString path = dir_.filePath("block.sqlite");
        {
            Store s(path.toStdString());
            RunConfig pre;
            apply_scheme(pre, Scheme::PreLN);
            const int64_t a = s.create_run("Pre-LN", "pre_ln", to_json(pre), 1);
            s.finish_run(a, RunStatus::Finished, 10, "", 3.25);
            RunConfig pre2 = pre;
            pre2.optim.lr = 3e-3;
            const int64_t b = s.create_run("Pre-LN lr=3e-3", "pre_ln", to_json(pre2), 2);
            s.finish_run(b, RunStatus::Finished, 10, "", 3.5);
            RunConfig wide = pre;
            wide.model.d_model = 256;
            const int64_t c = s.create_run("Pre-LN d=256", "pre_ln", to_json(wide), 3);
            s.finish_run(c, RunStatus::Finished, 10, "", 3.0);
        }
        MainWindow w(path);
        QVERIFY(w.switchLanguage("en"));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.designer()->setScheme(Scheme::PreLN);
        w.charts()->tabs()->setCurrentIndex(ChartsView::kBlockTab);
        QCOMPARE(w.charts()->tabs()->tabText(ChartsView::kBlockTab), QString("Block"));
        w.showRuns({1, 2});
        QApplication::processEvents();
        BlockView* view = w.charts()->blockView();
        // the form's, then one panel for both runs: their blocks are alike (they differ by the learning rate)
        QCOMPARE(view->panels().size(), size_t(2));
        QVERIFY(view->panels()[1].title.contains("Pre-LN") && view->panels()[1].title.contains("+ 1 alike"));
        const BlockPart* ffn = view->panels()[0].diagram.find("mlp.ffn_norm");
        QVERIFY(ffn && !ffn->on);
        view->repaint();
        auto centre_of = [view](const QString& id) {
            view->repaint();
            for (int y = 0; y < view->height(); y += 2)
                for (int x = 0; x < view->width(); x += 2)
                    if (const BlockHit* h = view->hitAt(QPointF(x, y)); h && h->panel == 0 && h->part.id == id) return h->rect.center();
            return QPointF(-1, -1);
        };
        const QPointF at = centre_of("mlp.ffn_norm");
        QVERIFY(at.x() >= 0);
        // hovering it says what it is and what a click does
        QHelpEvent help(QEvent::ToolTip, at.toPoint(), view->mapToGlobal(at.toPoint()));
        QApplication::sendEvent(view, &help);
        QVERIFY2(QToolTip::text().contains("Off: model.normformer.ffn_norm (click to switch it on in the form)"), qPrintable(QToolTip::text()));
        auto* box = qobject_cast<QCheckBox*>(w.designer()->field("model.normformer.ffn_norm"));
        QVERIFY(box && !box->isChecked());
        QTest::mouseClick(view, Qt::LeftButton, {}, at.toPoint());
        QVERIFY(box->isChecked());
        QVERIFY(w.designer()->config().model.normformer.ffn_norm);
        QVERIFY(w.statusBar()->currentMessage().contains("switched on"));
        ffn = view->panels()[0].diagram.find("mlp.ffn_norm");
        QVERIFY(ffn && ffn->on);
        // outlined: on in the form, absent from the runs' block
        const auto& differs = view->panels()[0].differs;
        QVERIFY(std::find(differs.begin(), differs.end(), QString("mlp.ffn_norm")) != differs.end());
        QVERIFY(w.designer()->undo());
        QVERIFY(!box->isChecked());
        QVERIFY(!view->panels()[0].diagram.find("mlp.ffn_norm")->on);
        // a run's panel takes no clicks
        const QPointF run_part = [&] {
            view->repaint();
            for (int y = 0; y < view->height(); y += 2)
                for (int x = 0; x < view->width(); x += 2)
                    if (const BlockHit* h = view->hitAt(QPointF(x, y)); h && h->panel == 1 && h->part.id == "final_norm") return h->rect.center();
            return QPointF(-1, -1);
        }();
        QVERIFY(run_part.x() >= 0);
        const bool final_before = w.designer()->config().model.final_norm;
        QTest::mouseClick(view, Qt::LeftButton, {}, run_part.toPoint());
        QCOMPARE(w.designer()->config().model.final_norm, final_before);
        // the tab's CSV: a row per part of each block, as drawn
        const QString csv = dir_.filePath("blocks.csv");
        QString err;
        QVERIFY2(w.charts()->exportCurrent(csv, "csv", 96, false, &err), qPrintable(err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows[0], QString("block,stage,place,part,text,kind,on,outlined,setting"));
        QVERIFY(rows.contains("The form: Pre-LN,mlp,branch,mlp.ffn_norm,LN (FFN),norm,false,false,model.normformer.ffn_norm"));
        QVERIFY(rows.contains("Pre-LN (+ 1 alike),attn,branch,attn.norm_in,LN₁,norm,true,false,"));
        // in German: the parts' words and the key under them
        QVERIFY(w.switchLanguage("de"));
        QApplication::processEvents();
        QCOMPARE(block_part_text(*view->panels()[1].diagram.find("embed")), QString("Einbettung + Positionen"));
        const QString note = static_cast<ElidedLabel*>(w.charts()->findChild<QLabel*>("blockNote"))->fullText();
        QVERIFY2(note.startsWith("Gelb"), qPrintable(note));
        QVERIFY(w.switchLanguage("en"));
        // without the form's: the runs' alone
        w.charts()->findChild<QCheckBox*>("blockForm")->setChecked(false);
        QCOMPARE(view->panels().size(), size_t(1));
        QVERIFY(!view->panels()[0].clickable);
        // a run of another width is drawn with the same parts but says another width: a panel of its own
        w.showRuns({1, 2, 3});
        QApplication::processEvents();
        QCOMPARE(view->panels().size(), size_t(2));
        QVERIFY(view->panels()[0].subtitle.contains("d 128") && view->panels()[0].title.contains("+ 1 alike"));
        QVERIFY2(view->panels()[1].subtitle.contains("d 256"), qPrintable(view->panels()[1].subtitle));
        QVERIFY(view->panels()[1].differs.empty());
    }

    // The diagram against the model: each learned norm and scale a block draws is a parameter of the
    // model trained from that configuration (its exported weights' names, docs/WEIGHTS.md), and each
    // such parameter is drawn — for the presets and for components switched against them.
    void weights() {
        const QString exp_path = dir_.filePath("weights.json");
        const nlohmann::json exp = {
            {"name", "block-weights"},
            {"base", {{"model", {{"d_model", 16}, {"n_layers", 1}, {"n_heads", 2}, {"d_ff", 32}, {"context", 8}}},
                      {"train", {{"steps", 1}, {"batch_size", 2}, {"eval_every", 0}, {"threads", 1}}},
                      {"data", {{"source", "markov"}}}}},
            {"variants",
             {{{"name", "post"}, {"scheme", "post_ln"}},
              {{"name", "pre"}, {"scheme", "pre_ln"}},
              {{"name", "nf"}, {"scheme", "normformer"}, {"model", {{"normformer", {{"res_scale", true}, {"head_scale_placement", "after_out_proj"}}}}}},
              {{"name", "post-ffn"}, {"scheme", "post_ln"}, {"model", {{"normformer", {{"ffn_norm", true}}}, {"final_norm", true}}}},
              {{"name", "ngpt"}, {"scheme", "ngpt"}}}}};
        {
            QFile f(exp_path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(exp.dump()));
        }
        const QString store = dir_.filePath("weights.sqlite");
        QProcess run;
        run.start(NORMLAB_CLI, {"run", exp_path, "--store", store, "--device", "cpu"});
        QVERIFY(run.waitForFinished(120000));
        QVERIFY2(run.exitCode() == 0, run.readAllStandardError().constData());
        Store s(store.toStdString());
        const auto runs = s.runs();
        QCOMPARE(runs.size(), size_t(5));
        for (const RunInfo& r : runs) {
            const QString file = dir_.filePath(QString("w%1.safetensors").arg(r.id));
            QProcess ex;
            ex.start(NORMLAB_CLI, {"export-weights", QString::number(r.id), file, "--store", store});
            QVERIFY(ex.waitForFinished(60000));
            QVERIFY2(ex.exitCode() == 0, ex.readAllStandardError().constData());
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            uint64_t n = 0;
            std::memcpy(&n, bytes.constData(), 8);
            const auto header = nlohmann::json::parse(bytes.mid(8, static_cast<int>(n)).toStdString());
            auto has = [&header](const std::string& name) { return header.contains(name); };
            const BlockDiagram d = block_diagram(run_config_from_json(r.config).model);
            auto drawn = [&d](const char* id) { return d.find(id) != nullptr; };
            const QByteArray what = QByteArray::fromStdString(r.name);
            // parameter ⇔ part (nGPT's norm(x) = x / ‖x‖ has no gain)
            const bool ln = d.layout != Layout::NGPT;
            QVERIFY2(has("blocks.0.norm1.weight") == (ln && (drawn("attn.norm_in") || drawn("attn.norm_after"))), what);
            QVERIFY2(has("blocks.0.norm2.weight") == (ln && (drawn("mlp.norm_in") || drawn("mlp.norm_after"))), what);
            QVERIFY2(has("blocks.0.attn.post_norm.weight") == drawn("attn.post_norm"), what);
            QVERIFY2(has("blocks.0.mlp.ffn_norm.weight") == drawn("mlp.ffn_norm"), what);
            QVERIFY2(has("blocks.0.attn.head_scale") == drawn("attn.head_scale"), what);
            QVERIFY2(has("blocks.0.res_scale") == drawn("mlp.res_scale"), what);
            QVERIFY2(has("final_norm.weight") == drawn("final_norm"), what);
            QVERIFY2(has("blocks.0.alpha_A") == drawn("attn.alpha"), what);
            QVERIFY2(has("blocks.0.alpha_M") == drawn("mlp.alpha"), what);
            QVERIFY2(has("blocks.0.attn.s_qk") == drawn("attn.qk_norm"), what);
            QVERIFY2(has("blocks.0.mlp.s_u") == drawn("mlp.suv"), what);
            QVERIFY2(has("s_z") == block_part_text(d.output.back()).contains("s_{z}"), what);
            QVERIFY2(has("pos_emb") == block_part_text(d.input.front()).contains("positions"), what);
        }
    }

    // normlab figure --view block: a PDF of the runs' blocks at a column's width; a run's name in it.
    void figure() {
        const QString path = dir_.filePath("figure.sqlite");
        {
            Store s(path.toStdString());
            for (Scheme sc : {Scheme::PostLN, Scheme::PreLN, Scheme::NormFormer, Scheme::NGPT}) {
                RunConfig c;
                apply_scheme(c, sc);
                const int64_t id = s.create_run(scheme_title(sc), scheme_name(sc), to_json(c), 1);
                s.finish_run(id, RunStatus::Finished, 10, "", 3.0);
            }
        }
        const QString out = dir_.filePath("blocks.svg");
        QProcess p;
        p.start(NORMLAB_APP, {"figure", "1", "2", "3", "4", "--store", path, "--view", "block", "--out", out});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        // four blocks in a column: two rows, their text a little under the 8 pt asked, and it says so
        const QString said = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(said.contains("89 mm wide, 8 pt (the blocks' text at ") && said.contains(" pt to fit the width)"), qPrintable(said));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(f.readAll());
        QVERIFY(svg.contains("Post-LN") && svg.contains("nGPT"));
        QVERIFY2(svg.contains("<path") && svg.size() > 5000, "a drawing, not an empty page");
    }
};

QTEST_MAIN(TestBlockDiagram)
#include "test_block_diagram.moc"
