#pragma once
// One change made while preparing a model for export, for the user's summary.
#include <string>

namespace ql {

struct PreparationStep {
    std::string action;  // "fold-batchnorm", "fold-constant", "keep-batchnorm"
    std::string node;    // the node removed or kept (its model name)
    std::string detail;  // e.g. "into Conv 'conv1'", or why it was not folded
};

}  // namespace ql
