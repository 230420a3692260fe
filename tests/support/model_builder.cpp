#include "tests/support/model_builder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>

#include "core/common/half.h"

namespace ql::test {

namespace {

void setShape(onnx::ValueInfoProto* info, DataType dtype, const std::vector<int64_t>& dims, bool withShape) {
    info->set_name(info->name());
    auto* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(static_cast<int32_t>(dtype));
    if (!withShape) return;
    auto* shape = tensor->mutable_shape();
    for (int64_t d : dims) {
        auto* dim = shape->add_dim();
        if (d < 0)
            dim->set_dim_param("N");
        else
            dim->set_dim_value(d);
    }
}

template <typename T>
void appendRaw(std::string& raw, T v) {
    char buf[sizeof(T)];
    std::memcpy(buf, &v, sizeof(T));
    raw.append(buf, sizeof(T));
}

}  // namespace

NodeBuilder& NodeBuilder::name(const std::string& n) {
    mNode->set_name(n);
    return *this;
}
NodeBuilder& NodeBuilder::domain(const std::string& d) {
    mNode->set_domain(d);
    return *this;
}
NodeBuilder& NodeBuilder::i(const std::string& attr, int64_t value) {
    auto* a = mNode->add_attribute();
    a->set_name(attr);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
    return *this;
}
NodeBuilder& NodeBuilder::f(const std::string& attr, float value) {
    auto* a = mNode->add_attribute();
    a->set_name(attr);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(value);
    return *this;
}
NodeBuilder& NodeBuilder::s(const std::string& attr, const std::string& value) {
    auto* a = mNode->add_attribute();
    a->set_name(attr);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(value);
    return *this;
}
NodeBuilder& NodeBuilder::ints(const std::string& attr, const std::vector<int64_t>& values) {
    auto* a = mNode->add_attribute();
    a->set_name(attr);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
    return *this;
}
NodeBuilder& NodeBuilder::floats(const std::string& attr, const std::vector<float>& values) {
    auto* a = mNode->add_attribute();
    a->set_name(attr);
    a->set_type(onnx::AttributeProto::FLOATS);
    for (float v : values) a->add_floats(v);
    return *this;
}
NodeBuilder& NodeBuilder::tensor(const std::string& attr, const onnx::TensorProto& value) {
    auto* a = mNode->add_attribute();
    a->set_name(attr);
    a->set_type(onnx::AttributeProto::TENSOR);
    *a->mutable_t() = value;
    return *this;
}
NodeBuilder& NodeBuilder::graph(const std::string& attr, const onnx::GraphProto& value) {
    auto* a = mNode->add_attribute();
    a->set_name(attr);
    a->set_type(onnx::AttributeProto::GRAPH);
    *a->mutable_g() = value;
    return *this;
}

onnx::TensorProto makeTensor(const std::string& name, DataType dtype, const std::vector<int64_t>& dims,
                             const std::vector<double>& values) {
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(static_cast<int32_t>(dtype));
    for (int64_t d : dims) t.add_dims(d);
    std::string raw;
    for (double v : values) {
        switch (dtype) {
            case DataType::Float:
                appendRaw(raw, static_cast<float>(v));
                break;
            case DataType::Double:
                appendRaw(raw, v);
                break;
            case DataType::Float16:
                appendRaw(raw, floatToHalf(static_cast<float>(v)));
                break;
            case DataType::Int8:
                appendRaw(raw, static_cast<int8_t>(v));
                break;
            case DataType::UInt8:
            case DataType::Bool:
                appendRaw(raw, static_cast<uint8_t>(v));
                break;
            case DataType::Int32:
                appendRaw(raw, static_cast<int32_t>(v));
                break;
            case DataType::Int64:
                appendRaw(raw, static_cast<int64_t>(v));
                break;
            default:
                ADD_FAILURE() << "makeTensor: unsupported dtype " << dataTypeName(dtype);
                break;
        }
    }
    t.set_raw_data(raw);
    return t;
}

std::vector<float> seededFloats(size_t count, uint32_t seed, float lo, float hi) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(count);
    for (auto& x : v) x = dist(rng);
    return v;
}

ModelBuilder::ModelBuilder(int64_t opset) {
    mModel.set_ir_version(8);
    mModel.set_producer_name("quantlens-tests");
    auto* o = mModel.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    mModel.mutable_graph()->set_name("test");
}

ModelBuilder& ModelBuilder::input(const std::string& name, DataType dtype, const std::vector<int64_t>& dims) {
    auto* in = graph().add_input();
    in->set_name(name);
    setShape(in, dtype, dims, true);
    return *this;
}

ModelBuilder& ModelBuilder::output(const std::string& name, DataType dtype, const std::vector<int64_t>& dims,
                                   bool withShape) {
    auto* out = graph().add_output();
    out->set_name(name);
    setShape(out, dtype, dims, withShape || !dims.empty());
    return *this;
}

ModelBuilder& ModelBuilder::initializer(const std::string& name, const std::vector<int64_t>& dims,
                                        const std::vector<float>& values) {
    return initializer(name, DataType::Float, dims, std::vector<double>(values.begin(), values.end()));
}

ModelBuilder& ModelBuilder::initializer(const std::string& name, DataType dtype, const std::vector<int64_t>& dims,
                                        const std::vector<double>& values) {
    *graph().add_initializer() = makeTensor(name, dtype, dims, values);
    return *this;
}

ModelBuilder& ModelBuilder::opset(const std::string& domain, int64_t version) {
    for (auto& o : *mModel.mutable_opset_import()) {
        if (o.domain() == domain) {
            o.set_version(version);
            return *this;
        }
    }
    auto* o = mModel.add_opset_import();
    o->set_domain(domain);
    o->set_version(version);
    return *this;
}

NodeBuilder ModelBuilder::node(const std::string& op, const std::vector<std::string>& inputs,
                               const std::vector<std::string>& outputs, const std::string& name) {
    auto* n = graph().add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return NodeBuilder(n);
}

std::string ModelBuilder::bytes() const {
    return mModel.SerializeAsString();
}

void ModelBuilder::save(const std::string& path) const {
    writeFile(path, bytes());
}

Result<std::unique_ptr<Model>> ModelBuilder::tryLoad(const LoadOptions& options) const {
    const std::string b = bytes();
    return Model::loadFromBytes({reinterpret_cast<const std::byte*>(b.data()), b.size()}, "test.onnx", options);
}

std::unique_ptr<Model> ModelBuilder::load(const LoadOptions& options) const {
    auto model = tryLoad(options);
    EXPECT_TRUE(model.isOk()) << model.status().message();
    if (!model) return nullptr;
    return std::move(model).value();
}

std::unique_ptr<Model> loadProto(const onnx::ModelProto& proto, const std::string& name) {
    const std::string bytes = proto.SerializeAsString();
    auto model = Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())), name);
    EXPECT_TRUE(model.isOk()) << model.status().message();
    return model ? std::move(model).value() : nullptr;
}

TempDir::TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "quantlens-test-XXXXXX").string();
    char* made = ::mkdtemp(pattern.data());
    if (!made) throw std::runtime_error("mkdtemp failed");
    mPath = made;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(mPath, ec);
}

void writeFile(const std::string& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary);
    out << content;
}

}  // namespace ql::test
