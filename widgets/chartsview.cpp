// NormLab widgets: ChartsView (see chartsview.h).
#include "widgets/chartsview.h"

#include "widgets/blockview.h"
#include "widgets/figure.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"
#include "widgets/math_text.h"
#include "widgets/sweep.h"

#include <QCheckBox>
#include <QChartView>
#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QFileInfo>
#include <QEvent>
#include <QSignalBlocker>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

namespace normlab {

QString ChartsView::runLabel(const RunData& r) const {
    const QString name = QString::fromStdString(r.info().name);
    for (auto& o : runs_)
        if (o && o.get() != &r && o->info().name == r.info().name) {
            // a run of a compared store says which store it comes from
            if (r.source()) return QString("%1 (#%2, %3)").arg(name).arg(r.id()).arg(QFileInfo(QString::fromStdString(r.source()->path())).fileName());
            return QString("%1 (#%2)").arg(name).arg(r.id());
        }
    return name;
}

QColor ChartsView::layerColor(const QColor& run, int layer, int layers, bool by_layer, bool dark) {
    const double t = layers > 1 ? double(layer) / (layers - 1) : 0.0;
    // The first layer, whose gradients vanish under Post-LN, stands out most on either ground.
    if (by_layer) return viridis(dark ? 1.0 - 0.62 * t : 0.9 * t);
    const QColor base = run.toHsv();
    if (dark) {
        // One hue per run, from a pale tint (first layer) to the hue at 65 % of its value (last): on Qt
        // Charts' dark plot every layer of the ten run colours keeps a contrast of 2.1:1 or more (the light
        // ramp's least is 1.3:1 on white), the dark-to-light ramp's first layers sank to 1.1:1.
        const QColor c = QColor::fromHsvF(base.hsvHueF(), base.hsvSaturationF(), 1.0 - 0.35 * t);
        const double w = 0.45 * (1.0 - t);   // towards white
        return QColor::fromRgbF(c.redF() + (1 - c.redF()) * w, c.greenF() + (1 - c.greenF()) * w, c.blueF() + (1 - c.blueF()) * w);
    }
    // One hue per run, from dark (first layer) to bright (last); never so light
    // that a curve disappears into the white background.
    const int sat = static_cast<int>(base.hsvSaturation() * (1.0 - 0.3 * t) + 40 * t);
    return QColor::fromHsv(base.hsvHue(), std::min(255, sat), static_cast<int>(255 * (0.38 + 0.57 * t)));
}

void ChartsView::setDark(bool dark) {
    dark_ = dark;
    // A dark window's charts lie on its flat ground, as the heatmaps and the Sweep do (palette Base):
    // Qt Charts' dark theme paints a blue-grey gradient of its own. Under a light palette, a dark theme
    // (a test's) keeps its own ground, which its light lines are drawn for. The application's palette: a
    // widget's own follows it only when the change's events have been delivered, after this call.
    const QColor base = QApplication::palette(this).color(QPalette::Base);
    for (auto* view : findChildren<QChartView*>()) {
        view->chart()->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        if (dark && base.lightness() < 128) view->chart()->setBackgroundBrush(base);
    }
    block_->setDark(dark);
    redrawAll();   // a theme resets the series' colours: the curves again, with their runs' colours
}

namespace {
// A view's page in a scroll area: what it needs beyond the room the window
// gives scrolls, instead of growing the window (issue 24 item 7: Gradients
// with 4 runs grew it 240 px, off a laptop's screen).
QWidget* scrolled(QWidget* page) {
    auto* area = new QScrollArea();
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}
}  // namespace

ChartsView::ChartsView(QWidget* parent) : QWidget(parent) {
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName("chartTabs");
    tabs_->addTab(scrolled(buildLossTab()), QString());
    tabs_->addTab(scrolled(buildGradTab()), QString());
    tabs_->addTab(scrolled(buildGainsTab()), QString());
    tabs_->addTab(scrolled(buildLayersTab()), QString());
    tabs_->addTab(scrolled(buildScalarsTab()), QString());
    tabs_->addTab(scrolled(buildSweepTab()), QString());
    tabs_->addTab(scrolled(buildBlockTab()), QString());
    tabs_->widget(kGradTab)->installEventFilter(this);   // the heatmaps' columns follow the room
    // Runs that differ only by seed: one line with a band, on every line chart.
    group_ = new QComboBox(this);
    group_->setObjectName("groupRuns");
    addTrItem(group_, QT_TR_NOOP("each run its own line"), 0);
    addTrItem(group_, QT_TR_NOOP("runs differing only by seed: mean ± std"), 1);
    addTrItem(group_, QT_TR_NOOP("runs differing only by seed: mean, min–max"), 2);
    setTrToolTip(group_, QT_TR_NOOP("Runs whose settings are equal but for the seed are drawn as one line, their mean, "
                                    "with a shaded band; a run alone in its group keeps its own line."));
    auto* group_bar = new QHBoxLayout();
    group_bar->setContentsMargins(4, 2, 4, 0);
    group_bar->addWidget(trLabel(QT_TR_NOOP("Group runs"), this));
    group_bar->addWidget(group_);
    group_bar->addStretch(1);
    connect(group_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        stale_.assign(stale_.size(), true);
        redrawTab(tabs_->currentIndex());
    });
    retranslate();
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addLayout(group_bar);
    lay->addWidget(tabs_);
    stale_.assign(static_cast<size_t>(tabs_->count()), true);
    lacking_.resize(static_cast<size_t>(tabs_->count()));
    connect(tabs_, &QTabWidget::currentChanged, this, &ChartsView::redrawTab);
}

// ---- translated text: every label, check box, combo item and tooltip made
// through these keeps its source text, so a language switch retranslates it.
namespace {
constexpr int kSourceRole = Qt::UserRole + 7;
}

QLabel* ChartsView::trLabel(const char* source, QWidget* parent) {
    auto* l = new QLabel(tr(source), parent);
    l->setProperty("trSource", QByteArray(source));
    return l;
}

QCheckBox* ChartsView::trCheckBox(const char* source, QWidget* parent) {
    auto* c = new QCheckBox(tr(source), parent);
    c->setProperty("trSource", QByteArray(source));
    return c;
}

void ChartsView::addTrItem(QComboBox* combo, const char* source, const QVariant& data) {
    combo->addItem(math_text::plain(tr(source)), data);   // a title's scripts as Unicode's letters
    combo->setItemData(combo->count() - 1, QByteArray(source), kSourceRole);
}

QString ChartsView::markedText(const QComboBox* combo) const {
    const QByteArray s = combo->currentData(kSourceRole).toByteArray();
    return s.isEmpty() ? combo->currentText() : tr(s.constData());
}

void ChartsView::setTrToolTip(QWidget* w, const char* source) {
    w->setToolTip(tr(source));
    w->setProperty("trTip", QByteArray(source));
}

void ChartsView::retranslate() {
    static const char* const kTabs[] = {QT_TR_NOOP("Loss"), QT_TR_NOOP("Gradients"), QT_TR_NOOP("Gains"),
                                        QT_TR_NOOP("Layers"), QT_TR_NOOP("Scalars"), QT_TR_NOOP("Sweep"),
                                        QT_TR_NOOP("Block")};
    for (int i = 0; i < tabs_->count() && i < static_cast<int>(std::size(kTabs)); ++i) tabs_->setTabText(i, tr(kTabs[i]));
    for (auto* w : findChildren<QWidget*>()) {
        if (const QByteArray s = w->property("trSource").toByteArray(); !s.isEmpty()) {
            if (auto* l = qobject_cast<QLabel*>(w)) l->setText(tr(s.constData()));
            else if (auto* c = qobject_cast<QCheckBox*>(w)) c->setText(tr(s.constData()));
        }
        if (const QByteArray s = w->property("trTip").toByteArray(); !s.isEmpty()) w->setToolTip(tr(s.constData()));
    }
    for (auto* combo : findChildren<QComboBox*>()) {
        const QSignalBlocker block(combo);
        for (int i = 0; i < combo->count(); ++i)
            if (const QByteArray s = combo->itemData(i, kSourceRole).toByteArray(); !s.isEmpty())
                combo->setItemText(i, math_text::plain(tr(s.constData())));
    }
    loss_->setTitle(tr("Loss"));
    lr_->setTitle(tr("Learning rate"));
}

void ChartsView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) {
        retranslate();
        block_key_.clear();   // the blocks' labels are translated when drawn
        redrawAll();   // titles, axis titles and legends are made when drawn
    }
    QWidget::changeEvent(e);
}

QWidget* ChartsView::buildLossTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    xunit_ = new QComboBox(w);
    xunit_->setObjectName("xUnit");
    addTrItem(xunit_, QT_TR_NOOP("step"));
    addTrItem(xunit_, QT_TR_NOOP("tokens"));
    addTrItem(xunit_, QT_TR_NOOP("wall time (s)"));
    log_ = trCheckBox(QT_TR_NOOP("log y"), w);
    log_->setObjectName("logY");
    setTrToolTip(log_, QT_TR_NOOP("Logarithmic loss axis (Ctrl+L)"));
    smooth_ = new QSlider(Qt::Horizontal, w);
    smooth_->setObjectName("smoothing");
    smooth_->setRange(0, 99);
    smooth_->setValue(60);
    setTrToolTip(smooth_, QT_TR_NOOP("Debiased exponential moving average along the x axis, over the full data: every run is smoothed alike, however many points it has; the raw curve stays faint beneath"));
    smooth_label_ = new QLabel(w);
    bar->addWidget(trLabel(QT_TR_NOOP("x:"), w));
    bar->addWidget(xunit_);
    bar->addSpacing(12);
    bar->addWidget(log_);
    loss_logx_ = trCheckBox(QT_TR_NOOP("log x"), w);
    loss_logx_->setObjectName("lossLogX");
    setTrToolTip(loss_logx_, QT_TR_NOOP("Logarithmic x axis for the loss and learning rate; step 0 is left out"));
    bar->addWidget(loss_logx_);
    bar->addSpacing(12);
    bar->addWidget(trLabel(QT_TR_NOOP("smoothing"), w));
    bar->addWidget(smooth_, 1);
    bar->addWidget(smooth_label_);
    v->addLayout(bar);
    auto* split = new QSplitter(Qt::Vertical, w);
    panels_.push_back(split);
    loss_ = new LineChart(split);
    loss_->setObjectName("lossChart");

    lr_ = new LineChart(split);
    lr_->setObjectName("lrChart");

    lr_->setMinimumHeight(170);   // the schedule needs less room than the loss: it gives way first
    split->addWidget(loss_);
    split->addWidget(lr_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({600, 260});
    v->addWidget(split, 1);
    connect(xunit_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        redrawLoss();
        stale_[kScalarsTab] = true;   // the scalars tab shares the x unit
    });
    connect(log_, &QCheckBox::toggled, this, [this](bool on) { loss_->setLogY(on); });
    LineChart::linkX(loss_, lr_);   // one step axis: zoomed together, the plots in line
    connect(loss_logx_, &QCheckBox::toggled, this, [this](bool on) {
        loss_->setLogX(on);
        lr_->setLogX(on);
    });
    connect(smooth_, &QSlider::valueChanged, this, [this](int s) {
        loss_->setSmoothing(s / 100.0);
        smooth_label_->setText(QString::number(s / 100.0, 'f', 2));
    });
    loss_->setSmoothing(0.6);
    smooth_label_->setText("0.60");
    return w;
}

QWidget* ChartsView::buildScalarsTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    scalar_series_ = new QComboBox(w);
    scalar_series_->setObjectName("scalarSeries");
    const std::pair<const char*, const char*> items[] = {
        {"train/grad_norm", QT_TRANSLATE_NOOP("normlab::ChartsView", "Global gradient norm (before clipping)")},
        {"train/tokens_per_s", QT_TRANSLATE_NOOP("normlab::ChartsView", "Tokens per second")},
        {"train/mfu", QT_TRANSLATE_NOOP("normlab::ChartsView", "Model-FLOPs utilisation (MFU)")},
        {"branchnorm/alpha", QT_TRANSLATE_NOOP("normlab::ChartsView", "BranchNorm α_{t}")},
        {"deepnorm/alpha", QT_TRANSLATE_NOOP("normlab::ChartsView", "DeepNorm α")},
        {"train/lr", QT_TRANSLATE_NOOP("normlab::ChartsView", "Learning rate")}};
    for (auto& [name, label] : items) addTrItem(scalar_series_, label, QString(name));
    // A log axis, for the gradient norm whose one spike of 124 flattens the rest.
    scalar_log_ = trCheckBox(QT_TR_NOOP("log y"), w);
    scalar_log_->setObjectName("scalarLog");
    bar->addWidget(trLabel(QT_TR_NOOP("series"), w));
    bar->addWidget(scalar_series_, 1);
    bar->addWidget(scalar_log_);
    scalar_logx_ = trCheckBox(QT_TR_NOOP("log x"), w);
    scalar_logx_->setObjectName("scalarLogX");
    bar->addWidget(scalar_logx_);
    v->addLayout(bar);
    scalar_chart_ = new LineChart(w);
    scalar_chart_->setObjectName("scalarChart");
    scalar_chart_->setSmoothing(0);
    panels_.push_back(scalar_chart_);
    v->addWidget(scalar_chart_, 1);
    connect(scalar_series_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redrawScalars(); });
    connect(scalar_log_, &QCheckBox::toggled, this, [this](bool on) { scalar_chart_->setLogY(on); });
    connect(scalar_logx_, &QCheckBox::toggled, this, [this](bool on) { scalar_chart_->setLogX(on); });
    return w;
}

void ChartsView::setColorSource(std::function<QColor(const RunData&)> color_of) {
    color_of_ = std::move(color_of);
    redrawAll();
}

QColor ChartsView::runColor(const RunData& r) const {
    if (color_of_)
        if (const QColor c = color_of_(r); c.isValid()) return c;
    return run_color(r.info());
}

RunData::XUnit ChartsView::xUnit() const {
    switch (xunit_->currentIndex()) {
        case 1: return RunData::XUnit::Tokens;
        case 2: return RunData::XUnit::WallSeconds;
        default: return RunData::XUnit::Step;
    }
}

QString ChartsView::xTitle() const { return xunit_->currentText(); }

// A probe's name without its parenthesis, for a y axis too low for all of it
// ("Global gradient norm" rather than "Global gradient n…(before clipping)";
// the chart's title keeps the whole).
QString ChartsView::shortTitle(const QString& name) {
    const int at = name.indexOf(" (");
    return at > 0 ? name.left(at) : QString();
}

void ChartsView::redrawLoss() {
    std::vector<Curve> loss, lr;
    std::vector<size_t> loss_owner, lr_owner;
    std::vector<std::pair<double, QString>> floors;
    const auto unit = xUnit();
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunData& r = *runs_[i];
        auto xs = [&](const SeriesData& s) {
            std::vector<double> x(s.steps.size());
            for (size_t k = 0; k < x.size(); ++k) x[k] = r.x_of(static_cast<int64_t>(s.steps[k]), unit);
            return x;
        };
        if (auto* s = r.series("train/loss")) {
            loss.push_back({runLabel(r) + tr(" train"), runColor(r), xs(*s), s->values});
            loss.back().run = runLabel(r);
            loss.back().part = tr("train");
            loss_owner.push_back(i);
        }
        if (auto* s = r.series("val/loss")) {
            Curve c{runLabel(r) + tr(" val"), runColor(r), xs(*s), s->values, Qt::DashLine, 1.6, false, true};
            c.run = runLabel(r);
            c.part = tr("validation");
            loss.push_back(c);
            loss_owner.push_back(i);
        }
        if (auto* s = r.series("train/lr")) {
            lr.push_back({runLabel(r), runColor(r), xs(*s), s->values, Qt::SolidLine, 1.6, false});
            lr.back().run = runLabel(r);
            lr_owner.push_back(i);
        }
        if (auto f = r.loss_floor(); f && floors.empty()) floors.push_back({*f, tr("loss floor (entropy rate)")});
    }
    // Byte frequencies alone: drawn where every run shown that records it trained on the same data.
    std::optional<double> unigram;
    bool same = true;
    for (auto& r : runs_)
        if (auto u = r->unigram_loss()) {
            same = same && (!unigram || std::abs(*unigram - *u) < 1e-9);
            unigram = u;
        }
    if (unigram && same) floors.push_back({*unigram, tr("unigram (byte frequencies)")});
    loss_->setAxisTitles(xTitle(), tr("loss (nats/byte)"), tr("loss"));
    lr_->setAxisTitles(xTitle(), tr("learning rate"), tr("lr"));
    loss_->setHLines(floors);
    loss_->setEmptyHint(emptyHint("train/loss", tr("a loss")));
    lr_->setEmptyHint(emptyHint("train/lr", tr("a learning rate")));
    loss_->setNote(noteLacking(kLossTab, [](const RunData& r) { return r.series("train/loss") != nullptr; }));
    // one step range for both: the learning rate's last record is often a step short of the loss's
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0;
    for (auto* curves : {&loss, &lr})
        for (auto& c : *curves)
            if (!c.x.empty()) x0 = std::min(x0, c.x.front()), x1 = std::max(x1, c.x.back());   // sorted by step
    loss_->setXExtent(x0, x1);
    lr_->setXExtent(x0, x1);
    loss_->setCurves(grouped(std::move(loss), loss_owner));
    lr_->setCurves(grouped(std::move(lr), lr_owner));
}

void ChartsView::redrawScalars() {
    const std::string name = scalar_series_->currentData().toString().toStdString();
    std::vector<Curve> curves;
    std::vector<size_t> owner;
    for (size_t i = 0; i < runs_.size(); ++i)
        if (auto* s = runs_[i]->series(name)) {
            std::vector<double> x(s->steps.size());
            for (size_t k = 0; k < x.size(); ++k) x[k] = runs_[i]->x_of(static_cast<int64_t>(s->steps[k]), xUnit());
            curves.push_back({runLabel(*runs_[i]), runColor(*runs_[i]), std::move(x), s->values, Qt::SolidLine, 1.6, false});
            owner.push_back(i);
        }
    const QString title = markedText(scalar_series_);
    scalar_chart_->setTitle(title);
    scalar_chart_->setAxisTitles(xTitle(), title, shortTitle(title));
    scalar_chart_->setEmptyHint(emptyHint(name, scalar_series_->currentText()));
    scalar_chart_->setNote(noteLacking(kScalarsTab, [&](const RunData& r) { return r.series(name) != nullptr; }));
    scalar_chart_->setCurves(grouped(std::move(curves), owner));
}

void ChartsView::setLogY(bool on) { log_->setChecked(on); }
void ChartsView::setGrouping(int mode) { group_->setCurrentIndex(std::clamp(mode, 0, group_->count() - 1)); }

bool ChartsView::logY() const { return log_->isChecked(); }
void ChartsView::setSmoothing(double s) { smooth_->setValue(static_cast<int>(std::round(s * 100))); }
double ChartsView::smoothing() const { return smooth_->value() / 100.0; }

}  // namespace normlab
