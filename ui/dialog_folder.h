#pragma once
// Where a file dialog starts: the folder of the open project, else of the open model, else the last folder a
// dialog of the window used (QSettings), never the process's working folder.
#include <QString>

namespace ql::ui {

class ModelDocument;

QString dialogFolder(const ModelDocument* document);
// Remembers the folder of `path` (a file a dialog returned) for the next dialog without a model.
void rememberDialogFolder(const QString& path);
// `name` inside dialogFolder(document): a suggested file name for a save dialog.
QString suggestedPath(const ModelDocument* document, const QString& name);
// `onnxPath`'s folder and base name plus `suffix`: where the files of an export, a model's project or its plan go
// ("digits_cnn.qlproj" beside digits_cnn.onnx).
QString withSuffix(const QString& onnxPath, const QString& suffix);

}  // namespace ql::ui
