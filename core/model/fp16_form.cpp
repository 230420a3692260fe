#include "core/model/fp16_form.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace ql {
namespace {

// The formal parameter of slot `i` (the last one repeats when it is variadic), or null.
const onnx::OpSchema::FormalParameter* formalAt(const std::vector<onnx::OpSchema::FormalParameter>& formals, size_t i) {
    if (i < formals.size()) return &formals[i];
    if (!formals.empty() && formals.back().GetOption() == onnx::OpSchema::Variadic) return &formals.back();
    return nullptr;
}

bool allowsFloat16(const onnx::OpSchema& schema, const std::string& typeStr) {
    if (typeStr == "tensor(float16)") return true;
    for (const auto& constraint : schema.typeConstraintParams())
        if (constraint.type_param_str == typeStr)
            return std::find(constraint.allowed_type_strs.begin(), constraint.allowed_type_strs.end(),
                             "tensor(float16)") != constraint.allowed_type_strs.end();
    return false;
}

bool isTypeVariable(const onnx::OpSchema& schema, const std::string& typeStr) {
    return std::any_of(schema.typeConstraintParams().begin(), schema.typeConstraintParams().end(),
                       [&](const auto& c) { return c.type_param_str == typeStr; });
}

std::string noForm(const Node& node, const std::string& why) {
    return node.opType + " " + why;
}

}  // namespace

bool carriesReducedFloat(const Graph& graph) {
    const auto reduced = [](DataType t) { return t == DataType::Float16 || t == DataType::BFloat16; };
    for (const Value& value : graph.values())
        if (reduced(value.type.dtype)) return true;
    for (const Initializer& init : graph.initializers())
        if (reduced(init.dtype)) return true;
    return false;
}

bool computesFloat(const Graph& graph, const Node& node) {
    return std::any_of(node.outputs.begin(), node.outputs.end(),
                       [&](ValueId v) { return v != kNoId && graph.value(v).type.dtype == DataType::Float; });
}

bool isFloatOrUnknown(DataType d) {
    return d == DataType::Float || d == DataType::Float16 || d == DataType::BFloat16 || d == DataType::Double ||
           d == DataType::Undefined;
}

bool keepsWrittenTypes(const Node& node) {
    constexpr std::array<std::string_view, 6> fixedTypes = {"QuantizeLinear", "DequantizeLinear", "Cast",
                                                            "CastLike",       "Constant",         "ConstantOfShape"};
    return std::find(fixedTypes.begin(), fixedTypes.end(), node.opType) != fixedTypes.end();
}

bool hasPrecisionChoice(const Graph& graph, const Node& node) {
    if (keepsWrittenTypes(node)) return false;
    return std::any_of(node.outputs.begin(), node.outputs.end(),
                       [&](ValueId v) { return v != kNoId && isFloatOrUnknown(graph.value(v).type.dtype); });
}

Fp16Form fp16Form(const Graph& graph, const Node& node) {
    Fp16Form form{std::vector<bool>(node.inputs.size(), false), std::vector<bool>(node.outputs.size(), false), {}};
    if (!computesFloat(graph, node)) {
        form.blocker = noForm(node, "computes no float32 tensor");
    } else if (!node.subgraphs.empty()) {
        form.blocker = noForm(node, "has subgraphs, which a precision conversion can corrupt");
    } else if (keepsWrittenTypes(node)) {
        form.blocker = noForm(node, "keeps its float32 type (Q/DQ scales, casts and constants stay as written)");
    }
    if (!form.possible()) return form;
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(
        node.opType, static_cast<int>(graph.opsetVersion(node.domain)), node.domain == "ai.onnx" ? "" : node.domain);
    if (schema == nullptr) {
        form.blocker = noForm(node, "has no ONNX schema at this opset");
        return form;
    }
    std::vector<std::string> floatTypes;  // the type variables of the float outputs
    for (size_t i = 0; i < node.outputs.size(); ++i) {
        if (node.outputs[i] == kNoId) continue;
        const DataType dtype = graph.value(node.outputs[i]).type.dtype;
        const auto* formal = formalAt(schema->outputs(), i);
        if (dtype != DataType::Float) {
            if (dtype == DataType::Undefined) form.blocker = noForm(node, "has an output of unknown type");
            continue;
        }
        if (formal == nullptr || !isTypeVariable(*schema, formal->GetTypeStr()) ||
            !allowsFloat16(*schema, formal->GetTypeStr())) {
            form.blocker =
                noForm(node, "has no float16 form in ONNX opset " + std::to_string(graph.opsetVersion(node.domain)));
            return form;
        }
        form.outputs[i] = true;
        floatTypes.push_back(formal->GetTypeStr());
    }
    bool bound = false;  // some input carries the float type: the output's type follows the inputs, not attributes
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        const auto* formal = formalAt(schema->inputs(), i);
        if (node.inputs[i] == kNoId || formal == nullptr) continue;
        if (std::find(floatTypes.begin(), floatTypes.end(), formal->GetTypeStr()) == floatTypes.end()) continue;
        if (graph.value(node.inputs[i]).type.dtype != DataType::Float) {
            form.blocker = noForm(node, "mixes float32 with other types in one type variable");
            return form;
        }
        form.inputs[i] = bound = true;
    }
    if (!bound) form.blocker = noForm(node, "takes its output type from an attribute");
    return form;
}

}  // namespace ql
