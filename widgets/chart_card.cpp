// NormLab widgets: ChartCard (see chart_card.h).
#include "widgets/chart_card.h"

#include "widgets/chart_legend.h"

#include <QBoxLayout>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegend>
#include <QPainter>
#include <QScrollArea>

#include <algorithm>

namespace normlab {

ChartCard::ChartCard(QChart* chart, QChartView* view, QWidget* parent) : QWidget(parent), chart_(chart) {
    setObjectName("chartCard");
    chart_->legend()->setVisible(false);
    chart_->setBackgroundVisible(false);                  // the card draws it, behind the legend too
    chart_->layout()->setContentsMargins(0, 0, 0, 0);    // the room around the background: the card's margins now
    view->setFrameShape(QFrame::NoFrame);
    view->setStyleSheet("background: transparent");
    legend_ = new ChartLegend();
    legend_->setObjectName("chartLegend");
    area_ = new QScrollArea(this);
    area_->setObjectName("chartLegendArea");
    area_->setWidget(legend_);
    area_->setWidgetResizable(true);
    area_->setFrameShape(QFrame::NoFrame);
    area_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area_->setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }");
    body_ = new QBoxLayout(QBoxLayout::TopToBottom, this);
    body_->setContentsMargins(0, 0, 4, 4);
    body_->setSpacing(0);
    body_->addWidget(view, 1);
    body_->addWidget(area_);
}

void ChartCard::placeRows(int height) {
    legend_->setColumn(false);
    body_->setDirection(QBoxLayout::TopToBottom);
    area_->setMinimumWidth(0);
    area_->setMaximumWidth(QWIDGETSIZE_MAX);
    area_->setFixedHeight(height);
    area_->show();
}

void ChartCard::placeColumn(int width) {
    legend_->setColumn(true);
    body_->setDirection(QBoxLayout::LeftToRight);
    area_->setMinimumHeight(0);
    area_->setMaximumHeight(QWIDGETSIZE_MAX);
    area_->setFixedWidth(width);
    area_->show();
}

void ChartCard::hideLegend() { area_->hide(); }

bool ChartCard::legendShown() const { return !area_->isHidden(); }

void ChartCard::setAutoRows(bool on) {
    auto_rows_ = on;
    refresh();
}

void ChartCard::refresh() {
    if (!auto_rows_) return;
    if (legend_->listedCount() == 0) return hideLegend();
    const int w = std::max(120, width() - 4);
    const int need = legend_->heightForWidth(w);
    placeRows(std::min(need, std::max(2 * legend_->lineHeight() + 6, height() / 3)));
}

void ChartCard::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    refresh();
}

// The chart's background, one card behind the plot and its legend as Qt Charts drew it behind the
// plot and its own legend; the legend's text in the theme's colour.
void ChartCard::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(chart_->backgroundPen());
    p.setBrush(chart_->backgroundBrush());
    const qreal r = chart_->backgroundRoundness();
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), r, r);
    const QColor text = chart_->legend()->labelColor();
    if (legend_->palette().color(QPalette::WindowText) != text) {
        QPalette pal = legend_->palette();
        pal.setColor(QPalette::WindowText, text);
        legend_->setPalette(pal);
    }
}

}  // namespace normlab
