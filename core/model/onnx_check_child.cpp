// quantlens-onnx-check: runs ONNX's checker and shape inference for runOnnxChecks (onnx_checks.cpp) in a process of
// its own, so that a crash inside them becomes a diagnostic instead of taking QuantLens down.
//
// Usage (by runOnnxChecks only): quantlens-onnx-check CHECKER INFER [MODEL_PATH]
//   CHECKER, INFER: 0 or 1; MODEL_PATH: given when the model keeps its weights in external data, for the checker.
//   stdin: the serialized ModelProto until EOF. stdout: a ModelProto whose metadata_props are the diagnostics
//   ("SEVERITY|SOURCE" -> message) and whose graph carries the inferred value_info and output types, bodies included.
// Exit status: 0 when the reply was written; 2 bad usage; 3 the reply could not be written; 4 an unexpected
// exception; 5 stdin was not a model.
#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/model/model.h"

namespace {

// The checker's messages span lines; keep diagnostics on one line.
std::string oneLine(std::string message) {
    for (char& c : message)
        if (c == '\n' || c == '\r') c = ' ';
    while (!message.empty() && message.back() == ' ') message.pop_back();
    return message;
}

void addDiagnostic(onnx::ModelProto& reply, ql::Diagnostic::Severity severity, const std::string& source,
                   const std::string& message) {
    auto* entry = reply.add_metadata_props();
    entry->set_key(std::to_string(static_cast<int>(severity)) + "|" + source);
    entry->set_value(oneLine(message));
}

// The types inference gave inside bodies, without the bodies' weights: node for node and attribute for attribute,
// each body with its value_info and outputs.
void addBodyTypes(const onnx::GraphProto& graph, onnx::GraphProto& reply) {
    for (const auto& node : graph.node()) {
        onnx::NodeProto& skeleton = *reply.add_node();
        for (const auto& attr : node.attribute()) {
            onnx::AttributeProto& copy = *skeleton.add_attribute();
            if (!attr.has_g()) continue;
            onnx::GraphProto& body = *copy.mutable_g();
            *body.mutable_value_info() = attr.g().value_info();
            *body.mutable_output() = attr.g().output();
            addBodyTypes(attr.g(), body);
        }
    }
}

onnx::ModelProto checkAndInfer(onnx::ModelProto& model, const char* path, bool runChecker, bool inferShapes) {
    onnx::ModelProto reply;
    if (runChecker) {
        try {
            if (path)
                onnx::checker::check_model(std::string(path));
            else
                onnx::checker::check_model(model);
        } catch (const std::exception& e) {
            addDiagnostic(reply, ql::Diagnostic::Severity::Error, "checker", e.what());
        }
    }
    if (!inferShapes) return reply;
    try {
        const onnx::ShapeInferenceOptions strict(/*check_type=*/true, /*error_mode=*/1, /*data_prop=*/true);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), strict);
    } catch (const std::exception& e) {
        addDiagnostic(reply, ql::Diagnostic::Severity::Error, "shape-inference", e.what());
        // Strict mode stops at the first error; infer what can be inferred for display.
        try {
            const onnx::ShapeInferenceOptions lenient(false, 0, true);
            onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), lenient);
        } catch (const std::exception& e2) {
            addDiagnostic(reply, ql::Diagnostic::Severity::Warning, "shape-inference", e2.what());
        }
    }
    *reply.mutable_graph()->mutable_value_info() = model.graph().value_info();
    *reply.mutable_graph()->mutable_output() = model.graph().output();
    addBodyTypes(model.graph(), *reply.mutable_graph());
    return reply;
}

bool readAll(int fd, std::string& out) {
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) return true;
        out.append(buf, static_cast<size_t>(n));
    }
}

bool writeAll(int fd, const std::string& data) {
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

bool isFlag(const char* arg) {
    return std::strcmp(arg, "0") == 0 || std::strcmp(arg, "1") == 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || argc > 4 || !isFlag(argv[1]) || !isFlag(argv[2])) return 2;
    // The reply goes to the stdout we were given; anything the libraries print goes to stderr instead.
    const int replyFd = ::dup(1);
    if (replyFd < 0 || ::dup2(2, 1) < 0) return 3;
    std::string bytes;
    onnx::ModelProto model;
    if (!readAll(0, bytes) || !model.ParseFromString(bytes)) return 5;
    bytes = std::string();
    try {
        const onnx::ModelProto reply =
            checkAndInfer(model, argc == 4 ? argv[3] : nullptr, argv[1][0] == '1', argv[2][0] == '1');
        return writeAll(replyFd, reply.SerializeAsString()) ? 0 : 3;
    } catch (...) {
        return 4;
    }
}
