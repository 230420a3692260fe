#pragma once
// File > Export for TensorRT, for a model with dynamic inputs (a symbolic batch, a dynamic H/W): the TensorRT
// optimization profile of each, which the trtexec script passes as --minShapes/--optShapes/--maxShapes
// (core/export/trtexec_shapes.h). One field per dynamic input, "MIN:OPT:MAX" or one shape, each like 1x3x640x640,
// prefilled with the shapes the calibration ran; an empty field leaves the input to trtexec (its open dimensions
// become 1), and the export's summary says so. Checked before the dialog closes, as `quantize --shapes` is.
#include <QDialog>
#include <vector>

#include "core/export/trtexec_shapes.h"
#include "core/model/graph.h"

class QLabel;
class QLineEdit;

namespace ql::ui {

class ExportShapesDialog : public QDialog {
    Q_OBJECT
public:
    // `shapes`: trtexecShapes() of the model with the calibration's shapes (its inputs are the dynamic ones).
    ExportShapesDialog(const Graph& graph, const TrtexecShapes& shapes, QWidget* parent = nullptr);

    QLineEdit* field(const QString& input) const;
    // The shapes the fields give (valid once accepted); an empty field, or one still holding the calibration's shapes
    // (which the export takes anyway, saying they come from the calibration), gives none.
    Result<std::vector<InputShapeRange>> shapes() const;
    QString errorText() const;
    void accept() override;  // checks the fields first

    // "1x3x640x640" when min, opt and max agree, else "min:opt:max".
    static QString rangeText(const InputShapeRange& range);

private:
    const Graph& mGraph;
    struct Field {
        QString input;
        QLineEdit* edit;
        QString prefilled;
    };
    std::vector<Field> mFields;
    QLabel* mError;
};

}  // namespace ql::ui
