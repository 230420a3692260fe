#include "app/cli/progress.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace ql::cli {

namespace {

std::string minutesSeconds(double seconds) {
    const long total = static_cast<long>(seconds + 0.5);
    char text[32];
    std::snprintf(text, sizeof(text), "%ld:%02ld", total / 60, total % 60);
    return text;
}

}  // namespace

CommandProgress::CommandProgress(std::string task, bool forced)
    : mTask(std::move(task)), mTerminal(isatty(STDERR_FILENO) != 0), mPhaseStart(std::chrono::steady_clock::now()) {
    mActive = mTerminal || forced;
}

CommandProgress::~CommandProgress() {
    finish();
}

std::string CommandProgress::line(const std::string& phase, int64_t done, int64_t total,
                                  const std::string& units) const {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - mPhaseStart).count();
    std::string text = mTask + ": " + phase + " " + std::to_string(done) + "/" + std::to_string(total);
    if (!units.empty()) text += " " + units;
    if (total <= 0) return text;
    text += " (" + std::to_string(done * 100 / total) + "%), " + minutesSeconds(elapsed);
    if (done >= total) return text + ", done";
    if (done > 0) text += ", about " + minutesSeconds(elapsed * static_cast<double>(total - done) / done) + " left";
    return text;
}

void CommandProgress::update(const std::string& phase, int64_t done, int64_t total, const std::string& units) {
    if (!mActive) return;
    if (phase != mPhase) {
        finish();
        mPhase = phase;
        mLastTenth = -1;
        mPhaseStart = std::chrono::steady_clock::now();
    }
    const std::string text = line(phase, done, total, units);
    if (mTerminal) {
        std::cerr << "\r\033[K" << text << std::flush;  // \033[K: clear what a longer previous line left
        mOpenLine = true;
        return;
    }
    const int64_t tenth = total > 0 ? done * 10 / total : 0;
    if (tenth == mLastTenth) return;
    mLastTenth = tenth;
    std::cerr << text << std::endl;
}

ProgressFn CommandProgress::samples(const std::string& phase) {
    if (!mActive) return {};
    return [this, phase](int64_t done, int64_t total) { update(phase, done, total); };
}

void CommandProgress::finish() {
    if (mOpenLine) std::cerr << std::endl;
    mOpenLine = false;
}

}  // namespace ql::cli
