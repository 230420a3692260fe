#include "core/common/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace ql {

Result<std::shared_ptr<MappedFile>> MappedFile::open(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ioError(path + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return ioError(path + ": not a regular file");
    }
    std::shared_ptr<MappedFile> file(new MappedFile);
    file->mPath = path;
    file->mSize = static_cast<size_t>(st.st_size);
    if (file->mSize > 0) {
        void* data = ::mmap(nullptr, file->mSize, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data == MAP_FAILED) {
            int err = errno;
            ::close(fd);
            return ioError(path + ": cannot map: " + std::strerror(err));
        }
        file->mData = data;
    }
    ::close(fd);
    return file;
}

void MappedFile::release(std::span<const std::byte> range) const {
    const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<uintptr_t>(range.data()) + page - 1) / page * page;
    const auto end = (reinterpret_cast<uintptr_t>(range.data()) + range.size()) / page * page;
    // Advice only: if the OS declines, the pages simply stay.
    if (mData && page > 0 && end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

MappedFile::~MappedFile() {
    if (mData) ::munmap(mData, mSize);
}

}  // namespace ql
