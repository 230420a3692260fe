// How long idle OpenMP threads spin before they sleep, for the quantlens executables.
//
// oneDNN and the executor's loops run on libgomp. A thread that reaches a barrier first spins there: 300,000
// `pause` iterations when the user set neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT, ~15 ms on CPUs whose pause
// takes ~140 cycles (Skylake and later). When other processes share the cores, the thread it waits for is often
// not running, and the spinner holds a core for those milliseconds at each of the ~100 parallel regions of an
// inference: MobileNetV2 at 2 threads took 440 ms instead of 11 ms at load average 3 on 2 cores. With 1,000
// iterations (~50 us, longer than the gap between two regions of one inference) it took 14 ms under the same
// load and the idle-machine latency is unchanged.
//
// libgomp reads its settings once, while it is loaded, before any code of ours runs. So the setting is made
// from .preinit_array, which the dynamic loader runs before any shared library's initialisation, and only when
// the user set neither variable (their choice wins); a constructor, which runs after the libraries' ones, removes
// it again, so processes started from here inherit the user's environment unchanged.
#include <cstdlib>

namespace {

constexpr const char* kSpinCount = "GOMP_SPINCOUNT";
bool gSet = false;

void limitOpenMpSpinning(int, char**, char**) {
    if (std::getenv("OMP_WAIT_POLICY") || std::getenv(kSpinCount)) return;
    gSet = setenv(kSpinCount, "1000", 0) == 0;
}

__attribute__((constructor)) void restoreEnvironment() {
    if (gSet) unsetenv(kSpinCount);
}

}  // namespace

__attribute__((section(".preinit_array"),
               used)) static void (*const kLimitOpenMpSpinning)(int, char**, char**) = limitOpenMpSpinning;
