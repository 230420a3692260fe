// Issue 18, item 9 (the smaller items), the window's part: placeholder texts fit their widgets at 1280x800, the
// Help menu (keyboard shortcuts read from the actions, the lint rules, About with the version), the Nodes tab's
// headers in view, and plain words in the histogram caption and the export summary.
#include <qcustomplot.h>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyleOptionFrame>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QTreeWidget>
#include <QtTest>

#include "core/lint/rule_registry.h"
#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/window_test_util.h"
#include "ui/export_job.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/plots/histogram_plot.h"
#include "ui/plots/plot_widget.h"

using namespace ql;

class SmallItemsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void plotPlaceholdersFitTheirPlotsAt1280x800();
    void lineEditPlaceholdersFitAndNoToolBarOverflowsAt1280x800();
    void axisLabelsAndLegendsFitAt1280x800();
    void nodesTabHeadersAreInView();
    void helpMenuListsTheShortcutsOfTheWindowAndTheGraph();
    void helpMenuExplainsEveryLintRule();
    void aboutNamesTheVersion();
    void histogramCaptionSpeaksPlainly();
    void exportSummarySpeaksPlainly();
};

namespace {

using test::openAndWait;

// The window as a new user first sees it: 1280x800, the sample open, nothing calibrated.
bool showSample(ui::MainWindow& window) {
    window.resize(1280, 800);
    window.show();
    return QTest::qWaitForWindowExposed(&window) && openAndWait(window, test::sampleModelPath());
}

// The QCPItemText that draws `plot`'s placeholder (its lines joined are the placeholder's), or null.
QCPItemText* placeholderItem(ui::PlotWidget* plot) {
    for (int i = 0; i < plot->customPlot()->itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(plot->customPlot()->item(i));
        if (text && text->text().simplified() == plot->placeholderText().simplified()) return text;
    }
    return nullptr;
}

QTreeWidgetItem* childNamed(QTreeWidgetItem* parent, const QString& text) {
    for (int i = 0; i < parent->childCount(); ++i)
        if (parent->child(i)->text(0) == text) return parent->child(i);
    return nullptr;
}

QAction* helpAction(ui::MainWindow& window, const char* name) {
    auto* help = window.menuBar()->findChild<QMenu*>(QStringLiteral("HelpMenu"));
    return help ? help->findChild<QAction*>(QLatin1String(name)) : nullptr;
}

// The visible top-level dialog of `window` titled `title` (the Help dialogs do not block).
template <typename Dialog>
Dialog* shownDialog(ui::MainWindow& window, const QString& title) {
    for (Dialog* dialog : window.findChildren<Dialog*>())
        if (dialog->isVisible() && dialog->windowTitle() == title) return dialog;
    return nullptr;
}

}  // namespace

void SmallItemsTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("small_items_test"));
}

// "No error analysis yet. Calibrate with ..." ran past both sides of the Layer Error dock.
void SmallItemsTest::plotPlaceholdersFitTheirPlotsAt1280x800() {
    ui::MainWindow window;
    QVERIFY(showSample(window));
    int checked = 0;
    for (ui::PlotWidget* plot : window.findChildren<ui::PlotWidget*>()) {
        if (!plot->isVisible() || plot->placeholderText().isEmpty()) continue;
        QCPItemText* item = placeholderItem(plot);
        QVERIFY2(item, qPrintable(plot->placeholderText()));
        const QRect text = QFontMetrics(item->font()).boundingRect(QRect(), Qt::AlignCenter, item->text());
        QVERIFY2(text.width() <= plot->customPlot()->width() && text.height() <= plot->customPlot()->height(),
                 qPrintable(QStringLiteral("%1: %2x%3 text in a %4x%5 plot")
                                .arg(plot->windowTitle())
                                .arg(text.width())
                                .arg(text.height())
                                .arg(plot->customPlot()->width())
                                .arg(plot->customPlot()->height())));
        ++checked;
    }
    QVERIFY(checked >= 2);  // the histogram's and the layer error's
}

// After a calibration: the histogram's caption ran past both sides of its dock, the layer error's axis label and
// legend past the sides of theirs, and the output scatter's summary box past its right edge.
void SmallItemsTest::axisLabelsAndLegendsFitAt1280x800() {
    ui::MainWindow window;
    QVERIFY(showSample(window));
    test::calibrateSampleNow(*window.document());
    window.findChild<ui::GraphView*>()->selectNode(0);  // its output: a tensor inside a fused layer, with notes
    int checked = 0;
    for (const char* dock : {"HistogramDock", "LayerErrorDock", "OutputScatterDock"}) {
        window.findChild<QDockWidget*>(QLatin1String(dock))->raise();
        QTest::qWait(50);
        auto* widget = qobject_cast<ui::PlotWidget*>(window.findChild<QDockWidget*>(QLatin1String(dock))->widget());
        QVERIFY(widget && widget->isVisible() && widget->placeholderText().isEmpty());
        QCustomPlot* plot = widget->customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QString name = widget->windowTitle();
        for (const QString& line : plot->xAxis->label().split(QLatin1Char('\n'))) {
            const int width = QFontMetrics(plot->xAxis->labelFont()).horizontalAdvance(line);
            QVERIFY2(
                width <= plot->width(),
                qPrintable(QStringLiteral("%1: '%2' is %3 px in %4").arg(name, line).arg(width).arg(plot->width())));
        }
        const int height = QFontMetrics(plot->yAxis->labelFont()).horizontalAdvance(plot->yAxis->label());
        QVERIFY2(height <= plot->height(), qPrintable(QStringLiteral("%1: '%2' is %3 px in %4")
                                                          .arg(name, plot->yAxis->label())
                                                          .arg(height)
                                                          .arg(plot->height())));
        if (plot->legend->visible()) QVERIFY2(plot->rect().contains(plot->legend->outerRect()), qPrintable(name));
        for (int i = 0; i < plot->itemCount(); ++i) {  // texts drawn in the plot: the method labels, a summary box
            const auto* text = qobject_cast<QCPItemText*>(plot->item(i));
            if (!text) continue;
            const QRectF box(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
            QVERIFY2(QRectF(plot->rect()).contains(box), qPrintable(name + QStringLiteral(": ") + text->text()));
        }
        ++checked;
    }
    QCOMPARE(checked, 3);
}

// The precision dock's toolbar overflowed: the filter's placeholder was cut and its check boxes hidden.
void SmallItemsTest::lineEditPlaceholdersFitAndNoToolBarOverflowsAt1280x800() {
    ui::MainWindow window;
    QVERIFY(showSample(window));
    for (const char* dock : {"PrecisionDock", "NodesDock"}) {
        window.findChild<QDockWidget*>(QLatin1String(dock))->raise();
        QTest::qWait(50);
        for (QLineEdit* edit : window.findChildren<QLineEdit*>()) {
            if (!edit->isVisible() || edit->placeholderText().isEmpty()) continue;
            QStyleOptionFrame option;
            option.initFrom(edit);
            const QMargins margins = edit->textMargins();
            int room = edit->style()->subElementRect(QStyle::SE_LineEditContents, &option, edit).width() -
                       margins.left() - margins.right() - 4;
            if (edit->isClearButtonEnabled()) room -= edit->height();  // the clear button's square
            const int needed = edit->fontMetrics().horizontalAdvance(edit->placeholderText());
            QVERIFY2(
                needed <= room,
                qPrintable(
                    QStringLiteral("'%1' needs %2 px, has %3").arg(edit->placeholderText()).arg(needed).arg(room)));
        }
        for (QToolBar* bar : window.findChildren<QToolBar*>()) {
            auto* more = bar->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
            QVERIFY2(!bar->isVisible() || !more || !more->isVisible(), qPrintable(bar->objectName()));
        }
    }
}

// The third column's header (Inputs) was centred in a section wider than the dock, so the column had no name.
void SmallItemsTest::nodesTabHeadersAreInView() {
    ui::MainWindow window;
    QVERIFY(showSample(window));
    window.findChild<QDockWidget*>(QStringLiteral("NodesDock"))->raise();
    QTest::qWait(50);
    QTableView* table = nullptr;
    for (QTableView* view : window.findChildren<QTableView*>())
        if (view->isVisible() && view->objectName() != QStringLiteral("PrecisionTable")) table = view;
    QVERIFY(table);
    QHeaderView* header = table->horizontalHeader();
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    int named = 0;
    for (int section = 0; section < header->count(); ++section) {
        const int left = header->sectionViewportPosition(section);
        if (header->isSectionHidden(section) || left >= header->width()) continue;
        const QString name = table->model()->headerData(section, Qt::Horizontal).toString();
        QVERIFY2(!name.isEmpty(), qPrintable(QString::number(section)));
        const int width = header->fontMetrics().horizontalAdvance(name);
        const int start = header->defaultAlignment().testFlag(Qt::AlignLeft)
                              ? left + margin
                              : left + (header->sectionSize(section) - width) / 2;
        QVERIFY2(start + width <= header->width(), qPrintable(QStringLiteral("%1 drawn at %2..%3 of %4")
                                                                  .arg(name)
                                                                  .arg(start)
                                                                  .arg(start + width)
                                                                  .arg(header->width())));
        ++named;
    }
    QVERIFY(named >= 4);  // #, Node, Op, Inputs
}

void SmallItemsTest::helpMenuListsTheShortcutsOfTheWindowAndTheGraph() {
    ui::MainWindow window;
    QVERIFY(showSample(window));
    window.document()->setRequestedPrecision({0}, Precision::Fp32);  // Undo's text now names the edit
    QAction* shortcuts = helpAction(window, "KeyboardShortcutsAction");
    QVERIFY(shortcuts);
    shortcuts->trigger();
    auto* dialog = shownDialog<QDialog>(window, QStringLiteral("Keyboard Shortcuts"));
    QVERIFY(dialog);
    auto* tree = dialog->findChild<QTreeWidget*>();
    QVERIFY(tree);
    const auto group = [tree](const QString& title) -> QTreeWidgetItem* {
        const QList<QTreeWidgetItem*> found = tree->findItems(title, Qt::MatchExactly);
        return found.isEmpty() ? nullptr : found.front();
    };
    QTreeWidgetItem* graph = group(QStringLiteral("Graph"));
    QVERIFY(graph);
    const auto keys = [&](QTreeWidgetItem* parent, const char* command) {
        QTreeWidgetItem* row = parent ? childNamed(parent, QLatin1String(command)) : nullptr;
        return row ? row->text(1) : QString();
    };
    QCOMPARE(keys(graph, "Cycle precision (FP32, FP16, INT8)"), QStringLiteral("P"));
    QCOMPARE(keys(graph, "Fit to window"), QStringLiteral("F, 0"));
    QCOMPARE(keys(graph, "Show legend"), QStringLiteral("L"));
    QCOMPARE(keys(group(QStringLiteral("Precision table")), "Cycle precision (FP32, FP16, INT8)"), QStringLiteral("P"));
    QCOMPARE(keys(group(QStringLiteral("File")), "Open Model..."),
             QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText));
    QCOMPARE(keys(group(QStringLiteral("View")), "Find..."),
             QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText));
    QCOMPARE(keys(group(QStringLiteral("Help")), "Keyboard Shortcuts"), QStringLiteral("F1"));
    QCOMPARE(keys(group(QStringLiteral("Edit")), "Undo"),
             QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText));
    // What the list says is what the key does: L in the graph hides the legend.
    auto* view = window.findChild<ui::GraphView*>();
    QVERIFY(view->legend()->isVisibleTo(view));
    QTest::keyClick(view, QKeySequence::fromString(keys(graph, "Show legend"))[0].key());
    QVERIFY(!view->legend()->isVisibleTo(view));
}

void SmallItemsTest::helpMenuExplainsEveryLintRule() {
    ui::MainWindow window;
    QVERIFY(showSample(window));
    QAction* rules = helpAction(window, "LintRulesAction");
    QVERIFY(rules);
    rules->trigger();
    auto* dialog = shownDialog<QDialog>(window, QStringLiteral("TensorRT Lint Rules"));
    QVERIFY(dialog);
    auto* list = dialog->findChild<QListWidget*>();
    auto* text = dialog->findChild<QTextBrowser*>();
    QVERIFY(list && text);
    QCOMPARE(static_cast<size_t>(list->count()), lintRules().size());
    const QList<QListWidgetItem*> found =
        list->findItems(QStringLiteral("trt-grouped-conv-int8-alignment"), Qt::MatchExactly);
    QVERIFY(!found.isEmpty());
    list->setCurrentItem(found.front());
    const std::string_view explanation = findLintRule("trt-grouped-conv-int8-alignment")->info().explanation;
    QVERIFY2(text->toPlainText().contains(QString::fromUtf8(explanation.data(), explanation.size()).left(40)),
             qPrintable(text->toPlainText()));
}

void SmallItemsTest::aboutNamesTheVersion() {
    ui::MainWindow window;
    window.show();
    QAction* about = helpAction(window, "AboutAction");
    QVERIFY(about);
    about->trigger();
    auto* box = shownDialog<QMessageBox>(window, QStringLiteral("About QuantLens"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(QStringLiteral("QuantLens " QL_VERSION)), qPrintable(box->text()));
}

// The caption said "counted on 8 of the 64 samples: fused into its activation" and "not quantized under this plan:
// no clipping or SQNR to show".
void SmallItemsTest::histogramCaptionSpeaksPlainly() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    const TensorRange* fused = nullptr;
    for (const TensorRange& range : document.calibration()->activations)
        if (range.samples > 0 && !fused) fused = &range;
    QVERIFY(fused);
    ui::HistogramPlot plot;
    plot.setDocument(&document);
    const auto captionOf = [&] {
        plot.showTensor(QString::fromStdString(fused->name));
        QString caption = plot.customPlot()->xAxis->label();  // and the texts beside the plot
        for (const QLabel* label : plot.findChildren<QLabel*>())
            if (!label->isHidden()) caption += QLatin1Char('\n') + label->text();
        return caption;
    };
    // Default plan: the tensor's layer runs INT8, fused with the next (the walk-through read "not quantized" beside
    // Effective INT8 as a contradiction).
    const QString fusedCaption = captionOf();
    QVERIFY2(fusedCaption.contains(QStringLiteral("it stays inside a fused INT8 layer")), qPrintable(fusedCaption));
    QList<NodeId> all;
    for (const Node& node : document.model()->graph().nodes()) all.append(node.id);
    document.setRequestedPrecision(all, Precision::Fp32);  // nothing quantized: the second note
    const QString caption = captionOf();
    QVERIFY2(caption.contains(QStringLiteral("Measured on 8 of the 64 samples, spread over the run: at calibration "
                                             "this tensor lay inside a layer TensorRT fuses")) &&
                 caption.contains(QStringLiteral("nothing depends on it.")) &&
                 caption.contains(QStringLiteral("Not quantized by this plan: nothing is clipped.")),
             qPrintable(caption));
    for (const char* jargon : {"counted on", "fused into its activation", "not quantized under this plan", "SQNR"})
        QVERIFY2(!caption.contains(QLatin1String(jargon)), jargon);
}

// The summary said "0 preparation steps", "TensorRT calibration cache (implicit path)" and "0 FP16 island nodes (0
// casts)".
void SmallItemsTest::exportSummarySpeaksPlainly() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    test::TempDir dir;
    for (TrtTyping typing : {TrtTyping::Weak, TrtTyping::Strong}) {
        const ui::ExportJob job{.model = document.sharedModel(),
                                .plan = document.plan(),
                                .calibration = document.calibration(),
                                .target = {TrtVersion::Trt10, typing},
                                .modelPath = QString::fromStdString(dir.file("digits.qdq.onnx"))};
        const QString summary = ui::runExport(job);
        QVERIFY2(!summary.startsWith(QStringLiteral("error")), qPrintable(summary));
        for (const char* jargon :
             {"preparation steps", "implicit path", "island", "Decisions:", "relies on", " 0 ", "(0 "})
            QVERIFY2(!summary.contains(QLatin1String(jargon)), qPrintable(summary));  // no zero counts either
        QVERIFY2(
            summary.contains(QStringLiteral("Calibration cache, for implicit quantization with TensorRT's "
                                            "calibrator (the Q/DQ model does not need it: its scales are explicit)")) &&
                summary.contains(QStringLiteral("Why each layer has its precision: ")),
            qPrintable(summary));
    }
}

QTEST_MAIN(SmallItemsTest)
#include "small_items_test.moc"
