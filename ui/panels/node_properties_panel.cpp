#include "ui/panels/node_properties_panel.h"

#include "ui/plots/plot_widget.h"

#include <onnx/onnx_pb.h>
#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "core/engine/engine_mapping.h"
#include "ui/engine/engine_run.h"
#include "ui/graph/node_style.h"
#include "ui/model_document.h"

namespace ql::ui {

namespace {

constexpr int kWeightIndexRole = Qt::UserRole;
constexpr int kTooltipElements = 1024;

QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const QString& name, const QString& value,
                        const QString& toolTip = {}) {
    auto* item = new QTreeWidgetItem(parent, {name, value});
    item->setToolTip(1, toolTip.isEmpty() ? value : toolTip);
    return item;
}

QString countText(int64_t n) {
    return QLocale().toString(static_cast<qlonglong>(n));
}

}  // namespace

NodePropertiesPanel::NodePropertiesPanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent),
      mDocument(document),
      mTree(new QTreeWidget(this)),
      mPlotBox(new QWidget(this)),
      mPlotTitle(new QLabel(mPlotBox)),
      mPlot(new QCustomPlot(mPlotBox)) {
    mTree->setObjectName(QStringLiteral("NodePropertiesTree"));
    mTree->setColumnCount(2);
    mTree->setHeaderLabels({tr("Property"), tr("Value")});
    mTree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    mTree->setAlternatingRowColors(true);
    mTree->setUniformRowHeights(false);
    mTree->setWordWrap(true);
    mTree->header()->setStretchLastSection(true);
    mTree->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* copy = new QAction(tr("&Copy"), mTree);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(selectedText()); });
    mTree->addAction(copy);
    connect(mTree, &QTreeWidget::currentItemChanged, this, &NodePropertiesPanel::itemSelected);

    mPlotTitle->setContentsMargins(6, 4, 6, 0);
    mPlot->setMinimumHeight(110);
    mPlot->xAxis->setLabel(tr("value"));
    mPlot->yAxis->setLabel(tr("count"));
    QFont small = mPlot->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (QCPAxis* axis : {mPlot->xAxis, mPlot->yAxis}) {
        axis->setTickLabelFont(small);
        axis->setLabelFont(small);
    }
    applyPlotPalette(mPlot, palette());
    auto* bars = new QCPBars(mPlot->xAxis, mPlot->yAxis);
    bars->setPen(Qt::NoPen);
    bars->setBrush(QColor(0x42, 0x85, 0xf4, 200));

    // The histogram under the tree, in a splitter so the reader chooses how much of each to see.
    auto* plotLayout = new QVBoxLayout(mPlotBox);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->setSpacing(0);
    plotLayout->addWidget(mPlotTitle);
    plotLayout->addWidget(mPlot, 1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(mTree);
    splitter->addWidget(mPlotBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(&mWeightWatcher, &QFutureWatcher<std::vector<WeightSummary>>::finished, this,
            &NodePropertiesPanel::weightsFinished);
    connect(document, &ModelDocument::modelAboutToBeReplaced, this, &NodePropertiesPanel::clear);
    connect(document, &ModelDocument::lintChanged, this, &NodePropertiesPanel::rebuild);  // after every plan change too
    // A big graph's edit shows at once, its effective precisions and findings marked as updating (shownPlan()).
    connect(document, &ModelDocument::planChanged, this, [this] {
        if (mDocument->isRelintPending()) rebuild();
    });
    connect(document, &ModelDocument::engineChanged, this, &NodePropertiesPanel::rebuild);
    // The minimum with the weight histogram shown, whether it is or not: it shows for nodes with constant inputs
    // only, and the grown minimum made the window take the height from the docks below on a click (issue 29).
    setMinimumHeight(minimumSizeHint().height());
    clear();
}

void NodePropertiesPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    applyPlotPalette(mPlot, palette());
    mPlot->replot();
}

NodePropertiesPanel::~NodePropertiesPanel() {
    mWeightWatcher.waitForFinished();
}

void NodePropertiesPanel::clear() {
    mNode = kNoId;
    mBody.reset();
    mBodyPath.clear();
    mBodyPrefix.clear();
    mWeightNode = kNoId;
    mWeightGraph = nullptr;
    mWeights.clear();
    mWeightsReady = false;
    rebuild();
}

void NodePropertiesPanel::showNode(NodeId node) {
    const Model* model = mDocument->model();
    if (!model || node < 0 || static_cast<size_t>(node) >= model->graph().nodes().size()) {
        clear();
        return;
    }
    if (node == mNode && !mBody) return;
    mBody.reset();
    mBodyPath.clear();
    mBodyPrefix.clear();
    startNode(node, model->graph(), mDocument->sharedModel());
}

void NodePropertiesPanel::showBodyNode(std::shared_ptr<const SubgraphModel> body, NodeId node, const BodyPath& path) {
    if (!body || path.empty() || node < 0 || static_cast<size_t>(node) >= body->graph.nodes().size()) {
        clear();
        return;
    }
    if (body == mBody && node == mNode) return;
    mBody = std::move(body);
    mBodyPath = path;
    mBodyPrefix = QString::fromStdString(bodyPathPrefix(path));
    startNode(node, mBody->graph, mBody);
}

void NodePropertiesPanel::startNode(NodeId node, const Graph& graph, std::shared_ptr<const void> owner) {
    mNode = node;
    mWeights.clear();
    mShownWeight = -1;
    const std::vector<ValueId> ids = constantInputs(graph, graph.node(node));
    mWeightsReady = ids.empty();
    mWeightNode = node;
    mWeightGraph = &graph;
    if (!ids.empty()) {
        // The task keeps the graph alive even if the document loads another model, or the body closes, meanwhile.
        mWeightWatcher.setFuture(QtConcurrent::run([owner = std::move(owner), graph = &graph, ids] {
            std::vector<WeightSummary> summaries;
            for (ValueId id : ids) summaries.push_back(summarizeWeight(*graph, id));
            return summaries;
        }));
    }
    rebuild();
    if (mWeightsReady) emit weightsSummarized();
}

const Graph* NodePropertiesPanel::shownGraph() const {
    if (mBody) return &mBody->graph;
    return mDocument->model() ? &mDocument->model()->graph() : nullptr;
}

void NodePropertiesPanel::weightsFinished() {
    if (mWeightWatcher.future().isCanceled() || mWeightNode != mNode || mNode == kNoId) return;
    if (mWeightGraph != shownGraph()) return;
    std::vector<WeightSummary> summaries = mWeightWatcher.result();
    const auto& inputs = shownGraph()->node(mNode).inputs;
    // A stale result (another node's) is recognised by its values.
    for (const WeightSummary& s : summaries)
        if (std::find(inputs.begin(), inputs.end(), s.value) == inputs.end()) return;
    mWeights = std::move(summaries);
    mWeightsReady = true;
    rebuild();
    emit weightsSummarized();
}

void NodePropertiesPanel::rebuild() {
    // A plan edit rebuilds the same node's rows: keep the reader's place.
    const int scroll = mTree->verticalScrollBar()->value();
    mTree->clear();
    const Graph* graph = shownGraph();
    if (!graph || mNode == kNoId) {
        auto* hint = new QTreeWidgetItem(mTree, {tr("Select a node in the graph or the precision table.")});
        hint->setFirstColumnSpanned(true);
        hint->setFlags(Qt::ItemIsEnabled);
        showHistogram(-1);
        return;
    }
    const Node& node = graph->node(mNode);
    addNodeSection(*graph, node);
    if (mBody) {
        addBodyPrecisionSection(node);
    } else {
        addPrecisionSection(node);
        addEngineSection(node);
    }
    addAttributeSection(node);
    addValueSection(*graph, node, true);
    addValueSection(*graph, node, false);
    addWeightSection();
    addFindingSection(node);
    mTree->expandAll();
    mTree->resizeColumnToContents(0);
    // A long name in the first column (a body's weight, "If_0_then_branch__Inline_0__stft.forward_basis_buffer") took
    // the whole width and squeezed the values to a few letters: it gets at most half, elided, with its tooltip.
    mTree->setColumnWidth(0, std::min(mTree->columnWidth(0), std::max(80, mTree->viewport()->width() / 2)));
    mTree->verticalScrollBar()->setValue(scroll);
    showHistogram(mShownWeight >= 0 ? mShownWeight : (mWeights.empty() ? -1 : 0));
}

QTreeWidgetItem* NodePropertiesPanel::section(const QString& title) {
    auto* item = new QTreeWidgetItem(mTree, {title});
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    item->setFirstColumnSpanned(true);
    return item;
}

void NodePropertiesPanel::addNodeSection(const Graph& graph, const Node& node) {
    QTreeWidgetItem* s = section(tr("Node"));
    addRow(s, tr("Name"),
           mBodyPrefix + QString::fromStdString(node.name) + (node.nameGenerated ? tr(" (generated)") : QString()));
    addRow(s, tr("Op"), QString::fromStdString(node.opType));
    const QString domain = node.domain.empty() ? QStringLiteral("ai.onnx") : QString::fromStdString(node.domain);
    addRow(s, tr("Domain"), tr("%1 (opset %2)").arg(domain).arg(graph.opsetVersion(node.domain)));
    addRow(s, tr("Index"), QString::number(node.id));
    if (node.cost.macs > 0)
        addRow(s, tr("MACs"), countText(node.cost.macs) + (node.cost.approximate ? tr(" (approximate)") : QString()));
}

// While a big graph's edit is checked against TensorRT's rules (ModelDocument::isRelintPending()).
QString NodePropertiesPanel::updatingNote() const {
    return mDocument->isRelintPending() ? tr(" (updating: TensorRT's rules are being applied)") : QString();
}

void NodePropertiesPanel::addPrecisionSection(const Node& node) {
    const PrecisionPlan& plan = mDocument->shownPlan();
    QTreeWidgetItem* s = section(tr("Precision"));
    addRow(s, tr("Requested"), precisionLabel(plan.requested(node.id)));
    addRow(s, tr("Effective"), precisionLabel(plan.effective(node.id)) + updatingNote());
    if (!plan.explanation(node.id).empty()) addRow(s, tr("Reason"), QString::fromStdString(plan.explanation(node.id)));
}

// A body's layers follow the body's own plan (PrecisionPlan::bodies); a body without one runs float.
void NodePropertiesPanel::addBodyPrecisionSection(const Node& node) {
    QTreeWidgetItem* s = section(tr("Precision"));
    const PrecisionPlan* plan = bodyPlan(mDocument->shownPlan(), mBodyPath);
    if (!plan || static_cast<size_t>(node.id) >= plan->size()) {
        addRow(s, tr("Requested"), precisionLabel(Precision::Fp32));
        addRow(s, tr("Effective"), precisionLabel(Precision::Fp32));
        addRow(s, tr("Plan"),
               tr("none yet: the body runs in FP32 until one of its layers is set in the precision table"));
        return;
    }
    addRow(s, tr("Requested"), precisionLabel(plan->requested(node.id)));
    addRow(s, tr("Effective"), precisionLabel(plan->effective(node.id)) + updatingNote());
    if (!plan->explanation(node.id).empty())
        addRow(s, tr("Reason"), QString::fromStdString(plan->explanation(node.id)));
}

void NodePropertiesPanel::addAttributeSection(const Node& node) {
    const int count = node.proto ? node.proto->attribute_size() : 0;
    QTreeWidgetItem* s = section(tr("Attributes (%1)").arg(count));
    if (count == 0) addRow(s, tr("(none)"), tr("every attribute has its default value"));
    for (int i = 0; i < count; ++i) {
        const onnx::AttributeProto& a = node.proto->attribute(i);
        addRow(s, QString::fromStdString(a.name()), attributeText(a), attributeText(a, kTooltipElements));
    }
}

void NodePropertiesPanel::addValueSection(const Graph& graph, const Node& node, bool inputs) {
    const std::vector<ValueId>& ids = inputs ? node.inputs : node.outputs;
    QTreeWidgetItem* s = section(inputs ? tr("Inputs (%1)").arg(ids.size()) : tr("Outputs (%1)").arg(ids.size()));
    for (size_t slot = 0; slot < ids.size(); ++slot) {
        QString formal = inputs ? formalInputName(graph, node, slot) : formalOutputName(graph, node, slot);
        if (formal.isEmpty()) formal = QStringLiteral("%1[%2]").arg(inputs ? tr("input") : tr("output")).arg(slot);
        if (ids[slot] == kNoId) {
            addRow(s, formal, tr("(omitted)"));
            continue;
        }
        const Value& v = graph.value(ids[slot]);
        QString text = QString::fromStdString(v.name) + QStringLiteral(": ") + tensorTypeText(v.type);
        if (v.initializer >= 0) text += tr(" (initializer)");
        if (v.isGraphInput) text += tr(" (graph input)");
        if (v.isGraphOutput) text += tr(" (graph output)");
        addRow(s, formal, text);
    }
}

void NodePropertiesPanel::addWeightSection() {
    if (mWeightsReady && mWeights.empty()) return;
    QTreeWidgetItem* s = section(tr("Weights"));
    if (!mWeightsReady) {
        addRow(s, tr("Computing..."), QString());
        return;
    }
    for (size_t i = 0; i < mWeights.size(); ++i) {
        const WeightSummary& w = mWeights[i];
        QTreeWidgetItem* item =
            addRow(s, w.name, QStringLiteral("%1 %2").arg(QString::fromLatin1(dataTypeName(w.dtype)), w.shape));
        item->setData(0, kWeightIndexRole, static_cast<int>(i));
        if (!w.error.isEmpty()) {
            addRow(item, tr("Values"), w.error);
            continue;
        }
        addRow(item, tr("Elements"), countText(w.count));
        addRow(item, tr("Min / max"), QStringLiteral("%1 / %2").arg(w.min, 0, 'g', 6).arg(w.max, 0, 'g', 6));
        addRow(item, tr("Mean / std"), QStringLiteral("%1 / %2").arg(w.mean, 0, 'g', 6).arg(w.std, 0, 'g', 6));
        if (w.nonFinite > 0) addRow(item, tr("NaN / inf"), countText(w.nonFinite));
    }
}

void NodePropertiesPanel::addFindingSection(const Node& node) {
    QTreeWidgetItem* s = nullptr;
    // A body's findings are the control-flow node's, named by path: this node's, or those of bodies inside it.
    const std::string path = mBodyPrefix.toStdString() + node.name;
    auto concerns = [&](const Finding& f) {
        if (!mBody) return f.node == node.id;
        return f.nodeName == path || (!node.subgraphs.empty() && f.nodeName.starts_with(path + "/"));
    };
    for (const Finding& f : mDocument->shownLint().findings) {
        if (!concerns(f)) continue;
        if (!s) s = section(tr("TensorRT findings") + updatingNote());
        const QString message = QString::fromStdString(f.message);
        QTreeWidgetItem* item = addRow(s, QString::fromUtf8(severityName(f.severity)), message,
                                       QString::fromStdString(f.ruleId) + QStringLiteral(": ") + message);
        item->setForeground(0, severityColor(f.severity));
        addRow(item, tr("Fix"), QString::fromStdString(f.fix));
        addRow(item, tr("Rule"), QString::fromStdString(f.ruleId));
    }
}

// The engine layer(s) holding the node, as the imported engine report says, and how they differ from the plan.
void NodePropertiesPanel::addEngineSection(const Node& node) {
    const auto run = mDocument->engineRun();
    if (!run) return;
    QTreeWidgetItem* s = section(tr("TensorRT engine"));
    const NodeRun* nodeRun = run->run(node.id);
    if (!nodeRun) {
        addRow(s, tr("Layer"), tr("none: no compute layer of the engine holds this node"));
        return;
    }
    addRow(s, tr("Precision"), QString::fromLatin1(enginePrecisionName(nodeRun->precision)).toUpper());
    if (nodeRun->timeMs) addRow(s, tr("Time"), tr("%1 ms (its share of its layers)").arg(*nodeRun->timeMs, 0, 'f', 4));
    for (size_t index : nodeRun->layers) {
        const EngineLayer& layer = run->report->layers[index];
        QTreeWidgetItem* item =
            addRow(s, layer.isReformat() ? tr("Reformat") : tr("Layer"), QString::fromStdString(layer.name));
        if (!layer.type.empty()) addRow(item, tr("Type"), QString::fromStdString(layer.type));
        if (layer.timeMs) addRow(item, tr("Layer time"), tr("%1 ms").arg(*layer.timeMs, 0, 'f', 4));
        if (!layer.tactic.empty()) addRow(item, tr("Tactic"), QString::fromStdString(layer.tactic));
        if (const char* source = mappingSourceName(run->mapping.layers[index].source); *source)
            addRow(item, tr("Found by"), QString::fromLatin1(source));
    }
    for (const PrecisionMismatch* mismatch : run->mismatchesOf(node.id)) {
        QTreeWidgetItem* item = addRow(s, tr("Differs from plan"), QString::fromStdString(mismatch->reason));
        item->setForeground(0, mismatchColor());
    }
}

void NodePropertiesPanel::itemSelected(QTreeWidgetItem* item) {
    for (; item; item = item->parent()) {
        const QVariant index = item->data(0, kWeightIndexRole);
        if (index.isValid()) {
            mShownWeight = index.toInt();
            showHistogram(mShownWeight);
            return;
        }
    }
}

void NodePropertiesPanel::showHistogram(int weightIndex) {
    const bool show = weightIndex >= 0 && static_cast<size_t>(weightIndex) < mWeights.size() &&
                      !mWeights[static_cast<size_t>(weightIndex)].bins.empty();
    mPlotBox->setVisible(show);
    auto* bars = static_cast<QCPBars*>(mPlot->plottable(0));
    if (!show) {
        bars->data()->clear();
        return;
    }
    const WeightSummary& w = mWeights[static_cast<size_t>(weightIndex)];
    mPlotTitle->setText(tr("Histogram of %1").arg(w.name));
    QVector<double> keys, values;
    for (size_t i = 0; i < w.bins.size(); ++i) {
        keys.append(w.binLow + (static_cast<double>(i) + 0.5) * w.binWidth);
        values.append(static_cast<double>(w.bins[i]));
    }
    bars->setWidth(w.binWidth);
    bars->setData(keys, values, true);
    mPlot->rescaleAxes();
    mPlot->yAxis->setRangeLower(0);
    mPlot->replot();
}

QString NodePropertiesPanel::selectedText() const {
    QStringList lines;
    for (QTreeWidgetItem* item : mTree->selectedItems()) {
        const QString value = item->toolTip(1).isEmpty() ? item->text(1) : item->toolTip(1);
        lines << (value.isEmpty() ? item->text(0) : item->text(0) + QStringLiteral(": ") + value);
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ql::ui
