// Conv, Gemm and MatMul through the executor on one-node models, reported in GFLOP/s.
//   build-*/bench/bench_kernels --benchmark_min_time=0.2
#include <benchmark/benchmark.h>
#include <onnx/onnx_pb.h>

#include <random>

#include "core/exec/executor.h"
#include "core/model/model.h"

namespace {

using ql::DataType;
using ql::Shape;

std::vector<float> randomFloats(int64_t n) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = d(rng);
    return v;
}

void setType(onnx::ValueInfoProto* v, const std::string& name, const Shape& shape) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) t->mutable_shape()->add_dim()->set_dim_value(d);
}

// A one-node model: input "x", constant weights "w" (and optional constant "b"), output "y".
struct OneNode {
    onnx::ModelProto proto;
    onnx::NodeProto* node;
    OneNode(const std::string& op, const Shape& x, const Shape& w, int64_t bias) {
        proto.set_ir_version(8);
        proto.add_opset_import()->set_version(17);
        auto* g = proto.mutable_graph();
        g->set_name("bench");
        setType(g->add_input(), "x", x);
        auto* init = g->add_initializer();
        init->set_name("w");
        init->set_data_type(onnx::TensorProto::FLOAT);
        for (int64_t d : w) init->add_dims(d);
        const auto values = randomFloats(ql::shapeElementCount(w));
        init->set_raw_data(values.data(), values.size() * sizeof(float));
        node = g->add_node();
        node->set_op_type(op);
        node->add_input("x");
        node->add_input("w");
        if (bias > 0) {
            auto* b = g->add_initializer();
            b->set_name("b");
            b->set_data_type(onnx::TensorProto::FLOAT);
            b->add_dims(bias);
            const auto bv = randomFloats(bias);
            b->set_raw_data(bv.data(), bv.size() * sizeof(float));
            node->add_input("b");
        }
        node->add_output("y");
        g->add_output()->set_name("y");
    }
    void ints(const std::string& name, const Shape& values) {
        auto* a = node->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : values) a->add_ints(v);
    }
    void i(const std::string& name, int64_t value) {
        auto* a = node->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(value);
    }
};

void runNode(benchmark::State& state, const OneNode& spec, const Shape& x, double flops) {
    const std::string bytes = spec.proto.SerializeAsString();
    auto model = ql::Model::loadFromBytes({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, "bench");
    if (!model) return state.SkipWithError(model.status().message().c_str());
    auto exec = ql::Executor::create((*model)->graph(), {static_cast<int>(state.range(0))});
    if (!exec) return state.SkipWithError(exec.status().message().c_str());
    const ql::NamedTensors inputs = {
        {"x", ql::Tensor::fromVector<float>(DataType::Float, x, randomFloats(ql::shapeElementCount(x)))}};
    for (auto _ : state) {
        auto out = (*exec)->run(inputs);
        if (!out) return state.SkipWithError(out.status().message().c_str());
        benchmark::DoNotOptimize(out->front().second.rawData());
    }
    state.counters["GFLOP/s"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// 3x3 conv, pads 1: (channels in, channels out, size, group) from the benchmark arguments 1-4.
void BM_Conv3x3(benchmark::State& state) {
    const int64_t c = state.range(1), m = state.range(2), hw = state.range(3), group = state.range(4);
    OneNode spec("Conv", {1, c, hw, hw}, {m, c / group, 3, 3}, m);
    spec.ints("pads", {1, 1, 1, 1});
    spec.i("group", group);
    runNode(state, spec, {1, c, hw, hw}, 2.0 * m * (c / group) * 9 * hw * hw);
}
BENCHMARK(BM_Conv3x3)
    ->ArgNames({"threads", "cin", "cout", "hw", "group"})
    ->Args({1, 64, 64, 56, 1})
    ->Args({2, 64, 64, 56, 1})
    ->Args({2, 256, 256, 14, 1})
    ->Args({2, 32, 32, 112, 32})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// 1x1 conv as in MobileNet / EfficientNet expand and project layers: (threads, channels in, channels out, size).
void BM_Conv1x1(benchmark::State& state) {
    const int64_t c = state.range(1), m = state.range(2), hw = state.range(3);
    OneNode spec("Conv", {1, c, hw, hw}, {m, c, 1, 1}, m);
    runNode(state, spec, {1, c, hw, hw}, 2.0 * m * c * hw * hw);
}
BENCHMARK(BM_Conv1x1)
    ->ArgNames({"threads", "cin", "cout", "hw"})
    ->Args({1, 16, 96, 112})
    ->Args({1, 320, 1280, 7})
    ->Args({2, 320, 1280, 7})
    ->Args({2, 112, 672, 14})
    ->Args({2, 1152, 192, 7})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Gemm y = x w^T + b as in a classifier head: (threads, M, N, K).
void BM_Gemm(benchmark::State& state) {
    const int64_t m = state.range(1), n = state.range(2), k = state.range(3);
    OneNode spec("Gemm", {m, k}, {n, k}, n);
    spec.i("transB", 1);
    runNode(state, spec, {m, k}, 2.0 * m * n * k);
}
BENCHMARK(BM_Gemm)
    ->ArgNames({"threads", "m", "n", "k"})
    ->Args({1, 1, 1000, 512})
    ->Args({2, 64, 1024, 1024})
    ->Args({2, 256, 256, 256})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Batched MatMul [batch, m, k] x [k, n] as in a transformer projection: (threads, batch, m, k, n).
void BM_MatMul(benchmark::State& state) {
    const int64_t batch = state.range(1), m = state.range(2), k = state.range(3), n = state.range(4);
    OneNode spec("MatMul", {batch, m, k}, {k, n}, 0);
    runNode(state, spec, {batch, m, k}, 2.0 * batch * m * n * k);
}
BENCHMARK(BM_MatMul)
    ->ArgNames({"threads", "batch", "m", "k", "n"})
    ->Args({1, 1, 197, 192, 576})
    ->Args({2, 8, 197, 192, 768})
    ->Args({1, 1, 49, 320, 1280})
    ->Args({2, 1, 49, 320, 1280})
    ->Args({2, 1, 196, 112, 672})
    ->Args({2, 1, 49, 1152, 192})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
