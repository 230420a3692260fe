#pragma once
// Status / Result: errors a user can cause travel as values with a message that names the file,
// node or tensor and says what to do. Exceptions are for bugs and are caught at the core API edge.
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace ql {

enum class StatusCode {
    Ok = 0,
    InvalidArgument,  // bad usage or a bad value given by the user
    InvalidModel,     // the file is not a readable / valid ONNX model
    NotFound,         // a file, node or tensor that does not exist
    Unsupported,      // valid, but not handled (op, attribute value, dtype)
    IoError,          // reading or writing a file failed
    Cancelled,        // the user stopped the work
    Internal,         // a bug: should never be seen
};

const char* statusCodeName(StatusCode code);

class [[nodiscard]] Status {
public:
    Status() = default;
    Status(StatusCode code, std::string message) : mCode(code), mMessage(std::move(message)) {}
    static Status ok() { return {}; }

    bool isOk() const { return mCode == StatusCode::Ok; }
    explicit operator bool() const { return isOk(); }
    StatusCode code() const { return mCode; }
    const std::string& message() const { return mMessage; }
    // Prefixes the message with context, e.g. the file name: "model.onnx: <message>".
    Status withContext(const std::string& context) const;

private:
    StatusCode mCode = StatusCode::Ok;
    std::string mMessage;
};

inline Status invalidArgument(std::string m) {
    return {StatusCode::InvalidArgument, std::move(m)};
}
inline Status invalidModel(std::string m) {
    return {StatusCode::InvalidModel, std::move(m)};
}
inline Status notFound(std::string m) {
    return {StatusCode::NotFound, std::move(m)};
}
inline Status unsupported(std::string m) {
    return {StatusCode::Unsupported, std::move(m)};
}
inline Status ioError(std::string m) {
    return {StatusCode::IoError, std::move(m)};
}
inline Status cancelled(std::string m = "cancelled") {
    return {StatusCode::Cancelled, std::move(m)};
}
inline Status internalError(std::string m) {
    return {StatusCode::Internal, std::move(m)};
}

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : mData(std::move(value)) {}
    Result(Status status) : mData(std::move(status)) {}

    bool isOk() const { return std::holds_alternative<T>(mData); }
    explicit operator bool() const { return isOk(); }
    const Status& status() const {
        static const Status okStatus;
        return isOk() ? okStatus : std::get<Status>(mData);
    }
    T& value() & { return std::get<T>(mData); }
    const T& value() const& { return std::get<T>(mData); }
    T&& value() && { return std::get<T>(std::move(mData)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

private:
    std::variant<T, Status> mData;
};

}  // namespace ql

#define QL_CONCAT_INNER(a, b) a##b
#define QL_CONCAT(a, b) QL_CONCAT_INNER(a, b)

#define QL_RETURN_IF_ERROR(expr)                       \
    do {                                               \
        ::ql::Status qlStatusTmp_ = (expr);            \
        if (!qlStatusTmp_.isOk()) return qlStatusTmp_; \
    } while (0)

#define QL_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
    auto tmp = (expr);                           \
    if (!tmp.isOk()) return tmp.status();        \
    lhs = std::move(tmp).value()

// QL_ASSIGN_OR_RETURN(auto x, computeResult());
#define QL_ASSIGN_OR_RETURN(lhs, expr) QL_ASSIGN_OR_RETURN_IMPL(QL_CONCAT(qlResult_, __LINE__), lhs, expr)
