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
    auto value = (*metric)(outputs());
    ASSERT_TRUE(value.isOk()) << value.status().message();
    EXPECT_EQ(*value, static_cast<double>(encodeNpy(outputs()[0].second)->size()));
}

TEST(MetricCommand, ACommandWithoutThePlaceholderIsRefused) {
    auto metric = metricCommand("python3 score.py");
    ASSERT_FALSE(metric.isOk());
    EXPECT_NE(metric.status().message().find("{outputs}"), std::string::npos);
}

TEST(MetricCommand, AFailingCommandOrOneWithoutANumberIsAnErrorQuotingIt) {
    auto failing = metricCommand("exit 3; {outputs}");
    ASSERT_TRUE(failing.isOk());
    auto failed = (*failing)(outputs());
    ASSERT_FALSE(failed.isOk());
    EXPECT_NE(failed.status().message().find("exit status 3"), std::string::npos) << failed.status().message();
    auto wordy = metricCommand("echo mAP is high {outputs}");
    auto word = (*wordy)(outputs());
    ASSERT_FALSE(word.isOk());
    EXPECT_NE(word.status().message().find("no number"), std::string::npos);
}

}  // namespace
}  // namespace ql
