// trtexec engine reports (core/engine/): --exportLayerInfo and --exportProfile JSON, both readers on every input.
#include "core/engine/layer_info_reader.h"
#include "core/engine/profile_reader.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = ql::fuzz::scratchFile(data, size, ".json");
    auto report = ql::readLayerInfo(path);
    auto profile = ql::readProfile(path);
    if (report.isOk() && profile.isOk()) (void)ql::applyProfile(*report, *profile, path);
    return 0;
}
