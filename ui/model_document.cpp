#include "ui/model_document.h"

namespace ql::ui {

QString ModelDocument::filePath() const {
    return mModel ? QString::fromStdString(mModel->path()) : QString();
}

QString ModelDocument::fileName() const {
    return mModel ? QString::fromStdString(mModel->fileName()) : QString();
}

void ModelDocument::replaceModel(std::shared_ptr<Model> model) {
    emit modelAboutToBeReplaced();
    mModel = std::move(model);
    emit modelReplaced();
}

}  // namespace ql::ui
