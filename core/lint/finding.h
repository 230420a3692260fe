#pragma once
// A lint finding: what is wrong on which node, with the concrete values and the fix. The UI turns the node id
// into "select the node"; the CLI prints it and derives its exit code from the severity.
#include <optional>
#include <string>

#include "core/model/graph.h"

namespace ql {

// error: the TensorRT build fails; warning: the layer falls back to higher precision or runs slower; info: advice.
enum class Severity { Error = 0, Warning = 1, Info = 2 };

const char* severityName(Severity severity);  // "error", "warning", "info"
std::optional<Severity> parseSeverity(const std::string& text);

struct Finding {
    std::string ruleId;
    Severity severity = Severity::Warning;
    NodeId node = kNoId;
    std::string nodeName;
    std::string opType;
    std::string tensor;  // the tensor the finding is about (calib-* rules), or empty
    std::string message;
    std::string fix;
    // The layer does not run INT8 on the target (it falls back to FP16/FP32): drives the effective precision.
    bool causesFallback = false;
};

}  // namespace ql
