#include "core/exec/kernels/scan.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/control_flow_test_util.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// The running sum of rows: state s [2], scan input row [2]; s_out = s + row * w (w from the enclosing graph),
// scan output y = s_out.
onnx::GraphProto runningSum(int64_t opset) {
    return subgraph(
        "body",
        [](ModelBuilder& g) {
            g.input("s", DataType::Float, {2});
            g.input("row", DataType::Float, {2});
            g.node("Mul", {"row", "w"}, {"scaled"});
            g.node("Add", {"s", "scaled"}, {"s_out"});
            g.node("Identity", {"s_out"}, {"y"});
            g.output("s_out", DataType::Float, {2}, true);
            g.output("y", DataType::Float, {2}, true);
        },
        opset);
}

// Scan-9+ over x [rows, 2] (or [2, rows] with axis 1).
ModelBuilder scanModel(int64_t opset, const std::vector<int64_t>& xShape,
                       const std::function<void(NodeBuilder&)>& attrs) {
    ModelBuilder b(opset);
    b.input("s0", DataType::Float, {2});
    b.input("x", DataType::Float, xShape);
    b.initializer("w", {1}, {1.0f});
    NodeBuilder node = b.node("Scan", {"s0", "x"}, {"s", "ys"}, "scan");
    node.graph("body", runningSum(opset)).i("num_scan_inputs", 1);
    attrs(node);
    b.output("s");
    b.output("ys");
    return b;
}

const Tensor kRows = floats({3, 2}, {1, 2, 3, 4, 5, 6});

}  // namespace

TEST(ScanTest, CarriesStateAndStacksOutputsForward) {
    for (int64_t opset : {9, 11, 16, 21}) {
        auto out = runModel(scanModel(opset, {3, 2}, [](NodeBuilder&) {}), {{"s0", floats({2}, {0, 0})}, {"x", kRows}});
        ASSERT_TRUE(out) << "opset " << opset << ": " << out.status().message();
        expectNear((*out)[0], {9, 12});
        EXPECT_EQ((*out)[1].shape(), (Shape{3, 2}));
        expectNear((*out)[1], {1, 2, 4, 6, 9, 12});
    }
}

TEST(ScanTest, ReverseDirectionsAndOtherAxes) {
    // x given as [2, 3]: scanned along axis 1 from the end; outputs stacked along axis 1, reversed.
    const Tensor columns = floats({2, 3}, {1, 3, 5, 2, 4, 6});
    auto out = runModel(scanModel(11, {2, 3},
                                  [](NodeBuilder& n) {
                                      n.ints("scan_input_axes", {-1})
                                          .ints("scan_input_directions", {1})
                                          .ints("scan_output_axes", {-1})
                                          .ints("scan_output_directions", {1});
                                  }),
                        {{"s0", floats({2}, {0, 0})}, {"x", columns}});
    ASSERT_TRUE(out) << out.status().message();
    expectNear((*out)[0], {9, 12});
    // Steps see rows 5,6 then 3,4 then 1,2: sums (5,6) (8,10) (9,12); reversed output puts step 0 last.
    EXPECT_EQ((*out)[1].shape(), (Shape{2, 3}));
    expectNear((*out)[1], {9, 8, 5, 12, 10, 6});
}

TEST(ScanTest, Opset8HasABatchAxisAndSequenceLengths) {
    ModelBuilder b(8);
    b.input("lens", DataType::Int64, {2});
    b.input("s0", DataType::Float, {2, 2});
    b.input("x", DataType::Float, {2, 3, 2});
    b.initializer("w", {1}, {1.0f});
    b.node("Scan", {"lens", "s0", "x"}, {"s", "ys"}, "scan8").graph("body", runningSum(8)).i("num_scan_inputs", 1);
    b.output("s");
    b.output("ys");
    const Tensor x = floats({2, 3, 2}, {1, 2, 3, 4, 5, 6, 1, 1, 1, 1, 1, 1});
    auto out = runModel(b, {{"lens", int64s({2}, {3, 2})}, {"s0", floats({2, 2}, {0, 0, 10, 10})}, {"x", x}});
    ASSERT_TRUE(out) << out.status().message();
    expectNear((*out)[0], {9, 12, 12, 12});
    EXPECT_EQ((*out)[1].shape(), (Shape{2, 3, 2}));
    expectNear((*out)[1], {1, 2, 4, 6, 9, 12, 11, 11, 12, 12, 0, 0});  // batch 1 stops after 2 steps
}

TEST(ScanTest, ScanInputsOfDifferentLengthsAreAnErrorNamingTheNode) {
    ModelBuilder b(11);
    b.input("a", DataType::Float, {3});
    b.input("c", DataType::Float, {4});
    const auto body = subgraph("body", [](ModelBuilder& g) {
        g.input("ai", DataType::Float, {});
        g.input("ci", DataType::Float, {});
        g.node("Add", {"ai", "ci"}, {"y"});
        g.output("y", DataType::Float, {}, true);
    });
    b.node("Scan", {"a", "c"}, {"ys"}, "uneven").graph("body", body).i("num_scan_inputs", 2);
    b.output("ys");
    auto out = runModel(b, {{"a", floats({3}, {1, 2, 3})}, {"c", floats({4}, {1, 2, 3, 4})}});
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("Node (uneven) Op (Scan): scan inputs have different lengths"),
              std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
