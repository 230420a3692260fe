#include "core/exec/kernels/attention.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

struct Case {
    int64_t batch = 2, qHeads = 4, kvHeads = 2, qSeq = 3, kvSeq = 4, past = 0, d = 5, dv = 3;
    bool causal = false, mask = false;
    float softcap = 0.0f;
    int64_t total() const { return past + kvSeq; }
};

// Softmax(q·k * scale + bias) · v element by element, in double, 4-D layouts; also the qk of mode 0.
std::pair<std::vector<float>, std::vector<float>> reference(const Case& c, const std::vector<float>& q,
                                                            const std::vector<float>& k, const std::vector<float>& v,
                                                            const std::vector<float>& maskValues) {
    const double scale = 1.0 / std::sqrt(static_cast<double>(c.d));
    const int64_t t = c.total();
    std::vector<float> y, qk;
    for (int64_t b = 0; b < c.batch; ++b)
        for (int64_t h = 0; h < c.qHeads; ++h) {
            const int64_t kvh = h / (c.qHeads / c.kvHeads);
            for (int64_t i = 0; i < c.qSeq; ++i) {
                std::vector<double> s(static_cast<size_t>(t));
                for (int64_t j = 0; j < t; ++j) {
                    double dot = 0;
                    for (int64_t e = 0; e < c.d; ++e)
                        dot += q[static_cast<size_t>(((b * c.qHeads + h) * c.qSeq + i) * c.d + e)] *
                               k[static_cast<size_t>(((b * c.kvHeads + kvh) * t + j) * c.d + e)];
                    qk.push_back(static_cast<float>(dot * scale));
                    double bias = 0;
                    if (c.mask && maskValues[static_cast<size_t>(i * t + j)] == 0) bias = -INFINITY;
                    if (c.causal && j > i) bias = -INFINITY;
                    double x = dot * scale + bias;
                    if (c.softcap > 0) x = c.softcap * std::tanh(x / c.softcap);
                    s[static_cast<size_t>(j)] = x;
                }
                double top = -INFINITY, sum = 0;
                for (double x : s) top = std::max(top, x);
                for (double& x : s) sum += (x = std::exp(x - top));
                for (int64_t e = 0; e < c.dv; ++e) {
                    double acc = 0;
                    for (int64_t j = 0; j < t; ++j)
                        acc += s[static_cast<size_t>(j)] / sum *
                               v[static_cast<size_t>(((b * c.kvHeads + kvh) * t + j) * c.dv + e)];
                    y.push_back(static_cast<float>(acc));
                }
            }
        }
    return {y, qk};
}

std::vector<float> concatPast(const Case& c, const std::vector<float>& past, const std::vector<float>& now,
                              int64_t width) {
    std::vector<float> out;
    for (int64_t r = 0; r < c.batch * c.kvHeads; ++r) {
        out.insert(out.end(), past.begin() + r * c.past * width, past.begin() + (r + 1) * c.past * width);
        out.insert(out.end(), now.begin() + r * c.kvSeq * width, now.begin() + (r + 1) * c.kvSeq * width);
    }
    return out;
}

void expectMatches(const Case& c) {
    const auto q = seededFloats(static_cast<size_t>(c.batch * c.qHeads * c.qSeq * c.d), 1);
    const auto k = seededFloats(static_cast<size_t>(c.batch * c.kvHeads * c.kvSeq * c.d), 2);
    const auto v = seededFloats(static_cast<size_t>(c.batch * c.kvHeads * c.kvSeq * c.dv), 3);
    const auto pk = seededFloats(static_cast<size_t>(c.batch * c.kvHeads * c.past * c.d), 4);
    const auto pv = seededFloats(static_cast<size_t>(c.batch * c.kvHeads * c.past * c.dv), 5);
    std::vector<uint8_t> mask;
    for (int64_t i = 0; i < c.qSeq * c.total(); ++i) mask.push_back(i % 3 != 1);
    NamedTensors in{{"q", floats({c.batch, c.qHeads, c.qSeq, c.d}, q)},
                    {"k", floats({c.batch, c.kvHeads, c.kvSeq, c.d}, k)},
                    {"v", floats({c.batch, c.kvHeads, c.kvSeq, c.dv}, v)},
                    {c.mask ? "mask" : "", c.mask ? bools({c.qSeq, c.total()}, mask) : Tensor()}};
    if (c.past > 0) {
        in.emplace_back("past_k", floats({c.batch, c.kvHeads, c.past, c.d}, pk));
        in.emplace_back("past_v", floats({c.batch, c.kvHeads, c.past, c.dv}, pv));
    }
    auto out = runNode(NodeSpec("Attention", in, {DataType::Float, DataType::Float, DataType::Float, DataType::Float},
                                23, [&](NodeBuilder& n) {
                                    n.i("is_causal", c.causal);
                                    if (c.softcap > 0) n.f("softcap", c.softcap);
                                }));
    ASSERT_TRUE(out) << out.status().message();
    const auto [y, qk] =
        reference(c, q, c.past ? concatPast(c, pk, k, c.d) : k, c.past ? concatPast(c, pv, v, c.dv) : v,
                  std::vector<float>(mask.begin(), mask.end()));
    EXPECT_EQ((*out)[0].shape(), (Shape{c.batch, c.qHeads, c.qSeq, c.dv}));
    expectNear((*out)[0], y);
    EXPECT_EQ((*out)[1].shape(), (Shape{c.batch, c.kvHeads, c.total(), c.d}));
    expectNear((*out)[3], qk);
}

}  // namespace

TEST(AttentionTest, GroupedQueryAttentionMatchesTheReference) {
    expectMatches(Case{});
}

TEST(AttentionTest, BooleanMaskPastKeysCausalAndSoftcap) {
    Case masked;
    masked.mask = true, masked.past = 2;
    expectMatches(masked);
    Case causal;
    causal.causal = true, causal.softcap = 0.5f, causal.qHeads = 2;
    expectMatches(causal);
}

TEST(AttentionTest, ThreeDInputsSplitTheirHeads) {
    // One head of size 2 over two positions; identical keys: the output is the mean of the values.
    auto out = runOne(NodeSpec("Attention",
                               {{"q", floats({1, 2, 2}, {1, 0, 0, 1})},
                                {"k", floats({1, 2, 2}, {1, 1, 1, 1})},
                                {"v", floats({1, 2, 2}, {2, 4, 6, 8})}},
                               {}, 23, [](NodeBuilder& n) { n.i("q_num_heads", 1).i("kv_num_heads", 1); }));
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(out->shape(), (Shape{1, 2, 2}));
    expectNear(*out, {4, 6, 4, 6});
}

TEST(AttentionTest, Opset24NonPadLengthsMaskTrailingKeys) {
    // Batch entry 0 sees only its first key (value 2), entry 1 both (mean 4).
    const Tensor q = floats({2, 1, 1, 1}, {1, 1}), k = floats({2, 1, 2, 1}, {1, 1, 1, 1}),
                 v = floats({2, 1, 2, 1}, {2, 6, 2, 6});
    auto out = runOne(NodeSpec("Attention",
                               {{"q", q},
                                {"k", k},
                                {"v", v},
                                {"", Tensor()},
                                {"", Tensor()},
                                {"", Tensor()},
                                {"lengths", int64s({2}, {1, 2})}},
                               {}, 24));
    ASSERT_TRUE(out) << out.status().message();
    expectNear(*out, {2, 4});
}

TEST(AttentionTest, MismatchedHeadSizesAreAnErrorNamingTheNode) {
    auto out = runOne(NodeSpec("Attention",
                               {{"q", floats({1, 1, 1, 2}, {1, 2})},
                                {"k", floats({1, 1, 1, 3}, {1, 2, 3})},
                                {"v", floats({1, 1, 1, 3}, {1, 2, 3})}},
                               {}, 23));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("Op (Attention): Q [1,1,1,2], K [1,1,1,3] and V [1,1,1,3] do not fit"),
              std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
