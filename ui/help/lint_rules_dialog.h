#pragma once
// Help > TensorRT Lint Rules: every rule of the registry (core/lint/rule_registry.h), the same table
// docs/lint-rules.md is generated from, listed by id with its severity; the selected rule's explanation, versions
// and source beside the list (ruleHtml, as the findings dock shows it).
#include <QDialog>
#include <QStringList>

class QListWidget;
class QTextBrowser;

namespace ql::ui {

class LintRulesDialog : public QDialog {
    Q_OBJECT
public:
    explicit LintRulesDialog(QWidget* parent = nullptr);

    QStringList ruleIds() const;  // in the order listed
    // Selects `ruleId` and explains it; false when it is not listed.
    bool showRule(const QString& ruleId);
    QTextBrowser* explanation() const { return mExplanation; }

private:
    QListWidget* mRules;
    QTextBrowser* mExplanation;
};

}  // namespace ql::ui
