// NormLab widgets: Heatmap (see heatmap.h).
#include "widgets/heatmap.h"


#include "core/axis_ticks.h"
#include "core/print_ticks.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace normlab {

namespace {
// The plot's margins in the widget: layer labels left, the colour bar right, the title above, steps below;
// without the layer axis or the colour bar (a row's inner heatmaps on one scale), a gap.
constexpr int kLeft = 56, kRight = 86, kTop = 26, kBottom = 40;
constexpr int kBareLeft = 6, kBareRight = 12;
}  // namespace

QColor viridis(double t) {
    static const int v[][3] = {{68, 1, 84}, {72, 40, 120}, {62, 73, 137}, {49, 104, 142}, {38, 130, 142},
                               {31, 158, 137}, {53, 183, 121}, {110, 206, 88}, {181, 222, 43}, {253, 231, 37}};
    t = std::clamp(t, 0.0, 1.0) * 9;
    const int i = std::min(8, static_cast<int>(t));
    const double f = t - i;
    return QColor(int(v[i][0] + f * (v[i + 1][0] - v[i][0])), int(v[i][1] + f * (v[i + 1][1] - v[i][1])),
                  int(v[i][2] + f * (v[i + 1][2] - v[i][2])));
}

// 140 px high: two runs' heatmaps beside the line chart on a laptop's Gradients tab; the plot keeps 74 px.
Heatmap::Heatmap(QWidget* parent) : QWidget(parent) {
    setMinimumSize(frameWidth(true, true) + kMinCells, 140);
    setMouseTracking(true);   // the hovered cell outlined without a button held
}

int Heatmap::frameWidth(bool layer_axis, bool colour_bar) {
    return (layer_axis ? kLeft : kBareLeft) + (colour_bar ? kRight : kBareRight);
}

void Heatmap::setFrame(bool layer_axis, bool colour_bar) {
    if (layer_axis == layer_axis_ && colour_bar == colour_bar_) return;
    layer_axis_ = layer_axis;
    colour_bar_ = colour_bar;
    setMinimumWidth(frameWidth(layer_axis, colour_bar) + kMinCells);
    update();
}

void Heatmap::setTitle(const QString& t, const QString& short_title) {
    title_ = t;
    short_title_ = short_title;
    update();
}

// Where the colour bar has a common factor (×10⁻⁵) above it, the title ends before it.
QRect Heatmap::titleBox(const QRect& r) const {
    const int right = !image_.isNull() && colour_bar_ && !colourBarTicks().factor.empty() ? plotRect(r).right() + 10 : r.right() - 4;
    return QRect(r.left() + 4, r.top() + 2, right - r.left() - 4, kTop - 4);
}

// The whole title where it fits, else the short one (the run's name); narrower still (small multiples in a
// laptop's window), smaller fonts, and then the name elided in its middle, so that its end — "seed=2"
// — still tells runs of one scheme apart. The tooltip has the whole title.
QString Heatmap::titleFor(int width, QFont* font) const {
    QFont big = labelFont();
    big.setBold(true);
    big.setPointSizeF(10.5);
    QFont bold = big, small = big;
    bold.setPointSizeF(9);
    small.setPointSizeF(9);
    small.setBold(false);
    const QString& name = short_title_.isEmpty() ? title_ : short_title_;
    for (const QFont& f : {big, bold, small})
        for (const QString* t : {&title_, &name}) {
            if (QFontMetrics(f).horizontalAdvance(*t) > width) continue;
            *font = f;
            return *t;
        }
    *font = small;
    return QFontMetrics(small).elidedText(name, Qt::ElideMiddle, width);
}

QString Heatmap::titleShown() const {
    QFont f;
    return titleFor(titleBox(rect()).width(), &f);
}

void Heatmap::setLogScale(bool on) {
    log_ = on;
    rebuildImage();
    update();
}

void Heatmap::setData(std::vector<double> steps, std::vector<std::vector<double>> rows) {
    steps_ = std::move(steps);
    rows_ = std::move(rows);
    rebuildImage();
    update();
}

void Heatmap::setRange(double lo, double hi) {
    fixed_lo_ = lo;
    fixed_hi_ = hi;
    rebuildImage();
    update();
}

void Heatmap::rebuildImage() {
    const int W = static_cast<int>(steps_.size()), H = static_cast<int>(rows_.size());
    lo_ = std::numeric_limits<double>::infinity();
    hi_ = -lo_;
    for (auto& r : rows_)
        for (double v : r)
            if (std::isfinite(v) && (!log_ || v > 0)) lo_ = std::min(lo_, v), hi_ = std::max(hi_, v);
    if (!std::isfinite(lo_)) lo_ = 0, hi_ = 1;
    data_lo_ = lo_, data_hi_ = hi_;
    if (std::isfinite(fixed_lo_) && std::isfinite(fixed_hi_) && (!log_ || fixed_lo_ > 0)) lo_ = fixed_lo_, hi_ = fixed_hi_;
    if (W == 0 || H == 0) {
        image_ = QImage();
        return;
    }
    image_ = QImage(W, H, QImage::Format_RGB32);
    const double a = log_ ? std::log10(lo_) : lo_, b = log_ ? std::log10(hi_) : hi_;
    for (int l = 0; l < H; ++l) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(H - 1 - l));   // layer 0 at the bottom
        for (int s = 0; s < W; ++s) {
            const double v = s < static_cast<int>(rows_[l].size()) ? rows_[l][s] : std::nan("");
            if (!std::isfinite(v) || (log_ && v <= 0)) {
                line[s] = qRgb(150, 150, 150);
                continue;
            }
            const double x = log_ ? std::log10(v) : v;
            line[s] = viridis(b > a ? std::clamp((x - a) / (b - a), 0.0, 1.0) : 0.5).rgb();
        }
    }
}

// Ticks at 1-2-5 steps (as on every line chart), each at its cell's place under
// `plot`: (x, label); as many as the plot's width holds a space apart (a narrow
// heatmap beside three others: "0 100", not "0 50 100150").
std::vector<std::pair<double, QString>> Heatmap::xTicks(const QRect& plot, const QFontMetrics& fm) const {
    std::vector<std::pair<double, QString>> out;
    const int W = static_cast<int>(steps_.size());
    for (int target = 6; target >= 2; --target) {
        out = xTicksAbout(target);
        double prev_right = -1e9;
        bool fits = true;
        for (auto& [x, label] : out) {
            x = plot.left() + (x + 0.5) * plot.width() / W;   // the cell's index → its centre
            const double half = fm.horizontalAdvance(label) / 2.0;
            fits = fits && x - half >= prev_right + fm.horizontalAdvance(' ');
            prev_right = x + half;
        }
        if (fits) break;
    }
    return out;
}

std::vector<std::pair<double, QString>> Heatmap::xTicksAbout(int target) const {
    std::vector<std::pair<double, QString>> out;
    const int W = static_cast<int>(steps_.size());
    if (W == 0) return out;
    const std::vector<double> ticks = W > 1 ? nice_ticks(steps_.front(), steps_.back(), target, true) : steps_;
    const std::vector<std::string> labels = label_ticks(ticks, false, true).labels;   // steps: 200k, not 200000
    for (size_t k = 0; k < ticks.size(); ++k) {
        double col = 0;
        if (W > 1) {
            const auto it = std::lower_bound(steps_.begin(), steps_.end(), ticks[k]);
            const size_t j = static_cast<size_t>(std::clamp<std::ptrdiff_t>(it - steps_.begin(), 1, W - 1));
            const double a = steps_[j - 1], b = steps_[j];
            col = static_cast<double>(j - 1) + (b > a ? (ticks[k] - a) / (b - a) : 0.0);
            if (col < -1e-9 || col > W - 1 + 1e-9) continue;
        }
        out.emplace_back(col, QString::fromStdString(labels[k]));
    }
    return out;
}

std::vector<QRectF> Heatmap::xTickLabelRects() const {
    std::vector<QRectF> out;
    const QRect plot = cellArea();
    const QFontMetrics fm(labelFont());
    for (auto& [x, label] : xTicks(plot, fm)) {
        const double w = fm.horizontalAdvance(label);
        out.emplace_back(x - w / 2, plot.bottom() + 5, w, fm.height());
    }
    return out;
}

QStringList Heatmap::xTickLabels() const {
    QStringList l;
    for (auto& t : xTicks(cellArea(), QFontMetrics(labelFont()))) l << t.second;
    return l;
}

void Heatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    render(p, rect());
    // the cell the readout names, outlined (on screen only: not in an export)
    const int W = static_cast<int>(steps_.size()), H = static_cast<int>(rows_.size());
    if (hover_.first >= 0 && hover_.first < W && hover_.second >= 0 && hover_.second < H) {
        const QRect plot = plotRect(rect());
        const double cw = double(plot.width()) / W, ch = double(plot.height()) / H;
        const QRectF cell(plot.left() + hover_.first * cw, plot.bottom() + 1 - (hover_.second + 1) * ch, cw, ch);
        p.setPen(QPen(Qt::white, 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cell.adjusted(-1, -1, 1, 1));
        p.setPen(QPen(Qt::black, 1));
        p.drawRect(cell.adjusted(-2.5, -2.5, 2.5, 2.5));
    }
}

QRect Heatmap::plotRect(const QRect& r) const {
    const int left = layer_axis_ ? kLeft : kBareLeft;
    const int right = colour_bar_ ? kRight : kBareRight;
    return QRect(r.left() + left, r.top() + kTop, std::max(10, r.width() - left - right), std::max(10, r.height() - kTop - kBottom));
}

std::pair<int, int> Heatmap::cellAt(const QPoint& pos) const {
    const int W = static_cast<int>(steps_.size()), H = static_cast<int>(rows_.size());
    const QRect plot = plotRect(rect());
    if (W == 0 || H == 0 || !plot.contains(pos)) return {-1, -1};
    const int s = std::clamp(static_cast<int>((pos.x() - plot.left()) * double(W) / plot.width()), 0, W - 1);
    const int l = std::clamp(static_cast<int>((plot.bottom() + 1 - pos.y()) * double(H) / plot.height()), 0, H - 1);
    return {s, l};
}

QString Heatmap::cellText(int step_index, int layer) const {
    if (step_index < 0 || layer < 0 || step_index >= static_cast<int>(steps_.size()) || layer >= static_cast<int>(rows_.size()))
        return {};
    const auto& row = rows_[static_cast<size_t>(layer)];
    const double v = static_cast<size_t>(step_index) < row.size() ? row[static_cast<size_t>(step_index)] : std::nan("");
    const QString where = tr("step %1 · layer %2").arg(QString::number(steps_[static_cast<size_t>(step_index)], 'g', 10)).arg(layer);
    return QString("%1: %2").arg(where, std::isnan(v) ? tr("no value") : QString::number(v, 'g', 5));
}

QString Heatmap::tipAt(int step_index, int layer) const {
    return step_index >= 0 ? QString("%1\n%2").arg(title_, cellText(step_index, layer)) : title_;
}

bool Heatmap::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const auto [s, l] = cellAt(he->pos());
        // on a cell: the cell; elsewhere (the title, which may be elided): the title
        const QString text = tipAt(s, l);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void Heatmap::mouseMoveEvent(QMouseEvent* e) {
    const auto cell = cellAt(e->position().toPoint());
    if (cell != hover_) {
        hover_ = cell;
        update();
        // the tooltip follows the mouse from cell to cell
        if (QToolTip::isVisible() && cell.first >= 0)
            QToolTip::showText(e->globalPosition().toPoint(), tipAt(cell.first, cell.second), this);
    }
    QWidget::mouseMoveEvent(e);
}

void Heatmap::leaveEvent(QEvent* e) {
    hover_ = {-1, -1};
    update();
    QWidget::leaveEvent(e);
}

void Heatmap::render(QPainter& p, const QRect& r) const {
    p.setRenderHint(QPainter::Antialiasing, false);
    const QColor fg = palette().text().color();
    p.setPen(fg);
    const QFont f = labelFont();
    p.setFont(f);
    const int left = kLeft, right = kRight;   // the margins plotRect leaves, for the labels in them
    const QRect plot = plotRect(r);
    const PrintTicks ticks = colourBarTicks();
    const QRect title_box = titleBox(r);
    QFont tf;
    const QString title = titleFor(title_box.width(), &tf);
    p.setFont(tf);
    p.drawText(title_box, Qt::AlignCenter, title);
    p.setFont(f);
    if (image_.isNull()) {
        p.drawText(plot, Qt::AlignCenter, tr("no data yet"));
        return;
    }
    // Cells as sharp blocks on every device: the image (one pixel a cell) is
    // scaled here, nearest neighbour, to the plot's size in device pixels, so
    // neither a PDF viewer's smoothing nor the PDF writer's JPEG compression
    // (whose chroma subsampling mixes the colours of neighbouring cells in a
    // 100 × 4 image) makes the cells disagree with their colour bar.
    const QRectF dev = p.transform().mapRect(QRectF(plot));
    const QSize px(std::clamp(static_cast<int>(std::ceil(dev.width())), image_.width(), 8192),
                   std::clamp(static_cast<int>(std::ceil(dev.height())), image_.height(), 8192));
    p.drawImage(plot, px == image_.size() ? image_ : image_.scaled(px, Qt::IgnoreAspectRatio, Qt::FastTransformation));
    p.drawRect(plot.adjusted(0, 0, -1, -1));
    // y: layers
    // a label every `ystep` layers (about 8 labels), fewer where the plot is too low for them (14 px each)
    const int H = static_cast<int>(rows_.size());
    if (layer_axis_) {
        const int room = std::max(1, plot.height() / 14);
        const int ystep = std::max({1, H / 8, (H + room - 1) / room});
        for (int l = 0; l < H; l += ystep) {
            const double y = plot.bottom() - (l + 0.5) * plot.height() / H;
            p.drawText(QRectF(r.left(), y - 8, left - 6, 16), Qt::AlignRight | Qt::AlignVCenter, QString::number(l));
        }
        p.save();
        p.translate(r.left() + 12, plot.center().y());
        p.rotate(-90);
        p.drawText(QRectF(-60, -8, 120, 16), Qt::AlignCenter, tr("layer"));
        p.restore();
    }
    // x: steps
    // Ticks at 1-2-5 steps (as on every line chart), each at its place among the cells' centres.
    for (auto& [x, label] : xTicks(plot, p.fontMetrics())) {
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        p.drawText(QRectF(x - 40, plot.bottom() + 5, 80, 14), Qt::AlignCenter, label);
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + 20, plot.width(), 16), Qt::AlignCenter, tr("step"));
    if (!colour_bar_) return;
    // color bar
    const QRect bar(plot.right() + 14, plot.top(), 14, plot.height());
    for (int y = 0; y < bar.height(); ++y) {
        p.setPen(viridis(1.0 - double(y) / std::max(1, bar.height() - 1)));
        p.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    p.setPen(fg);
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    // labelled at its ticks (4 or so, one notation: core/print_ticks.h), not only at its ends
    const double a = log_ ? std::log10(lo_) : lo_, b = log_ ? std::log10(hi_) : hi_;
    for (size_t i = 0; i < ticks.values.size(); ++i) {
        const double t = b > a ? ((log_ ? std::log10(ticks.values[i]) : ticks.values[i]) - a) / (b - a) : 0.5;
        const double y = bar.bottom() - t * (bar.height() - 1);
        p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3, y));
        p.drawText(QRectF(bar.right() + 5, y - 7, right - 24, 14), Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(ticks.labels[i]));
    }
    if (!ticks.factor.empty())
        p.drawText(QRectF(bar.left(), bar.top() - 18, right - 10, 14), Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(ticks.factor));
}

QFont Heatmap::labelFont() const {
    QFont f = font();
    f.setPointSizeF(9);
    return f;
}

PrintTicks Heatmap::colourBarTicks() const { return print_ticks(lo_, hi_, log_ && lo_ > 0, 4, 3, 6, false); }

QStringList Heatmap::colourBarLabels() const {
    QStringList out;
    for (auto& l : colourBarTicks().labels) out << QString::fromStdString(l);
    return out;
}

}  // namespace normlab
