// .npy bytes (core/data/npy.h): an array or an error, never a crash, and never an allocation the header alone asks.
#include "core/data/npy.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)ql::parseNpy(ql::fuzz::bytesOf(data, size), "fuzz.npy");
    return 0;
}
