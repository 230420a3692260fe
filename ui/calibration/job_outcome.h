#pragma once
// What a finished background job (calibration, tune) means for the document it was started on: the runners
// apply its results only when it ran to the end, without error, on the model the document still holds.
#include <QString>
#include <memory>

#include "core/common/status.h"

namespace ql {
class Model;
}

namespace ql::ui {

class ModelDocument;

enum class JobVerdict { Cancelled, Failed, Apply };

struct JobOutcomeCheck {
    JobVerdict verdict = JobVerdict::Apply;
    QString error;  // Failed: what to tell the user
};

// `job` names the work in the message of a model replaced meanwhile ("calibrated", "tuned").
JobOutcomeCheck checkJobOutcome(const Status& status, bool stopRequested, const ModelDocument* document,
                                const std::shared_ptr<const Model>& model, const QString& job);

}  // namespace ql::ui
