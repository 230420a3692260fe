#include "core/model/onnx_checks.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

namespace ql {

namespace {

constexpr int kTimeoutMs = 120000;  // shape inference of the largest models takes seconds, not minutes

// The checker's messages span lines; keep diagnostics on one line.
std::string oneLine(std::string message) {
    for (char& c : message)
        if (c == '\n' || c == '\r') c = ' ';
    while (!message.empty() && message.back() == ' ') message.pop_back();
    return message;
}

void addDiagnostic(onnx::ModelProto& reply, Diagnostic::Severity severity, const std::string& source,
                   const std::string& message) {
    auto* entry = reply.add_metadata_props();
    entry->set_key(std::to_string(static_cast<int>(severity)) + "|" + source);
    entry->set_value(oneLine(message));
}

// What inference found about a graph: its value_info and, when their number did not change, its outputs' types.
void takeInferredTypes(const onnx::GraphProto& inferred, onnx::GraphProto& graph) {
    *graph.mutable_value_info() = inferred.value_info();
    if (inferred.output_size() == graph.output_size()) *graph.mutable_output() = inferred.output();
}

// Inference types the inside of If/Loop/Scan bodies too: their values keep those types, node for node (inference
// adds and removes no node).
void takeInferredBodyTypes(const onnx::GraphProto& inferred, onnx::GraphProto& graph) {
    if (inferred.node_size() != graph.node_size()) return;
    for (int n = 0; n < graph.node_size(); ++n) {
        onnx::NodeProto& node = *graph.mutable_node(n);
        const onnx::NodeProto& from = inferred.node(n);
        if (from.attribute_size() != node.attribute_size()) continue;
        for (int a = 0; a < node.attribute_size(); ++a) {
            onnx::AttributeProto& attr = *node.mutable_attribute(a);
            if (!attr.has_g() || !from.attribute(a).has_g()) continue;
            takeInferredTypes(from.attribute(a).g(), *attr.mutable_g());
            takeInferredBodyTypes(from.attribute(a).g(), *attr.mutable_g());
        }
    }
}

// In the child: the types inference gave inside bodies, without the bodies' weights: node for node and attribute for
// attribute, each body with its value_info and outputs.
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

// Runs in the child: everything that calls into ONNX's checker and inference.
onnx::ModelProto checkAndInfer(onnx::ModelProto& model, const std::string& path, bool externalData, bool runChecker,
                               bool inferShapes) {
    onnx::ModelProto reply;
    if (runChecker) {
        try {
            if (externalData)
                onnx::checker::check_model(path);
            else
                onnx::checker::check_model(model);
        } catch (const std::exception& e) {
            addDiagnostic(reply, Diagnostic::Severity::Error, "checker", e.what());
        }
    }
    if (!inferShapes) return reply;
    try {
        const onnx::ShapeInferenceOptions strict(/*check_type=*/true, /*error_mode=*/1, /*data_prop=*/true);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), strict);
    } catch (const std::exception& e) {
        addDiagnostic(reply, Diagnostic::Severity::Error, "shape-inference", e.what());
        // Strict mode stops at the first error; infer what can be inferred for display.
        try {
            const onnx::ShapeInferenceOptions lenient(false, 0, true);
            onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), lenient);
        } catch (const std::exception& e2) {
            addDiagnostic(reply, Diagnostic::Severity::Warning, "shape-inference", e2.what());
        }
    }
    *reply.mutable_graph()->mutable_value_info() = model.graph().value_info();
    *reply.mutable_graph()->mutable_output() = model.graph().output();
    addBodyTypes(model.graph(), *reply.mutable_graph());
    return reply;
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

// Reads until EOF or the deadline; false on timeout.
bool readAll(int fd, std::string& out) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kTimeoutMs);
    char buf[65536];
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return false;
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return true;
        out.append(buf, static_cast<size_t>(n));
    }
}

Diagnostic crashDiagnostic(const std::string& what) {
    return {Diagnostic::Severity::Error, "shape-inference",
            "the ONNX checker / shape inference " + what +
                " on this model (a defect in the ONNX library triggered by a malformed node); shapes are shown "
                "only where the file declares them"};
}

}  // namespace

std::vector<Diagnostic> runOnnxChecks(onnx::ModelProto& model, const std::string& path, bool externalData,
                                      bool runChecker, bool inferShapes) {
    if (!runChecker && !inferShapes) return {};
    (void)onnx::OpSchemaRegistry::Instance();  // register schemas once, before forking, so children inherit them
    int fds[2];
    if (::pipe(fds) != 0) return {crashDiagnostic("could not start (pipe failed)")};
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return {crashDiagnostic("could not start (fork failed)")};
    }
    if (pid == 0) {
        ::close(fds[0]);
        int code = 0;
        try {
            const onnx::ModelProto reply = checkAndInfer(model, path, externalData, runChecker, inferShapes);
            code = writeAll(fds[1], reply.SerializeAsString()) ? 0 : 3;
        } catch (...) {
            code = 4;
        }
        ::_exit(code);  // no destructors, atexit handlers or Qt teardown in the child
    }
    ::close(fds[1]);
    std::string bytes;
    const bool complete = readAll(fds[0], bytes);
    ::close(fds[0]);
    if (!complete) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!complete) return {crashDiagnostic("did not finish within " + std::to_string(kTimeoutMs / 1000) + " s")};
    if (WIFSIGNALED(status)) return {crashDiagnostic("crashed (signal " + std::to_string(WTERMSIG(status)) + ")")};
    onnx::ModelProto reply;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !reply.ParseFromString(bytes))
        return {crashDiagnostic("failed")};
    std::vector<Diagnostic> diagnostics;
    for (const auto& entry : reply.metadata_props()) {
        const auto bar = entry.key().find('|');
        const int severity = bar == std::string::npos ? 0 : std::atoi(entry.key().substr(0, bar).c_str());
        diagnostics.push_back({static_cast<Diagnostic::Severity>(std::clamp(severity, 0, 2)),
                               bar == std::string::npos ? entry.key() : entry.key().substr(bar + 1), entry.value()});
    }
    if (inferShapes && reply.has_graph()) {
        takeInferredTypes(reply.graph(), *model.mutable_graph());
        takeInferredBodyTypes(reply.graph(), *model.mutable_graph());
    }
    return diagnostics;
}

}  // namespace ql
