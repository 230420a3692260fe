#include "core/data/open_data.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/data/npy.h"
#include "tests/core/data/numpy_samples.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;
using test::writeFile;

InputSpec floatInput(const std::string& name, std::vector<int64_t> dims) {
    return {name, DataType::Float, true, std::move(dims)};
}

Tensor iota(Shape shape, float start = 0.0f) {
    Tensor t(DataType::Float, std::move(shape));
    for (int64_t i = 0; i < t.elementCount(); ++i) t.data<float>()[i] = start + static_cast<float>(i);
    return t;
}

void expectError(const Status& s, const std::vector<std::string>& fragments) {
    ASSERT_FALSE(s.isOk());
    for (const auto& f : fragments) EXPECT_NE(s.message().find(f), std::string::npos) << s.message();
}

TEST(OpenData, NpyFileGivesSamplesAlongTheFirstAxis) {
    TempDir dir;
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), iota({5, 3, 2})).isOk());
    auto source = openDataSource({floatInput("x", {-1, 3, 2})}, {{"", dir.file("x.npy"), {}}});
    ASSERT_TRUE(source.isOk()) << source.status().message();
    EXPECT_EQ((*source)->sampleCount(), 5);
    auto batch = (*source)->read(1, 2);
    ASSERT_TRUE(batch.isOk()) << batch.status().message();
    ASSERT_EQ(batch->size(), 1u);
    EXPECT_EQ((*batch)[0].first, "x");
    const Tensor& t = (*batch)[0].second;
    EXPECT_EQ(t.shape(), (Shape{2, 3, 2}));
    EXPECT_EQ(t.data<float>()[0], 6.0f);
    EXPECT_EQ(t.data<float>()[11], 17.0f);
}

TEST(OpenData, LargeNpyIsReadFromTheFileBatchByBatchAndRereadable) {
    TempDir dir;
    // 64 samples of 4 KiB: batches span whole pages, which each read releases after copying.
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), iota({64, 1024})).isOk());
    auto source = openDataSource({floatInput("x", {-1, 1024})}, {{"", dir.file("x.npy"), {}}});
    ASSERT_TRUE(source.isOk()) << source.status().message();
    std::filesystem::remove(dir.file("x.npy"));  // the open mapping keeps the data readable
    for (int pass = 0; pass < 2; ++pass) {       // released pages come back from the file
        for (int64_t first = 0; first < 64; first += 8) {
            auto batch = (*source)->read(first, 8);
            ASSERT_TRUE(batch.isOk()) << batch.status().message();
            const Tensor& t = (*batch)[0].second;
            EXPECT_EQ(t.data<float>()[0], static_cast<float>(first * 1024));
            EXPECT_EQ(t.data<float>()[8 * 1024 - 1], static_cast<float>((first + 8) * 1024 - 1));
        }
    }
}

TEST(OpenData, MappedNpyBorrowsTheFileAndBoolsAreCopied) {
    TempDir dir;
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), iota({2, 3})).isOk());
    auto mapped = mapNpy(dir.file("x.npy"));
    ASSERT_TRUE(mapped.isOk()) << mapped.status().message();
    ASSERT_NE(mapped->file, nullptr);
    EXPECT_GE(mapped->array.rawData(), static_cast<const void*>(mapped->file->bytes().data()));
    EXPECT_EQ(mapped->array.data<float>()[5], 5.0f);
    ASSERT_TRUE(writeNpy(dir.file("b.npy"), Tensor::zeros(DataType::Bool, {2})).isOk());
    auto bools = mapNpy(dir.file("b.npy"));
    ASSERT_TRUE(bools.isOk()) << bools.status().message();
    EXPECT_EQ(bools->file, nullptr);
    EXPECT_EQ(bools->array.dtype(), DataType::Bool);
    EXPECT_FALSE(mapNpy(dir.file("none.npy")).isOk());
}

TEST(OpenData, ReadOutsideTheSamplesIsAnError) {
    TempDir dir;
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), iota({2, 3})).isOk());
    auto source = openDataSource({floatInput("x", {-1, 3})}, {{"", dir.file("x.npy"), {}}});
    ASSERT_TRUE(source.isOk());
    EXPECT_FALSE((*source)->read(1, 2).isOk());
    EXPECT_FALSE((*source)->read(0, 0).isOk());
}

TEST(OpenData, WrongDtypeNamesTheFileAndTheFix) {
    TempDir dir;
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), Tensor::zeros(DataType::Double, {2, 3})).isOk());
    auto source = openDataSource({floatInput("x", {-1, 3})}, {{"", dir.file("x.npy"), {}}});
    expectError(source.status(), {"x.npy", "float64", "float32", "astype"});
}

TEST(OpenData, WrongShapeNamesTheFileAndTheExpectedShape) {
    TempDir dir;
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), iota({2, 4, 4})).isOk());
    auto source = openDataSource({floatInput("x", {-1, 3, 4})}, {{"", dir.file("x.npy"), {}}});
    expectError(source.status(), {"x.npy", "[4,4]", "[3,4]"});
}

// Silero VAD's sample rate `sr` is a scalar input: one value per sample, a batch takes the value its samples share.
TEST(OpenData, AScalarInputTakesOneValuePerSampleAndABatchTheValueItsSamplesShare) {
    TempDir dir;
    Tensor rates(DataType::Int64, {4});
    for (int64_t i = 0; i < 4; ++i) rates.data<int64_t>()[i] = i < 3 ? 16000 : 8000;
    ASSERT_TRUE(writeNpy(dir.file("sr.npy"), rates).isOk());
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), iota({4, 3})).isOk());
    const std::vector<InputSpec> inputs = {floatInput("x", {-1, 3}), {"sr", DataType::Int64, true, {}}};
    auto source = openDataSource(inputs, {{"x", dir.file("x.npy"), {}}, {"sr", dir.file("sr.npy"), {}}});
    ASSERT_TRUE(source.isOk()) << source.status().message();
    EXPECT_EQ((*source)->sampleCount(), 4);
    auto batch = (*source)->read(0, 3);
    ASSERT_TRUE(batch.isOk()) << batch.status().message();
    const Tensor& sr = (*batch)[1].second;
    EXPECT_EQ(sr.rank(), 0);
    EXPECT_EQ(sr.data<int64_t>()[0], 16000);
    auto last = (*source)->read(3, 1);
    ASSERT_TRUE(last.isOk()) << last.status().message();
    EXPECT_EQ((*last)[1].second.data<int64_t>()[0], 8000);
    // Samples that disagree cannot share a batch: the error names the input, the samples and the fix.
    expectError((*source)->read(2, 2).status(), {"'sr'", "samples 2 and 3", "--batch 1"});
    // One value for the whole run is refused with the shape to give.
    ASSERT_TRUE(writeNpy(dir.file("one.npy"), iota({2, 2})).isOk());
    expectError(openDataSource({{"sr", DataType::Float, true, {}}}, {{"", dir.file("one.npy"), {}}}).status(),
                {"one.npy", "'sr' is a scalar", "[samples]"});
}

// An RNN state [layers, batch, hidden] (Silero VAD's [2, ?, 128], PyTorch's LSTM h and c) has its batch on axis 1: a
// file still lists one sample [layers, hidden] per row, and a batch stacks them on axis 1.
TEST(OpenData, AStateWhoseBatchIsItsSecondAxisStacksSamplesThere) {
    test::ModelBuilder b;
    b.input("state", DataType::Float, {2, -1, 4});
    b.input("frames", DataType::Float, {1, -1, 80});  // a fixed batch of 1, an open time axis: batch on axis 0
    b.input("x", DataType::Float, {-1, 3});
    b.node("Identity", {"state"}, {"y"}, "id");
    b.output("y");
    const auto model = b.load();
    const std::vector<InputSpec> specs = inputSpecs(model->graph());
    EXPECT_EQ(specs[0].batchAxis, 1u);
    EXPECT_EQ(specs[0].sampleDims(), (std::vector<int64_t>{2, 4}));
    EXPECT_EQ(specs[1].batchAxis, 0u);
    EXPECT_EQ(specs[2].batchAxis, 0u);
    // The state's first axis (2) does not fix the batch: its batch axis is open, so --batch decides (the frames'
    // fixed batch of 1 does fix it).
    test::ModelBuilder open;
    open.input("state", DataType::Float, {2, -1, 4});
    open.node("Identity", {"state"}, {"y"}, "id");
    open.output("y");
    EXPECT_FALSE(batchingFor(open.load()->graph(), 3).fixed);
    EXPECT_EQ(batchingFor(model->graph(), 3).size, 1);

    TempDir dir;
    ASSERT_TRUE(writeNpy(dir.file("state.npy"), iota({3, 2, 4})).isOk());  // sample i: values 8i .. 8i+7
    auto source = openDataSource({specs[0]}, {{"", dir.file("state.npy"), {}}});
    ASSERT_TRUE(source.isOk()) << source.status().message();
    EXPECT_EQ((*source)->sampleCount(), 3);
    auto batch = (*source)->read(1, 2);
    ASSERT_TRUE(batch.isOk()) << batch.status().message();
    const Tensor& t = (*batch)[0].second;
    ASSERT_EQ(t.shape(), (Shape{2, 2, 4}));
    // [layer, sample, hidden]: layer 0 of samples 1 and 2, then layer 1 of both.
    const std::vector<float> expected = {8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15, 20, 21, 22, 23};
    EXPECT_EQ(std::vector<float>(t.data<float>(), t.data<float>() + 16), expected);

    // A folder of one .npy per sample stacks the same way; a sample given with the batch axis of 1 is accepted.
    std::filesystem::create_directory(dir.file("states"));
    ASSERT_TRUE(writeNpy(dir.file("states/a.npy"), iota({2, 4})).isOk());
    ASSERT_TRUE(writeNpy(dir.file("states/b.npy"), iota({2, 1, 4}, 8.0f)).isOk());
    auto folder = openDataSource({specs[0]}, {{"", dir.file("states"), {}}});
    ASSERT_TRUE(folder.isOk()) << folder.status().message();
    auto both = (*folder)->read(0, 2);
    ASSERT_TRUE(both.isOk()) << both.status().message();
    ASSERT_EQ((*both)[0].second.shape(), (Shape{2, 2, 4}));
    EXPECT_EQ((*both)[0].second.data<float>()[4], 8.0f);  // layer 0 of the second sample
    EXPECT_EQ((*both)[0].second.data<float>()[8], 4.0f);  // layer 1 of the first
    // A sample of another shape names both.
    ASSERT_TRUE(writeNpy(dir.file("bad.npy"), iota({3, 4, 2})).isOk());
    expectError(openDataSource({specs[0]}, {{"", dir.file("bad.npy"), {}}}).status(), {"bad.npy", "[4,2]", "[2,4]"});
}

TEST(OpenData, NpzFeedsEveryInputByName) {
    TempDir dir;
    writeFile(dir.file("d.npz"), test::numpySavez());  // x: float32 [2,3], y: int64 [2]
    const std::vector<InputSpec> inputs = {{"y", DataType::Int64, true, {-1}}, floatInput("x", {-1, 3})};
    auto source = openDataSource(inputs, {{"", dir.file("d.npz"), {}}});
    ASSERT_TRUE(source.isOk()) << source.status().message();
    auto batch = (*source)->read(1, 1);
    ASSERT_TRUE(batch.isOk());
    EXPECT_EQ((*batch)[0].first, "y");
    EXPECT_EQ((*batch)[0].second.data<int64_t>()[0], 2);
    EXPECT_EQ((*batch)[1].second.shape(), (Shape{1, 3}));
    EXPECT_EQ((*batch)[1].second.data<float>()[0], 3.0f);
}

TEST(OpenData, NpzWithOneMemberFeedsASingleInputModel) {
    TempDir dir;
    writeFile(dir.file("d.npz"), test::numpySavezCompressed());  // x: float32 [2,3]
    auto source = openDataSource({floatInput("input", {-1, 3})}, {{"", dir.file("d.npz"), {}}});
    ASSERT_TRUE(source.isOk()) << source.status().message();
    EXPECT_EQ((*source)->sampleCount(), 2);
}

TEST(OpenData, NpzWithoutTheInputNamesItsMembers) {
    TempDir dir;
    writeFile(dir.file("d.npz"), test::numpySavez());
    const std::vector<InputSpec> inputs = {floatInput("x", {-1, 3}), floatInput("z", {-1, 3})};
    expectError(openDataSource(inputs, {{"", dir.file("d.npz"), {}}}).status(),
                {"d.npz", "no array named 'z'", "'x', 'y'", "np.savez"});
}

TEST(OpenData, MissingInputDataIsAnError) {
    TempDir dir;
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), iota({2, 3})).isOk());
    const std::vector<InputSpec> inputs = {floatInput("x", {-1, 3}), floatInput("y", {-1, 3})};
    expectError(openDataSource(inputs, {{"x", dir.file("x.npy"), {}}}).status(), {"no data for model input 'y'"});
    expectError(openDataSource(inputs, {{"z", dir.file("x.npy"), {}}}).status(), {"'z'", "not a model input"});
}

TEST(OpenData, InputsWithDifferentSampleCountsAreAnError) {
    TempDir dir;
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), iota({2, 3})).isOk());
    ASSERT_TRUE(writeNpy(dir.file("y.npy"), iota({3, 3})).isOk());
    const std::vector<InputSpec> inputs = {floatInput("x", {-1, 3}), floatInput("y", {-1, 3})};
    expectError(openDataSource(inputs, {{"x", dir.file("x.npy"), {}}, {"y", dir.file("y.npy"), {}}}).status(),
                {"'y' has 3 samples", "'x' has 2"});
}

TEST(OpenData, MissingPathIsNotFound) {
    auto source = openDataSource({floatInput("x", {-1, 3})}, {{"", "/nonexistent/data.npy", {}}});
    ASSERT_FALSE(source.isOk());
    EXPECT_EQ(source.status().code(), StatusCode::NotFound);
}

TEST(OpenData, NpyFolderGivesOneSamplePerFileInNameOrder) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("d"));
    ASSERT_TRUE(writeNpy(dir.file("d/b.npy"), iota({1, 2}, 10)).isOk());  // leading axis of 1 accepted
    ASSERT_TRUE(writeNpy(dir.file("d/a.npy"), iota({2}, 0)).isOk());
    ASSERT_TRUE(writeNpy(dir.file("d/c.npy"), iota({2}, 20)).isOk());
    writeFile(dir.file("d/README.txt"), "ignored");
    auto source = openDataSource({floatInput("x", {-1, 2})}, {{"", dir.file("d"), {}}});
    ASSERT_TRUE(source.isOk()) << source.status().message();
    EXPECT_EQ((*source)->sampleCount(), 3);
    auto batch = (*source)->read(0, 3);
    ASSERT_TRUE(batch.isOk()) << batch.status().message();
    const Tensor& t = (*batch)[0].second;
    EXPECT_EQ(t.shape(), (Shape{3, 2}));
    EXPECT_EQ(t.data<float>()[0], 0.0f);
    EXPECT_EQ(t.data<float>()[2], 10.0f);
    EXPECT_EQ(t.data<float>()[4], 20.0f);
}

TEST(OpenData, NpyFolderSampleWithAnotherShapeNamesTheFile) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("d"));
    ASSERT_TRUE(writeNpy(dir.file("d/a.npy"), iota({2})).isOk());
    ASSERT_TRUE(writeNpy(dir.file("d/b.npy"), iota({3})).isOk());
    auto source = openDataSource({floatInput("x", {-1, -1})}, {{"", dir.file("d"), {}}});
    ASSERT_TRUE(source.isOk());
    expectError((*source)->read(0, 2).status(), {"b.npy", "[3]", "a.npy", "[2]"});
}

TEST(OpenData, FolderMixingArraysAndImagesIsAnError) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("d"));
    ASSERT_TRUE(writeNpy(dir.file("d/a.npy"), iota({2})).isOk());
    writeFile(dir.file("d/b.png"), "x");
    expectError(openDataSource({floatInput("x", {-1, 2})}, {{"", dir.file("d"), {}}}).status(), {"mixes"});
}

TEST(OpenData, EmptyFolderIsAnError) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("d"));
    expectError(openDataSource({floatInput("x", {-1, 2})}, {{"", dir.file("d"), {}}}).status(),
                {"no .npy files and no images"});
}

TEST(Labels, ReadsIntegerColumn) {
    TempDir dir;
    Tensor t = Tensor::fromVector(DataType::Int32, {3, 1}, std::vector<int32_t>{4, 0, 7});
    ASSERT_TRUE(writeNpy(dir.file("l.npy"), t).isOk());
    auto labels = readLabels(dir.file("l.npy"), 3);
    ASSERT_TRUE(labels.isOk()) << labels.status().message();
    EXPECT_EQ(*labels, (std::vector<int64_t>{4, 0, 7}));
}

TEST(Labels, RejectsFloatsAndWrongCounts) {
    TempDir dir;
    ASSERT_TRUE(writeNpy(dir.file("f.npy"), iota({3})).isOk());
    expectError(readLabels(dir.file("f.npy"), 3).status(), {"f.npy", "integers", "float32"});
    ASSERT_TRUE(writeNpy(dir.file("l.npy"), Tensor::zeros(DataType::Int64, {4})).isOk());
    expectError(readLabels(dir.file("l.npy"), 3).status(), {"l.npy", "[4]", "3 samples"});
}

}  // namespace
}  // namespace ql
