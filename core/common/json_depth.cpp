#include "core/common/json_depth.h"

namespace ql {

Status checkJsonDepth(std::string_view text, const std::string& label) {
    size_t depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;  // the escaped character cannot end the string
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) {
                return invalidArgument(label + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                       " levels at byte " + std::to_string(i) + "; no QuantLens file nests so deep");
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return Status::ok();
}

}  // namespace ql
