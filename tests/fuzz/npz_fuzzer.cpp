// .npz archives (zip, stored or deflated, zip64 extras; core/data/npz.h) with a small decode limit, so a zip bomb
// must be refused rather than inflated.
#include "core/data/npz.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)ql::parseNpz(ql::fuzz::bytesOf(data, size), "fuzz.npz", ql::DataLimits{.maxDecodedBytes = 64 << 20});
    return 0;
}
