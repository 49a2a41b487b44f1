// NormLab widgets: HeatmapGrid, the Gradients tab's heatmaps (one a run) in rows, as small multiples.
//
// On one colour scale the row's last heatmap draws the colour bar and, where every run has as many
// layers, the row's first the layer axis; the others give that room to their cells, which are as
// wide in every column. So four runs fit one row of a laptop's window, where four heatmaps each
// with both (two rows) scrolled the tab.
#pragma once

#include <QWidget>

#include <vector>

namespace normlab {

class Heatmap;

class HeatmapGrid : public QWidget {
public:
    explicit HeatmapGrid(QWidget* parent = nullptr);
    // `maps` (children of this widget) `columns` a row; `shared_scale`: one colour bar a row;
    // `same_layers`: one layer axis a row.
    void place(std::vector<Heatmap*> maps, int columns, bool shared_scale, bool same_layers);
    int columns() const { return columns_; }
    bool placedAs(const std::vector<Heatmap*>& maps, int columns, bool shared_scale, bool same_layers) const {
        return maps == maps_ && columns == columns_ && shared_scale == shared_ && same_layers == same_layers_;
    }
    // The least width a row of `columns` heatmaps takes, framed as place() frames them.
    static int minimumRowWidth(int columns, bool shared_scale, bool same_layers);
    static constexpr int kSpacing = 6;
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void arrange();
    std::vector<Heatmap*> maps_;
    int columns_ = 1;
    bool shared_ = false, same_layers_ = false;
};

}  // namespace normlab
