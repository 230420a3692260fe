#pragma once
// Decides which progress reports of a worker reach the GUI thread: at most one per interval, but always the
// first report of a new phase (so the phase text never lags) and the final one. Used on the worker thread by
// the calibration and tune runners before they queue a report to the GUI.
#include <chrono>
#include <string>
#include <string_view>

namespace ql::ui {

class ProgressThrottle {
public:
    explicit ProgressThrottle(int intervalMs) : mInterval(std::chrono::milliseconds(intervalMs)) {}

    // True when the report of `phase` should go through; `final`: the phase's (or job's) last report.
    bool admit(std::string_view phase, bool final);

private:
    std::chrono::steady_clock::duration mInterval;
    std::chrono::steady_clock::time_point mLast{};
    std::string mLastPhase;
};

}  // namespace ql::ui
