#pragma once
// The trtexec command line that builds a TensorRT engine from an exported Q/DQ model (trtexec's options in
// NVIDIA/TensorRT samples/common/sampleOptions.cpp; TensorRT 11.x trtexec migration page), written as a small shell
// script, per the export's target:
//   8.6 and 10.x weakly typed: trtexec --onnx=<model> --int8 --fp16 --saveEngine=<model minus .onnx>.engine
//           [--precisionConstraints=obey --layerPrecisions=name:fp32,... --layerOutputTypes=name:fp32,...]
//     INT8 comes from the Q/DQ nodes (with --int8), the other float layers are TensorRT's choice of FP16 or FP32
//     (--fp16), and only the layers the plan keeps in FP32 (the user's choice or an FP16 guard's) are pinned and
//     obeyed. Only layers whose outputs are all float are pinned (shape and index layers must stay INT32/INT64).
//     A model with no Q/DQ node gets --fp16 alone: --int8 without Q/DQ or a calibration cache makes trtexec quantize
//     implicitly with placeholder ranges, an INT8 engine of meaningless accuracy.
//   10.x strongly typed: trtexec --onnx=<model> --stronglyTyped --saveEngine=...: the model's tensor types decide
//     (Q/DQ for INT8, float16 islands for FP16); no precision flag, nothing pinned.
//   11.x: trtexec --onnx=<model> --saveEngine=...: strongly typed is the only mode and the precision flags are gone.
// A model with dynamic inputs gets --minShapes/--optShapes/--maxShapes (trtexec_shapes.h). The script runs from any
// folder: it changes to its own and names the model relative to it.
//
// Layer names are the exported model's node names; an unnamed node is "node_of_<first output>", which is
// what the ONNX parser calls it. trtexec splits each list at ',' first, then each item at its last ':' and
// strips every single quote from the name; '*' is a wildcard. So a name with ':' is written as 'name'
// (accepted by trtexec 8.6 and 10.x), and a name holding ',', '\'' or '*' cannot be expressed: that is an
// error naming the node (rename it). Arguments are quoted for a POSIX shell when they need it (spaces etc.).
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/status.h"
#include "core/export/qdq_export.h"
#include "core/export/trtexec_shapes.h"

namespace ql {

// What a script relies on, for the summary JSON ("script") and the window.
struct TrtexecPlan {
    std::vector<std::string> flags;     // the precision-related flags, e.g. "--int8", "--stronglyTyped"
    int pinnedLayers = 0;               // layers pinned FP32 by --layerPrecisions (weak typing only)
    std::vector<std::string> reliesOn;  // one sentence each
};
Result<TrtexecPlan> trtexecPlan(const QdqExport& result);
// A layer a weakly typed export keeps in FP32, which its script pins with --layerPrecisions (and its file names in
// its metadata, carried_model.h): FP32 in the placement, every output float, not a Constant. The planned If/Loop/Scan
// bodies' such layers too: TensorRT names the layers of a conditional or a loop after their nodes, as the main graph's.
struct PinnedFp32Layer {
    const Graph* graph = nullptr;  // the prepared graph it is in: the main graph's or a body's
    NodeId node = kNoId;
    std::string path;  // where that graph is: "" for the main graph, "If_0/then_branch/" for a body (body_path.h)
};
// Empty when strongly typed.
std::vector<PinnedFp32Layer> pinnedFp32Layers(const QdqExport& result);
nlohmann::json trtexecPlanJson(const TrtexecPlan& plan);

// What a script is written for. The header says who wrote it, `writer` ("Written by quantlens-cli."), so a user can
// tell the CLI's from the window's; empty leaves that sentence out.
struct TrtexecScript {
    std::string onnxPath;  // the exported model, as given to `quantize -o` (relative to the folder quantize ran in)
    // Where the script is written. Given, the script first changes to its own folder ('cd "$(dirname "$0")"') and
    // names the model (and the engine beside it) relative to that folder, so it runs from any folder; empty: the
    // model is named as given.
    std::string scriptPath;
    std::string writer;
    TrtexecShapes shapes{};  // the optimization profile of the dynamic inputs (trtexec_shapes.h)
    // More trtexec arguments after --saveEngine (e.g. the report exports of `quantize --ab-scripts`), quoted for the
    // shell where they need it.
    std::vector<std::string> extraArguments{};
};
Result<std::string> trtexecCommand(const QdqExport& result, const TrtexecScript& script);
// The same for a model named as given, without shapes.
Result<std::string> trtexecCommand(const QdqExport& result, const std::string& onnxPath, std::string_view writer);
// Writes the command atomically to script.scriptPath.
Status saveTrtexecCommand(const QdqExport& result, const TrtexecScript& script);
// `path` is the script: the model is named relative to it.
Status saveTrtexecCommand(const QdqExport& result, const std::string& onnxPath, std::string_view writer,
                          const std::string& path);

// `model` as seen from the folder of `script` (both as given: relative to the current folder, or absolute).
std::string pathFromScriptFolder(const std::string& model, const std::string& script);

// POSIX shell quoting: `text` unchanged when it only holds safe characters, otherwise in single quotes.
std::string shellQuote(const std::string& text);

}  // namespace ql
