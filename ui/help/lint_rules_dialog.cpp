#include "ui/help/lint_rules_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "core/lint/rule_registry.h"
#include "ui/panels/rule_text.h"

namespace ql::ui {

LintRulesDialog::LintRulesDialog(QWidget* parent)
    : QDialog(parent), mRules(new QListWidget(this)), mExplanation(new QTextBrowser(this)) {
    setWindowTitle(tr("TensorRT Lint Rules"));
    QStringList ids;
    for (const auto& rule : lintRules()) ids.append(QString::fromUtf8(rule->info().id.data(), rule->info().id.size()));
    std::sort(ids.begin(), ids.end());
    mRules->addItems(ids);
    mExplanation->setOpenExternalLinks(true);
    connect(mRules, &QListWidget::currentTextChanged, this,
            [this](const QString& id) { mExplanation->setHtml(ruleHtml(id.toStdString())); });
    auto* splitter = new QSplitter(this);
    splitter->addWidget(mRules);
    splitter->addWidget(mExplanation);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({280, 520});
    auto* note = new QLabel(tr("What QuantLens checks before TensorRT builds the engine (the findings dock, and "
                               "quantlens-cli lint in a pipeline). Silence a rule from the findings' context menu."),
                            this);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
    resize(820, 560);
    if (mRules->count() > 0) mRules->setCurrentRow(0);
}

QStringList LintRulesDialog::ruleIds() const {
    QStringList ids;
    for (int row = 0; row < mRules->count(); ++row) ids.append(mRules->item(row)->text());
    return ids;
}

bool LintRulesDialog::showRule(const QString& ruleId) {
    const QList<QListWidgetItem*> items = mRules->findItems(ruleId, Qt::MatchExactly);
    if (items.isEmpty()) return false;
    mRules->setCurrentItem(items.front());
    return true;
}

}  // namespace ql::ui
