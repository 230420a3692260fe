#include "core/model/model.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <onnx/onnx_pb.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <future>

#include "core/model/external_data.h"
#include "core/model/graph_builder.h"
#include "core/model/onnx_checks.h"

namespace ql {

namespace fs = std::filesystem;

const char* severityName(Diagnostic::Severity severity) {
    switch (severity) {
        case Diagnostic::Severity::Error:
            return "error";
        case Diagnostic::Severity::Warning:
            return "warning";
        case Diagnostic::Severity::Info:
            return "info";
    }
    return "error";
}

namespace {

bool parseModel(google::protobuf::io::ZeroCopyInputStream& stream, onnx::ModelProto& proto) {
    google::protobuf::io::CodedInputStream coded(&stream);
    coded.SetTotalBytesLimit(INT_MAX);  // no 64 MB limit; protobuf's own hard limit is 2 GB
    return proto.ParseFromCodedStream(&coded) && coded.ConsumedEntireMessage();
}

// protobuf says only that parsing failed; nesting past its recursion limit (an If inside an If... 100 levels) is
// one cause a valid-looking file can have.
Status unreadableModel(const std::string& name) {
    return invalidModel(name +
                        ": not a readable ONNX model (protobuf parsing failed: the file is truncated, corrupt, not an "
                        "ONNX file, or nests subgraphs deeper than protobuf's limit of 100 levels)");
}

bool hasExternalData(const onnx::GraphProto& graph) {
    for (const auto& t : graph.initializer())
        if (t.data_location() == onnx::TensorProto::EXTERNAL) return true;
    for (const auto& node : graph.node())
        for (const auto& attr : node.attribute()) {
            if (attr.has_t() && attr.t().data_location() == onnx::TensorProto::EXTERNAL) return true;
            if (attr.has_g() && hasExternalData(attr.g())) return true;
            for (const auto& g : attr.graphs())
                if (hasExternalData(g)) return true;
        }
    return false;
}

}  // namespace

Model::Model() : mProto(std::make_unique<onnx::ModelProto>()) {}
Model::~Model() = default;

std::string Model::fileName() const {
    return fs::path(mPath).filename().string();
}

Result<std::unique_ptr<Model>> Model::load(const std::string& path, const LoadOptions& options) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) return notFound(path + ": no such file");
    if (fs::is_directory(status)) return invalidArgument(path + ": is a folder, not an ONNX model file");
    const auto size = fs::file_size(path, ec);
    if (ec) return ioError(path + ": cannot read: " + ec.message());
    if (size == 0) return invalidModel(path + ": the file is empty");
    if (size >= static_cast<uintmax_t>(INT_MAX))
        return invalidModel(path + ": " + std::to_string(size >> 20) +
                            " MB in one file; ONNX (protobuf) files are limited to 2 GB. Save the model with "
                            "external data (onnx.save_model(..., save_as_external_data=True)).");
    std::ifstream in(path, std::ios::binary);
    if (!in) return ioError(path + ": cannot open the file for reading (permissions?)");

    std::unique_ptr<Model> model(new Model);
    model->mPath = path;
    {
        google::protobuf::io::IstreamInputStream stream(&in, 1 << 20);
        if (!parseModel(stream, *model->mProto)) return unreadableModel(path);
    }
    std::string dir = fs::path(path).parent_path().string();
    model->mExternalData = std::make_unique<ExternalDataResolver>(dir.empty() ? "." : dir);
    auto finished = finishLoading(std::move(model), options);
    if (!finished) return finished.status().withContext(path);
    return finished;
}

Result<std::unique_ptr<Model>> Model::loadFromBytes(std::span<const std::byte> bytes, const std::string& displayName,
                                                    const LoadOptions& options) {
    if (bytes.empty()) return invalidModel(displayName + ": the file is empty");
    if (bytes.size() >= static_cast<size_t>(INT_MAX)) return invalidModel(displayName + ": larger than 2 GB");
    std::unique_ptr<Model> model(new Model);
    model->mPath = displayName;
    google::protobuf::io::ArrayInputStream stream(bytes.data(), static_cast<int>(bytes.size()));
    if (!parseModel(stream, *model->mProto)) return unreadableModel(displayName);
    model->mExternalData = std::make_unique<ExternalDataResolver>("");
    auto finished = finishLoading(std::move(model), options);
    if (!finished) return finished.status().withContext(displayName);
    return finished;
}

void Model::applyObservedShapes(const ObservedShapes& observed) {
    computeLayerCosts(mGraph, &observed);
}

Result<std::unique_ptr<Model>> Model::finishLoading(std::unique_ptr<Model> model, const LoadOptions& options) {
    try {
        if (!model->mProto->has_graph()) return invalidModel("not an ONNX model: the file holds no graph");
        if (model->mProto->graph().node_size() == 0 && model->mProto->graph().output_size() == 0)
            return invalidModel("not an ONNX model: the graph has no nodes and no outputs");
        model->mUsesExternalData = hasExternalData(model->mProto->graph());
        // With external data, the build validates the data paths before the checker touches them, so it goes first;
        // otherwise it runs while the helper process checks and infers (reading the model is safe from both threads).
        const auto check = [&] {
            return checkOnnxModel(*model->mProto, model->mPath, model->mUsesExternalData, options.runChecker,
                                  options.inferShapes);
        };
        std::future<OnnxCheckResult> checking;
        if (!model->mUsesExternalData) checking = std::async(std::launch::async, check);
        Result<Graph> graph = GraphBuilder::build(*model->mProto, *model->mExternalData);
        // What cannot be shown at all (cycles, undefined inputs); a running check is waited for by its future.
        if (!graph) return graph.status();
        if (options.graphBuilt) options.graphBuilt(*graph);
        const OnnxCheckResult checks = checking.valid() ? checking.get() : check();
        model->mDiagnostics.insert(model->mDiagnostics.end(), checks.diagnostics.begin(), checks.diagnostics.end());
        applyInferredTypes(checks, *model->mProto);
        GraphBuilder::retype(*graph, *model->mProto);
        model->mGraph = std::move(*graph);
        return model;
    } catch (const std::bad_alloc&) {
        return ioError("out of memory while loading the model");
    } catch (const std::exception& e) {
        return internalError(std::string("unexpected error while loading: ") + e.what());
    }
}

}  // namespace ql
