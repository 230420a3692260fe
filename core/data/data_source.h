#pragma once
// Calibration and evaluation data: for every model input, a list of samples read in batches.
//
//   DataSource           what calibration and analysis consume: batches as NamedTensors, by input name
//   InputData            the samples of one input (an array, a folder of .npy files, a folder of images)
//   InputSpec            what the model expects for one input; every sample is checked against it
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/common/status.h"
#include "core/exec/executor.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"

namespace ql {

// One model input: dtype and dims, dims[batchAxis] being the batch axis; -1 marks an unknown or symbolic dim.
struct InputSpec {
    std::string name;
    DataType dtype = DataType::Float;
    bool hasShape = false;  // false: the rank is unknown and any sample shape is accepted
    std::vector<int64_t> dims;
    // The axis a batch stacks its samples on: 0, except for an input whose first axis is fixed above 1 and whose one
    // other open axis is then the batch, as in an RNN state [layers, batch, hidden] (Silero VAD's state [2, ?, 128],
    // PyTorch's LSTM h and c). A file still lists its samples on its first axis.
    size_t batchAxis = 0;
    // dims without the batch axis: what one sample is.
    std::vector<int64_t> sampleDims() const;
};

// The graph inputs (initializers excluded) with their declared types.
std::vector<InputSpec> inputSpecs(const Graph& graph);

// How calibration, analysis and tuning cut samples into batches: a fixed batch axis of any input decides the
// batch size (a partial last batch is left out); otherwise `batchSize`.
struct Batching {
    int64_t size = 1;
    bool fixed = false;
    // The samples of `total` that are run: whole batches only when the batch is fixed.
    int64_t usable(int64_t total) const { return fixed ? total - total % size : total; }
};
Batching batchingFor(const Graph& graph, int64_t batchSize);

// `count` samples, contiguous in `stacked` ([count, sample...]), as the batch of an input whose batch axis is `axis`:
// the samples' axis moved to `axis` (`stacked` itself for axis 0).
Tensor stackOnAxis(Tensor stacked, size_t axis);

// numpy's name for a dtype ("float32"), for messages that tell the user how to convert an array.
std::string numpyDtypeName(DataType dtype);

// Checks one sample (no batch axis) against `spec`; `label` names the file in the message. A batch axis of 1 is
// accepted when the sample has the model's full rank, and removed. Returns the sample shape.
Result<Shape> checkSample(const Shape& shape, DataType dtype, const InputSpec& spec, const std::string& label);

// The samples of one model input.
class InputData {
public:
    virtual ~InputData() = default;
    virtual int64_t sampleCount() const = 0;
    // Samples [first, first + count) stacked on the input's batch axis (InputSpec::batchAxis).
    virtual Result<Tensor> read(int64_t first, int64_t count) = 0;
};

// Batches of samples for all inputs of a model.
class DataSource {
public:
    virtual ~DataSource() = default;
    virtual int64_t sampleCount() const = 0;
    // Samples [first, first + count) for every input, keyed by input name; count > 0, first + count <= sampleCount().
    virtual Result<NamedTensors> read(int64_t first, int64_t count) = 0;
};

// A DataSource over one InputData per model input; all inputs must have the same number of samples.
class MultiInputSource final : public DataSource {
public:
    using Inputs = std::vector<std::pair<std::string, std::unique_ptr<InputData>>>;
    static Result<std::unique_ptr<MultiInputSource>> create(Inputs inputs);

    int64_t sampleCount() const override { return mCount; }
    Result<NamedTensors> read(int64_t first, int64_t count) override;

private:
    MultiInputSource(Inputs inputs, int64_t count) : mInputs(std::move(inputs)), mCount(count) {}
    Inputs mInputs;
    int64_t mCount = 0;
};

}  // namespace ql
