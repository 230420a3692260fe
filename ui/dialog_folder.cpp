#include "ui/dialog_folder.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

#include "ui/model_document.h"

namespace ql::ui {

namespace {

const QString kKey = QStringLiteral("dialogs/lastFolder");

}  // namespace

QString dialogFolder(const ModelDocument* document) {
    if (document && !document->projectPath().isEmpty()) return QFileInfo(document->projectPath()).absolutePath();
    if (document && !document->filePath().isEmpty()) return QFileInfo(document->filePath()).absolutePath();
    const QString last = QSettings().value(kKey).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
    return QStandardPaths::writableLocation(QStandardPaths::HomeLocation);
}

void rememberDialogFolder(const QString& path) {
    if (!path.isEmpty()) QSettings().setValue(kKey, QFileInfo(path).absolutePath());
}

QString suggestedPath(const ModelDocument* document, const QString& name) {
    return QDir(dialogFolder(document)).filePath(name);
}

QString withSuffix(const QString& onnxPath, const QString& suffix) {
    const QFileInfo info(onnxPath);
    return info.absoluteDir().absoluteFilePath(info.completeBaseName() + suffix);
}

}  // namespace ql::ui
