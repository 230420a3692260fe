#pragma once
// A read-only memory mapping of a whole file: big weights are read in place, not copied.
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "core/common/status.h"

namespace ql {

class MappedFile {
public:
    static Result<std::shared_ptr<MappedFile>> open(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::span<const std::byte> bytes() const { return {static_cast<const std::byte*>(mData), mSize}; }
    size_t size() const { return mSize; }
    const std::string& path() const { return mPath; }
    // Lets the OS drop the whole pages inside `range` (part of bytes()) from this process: a later read
    // faults them in again from the file. Keeps memory bounded when a large file is read once, in order.
    void release(std::span<const std::byte> range) const;

private:
    MappedFile() = default;
    void* mData = nullptr;
    size_t mSize = 0;
    std::string mPath;
};

}  // namespace ql
