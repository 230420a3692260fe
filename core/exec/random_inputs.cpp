#include "core/exec/random_inputs.h"

#include <random>

#include "core/common/element_count.h"
#include "core/common/half.h"

namespace ql {

namespace {

// A model declares its input shapes; one whose dimensions multiply past memory (a damaged or hostile file) must be an
// error, not an allocation that the OS answers with an OOM kill. 1 GiB is ~350 4K RGB float32 images: more than
// any benchmark input.
constexpr uint64_t kMaxRandomInputBytes = uint64_t{1} << 30;

template <typename T, typename Draw>
void fill(Tensor& t, Draw&& draw) {
    for (T& v : t.span<T>()) v = static_cast<T>(draw());
}

Status fillRandom(Tensor& t, std::mt19937& rng) {
    std::uniform_real_distribution<float> real(-1.0f, 1.0f);
    std::uniform_int_distribution<int> small(0, 7);
    auto r = [&] { return real(rng); };
    auto i = [&] { return small(rng); };
    switch (t.dtype()) {
        case DataType::Float:
            fill<float>(t, r);
            break;
        case DataType::Double:
            fill<double>(t, r);
            break;
        case DataType::Float16:
            fill<uint16_t>(t, [&] { return floatToHalf(r()); });
            break;
        case DataType::BFloat16:
            fill<uint16_t>(t, [&] { return floatToBfloat16(r()); });
            break;
        case DataType::Int8:
            fill<int8_t>(t, i);
            break;
        case DataType::UInt8:
            fill<uint8_t>(t, i);
            break;
        case DataType::Int16:
            fill<int16_t>(t, i);
            break;
        case DataType::UInt16:
            fill<uint16_t>(t, i);
            break;
        case DataType::Int32:
            fill<int32_t>(t, i);
            break;
        case DataType::UInt32:
            fill<uint32_t>(t, i);
            break;
        case DataType::Int64:
            fill<int64_t>(t, i);
            break;
        case DataType::UInt64:
            fill<uint64_t>(t, i);
            break;
        case DataType::Bool:
            fill<uint8_t>(t, [&] { return i() & 1; });
            break;
        default:
            return unsupported(std::string("cannot make random values of type ") + dataTypeName(t.dtype()));
    }
    return Status::ok();
}

}  // namespace

Result<NamedTensors> randomInputs(const Graph& graph, uint32_t seed, int64_t openDim, const KnownInputShapes& known) {
    std::mt19937 rng(seed);
    NamedTensors inputs;
    for (ValueId id : graph.inputs()) {
        const Value& v = graph.value(id);
        if (!v.type.hasShape)
            return invalidArgument("input '" + v.name + "' has no declared shape; give its data explicitly");
        const auto seen = known.find(v.name);
        const bool useSeen = seen != known.end() && seen->second.size() == v.type.dims.size();
        Shape shape;
        for (size_t axis = 0; axis < v.type.dims.size(); ++axis) {
            const Dim& d = v.type.dims[axis];
            shape.push_back(d.known() ? d.size : useSeen ? seen->second[axis] * openDim : openDim);
        }
        const auto bytes = checkedByteSize(shape, dataTypeSize(v.type.dtype));
        if (!bytes || *bytes > kMaxRandomInputBytes) {
            return invalidArgument("input '" + v.name + "' of shape " + shapeString(shape) + " needs more than " +
                                   std::to_string(kMaxRandomInputBytes >> 20) + " MB; fix the model's input shape");
        }
        Tensor t(v.type.dtype, shape);
        QL_RETURN_IF_ERROR(fillRandom(t, rng).withContext("input '" + v.name + "'"));
        inputs.emplace_back(v.name, std::move(t));
    }
    return inputs;
}

}  // namespace ql
