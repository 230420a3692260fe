#include "core/data/npy.h"

#include <bit>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string_view>

#include "core/common/atomic_file.h"
#include "core/common/element_count.h"
#include "core/common/mapped_file.h"

namespace ql {
namespace {

static_assert(std::endian::native == std::endian::little, "the .npy reader assumes a little-endian host");

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kPreludeV1 = 10;  // magic(6) + version(2) + uint16 header length
constexpr size_t kPreludeV2 = 12;  // magic(6) + version(2) + uint32 header length

struct DtypeCode {
    char kind;
    size_t size;
    DataType dtype;
};

constexpr DtypeCode kDtypes[] = {
    {'f', 2, DataType::Float16}, {'f', 4, DataType::Float},  {'f', 8, DataType::Double}, {'i', 1, DataType::Int8},
    {'i', 2, DataType::Int16},   {'i', 4, DataType::Int32},  {'i', 8, DataType::Int64},  {'u', 1, DataType::UInt8},
    {'u', 2, DataType::UInt16},  {'u', 4, DataType::UInt32}, {'u', 8, DataType::UInt64}, {'b', 1, DataType::Bool},
};

struct NpyHeader {
    DataType dtype = DataType::Undefined;
    bool fortranOrder = false;
    Shape shape;
};

// The header is a Python dict literal, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
// This parses exactly the subset numpy writes: quoted strings, True/False and tuples of integers.
class HeaderParser {
public:
    HeaderParser(std::string_view text, const std::string& label) : mText(text), mLabel(label) {}

    Result<NpyHeader> parse() {
        NpyHeader header;
        bool haveDescr = false, haveOrder = false, haveShape = false;
        if (!consume('{')) return error("the header is not a dict");
        while (!consume('}')) {
            QL_ASSIGN_OR_RETURN(std::string key, quoted());
            if (!consume(':')) return error("expected ':' after '" + key + "'");
            if (key == "descr") {
                QL_ASSIGN_OR_RETURN(header.dtype, descr());
                haveDescr = true;
            } else if (key == "fortran_order") {
                QL_ASSIGN_OR_RETURN(header.fortranOrder, boolean());
                haveOrder = true;
            } else if (key == "shape") {
                QL_ASSIGN_OR_RETURN(header.shape, tuple());
                haveShape = true;
            } else {
                return error("unexpected key '" + key + "'");
            }
            if (!consume(',') && peek() != '}') return error("expected ',' or '}'");
        }
        if (!haveDescr || !haveOrder || !haveShape)
            return error("the header lacks 'descr', 'fortran_order' or 'shape'");
        return header;
    }

private:
    Status error(const std::string& what) const {
        return invalidArgument(mLabel + ": not a valid .npy header (" + what + ")");
    }
    void skipSpace() {
        while (mPos < mText.size() && std::isspace(static_cast<unsigned char>(mText[mPos]))) ++mPos;
    }
    char peek() {
        skipSpace();
        return mPos < mText.size() ? mText[mPos] : '\0';
    }
    bool consume(char c) {
        if (peek() != c) return false;
        ++mPos;
        return true;
    }
    bool consumeWord(std::string_view word) {
        skipSpace();
        if (mText.substr(mPos, word.size()) != word) return false;
        mPos += word.size();
        return true;
    }
    Result<std::string> quoted() {
        const char q = peek();
        if (q != '\'' && q != '"') return error("expected a quoted string");
        const size_t end = mText.find(q, mPos + 1);
        if (end == std::string_view::npos) return error("unterminated string");
        std::string s(mText.substr(mPos + 1, end - mPos - 1));
        mPos = end + 1;
        return s;
    }
    Result<bool> boolean() {
        if (consumeWord("True")) return true;
        if (consumeWord("False")) return false;
        return error("'fortran_order' must be True or False");
    }
    Result<Shape> tuple() {
        if (!consume('(')) return error("'shape' must be a tuple");
        Shape shape;
        while (!consume(')')) {
            skipSpace();
            const size_t start = mPos;
            int64_t v = 0;
            while (mPos < mText.size() && std::isdigit(static_cast<unsigned char>(mText[mPos]))) {
                const int digit = mText[mPos++] - '0';
                if (v > (std::numeric_limits<int64_t>::max() - digit) / 10) return error("dimension too large");
                v = v * 10 + digit;
            }
            if (mPos == start) return error("'shape' must hold non-negative integers");
            consumeWord("L");  // Python 2 long suffix, written by old numpy
            shape.push_back(v);
            if (!consume(',') && peek() != ')') return error("expected ',' or ')' in 'shape'");
        }
        return shape;
    }
    Result<DataType> descr() {
        if (peek() == '[') {
            return unsupported(mLabel + ": structured arrays (record dtypes) are not supported; save one plain " +
                               "numeric array per file");
        }
        QL_ASSIGN_OR_RETURN(std::string d, quoted());
        return dtypeFromDescr(d);
    }
    Result<DataType> dtypeFromDescr(const std::string& d) const {
        if (d.size() < 2) return unsupported(mLabel + ": unsupported dtype '" + d + "'");
        const char order = d[0];
        const char kind = d[1];
        if (kind == 'O') {
            return unsupported(mLabel + ": the array holds Python objects (dtype object); save a numeric array, " +
                               "e.g. np.save(path, np.asarray(x, dtype=np.float32))");
        }
        size_t size = 0;
        for (size_t i = 2; i < d.size(); ++i) {
            if (!std::isdigit(static_cast<unsigned char>(d[i])) || size > 1000)
                return unsupported(mLabel + ": unsupported dtype '" + d + "'");
            size = size * 10 + static_cast<size_t>(d[i] - '0');
        }
        if (order == '>' && size > 1) {
            return unsupported(mLabel + ": the array is big-endian ('" + d + "'); convert it with " +
                               "arr.astype(arr.dtype.newbyteorder('<')) before saving");
        }
        if (order != '<' && order != '|' && order != '=' && order != '>')
            return unsupported(mLabel + ": unsupported dtype '" + d + "'");
        for (const DtypeCode& c : kDtypes)
            if (c.kind == kind && c.size == size) return c.dtype;
        return unsupported(mLabel + ": unsupported dtype '" + d +
                           "'; use float16/32/64, int8/16/32/64, uint8/16/32/64 or bool");
    }

    std::string_view mText;
    const std::string& mLabel;
    size_t mPos = 0;
};

uint32_t readLittleEndian(std::span<const std::byte> bytes, size_t offset, size_t width) {
    uint32_t v = 0;
    for (size_t i = 0; i < width; ++i) v |= static_cast<uint32_t>(bytes[offset + i]) << (8 * i);
    return v;
}

Result<std::string_view> headerText(std::span<const std::byte> bytes, const std::string& label) {
    const std::string_view all(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (all.size() < kPreludeV1 || all.substr(0, kMagic.size()) != kMagic)
        return invalidArgument(label + ": not a .npy file (the magic string \\x93NUMPY is missing)");
    const auto major = static_cast<uint8_t>(all[6]);
    if (major < 1 || major > 3) {
        return unsupported(label + ": .npy format version " + std::to_string(major) +
                           " is not supported (versions 1 to 3 are)");
    }
    const size_t prelude = major == 1 ? kPreludeV1 : kPreludeV2;
    if (all.size() < prelude) return invalidArgument(label + ": truncated .npy file (the header is cut short)");
    const size_t length = readLittleEndian(bytes, 8, prelude - 8);
    if (all.size() - prelude < length)
        return invalidArgument(label + ": truncated .npy file (the header is cut short)");
    return all.substr(prelude, length);
}

size_t dataOffset(std::string_view header, std::span<const std::byte> bytes) {
    return static_cast<size_t>(header.data() + header.size() - reinterpret_cast<const char*>(bytes.data()));
}

std::string descrOf(DataType dtype) {
    for (const DtypeCode& c : kDtypes) {
        if (c.dtype == dtype) return std::string(1, c.size == 1 ? '|' : '<') + c.kind + std::to_string(c.size);
    }
    return {};
}

}  // namespace

namespace {

// Where the array of a .npy lies in its bytes, after every check of the header against the data.
struct NpyLayout {
    DataType dtype = DataType::Float;
    Shape shape;
    size_t offset = 0, size = 0;
};

Result<NpyLayout> npyLayout(std::span<const std::byte> bytes, const std::string& label) {
    QL_ASSIGN_OR_RETURN(std::string_view text, headerText(bytes, label));
    QL_ASSIGN_OR_RETURN(NpyHeader header, HeaderParser(text, label).parse());
    if (header.fortranOrder) {
        return unsupported(label + ": the array is stored in Fortran order; save it with " +
                           "np.save(path, np.ascontiguousarray(arr))");
    }
    const std::optional<uint64_t> arrayBytes = checkedByteSize(header.shape, dataTypeSize(header.dtype));
    if (!arrayBytes || *arrayBytes > std::numeric_limits<size_t>::max())
        return invalidArgument(label + ": the shape in the header is too large");
    const auto expected = static_cast<size_t>(*arrayBytes);
    const size_t available = bytes.size() - dataOffset(text, bytes);
    if (available != expected) {
        return invalidArgument(label + ": the header promises " + shapeString(header.shape) + " " +
                               dataTypeName(header.dtype) + " (" + std::to_string(expected) + " bytes) but " +
                               std::to_string(available) + " bytes of data follow" +
                               (available < expected ? " (truncated file?)" : ""));
    }
    return NpyLayout{header.dtype, header.shape, dataOffset(text, bytes), expected};
}

}  // namespace

Result<Tensor> parseNpy(std::span<const std::byte> bytes, const std::string& label) {
    QL_ASSIGN_OR_RETURN(NpyLayout layout, npyLayout(bytes, label));
    Tensor tensor(layout.dtype, layout.shape);
    if (layout.size) std::memcpy(tensor.rawData(), bytes.data() + layout.offset, layout.size);
    if (layout.dtype == DataType::Bool) {  // numpy bools are 0/1; normalise anything else
        for (auto& b : tensor.span<uint8_t>()) b = b ? 1 : 0;
    }
    return tensor;
}

Result<Tensor> readNpy(const std::string& path) {
    auto file = MappedFile::open(path);
    if (!file.isOk()) return file.status();
    try {
        return parseNpy((*file)->bytes(), path);
    } catch (const std::bad_alloc&) {
        return ioError(path + ": not enough memory to read the array");
    }
}

Result<MappedNpy> mapNpy(const std::string& path) {
    QL_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, MappedFile::open(path));
    QL_ASSIGN_OR_RETURN(NpyLayout layout, npyLayout(file->bytes(), path));
    if (layout.dtype == DataType::Bool) {
        QL_ASSIGN_OR_RETURN(Tensor copy, readNpy(path));
        return MappedNpy{nullptr, std::move(copy)};
    }
    Tensor array = Tensor::borrowed(layout.dtype, layout.shape, file->bytes().data() + layout.offset);
    return MappedNpy{std::move(file), std::move(array)};
}

Result<std::string> encodeNpy(const Tensor& tensor) {
    const std::string descr = descrOf(tensor.dtype());
    if (descr.empty()) {
        return unsupported(std::string("cannot save a ") + dataTypeName(tensor.dtype()) +
                           " tensor as .npy (no numpy dtype)");
    }
    std::string dims;
    for (int64_t d : tensor.shape()) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    if (tensor.rank() == 1) dims += ',';  // Python's one-element tuple
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    // numpy pads with spaces and ends with '\n' so the data starts on a 64-byte boundary.
    const bool v2 = dict.size() + 1 + kPreludeV1 > 65535;
    const size_t prelude = v2 ? kPreludeV2 : kPreludeV1;
    const size_t total = ((prelude + dict.size() + 1 + 63) / 64) * 64;
    dict.append(total - prelude - dict.size() - 1, ' ');
    dict += '\n';
    std::string out(kMagic);
    out += static_cast<char>(v2 ? 2 : 1);
    out += '\0';
    for (size_t i = 0; i < prelude - 8; ++i) out += static_cast<char>((dict.size() >> (8 * i)) & 0xff);
    out += dict;
    out.append(static_cast<const char*>(tensor.rawData()), tensor.byteSize());
    return out;
}

Status writeNpy(const std::string& path, const Tensor& tensor) {
    auto bytes = encodeNpy(tensor);
    if (!bytes.isOk()) return bytes.status().withContext(path);
    return writeFileAtomically(path, *bytes);
}

std::string npyFileName(const std::string& tensorName) {
    std::string out = tensorName.empty() ? std::string("_") : tensorName;
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
    if (out == "." || out == "..") out = "_";
    // A file name holds 255 bytes: a longer tensor name keeps its first 200 characters and a hash of the whole name,
    // so two long names that share a beginning still get two files.
    constexpr size_t kKept = 200;
    if (out.size() + 4 > 255) {
        uint64_t hash = 14695981039346656037ull;  // FNV-1a
        for (unsigned char c : tensorName) hash = (hash ^ c) * 1099511628211ull;
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
        out = out.substr(0, kKept) + "_" + hex;
    }
    return out + ".npy";
}

Status writeNamedNpy(const std::string& dir, const std::vector<std::pair<std::string, Tensor>>& tensors) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return ioError("cannot create output folder '" + dir + "': " + ec.message());
    for (const auto& [name, tensor] : tensors)
        QL_RETURN_IF_ERROR(writeNpy((std::filesystem::path(dir) / npyFileName(name)).string(), tensor));
    return Status::ok();
}

}  // namespace ql
