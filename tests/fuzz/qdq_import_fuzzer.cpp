// Scales imported from a Q/DQ model (core/export/qdq_import.h): model bytes loaded without the checker (it runs in a
// child process, see model_loader_fuzzer.cpp), then dequantized into ranges.
#include "core/export/qdq_import.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    ql::LoadOptions options;
    options.runChecker = false;
    options.inferShapes = false;
    auto model = ql::Model::loadFromBytes(ql::fuzz::bytesOf(data, size), "fuzz.onnx", options);
    if (model.isOk() && ql::hasQdqNodes((*model)->graph())) (void)ql::dequantizeQdqModel(**model);
    return 0;
}
