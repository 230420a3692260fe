#include "tests/cli/ab_builds_fixture.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace ql::test {

namespace {

// "conv3": appended piece by piece (GCC 12's -Wrestrict misreads "conv" + std::to_string(i)).
std::string numbered(const char* prefix, size_t i) {
    std::string name(prefix);
    name += std::to_string(i);
    return name;
}

void conv(ModelBuilder& b, const std::string& name, const std::string& in, const std::string& out, int64_t cin,
          int64_t cout) {
    b.initializer(name + ".w", {cout, cin, 3, 3}, seededFloats(static_cast<size_t>(cout * cin * 9), 7));
    b.node("Conv", {in, name + ".w"}, {out}, name).ints("pads", {1, 1, 1, 1});
}

std::string formatOf(const std::string& precision) {
    return precision == "int8" ? "Int8" : precision == "fp16" ? "Half" : "Float";
}

}  // namespace

// Convolutions large and small, with pools between: enough layers of each kind to fit.
std::string writeModel(const TempDir& dir, const std::string& name, int64_t width) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, width, width});
    const std::vector<int64_t> channels = {16, 32, 32, 64, 64, 128, 16, 8};
    std::string in = "x";
    for (size_t i = 1; i < channels.size(); ++i) {
        const std::string out = numbered("c", i);
        conv(b, numbered("conv", i), in, out, channels[i - 1], channels[i]);
        b.node("Relu", {out}, {numbered("r", i)}, numbered("relu", i));
        in = numbered("r", i);
        if (i == 2 || i == 4) {
            b.node("MaxPool", {in}, {numbered("p", i)}, numbered("pool", i))
                .ints("kernel_shape", {2, 2})
                .ints("strides", {2, 2});
            in = numbered("p", i);
        }
    }
    b.node("Identity", {in}, {"y"}, "out");
    b.output("y");
    const std::string path = dir.file(name + ".onnx");
    b.save(path);
    return path;
}

std::string readText(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string truthProfile(const TempDir& dir) {
    const std::string path = dir.file("truth.json");
    writeFile(path, R"({"format": "quantlens-gpu-profile", "version": 1, "gpu": "rtx3060-laptop",
        "classes": {"convolution": {"compute_efficiency": 0.3, "overhead_us": 6}}})");
    return path;
}

// The reports trtexec would write for `model` as `predict` sees it, each layer timed with `profile`:
// STEM.layers.json and STEM.profile.json.
bool writeReports(const std::string& model, const std::string& profile, const std::string& stem,
                  const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"predict", model, "--gpu-profile", profile, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = runCli(args);
    if (r.exitCode != 0) {
        std::cerr << "predict failed: " << r.err << std::endl;
        return false;
    }
    const auto predicted = nlohmann::json::parse(r.out);
    nlohmann::json layers = nlohmann::json::array(), times = nlohmann::json::array({{{"count", 10}}});
    for (const auto& l : predicted["layers"]) {
        nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array();
        for (const auto& t : l["inputs"])
            inputs.push_back({{"Name", t["tensor"].is_string() ? t["tensor"].get<std::string>() : std::string()},
                              {"Format/Datatype", formatOf(t["precision"])}});
        for (const auto& t : l["outputs"])
            outputs.push_back({{"Name", t["tensor"].is_string() ? t["tensor"].get<std::string>() : std::string()},
                               {"Format/Datatype", formatOf(t["precision"])}});
        layers.push_back({{"Name", l["name"]},
                          {"LayerType", l["kind"] == "reformat" ? "Reformat" : "CaskConvolution"},
                          {"Inputs", inputs},
                          {"Outputs", outputs}});
        const double ms = l["time_ms"].get<double>();
        times.push_back({{"name", l["name"]}, {"timeMs", ms * 10}, {"averageMs", ms}, {"medianMs", ms}});
    }
    writeFile(stem + ".layers.json", nlohmann::json({{"Layers", layers}, {"Bindings", {}}}).dump());
    writeFile(stem + ".profile.json", times.dump());
    return true;
}

std::string writeCalibration(const TempDir& dir) {
    nlohmann::json calib = {{"format", "quantlens-calibration"},
                            {"version", 1},
                            {"method", "minmax"},
                            {"samples", 4},
                            {"activations", nlohmann::json::object()},
                            {"weights", nlohmann::json::object()}};
    for (const char* tensor :
         {"x", "c1", "r1", "c2", "r2", "p2", "c3", "r3", "c4", "r4", "p4", "c5", "r5", "c6", "r6", "c7", "r7", "y"})
        calib["activations"][tensor] = {{"amax", 4.0}, {"min", -4.0}, {"max", 4.0}, {"nonFinite", 0}};
    writeFile(dir.file("calib.json"), calib.dump());
    return dir.file("calib.json");
}

std::string writeAbBuilds(const TempDir& dir, const std::string& trt) {
    const std::string model = writeModel(dir, "m", 32);
    const std::string ab = dir.file("ab");
    const auto q = runCli({"quantize", model, "--calib", writeCalibration(dir), "-o", dir.file("q.onnx"), "--trt", trt,
                           "--ab-scripts", ab, "--gpu", "rtx3060-laptop"});
    if (q.exitCode != 0) {
        std::cerr << "quantize --ab-scripts failed: " << q.err << std::endl;
        return {};
    }
    const std::string truth = truthProfile(dir);
    const auto manifest = nlohmann::json::parse(readText(ab + "/ab-scripts.json"));  // kept: the loop reads into it
    for (const auto& variant : manifest["variants"]) {
        const std::string name = variant["name"];
        if (!writeReports(ab + "/" + name + ".onnx", truth, ab + "/" + name, {"--trt", trt})) return {};
    }
    return ab;
}

}  // namespace ql::test
