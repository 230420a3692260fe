// Feeds arbitrary bytes to the model loader and everything that reads the loaded graph: loading must return
// a model or an error, never crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/common/json_util.h"
#include "core/model/model.h"
#include "core/model/model_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto model = ql::Model::loadFromBytes({reinterpret_cast<const std::byte*>(data), size}, "fuzz.onnx");
    if (model.isOk()) {
        const ql::ModelSummary summary = ql::summarize(**model);
        (void)ql::dumpJson(ql::toJson(summary));
        (void)ql::toText(summary);
    }
    return 0;
}
