#include "core/data/npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "core/common/half.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;
using test::writeFile;

// .npy bytes as numpy lays them out: magic, version, little-endian header length, header, data.
std::string npyBytes(const std::string& header, const std::string& data, int major = 1) {
    std::string out = "\x93NUMPY";
    out += static_cast<char>(major);
    out += '\0';
    const size_t lengthBytes = major == 1 ? 2 : 4;
    for (size_t i = 0; i < lengthBytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return out + header + data;
}

template <typename T>
std::string rawBytes(const std::vector<T>& values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Result<Tensor> readBytes(const TempDir& dir, const std::string& bytes) {
    const std::string path = dir.file("a.npy");
    writeFile(path, bytes);
    return readNpy(path);
}

TEST(Npy, ReadsFloat32MatrixWrittenByNumpy) {
    TempDir dir;
    const std::vector<float> values = {1, 2, 3, 4, 5, 6.5f};
    auto t =
        readBytes(dir, npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n", rawBytes(values)));
    ASSERT_TRUE(t.isOk()) << t.status().message();
    EXPECT_EQ(t->dtype(), DataType::Float);
    EXPECT_EQ(t->shape(), (Shape{2, 3}));
    EXPECT_EQ(std::vector<float>(t->span<float>().begin(), t->span<float>().end()), values);
}

TEST(Npy, ReadsVersion2And3Headers) {
    TempDir dir;
    const std::vector<int32_t> values = {7, -8};
    for (int major : {2, 3}) {
        auto t = readBytes(
            dir, npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }\n", rawBytes(values), major));
        ASSERT_TRUE(t.isOk()) << t.status().message();
        EXPECT_EQ(t->dtype(), DataType::Int32);
        EXPECT_EQ(t->data<int32_t>()[1], -8);
    }
}

TEST(Npy, KeepsFloat64AsDouble) {
    TempDir dir;
    auto t = readBytes(
        dir, npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n", rawBytes(std::vector<double>{0.1})));
    ASSERT_TRUE(t.isOk()) << t.status().message();
    EXPECT_EQ(t->dtype(), DataType::Double);
    EXPECT_EQ(t->rank(), 0u);
    EXPECT_EQ(t->data<double>()[0], 0.1);
}

TEST(Npy, MapsEveryNumpyDtype) {
    const std::vector<std::pair<std::string, DataType>> cases = {
        {"<f2", DataType::Float16}, {"|i1", DataType::Int8},  {"|u1", DataType::UInt8},  {"<i2", DataType::Int16},
        {"<i8", DataType::Int64},   {"|b1", DataType::Bool},  {"<u2", DataType::UInt16}, {"<u4", DataType::UInt32},
        {"<u8", DataType::UInt64},  {"=f4", DataType::Float},
    };
    TempDir dir;
    for (const auto& [descr, dtype] : cases) {
        const std::string data(3 * dataTypeSize(dtype), '\x01');
        auto t =
            readBytes(dir, npyBytes("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (3,), }\n", data));
        ASSERT_TRUE(t.isOk()) << descr << ": " << t.status().message();
        EXPECT_EQ(t->dtype(), dtype) << descr;
        EXPECT_EQ(t->shape(), Shape{3});
    }
}

TEST(Npy, AcceptsKeysInAnyOrderAndEmptyArrays) {
    TempDir dir;
    auto t = readBytes(dir, npyBytes("{\"shape\": (0, 4), \"fortran_order\": False, \"descr\": \"<f4\"}\n", ""));
    ASSERT_TRUE(t.isOk()) << t.status().message();
    EXPECT_EQ(t->shape(), (Shape{0, 4}));
    EXPECT_EQ(t->elementCount(), 0);
}

void expectError(const Result<Tensor>& t, const std::string& fragment) {
    ASSERT_FALSE(t.isOk());
    EXPECT_NE(t.status().message().find("a.npy"), std::string::npos) << t.status().message();
    EXPECT_NE(t.status().message().find(fragment), std::string::npos) << t.status().message();
}

TEST(Npy, RejectsFortranOrderWithTheFix) {
    TempDir dir;
    expectError(
        readBytes(dir, npyBytes("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }\n", std::string(4, '\0'))),
        "np.ascontiguousarray");
}

TEST(Npy, RejectsWrongMagic) {
    TempDir dir;
    expectError(readBytes(dir, "PK\x03\x04 this is a zip file, not npy"), "not a .npy file");
}

TEST(Npy, RejectsEmptyFile) {
    TempDir dir;
    expectError(readBytes(dir, ""), "not a .npy file");
}

TEST(Npy, RejectsBigEndian) {
    TempDir dir;
    expectError(
        readBytes(dir, npyBytes("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }\n", std::string(4, '\0'))),
        "big-endian");
}

TEST(Npy, RejectsObjectArrays) {
    TempDir dir;
    expectError(
        readBytes(dir, npyBytes("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }\n", std::string(8, '\0'))),
        "Python objects");
}

TEST(Npy, RejectsStructuredAndStringDtypes) {
    TempDir dir;
    expectError(readBytes(dir, npyBytes("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n",
                                        std::string(4, '\0'))),
                "structured");
    expectError(
        readBytes(dir, npyBytes("{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }\n", std::string(12, '\0'))),
        "unsupported dtype '<U3'");
}

TEST(Npy, RejectsTruncatedData) {
    TempDir dir;
    expectError(readBytes(dir, npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n",
                                        std::string(20, '\0'))),
                "truncated");
}

TEST(Npy, RejectsHeaderThatUnderstatesTheData) {
    TempDir dir;
    expectError(
        readBytes(dir, npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", std::string(12, '\0'))),
        "12 bytes of data follow");
}

TEST(Npy, RejectsTruncatedHeader) {
    TempDir dir;
    std::string bytes = npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", "");
    expectError(readBytes(dir, bytes.substr(0, 30)), "header is cut short");
}

TEST(Npy, RejectsHugeShapeWithoutAllocating) {
    TempDir dir;
    expectError(readBytes(dir, npyBytes("{'descr': '<f8', 'fortran_order': False, "
                                        "'shape': (4294967296, 4294967296, 4294967296), }\n",
                                        std::string(8, '\0'))),
                "too large");
    expectError(readBytes(dir, npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }\n",
                                        std::string(8, '\0'))),
                "truncated");
}

TEST(Npy, RejectsMalformedHeaders) {
    TempDir dir;
    for (const std::string header :
         {"['descr']\n", "{'descr': '<f4', 'shape': (1,)}\n",
          "{'descr': '<f4', 'fortran_order': maybe, 'shape': (1,)}\n",
          "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}\n",
          "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}\n", "{'descr': '<f4"}) {
        expectError(readBytes(dir, npyBytes(header, std::string(4, '\0'))), "not a valid .npy header");
    }
}

TEST(Npy, RejectsUnknownVersion) {
    TempDir dir;
    expectError(readBytes(dir, npyBytes("{}", "", 9)), "version 9");
}

TEST(Npy, ReportsMissingFile) {
    auto t = readNpy("/nonexistent/folder/x.npy");
    ASSERT_FALSE(t.isOk());
    EXPECT_NE(t.status().message().find("/nonexistent/folder/x.npy"), std::string::npos);
}

TEST(Npy, WritesExactlyWhatNumpyWrites) {
    // np.save of np.arange(6, dtype=np.float32).reshape(2, 3): a 118-byte header padded to 128 bytes in total.
    TempDir dir;
    const std::vector<float> values = {0, 1, 2, 3, 4, 5};
    ASSERT_TRUE(writeNpy(dir.file("a.npy"), Tensor::fromVector(DataType::Float, {2, 3}, values)).isOk());
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    header += std::string(128 - 10 - header.size() - 1, ' ') + "\n";
    EXPECT_EQ(readAll(dir.file("a.npy")), npyBytes(header, rawBytes(values)));
}

TEST(Npy, RoundTripsEveryDtypeAndRank) {
    TempDir dir;
    const std::vector<std::pair<DataType, Shape>> cases = {
        {DataType::Float, {}},     {DataType::Double, {5}}, {DataType::Float16, {2, 2}},  {DataType::Int8, {1, 2, 3}},
        {DataType::UInt8, {4, 1}}, {DataType::Int16, {3}},  {DataType::Int32, {2, 0, 2}}, {DataType::Int64, {2, 3}},
        {DataType::Bool, {7}},     {DataType::UInt16, {2}}, {DataType::UInt32, {1, 1}},   {DataType::UInt64, {3}},
    };
    for (const auto& [dtype, shape] : cases) {
        Tensor t = Tensor::zeros(dtype, shape);
        auto* bytes = static_cast<uint8_t*>(t.rawData());
        for (size_t i = 0; i < t.byteSize(); ++i) bytes[i] = dtype == DataType::Bool ? (i % 2) : (i * 37 + 11) & 0xff;
        const std::string path = dir.file("rt.npy");
        ASSERT_TRUE(writeNpy(path, t).isOk()) << dataTypeName(dtype);
        auto back = readNpy(path);
        ASSERT_TRUE(back.isOk()) << back.status().message();
        EXPECT_EQ(back->dtype(), dtype);
        EXPECT_EQ(back->shape(), shape);
        EXPECT_EQ(std::memcmp(back->rawData(), t.rawData(), t.byteSize()), 0) << dataTypeName(dtype);
        EXPECT_EQ(readAll(path).size() % 64, t.byteSize() % 64) << "data starts on a 64-byte boundary";
    }
}

TEST(Npy, UsesVersion2WhenTheHeaderIsTooLongForVersion1) {
    TempDir dir;
    Shape shape(30000, 1);  // the header text exceeds 65535 bytes
    const std::string path = dir.file("v2.npy");
    ASSERT_TRUE(writeNpy(path, Tensor::zeros(DataType::Float, shape)).isOk());
    EXPECT_EQ(readAll(path)[6], '\x02');
    auto back = readNpy(path);
    ASSERT_TRUE(back.isOk()) << back.status().message();
    EXPECT_EQ(back->shape(), shape);
}

TEST(Npy, RefusesToWriteDtypesNumpyLacks) {
    TempDir dir;
    Status s = writeNpy(dir.file("s.npy"), Tensor::zeros(DataType::BFloat16, {2}));
    EXPECT_FALSE(s.isOk());
    EXPECT_NE(s.message().find("BFLOAT16"), std::string::npos) << s.message();
}

TEST(Npy, FailedWriteLeavesTheOldFile) {
    TempDir dir;
    const std::string path = dir.file("keep.npy");
    writeFile(path, "old");
    EXPECT_FALSE(writeNpy(path, Tensor::zeros(DataType::BFloat16, {2})).isOk());
    EXPECT_EQ(readAll(path), "old");
}

// `run --out` with an output named by a long path (a TF graph's scope) said "cannot create a file here".
TEST(Npy, ATensorNameTooLongForAFileNameIsShortenedAndStillWritten) {
    const std::string scope(300, 'a');
    const std::string first = npyFileName(scope + "/logits"), second = npyFileName(scope + "/boxes");
    EXPECT_LE(first.size(), 255u);
    EXPECT_NE(first, second);  // the hash of the whole name tells them apart
    EXPECT_EQ(first.substr(0, 200), std::string(200, 'a'));
    EXPECT_EQ(npyFileName("out:0"), "out_0.npy");  // short names unchanged
    TempDir dir;
    const Tensor t = Tensor::fromVector<float>(DataType::Float, {2}, {1, 2});
    ASSERT_TRUE(writeNamedNpy(dir.path(), {{scope + "/logits", t}, {scope + "/boxes", t}}).isOk());
    auto back = readNpy(dir.file(first));
    ASSERT_TRUE(back) << back.status().message();
    EXPECT_EQ(back->toFloats(), (std::vector<float>{1, 2}));
}

}  // namespace
}  // namespace ql
