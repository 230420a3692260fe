#include "core/export/export_files.h"

#include "core/common/atomic_file.h"
#include "core/export/trtexec_command.h"
#include "core/quant/trt_cache.h"

namespace ql {

Result<int> trtCacheVersion(TrtVersion version) {
    if (version == TrtVersion::Trt11)
        return invalidArgument(
            "--trt 11: TensorRT 11 removed the calibrators (implicit INT8), so a calibration cache "
            "has no use there; the exported Q/DQ model carries its scales. Drop --trt-cache, or "
            "target 10 or 8.6 for the implicit path");
    return version == TrtVersion::Trt86 ? kTrtCacheVersion86 : kTrtCacheVersion10;
}

Status saveExportFiles(const QdqExport& result, const CalibrationResult& calibration, TrtVersion version,
                       const ExportFiles& files) {
    std::string command;
    if (!files.trtexec.empty()) {
        auto text = trtexecCommand(result, {files.model, files.trtexec, files.writer, files.shapes});
        if (!text) return text.status().withContext(files.trtexec);
        command = std::move(*text);
    }
    QL_RETURN_IF_ERROR(saveQdqExport(result, files.model, ""));
    if (!files.summary.empty()) {
        nlohmann::json summary = qdqSummaryJson(result);
        if (summary["script"].is_object()) summary["script"]["shapes"] = trtexecShapesJson(files.shapes);
        QL_RETURN_IF_ERROR(writeFileAtomically(files.summary, summary.dump(2) + "\n"));
    }
    if (!files.trtexec.empty()) QL_RETURN_IF_ERROR(writeFileAtomically(files.trtexec, command));
    if (files.trtCache.empty()) return Status::ok();
    QL_ASSIGN_OR_RETURN(const int cacheVersion, trtCacheVersion(version));
    return saveTrtCache(calibration, cacheVersion, files.trtCache);
}

}  // namespace ql
