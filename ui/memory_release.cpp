#include "ui/memory_release.h"

#include <QtConcurrent/QtConcurrentRun>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ql::ui {

void releaseFreedMemory() {
#if defined(__GLIBC__)
    (void)QtConcurrent::run([] { malloc_trim(0); });
#endif
}

}  // namespace ql::ui
