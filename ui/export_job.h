#pragma once
// File > Export for TensorRT without Qt threading: what one export needs (copies taken on the GUI thread) and
// the work itself, run on a worker by ProjectController.
#include <QString>
#include <memory>

#include "core/export/qdq_export.h"
#include "core/export/trtexec_shapes.h"
#include "core/lint/trt_version.h"
#include "core/model/model.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace ql::ui {

struct ExportJob {
    std::shared_ptr<const Model> model;
    PrecisionPlan plan;  // the document's, effective precisions already decided for `target`
    std::shared_ptr<const CalibrationResult> calibration;
    TrtTarget target;
    QString modelPath;  // the Q/DQ model; the other files go beside it
    // The optimization profiles the export dialog gave (ExportShapesDialog); a dynamic input not listed takes the
    // calibration's shapes, or none (the summary says which input has none).
    std::vector<InputShapeRange> shapes{};
};

// The Q/DQ model, its decision summary, the trtexec command and, where the target has calibrators (not 11), the
// TensorRT calibration cache (export_files.h), each written atomically. Returns a summary for the user naming the
// target, what the script relies on and the dynamic inputs it has no shapes for, or "error: ..." naming what failed.
QString runExport(const ExportJob& job);

// What the exported script relies on, in a sentence: "the model's types (12 nodes in FP16, 6 casts added); no
// precision flags" when strongly typed, "--int8 --fp16; 3 layers pinned FP32 (--layerPrecisions)" when weakly
// typed, then "; 2 layers kept FP32 by the FP16 guard" when the guard kept any. Counts of zero are left out.
QString exportScriptSummary(const QdqExport& result);

}  // namespace ql::ui
