// NormLab app: the window's "Settings that differ" panel — the settings in
// which the runs shown differ, the scheme first and what their schemes imply
// last, each run's values in its colour; keys and headers fitted to the
// panel's width (the rest of the run browser is mainwindow_runs.cpp). A run's
// colour is darkened or lightened there until it reads as text on the panel.
#include "app/gui/mainwindow.h"

#include "core/settings_differ.h"
#include "widgets/elided_label.h"
#include "widgets/linechart.h"
#include "widgets/runtable.h"
#include "widgets/table_copy.h"

#include <QApplication>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHeaderView>
#include <QPalette>
#include <QTableWidget>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace normlab {

namespace {

double luminance(const QColor& c) {
    auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}

// A run's colour as text on `ground`: moved towards `ink` (the palette's text) until it reads at WCAG's 4.5:1
// for text, keeping its hue as far as that allows. On white, Tableau's yellow, orange, teal and grey (1.6–2.4:1)
// and red (3.7:1) were hard to read; on a dark panel, blue (3.1:1).
QColor readable(const QColor& run, const QColor& ground, const QColor& ink) {
    const double lg = luminance(ground);
    auto contrast = [&](const QColor& c) {
        const double l = luminance(c);
        return (std::max(l, lg) + 0.05) / (std::min(l, lg) + 0.05);
    };
    QColor c = run;
    for (int i = 1; i <= 10 && contrast(c) < 4.5; ++i) {
        const double t = 0.1 * i;
        c = QColor::fromRgbF(run.redF() + (ink.redF() - run.redF()) * t, run.greenF() + (ink.greenF() - run.greenF()) * t,
                             run.blueF() + (ink.blueF() - run.blueF()) * t);
    }
    return c;
}

}  // namespace

void MainWindow::updateDifferences(const std::vector<std::pair<Store*, int64_t>>& ids) {
    diff_refs_ = ids;
    diff_->clear();
    // The hint alone has no keys and no runs: no empty header strip above or beside it.
    diff_->horizontalHeader()->setVisible(ids.size() >= 2);
    diff_->verticalHeader()->setVisible(ids.size() >= 2);
    if (ids.size() < 2) {   // nothing to compare yet: say how
        diff_->setColumnCount(1);
        diff_->setRowCount(1);
        diff_->setHorizontalHeaderLabels({QString()});
        diff_->setVerticalHeaderLabels({QString()});
        auto* hint = new QTableWidgetItem(tr("Select two or more runs (Ctrl+click) to see the settings in which they differ."));
        hint->setFlags(Qt::ItemIsEnabled);
        diff_->setItem(0, 0, hint);
        diff_->setWordWrap(true);
        // The hint wraps within the panel's width (one long line was cut at the panel's edge).
        diff_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
        diff_->setRowHeight(0, 4 * diff_->fontMetrics().lineSpacing());
        return;
    }
    std::vector<nlohmann::json> configs;
    std::vector<QColor> colors;
    QStringList headers;
    for (auto& [src, id] : ids)
        if (auto r = (src ? *src : *store_).run(id)) {
            configs.push_back(r->config);
            const QColor shown = model_->colorAt(model_->rowOf(id, src));   // as the charts draw it
            colors.push_back(shown.isValid() ? shown : run_color(*r));
            QString head = QString("#%1 %2").arg(id).arg(QString::fromStdString(r->name));
            if (src) head += QString(" (%1)").arg(QFileInfo(QString::fromStdString(src->path())).fileName());
            headers << head;
        }
    // The scheme first, then what the runs chose, then what their schemes imply: last, their names grey.
    const DifferingSettings differ = differing_settings(configs);
    const std::vector<std::string>& keys = differ.keys;
    const auto implied = [&](size_t k) { return k >= differ.implied_from; };
    diff_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    diff_->setColumnCount(static_cast<int>(configs.size()));
    diff_->setRowCount(static_cast<int>(keys.size()));
    // a row a line high: the hint's (four lines, to wrap) stayed with the row that took its place, the scheme's
    diff_->setWordWrap(false);
    for (int k = 0; k < diff_->rowCount(); ++k) diff_->setRowHeight(k, diff_->verticalHeader()->defaultSectionSize());
    diff_->setHorizontalHeaderLabels(headers);
    QStringList rows;
    for (size_t k = 0; k < keys.size(); ++k) {
        rows << QString::fromStdString(keys[k]);
        for (size_t c = 0; c < configs.size(); ++c) {
            // a number to six significant digits, the value as stored in its tooltip where that is longer;
            // "—" where the run has none (trained by a version that did not record the setting)
            const auto leaf = differ.leaves[c].find(keys[k]);
            const nlohmann::json* v = leaf != differ.leaves[c].end() ? &leaf->second : nullptr;
            const QString text = QString::fromStdString(setting_text(v));
            const QString stored = v ? QString::fromStdString(v->is_string() ? v->get<std::string>() : v->dump()) : text;
            auto* item = new QTableWidgetItem(text);
            if (text != stored) {
                item->setToolTip(tr("As stored: %1").arg(stored));
                item->setData(kCopyRole, stored);   // Ctrl+C copies the value whole
            }
            // the application's palette: during a theme switch the panel's own may not have followed yet
            const QPalette pal = QApplication::palette(diff_);
            item->setForeground(readable(colors[c], pal.color(QPalette::Base), pal.color(QPalette::Text)));
            diff_->setItem(static_cast<int>(k), static_cast<int>(c), item);
        }
    }
    diff_->resizeColumnsToContents();
    fitDifferenceHeaders(headers);
    for (int k = 0; k < rows.size(); ++k) {
        auto* h = new QTableWidgetItem();
        h->setData(Qt::UserRole, rows[k]);   // the whole key, for elideDifferenceKeys
        h->setData(kCopyRole, rows[k]);      // and for Ctrl+C
        h->setToolTip(rows[k]);
        if (implied(static_cast<size_t>(k))) {
            const QPalette pal = QApplication::palette(this);   // during a theme switch, the new one already
            const QColor text = pal.color(QPalette::WindowText), back = pal.color(QPalette::Window);
            h->setForeground(QColor::fromRgbF(0.5f * (text.redF() + back.redF()), 0.5f * (text.greenF() + back.greenF()),
                                              0.5f * (text.blueF() + back.blueF())));   // grey, still readable (disabled text was not)
            h->setToolTip(tr("%1: each run has its scheme's value").arg(rows[k]));
        }
        diff_->setVerticalHeaderItem(k, h);
    }
    elideDifferenceKeys();
}

namespace {
// How a key shortened to a laptop's panel writes its groups: by their first letter ("o.s.min_lr_ratio"),
// except the groups that share one (normformer and ngpt, deepnorm and data), which keep short names of
// their own: "nf.head_scale" beside "ngpt.qk_norm", where both read "n.…" as if of one group.
QString short_group(const QString& group) {
    static const std::map<QString, QString> names = {
        {"normformer", "nf"}, {"ngpt", "ngpt"}, {"deepnorm", "dn"}, {"branchnorm", "bn"}, {"data", "data"}};
    const auto it = names.find(group);
    return it != names.end() ? it->second : group.left(1);
}
}  // namespace

// Keys that fit beside the values: without "model.", shortened keeping their last part to the room the
// panel leaves them (90 px at least), the full key as tooltip; again whenever the panel is resized, so a
// widened panel shows "normformer.post_attn_norm" whole (the keys were cut once, to 160 px at most).
void MainWindow::elideDifferenceKeys() {
    if (diff_refs_.size() < 2) return;   // the hint
    const QFontMetrics fm(diff_->verticalHeader()->font());
    int values = 0;
    for (int c = 0; c < diff_->columnCount(); ++c) values += diff_->columnWidth(c);
    const int room = diff_->width() - 2 * diff_->frameWidth() - values - 3 * fm.averageCharWidth();
    const int key_width = std::max(room, 90);
    std::vector<std::pair<QTableWidgetItem*, QString>> rows;   // each key's item, and the key as shown
    std::set<QString> cut;                                      // the groups shortened in some key
    for (int k = 0; k < diff_->rowCount(); ++k) {
        QTableWidgetItem* h = diff_->verticalHeaderItem(k);
        if (!h) continue;
        QString key = h->data(Qt::UserRole).toString();
        if (key.startsWith("model.")) key = key.mid(6);
        const QString group = key.section('.', 0, 0);
        rows.emplace_back(h, elide_dotted(fm, key, key_width, short_group));
        if (key.contains('.') && !rows.back().second.startsWith(group + ".")) cut.insert(group);
    }
    // one group written one way in the column: "nf.ffn_norm" beside "nf.head_scale", not "normformer.ffn_norm"
    for (auto& [h, shown] : rows) {
        const QString group = shown.section('.', 0, 0);
        if (shown.contains('.') && cut.count(group)) shown = short_group(group) + shown.mid(group.size());
        if (h->text() != shown) h->setText(shown);
    }
}

// Where the runs' columns do not fit beside the keys (eight runs in a laptop's panel showed two), each
// run's header wraps at its spaces ("#9 Post-LN" over "seed=1"), its column no wider than its widest value
// or word needs.
void MainWindow::fitDifferenceHeaders(const QStringList& headers) {
    const QFontMetrics hm(diff_->horizontalHeader()->font()), vm(diff_->font());
    int values = 0;
    for (int c = 0; c < diff_->columnCount(); ++c) values += diff_->columnWidth(c);
    if (values + 90 + 2 * diff_->frameWidth() <= diff_->width()) return;
    QStringList wrapped;
    for (int c = 0; c < headers.size(); ++c) {
        const QStringList words = headers[c].split(' ', Qt::SkipEmptyParts);
        int width = 0;
        for (int r = 0; r < diff_->rowCount(); ++r)
            if (auto* item = diff_->item(r, c)) width = std::max(width, vm.horizontalAdvance(item->text()));
        for (const QString& word : words) width = std::max(width, hm.horizontalAdvance(word));
        QStringList lines;
        for (const QString& word : words) {
            if (!lines.isEmpty() && hm.horizontalAdvance(lines.back() + ' ' + word) <= width) lines.back() += ' ' + word;
            else lines << word;
        }
        wrapped << lines.join('\n');
    }
    diff_->setHorizontalHeaderLabels(wrapped);
    for (int c = 0; c < headers.size(); ++c) diff_->horizontalHeaderItem(c)->setToolTip(headers[c]);
    diff_->resizeColumnsToContents();
}

}  // namespace normlab
