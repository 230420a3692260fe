#pragma once
// What RNN, GRU and LSTM share: their common attributes (hidden_size, direction, layout, clip, activations with
// their alpha/beta), their common inputs (X, W, R, B, sequence_lens, initial states) read as float and brought to
// layout 0, the input projection X·Wᵀ + biases computed for every time step at once, and the outputs written back
// in the node's layout. The kernels add only their cell's arithmetic, one time step at a time.
#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/tensor.h"

namespace ql {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// One of the activation functions the recurrent ops take by name (ONNX's list, Relu to Softplus).
struct RecurrentActivation {
    enum class Kind {
        Relu,
        Tanh,
        Sigmoid,
        Affine,
        LeakyRelu,
        ThresholdedRelu,
        ScaledTanh,
        HardSigmoid,
        Elu,
        Softsign,
        Softplus
    };
    Kind kind = Kind::Sigmoid;
    float alpha = 0.0f, beta = 0.0f;
    // x[i] = f(x[i]) for n contiguous values.
    void apply(float* x, int64_t n) const;
};

struct RecurrentAttributes {
    enum class Direction { Forward, Reverse, Bidirectional };
    int64_t hiddenSize = 0;
    Direction direction = Direction::Forward;
    int64_t layout = 0;  // 0: [seq, batch, ...]; 1 (opset 14+): [batch, seq, ...]
    float clip = 0.0f;   // 0: none; else gate inputs are clipped to [-clip, clip]
    size_t perDirection = 0;
    std::vector<RecurrentActivation> activations;  // direction d's j-th at [d * perDirection + j]

    int64_t directions() const { return direction == Direction::Bidirectional ? 2 : 1; }
    bool reversed(int64_t d) const { return direction == Direction::Reverse || d == 1; }
    const RecurrentActivation& activation(int64_t d, size_t j) const {
        return activations[static_cast<size_t>(d) * perDirection + j];
    }
};

// Reads the common attributes; `defaults` are the op's activations for one direction (LSTM: Sigmoid, Tanh, Tanh).
Result<RecurrentAttributes> readRecurrentAttributes(const KernelInit& info, std::span<const char* const> defaults);

// X, W, R, B, sequence_lens and initial_h (inputs 0-5), as float, in layout 0.
struct RecurrentInputs {
    int64_t seq = 0, batch = 0, inputSize = 0, hidden = 0, directions = 0, gates = 0;
    Tensor x;                      // [seq, batch, input]
    Tensor w, r;                   // [dirs, gates*H, input], [dirs, gates*H, H]
    Tensor bias;                   // [dirs, 2*gates*H] (Wb then Rb), zeros when absent
    std::vector<int64_t> lengths;  // per batch entry; seq when sequence_lens is absent
    const float* weights(int64_t d) const { return w.data<float>() + d * gates * hidden * inputSize; }
    const float* recurrence(int64_t d) const { return r.data<float>() + d * gates * hidden * hidden; }
    const float* inputBias(int64_t d) const { return bias.data<float>() + d * 2 * gates * hidden; }
    const float* recurrentBias(int64_t d) const { return inputBias(d) + gates * hidden; }
};
Result<RecurrentInputs> readRecurrentInputs(const KernelContext& ctx, const RecurrentAttributes& attrs, int64_t gates);

// An initial state input (initial_h, initial_c) as [dirs, batch, H] float, zeros when absent.
Result<Tensor> readRecurrentState(const KernelContext& ctx, const RecurrentAttributes& attrs, const RecurrentInputs& in,
                                  size_t input, const std::string& name);

// X·Wᵀ + Wb for direction d and every (t, b) as rows t*batch + b, plus Rb for the first `recurrentBiasGates` gates
// (GRU with linear_before_reset adds its last gate's Rb inside the cell).
RowMatrix inputProjection(const RecurrentInputs& in, int64_t d, int64_t recurrentBiasGates);

// Clips x to [-clip, clip] when clip > 0 (ONNX's cell clip, on an activation's input), then applies f.
void activateClipped(const RecurrentActivation& f, float* x, int64_t n, float clip);

// Y ([seq, dirs, batch, H], zeros where a batch entry's sequence has ended) and the final states.
struct RecurrentOutputs {
    Tensor y;
    std::vector<Tensor> states;  // Y_h (and Y_c), [dirs, batch, H]
    RecurrentOutputs(const RecurrentInputs& in, std::vector<Tensor> initialStates);
    float* yAt(int64_t t, int64_t d, int64_t b, const RecurrentInputs& in) {
        return y.data<float>() + ((t * in.directions + d) * in.batch + b) * in.hidden;
    }
    // The rows of state s for direction d, as a [batch, H] matrix.
    Eigen::Map<RowMatrix> state(size_t s, int64_t d, const RecurrentInputs& in) {
        return {states[s].data<float>() + d * in.batch * in.hidden, in.batch, in.hidden};
    }
};

// After step t of direction d computed `next` states (one [batch, H] matrix per state, the hidden state first):
// batch entries whose sequence covers t take them and write Y; the others keep their state.
void commitStep(RecurrentOutputs& out, const RecurrentInputs& in, int64_t t, int64_t d,
                std::span<const RowMatrix* const> next);

// Sets the node's outputs (Y, Y_h, Y_c...) in its layout and input dtype.
void writeRecurrentOutputs(KernelContext& ctx, const RecurrentAttributes& attrs, RecurrentOutputs out);

}  // namespace ql
