#pragma once
// The UI-side owner of a loaded model (STYLE.md rule 2): views hold no core pointers across a reload;
// they listen to modelReplaced().
#include <QObject>
#include <QString>
#include <memory>

#include "core/model/model.h"

namespace ql::ui {

class ModelDocument : public QObject {
    Q_OBJECT
public:
    explicit ModelDocument(QObject* parent = nullptr) : QObject(parent) {}

    const Model* model() const { return mModel.get(); }
    QString filePath() const;
    QString fileName() const;
    // Takes a model loaded elsewhere (on a worker thread) and announces it.
    void replaceModel(std::shared_ptr<Model> model);

signals:
    void modelAboutToBeReplaced();
    void modelReplaced();

private:
    std::shared_ptr<Model> mModel;
};

}  // namespace ql::ui
