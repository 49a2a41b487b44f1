// NormLab widgets: BlockView and draw_blocks (see blockview.h; for print: blockview_print.cpp).
//
// Each panel is laid out bottom to top, as the papers draw a block: the input, then per sub-layer a
// split off the stream, F's parts up the branch column and its scales, the stream's scales beside
// them, the ⊕ where they meet, and what follows the sum on the stream; a dashed frame around the
// two sub-layers says how many times the block repeats; then the output.
#include "widgets/blockview.h"

#include "widgets/math_text.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHelpEvent>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace normlab {

namespace {

struct Placed {
    QRectF rect;          // in the panel, y up from its bottom (flipped when drawn)
    const BlockPart* part;
    double column_x;      // the line it sits on
    bool arrow;           // an arrowhead into its bottom
};

struct PanelLayout {
    double width = 0, height = 0, title_height = 0;
    double xs = 0;                      // the stream's x
    std::vector<Placed> items;
    struct Stage { double split_y, join_y, xb, branch_top; };
    std::vector<Stage> stages;
    double stream_bottom = 0, stream_top = 0;
    double frame_y0 = 0, frame_y1 = 0;
};

struct Metrics {
    QFontMetricsF fm, small, title;
    double em, bh, ch, gap, pad, r, margin, colgap;
    Metrics(const QFont& f, QPaintDevice* dev)
        : fm(f, dev), small(smaller(f), dev), title(bolder(f), dev) {
        em = fm.height();
        bh = 1.4 * em;
        ch = 1.2 * em;
        gap = 0.42 * em;
        pad = 0.45 * em;
        r = 0.45 * em;
        margin = 0.5 * em;
        colgap = 0.9 * em;
    }
    static QFont smaller(QFont f) {
        f.setPointSizeF(f.pointSizeF() * 0.9);
        return f;
    }
    static QFont bolder(QFont f) {
        f.setPointSizeF(f.pointSizeF() * 1.08);
        f.setBold(true);
        return f;
    }
    bool chip(const BlockPart& p) const { return p.kind == BlockPart::Kind::Scale; }
    double width(const BlockPart& p) const {
        return std::max(2.4 * em, math_text::advance(chip(p) ? small : fm, block_part_text(p)) + 2 * pad);
    }
    double height(const BlockPart& p) const { return chip(p) ? ch : bh; }
};

QString layers_text(int n) { return QCoreApplication::translate("normlab::BlockDiagram", "× %n layer(s)", nullptr, n); }

PanelLayout layout_panel(const BlockPanel& panel, const Metrics& m) {
    const BlockDiagram& d = panel.diagram;
    PanelLayout L;
    double cs = 3 * m.em, cb = 4 * m.em;
    for (auto& s : d.stages) {
        for (auto* list : {&s.residual_scales, &s.after})
            for (auto& p : *list) cs = std::max(cs, m.width(p));
        for (auto* list : {&s.branch, &s.branch_scales})
            for (auto& p : *list) cb = std::max(cb, m.width(p));
    }
    L.xs = m.margin + cs / 2;
    const double xb = m.margin + cs + m.colgap + cb / 2;
    double width = m.margin + cs + m.colgap + cb + m.margin;
    // input and output: centred on the stream where they fit, else from the left margin
    auto place_io = [&](const BlockPart& p, double y, bool arrow) {
        const double w = m.width(p), h = m.height(p);
        const double left = std::max(m.margin, L.xs - w / 2);
        width = std::max(width, left + w + m.margin);
        L.items.push_back({QRectF(left, y, w, h), &p, L.xs, arrow});
        return h;
    };
    double y = m.margin;
    L.stream_bottom = y;
    for (size_t i = 0; i < d.input.size(); ++i) y += place_io(d.input[i], y, i > 0) + m.gap;
    L.frame_y0 = y - 0.2 * m.em;
    y += 0.45 * m.em;
    for (auto& s : d.stages) {
        PanelLayout::Stage st{};
        st.xb = xb;
        st.split_y = y;
        double yb = y + m.gap, ys = y + m.gap;
        for (auto* list : {&s.branch, &s.branch_scales})
            for (auto& p : *list) {
                const double w = m.width(p), h = m.height(p);
                L.items.push_back({QRectF(xb - w / 2, yb, w, h), &p, xb, true});
                yb += h + m.gap;
            }
        for (auto& p : s.residual_scales) {
            const double w = m.width(p), h = m.height(p);
            L.items.push_back({QRectF(L.xs - w / 2, ys, w, h), &p, L.xs, true});
            ys += h + m.gap;
        }
        st.branch_top = yb - m.gap;
        st.join_y = std::max(yb, ys) + m.r;
        y = st.join_y + m.r + m.gap;
        for (auto& p : s.after) {
            const double w = m.width(p), h = m.height(p);
            L.items.push_back({QRectF(L.xs - w / 2, y, w, h), &p, L.xs, true});
            y += h + m.gap;
        }
        L.stages.push_back(st);
    }
    L.frame_y1 = y;
    y += 0.9 * m.em;
    for (auto& p : d.output) y += place_io(p, y, true) + m.gap;
    L.stream_top = L.items.empty() ? y : std::max_element(L.items.begin(), L.items.end(), [](auto& a, auto& b) {
                                             return a.rect.bottom() < b.rect.bottom();
                                         })->rect.bottom();
    width = std::max(width, m.margin * 2 + m.small.horizontalAdvance(layers_text(d.n_layers)) + 4 * m.em);
    L.title_height = m.title.height() + m.small.height() + 0.5 * m.em;
    width = std::max({width, m.title.horizontalAdvance(panel.title) + 2 * m.margin,
                      m.small.horizontalAdvance(panel.subtitle) + 2 * m.margin});
    L.width = std::min(width, 40 * m.em);   // a long run name is elided, not a reason to widen
    L.height = y - m.gap + m.margin + L.title_height;
    return L;
}

struct Colors {
    QColor fill, border;
};

Colors colors(BlockPart::Kind k, bool dark) {
    auto pick = [dark](const char* fill, const char* border, const char* dfill, const char* dborder) {
        return dark ? Colors{QColor(dfill), QColor(dborder)} : Colors{QColor(fill), QColor(border)};
    };
    switch (k) {
        case BlockPart::Kind::Norm: return pick("#fbe3a0", "#b07d12", "#5c4813", "#e0b648");
        case BlockPart::Kind::Layer: return pick("#dce6f3", "#5a7497", "#2c3a4d", "#8fa8c8");
        case BlockPart::Kind::Scale: return pick("#d9efd7", "#4d8a4b", "#24401f", "#86c083");
        case BlockPart::Kind::End: break;
    }
    return pick("#ececec", "#8a8a8a", "#3a3a3a", "#9a9a9a");
}

void arrow_up(QPainter& p, QPointF tip, double s) {
    QPainterPath a;
    a.moveTo(tip);
    a.lineTo(tip + QPointF(-s * 0.55, s));
    a.lineTo(tip + QPointF(s * 0.55, s));
    a.closeSubpath();
    p.fillPath(a, p.pen().color());
}

void arrow_left(QPainter& p, QPointF tip, double s) {
    QPainterPath a;
    a.moveTo(tip);
    a.lineTo(tip + QPointF(s, -s * 0.55));
    a.lineTo(tip + QPointF(s, s * 0.55));
    a.closeSubpath();
    p.fillPath(a, p.pen().color());
}

// Draws one panel with its top left at the painter's origin; hits in the painter's coordinates.
void draw_panel(QPainter& p, const BlockPanel& panel, const PanelLayout& L, const Metrics& m, const BlockStyle& st,
                const QFont& font, int index, std::vector<BlockHit>& hits) {
    const double H = L.height;
    auto flip = [H](const QRectF& r) { return QRectF(r.left(), H - r.bottom(), r.width(), r.height()); };
    auto fy = [H](double y) { return H - y; };
    const QColor line = st.text;
    const double lw = std::max(1.0, m.em / 14);
    // titles
    p.setFont(Metrics::bolder(font));
    p.setPen(panel.color.isValid() ? panel.color : st.text);
    p.drawText(QRectF(0, 0, L.width, m.title.height()), Qt::AlignHCenter | Qt::AlignTop,
               m.title.elidedText(panel.title, Qt::ElideRight, L.width - m.margin));
    p.setFont(Metrics::smaller(font));
    QColor grey = st.text;
    grey.setAlphaF(0.62);
    p.setPen(grey);
    p.drawText(QRectF(0, m.title.height(), L.width, m.small.height()), Qt::AlignHCenter | Qt::AlignTop,
               m.small.elidedText(panel.subtitle, Qt::ElideRight, L.width - m.margin));
    // the repeated block's frame, its count on its top edge
    QPen dashed(grey, lw, Qt::DashLine);
    p.setPen(dashed);
    p.setBrush(Qt::NoBrush);
    const QRectF frame(m.margin * 0.35, fy(L.frame_y1), L.width - m.margin * 0.7, L.frame_y1 - L.frame_y0);
    p.drawRoundedRect(frame, m.em * 0.4, m.em * 0.4);
    const QString count = layers_text(panel.diagram.n_layers);
    const double cw = m.small.horizontalAdvance(count) + 0.6 * m.em;
    const QRectF count_rect(frame.right() - cw - m.em, frame.top() - m.small.height() / 2, cw, m.small.height());
    p.fillRect(count_rect, st.ground);
    p.setPen(grey);
    p.drawText(count_rect, Qt::AlignCenter, count);
    // the stream, and each sub-layer's branch out of it and back into ⊕
    p.setPen(QPen(line, lw));
    p.drawLine(QPointF(L.xs, fy(L.stream_bottom + m.bh * 0.5)), QPointF(L.xs, fy(L.stream_top - m.bh * 0.5)));
    const double ah = 0.42 * m.em;   // arrowheads
    for (auto& s : L.stages) {
        p.setPen(QPen(line, lw));
        p.drawPolyline(QPolygonF{QPointF(L.xs, fy(s.split_y)), QPointF(s.xb, fy(s.split_y)), QPointF(s.xb, fy(s.join_y)),
                                 QPointF(L.xs + m.r, fy(s.join_y))});
        p.setBrush(st.text);
        p.drawEllipse(QPointF(L.xs, fy(s.split_y)), lw * 1.8, lw * 1.8);
        arrow_left(p, QPointF(L.xs + m.r, fy(s.join_y)), ah);
        arrow_up(p, QPointF(L.xs, fy(s.join_y - m.r)), ah);
        p.setBrush(st.ground);
        const QRectF circle(L.xs - m.r, fy(s.join_y + m.r), 2 * m.r, 2 * m.r);
        p.drawEllipse(circle);
        p.drawLine(QPointF(L.xs - m.r * 0.6, fy(s.join_y)), QPointF(L.xs + m.r * 0.6, fy(s.join_y)));
        p.drawLine(QPointF(L.xs, fy(s.join_y - m.r * 0.6)), QPointF(L.xs, fy(s.join_y + m.r * 0.6)));
    }
    // the parts
    const QColor accent = st.dark ? QColor("#ff6fa8") : QColor("#c2185b");
    for (auto& it : L.items) {
        const BlockPart& part = *it.part;
        const QRectF r = flip(it.rect);
        const bool chip = m.chip(part);
        const double radius = chip ? r.height() / 2 : part.kind == BlockPart::Kind::Norm ? 0.35 * m.em : 0.12 * m.em;
        if (it.arrow) {
            p.setPen(QPen(line, lw));
            arrow_up(p, QPointF(it.column_x, r.bottom()), ah);
        }
        const Colors c = colors(part.kind, st.dark);
        const bool differs = std::find(panel.differs.begin(), panel.differs.end(), part.id) != panel.differs.end();
        if (differs && part.on) {
            p.setPen(QPen(accent, 2.4 * lw));
            p.setBrush(Qt::NoBrush);
            const double o = 1.8 * lw;
            p.drawRoundedRect(r.adjusted(-o, -o, o, o), radius + o, radius + o);
        }
        if (part.on) {
            p.setPen(QPen(c.border, lw));
            p.setBrush(c.fill);
        } else {
            p.setPen(QPen(grey, lw, Qt::DashLine));
            p.setBrush(st.ground);
        }
        p.drawRoundedRect(r, radius, radius);
        p.setFont(chip ? Metrics::smaller(font) : font);
        p.setPen(part.on ? st.text : grey);
        const QString text = block_part_text(part);
        const QFontMetricsF& fm = chip ? m.small : m.fm;
        math_text::draw(p, r, Qt::AlignCenter, math_text::advance(fm, text) <= r.width() ? text : fm.elidedText(text, Qt::ElideRight, r.width()));
        hits.push_back({p.transform().mapRect(r), index, part});
    }
}

}  // namespace

namespace {

// The panels laid out side by side, an em apart: each one's layout, and the size of them all.
struct Laid {
    std::vector<PanelLayout> layouts;
    double width = 0, height = 0;
};

Laid lay_out(const std::vector<BlockPanel>& panels, const Metrics& m) {
    Laid out;
    for (auto& panel : panels) {
        out.layouts.push_back(layout_panel(panel, m));
        out.width += out.layouts.back().width;
        out.height = std::max(out.height, out.layouts.back().height);
    }
    if (panels.size() > 1) out.width += (panels.size() - 1) * m.em;
    return out;
}

}  // namespace

QSizeF blocks_size(const std::vector<BlockPanel>& panels, const BlockStyle& style, QPaintDevice* device) {
    QImage probe(8, 8, QImage::Format_ARGB32);
    const Laid laid = lay_out(panels, Metrics(style.font, device ? device : &probe));
    return {laid.width, laid.height};
}

std::vector<BlockHit> draw_blocks(QPainter& p, const QRectF& r, const std::vector<BlockPanel>& panels, const BlockStyle& style) {
    std::vector<BlockHit> hits;
    if (panels.empty()) return hits;
    const Metrics m(style.font, p.device());
    const Laid laid = lay_out(panels, m);
    const std::vector<PanelLayout>& layouts = laid.layouts;
    const double w = laid.width, s = std::min({1.0, r.width() / w, r.height() / laid.height});
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.translate(r.left() + (r.width() - w * s) / 2, r.top());
    p.scale(s, s);
    double x = 0;
    for (size_t i = 0; i < panels.size(); ++i) {
        p.save();
        p.translate(x, 0);
        draw_panel(p, panels[i], layouts[i], m, style, style.font, static_cast<int>(i), hits);
        p.restore();
        x += layouts[i].width + m.em;
    }
    p.restore();
    return hits;
}


// ---- the widget

BlockView::BlockView(QWidget* parent) : QWidget(parent) {
    setObjectName("blockView");
    setMouseTracking(true);
}

void BlockView::setPanels(std::vector<BlockPanel> panels) {
    panels_ = std::move(panels);
    updateMinimum();
    update();
}

void BlockView::setDark(bool dark) {
    dark_ = dark;
    update();
}

void BlockView::updateMinimum() {
    BlockStyle st;
    st.font = font();
    const QSizeF n = blocks_size(panels_, st, this);
    setMinimumSize(QSize(static_cast<int>(std::ceil(n.width() * kMinScale)) + 8, static_cast<int>(std::ceil(n.height() * kMinScale)) + 8));
    updateGeometry();
}

QSize BlockView::sizeHint() const {
    BlockStyle st;
    st.font = font();
    const QSizeF n = blocks_size(panels_, st, const_cast<BlockView*>(this));
    return QSize(static_cast<int>(std::ceil(n.width())) + 8, static_cast<int>(std::ceil(n.height())) + 8);
}

void BlockView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    BlockStyle st;
    st.font = font();
    st.dark = dark_;
    st.text = palette().color(QPalette::Text);
    st.ground = palette().color(QPalette::Base);
    p.fillRect(rect(), st.ground);
    hits_ = draw_blocks(p, QRectF(rect()).adjusted(4, 4, -4, -4), panels_, st);
}

const BlockHit* BlockView::hitAt(const QPointF& pos) const {
    for (auto& h : hits_)
        if (h.rect.contains(pos)) return &h;
    return nullptr;
}

bool BlockView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        if (const BlockHit* h = hitAt(he->pos())) {
            BlockPart shown = h->part;
            if (!panels_[static_cast<size_t>(h->panel)].clickable) shown.setting.clear();   // a run's: no toggle to offer
            QString tip = block_part_tip(shown);
            if (!panels_[static_cast<size_t>(h->panel)].clickable && !h->part.setting.isEmpty())
                tip += "\n" + h->part.setting + (h->part.on ? "" : QCoreApplication::translate("normlab::BlockDiagram", " (off)"));
            QToolTip::showText(he->globalPos(), math_text::tooltip(tip), this);
        } else {
            QToolTip::hideText();
            e->ignore();
        }
        return true;
    }
    return QWidget::event(e);
}

const BlockHit* BlockView::toggleAt(const QPointF& pos) const {
    const BlockHit* h = hitAt(pos);
    return h && panels_[static_cast<size_t>(h->panel)].clickable && !h->part.setting.isEmpty() ? h : nullptr;
}

void BlockView::mouseMoveEvent(QMouseEvent* e) {
    setCursor(toggleAt(e->position()) ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(e);
}

void BlockView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton)
        if (const BlockHit* h = toggleAt(e->position())) {
            Q_EMIT toggleRequested(h->part.setting);
            return;
        }
    QWidget::mousePressEvent(e);
}

void BlockView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange) updateMinimum();
    QWidget::changeEvent(e);
}

}  // namespace normlab
