// PLAN.json (core/quant/precision_plan.h) read against the sample model.
#include "core/quant/precision_plan.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)ql::PrecisionPlan::load(ql::fuzz::sampleGraph(), ql::fuzz::scratchFile(data, size, ".json"));
    return 0;
}
