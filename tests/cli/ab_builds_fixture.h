#pragma once
// A folder `quantize --ab-scripts` wrote, after its scripts "ran" on a GPU whose layer times follow known terms (the
// reports trtexec would write, from `predict` with a truth profile), for the tests of fit-gpu and of the window's
// A/B import. Runs the built quantlens-cli (QL_CLI_PATH).
#include <string>
#include <vector>

#include "tests/support/model_builder.h"

namespace ql::test {

// Convolutions large and small, with pools between, as DIR/NAME.onnx: enough layers of each kind to fit.
std::string writeModel(const TempDir& dir, const std::string& name, int64_t width);
// A calibration of every activation of writeModel's model (amax 4).
std::string writeCalibration(const TempDir& dir);
// A GPU profile of the RTX 3060 Laptop with known convolution terms: the GPU the reports are timed on.
std::string truthProfile(const TempDir& dir);
// STEM.layers.json and STEM.profile.json for `model` as `predict` sees it, each layer timed with `profile`; false
// (said on stderr) when predict fails.
bool writeReports(const std::string& model, const std::string& profile, const std::string& stem,
                  const std::vector<std::string>& extra = {});
std::string readText(const std::string& path);
// DIR/ab: the scripts for writeModel's model on the RTX 3060 Laptop (TensorRT `trt`), every variant's reports
// beside it; empty on failure (said on stderr).
std::string writeAbBuilds(const TempDir& dir, const std::string& trt);

}  // namespace ql::test
