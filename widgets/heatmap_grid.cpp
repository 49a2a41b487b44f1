// NormLab widgets: HeatmapGrid (see heatmap_grid.h).
#include "widgets/heatmap_grid.h"

#include "widgets/heatmap.h"

#include <algorithm>

namespace normlab {

namespace {
// What a heatmap in column `col` of `columns` draws beside its cells (the last of a short row
// draws the bar too: it is the last of its row).
bool layer_axis_at(int col, bool same_layers) { return !same_layers || col == 0; }
bool colour_bar_at(int col, int columns, bool last, bool shared_scale) { return !shared_scale || last || col == columns - 1; }
}  // namespace

HeatmapGrid::HeatmapGrid(QWidget* parent) : QWidget(parent) {}

int HeatmapGrid::minimumRowWidth(int columns, bool shared_scale, bool same_layers) {
    int w = (columns - 1) * kSpacing;
    for (int c = 0; c < columns; ++c)
        w += Heatmap::frameWidth(layer_axis_at(c, same_layers), colour_bar_at(c, columns, false, shared_scale)) + Heatmap::kMinCells;
    return w;
}

void HeatmapGrid::place(std::vector<Heatmap*> maps, int columns, bool shared_scale, bool same_layers) {
    maps_ = std::move(maps);
    columns_ = std::max(1, columns);
    shared_ = shared_scale;
    same_layers_ = same_layers;
    const int n = static_cast<int>(maps_.size());
    for (Heatmap* h : findChildren<Heatmap*>(QString(), Qt::FindDirectChildrenOnly))   // those left out (a run without the weight)
        if (std::find(maps_.begin(), maps_.end(), h) == maps_.end()) h->hide();
    for (int i = 0; i < n; ++i) {
        const int col = i % columns_;
        maps_[static_cast<size_t>(i)]->setFrame(layer_axis_at(col, same_layers), colour_bar_at(col, columns_, i == n - 1, shared_scale));
        maps_[static_cast<size_t>(i)]->show();
    }
    updateGeometry();
    arrange();
}

QSize HeatmapGrid::minimumSizeHint() const {
    const int n = static_cast<int>(maps_.size());
    if (n == 0) return {0, 0};
    const int rows = (n + columns_ - 1) / columns_;
    return {minimumRowWidth(std::min(columns_, n), shared_, same_layers_),
            rows * maps_.front()->minimumHeight() + (rows - 1) * kSpacing};
}

QSize HeatmapGrid::sizeHint() const {
    const QSize least = minimumSizeHint();
    const int rows = maps_.empty() ? 0 : (static_cast<int>(maps_.size()) + columns_ - 1) / columns_;
    return {least.width() + std::min(columns_, static_cast<int>(maps_.size())) * 2 * Heatmap::kMinCells,
            std::max(least.height(), rows * 300)};
}

void HeatmapGrid::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    arrange();
}

// The columns share what the frames leave, so every heatmap's cells are as wide.
void HeatmapGrid::arrange() {
    const int n = static_cast<int>(maps_.size());
    if (n == 0) return;
    const int columns = std::min(columns_, n), rows = (n + columns_ - 1) / columns_;
    std::vector<int> frame(static_cast<size_t>(columns));   // the first row's, as place() framed them
    int framed = (columns - 1) * kSpacing;
    for (int c = 0; c < columns; ++c) {
        const Heatmap& h = *maps_[static_cast<size_t>(c)];
        framed += frame[static_cast<size_t>(c)] = Heatmap::frameWidth(h.hasLayerAxis(), h.hasColourBar());
    }
    const int cells = std::max(Heatmap::kMinCells, (width() - framed) / columns);
    const int height = std::max(maps_.front()->minimumHeight(), (this->height() - (rows - 1) * kSpacing) / rows);
    std::vector<int> x(static_cast<size_t>(columns), 0);
    for (int c = 1; c < columns; ++c) x[static_cast<size_t>(c)] = x[static_cast<size_t>(c - 1)] + frame[static_cast<size_t>(c - 1)] + cells + kSpacing;
    for (int i = 0; i < n; ++i) {
        Heatmap* h = maps_[static_cast<size_t>(i)];
        const int col = i % columns_, row = i / columns_;
        h->setGeometry(x[static_cast<size_t>(col)], row * (height + kSpacing),
                       Heatmap::frameWidth(h->hasLayerAxis(), h->hasColourBar()) + cells, height);
    }
}

}  // namespace normlab
