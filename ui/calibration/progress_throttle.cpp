#include "ui/calibration/progress_throttle.h"

namespace ql::ui {

bool ProgressThrottle::admit(std::string_view phase, bool final) {
    const auto now = std::chrono::steady_clock::now();
    if (phase == mLastPhase && now - mLast < mInterval && !final) return false;
    mLast = now;
    mLastPhase = phase;
    return true;
}

}  // namespace ql::ui
