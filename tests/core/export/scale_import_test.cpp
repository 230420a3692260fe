// Scales from other tools: TensorRT caches, ONNX Runtime calibration.json / calibration.cache, Q/DQ models,
// detected by content; bad files are errors naming the file and the line.
#include "core/export/scale_import.h"

#include <gtest/gtest.h>

#include "core/export/qdq_export.h"
#include "core/quant/calibration_file.h"
#include "core/quant/trt_cache.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

std::unique_ptr<Model> convModel() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

std::string file(const TempDir& dir, const std::string& name, const std::string& content) {
    test::writeFile(dir.file(name), content);
    return dir.file(name);
}

float amaxOf(const CalibrationResult& calibration, const std::string& name) {
    for (const auto& range : calibration.activations)
        if (range.name == name) return range.amax;
    ADD_FAILURE() << "no amax for " << name;
    return 0.0f;
}

TEST(ScaleImportTest, TensorRtCacheLinesGiveTheScaleBitsBack) {
    auto table = parseTrtCache(
        "TRT-8600-EntropyCalibration2\nx: 3c010204\n(Unnamed Layer* 3) [Convolution]_output: 3d000000\n", "m.cache");
    ASSERT_TRUE(table) << table.status().message();
    ASSERT_EQ(table->entries.size(), 2u);
    EXPECT_EQ(table->entries[0].name, "x");
    EXPECT_EQ(table->entries[0].amax / 127.0f, 1.0f / 127.0f);
    EXPECT_EQ(table->entries[1].name, "(Unnamed Layer* 3) [Convolution]_output");
    EXPECT_EQ(table->entries[1].amax / 127.0f, 0.03125f);
    EXPECT_EQ(table->method, CalibrationMethod::Entropy);
}

// Found by fuzz_project (through the .qlproj calibration import): a number past double's range threw
// out_of_range, which the JSON reader did not catch.
TEST(ScaleImportTest, ANumberPastDoubleRangeIsAnErrorNotAnException) {
    auto model = convModel();
    TempDir dir;
    auto imported = importScales(model->graph(), file(dir, "calibration.json", R"({"c": 5.4e188477})"));
    ASSERT_FALSE(imported.isOk());
    EXPECT_NE(imported.status().message().find("not valid JSON"), std::string::npos) << imported.status().message();
}

TEST(ScaleImportTest, BadTensorRtCacheNamesTheFileAndLine) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"TRT8600\nx: 3c010204\n", "m.cache:1:"},
        {"TRT-8600-EntropyCalibration2\nx: 3c010204\ny 3c010204\n", "m.cache:3:"},
        {"TRT-8600-EntropyCalibration2\nx: 3c01020g\n", "m.cache:2:"},
        {"TRT-8600-EntropyCalibration2\nx: bc010204\n", "m.cache:2:"},  // negative scale
        {"TRT-8600-EntropyCalibration2\nx: 7f800000\n", "m.cache:2:"},  // infinite
    };
    for (const auto& [text, where] : cases) {
        auto table = parseTrtCache(text, "m.cache");
        ASSERT_FALSE(table) << text;
        EXPECT_EQ(table.status().message().rfind(where, 0), 0u) << table.status().message();
    }
}

TEST(ScaleImportTest, OrtCalibrationJsonInEveryForm) {
    const std::string old = R"({"x": [-1.5, 2.0], "c": [0, 4]})";
    const std::string tensorData =
        R"({"x": {"lowest": {"data": -3.0, "dtype": "float32", "CLS": "numpy.array"},
                  "highest": {"data": [1.0], "dtype": "float32", "CLS": "numpy.array"}, "CLS": "TensorData"},
            "c": {"lowest": 0.0, "highest": 4.0}})";
    const std::string wrapped =
        R"({"CLS": "TensorsData", "calibration_method": {"CLS": "CalibrationMethod", "value": "x"},
                                    "data": {"x": {"lowest": -3.0, "highest": 1.0, "CLS": "TensorData"}}})";
    for (const auto& [text, amax] :
         std::vector<std::pair<std::string, float>>{{old, 2.0f}, {tensorData, 3.0f}, {wrapped, 3.0f}}) {
        auto table = parseOrtCalibrationJson(text, "calibration.json");
        ASSERT_TRUE(table) << table.status().message();
        auto it = std::find_if(table->entries.begin(), table->entries.end(),
                               [](const ScaleEntry& e) { return e.name == "x"; });
        ASSERT_NE(it, table->entries.end()) << text;
        EXPECT_EQ(it->amax, amax) << text;
    }
}

TEST(ScaleImportTest, BadOrtCalibrationJsonNamesTheFileLineAndTensor) {
    auto table = parseOrtCalibrationJson("{\n  \"x\": [0, 1],\n  \"c\": \"wide\"\n}", "calibration.json");
    ASSERT_FALSE(table);
    EXPECT_EQ(table.status().message().rfind("calibration.json:3: tensor 'c'", 0), 0u) << table.status().message();
    auto reversed = parseOrtCalibrationJson(R"({"x": [2, 1]})", "calibration.json");
    ASSERT_FALSE(reversed);
    EXPECT_NE(reversed.status().message().find("'x'"), std::string::npos);
}

TEST(ScaleImportTest, OrtCacheTextAndItsBadLines) {
    auto table = parseOrtCacheText("x 2.5\nmy tensor 0.75\n\n", "calibration.cache");
    ASSERT_TRUE(table) << table.status().message();
    ASSERT_EQ(table->entries.size(), 2u);
    EXPECT_EQ(table->entries[1].name, "my tensor");
    EXPECT_EQ(table->entries[1].amax, 0.75f);
    for (const std::string bad : {"x 2.5\ny\n", "x 2.5\ny nan\n", "x 2.5\ny -1\n", "x 2.5\ny 1.0abc\n"}) {
        auto r = parseOrtCacheText(bad, "calibration.cache");
        ASSERT_FALSE(r) << bad;
        EXPECT_EQ(r.status().message().rfind("calibration.cache:2:", 0), 0u) << r.status().message();
    }
}

TEST(ScaleImportTest, ImportDetectsEachFormatAndSkipsUnknownTensors) {
    TempDir dir;
    auto model = convModel();
    const Graph& graph = model->graph();
    CalibrationResult ours;
    ours.activations = {{.name = "x", .amax = 2.0f}, {.name = "c", .amax = 5.0f}};
    ASSERT_TRUE(saveCalibration(graph, ours, dir.file("calib.json")));
    ASSERT_TRUE(saveTrtCache(ours, kTrtCacheVersion10, dir.file("trt.cache")));
    const std::vector<std::tuple<std::string, ScaleFormat, size_t>> files = {
        {dir.file("calib.json"), ScaleFormat::QuantLens, 0},
        {dir.file("trt.cache"), ScaleFormat::TensorRtCache, 0},
        {file(dir, "calibration.json", R"({"x": [-2, 1], "c": [0, 5], "elsewhere": [0, 1]})"), ScaleFormat::OrtJson, 1},
        {file(dir, "calibration.cache", "x 2\nc 5\nelsewhere 1\n"), ScaleFormat::OrtCacheText, 1},
    };
    for (const auto& [path, format, unknown] : files) {
        auto imported = importScales(graph, path);
        ASSERT_TRUE(imported) << path << ": " << imported.status().message();
        EXPECT_EQ(imported->format, format) << path;
        EXPECT_EQ(amaxOf(imported->calibration, "x") / 127.0f, 2.0f / 127.0f) << path;
        EXPECT_EQ(amaxOf(imported->calibration, "c") / 127.0f, 5.0f / 127.0f) << path;
        EXPECT_EQ(imported->unknownTensors.size(), unknown) << path;
    }
}

TEST(ScaleImportTest, ImportReadsTheActivationScalesOfAQdqModel) {
    TempDir dir;
    auto model = convModel();
    CalibrationResult calibration;
    calibration.activations = {{.name = "x", .amax = 2.0f}, {.name = "c", .amax = 5.0f}, {.name = "y", .amax = 5.0f}};
    auto exported = exportQdq(*model, PrecisionPlan(model->graph(), Precision::Int8), calibration);
    ASSERT_TRUE(exported) << exported.status().message();
    ASSERT_TRUE(saveQdqExport(*exported, dir.file("q.onnx"), ""));
    auto imported = importScales(model->graph(), dir.file("q.onnx"));
    ASSERT_TRUE(imported) << imported.status().message();
    EXPECT_EQ(imported->format, ScaleFormat::QdqModel);
    ASSERT_EQ(imported->calibration.activations.size(), 1u);  // only the conv input is quantized
    EXPECT_EQ(imported->calibration.activations[0].amax / 127.0f, 2.0f / 127.0f);
    ASSERT_EQ(imported->calibration.weights.size(), 1u);
    EXPECT_EQ(imported->calibration.weights[0].name, "w");
    EXPECT_EQ(imported->calibration.weights[0].amax.size(), 4u);
}

TEST(ScaleImportTest, UnreadableFilesAreErrorsNamingTheFile) {
    TempDir dir;
    auto model = convModel();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {file(dir, "flat.bin", std::string("\x10\x00\x00\x00\x0c\x00", 6)), "calibration.flatbuffers"},
        {file(dir, "bad.json", "{\n\"x\": [0, 1],\n oops\n}"), "bad.json:3:"},
        {file(dir, "other.json", R"({"format": "something-else"})"), "other.json"},
        {file(dir, "words.txt", "hello\n"), "words.txt:1:"},
        {dir.file("missing.cache"), "missing.cache"},
    };
    for (const auto& [path, expected] : cases) {
        auto imported = importScales(model->graph(), path);
        ASSERT_FALSE(imported) << path;
        EXPECT_NE(imported.status().message().find(expected), std::string::npos) << imported.status().message();
    }
    test::ModelBuilder plain;
    plain.input("x", DataType::Float, {1});
    plain.node("Relu", {"x"}, {"y"});
    plain.output("y");
    plain.save(dir.file("plain.onnx"));
    auto noScales = importScales(model->graph(), dir.file("plain.onnx"));
    ASSERT_FALSE(noScales);
    EXPECT_NE(noScales.status().message().find("no QuantizeLinear"), std::string::npos) << noScales.status().message();
}

}  // namespace
}  // namespace ql
