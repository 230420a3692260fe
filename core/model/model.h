#pragma once
// A loaded ONNX model: the ModelProto (after shape inference), its Graph, and what the ONNX checker and
// shape inference said about it. Loading fails only when the file is not a usable model; checker and
// shape-inference problems become diagnostics so the user still sees what can be shown.
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/model/graph.h"

namespace onnx {
class ModelProto;
}

namespace ql {

class ExternalDataResolver;

struct Diagnostic {
    enum class Severity { Error, Warning, Info };
    Severity severity = Severity::Error;
    std::string source;  // "checker", "shape-inference", "loader"
    std::string message;
};
const char* severityName(Diagnostic::Severity severity);

struct LoadOptions {
    bool runChecker = true;
    bool inferShapes = true;
    // Called on the loading thread as soon as the graph is built, while the checker and shape inference still run:
    // its structure (nodes, names, edges) is final, its types are not yet. A window shows big graphs from it early.
    std::function<void(const Graph&)> graphBuilt = nullptr;
};

class Model {
public:
    static Result<std::unique_ptr<Model>> load(const std::string& path, const LoadOptions& options = {});
    // From bytes in memory (tests, fuzzing, drag-and-drop of data). External data is refused.
    static Result<std::unique_ptr<Model>> loadFromBytes(std::span<const std::byte> bytes,
                                                        const std::string& displayName,
                                                        const LoadOptions& options = {});
    ~Model();
    Model(const Model&) = delete;
    Model& operator=(const Model&) = delete;

    const std::string& path() const { return mPath; }
    std::string fileName() const;
    const onnx::ModelProto& proto() const { return *mProto; }
    const Graph& graph() const { return mGraph; }
    const std::vector<Diagnostic>& diagnostics() const { return mDiagnostics; }
    bool usesExternalData() const { return mUsesExternalData; }
    // Recomputes the layers' MACs with the shapes a run saw where shape inference could not reach
    // (core/exec/observed_costs.h measures them).
    void applyObservedShapes(const ObservedShapes& observed);

private:
    Model();
    static Result<std::unique_ptr<Model>> finishLoading(std::unique_ptr<Model> model, const LoadOptions& options);

    std::string mPath;
    std::unique_ptr<onnx::ModelProto> mProto;
    std::unique_ptr<ExternalDataResolver> mExternalData;
    Graph mGraph;
    std::vector<Diagnostic> mDiagnostics;
    bool mUsesExternalData = false;
};

}  // namespace ql
