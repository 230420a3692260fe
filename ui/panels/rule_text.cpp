#include "ui/panels/rule_text.h"

#include <QObject>
#include <QStringList>

#include "core/lint/rule_registry.h"

namespace ql::ui {

namespace {

QString html(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())).toHtmlEscaped();
}

// "8.6, 10.x, 11.x": the versions of a rule's TrtVersionMask.
QString versionsText(const LintRule& rule) {
    QStringList versions;
    for (TrtVersion version : {TrtVersion::Trt86, TrtVersion::Trt10, TrtVersion::Trt11})
        if (rule.appliesTo(version)) versions.append(QString::fromUtf8(trtVersionName(version)));
    return versions.join(QStringLiteral(", "));
}

}  // namespace

QString ruleHtml(const std::string& ruleId) {
    const LintRule* rule = findLintRule(ruleId);
    if (!rule) return QObject::tr("<h3>%1</h3>").arg(html(ruleId));
    const RuleInfo& info = rule->info();
    QString text = QObject::tr("<h3>%1</h3><p><i>TensorRT %2; at most %3</i></p><p>%4</p>")
                       .arg(html(ruleId), versionsText(*rule), QString::fromUtf8(severityName(info.severity)),
                            html(info.explanation));
    const QString source = html(info.source);
    if (source.startsWith(QStringLiteral("http")))
        text += QObject::tr("<p>Source: <a href=\"%1\">%1</a></p>").arg(source);
    else if (!source.isEmpty())
        text += QObject::tr("<p>Source: %1</p>").arg(source);
    return text;
}

}  // namespace ql::ui
