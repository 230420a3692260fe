#pragma once
// Gives the heap memory a replaced model freed back to the system. glibc keeps freed pages of its arenas
// (every worker thread that loaded or ran a model has one), so without a trim a 2 GB model that was closed stays
// resident. Runs on a worker thread: trimming a large heap takes tens of milliseconds.
namespace ql::ui {

void releaseFreedMemory();

}  // namespace ql::ui
