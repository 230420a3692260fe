// .qlproj as every core reader of it sees it: --plan and --calib take a project (its "plan" and "calibration"
// sections, through PrecisionPlan::load and importScales). The Qt side (ui/project_file) reuses these readers.
#include "core/export/scale_import.h"
#include "core/quant/precision_plan.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = ql::fuzz::scratchFile(data, size, ".qlproj");
    (void)ql::PrecisionPlan::load(ql::fuzz::sampleGraph(), path);
    (void)ql::importScales(ql::fuzz::sampleGraph(), path);
    return 0;
}
