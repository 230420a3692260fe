// Issue 27 in the window: what the table, the graph and the status bar say runs is what the export writes. The
// sample, calibrated, with the plan a tune to output-sqnr>=40 gives (its first four convs FP16; /Add and /Relu left
// planned INT8, which nothing can fuse any more), exported for TensorRT 10 (weak and strong) and 11, and each
// export opened again as a user opens it: every node of the source has the precision the reopened file shows, and
// the status bar's count is the export's.
#include <QtTest>

#include "core/export/qdq_export.h"
#include "core/model/fp16_form.h"
#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/export_job.h"
#include "ui/model_document.h"

namespace ql {

class RoundTripTest : public QObject {
    Q_OBJECT
private slots:
    void tunedPlanReadsTheSameInTheWindowAndInTheExportedFile();
};

namespace {

NodeId nodeNamed(const ui::ModelDocument& document, const char* name) {
    return *document.model()->graph().findNode(name);
}

}  // namespace

void RoundTripTest::tunedPlanReadsTheSameInTheWindowAndInTheExportedFile() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    QList<NodeId> tuned;
    for (const char* conv : {"/stem/stem.0/Conv", "/block/block.0/Conv", "/block/block.3/Conv", "/down/down.0/Conv"})
        tuned.append(nodeNamed(document, conv));
    document.setRequestedPrecision(tuned, Precision::Fp16);
    test::TempDir dir;
    for (const TrtTarget target :
         {TrtTarget{TrtVersion::Trt10, TrtTyping::Weak}, TrtTarget{TrtVersion::Trt10, TrtTyping::Strong},
          TrtTarget{TrtVersion::Trt11, TrtTyping::Strong}}) {
        document.setTrtTarget(target);
        const Graph& graph = document.model()->graph();
        // Planned INT8, but both its inputs now come from FP16 convs: nothing to fuse into, no Q/DQ.
        QCOMPARE(document.plan().requested(nodeNamed(document, "/Add")), Precision::Int8);
        QVERIFY(document.plan().effective(nodeNamed(document, "/Add")) != Precision::Int8);
        QVERIFY(document.plan().effective(nodeNamed(document, "/Relu")) != Precision::Int8);
        const QString path = QString::fromStdString(dir.file("digits.qdq.onnx"));
        const QString summary = ui::runExport({.model = document.sharedModel(),
                                               .plan = document.plan(),
                                               .calibration = document.calibration(),
                                               .target = target,
                                               .modelPath = path});
        QVERIFY2(!summary.startsWith(QStringLiteral("error")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("%1 of %2 weighted layers INT8")
                                      .arg(document.lint().coverage.int8Layers)
                                      .arg(document.lint().coverage.weightedLayers)),
                 qPrintable(summary));

        auto reopened = ui::ModelDocument::load(path, target);
        QVERIFY2(reopened->model, qPrintable(reopened->error));
        const Graph& file = reopened->model->graph();
        int compared = 0;
        for (const Node& node : graph.nodes()) {
            const auto same = file.findNode(node.name);
            if (!same || !hasPrecisionChoice(graph, node)) continue;
            const Precision shown = document.plan().effective(node.id), written = reopened->plan.effective(*same);
            const QString what =
                QStringLiteral("%1 on TensorRT %2 (%3): the window shows %4, the file %5")
                    .arg(QString::fromStdString(node.name), QString::fromStdString(trtTargetName(target)),
                         QString::fromStdString(document.plan().explanation(node.id)),
                         QString::fromUtf8(precisionName(shown)), QString::fromUtf8(precisionName(written)));
            // A weakly typed file leaves FP16 or FP32 to the builder (--fp16 and the script's pins): INT8 or not.
            if (target.typing == TrtTyping::Strong)
                QVERIFY2(shown == written, qPrintable(what));
            else
                QVERIFY2((shown == Precision::Int8) == (written == Precision::Int8), qPrintable(what));
            ++compared;
        }
        QCOMPARE(compared, 14);  // every compute node of the sample
        QCOMPARE(reopened->lint.coverage.int8Layers, document.lint().coverage.int8Layers);
    }
}

}  // namespace ql

QTEST_MAIN(ql::RoundTripTest)
#include "round_trip_test.moc"
