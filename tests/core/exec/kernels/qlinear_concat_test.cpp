#include "core/exec/kernels/qlinear_concat.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/qlinear_contrib_test_util.h"

namespace ql::test {

TEST(QLinearConcatTest, EachInputIsRequantizedToTheOutputsScale) {
    // First input already at Y's scale; the second at twice it (values double), zero 5.
    const NamedTensors in{{"sy", floats({}, {0.5f})}, {"zy", uint8s({}, {0})}, {"a", uint8s({1, 2}, {1, 2})},
                          {"sa", floats({}, {0.5f})}, {"za", uint8s({}, {0})}, {"b", uint8s({1, 1}, {8})},
                          {"sb", floats({}, {1.0f})}, {"zb", uint8s({}, {5})}};
    auto y = runContrib("QLinearConcat", in, DataType::UInt8, [](NodeBuilder& n) { n.i("axis", 1); });
    ASSERT_TRUE(y) << y.status().message();
    EXPECT_EQ(y->shape(), (Shape{1, 3}));
    EXPECT_EQ(valuesOf<uint8_t>(*y), (std::vector<uint8_t>{1, 2, 6}));
}

}  // namespace ql::test
