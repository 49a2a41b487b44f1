// NormLab widgets: the Gains view of ChartsView: box plots of a learned gain
// per layer at a chosen step, its trajectory and its histogram.
#include "widgets/chartsview.h"

#include "widgets/chart_card.h"
#include "widgets/chart_legend.h"
#include "widgets/figure.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"

#include <QBoxPlotSeries>
#include <QCategoryAxis>
#include <QBoxSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace normlab {

QString ChartsView::boxYTitle(const QString& name) const {
    const QFontMetrics fm(box_chart_->axes(Qt::Vertical).isEmpty() ? font() : box_chart_->axes(Qt::Vertical).front()->titleFont());
    // Qt elides a title a few pixels short of the plot's height: a line's height spare.
    // Neither fits (a laptop's window, in German): none, as the chart's title names the gain.
    auto fits = [&](const QString& t) { return fm.horizontalAdvance(t) + fm.height() <= box_chart_->plotArea().height(); };
    return fits(name) ? name : fits(tr("gain")) ? tr("gain") : QString();
}

QWidget* ChartsView::buildGainsTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    gain_name_ = new QComboBox(w);
    gain_name_->setObjectName("gainName");
    gain_step_ = new QSlider(Qt::Horizontal, w);
    gain_step_->setObjectName("gainStep");
    gain_step_->setRange(0, 0);   // at its end: the first runs shown open at their latest step
    gain_step_label_ = new QLabel(w);
    gain_layer_ = new QSpinBox(w);
    gain_layer_->setObjectName("gainLayer");
    gain_layer_->setRange(0, 0);
    bar->addWidget(trLabel(QT_TR_NOOP("gain"), w));
    bar->addWidget(gain_name_);
    bar->addWidget(trLabel(QT_TR_NOOP("step"), w));
    bar->addWidget(gain_step_, 1);
    bar->addWidget(gain_step_label_);
    bar->addWidget(trLabel(QT_TR_NOOP("histogram of layer"), w));
    bar->addWidget(gain_layer_);
    v->addLayout(bar);
    auto* split = new QSplitter(Qt::Vertical, w);
    panels_.push_back(split);
    box_chart_ = new QChart();
    box_chart_->setMargins(QMargins(4, 4, 4, 4));   // as the line charts: Qt's 20 px cost the plot its labels
    // the gain's name on the y axis where the plot is high enough for it, else shorter (the title names it),
    // and as many labels on it as its height holds
    connect(box_chart_, &QChart::plotAreaChanged, this, [this](const QRectF& area) {
        for (auto* a : box_chart_->axes(Qt::Vertical)) {
            setAxisTitle(a, boxYTitle(box_spec_.y_title));
            if (auto* y = qobject_cast<QCategoryAxis*>(a)) label_value_axis(y, area.height());
        }
    });
    auto* box_pane = new QWidget(split);   // the card inset as a line chart's
    box_view_ = new QChartView(box_chart_, box_pane);
    box_view_->setObjectName("boxChart");
    box_view_->setRenderHint(QPainter::Antialiasing);
    box_card_ = new ChartCard(box_chart_, box_view_, box_pane);
    box_card_->setAutoRows(true);
    auto* box_lay = new QVBoxLayout(box_pane);
    box_lay->setContentsMargins(9, 9, 9, 9);
    box_lay->addWidget(box_card_);
    // a click hides a run's boxes and histogram (or shows them again); a double-click shows only that run, and again all
    auto run_at = [this](int i) { return box_card_->legend()->entries().at(static_cast<size_t>(i)).text; };
    connect(box_card_->legend(), &ChartLegend::clicked, this, [this, run_at](int i) {
        if (!box_hidden_.removeAll(run_at(i))) box_hidden_ << run_at(i);
        redrawGains();
    });
    connect(box_card_->legend(), &ChartLegend::doubleClicked, this, [this, run_at](int i) {
        QStringList others;
        for (const ChartLegend::Entry& e : box_card_->legend()->entries())
            if (e.text != run_at(i)) others << e.text;
        // the others hidden already (whatever the click before the double-click did to this one): all back
        const bool only = std::all_of(others.begin(), others.end(), [this](const QString& o) { return box_hidden_.contains(o); });
        box_hidden_ = only ? QStringList() : others;
        redrawGains();
    });
    hist_ = new LineChart(split);
    hist_->setObjectName("histChart");
    hist_->setSmoothing(0);
    // the box plots first: at a laptop's size they had 165 px and drew every label as "…"
    box_pane->setMinimumHeight(210);
    hist_->setMinimumHeight(170);
    split->addWidget(box_pane);
    split->addWidget(hist_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({500, 300});
    v->addWidget(split, 1);
    connect(gain_name_, qOverload<int>(&QComboBox::activated), this, [this] {
        gain_choice_ = gain_name_->currentData().toString();
        redrawGains();
    });
    connect(gain_step_, &QSlider::valueChanged, this, [this] { redrawGains(); });
    connect(gain_layer_, qOverload<int>(&QSpinBox::valueChanged), this, [this] { redrawGains(); });
    return w;
}

void ChartsView::redrawGains() {
    // names and steps offered
    std::set<std::string> names;
    for (auto& r : runs_)
        for (auto& n : r->distribution_names()) names.insert(n);
    {
        QSignalBlocker b(gain_name_);
        gain_name_->clear();
        for (auto& n : names) gain_name_->addItem(QString::fromStdString(n), QString::fromStdString(n));
        // the user's choice, else a LayerNorm gain (NormFormer Fig. 4 looks at the FFN-LN gains)
        int at = gain_name_->findData(gain_choice_);
        for (const char* pref : {"gain/ffn_norm", "gain/alpha_A", "gain/norm2", "gain/norm1"})
            if (at < 0) at = gain_name_->findData(QString(pref));
        gain_name_->setCurrentIndex(at >= 0 ? at : 0);
    }
    const std::string name = gain_name_->currentData().toString().toStdString();
    std::set<int64_t> step_set;   // every run's steps for this gain
    for (auto& r : runs_)
        for (int64_t st : r->distribution_steps(name)) step_set.insert(st);
    const std::vector<int64_t> steps(step_set.begin(), step_set.end());
    const int64_t step = stepOfSlider(gain_step_, gain_step_label_, steps);

    box_chart_->removeAllSeries();
    for (auto* a : box_chart_->axes()) {
        box_chart_->removeAxis(a);
        delete a;
    }
    // No gains yet: the titles say why instead of "Histogram of , layer 0".
    const QString none = name.empty() ? emptyHint("gain/", tr("learned gains")) : QString();
    box_chart_->setTitle(name.empty() ? none.section('\n', 0, 0) + " " + none.section('\n', 1)
                                      : tr("%1 per layer at step %2").arg(QString::fromStdString(name)).arg(step));
    box_spec_ = BoxSpec{};
    int max_layers = 0;
    double lo = 1e300, hi = -1e300;
    std::vector<Curve> hist;
    hist_bins_.clear();
    std::vector<std::pair<int64_t, size_t>> hist_counts;   // per histogram drawn: its values and bins
    std::vector<ChartLegend::Entry> entries;
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunData& r = *runs_[i];
        // the latest distribution at or before the chosen step, per layer
        std::map<int, const Distribution*> at;
        for (auto& d : r.distributions(name))
            if (d.step <= step) at[d.layer] = &d;
        if (at.empty()) continue;
        ChartLegend::Entry e;
        e.text = runLabel(r);
        e.marker = ChartLegend::Marker::Box;
        e.color = runColor(r).darker(120);
        e.fill = runColor(r).lighter(140);
        e.hidden = box_hidden_.contains(e.text);
        entries.push_back(std::move(e));
        if (entries.back().hidden) continue;   // nor its histogram, nor in an export
        auto* series = new QBoxPlotSeries();
        series->setName(runLabel(r));
        series->setBrush(runColor(r).lighter(140));
        series->setPen(QPen(runColor(r).darker(120), 1.2));
        for (auto& [layer, d] : at) {
            auto* set = new QBoxSet(d->min, d->q1, d->median, d->q3, d->max, layer < 0 ? tr("global") : QString("L%1").arg(layer));
            series->append(set);
            box_spec_.boxes.push_back({runLabel(r), runColor(r), layer, d->min, d->q1, d->median, d->q3, d->max});
            lo = std::min(lo, d->min);
            hi = std::max(hi, d->max);
            max_layers = std::max(max_layers, layer + 1);
            if (layer == gain_layer_->value() || (layer < 0 && at.size() == 1)) {
                Curve c{runLabel(r), runColor(r), {}, {}, Qt::SolidLine, 1.8, false};
                const double w = (d->hist_hi - d->hist_lo) / std::max<size_t>(1, d->hist.size());
                // All values equal (stores written before the probe centred them):
                // shift the bins so that the one bar is centred on the value.
                double shift = 0;
                if (d->min == d->max && d->count > 0) {
                    const double b = std::clamp(std::floor((d->min - d->hist_lo) / w), 0.0, double(d->hist.size()) - 1);
                    shift = d->min - (d->hist_lo + (b + 0.5) * w);
                }
                for (size_t b = 0; b < d->hist.size(); ++b) {   // step-shaped histogram
                    c.x.push_back(d->hist_lo + b * w + shift);
                    c.y.push_back(d->hist[b]);
                    c.x.push_back(d->hist_lo + (b + 1) * w + shift);
                    c.y.push_back(d->hist[b]);
                }
                hist.push_back(std::move(c));
                hist_counts.emplace_back(d->count, d->hist.size());
                hist_bins_.push_back({r.id(), QString::fromStdString(d->name), d->layer, d->step, d->hist_lo + shift, w, d->hist});
            }
        }
        box_chart_->addSeries(series);
    }
    box_card_->legend()->setEntries(std::move(entries));
    box_card_->refresh();
    if (!box_chart_->series().isEmpty()) {
        box_spec_.y_title = QString::fromStdString(name);
        box_chart_->createDefaultAxes();
        // tight to the data; all values equal (gains at initialisation): a small band around them
        const double pad = hi > lo ? 0.05 * (hi - lo) : 0.05 * std::max(1e-3, std::abs(lo));
        // The values' axis labelled as every line chart's and figure's (core/print_ticks.h): one notation,
        // "1.05 1.00 0.95" where Qt's value axis wrote "1.05 1 0.95", and a common factor for tiny gains.
        for (auto* a : box_chart_->axes(Qt::Vertical)) {
            box_chart_->removeAxis(a);
            delete a;
        }
        auto* y = new QCategoryAxis();
        y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        box_chart_->addAxis(y, Qt::AlignLeft);
        for (auto* series : box_chart_->series()) series->attachAxis(y);
        y->setRange(lo - pad, hi + pad);
        label_value_axis(y, box_chart_->plotArea().height());   // and again as the plot's height changes
        setAxisTitle(y, boxYTitle(QString::fromStdString(name)));
        box_spec_.x_title = tr("layer (step %1)").arg(step);
        for (auto* a : box_chart_->axes(Qt::Horizontal)) setAxisTitle(a, box_spec_.x_title);
        box_spec_.title = box_chart_->title();
    }
    {
        QSignalBlocker b(gain_layer_);
        gain_layer_->setRange(0, std::max(0, max_layers - 1));
    }
    hist_->setTitle(name.empty() ? tr("Histogram of a gain")
                                 : tr("Histogram of %1, layer %2, step %3").arg(QString::fromStdString(name)).arg(gain_layer_->value()).arg(step));
    hist_->setEmptyHint(none);
    // under the box plots: the runs they leave out, having no such gain (Pre-LN's beside NormFormer's FFN LN)
    hist_->setNote(noteLacking(kGainsTab, [&](const RunData& r) { return !r.distributions(name).empty(); }));
    hist_->setAxisTitles(tr("value"), tr("count"));
    // The footer counts the gains and the bins: a step's two corners a bin are not data ("64 points" read
    // as 64 values of a layer with 128).
    hist_->setCountCaption(hist_counts.empty() ? std::function<QString()>() : [this, hist_counts] {
        QStringList values, bins;
        for (auto& [count, n] : hist_counts) {
            values << QLocale().toString(static_cast<qlonglong>(count));
            bins << QLocale().toString(static_cast<qulonglong>(n));
        }
        bins.removeDuplicates();
        return tr("%1 values in %2 bins").arg(values.join(" / "), bins.join(" / "));
    });
    hist_->setCurves(std::move(hist), false);
}

}  // namespace normlab
