// CALIB.json (core/quant/calibration_file.h) read against the sample model.
#include "core/quant/calibration_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)ql::loadCalibration(ql::fuzz::sampleGraph(), ql::fuzz::scratchFile(data, size, ".json"));
    return 0;
}
