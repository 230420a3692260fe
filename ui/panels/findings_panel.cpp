#include "ui/panels/findings_panel.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <map>

#include "ui/model_document.h"
#include "ui/panels/float_import_offer.h"
#include "ui/panels/rule_text.h"

namespace ql::ui {

namespace {

enum Role { NodeRole = Qt::UserRole, TensorRole, RuleRole, FindingRole };

QString html(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

// Findings of one rule, in report order (errors first).
struct RuleGroup {
    std::vector<const Finding*> findings;
    Severity worst = Severity::Info;
};

std::vector<std::pair<std::string, RuleGroup>> groupByRule(const std::vector<Finding>& findings) {
    std::vector<std::pair<std::string, RuleGroup>> groups;
    std::map<std::string, size_t> index;
    for (const Finding& f : findings) {
        auto [it, added] = index.try_emplace(f.ruleId, groups.size());
        if (added) groups.push_back({f.ruleId, {{}, f.severity}});
        RuleGroup& group = groups[it->second].second;
        group.findings.push_back(&f);
        if (f.severity < group.worst) group.worst = f.severity;
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return a.second.worst < b.second.worst; });
    return groups;
}

QString findingText(const Finding& f) {
    QString text = QObject::tr("<p><b>%1</b> (%2): %3</p>").arg(html(f.nodeName), html(f.opType), html(f.message));
    if (!f.fix.empty()) text += QObject::tr("<p><b>Fix:</b> %1</p>").arg(html(f.fix));
    if (!f.tensor.empty())
        text += QObject::tr("<p>Tensor <b>%1</b>: its histogram shows every method's range.</p>").arg(html(f.tensor));
    return text;
}

}  // namespace

FindingsPanel::FindingsPanel(ModelDocument* document, QWidget* parent) : QWidget(parent), mDocument(document) {
    mTree = new QTreeWidget(this);
    mTree->setHeaderLabels({tr("Finding"), tr("Node")});
    mTree->setWordWrap(true);
    mTree->setAlternatingRowColors(true);
    mTree->header()->setStretchLastSection(true);
    mTree->setColumnWidth(0, 260);
    mTree->setContextMenuPolicy(Qt::CustomContextMenu);
    mExplanation = new QTextBrowser(this);
    mExplanation->setOpenExternalLinks(true);
    mExplanation->setPlaceholderText(tr("Click a rule or a finding to read what it means and how to fix it."));
    mShowSilenced = new QCheckBox(tr("Show silenced rules"), this);
    mShowSilenced->setChecked(true);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(mTree);
    splitter->addWidget(mExplanation);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // A model TensorRT cannot parse at all (ONNX Runtime's operator form): the way out, above its findings.
    mFloatImport = new FloatImportOffer(mDocument, this);
    layout->addWidget(mFloatImport);
    layout->addWidget(splitter, 1);
    layout->addWidget(mShowSilenced);

    connect(mTree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) { explain(item); });
    connect(mTree, &QTreeWidget::itemClicked, this, &FindingsPanel::activate);
    connect(mTree, &QTreeWidget::itemExpanded, this, &FindingsPanel::listUnopenedFindings);
    connect(mTree, &QWidget::customContextMenuRequested, this, &FindingsPanel::showContextMenu);
    connect(mShowSilenced, &QCheckBox::toggled, this, &FindingsPanel::rebuild);
    connect(mDocument, &ModelDocument::lintChanged, this, &FindingsPanel::rebuild);
    connect(mDocument, &ModelDocument::silencedRulesChanged, this, &FindingsPanel::rebuild);
    rebuild();
}

QStringList FindingsPanel::ruleRows() const {
    QStringList rows;
    for (int i = 0; i < mTree->topLevelItemCount(); ++i) rows << mTree->topLevelItem(i)->data(0, RuleRole).toString();
    return rows;
}

void FindingsPanel::showRule(const QString& ruleId) {
    for (int i = 0; i < mTree->topLevelItemCount(); ++i)
        if (mTree->topLevelItem(i)->data(0, RuleRole).toString() == ruleId)
            mTree->setCurrentItem(mTree->topLevelItem(i));
}

void FindingsPanel::rebuild() {
    if (mDocument->isReplacingModel()) return;  // once, on the replacement's last signal
    const QString current = mTree->currentItem() ? mTree->currentItem()->data(0, RuleRole).toString() : QString();
    mTree->clear();
    mExplanation->clear();
    if (!mDocument->model()) return;
    const QStringList silenced = mDocument->silencedRules();
    for (const auto& [ruleId, group] : groupByRule(mDocument->lint().findings)) {
        const QString rule = QString::fromStdString(ruleId);
        const bool quiet = silenced.contains(rule);
        if (quiet && !mShowSilenced->isChecked()) continue;
        auto* row = new QTreeWidgetItem(mTree);
        row->setText(
            0, tr("%1 %2 (%3)").arg(QString::fromUtf8(severityName(group.worst)), rule).arg(group.findings.size()) +
                   (quiet ? tr(" \u2014 silenced") : QString()));
        row->setData(0, RuleRole, rule);
        row->setFirstColumnSpanned(true);
        QFont font = row->font(0);
        font.setBold(!quiet);
        row->setFont(0, font);
        if (quiet) row->setForeground(0, palette().brush(QPalette::Disabled, QPalette::Text));
        // A rule with thousands of findings (a 100k-node graph) lists them when opened: made here, they held up
        // the window for a third of a second per rebuild.
        if (group.findings.size() > kListedUnopened)
            row->setChildIndicatorPolicy(QTreeWidgetItem::ShowIndicator);
        else
            addFindingRows(row, group.findings);
        if (group.findings.size() <= 3 && !quiet) row->setExpanded(true);
    }
    if (!current.isEmpty()) showRule(current);
}

void FindingsPanel::addFindingRows(QTreeWidgetItem* row, const std::vector<const Finding*>& findings) const {
    const QString rule = row->data(0, RuleRole).toString();
    for (const Finding* f : findings) {
        auto* item = new QTreeWidgetItem(row);
        item->setText(0, QString::fromStdString(f->message));
        item->setText(1, QString::fromStdString(f->nodeName));
        item->setToolTip(0, QString::fromStdString(f->message + "\n\nFix: " + f->fix));
        item->setData(0, NodeRole, f->node);
        item->setData(0, TensorRole, QString::fromStdString(f->tensor));
        item->setData(0, RuleRole, rule);
        item->setData(0, FindingRole,
                      QVariant::fromValue(static_cast<qulonglong>(f - mDocument->lint().findings.data())));
    }
}

void FindingsPanel::listUnopenedFindings(QTreeWidgetItem* row) const {
    if (row->parent() || row->childCount() > 0) return;
    const std::string rule = row->data(0, RuleRole).toString().toStdString();
    std::vector<const Finding*> findings;
    for (const Finding& f : mDocument->lint().findings)
        if (f.ruleId == rule) findings.push_back(&f);
    addFindingRows(row, findings);
}

void FindingsPanel::explain(QTreeWidgetItem* item) {
    if (!item) {
        mExplanation->clear();
        return;
    }
    QString text = ruleHtml(item->data(0, RuleRole).toString().toStdString());
    const QVariant index = item->data(0, FindingRole);
    const auto& findings = mDocument->lint().findings;
    if (index.isValid() && index.toULongLong() < findings.size()) text += findingText(findings[index.toULongLong()]);
    if (mDocument->silencedRules().contains(item->data(0, RuleRole).toString()))
        text +=
            tr("<p><i>Silenced in this project: its findings leave the graph. Right-click to show it "
               "again.</i></p>");
    mExplanation->setHtml(text);
}

void FindingsPanel::activate(QTreeWidgetItem* item) {
    if (!item || !item->data(0, FindingRole).isValid()) return;
    const int node = item->data(0, NodeRole).toInt();
    if (node != kNoId) emit nodeSelected(node);
    // A calibration finding is about one tensor: its histogram shows the method lines and their numbers.
    if (const QString tensor = item->data(0, TensorRole).toString(); !tensor.isEmpty()) emit tensorSelected(tensor);
}

void FindingsPanel::showContextMenu(const QPoint& pos) {
    const QTreeWidgetItem* item = mTree->itemAt(pos);
    if (!item) return;
    const QString rule = item->data(0, RuleRole).toString();
    const bool quiet = mDocument->silencedRules().contains(rule);
    QMenu menu(this);
    menu.addAction(quiet ? tr("Show '%1' Again").arg(rule) : tr("Silence '%1' in This Project").arg(rule), this,
                   [this, rule, quiet] { mDocument->setRuleSilenced(rule, !quiet); });
    menu.exec(mTree->viewport()->mapToGlobal(pos));
}

}  // namespace ql::ui
