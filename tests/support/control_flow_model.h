#pragma once
// A model with nested control flow, for the tests of subgraph bodies (core and the graph view):
//
//   x [1,4] -> Relu "pre" -> r -> If "branch" (cond) -> y
//     then_branch: Mul "double" (r * two) -> t -> Loop "repeat" (3 times, state t) -> looped
//       body: Identity "keep_going" (cond_in), Add "accumulate" (state + r, r read two levels out), Relu "clamp"
//     else_branch: Neg "negate" (r) -> e
//
// rateSwitchModel(): Silero VAD's form, small: y = If(sr == 16000) then x + tw else -x, x [6], sr an int64 scalar.
#include <memory>
#include <string>

#include "core/model/model.h"

namespace ql::test {

std::unique_ptr<Model> nestedControlFlowModel();
void saveRateSwitchModel(const std::string& path);

}  // namespace ql::test
