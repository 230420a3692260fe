#include "ui/calibration/data_settings.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>

#include "ui/model_document.h"

namespace ql::ui {

namespace {

// One key per model file; hashed, since QSettings keys cannot hold every character of a path.
QString settingsKey(const QString& modelPath) {
    const QByteArray path = QFileInfo(modelPath).absoluteFilePath().toUtf8();
    return QStringLiteral("calibration/models/") +
           QString::fromLatin1(QCryptographicHash::hash(path, QCryptographicHash::Sha1).toHex());
}

}  // namespace

nlohmann::json dataSettingsOf(const ModelDocument& document) {
    if (!document.dataSettings().empty()) return document.dataSettings();
    if (document.filePath().isEmpty()) return nlohmann::json::object();
    const QString text = QSettings().value(settingsKey(document.filePath())).toString();
    auto json = nlohmann::json::parse(text.toStdString(), nullptr, /*allow_exceptions=*/false);
    return json.is_object() ? json : nlohmann::json::object();
}

void keepDataSettings(ModelDocument& document, const nlohmann::json& settings) {
    document.setDataSettings(settings);
    if (!document.filePath().isEmpty())
        QSettings().setValue(settingsKey(document.filePath()), QString::fromStdString(settings.dump()));
}

bool hasDataPaths(const nlohmann::json& settings) {
    const auto data = settings.find("data");
    if (data == settings.end() || !data->is_array()) return false;
    for (const auto& path : *data)
        if (path.is_string() && !path.get<std::string>().empty()) return true;
    return false;
}

}  // namespace ql::ui
