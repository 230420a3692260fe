#include "core/model/onnx_checks.h"

#include <onnx/onnx_pb.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>

extern char** environ;

namespace ql {

namespace {

constexpr int kTimeoutMs = 120000;  // shape inference of the largest models takes seconds, not minutes
constexpr const char* kHelperName = "quantlens-onnx-check";

using Deadline = std::chrono::steady_clock::time_point;

int millisecondsLeft(Deadline deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    return static_cast<int>(std::max<long long>(0, left.count()));
}

// Waits until `fd` is ready for `events` or the deadline passes; false on timeout or error.
bool waitFor(int fd, short events, Deadline deadline) {
    for (;;) {
        const int left = millisecondsLeft(deadline);
        if (left <= 0) return false;
        pollfd p{fd, events, 0};
        const int ready = ::poll(&p, 1, left);
        if (ready < 0 && errno == EINTR) continue;
        return ready > 0;
    }
}

// Sends everything, then ends the stream; false on timeout or when the helper went away (no SIGPIPE: MSG_NOSIGNAL).
bool sendAll(int fd, const std::string& data, Deadline deadline) {
    size_t done = 0;
    while (done < data.size()) {
        if (!waitFor(fd, POLLOUT, deadline)) return false;
        const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return ::shutdown(fd, SHUT_WR) == 0;
}

// Reads until EOF or the deadline; false on timeout.
bool readAll(int fd, std::string& out, Deadline deadline) {
    char buf[65536];
    for (;;) {
        if (!waitFor(fd, POLLIN, deadline)) return false;
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return true;
        out.append(buf, static_cast<size_t>(n));
    }
}

// Where the helper is: QUANTLENS_ONNX_CHECK when set (and nowhere else then); else beside the running program or in
// the libexec folder of its installation; else where this build wrote it (the tests, `make run`).
std::string findHelper(std::string& searched) {
    std::vector<std::filesystem::path> candidates;
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (const char* forced = std::getenv("QUANTLENS_ONNX_CHECK"); forced && *forced) {
        candidates.emplace_back(forced);
    } else {
        if (!error) {
            candidates.push_back(self.parent_path() / kHelperName);
            candidates.push_back(self.parent_path().parent_path() / "libexec" / "quantlens" / kHelperName);
        }
#ifdef QL_ONNX_CHECK_BUILD_PATH
        candidates.emplace_back(QL_ONNX_CHECK_BUILD_PATH);
#endif
    }
    for (const auto& candidate : candidates) {
        if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
        searched += (searched.empty() ? "" : ", ") + candidate.string();
    }
    return {};
}

// Starts the helper with `channel` as its stdin and stdout; 0 when it could not start.
pid_t startHelper(const std::string& helper, int channel, std::vector<std::string> args) {
    args.insert(args.begin(), helper);
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return 0;
    posix_spawn_file_actions_adddup2(&actions, channel, 0);
    posix_spawn_file_actions_adddup2(&actions, channel, 1);
    pid_t pid = 0;
    const int failed = posix_spawn(&pid, helper.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return failed ? 0 : pid;
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

Diagnostic crashDiagnostic(const std::string& what) {
    return {Diagnostic::Severity::Error, "shape-inference",
            "the ONNX checker / shape inference " + what +
                " on this model (a defect in the ONNX library triggered by a malformed node); shapes are shown "
                "only where the file declares them"};
}

}  // namespace

OnnxCheckResult checkOnnxModel(const onnx::ModelProto& model, const std::string& path, bool externalData,
                               bool runChecker, bool inferShapes) {
    if (!runChecker && !inferShapes) return {};
    std::string searched;
    const std::string helper = findHelper(searched);
    if (helper.empty())
        return {{{Diagnostic::Severity::Warning, "loader",
                  std::string("the ONNX checker and shape inference did not run: their helper ") + kHelperName +
                      " is not installed (looked for " + searched +
                      "); reinstall QuantLens or set QUANTLENS_ONNX_CHECK to its path. Shapes are shown only where "
                      "the file declares them"}},
                nullptr};
    // A socket, not a pipe: the send fails with EPIPE instead of raising SIGPIPE when the helper dies early.
    int channel[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) != 0)
        return {{crashDiagnostic("could not start (socketpair failed)")}, nullptr};
    std::vector<std::string> args{runChecker ? "1" : "0", inferShapes ? "1" : "0"};
    if (externalData) args.push_back(path);
    // Spawned, not forked: a fork of this multi-threaded process could inherit a lock another thread held (the
    // allocator's, under the sanitizers) and hang.
    const pid_t pid = startHelper(helper, channel[1], std::move(args));
    ::close(channel[1]);
    if (pid == 0) {
        ::close(channel[0]);
        return {{crashDiagnostic("could not start (" + helper + " could not be run)")}, nullptr};
    }
    const Deadline deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kTimeoutMs);
    std::string bytes;
    const bool sent = sendAll(channel[0], model.SerializeAsString(), deadline);
    const bool complete = readAll(channel[0], bytes, deadline);
    ::close(channel[0]);
    const bool timedOut = millisecondsLeft(deadline) <= 0 && !(sent && complete);
    if (timedOut) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timedOut)
        return {{crashDiagnostic("did not finish within " + std::to_string(kTimeoutMs / 1000) + " s")}, nullptr};
    if (WIFSIGNALED(status))
        return {{crashDiagnostic("crashed (signal " + std::to_string(WTERMSIG(status)) + ")")}, nullptr};
    auto reply = std::make_shared<onnx::ModelProto>();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !reply->ParseFromString(bytes))
        return {{crashDiagnostic("failed")}, nullptr};
    OnnxCheckResult result;
    for (const auto& entry : reply->metadata_props()) {
        const auto bar = entry.key().find('|');
        const int severity = bar == std::string::npos ? 0 : std::atoi(entry.key().substr(0, bar).c_str());
        result.diagnostics.push_back({static_cast<Diagnostic::Severity>(std::clamp(severity, 0, 2)),
                                      bar == std::string::npos ? entry.key() : entry.key().substr(bar + 1),
                                      entry.value()});
    }
    if (inferShapes && reply->has_graph()) result.inferred = std::move(reply);
    return result;
}

void applyInferredTypes(const OnnxCheckResult& result, onnx::ModelProto& model) {
    if (!result.inferred) return;
    takeInferredTypes(result.inferred->graph(), *model.mutable_graph());
    takeInferredBodyTypes(result.inferred->graph(), *model.mutable_graph());
}

std::vector<Diagnostic> runOnnxChecks(onnx::ModelProto& model, const std::string& path, bool externalData,
                                      bool runChecker, bool inferShapes) {
    OnnxCheckResult result = checkOnnxModel(model, path, externalData, runChecker, inferShapes);
    applyInferredTypes(result, model);
    return std::move(result.diagnostics);
}

}  // namespace ql
