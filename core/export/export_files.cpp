#include "core/export/export_files.h"

#include "core/common/atomic_file.h"
#include "core/export/trtexec_command.h"
#include "core/quant/trt_cache.h"

namespace ql {

Status saveExportFiles(const QdqExport& result, const CalibrationResult& calibration, TrtVersion version,
                       const ExportFiles& files) {
    std::string command;
    if (!files.trtexec.empty()) {
        auto text = trtexecCommand(result, files.model);
        if (!text) return text.status().withContext(files.trtexec);
        command = std::move(*text);
    }
    QL_RETURN_IF_ERROR(saveQdqExport(result, files.model, files.summary));
    if (!files.trtexec.empty()) QL_RETURN_IF_ERROR(writeFileAtomically(files.trtexec, command));
    if (files.trtCache.empty()) return Status::ok();
    const int cacheVersion = version == TrtVersion::Trt86 ? kTrtCacheVersion86 : kTrtCacheVersion10;
    return saveTrtCache(calibration, cacheVersion, files.trtCache);
}

}  // namespace ql
