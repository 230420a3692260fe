#pragma once
// A lint rule explained for people, as HTML: its id, the TensorRT versions it checks and its most severe finding,
// its explanation and its source (a link when it is a URL). Shared by the findings dock and Help > TensorRT Lint
// Rules, so both say the same.
#include <QString>
#include <string>

namespace ql::ui {

QString ruleHtml(const std::string& ruleId);

}  // namespace ql::ui
