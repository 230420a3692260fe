#include "core/quant/trt_cache.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/support/model_builder.h"

namespace ql {
namespace {

TensorRange range(const std::string& name, float amax) {
    TensorRange r;
    r.name = name;
    r.amax = amax;
    return r;
}

CalibrationResult result(CalibrationMethod method) {
    CalibrationResult r;
    r.config.method = method;
    r.activations = {range("images", 1.0f), range("/model.0/act/Mul_output_0", 127.0f), range("dead", 0.0f),
                     range("a:b", 63.5f)};
    return r;
}

TEST(TrtCacheTest, ScaleHexIsBigEndianFloatBitsOfScale) {
    EXPECT_EQ(trtScaleHex(1.0f / 127.0f), "3c010204");  // struct.pack('>f', 1/127).hex()
    EXPECT_EQ(trtScaleHex(1.0f), "3f800000");
    EXPECT_EQ(trtScaleHex(0.2310298f), "3e6c9313");
    EXPECT_EQ(trtScaleHex(0.0f), "00000000");
}

TEST(TrtCacheTest, TextHasHeaderAndOneLinePerNonZeroTensor) {
    EXPECT_EQ(trtCacheText(result(CalibrationMethod::Entropy), kTrtCacheVersion86),
              "TRT-8600-EntropyCalibration2\n"
              "images: 3c010204\n"
              "/model.0/act/Mul_output_0: 3f800000\n"
              "a:b: 3f000000\n");
}

TEST(TrtCacheTest, HeaderNamesTheAlgorithm) {
    const auto header = [](CalibrationMethod m) {
        const std::string text = trtCacheText(result(m), kTrtCacheVersion10);
        return text.substr(0, text.find('\n'));
    };
    EXPECT_EQ(header(CalibrationMethod::Entropy), "TRT-100300-EntropyCalibration2");
    EXPECT_EQ(header(CalibrationMethod::MinMax), "TRT-100300-MinMaxCalibration");
    EXPECT_EQ(header(CalibrationMethod::Percentile), "TRT-100300-LegacyCalibration");
    EXPECT_EQ(header(CalibrationMethod::Mse), "TRT-100300-LegacyCalibration");
}

TEST(TrtCacheTest, SaveWritesTheText) {
    test::TempDir dir;
    const std::string path = dir.file("calib.cache");
    ASSERT_TRUE(saveTrtCache(result(CalibrationMethod::MinMax), kTrtCacheVersion86, path).isOk());
    std::ifstream in(path);
    std::stringstream content;
    content << in.rdbuf();
    EXPECT_EQ(content.str(), trtCacheText(result(CalibrationMethod::MinMax), kTrtCacheVersion86));
}

}  // namespace
}  // namespace ql
