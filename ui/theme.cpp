#include "ui/theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace ql::ui {
namespace {

QPalette darkPalette() {
    const QColor window(0x2b2d30), base(0x1e1f22), text(0xdfe1e5), disabled(0x7a7e85), highlight(0x3574f0);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26282b));
    p.setColor(QPalette::ToolTipBase, QColor(0x3c3f41));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x393b40));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x4e5157));
    p.setColor(QPalette::Midlight, QColor(0x43454a));
    p.setColor(QPalette::Mid, QColor(0x55585e));
    p.setColor(QPalette::Dark, QColor(0x1a1b1e));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x589df6));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

}  // namespace

std::optional<Theme> parseTheme(const QString& name) {
    if (name.compare(QLatin1String("light"), Qt::CaseInsensitive) == 0) return Theme::Light;
    if (name.compare(QLatin1String("dark"), Qt::CaseInsensitive) == 0) return Theme::Dark;
    return std::nullopt;
}

QString themeName(Theme theme) {
    return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

void applyTheme(Theme theme) {
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : QApplication::style()->standardPalette());
}

}  // namespace ql::ui
