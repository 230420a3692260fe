#pragma once
// Which of the files a user picked or dropped is trtexec's layer information and which its profile: told apart
// by content ({"Layers": ...} is layer information, a JSON array a profile), so names do not matter. A lone
// layer file brings the profile written beside it (X.graph.json, X.layers.json or X.json -> X.profile.json).
#include <QString>
#include <QStringList>

#include "core/common/status.h"

class QMimeData;

namespace ql::ui {

struct EngineFiles {
    QString layers;
    QString profile;  // empty: none
};

Result<EngineFiles> classifyEngineFiles(const QStringList& paths);
// The profile trtexec users write beside `layers`, if it exists; empty otherwise.
QString siblingProfile(const QString& layers);
// The .json files among dropped URLs.
QStringList jsonPathsFromMime(const QMimeData* mime);

}  // namespace ql::ui
