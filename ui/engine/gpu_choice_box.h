#pragma once
// The GPU the window predicts the engine's latency on (LatencyPredictionController), in the precision panel's
// toolbar beside the columns it fills: none (then nothing is predicted, and the first entry says to choose one),
// the document's fitted or loaded GPU profile (`fit-gpu`, kept in the project) when it has one, or a GPU of the
// table (gpu_specs.h) with its default terms. The choice is the document's GPU profile, so the project keeps it;
// a fitted profile replaced by a table GPU stays in the list for the session, to go back to.
#include <QComboBox>
#include <memory>

namespace ql {
struct GpuProfile;
}

namespace ql::ui {

class ModelDocument;

class GpuChoiceBox : public QComboBox {
    Q_OBJECT
public:
    explicit GpuChoiceBox(ModelDocument* document, QWidget* parent = nullptr);

    // Chooses the table GPU `name` (gpu_specs.h's key, "t4") for the document; false when unknown.
    bool chooseGpu(const QString& name);

private:
    void rebuild();
    void chosen(int index);

    ModelDocument* mDocument;
    std::shared_ptr<const GpuProfile> mOwnProfile;  // a fitted or hand-written profile seen in the document
    bool mRebuilding = false;
};

}  // namespace ql::ui
