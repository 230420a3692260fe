#pragma once
// The "TensorRT Findings" dock: the lint report grouped by rule (one row per rule with its count and severity,
// its findings under it), an explanation pane beside the list (the rule's explanation and source, the finding's
// message, fix and tensor), and rules silenced per project (context menu; silenced rules are listed apart,
// greyed, and leave the graph's badges); over them, for a model TensorRT cannot parse (ONNX Runtime's operator
// form), the offer of the float model it was made from.
#include <QWidget>
#include <vector>

class QTreeWidget;
class QTreeWidgetItem;
class QTextBrowser;
class QCheckBox;

namespace ql {
struct Finding;
}

namespace ql::ui {

class ModelDocument;
class FloatImportOffer;

class FindingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit FindingsPanel(ModelDocument* document, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return mTree; }
    QTextBrowser* explanation() const { return mExplanation; }
    // The banner that offers the float import of an operator-form model (hidden for other models).
    FloatImportOffer* floatImportOffer() const { return mFloatImport; }
    // The rule rows shown: "rule-id", in the order shown.
    QStringList ruleRows() const;
    // Selects the rule's row (or the finding's) and explains it, as a click would.
    void showRule(const QString& ruleId);
    // A rule with more findings than this lists them when its row is opened.
    static constexpr size_t kListedUnopened = 500;

signals:
    void nodeSelected(int node);
    void tensorSelected(const QString& tensor);

private:
    void rebuild();
    void addFindingRows(QTreeWidgetItem* row, const std::vector<const Finding*>& findings) const;
    void listUnopenedFindings(QTreeWidgetItem* row) const;
    void explain(QTreeWidgetItem* item);
    void activate(QTreeWidgetItem* item);
    void showContextMenu(const QPoint& pos);

    ModelDocument* mDocument;
    QTreeWidget* mTree;
    QTextBrowser* mExplanation;
    QCheckBox* mShowSilenced;
    FloatImportOffer* mFloatImport;
};

}  // namespace ql::ui
