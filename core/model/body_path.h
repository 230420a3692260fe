#pragma once
// Where a tensor or node of an If/Loop/Scan body is named: "<node>/<attribute>/", nested bodies appending theirs
// ("If_0/then_branch/Loop_1/body/conv"). The executor's nested observers, the calibration's subgraph ranges, lint's
// findings, the analysis and the export summary all use this one form.
#include <string>

namespace ql {

inline std::string bodyPathStep(const std::string& node, const std::string& attribute) {
    return node + "/" + attribute + "/";
}

}  // namespace ql
