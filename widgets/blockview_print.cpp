// NormLab widgets: the Block tab's blocks for print (see blockview.h): the font on paper, the rows
// a figure's width packs them into, the height they need, and their parts as CSV.
#include "widgets/blockview.h"

#include "widgets/figure.h"
#include "widgets/math_text.h"

#include <QImage>
#include <QPainter>
#include <QTextStream>

#include <algorithm>

namespace normlab {

namespace {
QFont print_font(QPaintDevice* device, const PrintUnits& u) {
    QFont f;
    const double px = u.font_pt / 72.0 * 25.4 * u.px_per_mm;
    const int dpi = device ? std::max(1, device->logicalDpiY()) : 96;
    f.setPointSizeF(px * 72.0 / dpi);
    return f;
}
}  // namespace

void draw_blocks_print(QPainter& p, const QRectF& r, const std::vector<BlockPanel>& panels, const PrintUnits& u) {
    BlockStyle st;
    st.font = print_font(p.device(), u);
    draw_blocks(p, r, panels, st);
}

namespace {

// What a figure's panels are measured on: a 300 dpi page, as print_font sizes its points.
QImage print_canvas() {
    QImage image(8, 8, QImage::Format_ARGB32);
    image.setDotsPerMeterX(static_cast<int>(300 / 0.0254));
    image.setDotsPerMeterY(static_cast<int>(300 / 0.0254));
    return image;
}

}  // namespace

double blocks_height_mm(const std::vector<BlockPanel>& panels, double width_mm, double font_pt) {
    QImage image = print_canvas();
    const PrintUnits u{300 / 25.4, font_pt};
    BlockStyle st;
    st.font = print_font(&image, u);
    const QSizeF size = blocks_size(panels, st, &image);
    if (size.isEmpty()) return 0;
    const double s = std::min(1.0, width_mm * u.px_per_mm / size.width());
    return size.height() * s / u.px_per_mm;
}

namespace {

// Greedy, in order: a panel joins the row before where the row still fits the room.
std::vector<std::vector<BlockPanel>> pack_rows(const std::vector<BlockPanel>& panels, double width_mm, double font_pt) {
    QImage image = print_canvas();
    const PrintUnits u{300 / 25.4, font_pt};
    BlockStyle st;
    st.font = print_font(&image, u);
    const double room = width_mm * u.px_per_mm;
    std::vector<std::vector<BlockPanel>> rows;
    for (const BlockPanel& p : panels) {
        if (!rows.empty()) {
            std::vector<BlockPanel> wider = rows.back();
            wider.push_back(p);
            if (blocks_size(wider, st, &image).width() <= room) {
                rows.back() = std::move(wider);
                continue;
            }
        }
        rows.push_back({p});
    }
    return rows;
}

}  // namespace

BlockRows block_rows(const std::vector<BlockPanel>& panels, double width_mm, double font_pt) {
    BlockRows out;
    out.font_pt = out.smallest_pt = font_pt;
    if (panels.empty() || width_mm <= 0 || font_pt <= 0) return out;
    out.rows = pack_rows(panels, width_mm, font_pt);
    // The largest font, in quarter points, that packs them into the fewest rows the range allows.
    const double lowest = std::min(font_pt, std::max(6.0, 0.75 * font_pt));
    for (double pt = font_pt - 0.25; pt >= lowest - 1e-9 && out.rows.size() > 1; pt -= 0.25) {
        auto rows = pack_rows(panels, width_mm, pt);
        if (rows.size() < out.rows.size()) {
            out.rows = std::move(rows);
            out.font_pt = pt;
        }
    }
    // A row of one panel wider than the page is drawn scaled down (draw_blocks): its text with it.
    QImage image = print_canvas();
    const PrintUnits u{300 / 25.4, out.font_pt};
    BlockStyle st;
    st.font = print_font(&image, u);
    out.smallest_pt = out.font_pt;
    for (const auto& row : out.rows) {
        const double w = blocks_size(row, st, &image).width();
        if (w > width_mm * u.px_per_mm) out.smallest_pt = std::min(out.smallest_pt, out.font_pt * width_mm * u.px_per_mm / w);
    }
    return out;
}

void write_blocks_csv(QTextStream& out, const std::vector<BlockPanel>& panels) {
    out << "block,stage,place,part,text,kind,on,outlined,setting\n";
    static const char* const kinds[] = {"norm", "layer", "scale", "end"};
    for (const BlockPanel& panel : panels) {
        auto row = [&](const QString& stage, const char* place, const BlockPart& p) {
            const bool outlined = std::find(panel.differs.begin(), panel.differs.end(), p.id) != panel.differs.end();
            out << csv_field(panel.title) << ',' << stage << ',' << place << ',' << p.id << ','
                << csv_field(math_text::plain(block_part_text(p))) << ',' << kinds[static_cast<int>(p.kind)] << ','
                << (p.on ? "true" : "false") << ',' << (outlined ? "true" : "false") << ',' << p.setting << '\n';
        };
        for (auto& p : panel.diagram.input) row("", "input", p);
        for (auto& s : panel.diagram.stages) {
            for (auto& p : s.branch) row(s.id, "branch", p);
            for (auto& p : s.branch_scales) row(s.id, "branch_scale", p);
            for (auto& p : s.residual_scales) row(s.id, "residual_scale", p);
            for (auto& p : s.after) row(s.id, "after_sum", p);
        }
        for (auto& p : panel.diagram.output) row("", "output", p);
    }
}

}  // namespace normlab
