#include "core/data/data_source.h"

#include <algorithm>
#include <cstring>

namespace ql {
namespace {

// "[3,224,224]" with "?" for unknown dims.
std::string dimsString(std::span<const int64_t> dims) {
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) s += ',';
        s += dims[i] < 0 ? std::string("?") : std::to_string(dims[i]);
    }
    return s + "]";
}

bool matches(const Shape& shape, std::span<const int64_t> expected) {
    if (shape.size() != expected.size()) return false;
    for (size_t i = 0; i < shape.size(); ++i)
        if (expected[i] >= 0 && shape[i] != expected[i]) return false;
    return true;
}

}  // namespace

Batching batchingFor(const Graph& graph, int64_t batchSize) {
    for (const InputSpec& spec : inputSpecs(graph))
        if (spec.hasShape && spec.batchAxis < spec.dims.size() && spec.dims[spec.batchAxis] > 0)
            return {spec.dims[spec.batchAxis], true};
    return {std::max<int64_t>(1, batchSize), false};
}

namespace {

// InputSpec::batchAxis of an input of `dims`.
size_t batchAxisOf(const std::vector<int64_t>& dims) {
    if (dims.size() < 2 || dims[0] <= 1) return 0;
    size_t open = 0, axis = 0;
    for (size_t k = 1; k < dims.size(); ++k)
        if (dims[k] < 0) ++open, axis = k;
    return open == 1 ? axis : 0;
}

}  // namespace

std::vector<int64_t> InputSpec::sampleDims() const {
    std::vector<int64_t> sample = dims;
    if (batchAxis < sample.size()) sample.erase(sample.begin() + static_cast<std::ptrdiff_t>(batchAxis));
    return sample;
}

std::vector<InputSpec> inputSpecs(const Graph& graph) {
    std::vector<InputSpec> specs;
    for (ValueId id : graph.inputs()) {
        const Value& v = graph.value(id);
        InputSpec spec{v.name, v.type.dtype, v.type.hasShape, {}};
        for (const Dim& d : v.type.dims) spec.dims.push_back(d.known() ? d.size : -1);
        spec.batchAxis = batchAxisOf(spec.dims);
        specs.push_back(std::move(spec));
    }
    return specs;
}

Tensor stackOnAxis(Tensor stacked, size_t axis) {
    if (axis == 0 || stacked.rank() < 2 || axis >= static_cast<size_t>(stacked.rank())) return stacked;
    const Shape& shape = stacked.shape();
    const int64_t count = shape[0];
    int64_t outer = 1;
    for (size_t k = 1; k <= axis; ++k) outer *= shape[k];
    const size_t inner = stacked.byteSize() / static_cast<size_t>(std::max<int64_t>(1, count * outer));
    Shape batch(shape.begin() + 1, shape.end());
    batch.insert(batch.begin() + static_cast<std::ptrdiff_t>(axis), count);
    Tensor out(stacked.dtype(), batch);
    const auto* from = static_cast<const std::byte*>(stacked.rawData());
    auto* to = static_cast<std::byte*>(out.rawData());
    for (int64_t i = 0; i < count; ++i)
        for (int64_t o = 0; o < outer; ++o)
            std::memcpy(to + static_cast<size_t>(o * count + i) * inner,
                        from + static_cast<size_t>(i * outer + o) * inner, inner);
    return out;
}

std::string numpyDtypeName(DataType dtype) {
    switch (dtype) {
        case DataType::Float:
            return "float32";
        case DataType::Double:
            return "float64";
        case DataType::Float16:
            return "float16";
        case DataType::Int8:
            return "int8";
        case DataType::Int16:
            return "int16";
        case DataType::Int32:
            return "int32";
        case DataType::Int64:
            return "int64";
        case DataType::UInt8:
            return "uint8";
        case DataType::UInt16:
            return "uint16";
        case DataType::UInt32:
            return "uint32";
        case DataType::UInt64:
            return "uint64";
        case DataType::Bool:
            return "bool";
        default:
            return dataTypeName(dtype);
    }
}

Result<Shape> checkSample(const Shape& shape, DataType dtype, const InputSpec& spec, const std::string& label) {
    if (dtype != spec.dtype) {
        return invalidArgument(label + ": holds " + numpyDtypeName(dtype) + " data but model input '" + spec.name +
                               "' expects " + numpyDtypeName(spec.dtype) + "; convert it with arr.astype(np." +
                               numpyDtypeName(spec.dtype) + ")");
    }
    if (!spec.hasShape) return shape;
    if (spec.dims.empty()) {
        return unsupported("model input '" + spec.name + "' is a scalar: it has no batch axis to stack samples on");
    }
    const std::vector<int64_t> sampleDims = spec.sampleDims();
    if (matches(shape, sampleDims)) return shape;
    if (shape.size() == spec.dims.size() && shape[spec.batchAxis] == 1) {
        Shape inner = shape;
        inner.erase(inner.begin() + static_cast<std::ptrdiff_t>(spec.batchAxis));
        if (matches(inner, sampleDims)) return inner;
    }
    return invalidArgument(label + ": a sample has shape " + shapeString(shape) + " but model input '" + spec.name +
                           "' " + dimsString(spec.dims) + " expects samples of shape " + dimsString(sampleDims) +
                           " (the input without its batch axis)");
}

Result<std::unique_ptr<MultiInputSource>> MultiInputSource::create(Inputs inputs) {
    if (inputs.empty()) return invalidArgument("no calibration data: the model has no inputs to feed");
    const int64_t count = inputs.front().second->sampleCount();
    for (const auto& [name, data] : inputs) {
        if (data->sampleCount() != count) {
            return invalidArgument("the data for input '" + name + "' has " + std::to_string(data->sampleCount()) +
                                   " samples but the data for input '" + inputs.front().first + "' has " +
                                   std::to_string(count) + "; give every input the same number of samples");
        }
    }
    if (count == 0) return invalidArgument("the calibration data holds no samples");
    return std::unique_ptr<MultiInputSource>(new MultiInputSource(std::move(inputs), count));
}

Result<NamedTensors> MultiInputSource::read(int64_t first, int64_t count) {
    if (first < 0 || count <= 0 || first + count > mCount) {
        return invalidArgument("samples " + std::to_string(first) + ".." + std::to_string(first + count) +
                               " requested from data holding " + std::to_string(mCount));
    }
    NamedTensors batch;
    for (auto& [name, data] : mInputs) {
        QL_ASSIGN_OR_RETURN(Tensor t, data->read(first, count));
        batch.emplace_back(name, std::move(t));
    }
    return batch;
}

}  // namespace ql
