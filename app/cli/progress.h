#pragma once
// Progress of a long command (calibrate, compare, tune) on stderr: the phase, how much of it is done, the time spent
// and an estimate of what is left. Redrawn in place on a terminal; with --progress also written to a log or a pipe
// (a CI job), one line per tenth of each phase. Silent otherwise, so scripted output stays clean.
#include <chrono>
#include <cstdint>
#include <string>

#include "core/quant/calibration.h"

namespace ql::cli {

class CommandProgress {
public:
    // `task`: what the command does ("calibrating"). `forced`: --progress.
    CommandProgress(std::string task, bool forced);
    ~CommandProgress();
    CommandProgress(const CommandProgress&) = delete;
    CommandProgress& operator=(const CommandProgress&) = delete;

    // `done` of `total` units ("samples", "layers") of `phase`; a new phase restarts the clock of the estimate.
    void update(const std::string& phase, int64_t done, int64_t total, const std::string& units = "samples");
    // A ProgressFn over samples for core functions; null when silent.
    ProgressFn samples(const std::string& phase = "reading");
    // Ends the current line; the destructor does it too.
    void finish();

private:
    std::string line(const std::string& phase, int64_t done, int64_t total, const std::string& units) const;

    std::string mTask;
    bool mActive = false;
    bool mTerminal = false;
    bool mOpenLine = false;
    std::string mPhase;
    int64_t mLastTenth = -1;
    std::chrono::steady_clock::time_point mPhaseStart;
};

}  // namespace ql::cli
