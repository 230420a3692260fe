// trt-float-model-fp32: a float32 model built as it is by TensorRT 11 runs every layer in FP32.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/fp16_form.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-float-model-fp32", Severity::Warning, kTrt11Only,
    "TensorRT 11 has no --fp16: a strongly typed network runs each layer in the type its tensors have in the model. "
    "A model exported in float32, with no float16 (or bfloat16) tensor anywhere and no Q/DQ, therefore builds an "
    "FP32 engine, with no warning, where the same build on 10.x with --fp16 gave FP16: the most reported TensorRT 11 "
    "migration problem. The rule fires on such a model for TensorRT 11: as a warning when a trtexec command builds "
    "this file (lint --command), as information otherwise, since a plan's FP16 and INT8 only exist in the file "
    "`quantlens-cli quantize --trt 11` writes. It stays silent on models with float16 or bfloat16 tensors or Q/DQ "
    "nodes, on QuantLens's own strongly typed exports (metadata quantlens.typing) and for 8.6 and 10.x, where "
    "--fp16 still applies to a weakly typed build.",
    "TensorRT 11.x \"Migrating from TensorRT 10.x\" (weak typing and BuilderFlag::kFP16 removed); "
    "ultralytics/ultralytics#24729; roboflow/rf-detr PR #1454 (\"build_engine(fp16=True) returns an FP32 one\" on "
    "TensorRT 11); NVIDIA Model Optimizer AutoCast (the float16 conversion NVIDIA recommends instead)"};

// The first weighted layer that computes in float32 and how many there are; with none, the first control-flow node
// that writes float32 (Silero VAD's work is all inside If bodies), count 0.
const Node* firstFloatLayer(const Graph& graph, int& count) {
    const Node* first = nullptr;
    count = 0;
    for (const Node& node : graph.nodes()) {
        if (!isWeightedLayer(node) || !computesFloat(graph, node)) continue;
        if (first == nullptr) first = &node;
        ++count;
    }
    if (first != nullptr) return first;
    for (const Node& node : graph.nodes())
        if (!node.subgraphs.empty() && computesFloat(graph, node)) return &node;
    return nullptr;
}

class FloatModelFp32Rule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        if (context.insideSubgraph() || context.explicitQuantization() || context.writtenForStrongTyping() ||
            carriesReducedFloat(graph))
            return;
        int count = 0;
        const Node* first = firstFloatLayer(graph, count);
        if (first == nullptr) return;
        const bool buildsThisFile = context.trtexecCommand().find("trtexec") != std::string_view::npos;
        findings.push_back(context.finding(
            kInfo, *first, buildsThisFile ? Severity::Warning : Severity::Info,
            lintText("no tensor of this model is float16: TensorRT 11 builds ",
                     count > 0 ? lintText("all ", count, " of its weighted layers (this one first)")
                               : lintText("the layers inside '", first->name, "'"),
                     " in FP32, since there is no --fp16 any more; the plan's FP16 and INT8 exist only in the file "
                     "QuantLens exports"),
            "build the file `quantlens-cli quantize --trt 11` writes (its FP16 islands and Q/DQ carry the plan), not "
            "this one"));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeFloatModelFp32Rule() {
    return std::make_unique<FloatModelFp32Rule>();
}

}  // namespace ql::rules
