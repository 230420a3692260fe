// Feeds arbitrary bytes to the model loader and everything that reads the loaded graph: loading must return
// a model or an error, never crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/common/json_util.h"
#include "core/model/model.h"
#include "core/model/model_summary.h"

// The ONNX checker and shape inference are skipped: the loader runs them in a helper process (a crash there is
// a diagnostic, see core/model/onnx_checks.h), and a process per input would slow fuzzing a hundredfold. What is
// fuzzed is QuantLens's own code: parsing limits, graph building, Q/DQ linking, costs and the summary.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    ql::LoadOptions options;
    options.runChecker = false;
    options.inferShapes = false;
    auto model = ql::Model::loadFromBytes({reinterpret_cast<const std::byte*>(data), size}, "fuzz.onnx", options);
    if (model.isOk()) {
        const ql::ModelSummary summary = ql::summarize(**model);
        (void)ql::dumpJson(ql::toJson(summary));
        (void)ql::toText(summary);
    }
    return 0;
}
