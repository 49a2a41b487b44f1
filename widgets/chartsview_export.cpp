// NormLab widgets: which chart a view shows, choosing a view by name
// (normlab figure), and exporting the current chart or panel (see chartsview.h).
#include "widgets/chartsview.h"

#include "widgets/figure.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QPainter>
#include <QTabWidget>

namespace normlab {

namespace {

// A widget as it looks, to PNG (dpi), SVG or PDF.
bool export_widget(QWidget* w, const QString& path, const QString& format, int dpi, QString* error) {
    const QSize size = w->size();
    return write_figure(path, format, dpi, size, QObject::tr("NormLab figure"),
                        [&](QPainter& p, const QRectF& target) {
                            p.scale(target.width() / size.width(), target.height() / size.height());
                            w->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
                        },
                        error);
}

}  // namespace

QWidget* ChartsView::currentChart() const {
    switch (tabs_->currentIndex()) {
        case 0: return loss_;
        case 1: return grad_lines_;
        case 2: return box_view_;
        case 3: return layer_chart_;
        case 4: return scalar_chart_;
    }
    return nullptr;
}

// The tab's charts together, without its controls.
QWidget* ChartsView::currentPanel() const {
    const int i = tabs_->currentIndex();
    return i >= 0 && i < static_cast<int>(panels_.size()) ? panels_[static_cast<size_t>(i)] : tabs_->currentWidget();
}

bool ChartsView::exportCurrent(const QString& path, const QString& format, int dpi, bool whole_panel, QString* error) {
    QWidget* target = whole_panel ? currentPanel() : currentChart();
    if (!target) {
        if (error) *error = tr("this view has no chart to export");
        return false;
    }
    const QString f = format.toLower();
    if (f == "csv") {
        if (auto* lc = qobject_cast<LineChart*>(currentChart())) return lc->exportCsv(path, error);
        // box plots: the five-number summaries of every run and layer at every step
        const std::string name = gain_name_->currentData().toString().toStdString();
        return write_text(path, [&](QTextStream& out) {
            out << "run_id,name,layer,step,count,min,q1,median,q3,max,mean,std\n";
            for (auto& r : runs_)
                for (auto& d : r->distributions(name))
                    out << r->id() << ',' << QString::fromStdString(d.name) << ',' << d.layer << ',' << d.step << ','
                        << d.count << ',' << d.min << ',' << d.q1 << ',' << d.median << ',' << d.q3 << ',' << d.max << ','
                        << d.mean << ',' << d.std << '\n';
        }, error);
    }
    if (!whole_panel)
        if (auto* lc = qobject_cast<LineChart*>(target)) return lc->exportFigure(path, format, dpi, error);
    return export_widget(target, path, format, dpi, error);
}

bool ChartsView::showView(const QString& view, const QString& weight, const QString& norm, const QString& probe,
                          QString* error) {
    const QStringList views = {"loss", "gradients", "gains", "layers", "scalars"};
    const int tab = views.indexOf(view);
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (tab < 0) return fail(QString("--view %1 is not one of %2").arg(view, views.join(", ")));
    auto pick = [&](QComboBox* combo, const QString& option, const QString& value, const QString& prefix = {}) {
        if (value.isEmpty()) return true;
        const int i = combo->findData(prefix + value);
        if (i >= 0) {
            combo->setCurrentIndex(i);
            return true;
        }
        QStringList have;
        for (int k = 0; k < combo->count(); ++k) {   // as the option takes them: "fc2", "gain/norm1"
            QString name = combo->itemData(k).toString().mid(prefix.size());
            if (!prefix.isEmpty() && name.startsWith('/')) name.remove(0, 1);
            have << name;
        }
        if (error) *error = QString("%1 %2 is not one of: %3").arg(option, value, have.join(", "));
        return false;
    };
    if (!probe.isEmpty() && tab != 3 && tab != 4 && tab != 2) return fail(QString("--probe is for --view layers, scalars or gains"));
    if ((!weight.isEmpty() || !norm.isEmpty()) && tab != 1) return fail(QString("--weight and --norm are for --view gradients"));
    if (tab == 1 && !(pick(grad_weight_, "--weight", weight) && pick(grad_norm_, "--norm", norm.isEmpty() ? QString() : norm + "/", "grad_")))
        return false;
    if (tab == 3 && !pick(layer_series_, "--probe", probe)) return false;
    if (tab == 4 && !pick(scalar_series_, "--probe", probe)) return false;
    tabs_->setCurrentIndex(tab);
    stale_[static_cast<size_t>(tab)] = true;
    redrawTab(tab);
    if (tab == 2 && !probe.isEmpty()) {   // the gains' names come from the runs, known once drawn
        if (!pick(gain_name_, "--probe", probe)) return false;
        gain_choice_ = gain_name_->currentData().toString();
        stale_[static_cast<size_t>(tab)] = true;
        redrawTab(tab);
    }
    return true;
}

}  // namespace normlab
