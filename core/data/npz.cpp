#include "core/data/npz.h"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <span>

#include "core/common/mapped_file.h"
#include "core/data/npy.h"

namespace ql {
namespace {

// Zip layout (PKWARE APPNOTE.TXT): the End Of Central Directory record at the end lists the central
// directory, whose entries give each member's sizes, method and the offset of its local header.
constexpr uint32_t kEndOfDirectory = 0x06054b50;
constexpr uint32_t kDirectoryEntry = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint16_t kZip64Extra = 0x0001;
constexpr uint32_t kZip64Marker = 0xffffffffu;
constexpr uint16_t kStored = 0;
constexpr uint16_t kDeflated = 8;

class ByteReader {
public:
    explicit ByteReader(std::span<const std::byte> bytes) : mBytes(bytes) {}
    bool has(size_t offset, size_t n) const { return offset <= mBytes.size() && n <= mBytes.size() - offset; }
    uint64_t le(size_t offset, size_t n) const {
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(mBytes[offset + i]) << (8 * i);
        return v;
    }
    std::span<const std::byte> slice(size_t offset, size_t n) const { return mBytes.subspan(offset, n); }
    size_t size() const { return mBytes.size(); }

private:
    std::span<const std::byte> mBytes;
};

struct Member {
    std::string name;
    uint16_t method = 0;
    uint32_t crc = 0;
    uint64_t compressedSize = 0;
    uint64_t size = 0;
    uint64_t localOffset = 0;
};

// Large members (and numpy's force_zip64 writes) keep 64-bit sizes in a "zip64 extended information"
// extra field; each 32-bit field set to 0xffffffff is replaced by the next 64-bit value, in order.
void applyZip64(const ByteReader& r, size_t extra, size_t extraLength, Member& m) {
    for (size_t p = extra; p + 4 <= extra + extraLength;) {
        const auto id = static_cast<uint16_t>(r.le(p, 2));
        const auto length = static_cast<size_t>(r.le(p + 2, 2));
        if (id == kZip64Extra) {
            size_t q = p + 4;
            for (uint64_t* field : {&m.size, &m.compressedSize, &m.localOffset}) {
                if (*field == kZip64Marker && q + 8 <= p + 4 + length) {
                    *field = r.le(q, 8);
                    q += 8;
                }
            }
        }
        p += 4 + length;
    }
}

Result<std::vector<Member>> readDirectory(const ByteReader& r, const std::string& path) {
    const Status corrupt = invalidArgument(path + ": not a valid .npz file (corrupt or not a zip archive); " +
                                           "write it with np.savez or np.savez_compressed");
    if (r.size() < 22) return corrupt;
    // The record is 22 bytes plus a comment of up to 65535 bytes.
    size_t eocd = r.size() - 22;
    const size_t lowest = r.size() > 22 + 65535 ? r.size() - 22 - 65535 : 0;
    while (r.le(eocd, 4) != kEndOfDirectory) {
        if (eocd == lowest) return corrupt;
        --eocd;
    }
    const auto count = static_cast<size_t>(r.le(eocd + 10, 2));
    const uint64_t dirOffset = r.le(eocd + 16, 4);
    if (dirOffset == kZip64Marker) return unsupported(path + ": zip64 archives over 4 GB are not supported");
    std::vector<Member> members;
    size_t p = static_cast<size_t>(dirOffset);
    for (size_t i = 0; i < count; ++i) {
        if (!r.has(p, 46) || r.le(p, 4) != kDirectoryEntry) return corrupt;
        Member m;
        m.method = static_cast<uint16_t>(r.le(p + 10, 2));
        m.crc = static_cast<uint32_t>(r.le(p + 16, 4));
        m.compressedSize = r.le(p + 20, 4);
        m.size = r.le(p + 24, 4);
        const auto nameLength = static_cast<size_t>(r.le(p + 28, 2));
        const auto extraLength = static_cast<size_t>(r.le(p + 30, 2));
        const auto commentLength = static_cast<size_t>(r.le(p + 32, 2));
        m.localOffset = r.le(p + 42, 4);
        if (!r.has(p + 46, nameLength + extraLength + commentLength)) return corrupt;
        const auto name = r.slice(p + 46, nameLength);
        m.name.assign(reinterpret_cast<const char*>(name.data()), name.size());
        applyZip64(r, p + 46 + nameLength, extraLength, m);
        members.push_back(std::move(m));
        p += 46 + nameLength + extraLength + commentLength;
    }
    return members;
}

Result<std::string> inflateMember(std::span<const std::byte> compressed, const Member& m, const std::string& label,
                                  const DataLimits& limits) {
    // Deflate expands at most ~1032:1; a larger claimed size is a damaged header, not worth allocating.
    if (m.size > compressed.size() * 1032 + 1024) return invalidArgument(label + ": corrupt sizes in the archive");
    if (m.size > limits.maxDecodedBytes) {
        return invalidArgument(label + ": the member inflates to " + std::to_string(m.size >> 20) + " MB from " +
                               std::to_string(compressed.size() >> 10) + " KB, over the limit of " +
                               std::to_string(limits.maxDecodedBytes >> 20) +
                               " MB (--max-decoded-mb raises it; large data reads better as .npy files)");
    }
    if (m.size > std::numeric_limits<uInt>::max() || compressed.size() > std::numeric_limits<uInt>::max())
        return unsupported(label + ": compressed members over 4 GB are not supported; use np.savez");
    std::string out(static_cast<size_t>(m.size), '\0');
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return internalError(label + ": zlib could not start");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(compressed.data()));
    z.avail_in = static_cast<uInt>(compressed.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&z, Z_FINISH);
    const bool complete = rc == Z_STREAM_END && z.total_out == m.size;
    inflateEnd(&z);
    if (!complete) return invalidArgument(label + ": corrupt compressed data (the archive is damaged)");
    return out;
}

Result<Tensor> readMember(const ByteReader& r, const Member& m, const std::string& path, const DataLimits& limits) {
    const std::string label = path + " (member " + m.name + ")";
    const Status truncated = invalidArgument(label + ": the archive is truncated or damaged");
    if (!r.has(m.localOffset, 30) || r.le(m.localOffset, 4) != kLocalHeader) return truncated;
    const size_t data = m.localOffset + 30 + r.le(m.localOffset + 26, 2) + r.le(m.localOffset + 28, 2);
    if (!r.has(data, m.compressedSize)) return truncated;
    const auto compressed = r.slice(data, m.compressedSize);
    std::string inflated;
    std::span<const std::byte> bytes = compressed;
    if (m.method == kDeflated) {
        QL_ASSIGN_OR_RETURN(inflated, inflateMember(compressed, m, label, limits));
        bytes = std::as_bytes(std::span<const char>(inflated));
    } else if (m.method != kStored) {
        return unsupported(label + ": zip compression method " + std::to_string(m.method) +
                           " is not supported; write the file with np.savez or np.savez_compressed");
    }
    if (bytes.size() != m.size) return truncated;
    const auto crc = crc32_z(0L, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size());
    if (crc != m.crc) return invalidArgument(label + ": checksum mismatch (the archive is damaged)");
    return parseNpy(bytes, label);
}

}  // namespace

Result<NpzArrays> readNpz(const std::string& path, const DataLimits& limits) {
    QL_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, MappedFile::open(path));
    return parseNpz(file->bytes(), path, limits);
}

Result<NpzArrays> parseNpz(std::span<const std::byte> bytes, const std::string& path, const DataLimits& limits) {
    const ByteReader r(bytes);
    try {
        QL_ASSIGN_OR_RETURN(std::vector<Member> members, readDirectory(r, path));
        NpzArrays arrays;
        for (const Member& m : members) {
            if (!m.name.ends_with(".npy")) {
                return invalidArgument(path + ": member '" + m.name + "' is not a .npy array; an .npz holds only " +
                                       "arrays written by np.savez");
            }
            QL_ASSIGN_OR_RETURN(Tensor t, readMember(r, m, path, limits));
            arrays.emplace_back(m.name.substr(0, m.name.size() - 4), std::move(t));
        }
        return arrays;
    } catch (const std::bad_alloc&) {
        return ioError(path + ": not enough memory to read the archive");
    }
}

}  // namespace ql
