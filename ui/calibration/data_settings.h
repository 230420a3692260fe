#pragma once
// Where the calibration dialog's settings of a model live: the document's (a project's "data"), else what this
// machine remembers for that model file (QSettings, keyed by its absolute path). Never another model's paths: a
// model of another shape would fail on them.
#include <QString>
#include <nlohmann/json.hpp>

namespace ql::ui {

class ModelDocument;

// The settings the dialog opens with for the document's model; an empty object when none are known.
nlohmann::json dataSettingsOf(const ModelDocument& document);
// Keeps `settings` in the document (saved with the project) and remembers them for its model file.
void keepDataSettings(ModelDocument& document, const nlohmann::json& settings);
// True when `settings` name calibration data (Measure Again can run on them).
bool hasDataPaths(const nlohmann::json& settings);

}  // namespace ql::ui
