#pragma once
// Pieces shared by the commands that read calibration or evaluation data (calibrate, compare).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/data/open_data.h"
#include "core/quant/calibration.h"

namespace ql::cli {

// How a --data folder of images becomes samples (image_loader.h), as given on the command line; empty fields keep
// ImagePreprocess's defaults.
struct ImageOptions {
    std::string resize;                           // --resize center-crop|stretch|letterbox
    float padValue = ImagePreprocess{}.padValue;  // --pad-value V (letterbox border, 0-255)
    std::string mean;                             // --mean V or V,V,V (one value for every channel, or one per channel)
    std::string stddev;                           // --std V or V,V,V
};
void addImageOptions(CLI::App& command, ImageOptions& image);
Result<ImagePreprocess> imagePreprocessOption(const ImageOptions& image);

// `--data PATH` or `--data NAME=PATH` (NAME a model input; otherwise the whole text is the path); folders of images
// are read with `image`.
Result<std::unique_ptr<DataSource>> openDataOption(const Graph& graph, const std::vector<std::string>& options,
                                                   const DataLimits& limits = {}, const ImageOptions& image = {});
// --max-decoded-mb N: raises DataLimits::maxDecodedBytes (an .npz member or an image decoded whole in memory).
void addDataLimitsOption(CLI::App& command, DataLimits& limits);

// --calib (and run --simulate): any format `quantize --calib` reads (scale_import.h): CALIB.json, a TensorRT
// calibration cache, ONNX Runtime's tables, a Q/DQ model or a QuantLens project. Ranges read from formats without
// histograms leave the calibration diagnosis less to say.
Result<CalibrationResult> readCalibrationOption(const Graph& graph, const std::string& path);

}  // namespace ql::cli
