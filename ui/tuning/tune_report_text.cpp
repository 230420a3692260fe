#include "ui/tuning/tune_report_text.h"

#include <QCoreApplication>
#include <QStringList>

#include "ui/model_document.h"

namespace ql::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("TuneReport", text);
}

QString nodeName(const Graph& graph, NodeId node) {
    return node == kNoId ? QString() : QString::fromStdString(graph.node(node).name);
}

// Output SQNRs are capped (kOutputSqnrCapDb): at the cap the outputs did not change.
QString decibels(double db) {
    return db >= kOutputSqnrCapDb ? tr("exact") : QStringLiteral("%1 dB").arg(db, 0, 'f', 1);
}

QString stepLine(const TuneStepRow& row, const TuneTarget& target) {
    QString line =
        QStringLiteral("%1 %2: %3, %4")
            .arg(row.actionText, row.change, row.kept ? tr("kept") : tr("rejected"), tuneValueText(target, row.value));
    if (!row.why.isEmpty()) line += QStringLiteral(" (") + row.why + QLatin1Char(')');
    return line;
}

}  // namespace

QString tuneValueText(const TuneTarget& target, double value) {
    switch (target.kind()) {
        case TuneTarget::Kind::AccuracyDrop:
            return tr("%1 points").arg(value, 0, 'f', 2);
        case TuneTarget::Kind::Top1Agreement:
            return QStringLiteral("%1 %").arg(value, 0, 'f', 2);
        case TuneTarget::Kind::OutputSqnr:
            return decibels(value);
        case TuneTarget::Kind::Metric:
        case TuneTarget::Kind::MetricDrop:
            break;
    }
    return QString::number(value, 'g', 5);
}

std::vector<TuneStepRow> describeSteps(const TuneReport& report) {
    std::vector<TuneStepRow> rows;
    for (size_t i = 0; i < report.steps.size(); ++i) {
        const TuneStep& s = report.steps[i];
        TuneStepRow row;
        row.number = static_cast<int>(i) + 1;
        row.action = s.action;
        row.actionText = QString::fromUtf8(tuneActionName(s.action));
        row.layer = s.layer == kNoId ? QString() : QString::fromStdString(s.layerName);
        if (s.action == TuneStep::Action::Method)
            row.change = QStringLiteral("%1 \u2192 %2")
                             .arg(QString::fromStdString(s.tensor), QString::fromUtf8(amaxMethodKey(s.method)));
        else if (s.action == TuneStep::Action::Fallback || s.action == TuneStep::Action::GiveBack)
            row.change = QString::fromUtf8(precisionName(s.precision));
        row.value = report.target.valueOf(s.score);
        row.kept = s.kept;
        row.samples = s.samples;
        row.why = QString::fromStdString(s.why);
        row.predictedMs = s.predictedMs;
        if (s.action == TuneStep::Action::Baseline) row.why = tr("the start plan");
        if (s.action == TuneStep::Action::Confirm)
            row.why = tr("the target held on the subset: checked on all samples");
        if (s.action == TuneStep::Action::GiveBack)
            row.why = s.kept ? tr("the target still holds with the layer back in INT8")
                             : tr("the target fails with the layer back in INT8");
        rows.push_back(std::move(row));
    }
    return rows;
}

std::map<NodeId, LayerRemedy> layerRemedies(const Graph& graph, const TuneReport& report) {
    const std::vector<TuneStepRow> rows = describeSteps(report);
    std::map<NodeId, LayerRemedy> remedies;
    for (size_t u = 0; u < report.units.size(); ++u) {
        const TuneUnit& unit = report.units[u];
        if (!unit.body.empty()) continue;  // the remedies are by node of the main graph
        LayerRemedy remedy;
        remedy.outputSqnrDb = unit.outputSqnrDb;
        remedy.rank = static_cast<int>(u) + 1;
        QStringList inputs, why;
        bool givenBack = false, fallbackRejected = false;
        for (size_t i = 0; i < report.steps.size(); ++i) {
            const TuneStep& s = report.steps[i];
            if (s.layer != unit.layer || !s.body.empty()) continue;
            why.append(stepLine(rows[i], report.target));
            fallbackRejected |= s.action == TuneStep::Action::Fallback && !s.kept;
            if (!s.kept) continue;
            givenBack |= s.action == TuneStep::Action::GiveBack;
            if (s.action == TuneStep::Action::Method) {
                if (const auto method = report.plan.tensorMethod(s.tensor))
                    inputs.append(
                        tr("input %1: %2")
                            .arg(QString::fromStdString(s.tensor), QString::fromUtf8(amaxMethodKey(*method))));
            }
        }
        const Precision precision = report.plan.requested(unit.layer);
        QString what = QString::fromUtf8(precisionName(precision));
        if (precision == Precision::Int8 && givenBack) what += tr(" (given back)");
        if (precision == Precision::Int8 && fallbackRejected && !givenBack) what += tr(" (fallback rejected)");
        if (precision == Precision::Int8 && !inputs.isEmpty()) what = inputs.join(QStringLiteral(", "));
        remedy.text = tr("%1: %2 alone at the outputs").arg(what, decibels(unit.outputSqnrDb));
        remedy.why =
            why.isEmpty() ? tr("not tried: the target held before this layer's turn") : why.join(QLatin1Char('\n'));
        for (NodeId node : unit.nodes) {
            LayerRemedy entry = remedy;
            if (node != unit.layer) entry.text = tr("%1 (fused into %2)").arg(what, nodeName(graph, unit.layer));
            remedies[node] = std::move(entry);
        }
    }
    return remedies;
}

std::string nodeExplanation(const ModelDocument& document, NodeId node) {
    const PrecisionPlan& plan = document.plan();
    if (!plan.explanation(node).empty()) return plan.explanation(node);
    const auto report = document.tuneReport();
    if (!report || report->plan.size() != plan.size() || report->plan.requested(node) != plan.requested(node))
        return {};
    return report->plan.placementNote(node);
}

QStringList tuneRegionLines(const Graph& graph, const TuneReport& report) {
    QStringList lines;
    if (!report.latency) return lines;
    for (const RegionDecision& d : report.latency->regions) {
        QStringList names;
        for (NodeId n : d.nodes) names.append(nodeName(graph, n));
        std::string note = regionNote(d, report.latency->gpu);
        if (note.starts_with(kTuneNotePrefix)) note.erase(0, kTuneNotePrefix.size());
        const QString text = QString::fromStdString(note);
        const qsizetype comma = text.indexOf(QStringLiteral(", "));
        // "fp16 for speed on t4: a, b: INT8 saves ..." (the note's head, the nodes, the reason)
        lines.append(comma < 0 ? names.join(QStringLiteral(", ")) + QStringLiteral(": ") + text
                               : text.left(comma) + QStringLiteral(": ") + names.join(QStringLiteral(", ")) +
                                     QStringLiteral(": ") + text.mid(comma + 2));
    }
    return lines;
}

QString tuneLatencyText(const TuneReport& report) {
    if (!report.latency) return {};
    const TuneLatency& l = *report.latency;
    return tr("Predicted on %1 (an estimate): %2, against %3 with the start plan and %4 all-FP16.")
        .arg(QString::fromStdString(l.gpu), QString::fromStdString(millisecondsText(l.finalMs)),
             QString::fromStdString(millisecondsText(l.startMs)), QString::fromStdString(millisecondsText(l.fp16Ms)));
}

QString tuneSummaryText(const Graph& graph, const TuneReport& report) {
    const TuneTarget& target = report.target;
    QString text =
        (report.met ? tr("Target met (%1): %2 on %3 samples, from %4 with the start plan.")
                    : tr("Target NOT met (%1): %2 on %3 samples, from %4 with the start plan; the best plan "
                         "found is shown."))
            .arg(QString::fromStdString(target.text()), tuneValueText(target, target.valueOf(report.finalScore)))
            .arg(report.samples)
            .arg(tuneValueText(target, target.valueOf(report.startScore)));
    // The layers the user's plan kept out are layers out of INT8 too: counted, and said to be theirs.
    // So are those TensorRT's rules took out after the tune's moves: no step names them, so they are said apart.
    QStringList keptOut;
    qsizetype byRules = 0;
    const auto add = [&](const QString& name, Precision precision, bool rules) {
        const QString precisionText = QString::fromUtf8(precisionName(precision));
        keptOut.append(rules ? tr("%1 (%2, TensorRT's rules)").arg(name, precisionText)
                             : QStringLiteral("%1 (%2)").arg(name, precisionText));
        byRules += rules;
    };
    for (NodeId node : report.keptOut)
        add(nodeName(graph, node), report.plan.effective(node), outOfInt8ByRules(report.plan, node));
    for (const TuneUnit& unit : report.keptOutInBodies)
        add(QString::fromStdString(unit.name), unitEffective(report.plan, unit), outOfInt8ByRules(report.plan, unit));
    for (NodeId node : report.planKeptOut)
        keptOut.append(tr("%1 (%2, yours)")
                           .arg(nodeName(graph, node), QString::fromUtf8(precisionName(report.plan.effective(node)))));
    const qsizetype yours = static_cast<qsizetype>(report.planKeptOut.size());
    QStringList whose;
    if (byRules > 0) whose.append(tr("%1 by TensorRT's rules after a neighbour moved").arg(byRules));
    if (yours > 0) whose.append(tr("%1 by you").arg(yours));
    text += QLatin1Char(' ') +
            tr("%1 of %2 layers kept out of INT8%3%4.")
                .arg(keptOut.size())
                .arg(report.startUnits + yours)
                .arg(whose.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(whose.join(QStringLiteral(", "))))
                .arg(keptOut.isEmpty() ? QString() : QStringLiteral(": ") + keptOut.join(QStringLiteral(", ")));
    if (!report.plan.tensorMethods().empty())
        text +=
            QLatin1Char(' ') + tr("%1 tensor range(s) from another method.").arg(report.plan.tensorMethods().size());
    const double share = report.totalMacs > 0
                             ? 100.0 * static_cast<double>(report.int8Macs) / static_cast<double>(report.totalMacs)
                             : 0.0;
    text += QLatin1Char(' ') + tr("INT8 share of MACs: %1 %. %2 trials in %3 s.")
                                   .arg(share, 0, 'f', 1)
                                   .arg(report.trials)
                                   .arg(report.seconds, 0, 'f', 1);
    if (report.latency) text += QLatin1Char(' ') + tuneLatencyText(report);
    return text;
}

}  // namespace ql::ui
