#include "ui/panels/node_details.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <QObject>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <string>

#include "core/model/constant_values.h"
#include "core/model/tensor_data.h"
#include "ui/plural.h"

namespace ql::ui {

namespace {

QString number(double value) {
    return QString::number(value, 'g', 6);
}

// "[a, b, c]" or "[a, b, ... (N values)]".
template <typename Range, typename Format>
QString listText(const Range& values, int maxElements, Format format) {
    QStringList parts;
    const int count = static_cast<int>(values.size());
    for (int i = 0; i < count && i < maxElements; ++i) parts << format(values[i]);
    QString text = QStringLiteral("[") + parts.join(QStringLiteral(", "));
    if (count > maxElements) text += QObject::tr(", ... (%1 values)").arg(count);
    return text + QStringLiteral("]");
}

QString quoted(const std::string& s) {
    return QStringLiteral("\"%1\"").arg(QString::fromStdString(s));
}

QString dimsText(const google::protobuf::RepeatedField<int64_t>& dims) {
    QStringList parts;
    for (int64_t d : dims) parts << QString::number(d);
    return QStringLiteral("[") + parts.join(QStringLiteral(",")) + QStringLiteral("]");
}

QString tensorText(const onnx::TensorProto& tensor, int maxElements) {
    const DataType dtype = dataTypeFromOnnx(tensor.data_type());
    QString text =
        QStringLiteral("tensor %1 %2").arg(QString::fromLatin1(dataTypeName(dtype)), dimsText(tensor.dims()));
    if (tensor.has_data_location() && tensor.data_location() == onnx::TensorProto::EXTERNAL)
        return text + QObject::tr(" (external data)");
    if (dtype == DataType::String) return text;
    auto values = tensorAsFloats(tensor);
    if (!values) return text;
    return text + QStringLiteral(": ") + listText(*values, maxElements, [](float v) { return number(v); });
}

size_t graphNodeCount(const onnx::GraphProto& graph) {
    size_t count = static_cast<size_t>(graph.node_size());
    for (const auto& node : graph.node())
        for (const auto& attribute : node.attribute())
            if (attribute.has_g()) count += graphNodeCount(attribute.g());
    return count;
}

QString graphText(const onnx::GraphProto& graph) {
    return QObject::tr("graph '%1' (%2 nodes)")
        .arg(QString::fromStdString(graph.name()))
        .arg(static_cast<qulonglong>(graphNodeCount(graph)));
}

const onnx::OpSchema* schemaOf(const Graph& graph, const Node& node) {
    const int version = static_cast<int>(graph.opsetVersion(node.domain));
    if (version <= 0) return nullptr;
    return onnx::OpSchemaRegistry::Schema(node.opType, version, node.domain == "ai.onnx" ? "" : node.domain);
}

QString formalName(const std::vector<onnx::OpSchema::FormalParameter>& formals, size_t slot) {
    if (formals.empty()) return {};
    if (slot < formals.size() - 1 ||
        (slot == formals.size() - 1 && formals.back().GetOption() != onnx::OpSchema::FormalParameterOption::Variadic))
        return QString::fromStdString(formals[slot].GetName());
    if (formals.back().GetOption() != onnx::OpSchema::FormalParameterOption::Variadic) return {};
    const size_t first = formals.size() - 1;  // the variadic parameter takes every remaining slot
    return QStringLiteral("%1[%2]").arg(QString::fromStdString(formals.back().GetName())).arg(slot - first);
}

}  // namespace

QString attributeText(const onnx::AttributeProto& a, int maxElements) {
    if (!a.ref_attr_name().empty()) return QObject::tr("refers to @%1").arg(QString::fromStdString(a.ref_attr_name()));
    switch (a.type()) {
        case onnx::AttributeProto::FLOAT:
            return number(a.f());
        case onnx::AttributeProto::INT:
            return QString::number(a.i());
        case onnx::AttributeProto::STRING:
            return quoted(a.s());
        case onnx::AttributeProto::TENSOR:
            return tensorText(a.t(), maxElements);
        case onnx::AttributeProto::GRAPH:
            return graphText(a.g());
        case onnx::AttributeProto::SPARSE_TENSOR:
            return QObject::tr("sparse tensor %1, %2 non-zero values")
                .arg(dimsText(a.sparse_tensor().dims()))
                .arg(tensorElementCount(a.sparse_tensor().values()));
        case onnx::AttributeProto::TYPE_PROTO:
            return QObject::tr("type");
        case onnx::AttributeProto::FLOATS:
            return listText(a.floats(), maxElements, [](float v) { return number(v); });
        case onnx::AttributeProto::INTS:
            return listText(a.ints(), maxElements, [](int64_t v) { return QString::number(v); });
        case onnx::AttributeProto::STRINGS:
            return listText(a.strings(), maxElements, [](const std::string& s) { return quoted(s); });
        case onnx::AttributeProto::TENSORS:
            return listText(a.tensors(), maxElements, [](const onnx::TensorProto& t) { return tensorText(t, 4); });
        case onnx::AttributeProto::GRAPHS:
            return listText(a.graphs(), maxElements, [](const onnx::GraphProto& g) { return graphText(g); });
        case onnx::AttributeProto::SPARSE_TENSORS:
            return counted(a.sparse_tensors_size(), QObject::tr("1 sparse tensor"), QObject::tr("%1 sparse tensors"));
        case onnx::AttributeProto::TYPE_PROTOS:
            return counted(a.type_protos_size(), QObject::tr("1 type"), QObject::tr("%1 types"));
        default:
            return QObject::tr("(no value)");
    }
}

QString tensorTypeText(const TensorType& type) {
    const QString dtype =
        type.dtype == DataType::Undefined ? QStringLiteral("?") : QString::fromLatin1(dataTypeName(type.dtype));
    return dtype + QStringLiteral(" ") + QString::fromStdString(type.shapeString());
}

QString formalInputName(const Graph& graph, const Node& node, size_t slot) {
    const onnx::OpSchema* schema = schemaOf(graph, node);
    return schema ? formalName(schema->inputs(), slot) : QString();
}

QString formalOutputName(const Graph& graph, const Node& node, size_t slot) {
    const onnx::OpSchema* schema = schemaOf(graph, node);
    return schema ? formalName(schema->outputs(), slot) : QString();
}

std::vector<ValueId> constantInputs(const Graph& graph, const Node& node) {
    std::vector<ValueId> ids;
    for (ValueId id : node.inputs)
        if (id != kNoId && isConstant(graph, id) && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    return ids;
}

WeightSummary summarizeWeight(const Graph& graph, ValueId value, int binCount) {
    WeightSummary s;
    s.value = value;
    const Value& v = graph.value(value);
    s.name = QString::fromStdString(v.name);
    s.dtype = constantDataType(graph, value);
    s.shape = QString::fromStdString(v.type.shapeString());
    if (const Initializer* init = graph.initializerOf(value)) {
        QStringList dims;
        for (int64_t d : init->dims) dims << QString::number(d);
        s.shape = QStringLiteral("[") + dims.join(QStringLiteral(",")) + QStringLiteral("]");
    }
    if (s.dtype == DataType::String || s.dtype == DataType::Undefined) {
        s.error = QObject::tr("not numeric");
        return s;
    }
    const auto values = constantFloats(graph, value);
    if (!values) {
        s.error = QObject::tr("the data could not be read");
        return s;
    }
    s.count = static_cast<int64_t>(values->size());
    // Two passes in double: exact enough for millions of values without a running-variance update.
    double sum = 0;
    int64_t finite = 0;
    s.min = INFINITY;
    s.max = -INFINITY;
    for (float x : *values) {
        if (!std::isfinite(x)) continue;
        ++finite;
        sum += x;
        s.min = std::min(s.min, static_cast<double>(x));
        s.max = std::max(s.max, static_cast<double>(x));
    }
    s.nonFinite = s.count - finite;
    if (finite == 0) {
        s.min = s.max = 0;
        return s;
    }
    s.mean = sum / static_cast<double>(finite);
    double squares = 0;
    for (float x : *values)
        if (std::isfinite(x)) squares += (x - s.mean) * (x - s.mean);
    s.std = std::sqrt(squares / static_cast<double>(finite));
    s.bins.assign(static_cast<size_t>(std::max(binCount, 1)), 0);
    s.binLow = s.min;
    s.binWidth = s.max > s.min ? (s.max - s.min) / static_cast<double>(s.bins.size()) : 1.0;
    for (float x : *values) {
        if (!std::isfinite(x)) continue;
        const auto bin = static_cast<size_t>((x - s.binLow) / s.binWidth);
        ++s.bins[std::min(bin, s.bins.size() - 1)];
    }
    return s;
}

}  // namespace ql::ui
