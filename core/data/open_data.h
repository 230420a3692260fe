#pragma once
// Opens calibration data for a model from paths, e.g. the CLI's `--data PATH` or `--data NAME=PATH`.
//
// A path is one of:
//   file.npy   all samples of one input, first axis = samples
//   file.npz   one member per input, named after it (np.savez(f, input_a=..., input_b=...)); a single-input
//              model also takes an archive with one member of any name
//   folder/    one sample per file, in file-name order: .npy files, or images (.png .jpg .jpeg .bmp, see
//              image_loader.h); other files are ignored, mixing .npy and images is an error
#include <memory>
#include <string>
#include <vector>

#include "core/data/data_limits.h"
#include "core/data/data_source.h"
#include "core/data/image_loader.h"

namespace ql {

struct DataSpec {
    std::string input;  // model input name; empty: the only input, or all inputs of an .npz
    std::string path;
    ImagePreprocess image;
};

Result<std::unique_ptr<DataSource>> openDataSource(const std::vector<InputSpec>& inputs,
                                                   const std::vector<DataSpec>& specs, const DataLimits& limits = {});

// The sample files of a folder in the order they are read: .npy files or images, never both.
struct SampleFolder {
    std::vector<std::string> files;  // full paths, sorted by name
    bool images = false;
};
Result<SampleFolder> listSampleFolder(const std::string& path);

// Class labels, one integer per sample, from a .npy of shape [N] or [N,1] and any integer dtype.
Result<std::vector<int64_t>> readLabels(const std::string& path, int64_t sampleCount);

}  // namespace ql
