#include "ui/trt_target_controller.h"

#include <QAction>
#include <QActionGroup>
#include <QLabel>
#include <QMenu>

#include "ui/model_document.h"

namespace ql::ui {

QString trtTargetLabel(const TrtTarget& target) {
    return QObject::tr("TensorRT %1").arg(QString::fromStdString(trtTargetName(target)));
}

TrtTargetController::TrtTargetController(ModelDocument* document, QWidget* window)
    : QObject(window),
      mDocument(document),
      mMenu(new QMenu(tr("TensorRT &Target"), window)),
      mGroup(new QActionGroup(this)),
      mStatusLabel(new QLabel(window)) {
    mMenu->setObjectName(QStringLiteral("TrtTargetMenu"));
    mMenu->setToolTipsVisible(true);
    mGroup->setExclusive(true);
    // The tips say what the export's script relies on for each target, the difference a user chooses between.
    addTarget({TrtVersion::Trt86, TrtTyping::Weak}, tr("TensorRT 8.6 (weakly typed)"),
              tr("trtexec --int8 --fp16; the layers kept FP32 are pinned with --layerPrecisions. The export also "
                 "writes a calibration cache."));
    addTarget({TrtVersion::Trt10, TrtTyping::Strong}, tr("TensorRT 10.x, strongly typed (default)"),
              tr("trtexec --stronglyTyped: the model's types decide, FP16 layers are written as float16 islands; "
                 "no precision flags."));
    addTarget({TrtVersion::Trt10, TrtTyping::Weak}, tr("TensorRT 10.x, weakly typed (deprecated)"),
              tr("trtexec --int8 --fp16 with the FP32 layers pinned; weak typing is deprecated since TensorRT 10.12 "
                 "and removed in 11.0."));
    addTarget({TrtVersion::Trt11, TrtTyping::Strong}, tr("TensorRT 11.x (strongly typed)"),
              tr("Strongly typed only: no precision flags and no calibrators, so the export writes no calibration "
                 "cache."));
    mStatusLabel->setObjectName(QStringLiteral("TrtTargetLabel"));
    mStatusLabel->setToolTip(
        tr("The TensorRT the precisions, the findings and the export follow "
           "(Quantize > TensorRT Target)"));
    connect(mDocument, &ModelDocument::trtTargetChanged, this, &TrtTargetController::showTarget);
    showTarget();
}

QAction* TrtTargetController::actionFor(const TrtTarget& target) const {
    for (const auto& [candidate, action] : mActions)
        if (candidate.version == target.version && candidate.typing == target.typing) return action;
    return nullptr;
}

void TrtTargetController::addTarget(TrtTarget target, const QString& text, const QString& tip) {
    QAction* action = mMenu->addAction(text);
    action->setCheckable(true);
    action->setToolTip(tip);
    action->setStatusTip(tip);
    mGroup->addAction(action);
    connect(action, &QAction::triggered, this, [this, target] { choose(target); });
    mActions.emplace_back(target, action);
}

void TrtTargetController::choose(TrtTarget target) {
    const TrtTarget before = mDocument->trtTarget();
    mDocument->setTrtTarget(target);
    if (before.version == target.version && before.typing == target.typing) return;
    emit statusMessage(tr("TensorRT target: %1; precisions and findings re-decided for it")
                           .arg(QString::fromStdString(trtTargetName(mDocument->trtTarget()))));
}

// Follows the document rather than the click: a project or a model opened later brings its own target.
void TrtTargetController::showTarget() {
    const TrtTarget target = mDocument->trtTarget();
    mStatusLabel->setText(trtTargetLabel(target));
    if (QAction* action = actionFor(target)) action->setChecked(true);
}

}  // namespace ql::ui
