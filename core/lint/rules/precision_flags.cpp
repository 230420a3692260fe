// trt-precision-flags: builder precision flags the target TensorRT removed or forbids, in the user's own trtexec
// command (LintOptions::trtexecCommand) or in a Q/DQ model that depends on them (one without FP16 tensors).
#include <algorithm>
#include <cctype>
#include <optional>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/fp16_form.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-precision-flags", Severity::Error, kAllTrtVersions,
    "TensorRT 11 builds every network strongly typed: each tensor runs in the type the model gives it. trtexec "
    "lost --int8 --fp16 --bf16 --fp8 --int4 --best and --calib, and with them per-layer pinning "
    "(--precisionConstraints --layerPrecisions --layerOutputTypes); --stronglyTyped became a no-op. On 10.x a "
    "strongly typed build refuses --best and per-layer pinning and drops the other precision flags, and a build "
    "without --stronglyTyped is weakly typed, deprecated since 10.12. TensorRT 8.6 has no strongly typed networks. "
    "Given a build command (lint --command), the rule checks its flags against the target. It also checks the model: "
    "a Q/DQ model made for a weakly typed --int8 --fp16 build has no FP16 tensor of its own, so under strong typing "
    "every float layer outside INT8 runs in FP32.",
    "TensorRT 11.x \"Migrating from TensorRT 10.x\" and trtexec migration pages; TensorRT 10.12 release notes (weak "
    "typing deprecated); TensorRT documentation \"Explicit Quantization\" (\"Use explicit quantization with Strong "
    "Typing. Precision-control build flags are not required and should not be specified.\"); TensorRT Developer Guide "
    "8.x \"Working with QAT Networks\" (Q/DQ networks are built with the INT8 builder flag); NVIDIA/TensorRT "
    "samples/common/sampleOptions.cpp (\"--best and --stronglyTyped cannot be both set\", \"Invalid usage, setting "
    "fp16 mode is not allowed if graph is strongly typed\", \"Weakly-typed networks have been deprecated\"); NvInfer.h "
    "NetworkDefinitionCreationFlag::kSTRONGLY_TYPED (\"Setting layer precision and layer output types is not "
    "allowed\"); NVIDIA/TensorRT#4021 (an explicit Q/DQ model built with --fp16 only), #4228; pytorch/TensorRT "
    "PR #3563"};

constexpr const char* kReexport = "re-export with `quantlens-cli quantize --trt 11` (it writes the FP16 islands)";
constexpr const char* kReexportPinned =
    "re-export with `quantlens-cli quantize --trt 11`, which writes the pinned layers as FP16/FP32 islands";

// What a flag asks of the builder: the versions treat each kind differently.
enum class FlagKind {
    Precision,    // --int8 --fp16 --bf16 --fp8 --int4: the BuilderFlag that lets layers run in that type
    Best,         // --best: every precision at once
    Calibration,  // --calib: an INT8 calibration cache (implicit quantization)
    LayerPin,     // --precisionConstraints --layerPrecisions --layerOutputTypes: per-layer precision
};

struct FlagSpec {
    std::string_view name;
    FlagKind kind;
};

constexpr FlagSpec kFlags[] = {
    {"--int8", FlagKind::Precision},           {"--fp16", FlagKind::Precision},
    {"--bf16", FlagKind::Precision},           {"--fp8", FlagKind::Precision},
    {"--int4", FlagKind::Precision},           {"--best", FlagKind::Best},
    {"--calib", FlagKind::Calibration},        {"--precisionConstraints", FlagKind::LayerPin},
    {"--layerPrecisions", FlagKind::LayerPin}, {"--layerOutputTypes", FlagKind::LayerPin},
};

constexpr std::string_view kStronglyTyped = "--stronglyTyped";

// ---- Reading the shell text: words after quote removal, grouped into simple commands. -------------------------

struct ShellWord {
    std::string text;
    int line = 1;  // where the word starts
};

using ShellCommand = std::vector<ShellWord>;

// A small POSIX-shell reader, enough to find trtexec and its arguments: quotes, backslash escapes, line
// continuations, comments and command separators. Expansions ($VAR, $(...)) are kept as text: a flag is never
// written through one in the scripts we read, and guessing their values would be worse.
class ShellReader {
public:
    explicit ShellReader(std::string_view text) : mText(text) {}

    std::vector<ShellCommand> commands() {
        while (mPos < mText.size()) step();
        endCommand();
        return std::move(mCommands);
    }

private:
    char at(size_t pos) const { return pos < mText.size() ? mText[pos] : '\0'; }

    void step() {
        const char c = mText[mPos];
        if (c == '\\') return readEscape();
        if (c == '\'') return readSingleQuoted();
        if (c == '"') return readDoubleQuoted();
        if (c == '#' && !mInWord) return skipComment();
        if (c == '\n' || std::string_view(";&|()").find(c) != std::string_view::npos) {
            if (c == '\n') ++mLine;
            ++mPos;
            return endCommand();
        }
        ++mPos;
        if (std::isspace(static_cast<unsigned char>(c))) return endWord();
        append(c);
    }

    // "\<newline>" joins lines (the form of `quantize --trtexec` scripts); "\x" is a literal x.
    void readEscape() {
        const size_t newline = at(mPos + 1) == '\r' && at(mPos + 2) == '\n' ? mPos + 2 : mPos + 1;
        if (at(newline) == '\n') {
            mPos = newline + 1;
            ++mLine;
            return;
        }
        if (mPos + 1 < mText.size()) append(mText[mPos + 1]);
        mPos += 2;
    }

    void readSingleQuoted() {
        startWord();
        for (++mPos; mPos < mText.size() && mText[mPos] != '\''; ++mPos) appendQuoted(mText[mPos]);
        ++mPos;
    }

    // Inside double quotes a backslash escapes only $ ` " \ and the newline.
    void readDoubleQuoted() {
        startWord();
        for (++mPos; mPos < mText.size() && mText[mPos] != '"'; ++mPos) {
            const char next = at(mPos + 1);
            if (mText[mPos] == '\\' && std::string_view("$`\"\\\n").find(next) != std::string_view::npos) {
                ++mPos;
                if (next == '\n') {
                    ++mLine;
                    continue;
                }
            }
            appendQuoted(mText[mPos]);
        }
        ++mPos;
    }

    void skipComment() {
        while (mPos < mText.size() && mText[mPos] != '\n') ++mPos;
    }

    void startWord() {
        if (mInWord) return;
        mInWord = true;
        mWordLine = mLine;
    }
    void append(char c) {
        startWord();
        mWord += c;
    }
    void appendQuoted(char c) {
        if (c == '\n') ++mLine;
        mWord += c;
    }
    void endWord() {
        if (!mInWord) return;
        mCommand.push_back({std::move(mWord), mWordLine});
        mWord.clear();
        mInWord = false;
    }
    void endCommand() {
        endWord();
        if (!mCommand.empty()) mCommands.push_back(std::move(mCommand));
        mCommand.clear();
    }

    std::string_view mText;
    size_t mPos = 0;
    int mLine = 1;
    std::string mWord;
    bool mInWord = false;
    int mWordLine = 1;
    ShellCommand mCommand;
    std::vector<ShellCommand> mCommands;
};

// ---- The trtexec invocations and the flags they pass. --------------------------------------------------------

struct Invocation {
    int line = 1;                        // of the word "trtexec"
    std::vector<const FlagSpec*> flags;  // the precision flags, each once, in the order given
    bool stronglyTyped = false;
    std::string constraints;  // the value of --precisionConstraints
};

// "trtexec", "/usr/src/tensorrt/bin/trtexec", "trtexec.exe"; anywhere in the command, so that wrappers such as
// `docker run IMAGE trtexec ...` or `sudo trtexec ...` are seen too.
bool isTrtexec(std::string_view word) {
    const size_t slash = word.find_last_of("/\\");
    const std::string_view name = slash == std::string_view::npos ? word : word.substr(slash + 1);
    return name == "trtexec" || name == "trtexec.exe";
}

const FlagSpec* findFlag(std::string_view name) {
    for (const FlagSpec& spec : kFlags)
        if (spec.name == name) return &spec;
    return nullptr;
}

// trtexec reads `--flag=value`; `--flag value` is accepted here too (it is what people write, and trtexec's
// error for it would hide the flag's real problem).
std::string flagValue(const ShellCommand& command, size_t index) {
    const std::string& word = command[index].text;
    const size_t eq = word.find('=');
    if (eq != std::string::npos) return word.substr(eq + 1);
    if (index + 1 < command.size() && !command[index + 1].text.starts_with("-")) return command[index + 1].text;
    return {};
}

std::optional<Invocation> trtexecInvocation(const ShellCommand& command) {
    const auto program =
        std::find_if(command.begin(), command.end(), [](const ShellWord& w) { return isTrtexec(w.text); });
    if (program == command.end()) return std::nullopt;
    Invocation invocation;
    invocation.line = program->line;
    for (size_t i = static_cast<size_t>(program - command.begin()) + 1; i < command.size(); ++i) {
        const std::string_view word = command[i].text;
        if (!word.starts_with("--")) continue;
        const std::string_view name = word.substr(0, word.find('='));
        if (name == kStronglyTyped) invocation.stronglyTyped = true;
        const FlagSpec* spec = findFlag(name);
        if (spec == nullptr) continue;
        if (spec->name == "--precisionConstraints") invocation.constraints = flagValue(command, i);
        if (std::find(invocation.flags.begin(), invocation.flags.end(), spec) == invocation.flags.end())
            invocation.flags.push_back(spec);
    }
    return invocation;
}

// ---- Verdicts. -------------------------------------------------------------------------------------------------

template <typename Wanted>
std::vector<const FlagSpec*> flagsWhere(const Invocation& invocation, Wanted wanted) {
    std::vector<const FlagSpec*> out;
    for (const FlagSpec* spec : invocation.flags)
        if (wanted(spec->kind)) out.push_back(spec);
    return out;
}

// "--int8 --fp16"
std::string flagNames(const std::vector<const FlagSpec*>& flags) {
    std::string out;
    for (const FlagSpec* spec : flags) {
        if (!out.empty()) out += ' ';
        out += spec->name;
    }
    return out;
}

class CommandCheck {
public:
    CommandCheck(const LintContext& context, const Invocation& invocation, std::vector<Finding>& findings)
        : mContext(context), mInvocation(invocation), mFindings(findings) {}

    void run() {
        switch (mContext.version()) {
            case TrtVersion::Trt86:
                return checkTrt86();
            case TrtVersion::Trt10:
                return mInvocation.stronglyTyped ? checkTrt10StronglyTyped() : checkTrt10WeaklyTyped();
            case TrtVersion::Trt11:
                return checkTrt11();
        }
    }

private:
    void add(Severity severity, const std::string& message, std::string fix) {
        mFindings.push_back(
            mContext.finding(kInfo, severity, lintText("trtexec (line ", mInvocation.line, "): ", message), fix));
    }

    // Each group of flags (nothing when the command passes none of them).
    template <typename Wanted>
    std::string group(Wanted wanted) const {
        return flagNames(flagsWhere(mInvocation, wanted));
    }

    void checkTrt11() {
        const std::string builder = group([](FlagKind k) { return k == FlagKind::Precision || k == FlagKind::Best; });
        if (!builder.empty())
            add(Severity::Error,
                builder + ": removed in TensorRT 11.0 with weak typing; trtexec 11 no longer accepts them",
                lintText("drop ", builder, ": the Q/DQ nodes and the model's FP16 tensors decide; ", kReexport));
        const std::string calib = group([](FlagKind k) { return k == FlagKind::Calibration; });
        if (!calib.empty())
            add(Severity::Error, calib + ": removed in TensorRT 11.0 with implicit quantization (no calibrators)",
                "drop --calib: INT8 comes only from Q/DQ nodes; write the calibration into the model with "
                "`quantlens-cli quantize --trt 11`");
        const std::string pins = group([](FlagKind k) { return k == FlagKind::LayerPin; });
        if (!pins.empty())
            add(Severity::Error,
                pins + ": removed in TensorRT 11.0 (no per-layer precision in a strongly typed network)",
                lintText("drop ", pins, ": a layer runs in its tensors' type; ", kReexportPinned));
        if (mInvocation.stronglyTyped)
            add(Severity::Info, "--stronglyTyped is a no-op on TensorRT 11 (every network is strongly typed)",
                "drop --stronglyTyped");
    }

    // trtexec 10.x refuses --best outright, drops the per-type flags with a warning and lets layer pinning reach
    // the network, which a strongly typed network does not allow.
    void checkTrt10StronglyTyped() {
        if (!group([](FlagKind k) { return k == FlagKind::Best; }).empty())
            add(Severity::Error,
                "--best is incompatible with --stronglyTyped: trtexec refuses the command (\"--best and "
                "--stronglyTyped cannot be both set\")",
                lintText("drop --best: the Q/DQ nodes and the model's FP16 tensors decide; ", kReexport));
        const std::string ignored =
            group([](FlagKind k) { return k == FlagKind::Precision || k == FlagKind::Calibration; });
        if (!ignored.empty())
            add(Severity::Warning,
                ignored +
                    " with --stronglyTyped have no effect: trtexec disables the precision flags (\"Invalid usage, "
                    "setting ... mode is not allowed if graph is strongly typed\"), so --calib has no INT8 to "
                    "calibrate, and the builder API refuses them (\"BuilderFlag::kFP16 is not compatible with a "
                    "strongly typed network\"); only the model's types count",
                lintText("drop ", ignored, ": the Q/DQ nodes and the model's FP16 tensors decide; ", kReexport));
        checkTrt10Pins();
    }

    void checkTrt10Pins() {
        const std::string pins = group([](FlagKind k) { return k == FlagKind::LayerPin; });
        if (pins.empty()) return;
        const bool applied = mInvocation.constraints == "obey" || mInvocation.constraints == "prefer";
        const std::string fix = lintText("drop ", pins, ": a layer runs in its tensors' type; ", kReexportPinned);
        if (applied)
            add(Severity::Error,
                pins +
                    " with --stronglyTyped: a strongly typed network does not allow setting layer precisions "
                    "(\"INetworkLayer::setOutputType cannot be called for a strongly typed network\")",
                fix);
        else
            add(Severity::Warning,
                pins +
                    " with --stronglyTyped and no --precisionConstraints=obey|prefer: ignored, and not allowed "
                    "in a strongly typed network",
                fix);
    }

    void checkTrt10WeaklyTyped() {
        const std::string flags = flagNames(mInvocation.flags);
        if (flags.empty()) return;
        if (mContext.stronglyTyped()) {
            add(Severity::Warning,
                flags +
                    " without --stronglyTyped: the command builds weakly typed, so these flags decide the "
                    "precisions, not the model's types; weak typing is deprecated since TensorRT 10.12 and "
                    "removed in 11.0",
                lintText("for the strongly typed build you target, drop ", flags,
                         " and add --stronglyTyped (the Q/DQ nodes and the model's FP16 tensors decide; ", kReexport,
                         "); if the weak build is meant, lint with --typing weak"));
            return;
        }
        add(Severity::Info, flags + ": weak typing, deprecated since TensorRT 10.12 and removed in 11.0",
            lintText("fine on 10.x; before moving to 11, ", kReexport, " and build with --stronglyTyped instead of ",
                     flags));
    }

    void checkTrt86() {
        if (!mInvocation.stronglyTyped) return;
        add(Severity::Error,
            "--stronglyTyped: TensorRT 8.6 has no strongly typed networks (trtexec 8.6 does not know the flag)",
            "drop --stronglyTyped; on 8.6 the builder flags decide (a Q/DQ model needs --int8, --fp16 for its float "
            "layers)");
    }

    const LintContext& mContext;
    const Invocation& mInvocation;
    std::vector<Finding>& mFindings;
};

void checkCommand(const LintContext& context, std::vector<Finding>& findings) {
    const std::string_view text = context.trtexecCommand();
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return;
    bool found = false;
    for (const ShellCommand& command : ShellReader(text).commands()) {
        const auto invocation = trtexecInvocation(command);
        if (!invocation) continue;
        found = true;
        CommandCheck(context, *invocation, findings).run();
    }
    if (!found)
        findings.push_back(context.finding(kInfo, Severity::Info,
                                           "the command holds no trtexec invocation: no builder flags were checked",
                                           "pass the script or command line that runs trtexec"));
}

// ---- The model: Q/DQ without FP16 tensors relies on --fp16 for its float layers. -----------------------------

// Ops that only move or reshape data: they run in whatever type reaches them, so they are no float layer.
bool movesDataOnly(const Node& node) {
    static constexpr std::string_view kOps[] = {"Constant",  "Identity",  "Reshape", "Flatten", "Squeeze",
                                                "Unsqueeze", "Transpose", "Shape",   "Gather",  "Slice",
                                                "Concat",    "Split",     "Expand",  "Cast"};
    return std::any_of(std::begin(kOps), std::end(kOps), [&](std::string_view op) { return isOp(node, op); });
}

// Pointwise ops TensorRT fuses into the layer that feeds them (the "PWN(...)" epilogue of an INT8 convolution).
bool isPointwise(const Node& node) {
    static constexpr std::string_view kOps[] = {"Relu",      "LeakyRelu", "Clip", "Sigmoid",  "Tanh", "HardSigmoid",
                                                "HardSwish", "Elu",       "Selu", "Softplus", "Add",  "Sub",
                                                "Mul",       "Div",       "Neg",  "Abs"};
    return std::any_of(std::begin(kOps), std::end(kOps), [&](std::string_view op) { return isOp(node, op); });
}

// Its float outputs all go to QuantizeLinear: it runs on the INT8 side (MaxPool -> Q).
bool outputQuantized(const Graph& graph, const Node& node) {
    bool any = false;
    for (ValueId out : node.outputs) {
        if (out == kNoId) continue;
        const Value& value = graph.value(out);
        if (value.consumers.empty() || value.isGraphOutput) return false;
        for (NodeId c : value.consumers)
            if (!isOp(graph.node(c), "QuantizeLinear")) return false;
        any = true;
    }
    return any;
}

// Per node, in graph order: does it run in INT8 or fused into an INT8 layer? Q/DQ and the layers they quantize do,
// and so do pointwise and data-movement ops fed only by such nodes (or constants): Conv -> Add -> Relu is one INT8
// kernel, so only what lies beyond counts as a float layer.
std::vector<bool> int8Side(const LintContext& context) {
    const Graph& graph = context.graph();
    std::vector<bool> side(graph.nodes().size(), false);
    for (const Node& node : graph.nodes()) {
        bool onSide = isOp(node, "QuantizeLinear") || isOp(node, "DequantizeLinear") || context.int8Planned(node.id) ||
                      outputQuantized(graph, node);
        if (!onSide && (isPointwise(node) || movesDataOnly(node))) {
            onSide = std::all_of(node.inputs.begin(), node.inputs.end(), [&](ValueId in) {
                if (in == kNoId || graph.initializerOf(in) != nullptr) return true;
                const NodeId producer = graph.value(in).producer;
                return producer != kNoId && side[static_cast<size_t>(producer)];
            });
        }
        side[static_cast<size_t>(node.id)] = onSide;
    }
    return side;
}

bool hasFloatOutput(const Graph& graph, const Node& node) {
    return std::any_of(node.outputs.begin(), node.outputs.end(),
                       [&](ValueId out) { return out != kNoId && graph.value(out).type.dtype == DataType::Float; });
}

void checkModel(const LintContext& context, std::vector<Finding>& findings) {
    if (!context.explicitQuantization() || !context.stronglyTyped() || carriesReducedFloat(context.graph()) ||
        context.writtenForStrongTyping())
        return;
    const std::vector<bool> side = int8Side(context);
    const Node* first = nullptr;
    int count = 0;
    for (const Node& node : context.graph().nodes()) {
        if (side[static_cast<size_t>(node.id)] || movesDataOnly(node) || !hasFloatOutput(context.graph(), node))
            continue;
        if (first == nullptr) first = &node;
        ++count;
    }
    if (first == nullptr) return;
    const bool trt11 = context.version() == TrtVersion::Trt11;
    findings.push_back(context.finding(
        kInfo, *first, Severity::Warning,
        lintText("no tensor of this Q/DQ model is FP16: built strongly typed (TensorRT ",
                 trtVersionName(context.version()), "), its ", count,
                 " float layer(s) outside INT8 (this one first) run in FP32, since nothing in the model says FP16 and ",
                 trt11 ? "there is no --fp16 any more" : "--fp16 does not apply to a strongly typed build",
                 "; slower than the weakly typed --int8 --fp16 build it was made for"),
        trt11 ? std::string(kReexport)
              : lintText(kReexport, ", or build weakly typed with --int8 --fp16 and lint with --typing weak")));
}

class PrecisionFlagsRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        checkCommand(context, findings);
        checkModel(context, findings);
    }
};

}  // namespace

std::unique_ptr<LintRule> makePrecisionFlagsRule() {
    return std::make_unique<PrecisionFlagsRule>();
}

}  // namespace ql::rules
