// NormLab widgets: the Block tab — one Transformer block per panel, side by side (block_diagram.h):
// the form's, as it is edited, and each selected run's. Normalizations are drawn in one colour,
// sub-layers in another, scales as pills on the line they scale; parts where the panels differ are
// outlined. On the form's panel a click on a part with a toggle switches it off, and a click on a
// dashed one (off) switches it on. A tooltip says what a part computes and which setting it is.
// draw_blocks draws the same panels into any painter: the tab's export and `normlab figure --view block`.
#pragma once

#include "widgets/block_diagram.h"
#include "widgets/plot_figure.h"

#include <QColor>
#include <QFont>
#include <QWidget>

class QTextStream;

#include <vector>

namespace normlab {

struct BlockPanel {
    QString title;                 // the run's name, or the form's
    QString subtitle;              // its scheme and size
    QColor color;                  // the title's (the run's colour); invalid: the text's
    BlockDiagram diagram;
    std::vector<QString> differs;  // ids of parts outlined (block_differences)
    bool clickable = false;        // the form's: a click on a part with a toggle emits toggleRequested
};

// Where draw_blocks put a part, in the painter's coordinates.
struct BlockHit {
    QRectF rect;
    int panel = 0;
    BlockPart part;
};

struct BlockStyle {
    QFont font;            // the parts' labels; the titles a step larger
    bool dark = false;     // a dark ground: darker fills, light text
    QColor text = Qt::black;
    QColor ground = Qt::white;
};

// The panels side by side at their natural size in `style`'s font (on `device`'s dpi; null: the screen's).
QSizeF blocks_size(const std::vector<BlockPanel>& panels, const BlockStyle& style, QPaintDevice* device = nullptr);
// Draws them into `r`, scaled down to fit (never up), centred at its top. Returns where each part went.
std::vector<BlockHit> draw_blocks(QPainter& p, const QRectF& r, const std::vector<BlockPanel>& panels, const BlockStyle& style);
// A figure's cell (ChartsView::exportFigure): font_pt on paper, and the height it needs at `width_mm`.
void draw_blocks_print(QPainter& p, const QRectF& r, const std::vector<BlockPanel>& panels, const PrintUnits& u);
double blocks_height_mm(const std::vector<BlockPanel>& panels, double width_mm, double font_pt);
// The panels in rows for a figure `width_mm` wide: as many side by side as fit at their natural size.
// The text is drawn at `font_pt`, or smaller where that saves a row: a column's four blocks at 8 pt
// took three rows (NormFormer's and nGPT's together 1 mm too wide; 305 mm tall), at 7.75 pt two. Never
// under three quarters of font_pt, nor under 6 pt unless asked: what a journal still prints.
struct BlockRows {
    std::vector<std::vector<BlockPanel>> rows;
    double font_pt = 0;       // what the rows are drawn at
    double smallest_pt = 0;   // the text's size on paper where a row wider than the page is scaled down too
};
BlockRows block_rows(const std::vector<BlockPanel>& panels, double width_mm, double font_pt);

// The panels as CSV, a row per part: the block (its title), the sub-layer and where on it the part
// sits (input, branch, branch scale, residual scale, after the sum, output), its id, text and kind,
// whether it is on, whether it is outlined, and the setting behind it.
void write_blocks_csv(QTextStream& out, const std::vector<BlockPanel>& panels);

class BlockView : public QWidget {
    Q_OBJECT
public:
    explicit BlockView(QWidget* parent = nullptr);
    void setPanels(std::vector<BlockPanel> panels);
    const std::vector<BlockPanel>& panels() const { return panels_; }
    void setDark(bool dark);
    // The part drawn at `pos` (widget coordinates), if any: for tooltips, clicks and tests.
    const BlockHit* hitAt(const QPointF& pos) const;
    // The part under `pos` that a click switches: the form's panel's, with a setting behind it.
    const BlockHit* toggleAt(const QPointF& pos) const;
    QSize sizeHint() const override;

    // Below this share of their natural size the panels stop shrinking and the tab scrolls.
    static constexpr double kMinScale = 0.72;

Q_SIGNALS:
    void toggleRequested(const QString& setting);

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void updateMinimum();
    std::vector<BlockPanel> panels_;
    std::vector<BlockHit> hits_;
    bool dark_ = false;
};

}  // namespace normlab
