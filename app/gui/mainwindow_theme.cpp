// NormLab app: the window's colours — the system's palette, or NormLab's own
// light or dark one (View → Theme, `normlab --theme`), and the charts that
// follow whichever is in use (see mainwindow.h).
#include "app/gui/mainwindow.h"

#include "widgets/chartsview.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

#include <memory>

namespace normlab {

namespace {

// What the platform gave before NormLab changed anything (GNOME's or KDE's palette, dark or light, and its
// style), so that "Follow the system" gives it back.
struct SystemLook {
    QPalette palette;
    QString style;
};
const SystemLook& system_look() {
    static const SystemLook look{QApplication::palette(), QApplication::style()->name()};
    return look;
}

// Fusion's colours for a dark window: light text on grey, the selection blue, disabled text dimmed.
QPalette dark_palette() {
    QPalette p;
    const QColor window(53, 53, 53), base(42, 42, 42), text(232, 232, 232), dim(128, 128, 128), blue(42, 130, 218);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(62, 62, 62));
    p.setColor(QPalette::ToolTipBase, QColor(32, 32, 32));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, dim);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 90, 90));
    p.setColor(QPalette::Light, QColor(78, 78, 78));
    p.setColor(QPalette::Midlight, QColor(66, 66, 66));
    p.setColor(QPalette::Mid, QColor(40, 40, 40));
    p.setColor(QPalette::Dark, QColor(32, 32, 32));
    p.setColor(QPalette::Shadow, QColor(16, 16, 16));
    p.setColor(QPalette::Highlight, blue);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(110, 170, 240));
    p.setColor(QPalette::LinkVisited, QColor(170, 140, 230));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::HighlightedText})
        p.setColor(QPalette::Disabled, role, dim);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(80, 80, 80));
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    return p;
}

}  // namespace

bool MainWindow::switchTheme(const QString& theme) {
    const SystemLook& system = system_look();   // taken before the first change
    const QString t = theme.isEmpty() ? QString("system") : theme;
    if (t == "system") {
        if (theme_ != "system") {   // as the window started: nothing to undo
            QApplication::setStyle(QStyleFactory::create(system.style));
            QApplication::setPalette(system.palette);
        }
    } else if (t == "light" || t == "dark") {
        QApplication::setStyle(QStyleFactory::create("Fusion"));
        QApplication::setPalette(t == "dark" ? dark_palette() : QApplication::style()->standardPalette());
    } else {
        return false;
    }
    theme_ = t;
    for (auto& a : theme_actions_)
        if (a) a->setChecked(a->data().toString() == theme_);
    applyTheme();   // the palette's change reaches the window too; the charts follow it at once
    return true;
}

// View → Theme: the system's colours (the default), or NormLab's light or dark ones, remembered.
void MainWindow::addThemeMenu(QMenu* view) {
    theme_actions_.clear();   // a language switch builds the menus again: the old ones are going
    auto* menu = view->addMenu(tr("&Theme"));
    menu->setObjectName("themeMenu");
    auto* group = new QActionGroup(menu);
    for (auto [label, code] : {std::pair{tr("Follow the &system"), "system"}, {tr("&Light"), "light"}, {tr("&Dark"), "dark"}}) {
        auto* a = menu->addAction(label);
        a->setCheckable(true);
        a->setData(QString(code));
        a->setObjectName(QString("theme-%1").arg(code));
        a->setChecked(theme_ == code);
        group->addAction(a);
        theme_actions_.push_back(a);
        connect(a, &QAction::triggered, this, [this, code = QString(code)] {
            QSettings().setValue("theme", code);
            switchTheme(code);
        });
    }
}

// The charts in the palette's colours: a dark window gets Qt Charts' dark theme and ramps that stay
// visible on it; figures keep the light drawing.
void MainWindow::applyTheme() {
    const bool dark = qApp->palette().color(QPalette::Window).lightness() < 128;
    if (dark == charts_->dark() && themed_) return;
    themed_ = true;
    charts_->setDark(dark);   // every run shown, of every store, drawn again in the theme's colours
    updateDifferences(std::vector<std::pair<Store*, int64_t>>(diff_refs_));   // its runs' colours readable on the new ground
}

}  // namespace normlab
