#include "core/export/graph_preparation.h"

#include <algorithm>
#include <unordered_map>

#include <onnx/onnx_pb.h>

#include "core/export/batchnorm_folding.h"
#include "core/export/constant_folding.h"
#include "core/export/proto_graph.h"

namespace ql {

Result<onnx::ModelProto> selfContainedProto(const Model& model) {
    onnx::ModelProto proto = model.proto();
    std::unordered_map<std::string, onnx::TensorProto*> byName;  // filled on the first external initializer
    for (const auto& init : model.graph().initializers()) {
        if (!init.external) continue;
        if (byName.empty())
            for (auto& tensor : *proto.mutable_graph()->mutable_initializer()) byName[tensor.name()] = &tensor;
        const auto it = byName.find(init.name);
        auto* tensor = it == byName.end() ? nullptr : it->second;
        if (!tensor) return internalError("initializer '" + init.name + "' vanished from the copy");
        tensor->set_raw_data(reinterpret_cast<const char*>(init.rawBytes.data()), init.rawBytes.size());
        tensor->clear_external_data();
        tensor->set_data_location(onnx::TensorProto::DEFAULT);
    }
    return proto;
}

std::string checkerError(const Model& model) {
    for (const auto& diagnostic : model.diagnostics())
        if (diagnostic.severity == Diagnostic::Severity::Error && diagnostic.source == "checker")
            return diagnostic.message;
    return {};
}

Result<std::unique_ptr<Model>> reloadModel(const onnx::ModelProto& proto, const Model& source) {
    std::string bytes;
    if (!proto.SerializeToString(&bytes))
        return unsupported(source.fileName() + ": the prepared model exceeds the 2 GB protobuf limit");
    auto loaded = Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())), source.fileName());
    if (!loaded) return loaded.status().withContext(source.fileName() + " (prepared)");
    // A model the checker already rejected may keep its problems; we must not add any.
    if (checkerError(source).empty() && !checkerError(**loaded).empty())
        return internalError(source.fileName() +
                             ": the prepared model fails the ONNX checker: " + checkerError(**loaded));
    return loaded;
}

Result<PreparedModel> prepareModel(const Model& model) {
    QL_ASSIGN_OR_RETURN(auto proto, selfContainedProto(model));
    PreparedModel prepared;
    QL_RETURN_IF_ERROR(foldConstants(proto, prepared.steps).withContext(model.fileName()));
    QL_RETURN_IF_ERROR(foldBatchNorms(*proto.mutable_graph(), prepared.steps).withContext(model.fileName()));
    removeUnusedInitializers(*proto.mutable_graph());
    QL_ASSIGN_OR_RETURN(prepared.model, reloadModel(proto, model));
    return prepared;
}

std::string preparationSummary(const std::vector<PreparationStep>& steps) {
    const auto count = [&](const char* action) {
        return std::count_if(steps.begin(), steps.end(), [&](const PreparationStep& s) { return s.action == action; });
    };
    const auto counted = [](long n, const char* one, const std::string& many) {
        return n == 1 ? std::string(one) : std::to_string(n) + many;
    };
    std::string text;
    const auto add = [&](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
    if (const long n = count("fold-batchnorm"))
        add(counted(n, "1 BatchNormalization folded into its layer", " BatchNormalizations folded into their layers"));
    if (const long n = count("keep-batchnorm"))
        add(counted(n, "1 BatchNormalization kept (it cannot be folded)",
                    " BatchNormalizations kept (they cannot be folded)"));
    if (const long n = count("fold-constant"))
        add(counted(n, "1 constant computation done ahead", " constant computations done ahead"));
    return text;
}

}  // namespace ql
