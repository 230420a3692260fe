// Renders the graph view of a model to a PNG (run with QT_QPA_PLATFORM=offscreen) and prints the times to
// load, lay out and first paint. For looking at the view, not a test.
//
//   ql_graph_snapshot MODEL.onnx OUT.png [--size 1600x1000] [--fit] [--qdq] [--zoom Z] [--find NAME]
//   ql_graph_snapshot --generate 5000 OUT.png ...   (scoped; --chain 5000: a flat chain)
#include <QApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QtTest>
#include <cstdio>

#include "tests/ui/graph/graph_test_models.h"
#include "ui/graph/graph_fit.h"
#include "ui/graph/graph_minimap.h"
#include "ui/graph/graph_view.h"

using namespace ql;

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QStringList args = app.arguments();
    QTextStream out(stdout);
    if (args.size() < 3) {
        out << "usage: ql_graph_snapshot MODEL.onnx|--generate N|--chain N OUT.png [--size WxH] [--fit] [--qdq] "
               "[--zoom Z] [--find NAME] [--no-collapse] [--layered] [--demo]\n";
        return 2;
    }
    QElapsedTimer timer;
    timer.start();
    std::unique_ptr<Model> model;
    int next = 1;
    if (args[1] == QLatin1String("--quantized-conv")) {
        model = test::quantizedConvModel();
        next = 2;
    } else if (args[1] == QLatin1String("--generate")) {
        model = test::scopedModel(args[2].toInt());
        next = 3;
    } else if (args[1] == QLatin1String("--chain")) {
        model = test::chainModel(args[2].toInt());
        next = 3;
    } else {
        auto loaded = Model::load(args[1].toStdString());
        if (!loaded.isOk()) {
            out << "cannot load: " << QString::fromStdString(loaded.status().message()) << "\n";
            return 2;
        }
        model = std::move(*loaded);
        next = 2;
    }
    const QString png = args[next];
    out << "load: " << timer.elapsed() << " ms, " << model->graph().nodes().size() << " nodes" << Qt::endl;
    QSize size(1600, 1000);
    ui::GraphView view;
    for (int i = next + 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--size") && i + 1 < args.size()) {
            const QStringList wh = args[++i].split(QLatin1Char('x'));
            size = QSize(wh.value(0).toInt(), wh.value(1).toInt());
        } else if (args[i] == QLatin1String("--qdq")) {
            view.setShowQdq(true);
        } else if (args[i] == QLatin1String("--layered")) {
            ui::LayoutOptions options;
            options.dotLimit = 0;
            view.graphScene()->setLayoutOptions(options);
        } else if (args[i] == QLatin1String("--no-collapse")) {
            view.graphScene()->setCollapseThresholds(1000000, 1000000);
        }
    }
    view.resize(size);
    view.show();
    timer.restart();
    view.setGraph(model->graph());
    (void)QTest::qWaitFor([&] { return view.graphScene()->layout() && !view.graphScene()->isLayoutPending(); }, 600000);
    const qint64 laidOut = timer.elapsed();
    for (int i = next + 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--fit")) {
            QElapsedTimer fitTimer;
            fitTimer.start();
            view.fitToWindow();
            (void)QTest::qWaitFor([&] { return !view.fit()->isFitting(); }, 600000);
            out << "fit: " << fitTimer.elapsed() << " ms, " << view.graphScene()->layout()->graph.nodes.size()
                << " boxes in " << view.graphScene()->layout()->columns << " columns\n";
        }
        if (args[i] == QLatin1String("--zoom") && i + 1 < args.size()) {
            const double z = args[++i].toDouble();
            view.setTransform(QTransform::fromScale(z, z));
        }
        if (args[i] == QLatin1String("--find") && i + 1 < args.size()) {
            view.findAndCenter(args[++i]);  // may open the bodies its match is in
            (void)QTest::qWaitFor([&] { return view.shownScene()->layout() && !view.shownScene()->isLayoutPending(); },
                                  600000);
            QCoreApplication::processEvents();
        }
    }
    if (args.contains(QLatin1String("--demo"))) {
        // Every precision and both badge severities, to look at them.
        const auto& nodes = model->graph().nodes();
        for (size_t i = 0; i < nodes.size(); ++i) {
            view.setNodePrecision(static_cast<NodeId>(i), static_cast<Precision>(i % 3));
            if (i % 4 == 1)
                view.setNodeBadge(static_cast<NodeId>(i), i % 8 == 1 ? Severity::Error : Severity::Warning,
                                  QStringLiteral("demo finding"));
        }
        if (!nodes.empty()) view.selectNode(0);
    }
    view.minimap()->renderIfChanged();
    out << "minimap render: " << view.minimap()->lastRenderMs() << " ms\n";
    const QPixmap shot = view.grab();
    const qint64 painted = timer.elapsed();
    const ui::GraphLayout& layout = *view.graphScene()->layout();
    out << "layout: " << (layout.algorithm == ui::LayoutAlgorithm::Dot ? "dot" : "layered") << " "
        << static_cast<int>(layout.seconds * 1000) << " ms for " << layout.graph.nodes.size() << " boxes ("
        << layout.graph.operatorCount << " operators, collapse depth " << layout.graph.collapseDepth << ")\n";
    out << "setGraph -> layout applied: " << laidOut << " ms; -> first paint: " << painted << " ms\n";
    out << "zoom " << view.zoomFactor() << "\n";
    return shot.save(png) ? 0 : 1;
}
