#pragma once
// The TensorRT a lint, a simulation or an export targets (TensorRT 10.12 release notes, 11.x "Migrating from
// TensorRT 10.x"): rules whose verdict changed between versions read it, and so does the export, which writes what
// that version builds.
//   8.6   weakly typed: FP16/INT8 chosen by builder flags (--int8 --fp16), layers pinned with --layerPrecisions.
//   10.x  strongly typed by default (--stronglyTyped: every tensor's type is in the model), weakly typed on
//         request (deprecated since 10.12).
//   11.x  strongly typed only: the builder precision flags, calibrators and per-layer constraints are gone.
#include <optional>
#include <string>

namespace ql {

enum class TrtVersion { Trt86, Trt10, Trt11 };

// Bit set of the versions a rule applies to.
enum TrtVersionMask : unsigned {
    kTrt86Only = 1u,
    kTrt10Only = 2u,
    kTrt11Only = 4u,
    kTrt86And10 = kTrt86Only | kTrt10Only,  // what TensorRT 11 removed
    kTrt10AndLater = kTrt10Only | kTrt11Only,
    kAllTrtVersions = kTrt86Only | kTrt10Only | kTrt11Only,
};

inline unsigned versionBit(TrtVersion version) {
    switch (version) {
        case TrtVersion::Trt86:
            return kTrt86Only;
        case TrtVersion::Trt10:
            return kTrt10Only;
        case TrtVersion::Trt11:
            break;
    }
    return kTrt11Only;
}
const char* trtVersionName(TrtVersion version);  // "8.6", "10.x", "11.x"
// The major version: 8, 10 or 11.
int trtMajor(TrtVersion version);
// Accepts "8.6", "8", "10", "10.x", "11", "11.x" and minor versions such as "10.8" or "11.2".
std::optional<TrtVersion> parseTrtVersion(const std::string& text);

// How the network's precisions are decided: by builder flags (weak) or by the model's own tensor types (strong).
enum class TrtTyping { Weak, Strong };

const char* trtTypingName(TrtTyping typing);  // "weak", "strong"
// 8.6: weak; 10.x and 11.x: strong.
TrtTyping defaultTyping(TrtVersion version);
// Whether `version` can build a network typed so: 8.6 only weakly, 11.x only strongly, 10.x both.
bool supportsTyping(TrtVersion version, TrtTyping typing);

// A version and its typing.
struct TrtTarget {
    TrtVersion version = TrtVersion::Trt10;
    TrtTyping typing = TrtTyping::Strong;
};

// "10.x, strongly typed"
std::string trtTargetName(const TrtTarget& target);

}  // namespace ql
