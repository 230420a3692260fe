#include "core/model/graph.h"

#include <onnx/onnx_pb.h>

namespace ql {

bool TensorType::fullyKnown() const {
    if (!hasShape) return false;
    for (const auto& d : dims)
        if (!d.known()) return false;
    return true;
}

std::string TensorType::shapeString() const {
    if (!hasShape) return "?";
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) s += ",";
        if (dims[i].known())
            s += std::to_string(dims[i].size);
        else
            s += dims[i].symbol.empty() ? "?" : dims[i].symbol;
    }
    return s + "]";
}

std::string nodeErrorMessage(const Node& node, const std::string& what) {
    return "Node (" + node.name + ") Op (" + node.opType + "): " + what;
}

const onnx::AttributeProto* Node::attribute(const std::string& attrName) const {
    if (!proto) return nullptr;
    for (const auto& a : proto->attribute())
        if (a.name() == attrName) return &a;
    return nullptr;
}

int64_t Node::intAttribute(const std::string& attrName, int64_t fallback) const {
    const auto* a = attribute(attrName);
    return a ? a->i() : fallback;
}

float Node::floatAttribute(const std::string& attrName, float fallback) const {
    const auto* a = attribute(attrName);
    return a ? a->f() : fallback;
}

std::vector<int64_t> Node::intsAttribute(const std::string& attrName) const {
    const auto* a = attribute(attrName);
    if (!a) return {};
    return {a->ints().begin(), a->ints().end()};
}

std::string Node::stringAttribute(const std::string& attrName, const std::string& fallback) const {
    const auto* a = attribute(attrName);
    return a ? a->s() : fallback;
}

std::optional<NodeId> Graph::findNode(const std::string& name) const {
    auto it = mNodeIndex.find(name);
    if (it == mNodeIndex.end()) return std::nullopt;
    return it->second;
}

std::optional<ValueId> Graph::findValue(const std::string& name) const {
    auto it = mValueIndex.find(name);
    if (it == mValueIndex.end()) return std::nullopt;
    return it->second;
}

const Initializer* Graph::initializerOf(ValueId id) const {
    if (id < 0 || static_cast<size_t>(id) >= mValues.size()) return nullptr;
    const int32_t index = mValues[static_cast<size_t>(id)].initializer;
    return index >= 0 ? &mInitializers[static_cast<size_t>(index)] : nullptr;
}

int64_t Graph::opsetVersion(const std::string& domain) const {
    const std::string key = domain == "ai.onnx" ? "" : domain;
    auto it = mOpsets.find(key);
    return it == mOpsets.end() ? 0 : it->second;
}

}  // namespace ql
