#pragma once
// Loads a model or a project off the GUI thread (STYLE rule 8) for the main window. A load cannot be interrupted:
// a request made while one runs waits, and only the newest waiting request runs after it.
//
//   connect(loader, &ModelLoader::loaded, window, &MainWindow::applyLoaded);
//   loader->load(path, target);                      // a .onnx with the window's target, or a .qlproj
//   loader->load(project, target, locatedModel);     // a project whose model moved (File > Locate...)
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "core/lint/trt_version.h"

namespace ql {
class Model;
}

namespace ql::ui {

struct LoadedModel;
struct GraphSnapshot;

class ModelLoader : public QObject {
    Q_OBJECT
public:
    explicit ModelLoader(QObject* parent = nullptr);
    ~ModelLoader() override;  // waits for a running load

    // `modelPath`: for a project, the model to use instead of the one it names (empty: its own).
    void load(const QString& path, TrtTarget target, const QString& modelPath = {});
    bool isLoading() const;

    // Graphs of at least this many nodes are previewed (previewReady): below it the whole load is quick.
    static constexpr size_t kPreviewNodes = 2000;

signals:
    // The structure of the model being loaded (a big one: kPreviewNodes), on the GUI thread, while the checker,
    // shape inference and the precision decisions still run: a view may show it, without types or precisions, until
    // `loaded` comes. Not sent for a request that a newer one will replace.
    void previewReady(const std::shared_ptr<ql::ui::GraphSnapshot>& structure);
    // The newest request's outcome (a model, or an error), on the GUI thread. Nothing else keeps it.
    void loaded(const std::shared_ptr<ql::ui::LoadedModel>& outcome);

private:
    struct Request {
        QString path;
        TrtTarget target;
        QString modelPath;
    };
    void finished();

    QFutureWatcher<std::shared_ptr<LoadedModel>> mWatcher;
    std::optional<Request> mPending;
};

// The layers' MACs from the shapes a run sees where shape inference could not reach them (observed_costs.h): on the
// loading thread, never the GUI's, as it may cost one inference. A failed run leaves inference's counts.
void measureModelCosts(Model& model);

// True when `path` names a QuantLens project (.qlproj) rather than a model.
bool isProjectPath(const QString& path);

}  // namespace ql::ui
