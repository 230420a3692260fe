// Issue 18, item 6 (the window's part): findings grouped by rule with counts, an explanation pane beside the list
// (the rule's explanation and the finding's fix, not only a tooltip), and rules silenced per project (no badges,
// kept in the project file).
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/findings_panel.h"
#include "ui/project_file.h"

using namespace ql;

class FindingsPanelTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void findingsAreGroupedByRuleWithCounts();
    void aRuleWithThousandsOfFindingsListsThemWhenOpened();
    void theExplanationPaneExplainsTheRuleAndTheFix();
    void aSilencedRuleLeavesTheGraphAndIsSavedInTheProject();
};

namespace {

constexpr int kConvs = 5;

// `convs` grouped Convs with 6 channels per group (not a multiple of 4): one rule, a finding each, as PP-OCR's
// 32 near-identical warnings.
std::string writeGroupedConvs(const test::TempDir& dir, int convs = kConvs) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 12, 8, 8});
    std::string previous = "x";
    for (int i = 0; i < convs; ++i) {
        const std::string n = std::to_string(i);
        b.initializer("w" + n, {12, 6, 3, 3}, test::seededFloats(12 * 6 * 9, 3 + i, -0.1f, 0.1f));
        b.node("Conv", {previous, "w" + n}, {"c" + n}, "conv" + n).i("group", 2).ints("pads", {1, 1, 1, 1});
        previous = "c" + n;
    }
    b.output(previous);
    const std::string path = dir.file("grouped.onnx");
    b.save(path);
    return path;
}

// The rule with the most findings, and how many it has.
std::pair<std::string, int> busiestRule(const LintReport& report) {
    std::map<std::string, int> counts;
    for (const Finding& f : report.findings) ++counts[f.ruleId];
    std::pair<std::string, int> best;
    for (const auto& [rule, count] : counts)
        if (count > best.second) best = {rule, count};
    return best;
}

void load(ui::ModelDocument& document, const std::string& path) {
    const auto loaded = ui::ModelDocument::load(QString::fromStdString(path));
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    document.replaceModel(*loaded);
}

}  // namespace

void FindingsPanelTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("findings_panel_test"));
}

void FindingsPanelTest::findingsAreGroupedByRuleWithCounts() {
    test::TempDir dir;
    ui::ModelDocument document;
    load(document, writeGroupedConvs(dir));
    const auto [rule, count] = busiestRule(document.lint());
    QVERIFY2(count >= kConvs, rule.c_str());
    ui::FindingsPanel panel(&document);
    const QStringList rows = panel.ruleRows();
    QCOMPARE(rows.count(QString::fromStdString(rule)), 1);  // one row for the rule, its findings under it
    QTreeWidgetItem* row = panel.tree()->topLevelItem(static_cast<int>(rows.indexOf(QString::fromStdString(rule))));
    QCOMPARE(row->childCount(), count);
    QVERIFY(row->text(0).contains(QStringLiteral("(%1)").arg(count)));
}

// Made up front, thousands of rows held the window up on every lint: they are made when the rule is opened.
void FindingsPanelTest::aRuleWithThousandsOfFindingsListsThemWhenOpened() {
    test::TempDir dir;
    ui::ModelDocument document;
    load(document, writeGroupedConvs(dir, static_cast<int>(ui::FindingsPanel::kListedUnopened) + 1));
    const auto [rule, count] = busiestRule(document.lint());
    QVERIFY2(count > static_cast<int>(ui::FindingsPanel::kListedUnopened), rule.c_str());
    ui::FindingsPanel panel(&document);
    QTreeWidgetItem* row =
        panel.tree()->topLevelItem(static_cast<int>(panel.ruleRows().indexOf(QString::fromStdString(rule))));
    QVERIFY(row->text(0).contains(QStringLiteral("(%1)").arg(count)));
    QCOMPARE(row->childCount(), 0);
    QCOMPARE(row->childIndicatorPolicy(), QTreeWidgetItem::ShowIndicator);  // it can be opened
    row->setExpanded(true);
    QCOMPARE(row->childCount(), count);
    QStringList listed, expected;
    for (int i = 0; i < count; ++i) listed << row->child(i)->text(1) + row->child(i)->text(0);
    for (const Finding& f : document.lint().findings)
        if (f.ruleId == rule) expected << QString::fromStdString(f.nodeName + f.message);
    QCOMPARE(listed, expected);  // the rule's findings, in report order
    row->setExpanded(false);
    row->setExpanded(true);
    QCOMPARE(row->childCount(), count);  // listed once
}

void FindingsPanelTest::theExplanationPaneExplainsTheRuleAndTheFix() {
    test::TempDir dir;
    ui::ModelDocument document;
    load(document, writeGroupedConvs(dir));
    const std::string rule = busiestRule(document.lint()).first;
    ui::FindingsPanel panel(&document);
    panel.showRule(QString::fromStdString(rule));
    QVERIFY(panel.explanation()->toPlainText().contains(QString::fromStdString(rule)));
    QVERIFY(panel.explanation()->toPlainText().size() > static_cast<qsizetype>(rule.size()) + 40);
    QTreeWidgetItem* finding = panel.tree()->currentItem()->child(0);
    panel.tree()->setCurrentItem(finding);
    QVERIFY(panel.explanation()->toPlainText().contains(QStringLiteral("Fix:")));
}

void FindingsPanelTest::aSilencedRuleLeavesTheGraphAndIsSavedInTheProject() {
    test::TempDir dir;
    const std::string model = writeGroupedConvs(dir);
    const QString project = QString::fromStdString(dir.file("quiet.qlproj"));
    ui::MainWindow window;
    ui::ModelDocument& document = *window.document();
    load(document, model);
    const std::string rule = busiestRule(document.lint()).first;
    ui::GraphScene* scene = window.findChild<ui::GraphView*>()->graphScene();
    // Badges that show one of the rule's findings.
    const auto ruleBadges = [&] {
        int shown = 0;
        for (const Finding& f : document.lint().findings)
            if (f.ruleId == rule && scene->nodeBadgeText(f.node) == QString::fromStdString(f.message)) ++shown;
        return shown;
    };
    QVERIFY(ruleBadges() > 0);
    document.setRuleSilenced(QString::fromStdString(rule), true);
    QVERIFY(document.isModified());
    QCOMPARE(ruleBadges(), 0);
    auto* panel = window.findChild<ui::FindingsPanel*>();
    QVERIFY(panel->tree()
                ->topLevelItem(static_cast<int>(panel->ruleRows().indexOf(QString::fromStdString(rule))))
                ->text(0)
                .contains(QStringLiteral("silenced")));
    QVERIFY(ui::saveProject(document, project).isOk());

    const auto loaded = ui::loadProject(project);
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    QCOMPARE(loaded->silencedRules, QStringList{QString::fromStdString(rule)});
}

QTEST_MAIN(FindingsPanelTest)
#include "findings_panel_test.moc"
