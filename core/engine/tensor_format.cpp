#include "core/engine/tensor_format.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace ql {

namespace {

// Every spelling seen in trtexec's and the inspector's output, lower case, as whole words.
constexpr std::array<std::pair<std::string_view, EnginePrecision>, 17> kTypeWords = {{
    {"int8", EnginePrecision::Int8},
    {"fp16", EnginePrecision::Fp16},
    {"half", EnginePrecision::Fp16},
    {"fp32", EnginePrecision::Fp32},
    {"float", EnginePrecision::Fp32},
    {"float32", EnginePrecision::Fp32},
    {"bf16", EnginePrecision::Bf16},
    {"bfloat16", EnginePrecision::Bf16},
    {"fp8", EnginePrecision::Fp8},
    {"int32", EnginePrecision::Int32},
    {"int64", EnginePrecision::Int64},
    {"uint8", EnginePrecision::UInt8},
    {"bool", EnginePrecision::Bool},
    {"int4", EnginePrecision::Int4},
    {"fp4", EnginePrecision::Fp4},
    {"float16", EnginePrecision::Fp16},
    {"e4m3", EnginePrecision::Fp8},
}};

EnginePrecision precisionOfWord(const std::string& word) {
    for (const auto& [spelling, precision] : kTypeWords)
        if (word == spelling) return precision;
    return EnginePrecision::Unknown;
}

}  // namespace

EnginePrecision precisionFromFormat(std::string_view text) {
    // The first word that names a type wins: the type comes before the "where channel % 8 == 0" remarks.
    std::string word;
    for (size_t i = 0; i <= text.size(); ++i) {
        const char c = i < text.size() ? text[i] : ' ';
        if (std::isalnum(static_cast<unsigned char>(c))) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            continue;
        }
        if (word.empty()) continue;
        if (const EnginePrecision precision = precisionOfWord(word); precision != EnginePrecision::Unknown)
            return precision;
        word.clear();
    }
    return EnginePrecision::Unknown;
}

}  // namespace ql
