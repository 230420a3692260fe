#pragma once
// Small models with the structures that decide where Q/DQ goes and what fuses (residuals in both input orders,
// depthwise inverted residuals, dense Concat/BatchNormalization blocks, attention, a detector head, SiLU, dynamic
// batch, upsampling with skip Concats, constant subgraphs, pooling heads), plus the trained models under tests/data
// and the bundled sample: the corpus of the round-trip property tests and of bench/round_trip_sweep.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/model/model.h"

namespace ql::test {

struct ZooModel {
    std::string name;
    std::function<std::unique_ptr<Model>()> load;
};

// Every model of the corpus; `withFiles`: also the committed models (tests/data, resources/samples).
std::vector<ZooModel> modelZoo(bool withFiles = true);

}  // namespace ql::test
