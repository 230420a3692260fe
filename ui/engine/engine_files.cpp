#include "ui/engine/engine_files.h"

#include <QDir>
#include <QFileInfo>
#include <QMimeData>
#include <QUrl>

#include "core/engine/report_file.h"

namespace ql::ui {

namespace {

// A JSON object holding "Layers" is layer information; an array is a profile.
enum class EngineFileKind { Layers, Profile };

Result<EngineFileKind> fileKind(const QString& path) {
    QL_ASSIGN_OR_RETURN(const nlohmann::json json, readReportJson(path.toStdString(), "engine report"));
    if (json.is_object() && json.contains("Layers")) return EngineFileKind::Layers;
    if (json.is_array()) return EngineFileKind::Profile;
    return invalidArgument(path.toStdString() +
                           ": neither trtexec's layer information ({\"Layers\": ...}, --exportLayerInfo) nor its "
                           "profile (a JSON array, --exportProfile)");
}

}  // namespace

QString siblingProfile(const QString& layers) {
    const QFileInfo info(layers);
    QString stem = info.fileName();
    for (const QLatin1String suffix :
         {QLatin1String(".graph.json"), QLatin1String(".layers.json"), QLatin1String(".json")}) {
        if (!stem.endsWith(suffix, Qt::CaseInsensitive)) continue;
        stem.chop(suffix.size());
        break;
    }
    const QString candidate = info.absoluteDir().absoluteFilePath(stem + QStringLiteral(".profile.json"));
    return QFileInfo::exists(candidate) && candidate != info.absoluteFilePath() ? candidate : QString();
}

Result<EngineFiles> classifyEngineFiles(const QStringList& paths) {
    EngineFiles files;
    for (const QString& path : paths) {
        QL_ASSIGN_OR_RETURN(const EngineFileKind kind, fileKind(path));
        QString& slot = kind == EngineFileKind::Layers ? files.layers : files.profile;
        if (!slot.isEmpty())
            return invalidArgument("Two " + std::string(kind == EngineFileKind::Layers ? "layer" : "profile") +
                                   " files: " + slot.toStdString() + " and " + path.toStdString() +
                                   "; import one engine at a time");
        slot = path;
    }
    if (files.layers.isEmpty())
        return invalidArgument(
            "No layer information among the files: import trtexec's --exportLayerInfo file (with its "
            "--exportProfile file for the times)");
    if (files.profile.isEmpty()) files.profile = siblingProfile(files.layers);
    return files;
}

QStringList jsonPathsFromMime(const QMimeData* mime) {
    QStringList paths;
    if (!mime || !mime->hasUrls()) return paths;
    for (const QUrl& url : mime->urls()) {
        const QString path = url.toLocalFile();
        if (path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) paths.append(path);
    }
    return paths;
}

}  // namespace ql::ui
