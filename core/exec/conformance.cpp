#include "core/exec/conformance.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/exec/executor.h"
#include "core/exec/kernels/registry.h"
#include "core/exec/tensor_proto.h"
#include "core/model/model.h"

namespace ql {

namespace fs = std::filesystem;

namespace {

ConformanceResult failed(const std::string& name, std::string reason) {
    return {name, ConformanceStatus::Failed, std::move(reason)};
}

// Files `prefix<N>.pb` in `dir`, ordered by N (input_10 after input_9).
std::vector<fs::path> numberedFiles(const fs::path& dir, const std::string& prefix) {
    std::vector<std::pair<long, fs::path>> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string file = entry.path().filename().string();
        if (!file.starts_with(prefix) || entry.path().extension() != ".pb") continue;
        const std::string number = file.substr(prefix.size(), file.size() - prefix.size() - 3);
        if (number.empty() || !std::all_of(number.begin(), number.end(), ::isdigit)) continue;
        found.emplace_back(std::stol(number), entry.path());
    }
    std::sort(found.begin(), found.end());
    std::vector<fs::path> paths;
    for (auto& f : found) paths.push_back(std::move(f.second));
    return paths;
}

std::vector<fs::path> dataSets(const fs::path& testDir) {
    std::vector<fs::path> sets;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(testDir, ec))
        if (entry.is_directory() && entry.path().filename().string().starts_with("test_data_set_"))
            sets.push_back(entry.path());
    std::sort(sets.begin(), sets.end());
    return sets;
}

// The ops of `graph` and of the subgraphs nested in it that have no kernel, as "domain.Op (opset N)".
void collectMissingOps(const onnx::GraphProto& graph, const Graph& model, std::set<std::string>& missing) {
    for (const auto& node : graph.node()) {
        const std::string domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
        const int64_t opset = model.opsetVersion(domain);
        if (!findKernel(domain, node.op_type(), opset))
            missing.insert((domain.empty() ? std::string() : domain + ".") + node.op_type() + " (opset " +
                           std::to_string(opset) + ")");
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) collectMissingOps(attr.g(), model, missing);
            for (const auto& sub : attr.graphs()) collectMissingOps(sub, model, missing);
        }
    }
}

// Why the executor cannot take this model at all (ops without kernels, subgraphs' included, non-tensor values), or
// empty.
std::string skipReason(const Model& model) {
    std::set<std::string> missing;
    collectMissingOps(model.proto().graph(), model.graph(), missing);
    if (!missing.empty()) {
        std::string reason = "op not registered:";
        for (const auto& op : missing) reason += " " + op;
        return reason;
    }
    const auto& g = model.proto().graph();
    for (const auto* list : {&g.input(), &g.output()})
        for (const auto& v : *list)
            if (!v.type().has_tensor_type())
                return "value '" + v.name() + "' is not a tensor (sequence / optional / map values are not supported)";
            else if (v.type().tensor_type().elem_type() == onnx::TensorProto::STRING)
                return "value '" + v.name() + "' is a STRING tensor (the executor holds numeric tensors only)";
    return {};
}

// The test data stores BFLOAT16 tensors as UINT16 (numpy has no bfloat16): take the bits as the model's type.
Tensor asModelType(Tensor t, DataType wanted) {
    if (t.dtype() == DataType::UInt16 && wanted == DataType::BFloat16) return t.reinterpreted(wanted);
    return t;
}

Result<NamedTensors> readInputs(const Graph& graph, const std::vector<fs::path>& files) {
    NamedTensors inputs;
    for (size_t i = 0; i < files.size(); ++i) {
        QL_ASSIGN_OR_RETURN(NamedTensor t, readTensorProtoFile(files[i].string()));
        std::string name = t.name;
        const auto id = name.empty() ? std::nullopt : graph.findValue(name);
        if (!id || !graph.value(*id).isGraphInput) {
            if (i >= graph.inputs().size())
                return invalidArgument(files[i].string() + ": the model has only " +
                                       std::to_string(graph.inputs().size()) + " inputs");
            name = graph.value(graph.inputs()[i]).name;
        }
        const DataType wanted = graph.value(*graph.findValue(name)).type.dtype;
        inputs.emplace_back(name, asModelType(std::move(t.tensor), wanted));
    }
    return inputs;
}

// Empty when every output matches; otherwise what differs.
Result<std::string> checkDataSet(Executor& executor, const fs::path& set, const Tolerance& tolerance) {
    const std::string label = set.filename().string();
    auto inputs = readInputs(executor.graph(), numberedFiles(set, "input_"));
    if (!inputs) return inputs.status().withContext(label);
    auto outputs = executor.run(*inputs);
    if (!outputs) return outputs.status().withContext(label);
    const auto expectedFiles = numberedFiles(set, "output_");
    if (expectedFiles.size() != outputs->size())
        return label + ": the model produced " + std::to_string(outputs->size()) + " outputs, expected " +
               std::to_string(expectedFiles.size());
    for (size_t i = 0; i < expectedFiles.size(); ++i) {
        QL_ASSIGN_OR_RETURN(NamedTensor expected, readTensorProtoFile(expectedFiles[i].string()));
        const auto& [name, actual] = (*outputs)[i];
        const TensorComparison c = compareTensors(asModelType(expected.tensor, actual.dtype()), actual, tolerance);
        if (!c.matches) return label + " output '" + name + "': " + c.reason;
    }
    return std::string();
}

}  // namespace

const char* conformanceStatusName(ConformanceStatus status) {
    switch (status) {
        case ConformanceStatus::Passed:
            return "pass";
        case ConformanceStatus::Failed:
            return "fail";
        case ConformanceStatus::Skipped:
            return "skip";
    }
    return "?";
}

Result<std::vector<std::string>> findConformanceTests(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return notFound("'" + dir + "' is not a folder");
    if (fs::exists(fs::path(dir) / "model.onnx", ec)) return std::vector<std::string>{dir};
    std::vector<std::string> tests;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_directory() && fs::exists(entry.path() / "model.onnx", ec)) tests.push_back(entry.path().string());
    if (ec) return ioError("cannot list '" + dir + "': " + ec.message());
    if (tests.empty())
        return notFound("'" + dir + "' holds no ONNX backend test (a model.onnx with test_data_set_* folders)");
    std::sort(tests.begin(), tests.end());
    return tests;
}

ConformanceResult runConformanceTest(const std::string& testDir, const ConformanceOptions& options) {
    const std::string name = fs::path(testDir).filename().string();
    try {
        auto model = Model::load((fs::path(testDir) / "model.onnx").string());
        if (!model) return failed(name, model.status().message());
        if (std::string reason = skipReason(**model); !reason.empty())
            return {name, ConformanceStatus::Skipped, reason};
        auto executor = Executor::create((*model)->graph(), {options.threads});
        if (!executor) return failed(name, executor.status().message());
        const auto sets = dataSets(testDir);
        if (sets.empty()) return failed(name, "no test_data_set_* folder");
        for (const auto& set : sets) {
            auto problem = checkDataSet(**executor, set, options.tolerance);
            if (!problem) return failed(name, problem.status().message());
            if (!problem->empty()) return failed(name, *problem);
        }
        return {name, ConformanceStatus::Passed, {}};
    } catch (const std::exception& e) {
        return failed(name, std::string("internal error: ") + e.what());
    }
}

}  // namespace ql
