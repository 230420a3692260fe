#include "ui/engine/engine_panel.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/engine/engine_overlay.h"
#include "ui/engine/engine_run.h"
#include "ui/model_document.h"
#include "ui/plural.h"

namespace ql::ui {

namespace {

QString upper(const std::string& text) {
    return QString::fromStdString(text).toUpper();
}

QString timeText(const EngineRun& run, size_t layer) {
    const auto time = run.report->layers[layer].timeMs;
    if (!time) return {};
    QString text = QStringLiteral("%1 ms").arg(*time, 0, 'f', 4);
    if (run.analysis.totalTimeMs && *run.analysis.totalTimeMs > 0)
        text += QStringLiteral(" (%1%)").arg(100.0 * *time / *run.analysis.totalTimeMs, 0, 'f', 1);
    return text;
}

// A reason reads from its start.
class TextEndElidingDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideRight;
    }
};

}  // namespace

QString engineSummaryText(const EngineRun& run) {
    const EngineAnalysis& analysis = run.analysis;
    QString text = QFileInfo(run.layersPath).fileName();
    text += run.profilePath.isEmpty() ? QObject::tr(" (no profile: no times)") : QObject::tr(" + profile");
    text += QObject::tr(": %1 layers").arg(run.report->layers.size());
    if (analysis.totalTimeMs) text += QObject::tr(", %1 ms per inference").arg(*analysis.totalTimeMs, 0, 'f', 4);
    if (analysis.coverage.byTime)
        text += QObject::tr(", INT8 %1% of the time").arg(100.0 * *analysis.coverage.byTime, 0, 'f', 1);
    text += QObject::tr(", %1 from the plan")
                .arg(counted(static_cast<qint64>(countPlanDifferences(analysis.mismatches).total()),
                             QObject::tr("1 difference"), QObject::tr("%1 differences")));
    const MappingCoverage& c = run.coverage;
    text += QObject::tr("; mapped %1 of %2 compute nodes (%3%) and %4 of %5 engine layers (%6%)")
                .arg(c.mappedNodes)
                .arg(c.computeNodes)
                .arg(100.0 * c.nodeShare(), 0, 'f', 0)
                .arg(c.mappedLayers)
                .arg(c.layers)
                .arg(100.0 * c.layerShare(), 0, 'f', 0);
    return text;
}

QString otherModelText(const EngineRun& run) {
    const std::string warning = otherModelWarning(run.coverage);
    return warning.empty() ? QString() : QObject::tr("The report %1.").arg(QString::fromStdString(warning));
}

EnginePanel::EnginePanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent), mDocument(document), mSummary(new QLabel(this)), mTree(new QTreeWidget(this)) {
    mSummary->setWordWrap(true);
    mSummary->setContentsMargins(6, 4, 6, 4);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mTree->setObjectName(QStringLiteral("EngineTree"));
    mTree->setHeaderLabels({tr("Node / layer"), tr("Engine"), tr("Why / time")});
    mTree->setAlternatingRowColors(true);
    mTree->setWordWrap(true);
    mTree->setTextElideMode(Qt::ElideMiddle);  // a layer path keeps its start and its end
    mTree->setItemDelegateForColumn(2, new TextEndElidingDelegate(mTree));
    mTree->header()->setStretchLastSection(true);
    connect(mTree, &QTreeWidget::itemClicked, this, &EnginePanel::itemActivated);
    connect(mTree, &QTreeWidget::itemActivated, this, &EnginePanel::itemActivated);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(mSummary);
    layout->addWidget(mTree, 1);
    connect(document, &ModelDocument::engineChanged, this, &EnginePanel::rebuild);
    connect(document, &ModelDocument::modelReplaced, this, &EnginePanel::rebuild);
    rebuild();
}

QTreeWidgetItem* EnginePanel::sectionItem(Section section) const {
    return mTree->topLevelItem(static_cast<int>(section));
}

void EnginePanel::rebuild() {
    mTree->clear();
    const auto run = mDocument->engineRun();
    const Model* model = mDocument->model();
    if (!run || !model) {
        mSummary->setText(
            tr("No engine report. Build with trtexec --profilingVerbosity=detailed --exportLayerInfo=L.json "
               "--exportProfile=P.json, then File > Import Engine Report... (or drop the JSON files here)."));
        return;
    }
    // Too little maps: the differences below would read as a perfect build, so the warning comes first, in red.
    const QString warning = otherModelText(*run);
    mSummary->setText(warning.isEmpty() ? engineSummaryText(*run)
                                        : QStringLiteral("<b style=\"color:#c62828\">%1</b><br>%2")
                                              .arg(warning.toHtmlEscaped(), engineSummaryText(*run).toHtmlEscaped()));
    addMismatches(*run, model->graph());
    addSlowestLayers(*run);
    mTree->expandAll();
    fitColumns();
}

void EnginePanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitColumns();
}

void EnginePanel::fitColumns() {
    if (mTree->topLevelItemCount() == 0) return;
    const int width = mTree->viewport()->width();
    mTree->resizeColumnToContents(1);
    mTree->resizeColumnToContents(0);
    // The times whole; the reasons wrap or elide (their tooltip has them whole).
    int times = 0;
    if (const QTreeWidgetItem* slowest = sectionItem(SlowestSection))
        for (int i = 0; i < slowest->childCount(); ++i)
            times = std::max(times, mTree->fontMetrics().horizontalAdvance(slowest->child(i)->text(2)) + 12);
    const int rest = std::max(0, width - mTree->columnWidth(1));
    mTree->setColumnWidth(0, std::min(mTree->columnWidth(0), std::max(rest / 2, rest - times)));
}

void EnginePanel::addMismatches(const EngineRun& run, const Graph& graph) {
    const auto& mismatches = run.analysis.mismatches;
    auto* section = new QTreeWidgetItem(
        mTree, {tr("Differences from the plan (%1)").arg(countPlanDifferences(mismatches).total())});
    section->setFirstColumnSpanned(true);
    for (const PrecisionMismatch& mismatch : mismatches) {
        const QString what = mismatch.kind == MismatchKind::Reformat
                                 ? tr("extra reformat")
                                 : tr("%1 → %2").arg(upper(mismatch.planned), upper(mismatch.actual));
        QString reason = QString::fromStdString(mismatch.reason);
        if (!mismatch.rule.empty()) reason += QStringLiteral(" [%1]").arg(QString::fromStdString(mismatch.rule));
        auto* item =
            new QTreeWidgetItem(section, {QString::fromStdString(graph.node(mismatch.node).name), what, reason});
        item->setData(0, kNodeRole, mismatch.node);
        for (int column = 0; column < 3; ++column) item->setToolTip(column, reason);
    }
}

void EnginePanel::addSlowestLayers(const EngineRun& run) {
    auto* section = new QTreeWidgetItem(
        mTree,
        {run.report->hasProfile() ? tr("Slowest layers") : tr("Slowest layers (no profile was imported: no times)")});
    section->setFirstColumnSpanned(true);
    for (size_t layer : run.analysis.topLayers) {
        const QString name = QString::fromStdString(run.report->layers[layer].name);
        const QString precision =
            QString::fromLatin1(enginePrecisionName(run.analysis.layerPrecisions[layer])).toUpper();
        auto* item = new QTreeWidgetItem(section, {name, precision, timeText(run, layer)});
        item->setData(0, kNodeRole, run.nodeOfLayer(layer));
        item->setToolTip(0, name);
    }
}

void EnginePanel::itemActivated(QTreeWidgetItem* item) {
    if (!item || !item->data(0, kNodeRole).isValid()) return;
    const NodeId node = item->data(0, kNodeRole).toInt();
    if (node != kNoId) emit nodeSelected(node);
}

}  // namespace ql::ui
