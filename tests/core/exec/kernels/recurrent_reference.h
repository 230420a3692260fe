#pragma once
// Naive RNN / GRU / LSTM for the kernel tests: the ONNX equations element by element in double, one batch entry
// and one time step at a time, reading and writing the node's layout directly. Default activations (Sigmoid, Tanh).
#include <cmath>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

enum class Cell { Rnn, Gru, Lstm };

struct RecurrentCase {
    Cell cell = Cell::Lstm;
    int64_t seq = 3, batch = 2, input = 5, hidden = 4;
    std::string direction = "forward";
    int64_t layout = 0;
    bool withBias = true, withLengths = false, withInitial = false, withPeepholes = false;
    bool linearBeforeReset = false, inputForget = false;
    float clip = 0.0f;
    int64_t opset = 14;

    int64_t gates() const { return cell == Cell::Lstm ? 4 : cell == Cell::Gru ? 3 : 1; }
    int64_t dirs() const { return direction == "bidirectional" ? 2 : 1; }
    std::string op() const { return cell == Cell::Lstm ? "LSTM" : cell == Cell::Gru ? "GRU" : "RNN"; }
};

// The inputs of a case, random (fixed seeds), in the node's layout; names as the node takes them.
inline NamedTensors recurrentInputs(const RecurrentCase& c) {
    const int64_t g = c.gates(), d = c.dirs(), h = c.hidden;
    auto random = [](Shape shape, uint32_t seed) {
        return floats(shape, seededFloats(static_cast<size_t>(shapeElementCount(shape)), seed, -1.0f, 1.0f));
    };
    NamedTensors in;
    in.emplace_back("X", random(c.layout ? Shape{c.batch, c.seq, c.input} : Shape{c.seq, c.batch, c.input}, 1));
    in.emplace_back("W", random({d, g * h, c.input}, 2));
    in.emplace_back("R", random({d, g * h, h}, 3));
    in.emplace_back(c.withBias ? "B" : "", c.withBias ? random({d, 2 * g * h}, 4) : Tensor());
    std::vector<int32_t> lengths;
    for (int64_t b = 0; b < c.batch; ++b) lengths.push_back(static_cast<int32_t>(c.seq - b % c.seq));
    in.emplace_back(c.withLengths ? "sequence_lens" : "",
                    c.withLengths ? Tensor::fromVector(DataType::Int32, {c.batch}, lengths) : Tensor());
    const Shape state = c.layout ? Shape{c.batch, d, h} : Shape{d, c.batch, h};
    in.emplace_back(c.withInitial ? "initial_h" : "", c.withInitial ? random(state, 5) : Tensor());
    if (c.cell == Cell::Lstm) {
        in.emplace_back(c.withInitial ? "initial_c" : "", c.withInitial ? random(state, 6) : Tensor());
        in.emplace_back(c.withPeepholes ? "P" : "", c.withPeepholes ? random({d, 3 * h}, 7) : Tensor());
    }
    while (!in.empty() && in.back().first.empty()) in.pop_back();
    return in;
}

struct RecurrentResult {
    std::vector<float> y, yh, yc;
};

inline RecurrentResult referenceRecurrent(const RecurrentCase& c, const NamedTensors& inputs) {
    auto find = [&](const std::string& name) -> std::vector<float> {
        for (const auto& [n, t] : inputs)
            if (n == name) return t.toFloats();
        return {};
    };
    const std::vector<float> x = find("X"), w = find("W"), r = find("R"), bias = find("B"), h0 = find("initial_h"),
                             c0 = find("initial_c"), p = find("P"), lens = find("sequence_lens");
    const int64_t S = c.seq, B = c.batch, I = c.input, H = c.hidden, G = c.gates(), D = c.dirs();
    auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
    auto clip = [&](double v) { return c.clip > 0 ? std::max<double>(-c.clip, std::min<double>(c.clip, v)) : v; };
    auto xAt = [&](int64_t t, int64_t b, int64_t i) {
        return x[static_cast<size_t>(c.layout ? (b * S + t) * I + i : (t * B + b) * I + i)];
    };
    auto stateIndex = [&](int64_t d, int64_t b, int64_t j) {
        return static_cast<size_t>(c.layout ? (b * D + d) * H + j : (d * B + b) * H + j);
    };
    auto yIndex = [&](int64_t t, int64_t d, int64_t b, int64_t j) {
        return static_cast<size_t>(c.layout ? ((b * S + t) * D + d) * H + j : ((t * D + d) * B + b) * H + j);
    };
    RecurrentResult out{std::vector<float>(static_cast<size_t>(S * D * B * H), 0.0f),
                        std::vector<float>(static_cast<size_t>(D * B * H)),
                        std::vector<float>(static_cast<size_t>(D * B * H))};
    for (int64_t d = 0; d < D; ++d)
        for (int64_t b = 0; b < B; ++b) {
            std::vector<double> hs(static_cast<size_t>(H), 0.0), cs(static_cast<size_t>(H), 0.0);
            for (int64_t j = 0; j < H; ++j) {
                if (!h0.empty()) hs[static_cast<size_t>(j)] = h0[stateIndex(d, b, j)];
                if (!c0.empty()) cs[static_cast<size_t>(j)] = c0[stateIndex(d, b, j)];
            }
            const int64_t length = lens.empty() ? S : static_cast<int64_t>(lens[static_cast<size_t>(b)]);
            const bool reverse = c.direction == "reverse" || d == 1;
            for (int64_t step = 0; step < length; ++step) {
                const int64_t t = reverse ? length - 1 - step : step;
                // pre[k][j]: gate k's x·W + Wb, and h·R (+ Rb) kept apart for GRU's h gate.
                std::vector<double> xw(static_cast<size_t>(G * H)), hr(static_cast<size_t>(G * H));
                for (int64_t row = 0; row < G * H; ++row) {
                    double a = bias.empty() ? 0.0 : bias[static_cast<size_t>(d * 2 * G * H + row)];
                    double e = bias.empty() ? 0.0 : bias[static_cast<size_t>(d * 2 * G * H + G * H + row)];
                    for (int64_t i = 0; i < I; ++i)
                        a += w[static_cast<size_t>((d * G * H + row) * I + i)] * xAt(t, b, i);
                    for (int64_t m = 0; m < H; ++m)
                        e += r[static_cast<size_t>((d * G * H + row) * H + m)] * hs[static_cast<size_t>(m)];
                    xw[static_cast<size_t>(row)] = a, hr[static_cast<size_t>(row)] = e;
                }
                std::vector<double> next(static_cast<size_t>(H));
                for (int64_t j = 0; j < H; ++j) {
                    const auto at = [&](int64_t k) { return static_cast<size_t>(k * H + j); };
                    const auto jj = static_cast<size_t>(j);
                    if (c.cell == Cell::Rnn) {
                        next[jj] = std::tanh(clip(xw[at(0)] + hr[at(0)]));
                    } else if (c.cell == Cell::Gru) {
                        auto reset = [&](int64_t m) {
                            return sig(clip(xw[static_cast<size_t>(H + m)] + hr[static_cast<size_t>(H + m)]));
                        };
                        const double z = sig(clip(xw[at(0)] + hr[at(0)]));
                        double hpre;
                        if (c.linearBeforeReset) {
                            hpre = xw[at(2)] + reset(j) * hr[at(2)];
                        } else {  // (r ⊙ h)·Rh + Rbh
                            double e =
                                bias.empty() ? 0.0 : bias[static_cast<size_t>(d * 2 * G * H + G * H + 2 * H + j)];
                            for (int64_t m = 0; m < H; ++m)
                                e += r[static_cast<size_t>((d * G * H + 2 * H + j) * H + m)] * reset(m) *
                                     hs[static_cast<size_t>(m)];
                            hpre = xw[at(2)] + e;
                        }
                        next[jj] = (1 - z) * std::tanh(clip(hpre)) + z * hs[jj];
                    } else {
                        const double pi = p.empty() ? 0 : p[static_cast<size_t>(d * 3 * H + j)];
                        const double po = p.empty() ? 0 : p[static_cast<size_t>(d * 3 * H + H + j)];
                        const double pf = p.empty() ? 0 : p[static_cast<size_t>(d * 3 * H + 2 * H + j)];
                        const double in = sig(clip(xw[at(0)] + hr[at(0)] + pi * cs[jj]));
                        const double f = c.inputForget ? 1 - in : sig(clip(xw[at(2)] + hr[at(2)] + pf * cs[jj]));
                        const double cell = std::tanh(clip(xw[at(3)] + hr[at(3)]));
                        cs[jj] = f * cs[jj] + in * cell;
                        const double o = sig(clip(xw[at(1)] + hr[at(1)] + po * cs[jj]));
                        next[jj] = o * std::tanh(cs[jj]);
                    }
                }
                for (int64_t j = 0; j < H; ++j) {
                    hs[static_cast<size_t>(j)] = next[static_cast<size_t>(j)];
                    out.y[yIndex(t, d, b, j)] = static_cast<float>(next[static_cast<size_t>(j)]);
                }
            }
            for (int64_t j = 0; j < H; ++j) {
                out.yh[stateIndex(d, b, j)] = static_cast<float>(hs[static_cast<size_t>(j)]);
                out.yc[stateIndex(d, b, j)] = static_cast<float>(cs[static_cast<size_t>(j)]);
            }
        }
    return out;
}

// Runs the case's node (outputs Y, Y_h and, for LSTM, Y_c).
inline Result<std::vector<Tensor>> runRecurrent(const RecurrentCase& c, const NamedTensors& inputs) {
    std::vector<DataType> outputs(c.cell == Cell::Lstm ? 3 : 2, DataType::Float);
    return runNode(NodeSpec(c.op(), inputs, outputs, c.opset, [&](NodeBuilder& n) {
        n.i("hidden_size", c.hidden).s("direction", c.direction);
        if (c.opset >= 14) n.i("layout", c.layout);
        if (c.clip > 0) n.f("clip", c.clip);
        if (c.linearBeforeReset) n.i("linear_before_reset", 1);
        if (c.inputForget) n.i("input_forget", 1);
    }));
}

}  // namespace ql::test
