// One truth, checked as properties over the model zoo (tests/support/model_zoo.h) x TensorRT targets (8.6, 10 weak,
// 10 strong, 11) x plans (the default placement, all FP16 but one INT8 layer, random per-node precisions, FP16 and
// FP32 at random with nothing INT8; the bodies of If/Loop/Scan nodes planned too: the default placement, all INT8,
// random):
//   (a) the exported file, run by the executor, computes what `run --simulate` of the plan computes (to an ulp or
//       two where the executor fuses differently; to a quantization step where the export folds a BatchNormalization
//       into an INT8 layer's weight);
//   (b) reading the file back (carriedModel, as `run --simulate`, `compare`, `quantize` and the window read it) gives
//       every node, the planned bodies' included, the precision the realized plan says (a weakly typed file names
//       the layers its script pins FP32; the builder's --fp16 runs the rest of its float layers);
//   (c) the counts `quantize` prints (exportLayerCounts) equal the window's status bar (lint coverage), and the
//       summary's layers say the plan's precisions;
//   and the file passes the ONNX checker. A failure names the model, the target and the plan's seed.
#include <gtest/gtest.h>

#include <onnx/checker.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include "core/exec/executor.h"
#include "core/exec/random_inputs.h"
#include "core/export/carried_model.h"
#include "core/export/effective_plan.h"
#include "core/export/qdq_export.h"
#include "core/lint/lint_context.h"
#include "core/lint/linter.h"
#include "core/model/fp16_form.h"
#include "core/model/op_roles.h"
#include "core/model/subgraph_model.h"
#include "core/quant/default_placement.h"
#include "core/quant/realized_precision.h"
#include "core/quant/simulation.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/model_builder.h"
#include "tests/support/model_zoo.h"

namespace ql {
namespace {

struct Target {
    const char* name;
    TrtTarget trt;
};
constexpr Target kTargets[] = {{"8.6", {TrtVersion::Trt86, TrtTyping::Weak}},
                               {"10 weak", {TrtVersion::Trt10, TrtTyping::Weak}},
                               {"10 strong", {TrtVersion::Trt10, TrtTyping::Strong}},
                               {"11", {TrtVersion::Trt11, TrtTyping::Strong}}};

enum class PlanKind { Default, AllFp16ButOne, Random, NoInt8 };

const char* kindName(PlanKind kind) {
    switch (kind) {
        case PlanKind::Default:
            return "default";
        case PlanKind::AllFp16ButOne:
            return "all FP16 but one";
        case PlanKind::Random:
            return "random";
        case PlanKind::NoInt8:
            return "nothing INT8";
    }
    return "";
}

// A node's precision in a plan of `kind` that is not the default placement: `otherwise` for "all FP16 but one".
Precision randomChoice(PlanKind kind, std::mt19937& random, Precision otherwise) {
    if (kind == PlanKind::Random) return static_cast<Precision>(random() % 3);
    if (kind == PlanKind::NoInt8) return random() % 2 ? Precision::Fp16 : Precision::Fp32;
    return otherwise;
}

// Every body of `graph`'s control-flow nodes planned, nested ones too: by the default placement, all INT8 (for
// "all FP16 but one", so that INT8 bodies are written under every target) or at random.
void planBodies(const Graph& graph, PrecisionPlan& plan, PlanKind kind, std::mt19937& random) {
    for (const Node& node : graph.nodes())
        for (const SubgraphInfo& subgraph : node.subgraphs) {
            auto body = buildSubgraphModel(graph, node, subgraph.attribute);
            ASSERT_TRUE(body) << body.status().message();
            PrecisionPlan& planned = plan.ensureBody(node.name, subgraph.attribute, body->graph);
            planned = defaultPrecisionPlan(body->graph);
            for (const Node& inner : body->graph.nodes()) {
                if (kind == PlanKind::Default || !hasPrecisionChoice(body->graph, inner)) continue;
                planned.setRequested(inner.id, randomChoice(kind, random, Precision::Int8));
            }
            planBodies(body->graph, planned, kind, random);
        }
}

PrecisionPlan requestedPlan(const Graph& graph, PlanKind kind, uint32_t seed) {
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    std::mt19937 random(seed);
    planBodies(graph, plan, kind, random);
    if (kind == PlanKind::Default) return plan;
    std::vector<NodeId> weighted;
    for (const Node& node : graph.nodes()) {
        if (!hasPrecisionChoice(graph, node)) continue;
        if (isWeightedLayer(node)) weighted.push_back(node.id);
        plan.setRequested(node.id, randomChoice(kind, random, Precision::Fp16));
    }
    if (kind == PlanKind::AllFp16ButOne && !weighted.empty())
        plan.setRequested(weighted[random() % weighted.size()], Precision::Int8);
    return plan;
}

// What the file computes: a weakly typed file has no float16, so its FP16 layers compute FP32 (`run --simulate
// --fallback fp32` simulates that); a strongly typed one writes them as float16 islands.
PrecisionPlan computedByFile(PrecisionPlan plan, const TrtTarget& target) {
    if (target.typing == TrtTyping::Weak) runFp16LayersInFp32(plan, "weak: float32");
    return plan;
}

// The executor fuses differently around the simulation's intercepted nodes (a Conv with its Add as a oneDNN post-op,
// or not), which moves a float32 result by an ulp or two: the same computation, not another one.
constexpr float kFusionTolerance = 1e-5f;
// Where the export folds a BatchNormalization into an INT8 layer, the file quantizes W * s and the simulation
// quantizes W * s and divides by s again: a value on a rounding boundary of a later quantizer may land one step away
// (2 / 127 here, the fixture's scale).
constexpr float kFoldedTolerance = 2.0f / 127.0f + 1e-5f;

bool foldsBatchNorm(const QdqExport& result) {
    return std::any_of(result.steps.begin(), result.steps.end(),
                       [](const PreparationStep& s) { return s.action == "fold-batchnorm"; });
}

class RoundTrip : public testing::TestWithParam<test::ZooModel> {
protected:
    void SetUp() override {
        mModel = GetParam().load();
        ASSERT_TRUE(mModel);
        mCalibration = test::uniformCalibration(mModel->graph());
        auto inputs = randomInputs(mModel->graph(), 3);
        ASSERT_TRUE(inputs) << inputs.status().message();
        mInputs = std::move(inputs).value();
    }

    void check(const Target& target, PlanKind kind, uint32_t seed) {
        const std::string where = GetParam().name + ", TensorRT " + target.name + ", " + kindName(kind) +
                                  " plan, seed " + std::to_string(seed);
        SCOPED_TRACE(where);
        const Graph& graph = mModel->graph();
        const PrecisionPlan plan = effectivePlan(graph, requestedPlan(graph, kind, seed), target.trt.version,
                                                 Precision::Fp16, &mCalibration, target.trt.typing);
        QdqOptions options;
        options.tensorRtMajor = target.trt.version == TrtVersion::Trt86 ? 8 : 10;
        auto result = exportQdq(*mModel, plan, mCalibration, options, {.trt = target.trt});
        ASSERT_TRUE(result) << result.status().message();
        EXPECT_NO_THROW(onnx::checker::check_model(result->proto));
        auto file = test::loadProto(result->proto);
        ASSERT_TRUE(file);
        expectSameOutputs(*file, computedByFile(plan, target.trt), options, foldsBatchNorm(*result));
        expectReadBack(*file, plan, target.trt);
        expectSameCounts(*result, plan, target.trt);
    }

    void expectSameOutputs(const Model& file, const PrecisionPlan& plan, const QdqOptions& options, bool folded) {
        auto fileExec = Executor::create(file.graph());
        ASSERT_TRUE(fileExec) << fileExec.status().message();
        auto fileOut = (*fileExec)->run(mInputs);
        ASSERT_TRUE(fileOut) << fileOut.status().message();
        auto simulator = QuantSimulator::create(mModel->graph(), plan, mCalibration, options);
        ASSERT_TRUE(simulator) << simulator.status().message();
        auto simExec = Executor::create(mModel->graph());
        ASSERT_TRUE(simExec) << simExec.status().message();
        RunOptions simulated;
        simulated.interceptor = simulator->get();
        auto simOut = (*simExec)->run(mInputs, simulated);
        ASSERT_TRUE(simOut) << simOut.status().message();
        ASSERT_EQ(fileOut->size(), simOut->size());
        for (size_t o = 0; o < simOut->size(); ++o) {
            const auto a = (*fileOut)[o].second.toFloats(), b = (*simOut)[o].second.toFloats();
            ASSERT_EQ(a.size(), b.size()) << (*simOut)[o].first;
            size_t differing = 0;
            float worst = 0.0f;
            for (size_t i = 0; i < a.size(); ++i) {
                const float error = std::fabs(a[i] - b[i]) / std::max(1.0f, std::fabs(b[i]));
                if (error > (folded ? kFoldedTolerance : kFusionTolerance)) ++differing;
                worst = std::max(worst, error);
            }
            EXPECT_EQ(differing, 0u) << "output '" << (*simOut)[o].first << "': " << differing << " of " << a.size()
                                     << " values differ from the simulation (worst relative error " << worst << ")";
        }
    }

    void expectReadBack(const Model& file, const PrecisionPlan& plan, const TrtTarget& target) {
        auto reloaded = test::loadProto(file.proto());
        ASSERT_TRUE(reloaded);
        auto carried = carriedModel(std::move(reloaded));
        ASSERT_TRUE(carried) << carried.status().message();
        const Graph& graph = mModel->graph();
        // Even without Q/DQ or float16 (nothing INT8), the file says what it was written for (quantlens.typing).
        ASSERT_TRUE(carried->plan) << "the file reads back as a fresh float model";
        expectSamePrecisions(graph, plan, carried->model->graph(), *carried->plan, target, "");
    }

    // Each node of `graph` as `plan` runs it against the node of that name in `read` as the file says (`written`),
    // and the bodies the plan quantizes against the file's.
    static void expectSamePrecisions(const Graph& graph, const PrecisionPlan& plan, const Graph& read,
                                     const PrecisionPlan& written, const TrtTarget& target, const std::string& path) {
        const std::vector<bool> folded = constantComputed(graph);
        for (const Node& node : graph.nodes()) {
            if (!hasPrecisionChoice(graph, node) || folded[static_cast<size_t>(node.id)]) continue;
            const auto same = read.findNode(node.name);
            if (!same) continue;  // folded into its layer (BatchNormalization)
            const Precision planned = plan.effective(node.id), inFile = written.requested(*same);
            EXPECT_EQ(precisionName(inFile), std::string(precisionName(planned)))
                << path << node.name << " (" << node.opType << "): " << plan.explanation(node.id);
        }
        for (const BodyPlan& planned : plan.bodies()) {
            if (!quantizesBody(planned.plan)) continue;
            const std::string where = path + planned.node + "/" + planned.attribute + "/";
            auto body = buildSubgraphModel(graph, graph.node(*graph.findNode(planned.node)), planned.attribute);
            ASSERT_TRUE(body) << where << body.status().message();
            const PrecisionPlan* inFile = written.body(planned.node, planned.attribute);
            if (inFile == nullptr) {  // a weakly typed body with nothing INT8 writes nothing: float, as planned
                EXPECT_EQ(target.typing, TrtTyping::Weak) << where << " was not read back";
                for (const Node& node : body->graph.nodes())
                    EXPECT_NE(planned.plan.effective(node.id), Precision::Int8) << where << node.name;
                continue;
            }
            const auto readNode = read.findNode(planned.node);
            ASSERT_TRUE(readNode) << where;
            auto readBody = buildSubgraphModel(read, read.node(*readNode), planned.attribute);
            ASSERT_TRUE(readBody) << where << readBody.status().message();
            expectSamePrecisions(body->graph, planned.plan, readBody->graph, *inFile, target, where);
        }
    }

    void expectSameCounts(const QdqExport& result, const PrecisionPlan& plan, const TrtTarget& target) {
        const Graph& graph = mModel->graph();
        const ExportLayerCounts counts = exportLayerCounts(result);
        const LintReport lint = ql::lint(graph, plan, {.version = target.version, .typing = target.typing});
        EXPECT_EQ(counts.weighted, lint.coverage.weightedLayers);
        EXPECT_EQ(counts.int8Weighted, lint.coverage.int8Layers);
        for (const LayerDecision& layer : result.placement.layers) {
            const auto node = graph.findNode(layer.layer);
            if (!node || !hasPrecisionChoice(graph, graph.node(*node))) continue;
            EXPECT_EQ(precisionName(layer.precision), std::string(precisionName(plan.effective(*node))))
                << "summary of " << layer.layer << ": " << layer.reason;
        }
    }

    std::unique_ptr<Model> mModel;
    CalibrationResult mCalibration;
    NamedTensors mInputs;
};

// QL_ROUND_TRIP_SEEDS=N: N random plans per model and target instead of one (bench/round_trip_sweep.sh).
int randomPlans() {
    const char* text = std::getenv("QL_ROUND_TRIP_SEEDS");
    return text ? std::max(1, std::atoi(text)) : 1;
}

TEST_P(RoundTrip, EveryTargetAndPlanExportsWhatTheSimulationRunsAndReadsBackAsPlanned) {
    uint32_t seed = 1;
    for (const Target& target : kTargets) {
        check(target, PlanKind::Default, seed++);
        check(target, PlanKind::AllFp16ButOne, seed++);
        for (int i = 0; i < randomPlans(); ++i) check(target, PlanKind::Random, seed++);
        check(target, PlanKind::NoInt8, seed++);
    }
}

INSTANTIATE_TEST_SUITE_P(Zoo, RoundTrip, testing::ValuesIn(test::modelZoo()),
                         [](const testing::TestParamInfo<test::ZooModel>& info) { return info.param.name; });

}  // namespace
}  // namespace ql
