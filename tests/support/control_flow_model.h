#pragma once
// A model with nested control flow, for the tests of subgraph bodies (core and the graph view):
//
//   x [1,4] -> Relu "pre" -> r -> If "branch" (cond) -> y
//     then_branch: Mul "double" (r * two) -> t -> Loop "repeat" (3 times, state t) -> looped
//       body: Identity "keep_going" (cond_in), Add "accumulate" (state + r, r read two levels out), Relu "clamp"
//     else_branch: Neg "negate" (r) -> e
//
// rateSwitchModel(): Silero VAD's form, small: y = If(sr == 16000) then x + tw else -x, x [6], sr an int64 scalar.
//
// convBranchesModel(): layers worth quantizing inside bodies, for body plans (PrecisionPlan::bodies):
//   x [1,4,8,8] -> Conv "stem" -> Relu "stem.relu" -> s; c = ReduceMean(s) > 0.5 ("gate")
//   If "route" (c):
//     then_branch: Conv "t1" (s) -> Relu "t1.relu" -> Conv "t2" -> t
//     else_branch: Conv "e1" (s) -> Add "e.add" (s) -> e
//   Loop "refine" (2 trips, state = the If's output): body: Conv "l1" (state) -> Relu "l1.relu" -> Add "l.add" (s)
//   -> Conv "head" -> y
#include <memory>
#include <string>

#include "core/model/model.h"

namespace ql::test {

std::unique_ptr<Model> nestedControlFlowModel();
std::unique_ptr<Model> convBranchesModel();
// PyTorch's form of Silero VAD (legacy): the branches' weights are initializers of the main graph, read from outer
// scope. x [1,4,8,8] -> Relu "pre" -> r; If "pick" (ReduceMean(r) > 0.5): then Conv "a" (r, w) -> Relu "a.relu",
// else Conv "b" (r, w) -> Add "b.add" (r2 from the main graph); w [8,4,3,3] and its bias in the main graph.
std::unique_ptr<Model> outerWeightBranchesModel();
void saveRateSwitchModel(const std::string& path);

}  // namespace ql::test
