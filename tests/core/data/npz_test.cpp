#include "core/data/npz.h"

#include <gtest/gtest.h>

#include "tests/core/data/numpy_samples.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::numpySavez;
using test::numpySavezCompressed;
using test::TempDir;
using test::writeFile;

Result<NpzArrays> readBytes(const TempDir& dir, const std::string& bytes) {
    writeFile(dir.file("a.npz"), bytes);
    return readNpz(dir.file("a.npz"));
}

void expectArange(const Tensor& t) {
    EXPECT_EQ(t.dtype(), DataType::Float);
    ASSERT_EQ(t.shape(), (Shape{2, 3}));
    for (int i = 0; i < 6; ++i) EXPECT_EQ(t.data<float>()[i], static_cast<float>(i));
}

TEST(Npz, ReadsStoredArchiveFromNumpySavez) {
    TempDir dir;
    auto arrays = readBytes(dir, numpySavez());
    ASSERT_TRUE(arrays.isOk()) << arrays.status().message();
    ASSERT_EQ(arrays->size(), 2u);
    EXPECT_EQ((*arrays)[0].first, "x");
    expectArange((*arrays)[0].second);
    EXPECT_EQ((*arrays)[1].first, "y");
    EXPECT_EQ((*arrays)[1].second.dtype(), DataType::Int64);
    EXPECT_EQ((*arrays)[1].second.data<int64_t>()[1], 2);
}

TEST(Npz, ReadsDeflatedArchiveFromNumpySavezCompressed) {
    TempDir dir;
    auto arrays = readBytes(dir, numpySavezCompressed());
    ASSERT_TRUE(arrays.isOk()) << arrays.status().message();
    ASSERT_EQ(arrays->size(), 1u);
    EXPECT_EQ((*arrays)[0].first, "x");
    expectArange((*arrays)[0].second);
}

void expectError(const Result<NpzArrays>& r, const std::string& fragment) {
    ASSERT_FALSE(r.isOk());
    EXPECT_NE(r.status().message().find("a.npz"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find(fragment), std::string::npos) << r.status().message();
}

TEST(Npz, RefusesAMemberInflatingPastTheLimitBeforeInflatingIt) {
    TempDir dir;
    writeFile(dir.file("a.npz"), numpySavezCompressed());
    expectError(readNpz(dir.file("a.npz"), DataLimits{.maxDecodedBytes = 16}), "over the limit of 0 MB");
    EXPECT_TRUE(readNpz(dir.file("a.npz"), DataLimits{.maxDecodedBytes = 1 << 20}).isOk());
}

TEST(Npz, RejectsTruncatedArchive) {
    TempDir dir;
    expectError(readBytes(dir, numpySavez().substr(0, 300)), "not a valid .npz file");
}

TEST(Npz, RejectsNonZipFile) {
    TempDir dir;
    expectError(readBytes(dir, std::string(100, 'x')), "not a valid .npz file");
    expectError(readBytes(dir, ""), "not a valid .npz file");
}

TEST(Npz, DetectsDamagedStoredData) {
    TempDir dir;
    std::string bytes = numpySavez();
    bytes[bytes.find("NUMPY") + 140] ^= 0x40;  // inside x's float data (its header is 128 bytes)
    expectError(readBytes(dir, bytes), "checksum mismatch");
}

TEST(Npz, DetectsDamagedCompressedData) {
    TempDir dir;
    std::string bytes = numpySavezCompressed();
    bytes[60] ^= 0x55;  // inside the deflate stream
    auto r = readBytes(dir, bytes);
    ASSERT_FALSE(r.isOk());
    EXPECT_NE(r.status().message().find("member x.npy"), std::string::npos) << r.status().message();
}

TEST(Npz, RejectsMembersThatAreNotArrays) {
    TempDir dir;
    std::string bytes = numpySavez();
    for (size_t p = bytes.find("y.npy"); p != std::string::npos; p = bytes.find("y.npy", p + 1)) bytes[p + 2] = 't';
    expectError(readBytes(dir, bytes), "member 'y.tpy' is not a .npy array");
}

}  // namespace
}  // namespace ql
