#include "ui/calibration/job_outcome.h"

#include <QCoreApplication>

#include "ui/model_document.h"

namespace ql::ui {

JobOutcomeCheck checkJobOutcome(const Status& status, bool stopRequested, const ModelDocument* document,
                                const std::shared_ptr<const Model>& model, const QString& job) {
    if (status.code() == StatusCode::Cancelled || stopRequested) return {JobVerdict::Cancelled, {}};
    if (!status.isOk()) return {JobVerdict::Failed, QString::fromStdString(status.message())};
    if (!document || document->sharedModel() != model)
        return {JobVerdict::Failed,
                QCoreApplication::translate("JobOutcome",
                                            "The model was replaced while it was being %1; the results were dropped.")
                    .arg(job)};
    return {};
}

}  // namespace ql::ui
