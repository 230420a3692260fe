#pragma once
// A small test-only builder over the ONNX protobuf API, so tests construct the models they need.
//
//   ModelBuilder b;
//   b.input("x", DataType::Float, {1, 3, 8, 8});
//   b.initializer("w", {4, 3, 3, 3}, randomFloats(108));
//   b.node("Conv", {"x", "w"}, {"y"}).ints("pads", {1, 1, 1, 1});
//   b.output("y");
//   auto model = b.load();
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/model/data_type.h"
#include "core/model/model.h"

namespace ql::test {

class NodeBuilder {
public:
    explicit NodeBuilder(onnx::NodeProto* node) : mNode(node) {}
    NodeBuilder& name(const std::string& n);
    NodeBuilder& domain(const std::string& d);
    NodeBuilder& i(const std::string& attr, int64_t value);
    NodeBuilder& f(const std::string& attr, float value);
    NodeBuilder& s(const std::string& attr, const std::string& value);
    NodeBuilder& ints(const std::string& attr, const std::vector<int64_t>& values);
    NodeBuilder& floats(const std::string& attr, const std::vector<float>& values);
    NodeBuilder& tensor(const std::string& attr, const onnx::TensorProto& value);
    NodeBuilder& graph(const std::string& attr, const onnx::GraphProto& value);
    onnx::NodeProto* proto() { return mNode; }

private:
    onnx::NodeProto* mNode;
};

// Dimension -1 becomes the symbol "N".
onnx::TensorProto makeTensor(const std::string& name, DataType dtype, const std::vector<int64_t>& dims,
                             const std::vector<double>& values);
std::vector<float> seededFloats(size_t count, uint32_t seed = 7767517, float lo = -1.0f, float hi = 1.0f);

class ModelBuilder {
public:
    explicit ModelBuilder(int64_t opset = 13);

    ModelBuilder& input(const std::string& name, DataType dtype, const std::vector<int64_t>& dims);
    // dims empty and known=false: no shape given (shape inference fills it in).
    ModelBuilder& output(const std::string& name, DataType dtype = DataType::Float,
                         const std::vector<int64_t>& dims = {}, bool withShape = false);
    ModelBuilder& initializer(const std::string& name, const std::vector<int64_t>& dims,
                              const std::vector<float>& values);
    ModelBuilder& initializer(const std::string& name, DataType dtype, const std::vector<int64_t>& dims,
                              const std::vector<double>& values);
    ModelBuilder& opset(const std::string& domain, int64_t version);
    NodeBuilder node(const std::string& op, const std::vector<std::string>& inputs,
                     const std::vector<std::string>& outputs, const std::string& name = "");

    onnx::ModelProto& proto() { return mModel; }
    onnx::GraphProto& graph() { return *mModel.mutable_graph(); }
    std::string bytes() const;
    void save(const std::string& path) const;
    // Loads through the real loader (from memory); the test fails if loading fails.
    std::unique_ptr<Model> load(const LoadOptions& options = {}) const;
    Result<std::unique_ptr<Model>> tryLoad(const LoadOptions& options = {}) const;

private:
    onnx::ModelProto mModel;
};

// Loads `proto` (e.g. an export's result) through the real loader, from memory; the test fails if loading fails.
std::unique_ptr<Model> loadProto(const onnx::ModelProto& proto, const std::string& name = "exported.onnx");

// A temporary folder removed at the end of the test.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return mPath; }
    std::string file(const std::string& name) const { return mPath + "/" + name; }

private:
    std::string mPath;
};

void writeFile(const std::string& path, const std::string& content);

}  // namespace ql::test
