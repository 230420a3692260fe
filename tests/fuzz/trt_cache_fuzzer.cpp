// TensorRT calibration caches (TRT-<version>-<calibrator>, then "<tensor>: <hex float>" lines; scale_import.h).
#include "core/export/scale_import.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto table = ql::parseTrtCache(ql::fuzz::textOf(data, size), "fuzz.cache");
    if (table.isOk()) (void)ql::scalesForGraph(ql::fuzz::sampleGraph(), *table, ql::ScaleFormat::TensorRtCache);
    return 0;
}
