#include "core/quant/metric_command.h"

#include <gtest/gtest.h>

#include "core/data/npy.h"

namespace ql {
namespace {

NamedTensors outputs() {
    return {{"scores:0", Tensor::fromVector(DataType::Float, {2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6})}};
}

TEST(MetricCommand, TheCommandReadsTheOutputsAsRunOutWritesThemAndItsLastLineIsTheMetric) {
    auto metric = metricCommand("echo warming up; wc -c < {outputs}/scores_0.npy");
    ASSERT_TRUE(metric.isOk()) << metric.status().message();
    auto value = (*metric)(outputs(), {0, 1});
    ASSERT_TRUE(value.isOk()) << value.status().message();
    EXPECT_EQ(*value, static_cast<double>(encodeNpy(outputs()[0].second)->size()));
}

// Which data samples the rows are (tune evaluates subsets): sample_indices.npy, int64, one per row, in row order.
TEST(MetricCommand, TheFolderHoldsTheSampleIndicesOfTheRows) {
    const std::string copy = testing::TempDir() + "/metric_indices_copy.npy";
    auto metric = metricCommand("cp {outputs}/sample_indices.npy '" + copy + "' && echo 1");
    ASSERT_TRUE(metric.isOk());
    auto value = (*metric)(outputs(), {40, 41});
    ASSERT_TRUE(value.isOk()) << value.status().message();
    auto indices = readNpy(copy);
    ASSERT_TRUE(indices.isOk()) << indices.status().message();
    EXPECT_EQ(indices->dtype(), DataType::Int64);
    EXPECT_EQ(indices->toInt64s(), (std::vector<int64_t>{40, 41}));
}

TEST(MetricCommand, AnOutputNamedLikeTheIndicesFileIsRefusedByName) {
    auto metric = metricCommand("echo 1 {outputs}");
    NamedTensors clash = {{"sample_indices", outputs()[0].second}};
    auto value = (*metric)(clash, {0, 1});
    ASSERT_FALSE(value.isOk());
    EXPECT_NE(value.status().message().find("'sample_indices'"), std::string::npos) << value.status().message();
}

TEST(MetricCommand, ACommandWithoutThePlaceholderIsRefused) {
    auto metric = metricCommand("python3 score.py");
    ASSERT_FALSE(metric.isOk());
    EXPECT_NE(metric.status().message().find("{outputs}"), std::string::npos);
}

TEST(MetricCommand, AFailingCommandOrOneWithoutANumberIsAnErrorQuotingIt) {
    auto failing = metricCommand("exit 3; {outputs}");
    ASSERT_TRUE(failing.isOk());
    auto failed = (*failing)(outputs(), {0, 1});
    ASSERT_FALSE(failed.isOk());
    EXPECT_NE(failed.status().message().find("exit status 3"), std::string::npos) << failed.status().message();
    auto wordy = metricCommand("echo mAP is high {outputs}");
    auto word = (*wordy)(outputs(), {0, 1});
    ASSERT_FALSE(word.isOk());
    EXPECT_NE(word.status().message().find("no number"), std::string::npos);
}

}  // namespace
}  // namespace ql
