#include "ui/export_job.h"

#include <QObject>
#include <QStringList>

#include "core/export/export_files.h"
#include "core/export/graph_preparation.h"
#include "core/export/trtexec_command.h"
#include "ui/dialog_folder.h"
#include "ui/plural.h"

namespace ql::ui {
namespace {

QString weakScriptSummary(const QdqExport& result) {
    auto plan = trtexecPlan(result);
    if (!plan) return QObject::tr("a weakly typed build (%1)").arg(QString::fromStdString(plan.status().message()));
    QStringList flags;
    for (const std::string& flag : plan->flags) flags.append(QString::fromStdString(flag));
    QString text = flags.join(QLatin1Char(' '));
    if (plan->pinnedLayers > 0)
        text += QObject::tr("; %1 pinned FP32 (--layerPrecisions)")
                    .arg(counted(plan->pinnedLayers, QObject::tr("1 layer"), QObject::tr("%1 layers")));
    return text;
}

// "the model's types (12 nodes in FP16, 6 casts added); no precision flags", leaving out what is none.
QString strongScriptSummary(const QdqExport& result) {
    QStringList fp16;
    if (result.islands.nodes > 0)
        fp16.append(counted(result.islands.nodes, QObject::tr("1 node in FP16"), QObject::tr("%1 nodes in FP16")));
    if (result.islands.casts > 0)
        fp16.append(counted(result.islands.casts, QObject::tr("1 cast added"), QObject::tr("%1 casts added")));
    const QString detail = fp16.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(fp16.join(QStringLiteral(", ")));
    return QObject::tr("the model's types%1; no precision flags").arg(detail);
}

QString cacheLine(const ExportFiles& files, TrtVersion version) {
    if (files.trtCache.empty())
        return QObject::tr("No calibration cache: TensorRT %1 has no calibrators; the Q/DQ model carries its scales.")
            .arg(QString::fromUtf8(trtVersionName(version)));
    return QObject::tr(
               "Calibration cache, for implicit quantization with TensorRT's calibrator (the Q/DQ model "
               "does not need it: its scales are explicit): %1")
        .arg(QString::fromStdString(files.trtCache));
}

// What the export changed in the graph before placing Q/DQ (graph_preparation.h), after a "; ".
QString preparationText(const std::vector<PreparationStep>& steps) {
    const std::string text = preparationSummary(steps);
    return text.empty() ? QString() : QStringLiteral("; ") + QString::fromStdString(text);
}

// "\nWarning: input 'x' [N,3,H,W] has dynamic dimensions and no shapes: ..." per input the script leaves to
// trtexec's default of 1.
QString missingShapesText(const TrtexecShapes& shapes) {
    QString text;
    for (const std::string& advice : missingShapesAdvice(shapes, "the export dialog's shapes, or quantize --shapes"))
        text += QStringLiteral("\n") + QObject::tr("Warning: %1.").arg(QString::fromStdString(advice));
    return text;
}

}  // namespace

QString exportScriptSummary(const QdqExport& result) {
    QString text = result.target.typing == TrtTyping::Strong ? strongScriptSummary(result) : weakScriptSummary(result);
    if (const int guarded = exportLayerCounts(result).fp16Guarded; guarded > 0)
        text += QObject::tr("; %1 kept FP32 by the FP16 guard")
                    .arg(counted(guarded, QObject::tr("1 layer"), QObject::tr("%1 layers")));
    return text;
}

QString runExport(const ExportJob& job) {
    auto shapes = trtexecShapes(job.model->graph(), job.calibration->inputShapes, job.shapes, "shapes");
    if (!shapes) return QStringLiteral("error: ") + QString::fromStdString(shapes.status().message());
    const QdqOptions options{.tensorRtMajor = trtMajor(job.target.version)};
    auto result = exportQdq(*job.model, job.plan, *job.calibration, options, {.trt = job.target, .fp16Io = false});
    if (!result) return QStringLiteral("error: ") + QString::fromStdString(result.status().message());
    // TensorRT 11 has no calibrators: a cache there would be an error (trtCacheVersion), so none is written.
    const bool cache = trtCacheVersion(job.target.version).isOk();
    const ExportFiles files{
        .model = job.modelPath.toStdString(),
        .summary = withSuffix(job.modelPath, QStringLiteral(".summary.json")).toStdString(),
        .trtexec = withSuffix(job.modelPath, QStringLiteral(".trtexec.sh")).toStdString(),
        .trtCache = cache ? withSuffix(job.modelPath, QStringLiteral(".calib.cache")).toStdString() : std::string(),
        .writer = "the QuantLens window",
        .shapes = *shapes};
    if (Status s = saveExportFiles(*result, *job.calibration, job.target.version, files); !s.isOk())
        return QStringLiteral("error: ") + QString::fromStdString(s.message());
    const ExportLayerCounts counts = exportLayerCounts(*result);
    // One multi-argument arg(): a '%' in a path must not be taken for a later placeholder.
    return QObject::tr(
               "Exported %1 for TensorRT %2: %3 of %4 weighted layers INT8 (%5 layers INT8 in all), %6 quantized "
               "inputs%7.\n"
               "The engine build uses %8.\nWhy each layer has its precision: %9\nBuild the engine: sh %10\n%11")
               .arg(job.modelPath, QString::fromStdString(trtTargetName(job.target)),
                    QString::number(counts.int8Weighted), QString::number(counts.weighted),
                    QString::number(counts.int8All), QString::number(counts.quantizedInputs),
                    preparationText(result->steps), exportScriptSummary(*result), QString::fromStdString(files.summary),
                    QString::fromStdString(files.trtexec), cacheLine(files, job.target.version)) +
           missingShapesText(*shapes);
}

}  // namespace ql::ui
