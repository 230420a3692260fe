#pragma once
// Helpers the executor's tests share: one run of a graph on its input "x", and a tolerant float comparison.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/exec/executor.h"

namespace ql::test {

// Output 0 of one run on input "x" as floats; empty (after a failed expectation) when the run fails.
inline std::vector<float> runOnX(const Graph& graph, const Tensor& x, bool fuse, const RunOptions& options = {}) {
    auto exec = Executor::create(graph, {1, fuse});
    EXPECT_TRUE(exec) << exec.status().message();
    if (!exec) return {};
    auto out = (*exec)->run({{"x", x}}, options);
    EXPECT_TRUE(out) << out.status().message();
    return out ? (*out)[0].second.toFloats() : std::vector<float>{};
}

// Every element within 1e-4 of the expected one's magnitude (plus 1e-4 absolute): fused and unfused runs round
// differently.
inline void expectNearFloats(const std::vector<float>& actual, const std::vector<float>& expected) {
    ASSERT_EQ(actual.size(), expected.size());
    ASSERT_FALSE(actual.empty());
    for (size_t i = 0; i < actual.size(); ++i)
        ASSERT_NEAR(actual[i], expected[i], 1e-4f * (1.0f + std::abs(expected[i]))) << "element " << i;
}

}  // namespace ql::test
