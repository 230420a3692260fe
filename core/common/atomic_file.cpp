#include "core/common/atomic_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

namespace ql {

Status writeFileAtomically(const std::string& path, const std::function<Status(std::ostream&)>& write) {
    namespace fs = std::filesystem;
    std::random_device rd;
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rd());
    Status status;
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return ioError(path + ": cannot create a file here (check the folder exists and is writable)");
        try {
            status = write(out);
        } catch (const std::exception& e) {
            status = internalError(path + ": " + e.what());
        }
        out.flush();
        if (status.isOk() && !out) status = ioError(path + ": write failed (disk full?)");
    }
    if (!status.isOk()) {
        std::error_code ec;
        fs::remove(tmp, ec);
        return status;
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return ioError(path + ": cannot replace the file: " + ec.message());
    }
    return Status::ok();
}

Status writeFileAtomically(const std::string& path, std::string_view content) {
    return writeFileAtomically(path, [&](std::ostream& out) {
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        return Status::ok();
    });
}

}  // namespace ql
