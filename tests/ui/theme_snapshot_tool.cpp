// View > Theme switched while the window runs (issue 29 item 8: "placeholder text invisible after dark -> light"):
// starts dark (or light with --light), opens the sample and the calibration dialog, switches the theme through the
// View > Theme action, and writes the window and the dialog as PNGs after each switch; prints, for every text field
// with a placeholder, its placeholder and base colours and their contrast (not a test).
//   QT_QPA_PLATFORM=offscreen ql_theme_snapshot OUTDIR [--light]
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_dialog.h"
#include "ui/main_window.h"
#include "ui/theme.h"

namespace {

// WCAG's relative luminance contrast of two colours (1 to 21).
double contrast(const QColor& a, const QColor& b) {
    const auto luminance = [](const QColor& c) {
        const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The placeholder as painted: its alpha blended over the field's base.
QColor blended(const QColor& over, const QColor& base) {
    const double a = over.alphaF();
    return QColor::fromRgbF(static_cast<float>(over.redF() * a + base.redF() * (1 - a)),
                            static_cast<float>(over.greenF() * a + base.greenF() * (1 - a)),
                            static_cast<float>(over.blueF() * a + base.blueF() * (1 - a)));
}

void printPlaceholders(const char* when, const QList<QWidget*>& tops) {
    for (QWidget* top : tops) {
        QList<QWidget*> fields;
        for (QLineEdit* edit : top->findChildren<QLineEdit*>())
            if (!edit->placeholderText().isEmpty()) fields.append(edit);
        for (QPlainTextEdit* edit : top->findChildren<QPlainTextEdit*>())
            if (!edit->placeholderText().isEmpty()) fields.append(edit);
        for (QWidget* field : fields) {
            const QPalette p = field->palette();
            const QColor base = p.color(QPalette::Base), shown = blended(p.color(QPalette::PlaceholderText), base);
            std::printf("%-8s %-28s placeholder %s on base %s: contrast %.1f\n", when,
                        qPrintable(field->metaObject()->className() + QStringLiteral(" ") +
                                   (field->objectName().isEmpty() ? field->parentWidget()->metaObject()->className()
                                                                  : field->objectName())),
                        qPrintable(shown.name()), qPrintable(base.name()), contrast(shown, base));
        }
    }
}

QAction* themeAction(const ql::ui::MainWindow& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == text) return action;
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: ql_theme_snapshot OUTDIR [--light]\n");
        return 2;
    }
    const QDir out(args[1]);
    const bool startLight = args.contains(QStringLiteral("--light"));
    ql::ui::applyTheme(startLight ? ql::ui::Theme::Light : ql::ui::Theme::Dark);
    ql::ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QSignalSpy opened(&window, &ql::ui::MainWindow::modelOpened);
    window.openModel(ql::test::sampleModelPath());
    if (!QTest::qWaitFor([&] { return !opened.isEmpty(); }, 30000)) return 1;
    auto* calibration = window.findChild<ql::ui::CalibrationController*>();
    if (!calibration->openDialog()) return 1;
    QWidget* dialog = calibration->dialog();
    for (const char* theme : {startLight ? "&Dark" : "&Light", startLight ? "&Light" : "&Dark"}) {
        QAction* action = themeAction(window, QString::fromLatin1(theme));
        if (!action) return 1;
        action->trigger();
        QTest::qWait(300);
        const QString name = QString::fromLatin1(theme).mid(1).toLower();
        printPlaceholders(qPrintable(name), {&window, dialog});
        if (!ql::test::saveSnapshot(&window, out, qPrintable(QStringLiteral("theme-window-%1.png").arg(name))) ||
            !ql::test::saveSnapshot(dialog, out, qPrintable(QStringLiteral("theme-dialog-%1.png").arg(name))))
            return 1;
    }
    return 0;
}
