#pragma once
// Everything an export writes, for the CLI (`quantize`) and the window (File > Export) alike: the Q/DQ model,
// the JSON summary of every decision, the trtexec command and the TensorRT calibration cache. Each file is
// written atomically; the trtexec command is made before anything is written, so a layer name trtexec cannot
// parse leaves no file behind.
#include <string>

#include "core/common/status.h"
#include "core/export/qdq_export.h"
#include "core/export/trtexec_shapes.h"
#include "core/lint/trt_version.h"

namespace ql {

struct ExportFiles {
    std::string model;    // required
    std::string summary;  // optional (empty: not written), likewise below
    std::string trtexec;
    std::string trtCache;
    std::string writer;  // who the trtexec script says wrote it: "quantlens-cli", "the QuantLens window"
    // The optimization profile of the dynamic inputs (trtexecShapes): in the script, and in the summary as
    // "script": {"shapes": {"inputs": [...], "missing": [...]}}.
    TrtexecShapes shapes{};
};

// The calibration cache header's version for `version`; TensorRT 11 has no calibrators, so a cache is an error there.
Result<int> trtCacheVersion(TrtVersion version);

Status saveExportFiles(const QdqExport& result, const CalibrationResult& calibration, TrtVersion version,
                       const ExportFiles& files);

}  // namespace ql
