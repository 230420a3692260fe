#include "core/export/fp16_islands.h"

#include <cstring>

#include "core/common/half.h"
#include "core/model/fp16_form.h"
#include "core/model/subgraph_model.h"

namespace ql {
namespace {

onnx::TensorProto float16Tensor(const onnx::TensorProto& source, const std::string& name,
                                const std::vector<float>& values) {
    onnx::TensorProto tensor;
    tensor.set_name(name);
    tensor.set_data_type(onnx::TensorProto::FLOAT16);
    for (int64_t d : source.dims()) tensor.add_dims(d);
    std::string bytes(values.size() * 2, '\0');
    for (size_t i = 0; i < values.size(); ++i) {
        const uint16_t h = floatToHalf(values[i]);
        std::memcpy(bytes.data() + 2 * i, &h, 2);  // ONNX raw data is little-endian, as is every host we build for
    }
    tensor.set_raw_data(std::move(bytes));
    return tensor;
}

void setElemType(onnx::ValueInfoProto& info, int elemType) {
    info.mutable_type()->mutable_tensor_type()->set_elem_type(elemType);
}

}  // namespace

Fp16IslandWriter::Fp16IslandWriter(onnx::GraphProto& graph, const Graph& prepared, std::vector<bool> island,
                                   UniqueNames& names)
    : mGraph(graph), mPrepared(prepared), mIsland(std::move(island)), mNames(names) {
    for (int i = 0; i < graph.initializer_size(); ++i) mInitializers[graph.initializer(i).name()] = i;
    for (const auto* list : {&graph.value_info(), &graph.input(), &graph.output()})
        for (const auto& info : *list) mTypes[info.name()] = info.type();
    for (const auto& input : graph.input()) mInitializers.erase(input.name());  // overridable: not a constant
    for (const auto& node : graph.node())
        for (const auto& attribute : node.attribute())
            if (attribute.has_g())
                for (std::string& name : outerScopeNames(attribute.g())) mReadByBodies.insert(std::move(name));
}

onnx::NodeProto Fp16IslandWriter::cast(const std::string& input, const std::string& output, int to) {
    onnx::NodeProto node;
    node.set_op_type("Cast");
    node.set_name(output);
    node.add_input(input);
    node.add_output(output);
    auto* attr = node.add_attribute();
    attr->set_name("to");
    attr->set_type(onnx::AttributeProto::INT);
    attr->set_i(to);
    ++mStats.casts;
    return node;
}

void Fp16IslandWriter::addValueInfo(const std::string& original, const std::string& name, int elemType) {
    onnx::ValueInfoProto info;
    info.set_name(name);
    if (auto it = mTypes.find(original); it != mTypes.end()) *info.mutable_type() = it->second;
    setElemType(info, elemType);
    mNewInfo.push_back(std::move(info));
}

Result<std::string> Fp16IslandWriter::float16Input(const std::string& name, std::vector<onnx::NodeProto>& before) {
    if (auto it = mFloat16.find(name); it != mFloat16.end()) return it->second;
    const std::string converted = mNames.make(name + "_fp16");
    if (auto it = mInitializers.find(name); it != mInitializers.end()) {
        const onnx::TensorProto& source = mGraph.initializer(it->second);
        QL_ASSIGN_OR_RETURN(const auto values, readFloatInitializer(source));
        *mGraph.add_initializer() = float16Tensor(source, converted, values);
        ++mStats.initializers;
    } else {
        before.push_back(cast(name, converted, onnx::TensorProto::FLOAT16));
        addValueInfo(name, converted, onnx::TensorProto::FLOAT16);
    }
    return mFloat16[name] = converted;
}

// Whether anything reads `value` as float32: a graph output, a node outside the islands, or an island node's slot
// that keeps float32.
const Fp16Form& Fp16IslandWriter::formOf(const Node& node) {
    auto it = mForms.find(node.id);
    if (it == mForms.end()) it = mForms.emplace(node.id, fp16Form(mPrepared, node)).first;
    return it->second;
}

bool Fp16IslandWriter::readAsFloat32(ValueId value) {
    const Value& v = mPrepared.value(value);
    if (v.isGraphOutput || mReadByBodies.contains(v.name)) return true;
    for (NodeId c : v.consumers) {
        const Node& consumer = mPrepared.node(c);
        if (!mIsland[static_cast<size_t>(c)]) return true;
        const Fp16Form& form = formOf(consumer);
        for (size_t slot = 0; slot < consumer.inputs.size(); ++slot)
            if (consumer.inputs[slot] == value && !form.inputs[slot]) return true;
    }
    return false;
}

Status Fp16IslandWriter::visit(const Node& node, onnx::NodeProto& proto, std::vector<onnx::NodeProto>& before,
                               std::vector<onnx::NodeProto>& after) {
    if (!mIsland[static_cast<size_t>(node.id)]) return Status::ok();
    const Fp16Form& form = formOf(node);
    if (!form.possible())
        return internalError("node '" + node.name + "' planned FP16 without an FP16 form: " + form.blocker);
    ++mStats.nodes;
    for (int slot = 0; slot < proto.input_size(); ++slot) {
        if (!form.inputs[static_cast<size_t>(slot)] || proto.input(slot).empty()) continue;
        QL_ASSIGN_OR_RETURN(const std::string input, float16Input(proto.input(slot), before));
        proto.set_input(slot, input);
    }
    for (int slot = 0; slot < proto.output_size(); ++slot) {
        if (!form.outputs[static_cast<size_t>(slot)] || proto.output(slot).empty()) continue;
        const std::string original = proto.output(slot);
        const std::string converted = mNames.make(original + "_fp16");
        proto.set_output(slot, converted);
        mFloat16[original] = converted;
        addValueInfo(original, converted, onnx::TensorProto::FLOAT16);
        if (readAsFloat32(node.outputs[static_cast<size_t>(slot)]))
            after.push_back(cast(converted, original, onnx::TensorProto::FLOAT));
    }
    return Status::ok();
}

void Fp16IslandWriter::finish(bool fp16Io, std::vector<onnx::NodeProto>& first, std::vector<onnx::NodeProto>& last) {
    for (auto& info : mNewInfo) *mGraph.add_value_info() = std::move(info);
    if (!fp16Io) return;
    // Inputs: the float16 input is cast to float32 under a new name that every reader then reads.
    std::unordered_map<std::string, std::string> renamed;
    for (auto& input : *mGraph.mutable_input()) {
        if (mInitializers.count(input.name()) || input.type().tensor_type().elem_type() != onnx::TensorProto::FLOAT)
            continue;
        const std::string float32 = mNames.make(input.name() + "_fp32");
        first.push_back(cast(input.name(), float32, onnx::TensorProto::FLOAT));
        renamed[input.name()] = float32;
        setElemType(input, onnx::TensorProto::FLOAT16);
    }
    // Outputs: the producer writes a float32 tensor under a new name, cast to float16 under the output's name.
    for (auto& output : *mGraph.mutable_output()) {
        if (output.type().tensor_type().elem_type() != onnx::TensorProto::FLOAT) continue;
        const std::string float32 = mNames.make(output.name() + "_fp32");
        for (auto& node : *mGraph.mutable_node())
            for (auto& out : *node.mutable_output())
                if (out == output.name()) out = float32;
        renamed[output.name()] = float32;
        last.push_back(cast(float32, output.name(), onnx::TensorProto::FLOAT16));
        setElemType(output, onnx::TensorProto::FLOAT16);
    }
    for (auto& node : *mGraph.mutable_node())
        for (auto& in : *node.mutable_input())
            if (auto it = renamed.find(in); it != renamed.end()) in = it->second;
}

}  // namespace ql
