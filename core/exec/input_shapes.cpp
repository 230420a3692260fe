#include "core/exec/input_shapes.h"

#include <onnx/onnx_pb.h>
#include <map>
#include <span>
#include <sstream>
#include <vector>

#include "core/exec/observed_costs.h"

namespace ql {

namespace {

// --shapes input=1x3x224x224,mask=1x128: the input dims to predict for.
Result<std::map<std::string, std::vector<int64_t>>> parseShapes(const std::string& text) {
    std::map<std::string, std::vector<int64_t>> shapes;
    std::stringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        const size_t eq = item.rfind('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
            return invalidArgument("--shapes " + text + ": expected NAME=DIMS,... with DIMS like 1x3x224x224");
        std::vector<int64_t> dims;
        std::stringstream parts(item.substr(eq + 1));
        std::string part;
        while (std::getline(parts, part, 'x')) {
            try {
                size_t used = 0;
                const long long value = std::stoll(part, &used);
                if (used != part.size() || value < 1) throw std::invalid_argument(part);
                dims.push_back(value);
            } catch (const std::exception&) {
                return invalidArgument("--shapes " + item + ": '" + part + "' is not a dimension (a number >= 1)");
            }
        }
        shapes[item.substr(0, eq)] = std::move(dims);
    }
    return shapes;
}

}  // namespace

Result<std::unique_ptr<Model>> withInputShapes(const Model& model, const std::string& text) {
    QL_ASSIGN_OR_RETURN(auto shapes, parseShapes(text));
    if (model.usesExternalData())
        return invalidArgument("--shapes: " + model.fileName() +
                               " keeps its weights in external data; give its "
                               "inputs fixed shapes in the file instead");
    onnx::ModelProto proto = model.proto();
    for (onnx::ValueInfoProto& input : *proto.mutable_graph()->mutable_input()) {
        const auto it = shapes.find(input.name());
        if (it == shapes.end()) continue;
        auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
        shape->clear_dim();
        for (int64_t d : it->second) shape->add_dim()->set_dim_value(d);
        shapes.erase(it);
    }
    if (!shapes.empty())
        return invalidArgument("--shapes: " + model.fileName() + " has no input named '" + shapes.begin()->first + "'");
    // The inferred shapes of the old dims would contradict the new ones.
    proto.mutable_graph()->clear_value_info();
    const std::string bytes = proto.SerializeAsString();
    QL_ASSIGN_OR_RETURN(auto reshaped,
                        Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())), model.fileName()));
    (void)measureLayerCosts(*reshaped);
    return reshaped;
}

}  // namespace ql
