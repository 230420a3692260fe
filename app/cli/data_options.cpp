#include "app/cli/data_options.h"

#include <filesystem>

#include "core/export/scale_import.h"

namespace ql::cli {

void addImageOptions(CLI::App& command, ImageOptions& image) {
    command.add_option("--resize", image.resize,
                       "How a folder of images is resized to the model input: center-crop (the shorter side to 256 "
                       "for 224, then the middle; the default), stretch, or letterbox (keep the aspect, pad)");
    command.add_option("--pad-value", image.padValue, "Letterbox: the border's pixel value, 0-255 (default 114)")
        ->check(CLI::Range(0.0f, 255.0f));
    command.add_option("--mean", image.mean,
                       "Images: value = (pixel / 255 - mean) / std; one value, or one per channel (0.485,0.456,0.406)");
    command.add_option("--std", image.stddev, "Images: one value, or one per channel (0.229,0.224,0.225)");
}

Result<ImagePreprocess> imagePreprocessOption(const ImageOptions& image) {
    ImagePreprocess p;
    if (!image.resize.empty()) {
        QL_ASSIGN_OR_RETURN(p.resize, parseResizeMode(image.resize));
    }
    p.padValue = image.padValue;
    if (!image.mean.empty()) {
        QL_ASSIGN_OR_RETURN(p.mean, parseChannelValues(image.mean, "--mean"));
    }
    if (!image.stddev.empty()) {
        QL_ASSIGN_OR_RETURN(p.stddev, parseChannelValues(image.stddev, "--std"));
    }
    return p;
}

Result<std::unique_ptr<DataSource>> openDataOption(const Graph& graph, const std::vector<std::string>& options,
                                                   const DataLimits& limits, const ImageOptions& image) {
    const std::vector<InputSpec> inputs = inputSpecs(graph);
    QL_ASSIGN_OR_RETURN(const ImagePreprocess preprocess, imagePreprocessOption(image));
    std::vector<DataSpec> specs;
    for (const std::string& option : options) {
        DataSpec spec;
        spec.path = option;
        spec.image = preprocess;
        const auto eq = option.find('=');
        bool named = false;
        if (eq != std::string::npos)
            for (const InputSpec& input : inputs)
                if (input.name == option.substr(0, eq)) {
                    spec = {input.name, option.substr(eq + 1), preprocess};
                    named = true;
                }
        // NAME=PATH with a NAME the model lacks (a path never holds '=' in practice): say so, not "no such file".
        if (eq != std::string::npos && eq > 0 && !named && !std::filesystem::exists(option)) {
            std::string names;
            for (const InputSpec& input : inputs) names += (names.empty() ? "" : ", ") + input.name;
            return invalidArgument("--data '" + option + "': the model has no input '" + option.substr(0, eq) +
                                   "' (its inputs: " + names + ")");
        }
        specs.push_back(std::move(spec));
    }
    return openDataSource(inputs, specs, limits);
}

void addDataLimitsOption(CLI::App& command, DataLimits& limits) {
    command
        .add_option_function<uint64_t>(
            "--max-decoded-mb", [&limits](uint64_t mb) { limits.maxDecodedBytes = mb << 20; },
            "Largest .npz member or image decoded in memory, in MB (default " +
                std::to_string(kDefaultMaxDecodedBytes >> 20) + ")")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
}

Result<CalibrationResult> readCalibrationOption(const Graph& graph, const std::string& path) {
    QL_ASSIGN_OR_RETURN(ImportedScales imported, importScales(graph, path));
    return std::move(imported.calibration);
}

}  // namespace ql::cli
