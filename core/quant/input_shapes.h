#pragma once
// The shapes the model's inputs had while it was calibrated, so a TensorRT build of a model with dynamic inputs
// (a symbolic batch, a dynamic H/W) gets an optimization profile (--minShapes/--optShapes/--maxShapes) that covers
// the data it was calibrated on instead of trtexec's silent default of 1 for every open dimension.
//
// In CALIB.json (optional; files written before it load without it):
//   "input_shapes": { "<graph input>": { "min": [4, 3, 640, 640], "opt": [8, 3, 640, 640], "max": [8, 3, 640, 640] } }
// min and max are per dimension over every batch run, opt the shape run most often (the batch size, where the last
// batch was partial).
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/exec/executor.h"
#include "core/model/graph.h"

namespace ql {

struct InputShapeRange {
    std::string input;
    Shape min, opt, max;  // the same rank; min <= opt <= max per dimension
};

// Collects the shapes of the batches a calibration runs.
class InputShapeRecorder {
public:
    void add(const NamedTensors& inputs);
    // In the order the inputs were first seen.
    std::vector<InputShapeRange> ranges() const;

private:
    struct Seen {
        std::string input;
        std::map<Shape, int64_t> counts;
    };
    std::vector<Seen> mSeen;
};

nlohmann::json inputShapesToJson(const std::vector<InputShapeRange>& shapes);
// The "input_shapes" member of `file` (absent: none); an error naming the input and `label` when an entry is not a
// graph input of `graph` or its shapes are not three lists of the same rank with min <= opt <= max.
Result<std::vector<InputShapeRange>> inputShapesFromJson(const Graph& graph, const nlohmann::json& file,
                                                         const std::string& label);

// "1x3x640x640", as trtexec writes a shape.
std::string dimsText(const Shape& dims);
// Where a range is not ordered (min <= opt <= max per dimension, all of one rank), a sentence saying so; else "".
std::string rangeProblem(const InputShapeRange& range);

}  // namespace ql
