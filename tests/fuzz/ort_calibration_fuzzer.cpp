// ONNX Runtime's calibration tables: calibration.json (plain or TensorsData-wrapped) and the calibration.cache text
// ("<tensor> <amax>" lines), as scale_import.h reads them.
#include "core/export/scale_import.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text = ql::fuzz::textOf(data, size);
    (void)ql::parseOrtCalibrationJson(text, "fuzz.json");
    (void)ql::parseOrtCacheText(text, "fuzz.cache");
    return 0;
}
